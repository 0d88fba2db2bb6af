#!/usr/bin/env python3
"""sql-analyses-check.py CHECK SPOOR TRACE [DOC]: SQL's analysis tables (docs/sql.md)
through `spoor sql --format=json` against the analyses' own `--json` on the same trace.

    syscalls   per call: count, total, min, max, errors; per process: count, total
    irq        per CPU and IRQ/vector (and --all-cpus per IRQ): count, total, min, max, name
    sched      per thread: CPU time, latencies (count, min, max), pid, name; per process:
               CPU time; per CPU: idle and busy time; the worst latencies; thread_states'
               CPU and wait time per thread (traces without losses)
    disk       per device: latency count, min, max, p50, p90, p99 (SQL's nearest rank);
               per op: count and bytes (when every completion had its issue)
    questions  docs/sql.md's ten questions: each runs and answers; those an analysis answers
               equal it
Prints what differs; exit 1 then."""
import json
import re
import subprocess
import sys

bad = []


def sql(spoor, trace, query):
    r = subprocess.run([spoor, "sql", "--format=json", trace, "-c", query],
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit("spoor sql failed (%d): %s\n%s" % (r.returncode, r.stderr, query))
    return json.loads(r.stdout)


def analysis(spoor, trace, *args, missing_ok=False):
    """The analysis's --json; None when the trace has none of its events (missing_ok)."""
    r = subprocess.run([spoor, *args, "--json", trace], capture_output=True, text=True)
    if r.returncode and missing_ok and "the trace has none of the events" in r.stderr:
        return None
    if r.returncode:
        raise SystemExit("spoor %s failed: %s" % (" ".join(args), r.stderr))
    return json.loads(r.stdout)


def same(what, got, want):
    if got != want:
        bad.append("%s: sql %r, analysis %r" % (what, got, want))


def by(rows, *keys):
    return {tuple(r[k] for k in keys) if len(keys) > 1 else r[keys[0]]: r for r in rows}


def check_syscalls(spoor, trace):
    j = analysis(spoor, trace, "syscalls")
    rows = by(sql(spoor, trace, "SELECT name, count(*) AS n, sum(dur) AS total, min(dur) AS mn,"
                  " max(dur) AS mx, sum(ret BETWEEN -4095 AND -1) AS errors FROM syscalls"
                  " GROUP BY name"), "name")
    want = {c["name"]: c for c in j["syscalls"] if c["count"]}
    same("call names", sorted(rows), sorted(want))
    for name, c in want.items():
        r = rows.get(name, {})
        same("call " + name, [r.get(k) for k in ("n", "total", "mn", "mx", "errors")],
             [c["count"], c["total_ns"], c["min_ns"], c["max_ns"], c["errors"]])
    same("calls", sum(r["n"] for r in rows.values()), j["calls"])
    rows = by(sql(spoor, trace, "SELECT pid, count(*) AS n, sum(dur) AS total FROM syscalls"
                  " GROUP BY pid"), "pid")
    for p in j["processes"]:
        r = rows.get(p["pid"], {})
        same("process %d" % p["pid"], [r.get("n"), r.get("total")], [p["count"], p["total_ns"]])


def check_irq(spoor, trace):
    for all_cpus in (False, True):
        j = analysis(spoor, trace, "irq", *(["--all-cpus"] if all_cpus else []))
        group = "soft, irq" if all_cpus else "soft, cpu, irq"
        rows = by(sql(spoor, trace, "SELECT soft, %s AS cpu, irq, min(name) AS name, count(*) AS n,"
                      " sum(dur) AS total, min(dur) AS mn, max(dur) AS mx FROM irqs GROUP BY %s"
                      % ("-1" if all_cpus else "cpu", group)), "soft", "cpu", "irq")
        want = [l for l in j["lines"] if l["count"]]
        same("irq lines" + (" (all CPUs)" if all_cpus else ""), len(rows), len(want))
        for l in want:
            key = (int(l["kind"] == "softirq"), l["cpu"] if not all_cpus else -1,
                   l.get("irq", l.get("vec")))
            r = rows.get(key, {})
            same("irq %r" % (key,), [r.get(k) for k in ("n", "total", "mn", "mx", "name")],
                 [l["count"], round(l["total_ns"]), l["min_ns"], l["max_ns"], l["name"] or None])


def check_sched(spoor, trace):
    j = analysis(spoor, trace, "sched")
    lossy = j["lost_events"] > 0
    slices = by(sql(spoor, trace, "SELECT tid, sum(dur) AS cpu, count(wakeup_ts) AS n,"
                    " min(ts - wakeup_ts) AS mn, max(ts - wakeup_ts) AS mx FROM sched_slices"
                    " WHERE tid > 0 GROUP BY tid"), "tid")
    threads = by(sql(spoor, trace, "SELECT tid, pid, comm FROM threads"), "tid")
    states = by(sql(spoor, trace, "SELECT tid, coalesce(sum(dur) FILTER (WHERE state IN"
                    " ('user', 'syscall', 'irq', 'softirq', 'running')), 0) AS cpu,"
                    " coalesce(sum(dur) FILTER (WHERE state = 'wait_cpu'), 0) AS wait"
                    " FROM thread_states GROUP BY tid"), "tid")
    for t in j["threads"]:
        s, lat = slices.get(t["tid"], {}), t["latency"]
        same("thread %d CPU time" % t["tid"], s.get("cpu", 0), t["cpu_ns"])
        if not lossy and lat["count"]:
            same("thread %d latencies" % t["tid"], [s.get(k) for k in ("n", "mn", "mx")],
                 [lat["count"], lat["min_ns"], lat["max_ns"]])
        th = threads.get(t["tid"], {})
        same("thread %d pid, name" % t["tid"], [th.get("pid"), th.get("comm")],
             [t["pid"], t["name"] or None])
        if not lossy and (t["cpu_ns"] or t["wait_ns"]):
            st = states.get(t["tid"], {})
            same("thread %d states" % t["tid"], [st.get("cpu"), st.get("wait")],
                 [t["cpu_ns"], t["wait_ns"]])
    procs = by(sql(spoor, trace, "SELECT pid, sum(dur) AS cpu FROM sched_slices WHERE tid > 0"
                   " GROUP BY pid"), "pid")
    for p in j["processes"]:
        same("process %d CPU time" % p["pid"], procs.get(p["pid"], {}).get("cpu", 0), p["cpu_ns"])
    cpus = by(sql(spoor, trace, "SELECT cpu, coalesce(sum(dur) FILTER (WHERE tid = 0), 0) AS idle,"
                  " coalesce(sum(dur) FILTER (WHERE tid > 0), 0) AS busy FROM sched_slices"
                  " GROUP BY cpu"), "cpu")
    for c in j["cpus"]:
        r = cpus.get(c["cpu"], {"idle": 0, "busy": 0})
        same("cpu %d idle, busy" % c["cpu"], [r["idle"], r["busy"]], [c["idle_ns"], c["busy_ns"]])
    if not lossy:
        worst = sql(spoor, trace, "SELECT ts - wakeup_ts AS lat, wakeup_ts, ts, tid, cpu"
                    " FROM sched_slices WHERE wakeup_ts IS NOT NULL ORDER BY lat DESC, ts"
                    " LIMIT %d" % len(j["worst"]))
        same("worst latencies", [list(w.values()) for w in worst],
             [[w[k] for k in ("latency_ns", "wake_ts", "run_ts", "tid", "cpu")]
              for w in j["worst"]])


PERCENTILES = """WITH r AS (SELECT dev, dur, row_number() OVER (PARTITION BY dev ORDER BY dur) AS k,
    count(*) OVER (PARTITION BY dev) AS n FROM disk_requests)
SELECT (dev >> 20) || ':' || (dev & 1048575) AS dev, n, min(dur) AS mn, max(dur) AS mx,
    max(dur) FILTER (WHERE k <= (n * 50 + 99) / 100) AS p50,
    max(dur) FILTER (WHERE k <= (n * 90 + 99) / 100) AS p90,
    max(dur) FILTER (WHERE k <= (n * 99 + 99) / 100) AS p99 FROM r GROUP BY r.dev"""


def check_disk(spoor, trace):
    j = analysis(spoor, trace, "disk", missing_ok=True)
    if j is None:
        same("requests", sql(spoor, trace, "SELECT count(*) AS n FROM disk_requests"), [{"n": 0}])
        return
    rows = by(sql(spoor, trace, PERCENTILES), "dev")
    ops = by(sql(spoor, trace, "SELECT (dev >> 20) || ':' || (dev & 1048575) AS dev, op,"
                 " count(*) AS n, sum(bytes) AS bytes FROM disk_requests GROUP BY dev, op"),
             "dev", "op")
    same("devices", len(rows), len([d for d in j["devices"] if d["latency"]["count"]]))
    for d in j["devices"]:
        lat, r = d["latency"], rows.get(d["dev"], {})
        if lat["count"]:
            same("device %s latency" % d["dev"], [r.get(k) for k in ("n", "mn", "mx", "p50", "p90",
                                                                     "p99")],
                 [lat[k] for k in ("count", "min_ns", "max_ns", "p50_ns", "p90_ns", "p99_ns")])
        if d["unmatched"]:
            continue
        for op, n, b in (("read", "reads", "read_bytes"), ("write", "writes", "write_bytes"),
                         ("other", "other", "other_bytes")):
            r = ops.get((d["dev"], op), {"n": 0, "bytes": 0})
            same("device %s %s" % (d["dev"], op), [r["n"], r["bytes"]], [d[n], d[b]])


def questions(doc):
    text = open(doc).read()
    text = text[text.index("## Questions and their queries"):]
    return re.findall(r"```sql\n(.*?)```", text, re.S)


def check_questions(spoor, trace, doc):
    qs = questions(doc)
    same("questions", len(qs), 10)
    answers = [sql(spoor, trace, q) for q in qs]
    for i, a in enumerate(answers, 1):
        if not a:
            bad.append("question %d: no rows" % i)
    if len(answers) != 10 or not all(answers):
        return
    sc, sched, disk = (analysis(spoor, trace, a) for a in ("syscalls", "sched", "disk"))
    server = [p for p in sc["processes"] if p["name"] == "server"]
    same("1: the longest call", answers[0][0]["dur"], max(p["max_ns"] for p in server))
    lat = [t["latency"] for t in sched["threads"] if t["latency"]["count"]]
    same("4: wake-ups", [answers[3][0]["wakeups"], answers[3][0]["max_ns"]],
         [sum(l["count"] for l in lat), max(l["max_ns"] for l in lat)])
    c = answers[4]
    same("5: around the openat", any(r["name"] == "syscall_entry_openat" for r in c), True)
    errors = {r["name"]: r["errors"] for r in answers[5]}
    same("6: errors", errors, {c["name"]: c["errors"] for c in sc["syscalls"] if c["errors"]})
    waits = {r["tid"]: r["waiting_ns"] for r in answers[6]}
    same("7: waits", waits, {t["tid"]: t["wait_ns"] for t in sched["threads"] if t["wait_ns"]})
    d = [[r["dev"], r["disk"], r["requests"], r["p50_ns"], r["p90_ns"], r["p99_ns"]]
         for r in answers[8]]
    same("9: disk", d, [[x["dev"], x["name"], x["latency"]["count"], x["latency"]["p50_ns"],
                         x["latency"]["p90_ns"], x["latency"]["p99_ns"]]
                        for x in disk["devices"]])
    irq = analysis(spoor, trace, "irq")
    runs = sum(l["count"] for l in irq["lines"])
    same("3: runs", sum(r["runs"] for r in answers[2]), runs)


def main():
    check, spoor, trace = sys.argv[1:4]
    if check == "questions":
        check_questions(spoor, trace, sys.argv[4])
    else:
        globals()["check_" + check](spoor, trace)
    for b in bad[:20]:
        print("  " + b)
    if len(bad) > 20:
        print("  ... %d more" % (len(bad) - 20))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
