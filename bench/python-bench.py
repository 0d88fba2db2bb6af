#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""One timed run for bench/python.sh, in a process of its own (for its max RSS):

    python-bench.py spoor-iter|bt2-iter TRACE
    python-bench.py spoor-columns|bt2-columns TRACE CLASS COLUMN...

iter: every event's name counted (collections.Counter), through `import spoor` or
babeltrace2's Python bindings (python3-bt2); columns: the class's events' ts (ns from the
clock origin) and payload fields as NumPy int64/uint64 arrays, spoor's t.columns() or a
babeltrace2 loop that appends to lists, then numpy.array. Prints one JSON line: CPU and
wall seconds, rows, values, a digest of the result (the same from both), VmHWM and RssAnon
(kB) at the end. Seconds: wall and CPU (user + system) of
the work alone, not the interpreter's start."""
import collections
import json
import sys
import time


def status_kb(key):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def spoor_iter(trace):
    import spoor
    t = spoor.open(trace)
    return collections.Counter(ev.name for ev in t.events())


def bt2_messages(trace):
    import bt2
    for m in bt2.TraceCollectionMessageIterator(trace):
        if type(m) is bt2._EventMessageConst:
            yield m


def bt2_iter(trace):
    return collections.Counter(m.event.name for m in bt2_messages(trace))


def spoor_columns(trace, cls, cols):
    import spoor
    return spoor.open(trace).columns(cls, cols)


def bt2_columns(trace, cls, cols):
    import numpy
    import bt2
    lists = {c: [] for c in cols}
    fields = [c for c in cols if c != "ts"]
    types = dict.fromkeys(cols, numpy.int64)
    for m in bt2_messages(trace):
        ev = m.event
        if ev.name != cls:
            continue
        if "ts" in lists:
            lists["ts"].append(m.default_clock_snapshot.ns_from_origin)
        payload = ev.payload_field
        for c in fields:
            f = payload[c]
            lists[c].append(int(f))
            # as spoor types it: unsigned 64-bit fields uint64
            if (isinstance(f, bt2._UnsignedIntegerFieldConst) and
                    f.cls.field_value_range == 64):
                types[c] = numpy.uint64
    return {c: numpy.array(lists[c], dtype=types[c]) for c in cols}


def main():
    mode, trace = sys.argv[1], sys.argv[2]
    if mode.endswith("columns"):
        import numpy  # noqa: F401 (loaded before the clock starts, for both)
    if mode == "bt2-iter" or mode == "bt2-columns":
        import bt2  # noqa: F401
    else:
        import spoor  # noqa: F401
    start, cpu_start = time.perf_counter(), time.process_time()
    if mode == "spoor-iter":
        result = spoor_iter(trace)
    elif mode == "bt2-iter":
        result = bt2_iter(trace)
    elif mode == "spoor-columns":
        result = spoor_columns(trace, sys.argv[3], sys.argv[4:])
    elif mode == "bt2-columns":
        result = bt2_columns(trace, sys.argv[3], sys.argv[4:])
    else:
        sys.exit("unknown mode " + mode)
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    if mode.endswith("iter"):
        rows = values = sum(result.values())
        digest = sorted(result.items())
    else:
        rows = len(next(iter(result.values())))
        values = rows * len(result)
        digest = [(c, str(a.dtype), int(a.astype("uint64").sum(dtype="uint64")))
                  for c, a in result.items()]
    print(json.dumps({"cpu_seconds": cpu_seconds, "seconds": seconds, "rows": rows,
                      "values": values, "digest": digest, "vmhwm_kb": status_kb("VmHWM"),
                      "rss_anon_kb": status_kb("RssAnon")}))


if __name__ == "__main__":
    main()
