#!/usr/bin/env python3
"""convert-check.py BEFORE.txt AFTER.txt BLOCK_DEVICES: babeltrace2's text of a spoor kernel
trace and of its conversion (spoor convert --layout=lttng) hold the same events with the same
values, only named as lttng-modules 2.13 names them. Checked:

- every event but the state dump's, pairwise in order: the same time and CPU, the context's
  common_pid as tid (its other members left out, as LTTng has none); the
  name as LTTng's (sys_enter_X: syscall_entry_X, sys_exit_X: syscall_exit_X, softirq_X:
  irq_softirq_X, the others alike); the same fields in the same order, with __syscall_nr
  left out, a *pid of the sched events as *tid, and their priorities less 100; the same
  values;
- the state dump: spoor's statedump_process (tid, pid, ppid, name) as LTTng's
  lttng_statedump_process_state with the same values (its name cut to the kernel's 15
  bytes), between an lttng_statedump_start and
  an lttng_statedump_end, with BLOCK_DEVICES lttng_statedump_block_device events.
Prints what differs and exits 1 then."""
import re
import sys

LINE = re.compile(r"^\[([^\]]+)\] \([^)]*\) (?:\S+ )?(\S+): \{ cpu_id = (\d+) \}, \{ ([^}]*) \}, "
                  r"\{ ?(.*?) ?\}$")
FIELD = re.compile(r'(\w+) = ("(?:[^"\\]|\\.)*"|[^,]+)(?:, |$)')


def parse(path):
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = LINE.match(line.rstrip("\n"))
            if not m:
                sys.exit("%s:%d: not a babeltrace2 event line: %s" % (path, n, line))
            ts, name, cpu, ctx, fields = m.groups()
            out.append((ts, name, cpu, ctx, FIELD.findall(fields)))
    return out


def lttng_name(name):
    for ftrace, lttng in (("sys_enter_", "syscall_entry_"), ("sys_exit_", "syscall_exit_"),
                          ("softirq_", "irq_softirq_")):
        if name.startswith(ftrace):
            return lttng + name[len(ftrace):]
    return name


# lttng-modules' sched events (include/instrumentation/events/sched.h) write a task's id
# as *tid and its priority less MAX_RT_PRIO (100)
TASK_EVENTS = {"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
               "sched_migrate_task", "sched_process_free", "sched_process_exit",
               "sched_wait_task", "sched_process_wait", "sched_process_fork",
               "sched_process_exec", "sched_kthread_stop", "sched_stat_wait", "sched_stat_sleep",
               "sched_stat_iowait", "sched_stat_blocked", "sched_stat_runtime",
               "sched_pi_setprio"}
PRIOS = {"prio", "prev_prio", "next_prio", "oldprio", "newprio"}


def lttng_field(event, name):
    if event in TASK_EVENTS and name.endswith("pid"):
        return name[:-3] + "tid"
    return name


def main():
    before, after, ndev = parse(sys.argv[1]), parse(sys.argv[2]), int(sys.argv[3])
    bad = []
    b_events = [e for e in before if e[1] != "statedump_process"]
    a_events = [e for e in after if not e[1].startswith("lttng_statedump_")]
    if len(b_events) != len(a_events):
        bad.append("%d events before, %d after" % (len(b_events), len(a_events)))
    renamed = 0
    for b, a in zip(b_events, a_events):
        where = "%s %s" % (b[0], b[1])
        # the context: common_pid alone, as LTTng's tid context
        ctx = ["tid = " + v for k, v in FIELD.findall(b[3]) if k == "common_pid"]
        if (a[0], a[2], a[3]) != (b[0], b[2], ", ".join(ctx)):
            bad.append("%s: time, CPU or context changed: %s" % (where, a[:4]))
        if a[1] != lttng_name(b[1]):
            bad.append("%s: named %s" % (where, a[1]))
        want = []
        for k, v in b[4]:
            if k == "__syscall_nr":
                continue
            if b[1] in TASK_EVENTS and k in PRIOS:
                v = str(int(v) - 100)
            want.append((lttng_field(b[1], k), v))
        renamed += sum(1 for (k, _), (k2, _) in zip(b[4], want) if k != k2)
        if a[4] != want:
            bad.append("%s: fields %s, expected %s" % (where, a[4], want))
    if not renamed:
        bad.append("no field was renamed")
    # LTTng's name is the kernel's comm, 15 bytes (/proc adds to a kworker's)
    dump_b = sorted(tuple(dict(e[4])[k] for k in ("tid", "pid", "ppid")) +
                    ('"%s"' % dict(e[4])["name"][1:-1][:15],)
                    for e in before if e[1] == "statedump_process")
    dump_a = sorted(tuple(dict(e[4])[k] for k in ("tid", "pid", "ppid", "name"))
                    for e in after if e[1] == "lttng_statedump_process_state")
    if dump_a != dump_b or not dump_b:
        bad.append("the dump's threads: %s, expected %s" % (dump_a, dump_b))
    names = [e[1] for e in after if e[1].startswith("lttng_statedump_")]
    if names[:1] != ["lttng_statedump_start"] or names[-1:] != ["lttng_statedump_end"]:
        bad.append("the dump does not go from lttng_statedump_start to _end: %s" % names[:3])
    if names.count("lttng_statedump_block_device") != ndev:
        bad.append("%d block devices, expected %d" % (names.count("lttng_statedump_block_device"),
                                                     ndev))
    for line in bad[:20]:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
