#!/usr/bin/env python3
"""spoor syscalls on real traces:
 1. ../shared/traces/lttng/many-threads (LTTng 2.8) against lttng-syscallstats, thread by
    thread and call by call: count, min, mean, max, standard deviation (lttng-analyses
    prints microseconds to 3 decimals) and errors; without lttng-analyses, against figures
    pinned from it.
 2. A trace recorded here (`spoor record -k syscalls -- sh -c ...`, needs root) against an
    independent pairing of babeltrace2's text: per call name, entries, completed calls,
    errors and total time.

Environment: SPOOR, SHARED_TRACES. Exit 77 (skip) when nothing could be checked."""
import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from common import check, skip  # noqa: E402

TRACE = os.path.join(common.SHARED, "lttng", "many-threads")

# lttng-syscallstats on many-threads: (tid, call): count, min, avg, max us (stdev '?' = None)
PINNED = {
    (2673, "close"): (8004, 0.106, 0.204, 8.303, 0.113),
    (2673, "open"): (8003, 1.459, 3.987, 71.586, 3.136),
    (2673, "futex"): (5430, 0.371, 52.592, 643.522, 58.914),
    (10704, "lseek"): (597, 0.106, 0.12, 0.492, 0.023),
    (10704, "sendto"): (4, 3.221, 203.558, 802.293, 399.158),
    (10704, "execve"): (1, 91.378, 91.378, 91.378, None),
}


def spoor_json(*args):
    return common.spoor_json("syscalls", *args)


def us_close(a, b):
    return abs(a - b) <= 0.0015  # both rounded to 3 decimals


def parse_lttng(text):
    """lttng-syscallstats' tables: {tid: {call: (count, min, avg, max, stdev, errors)}}."""
    out, tid = {}, None
    head = re.compile(r"^(.*) \((\S+), TID: (\d+)\)\s+Count")
    row = re.compile(r"^ - (\S+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+(\S+)\s+(\{.*\})")
    for line in text.splitlines():
        m = head.match(line)
        if m:
            tid = int(m.group(3))
            out[tid] = {}
            continue
        m = row.match(line)
        if m and tid is not None:
            rets = eval(m.group(7), {})  # a dict literal: {'success': 9, 'ENOENT': 2}
            # lttng-analyses starts each return-value count at 1 before adding (cli/
            # syscallstats.py), so every count is one too many
            errors = sum(v - 1 for k, v in rets.items() if k != "success")
            sd = None if m.group(6) == "?" else float(m.group(6))
            out[tid][m.group(1)] = (int(m.group(2)), float(m.group(3)), float(m.group(4)),
                                    float(m.group(5)), sd, errors)
    return out


def spoor_by_thread(doc):
    res = {}
    for t in doc["threads"]:
        res[t["tid"]] = {s["name"]: s for s in t["syscalls"] if s["count"]}
    return res


def same_row(mine, theirs, count_only=False):
    count, mn, avg, mx, sd = theirs[:5]
    if mine["count"] != count:
        return False
    if count_only:
        return True
    ok = (us_close(mine["min_ns"] / 1e3, mn) and us_close(mine["mean_ns"] / 1e3, avg)
          and us_close(mine["max_ns"] / 1e3, mx))
    # lttng-analyses prints '?' below 3 calls
    return ok and (sd is None or count < 3 or us_close(mine["stddev_ns"] / 1e3, sd))


def test_lttng(tmp):
    if not os.path.isdir(TRACE):
        skip("no %s" % TRACE)
        return
    doc = spoor_json("--per-thread", TRACE)
    check("many-threads: read", doc is not None)
    if not doc:
        return
    mine = spoor_by_thread(doc)
    # a thread's process as the whole trace says (sched's): lttng-consumerd's thread 4297
    # calls before the state dump names its process 4292 (it was a process of its own)
    sched = common.spoor_json("sched", TRACE) or {"threads": []}
    pids = {t["tid"]: t["pid"] for t in sched["threads"]}
    wrong = [(t["tid"], t["pid"], pids[t["tid"]]) for t in doc["threads"]
             if t["tid"] in pids and t["pid"] != pids[t["tid"]]]
    check("many-threads: every thread's pid as spoor sched finds it %s" % wrong[:5],
          not wrong and pids.get(4297) == 4292)
    procs = common.spoor_json("syscalls", TRACE) or {"processes": []}
    by_pid = defaultdict(int)
    for t in doc["threads"]:
        by_pid[t["pid"]] += t["count"]
    check("many-threads: each process's calls are its threads'",
          {p["pid"]: p["count"] for p in procs["processes"]} == dict(by_pid))
    check("many-threads: pinned lttng-syscallstats rows",
          all(c in mine.get(t, {}) and same_row(mine[t][c], v) for (t, c), v in PINNED.items()))
    if not shutil.which("lttng-syscallstats"):
        skip("lttng-syscallstats not installed: pinned figures only")
        return
    os.symlink(os.path.abspath(TRACE), os.path.join(tmp, "kernel"))  # it wants that name
    p = common.lttng_analysis("lttng-syscallstats", os.path.join(tmp, "kernel"), timeout=None)
    if p.returncode:
        skip("lttng-syscallstats failed: " + p.stderr[-300:])
        return
    theirs = parse_lttng(p.stdout)
    rows = [(t, c) for t in theirs for c in theirs[t]]
    named = rows  # LTTng's syscall_entry_unknown events are "unknown" in both
    bad = [(t, c) for t, c in named
           if c not in mine.get(t, {}) or not same_row(mine[t][c], theirs[t][c])]
    check("many-threads: %d of %d thread/call rows agree with lttng-syscallstats (count, min, "
          "mean, max, stddev)" % (len(named) - len(bad), len(named)), not bad and len(named) > 100)
    for t, c in bad[:10]:
        print("  differs: tid %d %s: spoor %s, lttng %s" % (t, c, mine.get(t, {}).get(c),
                                                            theirs[t][c]))
    errs = [(t, c) for t, c in named if c in mine.get(t, {})
            and mine[t][c]["errors"] != theirs[t][c][5]]
    check("many-threads: errors per thread and call agree", not errs)
    extra = [(t, c) for t in mine for c in mine[t] if c not in theirs.get(t, {})]
    check("many-threads: no rows lttng-syscallstats lacks", not extra)
    total = int(re.search(r"Total syscalls: (\d+)", p.stdout).group(1))
    check("many-threads: total completed calls %d = lttng's %d" % (doc["calls"], total),
          doc["calls"] == total)


LINE = re.compile(r"^\[(\d+)\.(\d+)\] .*? sys_(enter|exit)_(\w+): .*?common_pid = (-?\d+)")


def bt2_pairing(trace):
    """Per call name from babeltrace2's text: entries, completed calls, errors, total ns."""
    p = subprocess.run(["babeltrace2", "--clock-seconds", trace], capture_output=True,
                       text=True)
    entries, done, errors, total = (defaultdict(int) for _ in range(4))
    open_call = {}
    for line in p.stdout.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        ts = int(m.group(1)) * 10**9 + int(m.group(2).ljust(9, "0"))
        kind, name, tid = m.group(3), m.group(4), int(m.group(5))
        if kind == "enter":
            entries[name] += 1
            open_call[tid] = (name, ts)
            continue
        call = open_call.pop(tid, None)
        if not call or call[0] != name:
            continue
        done[name] += 1
        total[name] += ts - call[1]
        ret = int(re.search(r"ret = (-?\d+)", line).group(1))
        if -4096 < ret < 0:
            errors[name] += 1
    return entries, done, errors, total


def test_record(tmp):
    out = common.record(os.path.join(tmp, "t"), "syscalls",
                        "for i in 1 2 3; do ls /nonexistent-spoor 2>/dev/null; "
                        "cat /etc/hostname >/dev/null; done")
    if not out:
        return
    doc = spoor_json(out)
    entries, done, errors, total = bt2_pairing(out)
    check("recorded: read", doc is not None and doc["lost_events"] == 0)
    if not doc:
        return
    mine = {x["name"]: x for x in doc["syscalls"]}
    check("recorded: a few thousand calls, openat errors among them",
          doc["calls"] > 500 and mine.get("openat", {}).get("errors", 0) > 0)
    names = set(entries) | set(done) | set(mine)
    diff = [n for n in names
            if mine.get(n, {}).get("count", 0) != done[n]
            or mine.get(n, {}).get("errors", 0) != errors[n]
            or mine.get(n, {}).get("total_ns", 0) != total[n]]
    check("recorded: per call, completed calls, errors and total ns = babeltrace2's (%d "
          "names)" % len(names), not diff)
    for n in diff[:10]:
        print("  differs: %s: spoor %s, babeltrace2 %d done %d errors %d ns" % (
            n, mine.get(n), done[n], errors[n], total[n]))
    check("recorded: per call, entries = completed + never completed",
          all(entries[n] == mine.get(n, {}).get("count", 0) + mine.get(n, {}).get(
              "no_exit", 0) for n in names))
    check("recorded: completed calls sum to the total",
          sum(done.values()) == doc["calls"])


if __name__ == "__main__":
    sys.exit(common.run_parts("spoor-syscalls-real.", test_lttng, test_record))
