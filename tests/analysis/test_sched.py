#!/usr/bin/env python3
"""spoor sched on small synthetic kernel traces (tests/data/gen_kernel.py), in both naming
styles, against numbers computed by hand (docs/analyses/sched.md explains the rules).
Env: SPOOR (the binary), SPOOR_TEST_DATA (tests/data)."""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import check_eq as check  # noqa: E402
import gen_kernel  # noqa: E402

BASE = gen_kernel.G.ns_since_epoch(0)  # ns since the epoch of cycle 0
A, B, C = 100, 101, 200  # A and B: threads of process 100 "alpha"; C: process "gamma"
S, D = 1, 2


class Trace:
    """Events in one naming style: ftrace's (spoor) or lttng-modules'."""

    def __init__(self, style):
        self.style, self.evs = style, []
        self.lt = style.startswith("lttng")
        self.ctx = style != "lttng"  # the running task in each event (common_pid, tid)
        self.preempt = 2048 if self.lt else 0x100  # the preempted flag of each era
        self.cur = {}  # per CPU, the task on it (ftrace's common_pid)

    def add(self, ts, cpu, name, fields):
        if self.ctx:
            fields["common_pid"] = self.cur.get(cpu, 0)
        self.evs.append((ts, cpu, name, fields))

    def switch(self, ts, cpu, prev, state, nxt):
        k = "tid" if self.lt else "pid"
        comm = {0: "swapper/%d" % cpu, A: "alpha", B: "alpha", C: "gamma"}
        self.add(ts, cpu, "sched_switch", {
            "prev_comm": comm[prev], "prev_" + k: prev, "prev_prio": 20, "prev_state": state,
            "next_comm": comm[nxt], "next_" + k: nxt, "next_prio": 20})
        self.cur[cpu] = nxt

    def wake(self, ts, cpu, name, tid, target):
        self.add(ts, cpu, name, {"comm": "x", "tid" if self.lt else "pid": tid, "prio": 20,
                                 "target_cpu": target})

    def dump(self, ts, tid, pid, name):
        ev = "lttng_statedump_process_state" if self.lt else "statedump_process"
        self.add(ts, 0, ev, {"tid": tid, "pid": pid, "ppid": 1, "name": name})

    def write(self, d, losses=None):
        return gen_kernel.write(d, self.evs, style=self.style, losses=losses)


def main_trace(style):
    """Two CPUs, 1000..20000 ns: preemption, blocking, two wake-up latencies (500, 400),
    a wake-up pending at the end and a task still running at the end (no last switch)."""
    t = Trace(style)
    t.dump(1000, A, 100, "alpha")
    t.dump(1000, B, 100, "alpha")
    t.dump(1000, C, 200, "gamma")
    t.switch(1500, 1, 0, 0, B)
    t.switch(2000, 0, 0, 0, A)
    t.switch(5000, 0, A, t.preempt, C)  # A preempted: runnable
    t.switch(6000, 0, C, S, A)  # A waited 1000; C blocks
    t.wake(7000, 1, "sched_waking", C, 1)  # latency starts here (C blocked 1000)
    t.wake(7100, 1, "sched_wakeup", C, 1)  # a second wake-up changes nothing
    t.switch(7500, 1, B, D, C)  # C: latency 500; B blocks (D)
    t.switch(9000, 1, C, S, 0)
    t.wake(10000, 0, "sched_wakeup", B, 0)  # B blocked 2500
    t.switch(10400, 0, A, t.preempt, B)  # B: latency 400
    t.switch(11000, 0, B, S, A)
    t.wake(20000, 1, "sched_waking", C, 1)  # pending at the end; C blocked 11000
    return t


def lost_trace(style):
    """Events lost on CPU 0 between 1000 and 6000: that interval is unknown, C's pending
    wake-up aimed at CPU 0 is dropped."""
    t = Trace(style)
    t.switch(1000, 0, 0, 0, A)
    t.switch(2000, 1, 0, 0, B)
    t.wake(3000, 1, "sched_waking", C, 0)
    t.switch(6000, 0, C, S, A)  # after the loss
    t.switch(8000, 1, B, S, 0)
    t.switch(9000, 0, A, S, 0)
    return t


def sched(d, *args):
    return common.spoor_json("sched", *args, d)


def by(doc, part, key):
    return {x[key]: x for x in doc[part]}


def test_main(tmp, style):
    d = main_trace(style).write(os.path.join(tmp, "main-" + style))
    doc = sched(d, "--json")
    if not doc:
        check(style + ": runs", False, True)
        return
    s = style + ": "
    check(s + "span ns", round(doc["span_s"] * 1e9), 19000)
    cpus = by(doc, "cpus", "cpu")
    check(s + "cpu 0", [cpus[0][k] for k in ("switches", "busy_ns", "idle_ns", "unknown_ns")],
          [5, 18000, 1000, 0])
    check(s + "cpu 1", [cpus[1][k] for k in ("switches", "busy_ns", "idle_ns", "unknown_ns")],
          [3, 7500, 11500, 0])
    th = by(doc, "threads", "tid")
    fields = ("cpu_ns", "switches", "wait_ns", "blocked_ns")
    check(s + "A", [th[A][k] for k in fields], [16400, 3, 1600, 0])
    check(s + "B", [th[B][k] for k in fields], [6600, 2, 400, 11500])
    check(s + "C", [th[C][k] for k in fields], [2500, 2, 500, 12000])
    lat = [(th[x]["latency"]["count"], th[x]["latency"]["max_ns"]) for x in (A, B, C)]
    check(s + "latencies", lat, [(0, 0), (1, 400), (1, 500)])
    check(s + "names", [th[x]["name"] for x in (A, B, C)], ["alpha", "alpha", "gamma"])
    pr = by(doc, "processes", "pid")
    check(s + "process 100", [pr[100][k] for k in ("threads",) + fields],
          [2, 23000, 5, 2000, 11500])
    lat = pr[100]["latency"]
    check(s + "process 100 latency", (lat["count"], lat["min_ns"], lat["max_ns"]), (1, 400, 400))
    check(s + "worst", [(w["latency_ns"], w["wake_ts"] - BASE, w["run_ts"] - BASE, w["tid"],
                         w["cpu"], w["waker"]) for w in doc["worst"]],
          [(500, 7000, 7500, C, 1, B), (400, 10000, 10400, B, 0, A)])
    check(s + "pending wake-ups", doc["pending_wakeups"], 1)
    one = sched(d, "--json", "--worst", "1")
    check(s + "--worst 1", [w["latency_ns"] for w in one["worst"]], [500])
    only = sched(d, "--json", "--pid", "100", "--cpu", "0")
    check(s + "--pid 100 threads", sorted(by(only, "threads", "tid")), [A, B])
    check(s + "--cpu 0", [c["cpu"] for c in only["cpus"]], [0])
    check(s + "--cpu 0: B's CPU time there only", by(only, "threads", "tid")[B]["cpu_ns"], 600)
    # the worst latencies are the selected tasks' too, C's larger one kept out of the N
    check(s + "--pid 100 worst", [w["tid"] for w in only["worst"]], [B])
    one_b = sched(d, "--json", "--worst", "1", "--tid", str(B))
    check(s + "--tid B --worst 1", [(w["tid"], w["latency_ns"]) for w in one_b["worst"]],
          [(B, 400)])
    gam = sched(d, "--json", "--comm", "gam*")
    check(s + "--comm gam* worst", [w["tid"] for w in gam["worst"]], [C])
    tl = sched(d, "--json", "--timeline", "--tid", str(C))["timeline"]
    check(s + "timeline of C", [(x["ts"] - BASE, x["from"], x["to"], x["cpu"]) for x in tl], [
        (5000, "unknown", "running", 0), (6000, "running", "blocked(S)", 0),
        (7000, "blocked(S)", "runnable", 1), (7500, "runnable", "running", 1),
        (9000, "running", "blocked(S)", 1), (20000, "blocked(S)", "runnable", 1)])
    tl = sched(d, "--json", "--timeline", "--cpu", "1")["timeline"]
    check(s + "timeline on cpu 1", {x["cpu"] for x in tl}, {1})
    check(s + "timeline on cpu 1: B blocked in D",
          [x["to"] for x in tl if x["tid"] == B and x["ts"] - BASE == 7500], ["blocked(D)"])
    p = common.spoor("sched", "--timeline", "--comm", "gam*", d)
    check(s + "text timeline by name", (p.returncode, len(p.stdout.splitlines()),
                                        "gamma" in p.stdout), (0, 6, True))


def test_text(tmp, style):
    """The text report says what the JSON says, in aligned columns (cmds/table.c)."""
    d = os.path.join(tmp, "main-" + style)
    doc = sched(d, "--json")
    p = common.spoor("sched", d)
    lines = p.stdout.splitlines()
    s = style + ": text: "
    if p.returncode or not doc:
        check(s + "runs", False, True)
        return

    def rows(title):
        at = next(i for i, l in enumerate(lines) if l.startswith(title))
        out = []
        for l in lines[at + 2:]:
            if not l.strip():
                break
            out.append(l)
        return out

    ms = lambda ns: "%.3f" % (ns / 1e6)
    us = lambda ns: "%.3f" % (ns / 1e3)

    def latency(lat):
        if not lat["count"]:
            return ["0", "-", "-", "-", "-"]
        return [str(lat["count"]), us(lat["min_ns"]), us(lat["mean_ns"]), us(lat["max_ns"]),
                us(lat["stddev_ns"])]

    want = [[str(c["cpu"]), str(c["switches"]), ms(c["busy_ns"]), ms(c["idle_ns"]),
             ms(c["unknown_ns"])] for c in doc["cpus"]]
    got = [r.split()[:5] for r in rows("CPUs")]
    check(s + "cpus", got, want)
    want = [[str(t["tid"]), str(t["pid"]), t["name"], ms(t["cpu_ns"]), str(t["switches"]),
             ms(t["wait_ns"]), ms(t["blocked_ns"])] + latency(t["latency"])
            for t in doc["threads"]]
    threads = rows("Threads")
    check(s + "threads", [r.split() for r in threads], want)
    want = [[str(x["pid"]), x["name"], str(x["threads"]), ms(x["cpu_ns"]), str(x["switches"]),
             ms(x["wait_ns"]), ms(x["blocked_ns"])] + latency(x["latency"])
            for x in doc["processes"]]
    procs = rows("Processes")
    check(s + "processes", [r.split() for r in procs], want)
    tl = sched(d, "--json", "--timeline")["timeline"]
    want = [["%d.%09d" % (x["ts"] // 10**9, x["ts"] % 10**9), str(x["tid"]), x["comm"] or "?",
             x["from"], "->", x["to"], "cpu", str(x["cpu"])] for x in tl]
    p = common.spoor("sched", "--timeline", d)
    check(s + "timeline", [l.split() for l in p.stdout.splitlines()], want)
    t = Trace(style)  # a time whose nanoseconds need zeros in front
    t.dump(1000, A, 100, "alpha")
    t.switch(10**9 - BASE % 10**9 + 5, 0, 0, 0, A)
    p = common.spoor("sched", "--timeline", t.write(os.path.join(tmp, "zeros-" + style)))
    check(s + "timeline: nanoseconds padded", [l.split()[0] for l in p.stdout.splitlines()],
          ["%d.000000005" % (BASE // 10**9 + 1)])
    worst = rows("Worst wake-up latencies")
    want = [[dump_time(w["wake_ts"]), dump_time(w["run_ts"]), us(w["latency_ns"]), str(w["tid"]),
             by(doc, "threads", "tid")[w["tid"]]["name"], str(w["cpu"]), str(w["waker"])]
            for w in doc["worst"]]
    check(s + "worst", [r.split() for r in worst], want)
    # columns aligned: every row of a table as long as its header line
    for title, table in (("Threads", threads), ("Processes", procs),
                         ("Worst wake-up latencies", worst)):
        head = lines[next(i for i, l in enumerate(lines) if l.startswith(title)) + 1]
        check(s + title + " aligned", {len(r) for r in table}, {len(head)})


def dump_time(ns):
    """A time as spoor dump prints it: seconds.nanoseconds, '-' in front before the origin."""
    return "%s%d.%09d" % ("-" if ns < 0 else "", abs(ns) // 10**9, abs(ns) % 10**9)


def test_before_origin(tmp, style):
    """Times before the clock's origin (a negative offset_s) read as spoor dump prints them
    in the timeline (was 0.-876543211 for dump's -0.876543211)."""
    d = main_trace(style).write(os.path.join(tmp, "before-origin-" + style))
    meta = os.path.join(d, "metadata")
    with open(meta) as f:
        text = f.read()
    with open(meta, "w") as f:
        f.write(text.replace("offset_s = %d;" % gen_kernel.G.CLOCK_OFFSET_S, "offset_s = -1;"))
    s = style + ": before the clock's origin: "
    p = common.spoor("dump", d)
    dumped = {l.split()[0] for l in p.stdout.splitlines()}
    check(s + "dump's times negative", (p.returncode, all(t.startswith("-0.") for t in dumped)),
          (0, True))
    p = common.spoor("sched", "--timeline", d)
    times = [l.split()[0] for l in p.stdout.splitlines()]
    check(s + "timeline", (p.returncode, len(times), set(times) - dumped), (0, 16, set()))


def test_lost(tmp, style):
    d = lost_trace(style).write(os.path.join(tmp, "lost-" + style), losses={0: [(1, 5)]})
    doc = sched(d, "--json")
    s = style + " lost: "
    cpus = by(doc, "cpus", "cpu")
    check(s + "cpu 0", [cpus[0][k] for k in ("busy_ns", "idle_ns", "unknown_ns", "lost")],
          [3000, 0, 5000, 5])
    check(s + "cpu 1", [cpus[1][k] for k in ("busy_ns", "idle_ns", "unknown_ns", "lost")],
          [6000, 2000, 0, 0])
    th = by(doc, "threads", "tid")
    check(s + "A", [th[A][k] for k in ("cpu_ns", "switches", "wait_ns")], [3000, 2, 0])
    check(s + "C", [th[C]["cpu_ns"], th[C]["latency"]["count"], th[C]["blocked_ns"]],
          [0, 0, 3000])
    check(s + "totals", [doc[k] for k in ("lost_events", "cut_intervals", "dropped_wakeups")],
          [5, 1, 1])
    p = common.spoor("sched", d)
    check(s + "reported", ("5 events discarded" in p.stderr, "cut by lost events" in p.stdout),
          (True, True))
    # the timeline shows the tasks the loss made unknown, at the loss, on its CPU (LTTng's
    # trace, without a task per event, shows C running at its switch-out: a switch inferred)
    tl = sched(d, "--json", "--timeline")["timeline"]
    c_out = [(6000, C, "unknown", "running", 0), (6000, C, "running", "blocked(S)", 0)] \
        if style == "lttng" else [(6000, C, "unknown", "blocked(S)", 0)]
    check(s + "timeline", [(x["ts"] - BASE, x["tid"], x["from"], x["to"], x["cpu"])
                           for x in tl if x["tid"] in (A, C)], [
        (1000, A, "unknown", "running", 0), (3000, C, "unknown", "runnable", 1),
        (6000, A, "running", "unknown", 0), (6000, C, "runnable", "unknown", 0)] + c_out + [
        (6000, A, "unknown", "running", 0), (9000, A, "running", "blocked(S)", 0)])


def test_user_losses(tmp, style):
    """A kernel trace beside a user-space trace whose streams lost events (on CPUs 0 and 1,
    ust-discard, LTTng-UST's per-CPU buffers): those losses say nothing of the kernel's CPUs
    (they cut the intervals in progress: the CPUs' last ones; the events lost still count)."""
    d = os.path.join(tmp, "user-losses-" + style)
    main_trace(style).write(os.path.join(d, "kernel"))
    shutil.copytree(os.path.join(os.environ["SPOOR_TEST_DATA"], "traces", "ust-discard"),
                    os.path.join(d, "ust"))
    doc = sched(d, "--json")
    s = style + " user-space losses: "
    check(s + "cpus", [(c["cpu"], c["unknown_ns"], c["lost"]) for c in doc["cpus"]],
          [(0, 0, 0), (1, 0, 0)])
    check(s + "totals", [doc[k] > 0 for k in ("lost_events",)] +
          [doc[k] for k in ("cut_intervals", "dropped_wakeups")], [True, 0, 0])


def test_saturated(tmp):
    """Four threads of one process on four CPUs for 2.9e18 ns (92 years) each: the process's
    CPU time, 1.16e19 ns, does not fit in 64 bits; it stops at the largest value instead of
    wrapping to a negative one (signed overflow is undefined behaviour: UBSan in CI)."""
    long = 2900000000000000000
    evs = [(1000, 0, "lttng_statedump_process_state",
            {"tid": 300 + k, "pid": 300, "ppid": 1, "name": "big"}) for k in range(4)]
    for k in range(4):
        for ts, prev, nxt in ((2000, 0, 300 + k), (long, 300 + k, 0)):
            evs.append((ts, k, "sched_switch", {
                "prev_comm": "big" if prev else "swapper", "prev_tid": prev, "prev_prio": 20,
                "prev_state": 1, "next_comm": "big" if nxt else "swapper", "next_tid": nxt,
                "next_prio": 20}))
    d = gen_kernel.write(os.path.join(tmp, "saturated"), evs, style="lttng")
    doc = sched(d, "--json")
    if not doc:
        check("saturated: runs", False, True)
        return
    th = by(doc, "threads", "tid")
    check("saturated: each thread's CPU time", [th[300 + k]["cpu_ns"] for k in range(4)],
          [long - 2000] * 4)
    check("saturated: the process's, at the largest value", by(doc, "processes", "pid")[300]["cpu_ns"],
          2**63 - 1)


def missing_switch_trace(style):
    """A's switch-in after its first wake-up is missing, as this machine's kernel (6.18)
    sometimes leaves out switches from the idle task; its system calls (common_pid = A, in
    the ftrace style) show it running at 3200. The LTTng style has no task context: the
    switch-out at 5000 (prev_tid A while the CPU had the idle task) shows it first;
    "lttng_tid" (LTTng with a tid context) shows it at 3200 as ftrace's does."""
    t = Trace(style)
    t.dump(1000, A, 100, "alpha")
    t.switch(1000, 0, 0, 0, A)
    t.switch(2000, 0, A, S, 0)
    t.wake(3000, 1, "sched_waking", A, 0)
    t.cur[0] = A  # the switch 0 -> A is not in the trace
    pre = "syscall_" if t.lt else "sys_"
    t.add(3200, 0, pre + ("entry_read" if t.lt else "enter_read"), {"fd": 3})
    t.add(3300, 0, pre + "exit_read", {"ret": 1})
    t.switch(5000, 0, A, S, 0)
    t.wake(6000, 1, "sched_waking", A, 0)
    t.switch(6500, 0, 0, 0, A)  # latency 500
    t.switch(8000, 0, A, S, 0)
    return t


def test_inferred(tmp, style):
    """A missing switch is inferred at the first event of the task that runs: the wake-up
    latency ends there (200 ns, not 3500 at the next switch-in), and it is counted."""
    d = missing_switch_trace(style).write(os.path.join(tmp, "inferred-" + style))
    doc = sched(d, "--json")
    s = style + " missing switch: "
    shown = 5000 if style == "lttng" else 3200  # where the trace first shows A running
    a = by(doc, "threads", "tid")[A]
    check(s + "latencies", sorted(w["latency_ns"] for w in doc["worst"]), sorted([shown - 3000, 500]))
    check(s + "A's CPU time and switch-ins", (a["cpu_ns"], a["switches"]),
          (1000 + 5000 - shown + 1500, 3))
    check(s + "inferred", (doc["inferred_switches"], by(doc, "cpus", "cpu")[0]["inferred"]), (1, 1))
    check(s + "cpu 0: busy + idle = span", (lambda c: c["busy_ns"] + c["idle_ns"])(
        by(doc, "cpus", "cpu")[0]), round(doc["span_s"] * 1e9))
    p = common.spoor("sched", d)
    check(s + "said in the text", "Inferred: 1 switches" in p.stdout, True)


def test_renamed(tmp, style):
    """--comm selects by the name at the end (an exec renames a task after its first run):
    the worst latencies are those of the threads listed, from before the rename too."""
    t = main_trace(style)
    k = "tid" if t.lt else "pid"
    t.wake(14000, 1, "sched_waking", C, 1)
    t.add(14500, 1, "sched_switch", {  # C runs again as "delta": latency 500
        "prev_comm": "swapper/1", "prev_" + k: 0, "prev_prio": 20, "prev_state": 0,
        "next_comm": "delta", "next_" + k: C, "next_prio": 20})
    t.cur[1] = C
    t.add(15000, 1, "sched_switch", {
        "prev_comm": "delta", "prev_" + k: C, "prev_prio": 20, "prev_state": S,
        "next_comm": "swapper/1", "next_" + k: 0, "next_prio": 20})
    t.cur[1] = 0
    d = t.write(os.path.join(tmp, "renamed-" + style))
    s = style + " renamed: "
    doc = sched(d, "--json", "--comm", "del*")
    check(s + "--comm del*: the thread", sorted(by(doc, "threads", "tid")), [C])
    check(s + "--comm del*: its two latencies, the one before the rename too",
          sorted((w["tid"], w["run_ts"] - BASE) for w in doc["worst"]), [(C, 7500), (C, 14500)])
    doc = sched(d, "--json", "--comm", "gam*")
    check(s + "--comm gam*: nothing, threads or latencies", (doc["threads"], doc["worst"]),
          ([], []))


def test_missing(tmp):
    d = gen_kernel.write(os.path.join(tmp, "irq-only"), [
        (1000, 0, "irq_handler_entry", {"irq": 5, "name": "eth0"}),
        (1500, 0, "irq_handler_exit", {"irq": 5, "ret": 1})])
    p = common.spoor("sched", d)
    check("no sched events: the message", (p.returncode != 0, "spoor record -k sched" in p.stderr),
          (True, True))


with tempfile.TemporaryDirectory() as tmp:
    for style in ("ftrace", "lttng"):
        test_main(tmp, style)
        test_text(tmp, style)
        test_before_origin(tmp, style)
        test_lost(tmp, style)
        test_user_losses(tmp, style)
        test_inferred(tmp, style)
        test_renamed(tmp, style)
    test_inferred(tmp, "lttng_tid")
    test_saturated(tmp)
    test_missing(tmp)
sys.exit(common.finish())
