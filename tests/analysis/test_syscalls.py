#!/usr/bin/env python3
"""spoor syscalls on small synthetic kernel traces (tests/data/gen_kernel.py) whose figures
are worked out by hand below: per-call durations and errors, per-process and per-thread
tables, an exit without its entry, a new thread's return from clone, exit_group, an entry
without its exit at the end, events lost mid-trace (with a thread that migrated away from
the CPU of the loss), an exit of another call, raw sys_enter/sys_exit numbers, and every
filter (--pid, --tid, --comm, --cpu, --syscall, --begin/--end, --top).

Environment: SPOOR (the binary), SPOOR_TEST_DATA (tests/data)."""
import functools
import json
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import check  # noqa: E402
import gen_kernel  # noqa: E402

run = functools.partial(common.spoor, "syscalls")  # run(ARGS): spoor syscalls ARGS
sc_json = functools.partial(common.spoor_json, "syscalls")  # parsed --json output, or None


def close(a, b, tol=1e-5):
    return common.close(a, b, tol)


def call(doc, name):
    return next((x for x in (doc or {}).get("syscalls", []) if x["name"] == name), None)


def group(doc, key, ident):
    rows = (doc or {}).get("threads" if key == "tid" else "processes", [])
    return next((x for x in rows if x[key] == ident), None)


def sub(g, name):
    return next((x for x in (g or {}).get("syscalls", []) if x["name"] == name), None)


def stat_is(x, count, total, mn, mx, sd, errors=0, noexit=0):
    return (x is not None and x["count"] == count and x["total_ns"] == total
            and x["min_ns"] == mn and x["max_ns"] == mx and close(x["stddev_ns"], sd)
            and close(x["mean_ns"], total / count if count else 0)
            and x["errors"] == errors and x["no_exit"] == noexit)


def E(ts, cpu, ev, pid=-1, **f):
    return (ts, cpu, ev, dict(f, common_pid=pid))


def dump(ts, tid, pid, name):
    return (ts, 0, "statedump_process", {"tid": tid, "pid": pid, "ppid": 1, "name": name})


# Trace A (ftrace names, the task from common_pid). Process 100 "app" has threads 100 and
# 101; process 200 "other". Times in ns.
#   read:   100: 1000-1500 (500, ret 10), 2000-2300 (300, -EAGAIN); 101: 1200-2200 (1000)
#           count 3, total 1800, mean 600, deviations -100 -300 400:
#           variance (1e4 + 9e4 + 16e4) / 2 = 130000, stddev 360.5551
#   openat: 100: 3000-3900 (900, -ENOENT)
#   write:  200: exit at 2500 without entry (unmatched); 3000-3100 (100);
#           100: entry at 9000, no exit before the end (unfinished)
#   exit_group: 200 at 4000 (never returns)
#   clone:  201 returns 0 at 5000 without entry (a new thread's first event)
#   close:  101: 6000-6050 (50)
TRACE_A = [
    dump(10, 100, 100, "app"), dump(11, 101, 100, "app"), dump(12, 200, 200, "other"),
    E(1000, 0, "sys_enter_read", 100, fd=3), E(1500, 0, "sys_exit_read", 100, ret=10),
    E(2000, 0, "sys_enter_read", 100, fd=3), E(2300, 0, "sys_exit_read", 100, ret=-11),
    E(3000, 0, "sys_enter_openat", 100, dfd=-100), E(3900, 0, "sys_exit_openat", 100, ret=-2),
    E(9000, 0, "sys_enter_write", 100, fd=1),
    E(1200, 1, "sys_enter_read", 101, fd=4), E(2200, 1, "sys_exit_read", 101, ret=5),
    E(2500, 1, "sys_exit_write", 200, ret=1),
    E(3000, 1, "sys_enter_write", 200, fd=1), E(3100, 1, "sys_exit_write", 200, ret=1),
    E(4000, 1, "sys_enter_exit_group", 200, error_code=0),
    E(5000, 1, "sys_exit_clone", 201, ret=0),
    E(6000, 1, "sys_enter_close", 101, fd=4), E(6050, 1, "sys_exit_close", 101, ret=0),
]
READ_SD = math.sqrt(130000)


def test_basic(d):
    doc = sc_json(d)
    check("A: totals", doc and doc["calls"] == 6 and doc["unmatched_exits"] == 1
          and doc["child_returns"] == 1 and doc["unfinished"] == 1 and doc["noreturn"] == 1
          and doc["superseded"] == 0 and doc["mismatched"] == 0 and doc["dropped_by_loss"] == 0)
    check("A: read 3 calls, 1800 ns, 300..1000, sd 360.555, 1 error",
          stat_is(call(doc, "read"), 3, 1800, 300, 1000, READ_SD, errors=1))
    check("A: read's errno EAGAIN", (call(doc, "read") or {}).get("errno") == {"EAGAIN": 1})
    check("A: openat 900 ns, ENOENT", stat_is(call(doc, "openat"), 1, 900, 900, 900, 0, errors=1)
          and call(doc, "openat")["errno"] == {"ENOENT": 1})
    check("A: write 1 completed, 1 unfinished", stat_is(call(doc, "write"), 1, 100, 100, 100, 0,
                                                         noexit=1))
    check("A: exit_group never returns", stat_is(call(doc, "exit_group"), 0, 0, 0, 0, 0, noexit=1))
    check("A: close 50 ns", stat_is(call(doc, "close"), 1, 50, 50, 50, 0))
    check("A: calls by count", doc and doc["syscalls"][0]["name"] == "read")
    p100, p200 = group(doc, "pid", 100), group(doc, "pid", 200)
    check("A: process 100 'app': 5 calls, 2 errors, 2750 ns",
          p100 and p100["name"] == "app" and p100["count"] == 5 and p100["errors"] == 2
          and p100["total_ns"] == 2750 and p100["no_exit"] == 1)
    check("A: process 100's read (both threads)",
          stat_is(sub(p100, "read"), 3, 1800, 300, 1000, READ_SD, errors=1))
    check("A: process 200 'other': write, exit_group",
          p200 and p200["name"] == "other" and stat_is(sub(p200, "write"), 1, 100, 100, 100, 0)
          and stat_is(sub(p200, "exit_group"), 0, 0, 0, 0, 0, noexit=1))
    check("A: processes by count", doc and [g["pid"] for g in doc["processes"]] == [100, 200])

    doc = sc_json("--per-thread", d)
    t100, t101 = group(doc, "tid", 100), group(doc, "tid", 101)
    check("A --per-thread: 100 read 2 (500, 300), openat",
          t100 and t100["pid"] == 100 and stat_is(sub(t100, "read"), 2, 800, 300, 500,
                                                  math.sqrt(20000), errors=1)
          and stat_is(sub(t100, "openat"), 1, 900, 900, 900, 0, errors=1))
    check("A --per-thread: 101 read 1000, close 50",
          t101 and t101["pid"] == 100 and stat_is(sub(t101, "read"), 1, 1000, 1000, 1000, 0)
          and stat_is(sub(t101, "close"), 1, 50, 50, 50, 0))

    doc = sc_json("--pid", "200", d)
    check("A --pid 200: its write and exit_group, its stray exit",
          doc and doc["calls"] == 1 and doc["unmatched_exits"] == 1 and call(doc, "read") is None
          and stat_is(call(doc, "write"), 1, 100, 100, 100, 0) and len(doc["processes"]) == 1)
    doc = sc_json("--tid", "101", d)
    check("A --tid 101: read 1000, close 50",
          doc and doc["calls"] == 2 and stat_is(call(doc, "read"), 1, 1000, 1000, 1000, 0)
          and stat_is(call(doc, "close"), 1, 50, 50, 50, 0) and doc["unmatched_exits"] == 0)
    doc = sc_json("--comm", "ap*", d)
    check("A --comm 'ap*': process 100 only",
          doc and [g["pid"] for g in doc["processes"]] == [100] and doc["calls"] == 5)
    doc = sc_json("--cpu", "1", d)
    check("A --cpu 1: read, write, close; exit_group; stray exit and clone return",
          doc and doc["calls"] == 3 and doc["unmatched_exits"] == 1 and doc["child_returns"] == 1
          and doc["noreturn"] == 1 and stat_is(call(doc, "read"), 1, 1000, 1000, 1000, 0))
    doc = sc_json("--syscall", "read", d)
    check("A --syscall read", doc and [x["name"] for x in doc["syscalls"]] == ["read"]
          and doc["calls"] == 3 and doc["unmatched_exits"] == 0 and doc["unfinished"] == 0)
    doc = sc_json("-s", "open*", "--syscall", "clo?e", d)
    check("A --syscall 'open*' --syscall 'clo?e'",
          doc and sorted(x["name"] for x in doc["syscalls"]) == ["close", "openat"])
    # ns since the epoch: the generator's clock starts at its offset
    base = gen_kernel.gen_ctf.ns_since_epoch(0)
    doc = sc_json("--begin", str(base + 2000), "--end", str(base + 3950), d)
    check("A --begin/--end: calls inside the range; exits of earlier entries unmatched",
          doc and doc["calls"] == 3 and doc["unmatched_exits"] == 2 and doc["unfinished"] == 0
          and stat_is(call(doc, "read"), 1, 300, 300, 300, 0, errors=1)
          and stat_is(call(doc, "write"), 1, 100, 100, 100, 0))
    doc = sc_json("--top", "1", d)
    check("A --top 1", doc and len(doc["syscalls"]) == 1 and len(doc["processes"]) == 1
          and len(doc["processes"][0]["syscalls"]) == 1)
    p = run(d)
    check("A: text tables", p.returncode == 0 and "read" in p.stdout and "EAGAIN" in p.stdout
          and "Process 100 app" in p.stdout and "unfinished" in p.stdout)


# Trace B (LTTng names, the task from sched_switch). Process 300 "srv" (threads 300, 301),
# process 400 "sleeper". 5 events are lost on CPU 0 just before its exit_poll at 3000.
#   300: read 1000-1400 on CPU 0 (400); futex from 2000 on CPU 0, switched out at 2100,
#        switched in on CPU 1 at 2500, exits at 3500 there: 1500, kept (last seen on 1)
#   301: poll from 2200 on CPU 0: open at the loss there, dropped; its exit is unmatched
#   400: nanosleep 1000-3700 on CPU 1 (2700); write entry at 4000 closed by a read exit at
#        4100: an exit of another call (both dropped)
COMMS = {0: "swapper", 300: "srv", 301: "srv", 400: "sleeper"}


def SW(ts, cpu, prev, nxt):
    return gen_kernel.switch(ts, cpu, prev, nxt, COMMS)


def L(ts, cpu, ev, **f):
    return (ts, cpu, ev, f)


def ldump(ts, tid, pid, name):
    return L(ts, 0, "lttng_statedump_process_state", tid=tid, pid=pid, ppid=1, name=name)


TRACE_B = [
    ldump(10, 300, 300, "srv"), ldump(11, 301, 300, "srv"), ldump(12, 400, 400, "sleeper"),
    SW(100, 0, 0, 300),
    L(1000, 0, "syscall_entry_read", fd=3), L(1400, 0, "syscall_exit_read", ret=4),
    L(2000, 0, "syscall_entry_futex", op=0),
    SW(2100, 0, 300, 301),
    L(2200, 0, "syscall_entry_poll", nfds=1),
    L(3000, 0, "syscall_exit_poll", ret=1),  # index 9 on CPU 0: the loss is before it
    SW(100, 1, 0, 400),
    L(1000, 1, "syscall_entry_nanosleep", rqtp=0),
    SW(2500, 1, 400, 300),
    L(3500, 1, "syscall_exit_futex", ret=0),
    SW(3600, 1, 300, 400),
    L(3700, 1, "syscall_exit_nanosleep", ret=0),
    L(4000, 1, "syscall_entry_write", fd=1), L(4100, 1, "syscall_exit_read", ret=0),
]


def test_text(d):
    """The text tables say what the JSON says, rows as long as their header (cmds/table.c)."""
    for args in ((), ("--per-thread",)):
        doc = sc_json(*args, d)
        p = run(*args, d)
        if not doc or p.returncode:
            check("text %s: runs" % (args,), False, True)
            continue

        def row(x):
            f = lambda v: "%.3f" % v
            return [x["name"], str(x["count"]), str(x["errors"]), str(x["no_exit"]),
                    f(x["total_ns"] / 1e6), f(x["mean_ns"] / 1e3), f(x["stddev_ns"] / 1e3),
                    f(x["min_ns"] / 1e3), f(x["max_ns"] / 1e3)]

        want = [row(x) for x in doc["syscalls"]]
        for g in doc["threads" if args else "processes"]:
            want += [row(x) for x in g["syscalls"]]
        lines = p.stdout.splitlines()
        heads = [i for i, l in enumerate(lines)
                 if l.lstrip().startswith("syscall ") and "total ms" in l]
        got, lengths = [], set()
        for h in heads:
            for l in lines[h + 1:]:
                if not l.strip():
                    break
                got.append(l.split())
                lengths.add(len(l) - len(lines[h]))
        common.check_eq("text %s: the rows" % (args,), got, want)
        common.check_eq("text %s: aligned with their headers" % (args,), lengths, {0})


def test_lttng_loss(d):
    p = run("--json", d)
    doc = json.loads(p.stdout) if p.returncode == 0 else None
    check("B: the loss is reported", doc and doc["lost_events"] == 5 and "5 events discarded" in p.stderr)
    check("B: totals", doc and doc["calls"] == 3 and doc["dropped_by_loss"] == 1
          and doc["unmatched_exits"] == 1 and doc["mismatched"] == 1 and doc["unfinished"] == 0)
    check("B: read 400", stat_is(call(doc, "read"), 1, 400, 400, 400, 0))
    check("B: futex across a migration, kept", stat_is(call(doc, "futex"), 1, 1500, 1500, 1500, 0))
    check("B: poll cut by the loss", stat_is(call(doc, "poll"), 0, 0, 0, 0, 0, noexit=1))
    check("B: nanosleep 2700", stat_is(call(doc, "nanosleep"), 1, 2700, 2700, 2700, 0))
    check("B: write closed by a read exit: dropped", stat_is(call(doc, "write"), 0, 0, 0, 0, 0,
                                                              noexit=1))
    p300 = group(doc, "pid", 300)
    check("B: process 300 'srv' from LTTng's state dump",
          p300 and p300["name"] == "srv" and p300["count"] == 2 and p300["no_exit"] == 1)


# Trace I: a call put down to the idle task (tid 0: no tid context, the CPU's task since a
# switch to idle). on_switch follows tid 0 too once it has a call: switched in on CPU 1 at
# 1500, it was last seen there, so the loss on CPU 0 before its exit (index 2 there) does
# not drop its read, which completes in 2000 ns.
TRACE_I = [
    SW(100, 0, 300, 0),
    L(1000, 0, "syscall_entry_read", fd=3),
    L(3000, 0, "syscall_exit_read", ret=0),
    SW(200, 1, 400, 0),
    SW(1500, 1, 400, 0),
]


# Trace W: CPU 0's packets say 0, then 2^64 - 1, then 0 events discarded (the 64-bit
# counter wrapped: one more lost); the loss before the exit (index 2) cuts the read.
TRACE_W = [
    SW(100, 0, 400, 300),
    L(1000, 0, "syscall_entry_read", fd=3),
    L(3000, 0, "syscall_exit_read", ret=0),
]


def test_wrapped(d):
    p = run("--json", d)
    doc = json.loads(p.stdout) if p.returncode == 0 else None
    check("W: a loss after the counter wrapped back to 0 still cuts the call",
          doc and doc["calls"] == 0 and doc["dropped_by_loss"] == 1
          and doc["unmatched_exits"] == 1)


def test_idle(d):
    doc = sc_json(d)
    check("I: the idle task's read, followed to CPU 1 by a switch, kept across CPU 0's loss",
          doc and doc["calls"] == 1 and doc["dropped_by_loss"] == 0
          and stat_is(call(doc, "read"), 1, 2000, 2000, 2000, 0))


# Trace C: raw sys_enter/sys_exit (ftrace's raw_syscalls), x86-64 numbers.
#   0 read 100-250 -EINTR; 9999 (no name) 300-400 -512 (ERESTARTSYS); 1 write 500-600
TRACE_C = [
    dump(10, 500, 500, "raw"),
    E(100, 0, "sys_enter", 500, id=0), E(250, 0, "sys_exit", 500, id=0, ret=-4),
    E(300, 0, "sys_enter", 500, id=9999), E(400, 0, "sys_exit", 500, id=9999, ret=-512),
    E(500, 0, "sys_enter", 500, id=1), E(600, 0, "sys_exit", 500, id=1, ret=3),
]


def test_raw(d):
    doc = sc_json(d)
    check("C: raw numbers named", stat_is(call(doc, "read"), 1, 150, 150, 150, 0, errors=1)
          and call(doc, "read")["errno"] == {"EINTR": 1}
          and stat_is(call(doc, "write"), 1, 100, 100, 100, 0))
    check("C: an unknown number, a kernel-internal errno",
          stat_is(call(doc, "syscall 9999"), 1, 100, 100, 100, 0, errors=1)
          and call(doc, "syscall 9999")["errno"] == {"ERESTARTSYS": 1})


# Trace D: three reads of 2^53 + 1, 2^53 + 2 and 2^53 + 3 ns (about 104 days each), where
# doubles cannot tell the durations apart: exact integer sums give total 3 * 2^53 + 6,
# mean 2^53 + 2 and stddev exactly 1.
BIG = 1 << 53
TRACE_D = [dump(10, 300, 300, "slow")]
for k in range(3):
    t0 = 1000 + k * (BIG + 1000)
    TRACE_D += [E(t0, 0, "sys_enter_read", 300, fd=3), E(t0 + BIG + 1 + k, 0, "sys_exit_read", 300, ret=1)]


def test_exact(d):
    doc = sc_json(d)
    r = call(doc, "read")
    check("D: durations near 2^53 ns summed exactly", r is not None and r["count"] == 3
          and r["total_ns"] == 3 * BIG + 6 and r["min_ns"] == BIG + 1 and r["max_ns"] == BIG + 3)
    check("D: mean 2^53 + 2, stddev 1 (exact)", r is not None and r["mean_ns"] == float(BIG + 2)
          and r["stddev_ns"] == 1.0)


# Trace E: 240 reads on 240 threads, alternately 2.5e18 ns (79 years: with the clock's base,
# 2023, still within the engine's 2^62 ns) and 1 ns: the sum of squared deviations passes
# 2^128, where the integer formula would wrap; the long double fallback gives the right
# figure, and total_ns (above 2^64) is printed whole.
HUGE = 25 * 10**17
E_N = 240
TRACE_E = [dump(10 + i, 1000 + i, 1000 + i, "p") for i in range(E_N)]
for i in range(E_N):
    TRACE_E += [E(1000 + i * 10, 0, "sys_enter_read", 1000 + i, fd=3),
                E(1000 + i * 10 + (1 if i % 2 else HUGE), 0, "sys_exit_read", 1000 + i, ret=1)]
E_DURS = [1 if i % 2 else HUGE for i in range(E_N)]
E_MEAN = sum(E_DURS) / E_N
E_SD = math.sqrt(sum((x - E_MEAN) ** 2 for x in E_DURS) / (E_N - 1))
assert sum((x - E_MEAN) ** 2 for x in E_DURS) >= 2 ** 128 and sum(E_DURS) >= 2 ** 64


def test_huge(d):
    r = call(sc_json(d), "read")
    check("E: total_ns above 2^64, whole", r is not None and r["total_ns"] == sum(E_DURS))
    check("E: stddev past the exact bound (%s)" % (r or {}).get("stddev_ns"),
          r is not None and close(r["stddev_ns"], E_SD) and close(r["mean_ns"], E_MEAN))


# Trace L: thread 101 of process 100 makes calls before the state dump names it (LTTng 2.8
# and 2.10 traces do this: the dump comes some time after the start); thread 300 of process
# 300 "gone" exits, and its tid comes back in process 100 (the model's pid for 300 is then
# 100; its calls of before stay with "gone").
TRACE_L = [
    E(1000, 0, "sys_enter_read", 101, fd=3), E(1100, 0, "sys_exit_read", 101, ret=1),
    E(1200, 1, "sys_enter_read", 100, fd=3), E(1400, 1, "sys_exit_read", 100, ret=1),
    E(1500, 1, "sys_enter_close", 300, fd=3), E(1550, 1, "sys_exit_close", 300, ret=0),
    dump(2000, 100, 100, "app"), dump(2000, 101, 100, "app"), dump(2000, 300, 300, "gone"),
    (2500, 1, "sched_process_exit", {"comm": "gone", "pid": 300, "prio": 20, "common_pid": 300}),
    E(3000, 0, "sys_enter_read", 101, fd=3), E(3300, 0, "sys_exit_read", 101, ret=-11),
    dump(4000, 300, 100, "app"),
    E(4100, 1, "sys_enter_close", 300, fd=4), E(4150, 1, "sys_exit_close", 300, ret=0),
]


def test_late_process(d):
    """A thread's process is what the whole trace says, not what it said at its first call:
    before, thread 101 was a process of its own, and --pid 100 counted 2 of its 5 calls."""
    doc = sc_json(d)
    p100, p300 = group(doc, "pid", 100), group(doc, "pid", 300)
    check("L: process 100 has its threads' calls (read 3, close 1)",
          p100 and p100["name"] == "app" and p100["count"] == 4
          and stat_is(sub(p100, "read"), 3, 600, 100, 300, 100, errors=1))
    check("L: no process 101", group(doc, "pid", 101) is None)
    check("L: tid 300's calls before its exit stay with process 300 'gone'",
          p300 and p300["name"] == "gone" and p300["count"] == 1)
    only = sc_json("--pid", "100", d)
    check("L: --pid 100: 4 calls, one process",
          only and only["calls"] == 4 and [g["pid"] for g in only["processes"]] == [100])
    check("L: --pid 100: read's errno", (call(only, "read") or {}).get("errno") == {"EAGAIN": 1})
    by_name = sc_json("--comm", "gone", d)
    check("L: --comm gone: the exited thread's call only", by_name and by_name["calls"] == 1)
    threads = sc_json("--per-thread", d)
    check("L: --per-thread: thread 101 with its 2 reads",
          (group(threads, "tid", 101) or {}).get("count") == 2)


# Trace T (ftrace): process 100 "app" makes thread 150 (clone_flags with CLONE_THREAD) and
# process 160 (a fork, no CLONE_THREAD) during the trace. ftrace's sched_process_fork has
# no tgid; task_newtask's clone_flags and creator (common_pid) say which is which.
NEWTASK = lambda ts, parent, child, flags: [
    (ts, 0, "task_newtask", {"pid": child, "comm": "app", "clone_flags": flags,
                             "oom_score_adj": 0, "common_pid": parent}),
    E(ts + 10, 0, "sched_process_fork", parent, parent_comm="app", parent_pid=parent,
      child_comm="app", child_pid=child)]
TRACE_T = [dump(10, 100, 100, "app")] + NEWTASK(1000, 100, 150, 0x3d0f00) + \
    NEWTASK(2000, 100, 160, 0x1200011) + [
    E(3000, 1, "sys_enter_getppid", 150, x=0), E(3100, 1, "sys_exit_getppid", 150, ret=1),
    E(4000, 0, "sys_enter_getppid", 160, x=0), E(4100, 0, "sys_exit_getppid", 160, ret=1)]


def test_new_thread(d):
    """A thread made during an ftrace trace is its process's, not a process of its own."""
    doc = sc_json(d)
    check("T: thread 150's call is process 100's", (group(doc, "pid", 100) or {}).get("count") == 1
          and group(doc, "pid", 150) is None)
    check("T: the forked child 160 is a process", (group(doc, "pid", 160) or {}).get("count") == 1)


# Trace M: no task field (LTTng's default), and a switch missing on CPU 0: 300 gives way to
# 400 there unseen, and the switch at 2000 from 400 (its prev_tid) shows it. 400's nanosleep
# began on CPU 1; it was last seen on CPU 0, so the loss there (before index 2) may hold its
# exit: dropped, not unfinished. Before, only sched saw the prev_tid case.
TRACE_M = [
    SW(100, 1, 0, 400),
    L(1000, 1, "syscall_entry_nanosleep", rqtp=0),
    SW(1200, 1, 400, 0),
    SW(100, 0, 0, 300),
    SW(2000, 0, 400, 0),
    SW(3000, 0, 0, 300),
]


def test_prev_tid(d):
    doc = sc_json(d)
    check("M: a switch shown by prev_tid moves the thread: the loss there drops its call",
          doc and doc["dropped_by_loss"] == 1 and doc["unfinished"] == 0)
    sched = common.spoor_json("sched", d)
    check("M: sched counts that switch once", sched and sched["inferred_switches"] == 1)


def test_no_syscalls(d):
    p = run(d)
    check("a trace without syscall events: says what to record",
          p.returncode != 0 and "spoor record -k syscalls" in p.stderr)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        a = gen_kernel.write(os.path.join(tmp, "a"), TRACE_A, style="ftrace")
        b = gen_kernel.write(os.path.join(tmp, "b"), TRACE_B, style="lttng", losses={0: [(9, 5)]})
        c = gen_kernel.write(os.path.join(tmp, "c"), TRACE_C, style="ftrace")
        i = gen_kernel.write(os.path.join(tmp, "i"), TRACE_I, style="lttng", losses={0: [(2, 1)]})
        w = gen_kernel.write(os.path.join(tmp, "w"), TRACE_W, style="lttng",
                             losses={0: [(1, 2**64 - 1), (2, 1)]})
        dd = gen_kernel.write(os.path.join(tmp, "d"), TRACE_D, style="ftrace")
        e = gen_kernel.write(os.path.join(tmp, "e"), sorted(TRACE_E, key=lambda x: x[0]),
                             style="ftrace")
        n = gen_kernel.write(os.path.join(tmp, "n"), [
            E(100, 0, "irq_handler_entry", irq=1, name="x"),
            E(200, 0, "irq_handler_exit", irq=1, ret=1)], style="ftrace")
        test_basic(a)
        test_text(a)
        test_lttng_loss(b)
        test_raw(c)
        test_idle(i)
        test_wrapped(w)
        test_exact(dd)
        test_huge(e)
        test_no_syscalls(n)
        test_late_process(gen_kernel.write(os.path.join(tmp, "l"), TRACE_L, style="ftrace"))
        test_new_thread(gen_kernel.write(os.path.join(tmp, "t"), TRACE_T, style="ftrace"))
        test_prev_tid(gen_kernel.write(os.path.join(tmp, "m"), TRACE_M, style="lttng",
                                       losses={0: [(2, 3)]}))
    return common.finish()


if __name__ == "__main__":
    sys.exit(main())
