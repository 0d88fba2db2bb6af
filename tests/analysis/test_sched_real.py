#!/usr/bin/env python3
"""spoor sched on real traces, against independent figures:
  1. the LTTng 2.8 kernel trace SHARED_TRACES/lttng/many-threads: switches per CPU against
     babeltrace2's text; wake-up latencies per thread and the 10 worst against lttng-schedstats
     (lttng-analyses 0.6.1): a few numbers pinned below (from that tool), and the tool run live
     when installed (every thread it lists: count, min, mean, max, stdev);
  2. a trace recorded here (`spoor record -k sched`, needs root and tracefs): switches per CPU
     against babeltrace2's text, and each CPU's busy + idle time within the span.

Environment: SPOOR, SHARED_TRACES. Exit 77 (skip) when nothing could be checked."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import SHARED, check, skip  # noqa: E402

# lttng-schedstats --no-progress --stats kernel (0.6.1): tid: count, min, avg, max (us)
PINNED = {1543: (36, 1.317, 2.789, 15.563), 851: (10, 1.445, 10.820, 43.219),
          3760: (2, 7.244, 12.063, 16.883)}
PINNED_TOTAL = (418, 6742)  # threads listed, wake-ups measured
# lttng-schedstats --top: latency (us) and wakee tid, worst first
PINNED_TOP = [(315.435, 197), (219.266, 162), (215.514, 692), (135.417, 691), (131.176, 14)]


def sched(trace):
    return common.spoor_json("sched", trace)


def us(ns):
    return round(ns / 1e3, 3)


def bt_switches(trace):
    """sched_switch events per CPU in babeltrace2's text."""
    p = subprocess.run(["babeltrace2", trace], capture_output=True, text=True, check=True)
    n = {}
    for m in re.finditer(r" sched_switch: \{ cpu_id = (\d+) \}", p.stdout):
        n[int(m.group(1))] = n.get(int(m.group(1)), 0) + 1
    return n


def schedstats(trace_dir, what):
    return common.lttng_analysis("lttng-schedstats", what, trace_dir).stdout


def live_compare(doc, tmp, trace):
    link = os.path.join(tmp, "kernel")
    os.symlink(trace, link)
    mine = {t["tid"]: t["latency"] for t in doc["threads"] if t["latency"]["count"]}
    theirs = {}
    for ln in schedstats(link, "--stats").splitlines():
        m = re.match(r".*? \((\d+)\)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\S+)", ln)
        if m:
            sd = None if m.group(6) == "?" else float(m.group(6))
            theirs[int(m.group(1))] = (int(m.group(2)),) + tuple(
                float(v) for v in m.group(3, 4, 5)) + (sd,)
    check("live lttng-schedstats: %d threads" % len(theirs), len(theirs) > 0)
    bad = []
    for tid, want in theirs.items():
        l = mine.get(tid)
        got = l and (l["count"], us(l["min_ns"]), us(l["mean_ns"]), us(l["max_ns"]),
                     us(l["stddev_ns"]) if l["count"] > 1 else None)
        if got != want:
            bad.append((tid, got, want))
    check("live lttng-schedstats: every thread's count, min, mean, max, stdev %s" % bad[:5],
          not bad)
    check("live lttng-schedstats: the same threads", set(mine) == set(theirs))
    top = re.findall(r"\]\s+([\d.]+)\s+\d+\s+\d+\s+.*?\((\d+)\)", schedstats(link, "--top"))
    want = [(float(a), int(b)) for a, b in top]
    got = [(us(w["latency_ns"]), w["tid"]) for w in doc["worst"]]
    check("live lttng-schedstats --top: %s" % got[:3], got == want and len(want) == 10)


def lttng_part(tmp):
    trace = os.path.join(SHARED, "lttng", "many-threads")
    if not os.path.isdir(trace):
        skip("no %s" % trace)
        return
    doc = sched(trace)
    check("many-threads: runs", doc is not None)
    if not doc:
        return
    lat = {t["tid"]: t["latency"] for t in doc["threads"]}
    for tid, want in PINNED.items():
        l = lat[tid]
        got = (l["count"], us(l["min_ns"]), us(l["mean_ns"]), us(l["max_ns"]))
        check("pinned lttng-schedstats: tid %d %s = %s" % (tid, got, want), got == want)
    got = (sum(1 for l in lat.values() if l["count"]), sum(l["count"] for l in lat.values()))
    check("pinned lttng-schedstats: threads and wake-ups %s" % (got,), got == PINNED_TOTAL)
    got = [(us(w["latency_ns"]), w["tid"]) for w in doc["worst"][:5]]
    check("pinned lttng-schedstats --top %s" % got, got == PINNED_TOP)
    span = round(doc["span_s"] * 1e9)
    check("many-threads: busy + idle = span on every CPU",
          all(c["busy_ns"] + c["idle_ns"] == span for c in doc["cpus"]))
    if not shutil.which("babeltrace2"):
        skip("babeltrace2 not installed")
        return
    got = {c["cpu"]: c["switches"] for c in doc["cpus"]}
    want = bt_switches(trace)
    check("many-threads: switches per CPU = babeltrace2's %s" % want, got == want)
    if not shutil.which("lttng-schedstats"):
        skip("lttng-schedstats not installed: pinned numbers only")
        return
    live_compare(doc, tmp, trace)


def record_part(tmp):
    work = "for i in $(seq 300); do /bin/true; done; sleep 0.05; for i in $(seq 50); do " \
           "sleep 0.001; done"
    rec = common.record(os.path.join(tmp, "rec"), "sched", work)
    if not rec:
        return
    doc = sched(rec)
    check("recorded: runs", doc is not None)
    if not doc:
        return
    want = bt_switches(rec)
    # the switches column counts those inferred where this kernel left one out
    got = {c["cpu"]: c["switches"] - c["inferred"] for c in doc["cpus"]}
    check("recorded: some switches (%d)" % sum(want.values()), sum(want.values()) > 500)
    check("recorded: inferred switches counted apart (%d)" % doc["inferred_switches"],
          doc["inferred_switches"] == sum(c["inferred"] for c in doc["cpus"]))
    check("recorded: switches per CPU, less those inferred, = babeltrace2's: %s" %
          ("same" if got == want else "%s != %s" % (got, want)), got == want)
    span = round(doc["span_s"] * 1e9)
    over = [c for c in doc["cpus"] if c["busy_ns"] + c["idle_ns"] > span]
    check("recorded: busy + idle <= span (%d ns) on every CPU %s" % (span, over), not over)
    sh = [t for t in doc["threads"] if t["name"] == "sh"]
    check("recorded: the workload's shell has CPU time and wake-ups",
          any(t["cpu_ns"] > 0 and t["latency"]["count"] > 0 for t in sh))
    threads = sum(t["cpu_ns"] for t in doc["threads"])
    busy = sum(c["busy_ns"] for c in doc["cpus"])
    check("recorded: the threads' CPU time adds up to the CPUs' busy time", threads == busy)


if __name__ == "__main__":
    sys.exit(common.run_parts("spoor-sched-real.", lttng_part, record_part))
