#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""view-names-check.py functions URL NAMES | functions-bt2 URL TRACE: the function names of
spoor view's event list (api/events' `function`) for every event of a call (an entry, an
exit, a whole call), against gen-calls.py's NAME.names ({"TID T": name}), or against the
names that the objects of TRACE's load map give its addresses, as babeltrace2 reads the
trace and nm reads the objects (calls-record-tree.py's Symbols). Prints the differences;
exit 1 when there are any."""
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


def main(mode, url, arg):
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
    bad = [(k, want.get(k), got.get(k)) for k in sorted(set(want) | set(got))
           if want.get(k) != got.get(k)]
    for k, w, g in bad:
        print("%s: want %r, got %r" % (k, w, g))
    print("%d events of calls, %d named as wanted" % (len(got), len(got) - len(bad)))
    return 1 if bad or not events else 0


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("functions", "functions-bt2"):
        sys.exit(__doc__)
    sys.exit(main(*sys.argv[1:]))
