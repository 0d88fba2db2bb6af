#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""view-names-check.py functions URL NAMES | functions-bt2 URL TRACE | threads URL TRACE

functions: the function names of spoor view's event list (api/events' `function`) for
every event of a call (an entry, an exit, a whole call), against gen-calls.py's NAME.names
({"TID T": name}); functions-bt2: against the names that the objects of TRACE's load map
give its addresses, as babeltrace2 reads the trace and nm reads the objects
(calls-record-tree.py's Symbols).
threads: the thread rows of api/meta (tid, pid, name) and its processes (pid, name) of a
user-space trace, against babeltrace2's lines of TRACE: each vtid's vpid and procname at
its first event (a context's, else the trace's, which babeltrace2 prints as
HOST:PROCNAME:(VPID)), cut to the kernel's 15 characters of a thread's name; a process
named by its thread whose tid is its pid, else by its first.
Prints the differences; exit 1 when there are any."""
import importlib.util
import json
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request

CALLS = ("lttng_ust_cyg_profile:func_entry", "lttng_ust_cyg_profile:func_exit",
         "spoor_calls:call")


def get(url, route, **params):
    with urllib.request.urlopen(url + route + "?" + urllib.parse.urlencode(params)) as r:
        return json.load(r)


def call_events(url):
    """Every event of a call in the trace, through api/events (all in one answer)."""
    meta = get(url, "api/meta")
    out = []
    for name in CALLS:
        ans = get(url, "api/events", t0=0, t1=meta["duration"], limit=10000, name=name)
        if ans["more"]:
            sys.exit("more than 10000 %s events: not a test trace" % name)
        out += ans["events"]
    return out


def symbols(trace):
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("tree", os.path.join(here, "calls-record-tree.py"))
    tree = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tree)
    syms = tree.Symbols()
    out = subprocess.run(["babeltrace2", "--clock-cycles", trace], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        m = tree.LINE.match(line)
        if m and m.group(2).endswith(("statedump:bin_info", "lttng_ust_dl:dlopen")):
            f = tree.fields(m.group(4))
            syms.add(int(f["baddr"], 0), int(f["memsz"]), f["path"].strip('"'))
    return syms


BT2_LINE = re.compile(r"^\[[^\]]*\] \(\S+\) (\S+) \S+: (.*)$")
TRACE_PROC = re.compile(r"^[^:]*:(.*):\((\d+)\)$")


def bt2_threads(trace):
    """{vtid: [vpid, name]} from babeltrace2's lines: each thread's first event's."""
    out = subprocess.run(["babeltrace2", trace], capture_output=True, text=True, check=True).stdout
    threads = {}
    for line in out.splitlines():
        m = BT2_LINE.match(line)
        if not m:
            continue
        ctx = m.group(2)
        vtid = re.search(r"\bvtid = (\d+)", ctx)
        if not vtid:
            continue
        vpid = re.search(r"\bvpid = (\d+)", ctx)
        name = re.search(r'\bprocname = "((?:[^"\\]|\\.)*)"', ctx)
        proc = TRACE_PROC.match(m.group(1))
        tid = int(vtid.group(1))
        pid = int(vpid.group(1)) if vpid else int(proc.group(2)) if proc else tid
        text = name.group(1) if name else proc.group(1) if proc else ""
        threads.setdefault(tid, [pid, text[:15]])
    return threads


def check_threads(url, trace):
    want = bt2_threads(trace)
    meta = get(url, "api/meta")
    got = {r["tid"]: [r["pid"], r["name"]] for r in meta["rows"] if r["kind"] == "thread"}
    want_procs = {}
    for tid in sorted(want, key=lambda t: (want[t][0] != t, t)):
        want_procs.setdefault(want[tid][0], want[tid][1])
    got_procs = {p["pid"]: p["name"] for p in meta["processes"]}
    bad = 0
    for what, w, g in (("thread", want, got), ("process", want_procs, got_procs)):
        for k in sorted(set(w) | set(g)):
            if w.get(k) != g.get(k):
                print("%s %d: want %r, got %r" % (what, k, w.get(k), g.get(k)))
                bad += 1
    print("%d threads in %d processes, %d differences" % (len(want), len(want_procs), bad))
    return 1 if bad or not want else 0


def main(mode, url, arg):
    if mode == "threads":
        return check_threads(url, arg)
    events = call_events(url)
    if mode == "functions":
        want = json.load(open(arg))
        got = {"%d %d" % (e["tid"], e["t"]): e.get("function") for e in events}
    else:
        syms = symbols(arg)
        want, got = {}, {}
        for e in events:
            key = "%d %d %s" % (e["tid"], e["t"], e["name"])
            want[key] = syms.name(int(re.search(r"\baddr=(0x[0-9A-Fa-f]+)", e["text"]).group(1), 16))
            got[key] = e.get("function")
    if len(got) != len(events):  # two events of one thread at one time: one key
        print("%d events of calls, %d keys: some share a thread and time" %
              (len(events), len(got)))
        return 1
    bad = [(k, want.get(k), got.get(k)) for k in sorted(set(want) | set(got))
           if want.get(k) != got.get(k)]
    for k, w, g in bad:
        print("%s: want %r, got %r" % (k, w, g))
    print("%d events of calls, %d named as wanted" % (len(got), len(got) - len(bad)))
    return 1 if bad or not events else 0


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("functions", "functions-bt2", "threads"):
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
