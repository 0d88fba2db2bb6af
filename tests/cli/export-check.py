#!/usr/bin/env python3
"""Checks a `spoor export --format=chrome` file (tests/cli/export.sh).

    export-check.py sums EXPORT.json SCHED.json [BEGIN END]
        The file parses; every event has its members, every X event a dur >= 0; per thread,
        the thread-state durations add up to what `spoor sched --json` says on the same
        trace and range: user+syscall+irq+softirq+running = cpu_ns, wait_cpu = wait_ns,
        blocked = blocked_ns (but for a thread run again without a wake-up in the trace,
        whose blocked time sched leaves out: states.h). With BEGIN END (ns since the
        epoch): nothing lies outside them.
    export-check.py instants EXPORT.json DUMP.txt
        One instant per line of `spoor dump` (same order), named as the event, whose args
        hold the payload's integers and strings as dump prints them.
    export-check.py calls EXPORT.json FLAME
        The function calls of gen-calls.py's FLAME ([tid, depth, begin, end, name, flags],
        ns from the first event), exactly: one X event each of cat "call" on the thread's
        calls row (tid + CALLS below), named by its function, at its time and duration
        (µs), its flags in args; nested on that row as deep as the call is; in the
        process of the thread's other events.
    export-check.py names FILE.json NAME...
        FILE parses (strictly: UTF-8) and each NAME (Python escapes) is a string in it:
        an event's name, a thread's, a field's value (an export, or any --json output).
Prints what differs; exits 1 if anything does."""
import json
import re
import sys
from collections import defaultdict

PSEUDO = 0x3FFFFFFF  # pids at or above: CPUs, event rates (lib/timeline/chrome.h)
CALLS = 0x20000000   # a thread's calls row: tid + CALLS
ON_CPU = {"user", "syscall", "irq", "softirq", "running"}
bad = []


def load(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"))  # strict: the file must be UTF-8


def check_members(events):
    for e in events:
        if not isinstance(e.get("ph"), str) or not isinstance(e.get("pid"), int) or \
                not isinstance(e.get("tid"), int) or not isinstance(e.get("ts"), (int, float)):
            bad.append("event without ph/pid/tid/ts: %r" % e)
        elif e["ph"] == "X" and not (isinstance(e.get("dur"), (int, float)) and e["dur"] >= 0):
            bad.append("X event without a dur >= 0: %r" % e)
        elif e["ph"] in "XiC" and not isinstance(e.get("name"), str):
            bad.append("event without a name: %r" % e)


def ns(us):
    return round(us * 1000)


def sums(export, sched, begin=None, end=None):
    d, s = load(export), load(sched)
    events = d["traceEvents"]
    check_members(events)
    origin = int(d["otherData"]["origin_ns"])
    rows = defaultdict(list)
    for e in events:
        if e["ph"] == "X" and e["pid"] < PSEUDO and e.get("cat") == "state":
            rows[e["tid"]].append(e)
        if begin is not None and e["ph"] in "XiC":
            t0, t1 = origin + ns(e["ts"]), origin + ns(e["ts"] + e.get("dur", 0))
            if t0 < begin or t1 > end:
                bad.append("outside the range: %r" % e)
    got = {}
    for tid, spans in rows.items():
        spans.sort(key=lambda e: e["ts"])
        cpu = wait = blocked = 0
        for i, e in enumerate(spans):
            st, dur = e["args"]["state"], ns(e["dur"])
            cpu += dur if st in ON_CPU else 0
            wait += dur if st == "wait_cpu" else 0
            run_next = i + 1 < len(spans) and spans[i + 1]["args"]["state"] in ON_CPU
            blocked += dur if st == "blocked" and not run_next else 0
        got[tid] = [cpu, wait, blocked]
    threads = s["threads"]
    for t in threads:
        want = [t["cpu_ns"], t["wait_ns"], t["blocked_ns"]]
        if got.get(t["tid"], [0, 0, 0]) != want:
            bad.append("thread %d (%s): export cpu, wait, blocked %r, sched %r" %
                       (t["tid"], t["name"], got.get(t["tid"]), want))
    if not threads or not rows:
        bad.append("no threads to compare")
    return "%d threads, %d spans" % (len(threads), sum(len(r) for r in rows.values()))


# `name=value` of a dump line: a quoted string, a bracketed array, or a word
FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\[[^\]]*\]|[^ ]+)')


def unquote(text):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)),
                  text[1:-1])


def instants(export, dump):
    d = load(export)
    check_members(d["traceEvents"])
    got = [e for e in d["traceEvents"] if e["ph"] == "i" and e.get("cat") == "event"]
    with open(dump, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if len(got) != len(lines) or not lines:
        bad.append("%d instants for %d events" % (len(got), len(lines)))
    fields = 0
    for e, line in zip(got, lines):
        name = re.match(r"\S+ (?:cpu\d+ )?(.*?): ", line + ": ").group(1)
        if e["name"] != name or e.get("s") != "t":
            bad.append("instant %r for %r" % (e, line))
            continue
        for key, value in FIELD.findall(line):
            if key in ("vpid", "vtid", "procname"):  # context, not payload
                continue
            arg = e["args"].get(key)
            if value.startswith('"'):
                ok = arg == unquote(value)
            elif re.fullmatch(r"-?\d+", value) and not isinstance(arg, float):
                ok = arg == int(value) or isinstance(arg, str)  # an enum's label
            elif re.fullmatch(r"-?[\d.]+(e[-+]?\d+)?", value):  # dump prints 6 digits
                ok = isinstance(arg, (int, float)) and abs(arg - float(value)) <= \
                    5e-6 * abs(arg)
            else:
                continue
            fields += 1
            if not ok:
                bad.append("%s: %s=%s, export %r" % (name, key, value, arg))
    return "%d instants, %d fields compared" % (len(got), fields)


def strings(v):
    if isinstance(v, str):
        yield v
    elif isinstance(v, (list, dict)):
        for x in v.values() if isinstance(v, dict) else v:
            yield from strings(x)


def names(export, *wanted):
    d = load(export)
    if "traceEvents" in d:
        check_members(d["traceEvents"])
    seen = set(strings(d))  # event names, thread names, string fields
    for w in wanted:
        w = w.encode("latin-1").decode("unicode_escape")
        if w not in seen:
            bad.append("no event or thread named %r" % w)
    return "%d names found" % len(wanted)


def calls(export, flame):
    d = load(export)
    check_members(d["traceEvents"])
    got = [[e["tid"] - CALLS, ns(e["ts"]), ns(e["ts"] + e["dur"]), e["name"],
            e.get("args", {}).get("flags", 0)]
           for e in d["traceEvents"] if e["ph"] == "X" and e.get("cat") == "call"]
    for tid, b, e, name, flags in got:  # its depth: the calls of its row around it
        depth = sum(1 for o in got if o[0] == tid and o[1] <= b and o[2] >= e and
                    (o[1], -o[2]) < (b, -e))
        got_call = [tid, depth, b, e, name, flags]
        if got_call not in want_calls(flame):
            bad.append("a call not in %s: %r" % (flame, got_call))
    pids = {e["tid"]: e["pid"] for e in d["traceEvents"] if e.get("cat") in ("event", "state")}
    for e in d["traceEvents"]:
        if e.get("cat") == "call" and pids.get(e["tid"] - CALLS, e["pid"]) != e["pid"]:
            bad.append("a call not in its thread's process (%d): %r" % (pids[e["tid"] - CALLS], e))
    for w in want_calls(flame):
        if not any(g[0] == w[0] and g[1:] == w[2:] for g in got):
            bad.append("a call missing: %r" % w)
    return "%d calls" % len(got)


def want_calls(flame, memo={}):
    if flame not in memo:
        memo[flame] = json.load(open(flame))
    return memo[flame]


def main():
    what, args = sys.argv[1], sys.argv[2:]
    if what == "sums":
        said = sums(args[0], args[1], *(int(a) for a in args[2:4]))
    else:
        said = {"instants": instants, "names": names, "calls": calls}[what](*args)
    for b in bad[:20]:
        print(b)
    print(said + (", %d problems" % len(bad) if bad else ", as expected"))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
