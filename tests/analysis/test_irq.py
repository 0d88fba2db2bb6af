#!/usr/bin/env python3
"""spoor irq on small synthetic kernel traces (tests/data/gen_kernel.py) whose figures are
worked out by hand below: durations, periods, frequencies, a hard IRQ nested in a softirq,
an exit without its entry, an entry without its exit, events lost mid-trace, --all-cpus,
--cpu, --tid, --begin/--end, and a trace without IRQ events.

Environment: SPOOR (the binary), SPOOR_TEST_DATA (tests/data)."""
import functools
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import check  # noqa: E402
import gen_kernel  # noqa: E402

run = functools.partial(common.spoor, "irq")  # run(ARGS): spoor irq ARGS
irq_json = functools.partial(common.spoor_json, "irq")  # parsed --json output, or None


def close(a, b, tol=1e-3):
    return common.close(a, b, tol)


def line(doc, kind, cpu, num):
    key = "vec" if kind == "softirq" else "irq"
    for x in doc["lines"]:
        if x["kind"] == kind and x["cpu"] == cpu and x[key] == num:
            return x
    return None


def E(ts, cpu, ev, pid=-1, **f):
    return (ts, cpu, ev, dict(f, common_pid=pid))


# Times are ns (the generator's clock runs at 1 GHz).
# CPU 0: hard IRQ 5 "eth0" runs 1000-1500, 3000-3700, 6000-6300; softirq TIMER (vec 1) runs
#   2000-4000 with the second IRQ 5 nested inside it, and 8000-8400; an exit of NET_RX (vec 3)
#   at 500 without its entry; IRQ 9 "disk" enters at 9000 and never exits.
# CPU 1: IRQ 7 "timer" runs 1000-1100, 2000-(2900), 3500-3600, 4500-4700 and IRQ 5 5000-5400;
#   5 events are lost just before the exit at 2900, so the run from 2000 is cut.
EVENTS = [
    E(500, 0, "softirq_exit", vec=3),
    E(1000, 0, "irq_handler_entry", 42, irq=5, name="eth0"),
    E(1500, 0, "irq_handler_exit", 42, irq=5, ret=1),
    E(2000, 0, "softirq_entry", vec=1),
    E(3000, 0, "irq_handler_entry", 43, irq=5, name="eth0"),
    E(3700, 0, "irq_handler_exit", 43, irq=5, ret=1),
    E(4000, 0, "softirq_exit", vec=1),
    E(6000, 0, "irq_handler_entry", 42, irq=5, name="eth0"),
    E(6300, 0, "irq_handler_exit", 42, irq=5, ret=1),
    E(8000, 0, "softirq_entry", vec=1),
    E(8400, 0, "softirq_exit", vec=1),
    E(9000, 0, "irq_handler_entry", irq=9, name="disk"),
    E(1000, 1, "irq_handler_entry", irq=7, name="timer"),
    E(1100, 1, "irq_handler_exit", irq=7, ret=1),
    E(2000, 1, "irq_handler_entry", irq=7, name="timer"),
    E(2900, 1, "irq_handler_exit", irq=7, ret=1),  # CPU 1's event #3: the loss is before it
    E(3500, 1, "irq_handler_entry", irq=7, name="timer"),
    E(3600, 1, "irq_handler_exit", irq=7, ret=1),
    E(4500, 1, "irq_handler_entry", irq=7, name="timer"),
    E(4700, 1, "irq_handler_exit", irq=7, ret=1),
    E(5000, 1, "irq_handler_entry", irq=5, name="eth0"),
    E(5400, 1, "irq_handler_exit", irq=5, ret=1),
]
LOSSES = {1: [(3, 5)]}
SPAN = 9000 - 500  # first to last event, ns


def check_whole(doc, style):
    s = style + ": "
    check(s + "json parsed", doc is not None)
    if doc is None:
        return
    check(s + "span 8500 ns", close(doc["span_s"], SPAN / 1e9, 1e-6))
    check(s + "5 lost events reported", doc["lost_events"] == 5)
    # unmatched: NET_RX's exit at 500, and CPU 1's exit at 2900 (its run was cut by the loss)
    check(s + "2 unmatched exits", doc["unmatched_exits"] == 2)
    check(s + "1 unfinished run (IRQ 9)", doc["unfinished"] == 1)
    check(s + "1 run cut by the loss", doc["broken"] == 1)

    l5 = line(doc, "irq", 0, 5)
    check(s + "cpu 0 irq 5 found, named eth0", l5 is not None and l5["name"] == "eth0")
    if l5:
        # durations 500, 700, 300: mean 500; sample var (0 + 200^2 + 200^2) / 2 = 40000
        check(s + "cpu 0 irq 5 count 3", l5["count"] == 3)
        check(s + "cpu 0 irq 5 total 1500", close(l5["total_ns"], 1500))
        check(s + "cpu 0 irq 5 mean 500", close(l5["mean_ns"], 500))
        check(s + "cpu 0 irq 5 stddev 200", close(l5["stddev_ns"], 200))
        check(s + "cpu 0 irq 5 min 300 max 700", l5["min_ns"] == 300 and l5["max_ns"] == 700)
        # 3 runs over 8500 ns: 352941.176 Hz
        check(s + "cpu 0 irq 5 freq 3/8.5us", close(l5["freq_hz"], 3 / 8.5e-6))
        # periods 2000, 3000: mean 2500, sd sqrt(500^2 + 500^2) = 707.107
        check(s + "cpu 0 irq 5 period mean 2500", close(l5["period_mean_ns"], 2500))
        check(s + "cpu 0 irq 5 period sd 707.107", close(l5["period_stddev_ns"], 707.1068))
        # freqs 500000 and 333333.333 Hz: sd 166666.667 / sqrt(2) = 117851.130
        check(s + "cpu 0 irq 5 freq sd 117851.130", close(l5["freq_stddev_hz"], 117851.130))
        # log2 buckets: 300, 500 in [256, 512) = 8; 700 in [512, 1024) = 9
        check(s + "cpu 0 irq 5 histogram", l5["hist_log2_ns"][8] == 2 and l5["hist_log2_ns"][9] == 1
              and sum(l5["hist_log2_ns"]) == 3)

    t = line(doc, "softirq", 0, 1)
    check(s + "cpu 0 TIMER found", t is not None and t["name"] == "TIMER")
    if t:
        # 2000-4000 with the nested hard IRQ inside (it counts in the softirq's time, as in
        # LTTV and lttng-analyses), and 400: mean 1200, sd sqrt(800^2 + 800^2) = 1131.371
        check(s + "TIMER count 2", t["count"] == 2)
        check(s + "TIMER mean 1200", close(t["mean_ns"], 1200))
        check(s + "TIMER sd 1131.371", close(t["stddev_ns"], 1131.3708))
        check(s + "TIMER min 400 max 2000", t["min_ns"] == 400 and t["max_ns"] == 2000)
        # one period, 6000 ns: sd 0
        check(s + "TIMER period 6000", close(t["period_mean_ns"], 6000) and t["period_stddev_ns"] == 0)

    l7 = line(doc, "irq", 1, 7)
    check(s + "cpu 1 irq 7 found", l7 is not None and l7["name"] == "timer")
    if l7:
        # 100, 100, 200 (the run from 2000 is cut, not 900): mean 133.333,
        # var (33.333^2 * 2 + 66.667^2) / 2 = 3333.333, sd 57.735
        check(s + "cpu 1 irq 7 count 3", l7["count"] == 3)
        check(s + "cpu 1 irq 7 mean 133.333", close(l7["mean_ns"], 133.3333))
        check(s + "cpu 1 irq 7 sd 57.735", close(l7["stddev_ns"], 57.735))
        check(s + "cpu 1 irq 7 max 200 (not 900)", l7["max_ns"] == 200)
        # periods 1000 (1000->2000) and 1000 (3500->4500): the loss restarts them (no 1500)
        check(s + "cpu 1 irq 7 period 1000, sd 0",
              close(l7["period_mean_ns"], 1000) and l7["period_stddev_ns"] == 0)
        check(s + "cpu 1 irq 7 freq sd 0", l7["freq_stddev_hz"] == 0)

    l9 = line(doc, "irq", 0, 9)
    check(s + "unfinished irq 9 has no completed run", l9 is None or l9["count"] == 0)


def main():
    tmp = tempfile.mkdtemp(prefix="spoor-irq-test.")
    for style in ("lttng", "ftrace"):
        d = gen_kernel.write(os.path.join(tmp, style), EVENTS, style=style, losses=LOSSES)
        check_whole(irq_json(d), style)
    d = os.path.join(tmp, "ftrace")

    # --all-cpus: IRQ 5 on both CPUs merged (Chan et al.): 500, 700, 300, 400:
    # mean 475, var (25^2 + 225^2 + 175^2 + 75^2) / 3 = 87500 / 3, sd 170.783.
    # Periods between entries on any CPU: the loss on CPU 1 (read at 2900) restarts them,
    # so 3000 (cpu 0) -> 5000 (cpu 1) -> 6000 (cpu 0): 2000, 1000: mean 1500, sd 707.107;
    # freqs 500000, 1000000 Hz: sd 353553.391.
    doc = irq_json("--all-cpus", d)
    a5 = doc and line(doc, "irq", None, 5)
    check("all-cpus: irq 5 line", a5 is not None)
    if a5:
        check("all-cpus: irq 5 count 4", a5["count"] == 4)
        check("all-cpus: irq 5 mean 475", close(a5["mean_ns"], 475))
        check("all-cpus: irq 5 sd 170.783", close(a5["stddev_ns"], 170.7825))
        check("all-cpus: irq 5 min 300 max 700", a5["min_ns"] == 300 and a5["max_ns"] == 700)
        check("all-cpus: irq 5 total 1900", close(a5["total_ns"], 1900))
        check("all-cpus: irq 5 period 1500 sd 707.107",
              close(a5["period_mean_ns"], 1500) and close(a5["period_stddev_ns"], 707.1068))
        check("all-cpus: irq 5 freq sd 353553.391", close(a5["freq_stddev_hz"], 353553.391))
        check("all-cpus: histogram summed", sum(a5["hist_log2_ns"]) == 4)
    check("all-cpus: no per-CPU lines", doc is not None and all(x["cpu"] is None for x in doc["lines"]))

    # --cpu 1: CPU 1's lines only; its unmatched exit only
    doc = irq_json("--cpu", "1", d)
    check("cpu filter: only cpu 1", doc is not None and {x["cpu"] for x in doc["lines"]} == {1})
    check("cpu filter: 1 unmatched", doc is not None and doc["unmatched_exits"] == 1)
    c15 = doc and line(doc, "irq", 1, 5)
    check("cpu filter: cpu 1 irq 5 400 ns", c15 is not None and c15["count"] == 1 and c15["mean_ns"] == 400)

    # --tid 42 (the task the IRQ interrupted: common_pid): cpu 0 IRQ 5 at 1000 and 6000 only:
    # 500 and 300, mean 400; the filtered run still pairs (no more unmatched exits)
    doc = irq_json("--tid", "42", d)
    t5 = doc and line(doc, "irq", 0, 5)
    check("tid filter: 2 runs, mean 400", t5 is not None and t5["count"] == 2 and close(t5["mean_ns"], 400))
    check("tid filter: unmatched still 2", doc is not None and doc["unmatched_exits"] == 2)

    # --begin 2500 --end 6500: IRQ 5 on cpu 0 3000-3700 and 6000-6300 (mean 500, period 3000);
    # TIMER's exit at 4000 and CPU 1's at 2900 have their entries outside: 2 unmatched;
    # span: first event in range (2900) to last (6300) = 3400 ns
    b = gen_kernel.gen_ctf.ns_since_epoch(2500)
    e = gen_kernel.gen_ctf.ns_since_epoch(6500)
    doc = irq_json("--begin", str(b), "--end", str(e), d)
    r5 = doc and line(doc, "irq", 0, 5)
    check("range: cpu 0 irq 5 count 2 mean 500",
          r5 is not None and r5["count"] == 2 and close(r5["mean_ns"], 500))
    check("range: period 3000", r5 is not None and close(r5["period_mean_ns"], 3000))
    check("range: span 3400 ns", doc is not None and close(doc["span_s"], 3400e-9, 1e-6))
    check("range: 2 unmatched", doc is not None and doc["unmatched_exits"] == 2)
    rt = doc and line(doc, "softirq", 0, 1)
    check("range: TIMER not counted", rt is None or rt["count"] == 0)

    # the text table and the histogram
    p = run("--hist", d)
    check("text: tables and histogram", p.returncode == 0 and "Hard IRQs" in p.stdout
          and "Softirqs" in p.stdout and "irq 5 on cpu 0 (eth0): durations" in p.stdout)
    check("text: losses reported", "Not counted: 2 exits" in p.stdout and "5 events discarded" in p.stderr)
    check("text: the losses printed once, then one note",
          p.stderr.count("5 events") == 1 and p.stderr.count("figures that span a loss") == 1)

    # Events no hook reads are passed over inside the reader (never merged or dispatched),
    # yet their times still make the span: a variable-size one first (100, cpu 0) and a
    # fixed-size one last (9500, cpu 1), in runs of three so that runs are stepped over
    # together. 7 events are lost just before that last one: no event read follows them on
    # that CPU, so only the end of the pass can report them.
    def passed(ts, cpu, name):
        if name == "var":
            return E(ts, cpu, "sched_stat_runtime", comm="x", tid=3, runtime=ts)
        return E(ts, cpu, "sched_process_free", tid=4, prio=20)
    ev2 = ([passed(t, 0, "var") for t in (100, 110, 120)] + EVENTS +
           [passed(t, 1, "fixed") for t in (9300, 9400, 9500)])
    for style in ("lttng", "ftrace"):
        p2 = gen_kernel.write(os.path.join(tmp, "passed-" + style), ev2, style=style,
                              losses={1: [(3, 5), (10, 7)]})
        doc = irq_json(p2)
        check(style + ": passed over: span 100-9500 ns",
              doc is not None and close(doc["span_s"], 9400e-9, 1e-6))
        check(style + ": passed over: 12 lost events (7 at the end of cpu 1)",
              doc is not None and doc["lost_events"] == 12)
        l5 = doc and line(doc, "irq", 0, 5)
        check(style + ": passed over: cpu 0 irq 5 unchanged (3 runs, total 1500)",
              l5 is not None and l5["count"] == 3 and close(l5["total_ns"], 1500))
        # with a range, the last event in range is a passed one: 2900 to 9400
        doc = irq_json("--begin", str(gen_kernel.gen_ctf.ns_since_epoch(2500)),
                       "--end", str(gen_kernel.gen_ctf.ns_since_epoch(9450)), p2)
        check(style + ": passed over, range: span 2900-9400 ns",
              doc is not None and close(doc["span_s"], 6500e-9, 1e-6))

    # LTTng's state dump comes after the start: thread 101 of process 100 takes an IRQ (at
    # 1500, in the task the last switch put there) before the dump names its process. --pid
    # 100 counts it (the dump is read ahead); before, only the one at 3000.
    sw = lambda ts, prev, nxt, cpu=0, comm="app": (ts, cpu, "sched_switch", {
        "prev_comm": "x", "prev_tid": prev, "prev_prio": 20, "prev_state": 0,
        "next_comm": comm, "next_tid": nxt, "next_prio": 20})
    dump = lambda ts, tid, pid=100, cpu=1, name="app": (
        ts, cpu, "lttng_statedump_process_state",
        {"tid": tid, "pid": pid, "ppid": 1, "name": name})
    def late_dump(path, t, cpu, dcpu, pid, irq, name, comm):
        """A trace where thread pid+1 of process pid takes IRQ irq on cpu at 1500, before the
        dump (from t, on dcpu) names its process, and again at t+1000, after it."""
        tid = pid + 1
        return gen_kernel.write(path, [
            sw(1000, 0, tid, cpu, comm),
            (1500, cpu, "irq_handler_entry", {"irq": irq, "name": name}),
            (1600, cpu, "irq_handler_exit", {"irq": irq, "ret": 1}),
            (t, dcpu, "lttng_statedump_start", {}), dump(t + 100, pid, pid, dcpu, comm),
            dump(t + 100, tid, pid, dcpu, comm),
            (t + 200, dcpu, "lttng_statedump_end", {}),
            (t + 1000, cpu, "irq_handler_entry", {"irq": irq, "name": name}),
            (t + 1100, cpu, "irq_handler_exit", {"irq": irq, "ret": 1})], style="lttng")

    late = late_dump(os.path.join(tmp, "late-dump"), 2000, 0, 1, 100, 5, "eth0", "app")
    doc = irq_json("--pid", "100", late)
    l5 = doc and line(doc, "irq", 0, 5)
    check("late state dump: --pid 100 counts the IRQ before it too",
          l5 is not None and l5["count"] == 2)

    # two traces in one folder, each with its own dump: the second one's ends later than
    # the first's, and is read ahead too (thread 201 of process 200 on CPU 2, IRQ 6)
    both = os.path.join(tmp, "two-dumps")
    shutil.copytree(late, os.path.join(both, "a"))
    late_dump(os.path.join(both, "b"), 4000, 2, 3, 200, 6, "eth1", "app2")
    doc = irq_json("--pid", "200", both)
    l6 = doc and line(doc, "irq", 2, 6)
    check("two traces' late state dumps: --pid 200 counts the IRQ before the second",
          l6 is not None and l6["count"] == 2)
    doc = irq_json("--pid", "100", both)
    l5 = doc and line(doc, "irq", 0, 5)
    check("two traces' late state dumps: --pid 100 still counts both of the first",
          l5 is not None and l5["count"] == 2)

    # a trace without IRQ events: a message naming what to record
    n = gen_kernel.write(os.path.join(tmp, "noirq"), [
        E(1000, 0, "sched_switch", prev_comm="a", prev_tid=1, prev_prio=20, prev_state=0,
          next_comm="b", next_tid=2, next_prio=20)])
    p = run(n)
    check("no irq events: fails naming 'spoor record -k irq'",
          p.returncode != 0 and "spoor record -k irq" in p.stderr and not p.stdout)

    shutil.rmtree(tmp)
    return common.finish()


if __name__ == "__main__":
    sys.exit(main())
