#!/usr/bin/env python3
"""Compare spoor's kernel trace with an independent recording of the same events.

  kernel-compare.py trace-cmd SPOOR_BT2_CYCLES TRACECMD_REPORT_R
      sched_switch events of `babeltrace2 --clock-cycles` on spoor's trace against
      `trace-cmd report -R` of a trace-cmd recording made at the same time with the
      x86-tsc clock: both are raw TSC values, so every event trace-cmd has must be in
      spoor's trace, per CPU in the same order with the same fields and nothing between,
      at the same time (within TOLERANCE: each instance stamps the event itself).

  kernel-compare.py ftrace SPOOR_FTRACE SPOOR_BT2_CYCLES KERNEL_TRACE
      spoor's `dump --format=ftrace` columns (TASK-PID, CPU, FLAGS) against the kernel's
      own `trace` text of an instance recording sched_switch at the same time with the
      x86-tsc clock. spoor's lines get their raw timestamps from babeltrace2's (same
      order: the tests check that spoor and babeltrace2 order events identically).

Prints what it compared; exits 1 on any difference.
"""
import re
import sys

SW_FIELDS = ("prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio")


def bt2_switches(path):
    """(cycles, cpu, fields) of each sched_switch in babeltrace2 --clock-cycles text."""
    out = []
    for line in open(path, errors="replace"):
        if " sched_switch: " not in line:
            continue
        m = re.match(r"\[(\d+)\]", line)
        cpu = re.search(r"\{ cpu_id = (\d+) \}", line)
        vals = tuple(re.search(r"\b%s = (\"[^\"]*\"|-?\d+)" % f, line).group(1).strip('"') for f in SW_FIELDS)
        out.append((int(m.group(1)), int(cpu.group(1)), vals))
    return out


def tracecmd_switches(path):
    out = []
    for line in open(path, errors="replace"):
        m = re.match(r"\s*.*?-\d+\s+\[(\d+)\]\s*(\d+): sched_switch:\s+(.*)$", line)
        if not m:
            continue
        # a value runs to the next " name=": thread names hold spaces ("Application notification")
        kv = dict(re.findall(r"(\w+)=(.*?)(?=\s+\w+=|\s*$)", m.group(3)))
        out.append((int(m.group(2)), int(m.group(1)), tuple(kv[f] for f in SW_FIELDS)))
    return out


# Two tracefs instances stamp the same event separately (each buffer reads the clock when
# it reserves room), a few microseconds apart: timestamps must agree within this many
# cycles (1 ms at 2.5 GHz), fields and order exactly.
TOLERANCE = 2500000


# prev_state is read by each instance's probe in turn, and a task switching out for the last
# time can be reaped by its parent on another CPU in between: its exit_state goes from
# EXIT_ZOMBIE (32) to EXIT_DEAD (16), so the two recordings of that one event may disagree
# there (seen: spoor's probe first with 32, trace-cmd's 0.4 us later with 16). Only that:
# the earlier stamp says 32, the later 16, and the task never runs again (last_in).
STATE = SW_FIELDS.index("prev_state")
last_in = {}  # pid -> the last time spoor's trace switches it in


def reaped_between(s, o):
    """Rows (cycles, cpu, fields) of one switch, equal but for that race."""
    a, b = s[2], o[2]
    if len(a) != len(SW_FIELDS) or len(b) != len(SW_FIELDS):
        return False
    if a[:STATE] != b[:STATE] or a[STATE + 1:] != b[STATE + 1:]:
        return False
    first, then = (a, b) if s[0] < o[0] else (b, a) if o[0] < s[0] else (None, None)
    return (first is not None and (first[STATE], then[STATE]) == ("32", "16") and
            last_in.get(a[1], -1) < min(s[0], o[0]))


def same_event(s, o):
    """(cycles, cpu, ...) rows of one CPU: the same event, within TOLERANCE."""
    if abs(s[0] - o[0]) >= TOLERANCE:
        return False
    return s[2:] == o[2:] or (len(s) == 3 and len(o) == 3 and reaped_between(s, o))


def window_compare(spoor, other, what):
    """Per CPU, other's events are a contiguous run of spoor's: same order, same fields,
    timestamps within TOLERANCE, nothing in between."""
    bad = 0
    cpus = sorted({e[1] for e in other})
    total = 0
    for cpu in cpus:
        o = [e for e in other if e[1] == cpu]
        s = [e for e in spoor if e[1] == cpu]
        total += len(o)
        starts = [j for j, e in enumerate(s) if same_event(e, o[0])]
        best, best_j = 0, None
        for j in starts:
            k = 0
            while k < len(o) and j + k < len(s) and same_event(s[j + k], o[k]):
                k += 1
            if k > best:
                best, best_j = k, j
            if k == len(o):
                break
        if best != len(o):
            bad += 1
            print("cpu %d: %s has %d sched_switch, only the first %d match spoor's in order" % (cpu, what, len(o), best))
            if best < len(o):
                print("  %s's event %d: %r" % (what, best, o[best]))
            if best_j is not None:  # what spoor has there, to tell a loss from a reorder
                for e in s[max(0, best_j + best - 2):best_j + best + 3]:
                    print("  spoor near it: %r" % (e,))
    print("compared %d sched_switch events on %d CPUs with %s" % (total, len(cpus), what))
    if total < 10:
        print("too few events to compare")
        return 1
    return 1 if bad else 0


def kernel_trace_lines(path):
    """(cycles, cpu, task, pid, flags) of sched_switch lines of the kernel's trace file."""
    out = []
    for line in open(path, errors="replace"):
        m = re.match(r"\s*(.+)-(\d+)\s+\[(\d+)\] (\S{5})\s+(\d+): sched_switch:", line)
        if m:
            out.append((int(m.group(5)), int(m.group(3)), m.group(1).strip(), int(m.group(2)), m.group(4)))
    return out


def spoor_ftrace_lines(ftrace_path, bt2_path):
    """spoor's lines, with each one's TASK-PID checked against its event's prev_comm and
    prev_pid as babeltrace2 prints them (the idle task is "<idle>" in ftrace's text)."""
    bt2 = bt2_switches(bt2_path)
    out = []
    for line in open(ftrace_path, errors="replace"):
        m = re.match(r"\s*(.+)-(\d+)\s+\[(\d+)\] (\S{5})\s+[\d.]+: sched_switch:", line)
        if m:
            out.append([None, int(m.group(3)), m.group(1).strip(), int(m.group(2)), m.group(4)])
    if len(out) != len(bt2):
        print("spoor ftrace has %d sched_switch lines, babeltrace2 %d" % (len(out), len(bt2)))
        sys.exit(1)
    for e, (cycles, _, v) in zip(out, bt2):
        e[0] = cycles
        if e[3] != int(v[1]) or e[2] != (v[0] if e[3] else "<idle>"):
            print("spoor ftrace TASK-PID %s-%d, its event's prev_comm and prev_pid %s %s" %
                  (e[2], e[3], v[0], v[1]))
            sys.exit(1)
    return [tuple(e) for e in out]


def main():
    if sys.argv[1] == "trace-cmd":
        spoor = bt2_switches(sys.argv[2])
        for cycles, _, v in spoor:
            last_in[v[5]] = max(last_in.get(v[5], -1), cycles)
        return window_compare(spoor, tracecmd_switches(sys.argv[3]), "trace-cmd")
    if sys.argv[1] == "ftrace":
        spoor = spoor_ftrace_lines(sys.argv[2], sys.argv[3])
        kernel = kernel_trace_lines(sys.argv[4])
        # TASK names: the kernel's come from its comm cache when the file is read, spoor's
        # from the trace at the time of the event; they differ only for a thread renamed
        # (exec, prctl) meanwhile, when the kernel shows a name spoor gives the thread too
        # (before or after)
        strip = lambda l: [(c, cpu, pid, fl) for c, cpu, _, pid, fl in l]
        rc = window_compare(strip(spoor), strip(kernel), "the kernel's trace file")
        # pair lines by CPU, pid and flags in order (the alignment above proved it holds)
        pairs = []
        for cpu in sorted({e[1] for e in kernel}):
            k = [e for e in kernel if e[1] == cpu]
            sp = [e for e in spoor if e[1] == cpu]
            for j in range(len(sp)):
                if sp[j][3:] == k[0][3:] and abs(sp[j][0] - k[0][0]) < TOLERANCE:
                    pairs += list(zip(sp[j:j + len(k)], k))
                    break
        # every name spoor's trace gives a pid: TASK columns, and the comms of the switches'
        # payloads (a task renamed by exec may show its new name only when switched in)
        names = {}
        for e in spoor:
            names.setdefault(e[3], set()).add(e[2])
        for _, _, v in bt2_switches(sys.argv[3]):
            names.setdefault(int(v[1]), set()).add(v[0])
            names.setdefault(int(v[5]), set()).add(v[4])
        known = [(a[2], b[2], b[3]) for a, b in pairs if b[2] != "<...>"]
        same = sum(1 for a, b, _ in known if a == b)
        renamed = sum(1 for a, b, pid in known if a != b and b in names.get(pid, ()))
        print("TASK names agree on %d of %d lines, %d more renamed meanwhile" % (same, len(known), renamed))
        if not known or same + renamed < len(known):
            for a, b, pid in known:
                if a != b and b not in names.get(pid, ()):
                    print("  spoor %r, kernel %r" % (a, b))
                    break
            return 1
        return rc
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
