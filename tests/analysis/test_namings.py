#!/usr/bin/env python3
"""The analyses on every naming of the kernel's events that LTTng 2.x and ftrace have used
(tests/data/gen_kernel.py traces; lib/analysis/kvocab.h), and on traces without the events
an analysis needs:
 1. System calls in LTTng 2.5's naming (sys_NAME entries, sys_unknown with an id, one exit
    exit_syscall with only ret, paired with the thread's open call), its compat_ forms,
    LTTng 2.6's compat and unknown events, ftrace's raw sys_enter/sys_exit, and a trace whose
    env alone says LTTng 2.5. sys_exit_group and sys_exit are entries in LTTng 2.5, and
    sys_exit is the raw exit in ftrace. Against lttng-syscallstats when it is installed.
 2. A trace that declares an analysis's events but holds none of them: the same message and
    exit code as a trace that does not declare them (disk, irq, sched, syscalls). Softirqs
    and block requests in each version's names and field types give the same figures.
 3. A trace with none of an analysis's events but look-alikes in a naming spoor does not
    read: the message names them.
 4. ../shared's LTTng 2.5 trace (flipping-endianness): irq reads it; it has no system calls.

Environment: SPOOR, SPOOR_TEST_DATA, SHARED_TRACES."""
import functools
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import check, check_eq  # noqa: E402
import gen_kernel  # noqa: E402
from test_syscalls_real import parse_lttng, same_row, spoor_by_thread  # noqa: E402

sc_json = functools.partial(common.spoor_json, "syscalls")
LTTNG_25 = {"tracer_major": 2, "tracer_minor": 5, "tracer_patchlevel": 0}
COMMS = {0: "swapper/0", 600: "old", 601: "old", 700: "arm", 800: "compat"}


def SW(ts, cpu, prev, nxt):
    return gen_kernel.switch(ts, cpu, prev, nxt, COMMS)


def L(ts, cpu, ev, **f):
    return (ts, cpu, ev, f)


def dump(ts, tid, pid):
    return L(ts, 0, "lttng_statedump_process_state", tid=tid, pid=pid, ppid=1, name=COMMS[tid],
             type=0, mode=0, submode=0, status=0, vtid=tid, vpid=pid, vppid=1)


def call(doc, name):
    return next((x for x in (doc or {}).get("syscalls", []) if x["name"] == name), None)


def stat(x):
    """count, total, min, max, errors, no_exit of a call's row (None: no row)."""
    return x and (x["count"], x["total_ns"], x["min_ns"], x["max_ns"], x["errors"], x["no_exit"])


# LTTng 2.5 (lttng-modules 2.5, as on the 32-bit ARM board of issue 19). Process 600 "old"
# (threads 600, 601), process 700 "arm"; the task from sched_switch. Times in ns.
#   600: read 1000-1400 (400); ioctl 2000-2250 (-ENOTTY); an unknown call (sys_unknown, id
#        983045: ARM's private calls) 3000-3100; exit_group at 4000 (never returns)
#   601: close 1000-1050; exit at 1200 (never returns)
#   700: read 2000-2600 (600); a stray exit_syscall at 3000 (no open call: unmatched)
OLD = [
    dump(10, 600, 600), dump(11, 601, 600), dump(12, 700, 700),
    SW(100, 0, 0, 600),
    L(1000, 0, "sys_read", fd=3, buf=0, count=10), L(1400, 0, "exit_syscall", ret=4),
    L(2000, 0, "sys_ioctl", fd=3, cmd=1, arg=0), L(2250, 0, "exit_syscall", ret=-25),
    L(3000, 0, "sys_unknown", id=983045, args=0), L(3100, 0, "exit_syscall", ret=0),
    L(4000, 0, "sys_exit_group", error_code=0),
    SW(5000, 0, 600, 0),
    SW(100, 1, 0, 601),
    L(1000, 1, "sys_close", fd=4), L(1050, 1, "exit_syscall", ret=0),
    L(1200, 1, "sys_exit", error_code=0),
    SW(1300, 1, 601, 700),
    L(2000, 1, "sys_read", fd=0, buf=0, count=10), L(2600, 1, "exit_syscall", ret=10),
    L(3000, 1, "exit_syscall", ret=0),
    SW(5000, 1, 700, 0),
]


def test_lttng_25(tmp):
    d = gen_kernel.write(os.path.join(tmp, "old", "kernel"), OLD, env=LTTNG_25)
    doc = sc_json(d)
    check_eq("2.5: totals (completed, unmatched, noreturn)",
             doc and (doc["calls"], doc["unmatched_exits"], doc["noreturn"], doc["mismatched"]),
             (5, 1, 2, 0))
    check_eq("2.5: read, each exit_syscall closing its thread's call",
             stat(call(doc, "read")), (2, 1000, 400, 600, 0, 0))
    check_eq("2.5: ioctl -ENOTTY", (stat(call(doc, "ioctl")), (call(doc, "ioctl") or {}).get(
        "errno")), ((1, 250, 250, 250, 1, 0), {"ENOTTY": 1}))
    check_eq("2.5: sys_unknown is the call 'unknown'", stat(call(doc, "unknown")),
             (1, 100, 100, 100, 0, 0))
    check_eq("2.5: close", stat(call(doc, "close")), (1, 50, 50, 50, 0, 0))
    check_eq("2.5: sys_exit_group and sys_exit are entries that never return",
             (stat(call(doc, "exit_group")), stat(call(doc, "exit"))),
             ((0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 1)))
    check("2.5: no call named 'group'", doc and call(doc, "group") is None)
    p600 = next((g for g in (doc or {}).get("processes", []) if g["pid"] == 600), None)
    check_eq("2.5: process 600 'old' from the state dump",
             p600 and (p600["name"], p600["count"], p600["no_exit"]), ("old", 4, 2))
    doc = sc_json("--syscall", "read", d)
    check_eq("2.5 --syscall read: the other calls' exits close them unseen",
             doc and (doc["calls"], doc["unmatched_exits"], [x["name"] for x in doc["syscalls"]]),
             (2, 1, ["read"]))
    compare_lttng(d)


def compare_lttng(d):
    """lttng-syscallstats (lttng-analyses) on the LTTng 2.5 trace, thread by thread."""
    if not shutil.which("lttng-syscallstats"):
        common.skip("lttng-syscallstats not installed")
        return
    p = common.lttng_analysis("lttng-syscallstats", d)
    if p.returncode:
        common.skip("lttng-syscallstats failed: " + p.stderr[-300:])
        return
    theirs = parse_lttng(p.stdout)
    mine = spoor_by_thread(sc_json("--per-thread", d))
    rows = [(t, c) for t in theirs for c in theirs[t]]
    bad = [(t, c) for t, c in rows if c not in mine.get(t, {})
           or not same_row(mine[t][c], theirs[t][c]) or mine[t][c]["errors"] != theirs[t][c][5]]
    extra = [(t, c) for t in mine for c in mine[t] if c not in theirs.get(t, {})]
    check("2.5: the %d thread/call rows of lttng-syscallstats (count, min, mean, max, "
          "errors), and no others" % len(rows), rows and not bad and not extra)
    for r in bad + extra:
        print("  differs:", r)


# LTTng 2.5's compat calls (a 32-bit task on a 64-bit kernel) beside a native one, thread 800:
#   compat read 1000-1300; compat unknown (id 400) 2000-2100 -ENOSYS; native write 3000-3020
COMPAT_25 = [
    dump(10, 800, 800), SW(100, 0, 0, 800),
    L(1000, 0, "compat_sys_read", fd=3, buf=0, count=5), L(1300, 0, "exit_syscall", ret=5),
    L(2000, 0, "compat_sys_unknown", id=400, args=0), L(2100, 0, "exit_syscall", ret=-38),
    L(3000, 0, "sys_write", fd=1, buf=0, count=1), L(3020, 0, "exit_syscall", ret=1),
]
# LTTng 2.6+: compat and unknown events (syscall_exit_unknown has an id too), thread 800:
#   compat read 1000-1300; unknown 2000-2100 -ENOSYS; exit_group at 3000
COMPAT_26 = [
    dump(10, 800, 800), SW(100, 0, 0, 800),
    L(1000, 0, "compat_syscall_entry_read", fd=3), L(1300, 0, "compat_syscall_exit_read", ret=5),
    L(2000, 0, "syscall_entry_unknown", id=400, args=0),
    L(2100, 0, "syscall_exit_unknown", id=400, ret=-38, args=0),
    L(3000, 0, "syscall_entry_exit_group", error_code=0),
]
# ftrace's raw_syscalls (x86-64 numbers), task 900: read (0) 1000-1200; exit_group (231) at
# 2000; sys_exit there is the raw exit, not the entry of exit
RAW = [
    (1000, 0, "sys_enter", {"id": 0, "common_pid": 900}),
    (1200, 0, "sys_exit", {"id": 0, "ret": 7, "common_pid": 900}),
    (2000, 0, "sys_enter", {"id": 231, "common_pid": 900}),
]
# The env alone says LTTng 2.5 (no exit_syscall, no sys_unknown declared): read's entry at
# 1000, never closed; exit_group at 2000
ENV_ONLY = [
    dump(10, 600, 600), SW(100, 0, 0, 600),
    L(1000, 0, "sys_read", fd=3), L(2000, 0, "sys_exit_group", error_code=0),
]


def test_other_namings(tmp):
    doc = sc_json(gen_kernel.write(os.path.join(tmp, "c25"), COMPAT_25, env=LTTNG_25))
    check_eq("2.5 compat: read, unknown (-ENOSYS), a native write",
             [stat(call(doc, n)) for n in ("read", "unknown", "write")],
             [(1, 300, 300, 300, 0, 0), (1, 100, 100, 100, 1, 0), (1, 20, 20, 20, 0, 0)])
    doc = sc_json(gen_kernel.write(os.path.join(tmp, "c26"), COMPAT_26))
    check_eq("2.6 compat and unknown events: read, unknown (-ENOSYS), exit_group",
             [stat(call(doc, n)) for n in ("read", "unknown", "exit_group")],
             [(1, 300, 300, 300, 0, 0), (1, 100, 100, 100, 1, 0), (0, 0, 0, 0, 0, 1)])
    doc = sc_json(gen_kernel.write(os.path.join(tmp, "raw"), RAW, style="ftrace"))
    check_eq("ftrace raw: read by number; sys_exit is the raw exit",
             doc and (stat(call(doc, "read")), stat(call(doc, "exit_group")), doc["calls"],
                      call(doc, "exit")),
             ((1, 200, 200, 200, 0, 0), (0, 0, 0, 0, 0, 1), 1, None))
    doc = sc_json(gen_kernel.write(os.path.join(tmp, "env"), ENV_ONLY, env=LTTNG_25))
    check_eq("env says LTTng 2.5: sys_read an entry, sys_exit_group never returns",
             doc and (stat(call(doc, "read")), stat(call(doc, "exit_group")), call(doc, "group"),
                      doc["unmatched_exits"]),
             ((0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 1), None, 0))


# The other analyses' events across lttng-modules' versions: softirqs named softirq_* before
# 2.8 and irq_softirq_* since; block requests' rwbs as an integer of flags, an enum of them
# from 2.12 (with errors), as text in ftrace (with error). The figures must not change.
G = gen_kernel.G
RWBS_ENUM = G.Enum(G.Int(32, signed=False, align=8, base=10),
                   [("RWBS_FLAG_WRITE", 1, None), ("RWBS_FLAG_DISCARD", 2, None),
                    ("RWBS_FLAG_READ", 4, None)])


def softirqs(prefix):
    """vec 1 raised at 900, run 1000-1400 and 2000-2300 on CPU 0."""
    return [L(900, 0, prefix + "softirq_raise", vec=1), L(1000, 0, prefix + "softirq_entry", vec=1),
            L(1400, 0, prefix + "softirq_exit", vec=1), L(2000, 0, prefix + "softirq_entry", vec=1),
            L(2300, 0, prefix + "softirq_exit", vec=1)]


def requests(read, write, err="errors"):
    """A read of 8 sectors issued at 1000, done at 1500; a write issued at 2000, done at 2600."""
    def rq(ts, name, rw, **f):
        return L(ts, 0, name, dev=8388608, sector=100, nr_sector=8, **f, rwbs=rw)
    return [rq(1000, "block_rq_issue", read, bytes=4096), rq(1500, "block_rq_complete", read, **{err: 0}),
            rq(2000, "block_rq_issue", write, bytes=4096), rq(2600, "block_rq_complete", write, **{err: 0})]


def test_other_analyses(tmp):
    got = []
    for name, evs in (("softirq", softirqs("")), ("irq_softirq", softirqs("irq_"))):
        doc = common.spoor_json("irq", gen_kernel.write(os.path.join(tmp, name), evs))
        got.append(doc and [(x["kind"], x["count"], x["total_ns"]) for x in doc["lines"]])
    check_eq("irq: LTTng 2.8's irq_softirq_* as the older softirq_*", got[1], got[0])
    check_eq("irq: softirq vec 1, two runs, 700 ns", got[0], [("softirq", 2, 700)])
    got = []
    for name, evs, style in (("flags", requests(4, 1), "lttng"),
                             ("enum", requests((RWBS_ENUM, 4), (RWBS_ENUM, 1)), "lttng"),
                             ("text", requests("R", "W", err="error"), "ftrace")):
        doc = common.spoor_json("disk", gen_kernel.write(os.path.join(tmp, name), evs, style=style))
        got.append(doc and [(x["reads"], x["read_bytes"], x["writes"], x["write_bytes"],
                             x["latency"]["count"], x["latency"]["mean_ns"]) for x in doc["devices"]])
    check_eq("disk: rwbs as flags, as LTTng 2.12's enum, as ftrace's text: one read, one write, "
             "latencies 500 and 600", got, [[(1, 4096, 1, 4096, 2, 550.0)]] * 3)


# Per analysis: its record hint, and the events it needs (a value per field: the types).
IRQ = {"irq_handler_entry": {"irq": 1, "name": "x"}, "irq_handler_exit": {"irq": 1, "ret": 1}}
SWITCH = gen_kernel.switch(0, 0, 0, 600, COMMS, style="ftrace")
NEEDS = {
    "disk": ("block", {"block_rq_issue": {"dev": 1, "sector": 0, "nr_sector": 8, "bytes": 4096,
                                          "rwbs": "R"},
                       "block_rq_complete": {"dev": 1, "sector": 0, "nr_sector": 8, "error": 0,
                                             "rwbs": "R"}}),
    "irq": ("irq", IRQ),
    "sched": ("sched", {SWITCH[2]: SWITCH[3]}),
    "syscalls": ("syscalls", {"sys_enter_read": {"fd": 0}, "sys_exit_read": {"ret": 0}}),
}


def holding(cmd):
    """Two events of another analysis than cmd's: switches for irq, else interrupts."""
    name, fields = (SWITCH[2], SWITCH[3]) if cmd == "irq" else next(iter(IRQ.items()))
    return [(ts, 0, name, dict(fields, common_pid=5)) for ts in (1000, 2000)]


def test_declared_none(tmp):
    """Declared but none held = not declared: the message, exit 1, nothing on stdout."""
    for cmd, (hint, needed) in NEEDS.items():
        absent = gen_kernel.write(os.path.join(tmp, cmd + "-absent"), holding(cmd), style="ftrace")
        declared = gen_kernel.write(os.path.join(tmp, cmd + "-declared"), holding(cmd),
                                    style="ftrace", declare=needed)
        for args in ((), ("--json",)):
            a = common.spoor(cmd, *args, absent)
            b = common.spoor(cmd, *args, declared)
            what = " ".join((cmd,) + args)
            check_eq("%s: declared but none held, as not declared" % what,
                     (b.returncode, b.stdout, b.stderr.replace(declared, absent)),
                     (a.returncode, a.stdout, a.stderr))
            check("%s: exit 1, 'spoor record -k %s'" % (what, hint),
                  a.returncode == 1 and not a.stdout and "spoor record -k " + hint in a.stderr)
    d = gen_kernel.write(os.path.join(tmp, "tl"), holding("sched"), style="ftrace",
                         declare=NEEDS["sched"][1])
    p = common.spoor("sched", "--timeline", "--json", d)
    check_eq("sched --timeline --json, no switch held: no JSON begun", (p.returncode, p.stdout),
             (1, ""))


# Per analysis: events in a naming spoor does not read, which the message should name.
LOOKALIKES = {
    "syscalls": ["sys_read", "sys_close"],  # LTTng 2.5's names in a trace that says ftrace
    "irq": ["x86_irq_vectors_local_timer_entry"],
    "disk": ["block_bio_queue"],
    "sched": ["sched_stat_runtime"],
}


def test_lookalikes(tmp):
    for cmd, names in LOOKALIKES.items():
        evs = [(1000 + 10 * i, 0, n, {"x": 1, "common_pid": 5}) for i, n in enumerate(names)]
        p = common.spoor(cmd, gen_kernel.write(os.path.join(tmp, cmd + "-like"), evs,
                                               style="ftrace"))
        check("%s: none of its events, look-alikes named (%s)" % (cmd, p.stderr.strip()[-120:]),
              p.returncode == 1 and not p.stdout and "does not read" in p.stderr
              and all(n in p.stderr for n in names))


def test_shared():
    d = os.path.join(common.SHARED, "lttng", "flipping-endianness")
    if not os.path.isdir(d):
        common.skip("no " + d)
        return
    p = common.spoor("syscalls", d)
    check("flipping-endianness (LTTng 2.5, no system calls): syscalls says so, exit 1",
          p.returncode == 1 and "spoor record -k syscalls" in p.stderr and not p.stdout)
    doc = common.spoor_json("irq", d)
    runs = doc and sum(x["count"] for x in doc["lines"] if x["kind"] == "irq")
    if not shutil.which("babeltrace2"):
        check("flipping-endianness: irq reads LTTng 2.5's interrupts", runs)
        return
    bt = subprocess.run(["babeltrace2", d], capture_output=True, text=True).stdout
    check_eq("flipping-endianness: irq's runs = babeltrace2's irq_handler_entry events", runs,
             bt.count(" irq_handler_entry: "))


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_lttng_25(tmp)
        test_other_namings(tmp)
        test_other_analyses(tmp)
        test_declared_none(tmp)
        test_lookalikes(tmp)
        test_shared()
    return common.finish()


if __name__ == "__main__":
    sys.exit(main())
