#!/usr/bin/python3
"""bench/watch.sh's handler in babeltrace2's Python bindings (python3-bt2), on an LTTng
live session: ust_emit:ints events counted by their field b, as bench/watch-count.lua
does for `spoor watch`.

    watch-count.py URL [READY_FILE]      (URL: net://HOST/host/HOSTNAME/SESSION)

It creates READY_FILE once attached (at its first message, or the first time the relay
has nothing new), reads until the session is destroyed and read to its end, then prints
"by_b B COUNT" lines, "handled TOTAL", "discarded N" (the sum of the discarded-events
messages' counts: events the tracer lost), "discarded_msgs M" (how many such messages)
and "end_realtime_ns NS" (when it finished), and the first 20 discarded-events messages'
counts on stderr; killed by SIGTERM, the same after a line
"killed 1". When the relay has nothing new, it sleeps 1 ms before asking again."""
import signal
import sys
import time

import bt2

source = bt2.ComponentSpec.from_named_plugin_and_component_class(
    "ctf", "lttng-live", {"inputs": [sys.argv[1]], "session-not-found-action": "end"}
)
it = bt2.TraceCollectionMessageIterator(source)
ready = sys.argv[2] if len(sys.argv) > 2 else None
counts = {}
discarded = 0
discarded_msgs = 0
event_type = bt2._EventMessageConst
discarded_type = bt2._DiscardedEventsMessageConst


class Stop(Exception):
    pass


def on_term(signum, frame):
    raise Stop()


signal.signal(signal.SIGTERM, on_term)  # killed: print what was counted so far
try:
    while True:
        try:
            msg = next(it)
        except bt2.TryAgain:
            if ready:
                open(ready, "w").close()
                ready = None
            time.sleep(0.001)
            continue
        except StopIteration:
            break
        if ready:
            open(ready, "w").close()
            ready = None
        if type(msg) is event_type:
            b = int(msg.event.payload_field["b"])
            counts[b] = counts.get(b, 0) + 1
        elif type(msg) is discarded_type:
            discarded_msgs += 1
            discarded += msg.count or 0
            if discarded_msgs <= 20:
                print("discarded-events message: count", msg.count, file=sys.stderr)
except Stop:
    print("killed", 1)
end = time.time_ns()
for b in sorted(counts):
    print("by_b", b, counts[b])
print("handled", sum(counts.values()))
print("discarded", discarded)
print("discarded_msgs", discarded_msgs)
print("end_realtime_ns", end)
