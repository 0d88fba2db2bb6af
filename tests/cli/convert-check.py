#!/usr/bin/env python3
"""convert-check.py BEFORE.txt AFTER.txt BLOCK_DEVICES: babeltrace2's text of a spoor kernel
trace and of its conversion (spoor convert --layout=lttng) hold the same events with the same
values, only named as lttng-modules 2.13 names them. Checked:

- every event but the state dump's, pairwise in order: the same time and CPU, the context's
  common_pid as tid (its other members left out, as LTTng has none); the
  name as LTTng's (sys_enter_X: syscall_entry_X, sys_exit_X: syscall_exit_X, softirq_X:
  irq_softirq_X, x86's vectors' X_entry: x86_irq_vectors_X_entry, the others alike); the
  same fields in the same order, with __syscall_nr and sched_process_exit's group_dead
  left out, a *pid of the sched events as *tid, and their priorities less 100, the calls
  of CALL_FIELDS with LTTng's argument names; the block events' fields as BLOCK says
  (LTTng's order: the task's tid added, the kernel's ioprio and cmd left out, rwbs as
  LTTng's flags); the same values; sched_process_fork with lttng-modules 2.13's fields,
  in its order: its tids and comms the same, parent_pid and child_pid (tgids:
  lttng-layout.sh checks them), the namespaces 0 and vtids the child's tid alone (a
  converted trace has no /proc); a path (-k libc): an address before, a string after,
  which must be the path of the libc_* event last seen on that CPU if it was the same
  thread's (it waits for that thread's next path-taking call), else empty;
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


# lttng-modules' x86 interrupt vectors (include/instrumentation/events/arch/x86/
# irq_vectors.h): x86_irq_vectors_ and the kernel's name, x86_platform_ipi's as ipi
VECTORS = {"local_timer", "reschedule", "spurious_apic", "error_apic", "irq_work",
           "call_function", "call_function_single", "threshold_apic", "deferred_error_apic",
           "thermal_apic", "x86_platform_ipi"}


def lttng_name(name):
    for ftrace, lttng in (("sys_enter_", "syscall_entry_"), ("sys_exit_", "syscall_exit_"),
                          ("softirq_", "irq_softirq_")):
        if name.startswith(ftrace):
            return lttng + name[len(ftrace):]
    m = re.match(r"(\w+)_(entry|exit)$", name)
    if m and m.group(1) in VECTORS:
        return "x86_irq_vectors_%s_%s" % (m.group(1).replace("x86_platform_ipi", "ipi"),
                                           m.group(2))
    return name


# lttng-modules 2.13's block events (include/instrumentation/events/block.h, kernels >=
# 5.17): their fields in order; tid is the task's (the context's common_pid), rwbs an
# integer of RWBS_FLAG_* bits
BLOCK = {}
for names, fields in (
        (("block_rq_insert", "block_rq_issue", "block_rq_merge"),
         "dev sector nr_sector bytes tid rwbs comm"),
        (("block_rq_complete", "block_bio_complete"), "dev sector nr_sector error rwbs"),
        (("block_rq_requeue",), "dev sector nr_sector rwbs"),
        (("block_rq_remap",), "dev sector nr_sector old_dev old_sector rwbs"),
        (("block_bio_queue", "block_bio_backmerge", "block_bio_frontmerge", "block_bio_bounce",
          "block_getrq"), "dev sector nr_sector rwbs tid comm"),
        (("block_bio_remap",), "dev sector nr_sector rwbs old_dev old_sector"),
        (("block_split",), "dev sector rwbs new_sector tid comm"),
        (("block_plug",), "tid comm"), (("block_unplug",), "nr_rq tid comm")):
    for n in names:
        BLOCK[n] = fields.split()
# the flags: WRITE 1, DISCARD 2, READ 4, RAHEAD 8, SYNC 32, META 64, SECURE 128, FLUSH 256,
# FUA 512, PREFLUSH 1024 (blk_rwbs_ctf_integer); the kernel's text (blk_fill_rwbs): F for a
# preflush, the operation (W, D, DE secure erase, F flush, R, N none, Z. zoned, WZ write
# zeroes), then F for FUA, A, S, M
OPS = {"W": 1, "D": 2, "DE": 2 | 128, "F": 256, "R": 4}
MODS = {"F": 512, "A": 8, "S": 32, "M": 64}


def rwbs_flags(text):
    m = re.match(r"(F(?=[WDFRNZ]))?(DE|WZ|ZRA|Z.|[WDFRN])?(.*)$", text)
    return ((1024 if m.group(1) else 0) | OPS.get(m.group(2), 0) |
            sum(MODS.get(c, 0) for c in set(m.group(3))))


# the system calls whose arguments lttng-modules names otherwise (None: not written)
CALL_FIELDS = {"clone": {"clone_flags": "flags", "parent_tidptr": "parent_tid",
                         "child_tidptr": "child_tid", "tls": None},
               "mmap": {"off": "offset"}, "getcpu": {"unused": "tcache"},
               "socketpair": {"usockvec": "socket"}}


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


def fork_fields(want, got):
    """LTTng 2.13's sched_process_fork (want: the renamed ftrace fields), the tgids as got has
    them."""
    w, g = dict(want), dict(got)
    return [("parent_comm", w.get("parent_comm")), ("parent_tid", w.get("parent_tid")),
            ("parent_pid", g.get("parent_pid")), ("parent_ns_inum", "0"),
            ("child_comm", w.get("child_comm")), ("child_tid", w.get("child_tid")),
            ("_vtids_length", "1"), ("vtids", "[ [0] = %s ]" % w.get("child_tid")),
            ("child_pid", g.get("child_pid")), ("child_ns_inum", "0")]


def main():
    before, after, ndev = parse(sys.argv[1]), parse(sys.argv[2]), int(sys.argv[3])
    bad = []
    b_events = [e for e in before if e[1] != "statedump_process"]
    a_events = [e for e in after if not e[1].startswith("lttng_statedump_")]
    if len(b_events) != len(a_events):
        bad.append("%d events before, %d after" % (len(b_events), len(a_events)))
    renamed = 0
    waiting = {}  # per CPU: the last libc_* event's (tid, paths)
    for b, a in zip(b_events, a_events):
        where = "%s %s" % (b[0], b[1])
        # the context: common_pid alone, as LTTng's tid context
        ctx = ["tid = " + v for k, v in FIELD.findall(b[3]) if k == "common_pid"]
        if (a[0], a[2], a[3]) != (b[0], b[2], ", ".join(ctx)):
            bad.append("%s: time, CPU or context changed: %s" % (where, a[:4]))
        if a[1] != lttng_name(b[1]):
            bad.append("%s: named %s" % (where, a[1]))
        tid = dict(FIELD.findall(b[3])).get("common_pid")
        if b[1].startswith("libc_"):
            waiting[b[2]] = (tid, [v for _, v in b[4] if v.startswith('"')])
        paths = None
        if b[1].startswith("sys_enter_") and any(
                v.startswith("0x") and dict(a[4]).get(k, "").startswith('"') for k, v in b[4]):
            w = waiting.pop(b[2], (None, []))
            paths = w[1] if w[0] == tid else []
        want = []
        call = CALL_FIELDS.get(b[1][len("sys_enter_"):], {}) if b[1].startswith("sys_enter_") \
            else {}
        for k, v in b[4]:
            if k == "__syscall_nr" or (b[1] == "sched_process_exit" and k == "group_dead"):
                continue
            if paths is not None and v.startswith("0x"):
                v = paths.pop(0) if paths else '""'
            if b[1] in TASK_EVENTS and k in PRIOS:
                v = str(int(v) - 100)
            k = call.get(k, k)
            if k:
                want.append((lttng_field(b[1], k), v))
        if b[1] in BLOCK:
            have = dict(b[4], tid=ctx[0][len("tid = "):] if ctx else None)
            if "rwbs" in have:
                have["rwbs"] = str(rwbs_flags(have["rwbs"].strip('"')))
            want = [(k, have[k]) for k in BLOCK[b[1]] if have.get(k) is not None]
        renamed += sum(1 for (k, _), (k2, _) in zip(b[4], want) if k != k2)
        if b[1] == "sched_process_fork":
            want = fork_fields(want, a[4])
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
