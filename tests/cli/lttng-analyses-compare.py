#!/usr/bin/env python3
"""spoor's analyses against lttng-analyses 0.6.1 on one LTTng kernel trace.

  lttng-analyses-compare.py SPOOR KERNEL_DIR WORK_DIR

KERNEL_DIR is the trace (a folder named `kernel`: lttng-analyses reads the tracer's version
from such a folder's metadata); WORK_DIR a scratch folder. The tools run in their
machine-readable mode (lttng-irqstats-mi, lttng-schedstats-mi, lttng-syscallstats-mi: JSON,
durations in ns, means and deviations unrounded) beside `spoor irq --all-cpus`,
`spoor sched` and `spoor syscalls --per-thread` (--json: ns, means and deviations to 3
decimals); with block requests in the trace, lttng-iolatencystats-mi and
lttng-iousagetop-mi's disk tables beside `spoor disk` (its requests: `spoor sql`'s
disk_requests). Count, min and max must be equal; mean and standard deviation within 0.0015
ns (spoor's rounding). Allowed, as docs/analyses/ and docs/compatibility.md say:
  - softirqs: lttng-analyses knows only softirq_entry/exit, not LTTng's irq_softirq_*
    (2.7 and later): it sees none in the trace as written; so it reads a copy whose
    metadata renames them (stream files linked);
  - switches spoor infers where the kernel left one out (docs/analyses/sched.md), found
    independently with babeltrace2's Python bindings (an event whose tid context is not
    the task the CPU's last switch put there): lttng-analyses follows sched_switch alone,
    so the tasks on both sides of such a switch have their latencies and system calls
    left out, counted; so are the system calls of tasks
    that the tid context shows before their CPU's first switch (lttng-analyses has no
    task for them);
  - none for the time range: the tools read, by default, only the time every stream
    covers, and every stream of the layout spans the session, as LTTng's do
    (lttng-layout.sh checks the streams' bounds);
  - lttng-syscallstats' return-value counts start at 1 (each one too many);
  - lttng-analyses leaves out block requests of 0 sectors (flushes), which spoor disk
    counts as "other": the disks are compared over the requests with data;
  - what spoor counts and lttng-analyses drops (calls without an exit, exits without an
    entry) is not in either table.
Prints ok/FAIL lines and what was compared; exit 1 on a FAIL.
"""
import json
import os
import re
import subprocess
import sys

SPOOR, KERNEL, WORK = sys.argv[1:4]
NS_TOL = 0.0015  # spoor prints means and deviations to 3 decimals of a ns
failed = 0


def say(ok, what):
    global failed
    failed += not ok
    print(("ok - " if ok else "FAIL - ") + what)


def spoor_json(*args):
    p = subprocess.run([SPOOR, *args], capture_output=True, text=True)
    if p.returncode:
        say(False, "spoor %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr[-300:]))
        return None
    return json.loads(p.stdout)


# options of every lttng-analyses run: no `babeltrace DIR` of its own (its check for lost
# events; lttng-layout.sh runs babeltrace on the trace itself); the time range is the
# tools' default, where all the streams intersect
OPTS = ["--skip-validation"]


def run_mi(tool, *args, trace):
    """An lttng-analyses tool's MI results and its error message (None: it ran). meson sets
    MALLOC_PERTURB_, under which babeltrace 1's Python bindings read nothing: left out of
    its environment."""
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_PERTURB_"}
    p = subprocess.run([tool, *OPTS, *args, trace], capture_output=True, text=True, env=env,
                       timeout=500)
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        doc = {}
    if p.returncode or "results" not in doc:
        return [], doc.get("error-message") or "exit %d: %s" % (p.returncode, p.stderr[-400:])
    return doc["results"], None


def mi(tool, *args, trace=None):
    res, err = run_mi(tool, *args, trace=trace or READABLE)
    say(err is None, "%s %s: %s" % (tool, " ".join(OPTS + list(args)), err or "ran"))
    return res


def copy_of(renames, name):
    """KERNEL with events renamed in a plain-text copy of its metadata, stream files
    linked; the copy's folder is named kernel, as lttng-analyses wants."""
    dst = os.path.join(WORK, name, "kernel")
    os.makedirs(dst)
    meta = subprocess.run(["babeltrace2", "--output-format=ctf-metadata", KERNEL],
                          capture_output=True, text=True, check=True).stdout
    for old, new in renames.items():
        meta = re.sub(r'name = "%s' % old, 'name = "%s' % new, meta)
    with open(os.path.join(dst, "metadata"), "w") as f:
        f.write("/* CTF 1.8 */\n" + meta)
    for n in os.listdir(KERNEL):
        path = os.path.join(KERNEL, n)
        if n != "metadata" and not n.startswith(".") and os.path.isfile(path):
            os.symlink(os.path.abspath(path), os.path.join(dst, n))
    return dst


def readable():
    """The copy lttng-analyses reads, its softirqs renamed (lttng-analyses knows only
    softirq_*), and lttng-irqstats' results on it. The rest of the trace as spoor wrote it:
    sched_process_fork with LTTng's parent_pid and child_pid, which lttng-analyses reads."""
    trace = copy_of({"irq_softirq_": "softirq_"}, "copy")
    res, err = run_mi("lttng-irqstats-mi", "--stats", trace=trace)
    say(err is None, "lttng-analyses reads the trace, its softirqs renamed%s" %
        ("" if err is None else ": %s" % err))
    return (trace, res) if err is None else (None, [])


def value(cell):
    return cell.get("value") if isinstance(cell, dict) else None


def stats_of(row):
    """count, min, mean, max, stdev (None when lttng-analyses has none) of an MI row."""
    return tuple(value(c) for c in row[1:6])


def same(mine, theirs):
    """spoor's (count, min, mean, max, stddev) against lttng-analyses'."""
    if mine is None:
        return False
    c, mn, mean, mx, sd = theirs
    if (mine[0], mine[1], mine[3]) != (c, mn, mx) or abs(mine[2] - mean) > NS_TOL:
        return False
    return sd is None or c < 2 or abs(mine[4] - sd) <= NS_TOL


def spoor_stats(x):
    return (x["count"], x["min_ns"], x["mean_ns"], x["max_ns"], x["stddev_ns"])


def inferred_tasks():
    """The switches spoor infers, found by babeltrace2's reader (bt2): (switches, {tid}).
    An event whose tid context is not the task the CPU's last sched_switch put there shows
    a switch the trace lacks (docs/analyses/sched.md), to a task or to idle (tid 0); the
    task that ran before (unless idle) is the one lttng-analyses still thinks runs. Not
    counted, as spoor sched does not count it: the CPU's first sight of a task, and a switch
    after a loss on that CPU and before its next switch (the loss may have held it). The
    state dump's events name the dumped task, not the running one."""
    import bt2  # python3-bt2, beside babeltrace2
    cur, known, lost, n, tids = {}, {}, set(), 0, set()
    for m in bt2.TraceCollectionMessageIterator(KERNEL):
        if isinstance(m, bt2._DiscardedEventsMessageConst):
            lost.add(m.stream.addr)  # noticed at the stream's next event, as spoor does
            continue
        if not isinstance(m, bt2._EventMessageConst):
            continue
        ev = m.event
        cpu = int(ev.packet.context_field["cpu_id"])
        if ev.stream.addr in lost:
            lost.discard(ev.stream.addr)
            known[cpu] = 2 if known.get(cpu) else 0
        if not ev.name.startswith("lttng_statedump_"):
            tid, prev = int(ev.common_context_field["tid"]), cur.get(cpu, -1)
            if tid >= 0 and tid != prev:
                if prev >= 0:
                    n += known.get(cpu) != 2
                    tids.update(t for t in (tid, prev) if t)
                    known[cpu] = 1
                cur[cpu] = tid
        if ev.name == "sched_switch":
            known[cpu] = 1
            cur[cpu] = int(ev.payload_field["next_tid"])
    return n, tids


def irq_part(results):
    doc = spoor_json("irq", "--all-cpus", "--json", KERNEL) or {"lines": []}
    mine = {(x["kind"], x["irq"] if x["kind"] == "irq" else x["vec"]): spoor_stats(x)
            for x in doc["lines"] if x["count"]}
    hard = {("irq", row[0]["nr"]): stats_of(row)
            for r in results for row in r["data"] if r["class"] == "hard-stats"}
    soft = {("softirq", row[0]["nr"]): stats_of(row)
            for r in results for row in r["data"] if r["class"] == "soft-stats"}
    n_soft = sum(1 for k in mine if k[0] == "softirq")
    say(n_soft > 0, "the trace has softirqs (%d vectors in spoor irq); lttng-irqstats "
        "leaves them unchecked under LTTng's irq_softirq_* names, so they are compared on "
        "the renamed copy" % n_soft)
    for what, theirs, kind in (("hard IRQs", hard, "irq"), ("softirqs", soft, "softirq")):
        bad = [(k, mine.get(k), v) for k, v in sorted(theirs.items())
               if not same(mine.get(k), v)]
        mine_k = {k for k in mine if k[0] == kind}
        say(theirs and not bad and set(theirs) == mine_k,
            "lttng-irqstats = spoor irq --all-cpus: %d %s, %d runs, count/min/mean/max/stdev "
            "%s" % (len(theirs), what, sum(v[0] for v in theirs.values()),
                    "all equal" if not bad else "differ: %s" % bad[:4]))
        for k, v in sorted(theirs.items()):
            print("  %s %d: count %d min %d mean %.3f max %d stdev %s ns" %
                  (k[0], k[1], v[0], v[1], v[2], v[3], "%.3f" % v[4] if v[4] else "-"))
        if set(theirs) != mine_k:
            print("  spoor only: %s; lttng only: %s" % (sorted(mine_k - set(theirs)),
                                                        sorted(set(theirs) - mine_k)))


def sched_part(skip_tids, n_inferred):
    doc = spoor_json("sched", "--json", KERNEL) or {"threads": [], "inferred_switches": -1}
    mine = {t["tid"]: spoor_stats(t["latency"]) for t in doc["threads"]
            if t["latency"]["count"]}
    theirs = {row[0]["tid"]: stats_of(row) for r in mi("lttng-schedstats-mi", "--stats")
              for row in r["data"] if r["class"] == "per_tid_stats"}
    say(doc["inferred_switches"] == n_inferred, "spoor sched inferred %d switches (%d found "
        "by babeltrace2's reader), %d tasks in them" % (doc["inferred_switches"], n_inferred,
                                                len(skip_tids)))
    keep = sorted(set(theirs) - skip_tids)
    bad = [(t, mine.get(t), theirs[t]) for t in keep if not same(mine.get(t), theirs[t])]
    extra = sorted(set(mine) - set(theirs) - skip_tids)
    say(len(keep) > 0 and not bad and not extra,
        "lttng-schedstats = spoor sched: wake-up latencies of %d threads (%d wake-ups): "
        "count/min/mean/max/stdev %s; %d threads of inferred switches left out" %
        (len(keep), sum(theirs[t][0] for t in keep),
         "all equal" if not bad else "differ: %s" % bad[:4], len(set(theirs) & skip_tids)))
    if extra:
        print("  latencies spoor has, lttng-schedstats not: %s" % extra[:10])


def syscalls_part(skip_tids):
    doc = spoor_json("syscalls", "--per-thread", "--json", KERNEL) or {"threads": []}
    mine = {(t["tid"], s["name"]): s for t in doc["threads"] for s in t["syscalls"]
            if s["count"]}
    theirs = {}
    for r in mi("lttng-syscallstats-mi"):
        title = r["class"].get("title", "") if isinstance(r["class"], dict) else ""
        m = re.search(r"TID: (\d+)\)\]$", title)
        if not m:
            continue
        for row in r["data"]:
            # {'success': N, 'ENOENT': M}, each count one too many (cli/syscallstats.py)
            rets = eval(value(row[6]), {})
            errors = sum(v - 1 for k, v in rets.items() if k != "success")
            theirs[(int(m.group(1)), row[0]["name"])] = stats_of(row) + (errors,)
    keep = sorted(k for k in theirs if k[0] not in skip_tids)
    bad = [(k, mine.get(k) and spoor_stats(mine[k]), theirs[k]) for k in keep
           if k not in mine or not same(spoor_stats(mine[k]), theirs[k][:5])
           or mine[k]["errors"] != theirs[k][5]]
    extra = sorted(k for k in mine if k not in theirs and k[0] not in skip_tids)
    say(len(keep) > 0 and not bad and not extra,
        "lttng-syscallstats = spoor syscalls --per-thread: %d (thread, call) rows, %d calls, "
        "%d errors: count/min/mean/max/stdev/errors %s; %d rows left out (threads in "
        "inferred switches or calling before their CPU's first switch)" %
        (len(keep), sum(theirs[k][0] for k in keep), sum(theirs[k][5] for k in keep),
         "all equal" if not bad else "differ: %s" % bad[:3], len(theirs) - len(keep)))
    if extra:
        print("  rows spoor has, lttng-syscallstats not: %s" % extra[:10])


def stats(durs):
    """count, min, mean, max, sample standard deviation of a list of durations."""
    n = len(durs)
    mean = sum(durs) / n
    sd = (sum((d - mean) ** 2 for d in durs) / (n - 1)) ** 0.5 if n > 1 else 0.0
    return (n, min(durs), mean, max(durs), sd)


def disk_part():
    """lttng-iolatencystats and lttng-iousagetop against spoor disk, per disk, over the
    requests both count: lttng-analyses leaves out those of 0 sectors (the block layer's
    flushes), which spoor counts ("other"). spoor's requests are its disk_requests table,
    whose latencies, all of them, are first checked to be spoor disk's figures."""
    doc = spoor_json("disk", "--json", KERNEL) or {"devices": []}
    devs = {d["name"]: d for d in doc["devices"] if d["latency"]["count"]}
    if not devs:
        print("note - no block request with its issue and completion: no disk comparison")
        return
    rows = [(r[0], int(r[1]), int(r[2])) for r in
            sql("SELECT disk, bytes, dur FROM disk_requests WHERE dur IS NOT NULL")]
    every = {n: stats([d for m, _, d in rows if m == n]) for n in devs}
    say(all(same(every[n], spoor_stats(devs[n]["latency"])) for n in devs),
        "spoor disk's latencies are those of its disk_requests table (%s)" %
        ", ".join("%s %d" % (n, every[n][0]) for n in sorted(devs)))
    data = {n: [(b, d) for m, b, d in rows if m == n and b > 0] for n in devs}
    mine = {n: stats([d for _, d in v]) for n, v in data.items() if v}
    zero = sum(1 for _, b, _ in rows if b == 0)
    lat = {row[0]["name"]: stats_of(row) for r in mi("lttng-iolatencystats-mi")
           for row in r["data"] if r["class"] == "disk-latency-stats"}
    bad = [(n, mine.get(n), v) for n, v in sorted(lat.items()) if not same(mine.get(n), v)]
    say(lat and not bad and set(lat) == set(mine),
        "lttng-iolatencystats = spoor disk's requests with data: %d disks, %d requests, "
        "count/min/mean/max/stdev %s; %d requests of 0 sectors left out (lttng-analyses "
        "ignores them)" % (len(lat), sum(v[0] for v in lat.values()),
                           "all equal" if not bad else "differ: %s" % bad[:3], zero))
    for n, v in sorted(lat.items()):
        print("  %s: count %d min %d mean %.3f max %d stdev %s ns" %
              (n, v[0], v[1], v[2], v[3], "%.3f" % v[4] if v[4] else "-"))
    top = {}
    for r in mi("lttng-iousagetop-mi"):
        for row in r["data"]:
            if r["class"] in ("per-disk-top-request", "per-disk-top-sector"):
                top.setdefault(row[0]["name"], {})[r["class"]] = value(row[1])
    want = {n: {"per-disk-top-request": len(v),
                "per-disk-top-sector": sum(b for b, _ in v) // 512} for n, v in data.items() if v}
    say(top == want, "lttng-iousagetop's requests and sectors per disk = spoor disk's "
        "requests with data: %s%s" % (top, "" if top == want else ", spoor %s" % want))


def sql(query):
    """Rows of `spoor sql` on the trace, as lists of text."""
    p = subprocess.run([SPOOR, "sql", "--format=csv", KERNEL, "-c", query],
                       capture_output=True, text=True)
    say(p.returncode == 0, "spoor sql -c \"%s\"%s" % (query, p.stderr[-200:]))
    return [ln.split(",") for ln in p.stdout.splitlines()[1:]]


def early_tasks():
    """Tasks with system calls before their CPU's first sched_switch (the tid context shows
    them; lttng-analyses has no task there)."""
    tids = set()
    for cpu, first in sql("SELECT cpu, min(ts) FROM sched_switch GROUP BY cpu"):
        tids.update(int(r[0]) for r in sql(
            "SELECT DISTINCT tid FROM events WHERE cpu = %s AND ts < %s AND name LIKE "
            "'syscall_%%'" % (cpu, first)))
    return tids


READABLE, irqstats = readable()
if READABLE:
    n_inferred, skip = inferred_tasks()
    early = early_tasks()
    print("note - %d tasks with system calls before their CPU's first switch: %s" %
          (len(early), sorted(early)[:10]))
    irq_part(irqstats)
    sched_part(skip, n_inferred)
    syscalls_part(skip | early)
    disk_part()
sys.exit(1 if failed else 0)
