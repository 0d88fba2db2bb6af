#!/usr/bin/python3
"""bench/script.sh's handler in babeltrace2's Python bindings (python3-bt2): sched_switch
events counted by prev_comm, printed as `COUNT NAME` lines sorted by name."""
import sys
import bt2

counts = {}
for msg in bt2.TraceCollectionMessageIterator(sys.argv[1]):
    if type(msg) is bt2._EventMessageConst and msg.event.name == "sched_switch":
        comm = str(msg.event.payload_field["prev_comm"])
        counts[comm] = counts.get(comm, 0) + 1
for comm in sorted(counts):
    print(counts[comm], comm)
