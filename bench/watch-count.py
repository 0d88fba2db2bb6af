#!/usr/bin/python3
"""bench/watch.sh's handler in babeltrace2's Python bindings (python3-bt2), on an LTTng
live session: ust_emit:ints events counted by their field b, as bench/watch-count.lua
does for `spoor watch`.

    watch-count.py URL      (net://HOST:PORT/host/HOSTNAME/SESSION)

It reads until the session is destroyed and read to its end, then prints "by_b B COUNT"
lines, "handled TOTAL", "discarded N" (the discarded-events messages' counts: events the
tracer lost) and "end_realtime_ns NS" (the moment it finished). When the relay has
nothing new, it sleeps 1 ms before asking again."""
import sys
import time

import bt2

source = bt2.ComponentSpec.from_named_plugin_and_component_class(
    "ctf", "lttng-live", {"inputs": [sys.argv[1]], "session-not-found-action": "end"}
)
it = bt2.TraceCollectionMessageIterator(source)
counts = {}
discarded = 0
event_type = bt2._EventMessageConst
discarded_type = bt2._DiscardedEventsMessageConst
while True:
    try:
        msg = next(it)
    except bt2.TryAgain:
        time.sleep(0.001)
        continue
    except StopIteration:
        break
    if type(msg) is event_type:
        b = int(msg.event.payload_field["b"])
        counts[b] = counts.get(b, 0) + 1
    elif type(msg) is discarded_type:
        discarded += msg.count or 0
end = time.time_ns()
for b in sorted(counts):
    print("by_b", b, counts[b])
print("handled", sum(counts.values()))
print("discarded", discarded)
print("end_realtime_ns", end)
