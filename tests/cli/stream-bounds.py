#!/usr/bin/env python3
"""Whether every stream of a trace spans the session, as LTTng's do: each stream's first
packet begins, and its last packet ends, at the same times (babeltrace 1, lttng-analyses
and babeltrace2's --stream-intersection read only the time every stream spans).

  stream-bounds.py TRACE [--bounds-of OTHER] [--begins-at EVENT]

The packets are read by babeltrace2 (sink.text.details: each packet's beginning and end
clock snapshots). --bounds-of: the bounds must be OTHER's (its earliest packet beginning,
its latest packet end: a converted trace against its input). --begins-at: the streams
begin at the first EVENT's time (a recording's state dump, stamped at the session's
start). Prints each stream's bounds; exit 1 when a check fails.
"""
import re
import subprocess
import sys

LINE = re.compile(r"^\[([0-9,]+) [^]]*\] \{(\d+) (\d+) (\d+)\} (Packet beginning|Packet end|Event `([^`]*)`)")


def read(trace):
    """{(trace, stream class, stream): [first beginning, last end]}, first time of each event."""
    p = subprocess.run(["babeltrace2", "--component=sink.text.details",
                        "--params=with-metadata=false,compact=true", trace],
                       capture_output=True, text=True)
    if p.returncode:
        sys.exit("babeltrace2 %s: exit %d: %s" % (trace, p.returncode, p.stderr[-300:]))
    streams, events = {}, {}
    for line in p.stdout.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        t, key = int(m.group(1).replace(",", "")), m.group(2, 3, 4)
        b = streams.setdefault(key, [None, None])
        if m.group(5) == "Packet beginning" and b[0] is None:
            b[0] = t
        elif m.group(5) == "Packet end":
            b[1] = t
        elif m.group(6):
            events.setdefault(m.group(6), t)
    return streams, events


def main():
    args = sys.argv[1:]
    trace, other, event = args[0], None, None
    for i, a in enumerate(args[1:], 1):
        if a == "--bounds-of":
            other = args[i + 1]
        elif a == "--begins-at":
            event = args[i + 1]
    streams, events = read(trace)
    for key, (b, e) in sorted(streams.items()):
        print("stream %s: first packet begins at %s, last ends at %s" % (" ".join(key), b, e))
    bounds = {tuple(v) for v in streams.values()}
    ok = len(streams) > 0 and len(bounds) == 1
    if not ok:
        print("FAIL: the streams' first beginnings and last ends differ" if streams
              else "FAIL: no packets")
        return 1
    (b, e), = bounds
    if other:
        o = read(other)[0].values()
        want = (min(v[0] for v in o if v[0] is not None), max(v[1] for v in o if v[1] is not None))
        if (b, e) != want:
            print("FAIL: the streams span %d..%d, %s %d..%d" % (b, e, other, *want))
            ok = False
    if event:
        if events.get(event) != b:
            print("FAIL: the streams begin at %d, the first %s is at %s" % (b, event, events.get(event)))
            ok = False
    return 0 if ok else 1


sys.exit(main())
