#!/usr/bin/env bash
# spoor convert --layout=lttng places each loss where its input did: every input packet is
# written as one packet, with its bounds, its events_discarded and its place in the
# sequence (convert-packets.py, which also compares babeltrace2's discarded-events
# messages), so babeltrace2's "Tracer discarded N events between [X] and [Y]" warnings and
# spoor stats' loss lines are the input's. On a trace of the project's own in packets as
# the recorder's reads cut them (gen_kernel.py --spoor-reads), and on a lossy recording of
# this machine (root and tracefs).
. "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
need babeltrace2 babeltrace2
PY=/usr/bin/python3

# babeltrace2's warnings of losses and spoor stats' loss lines, the trace's path, its UUID
# and the advice (it counts the stream's bytes, which differ) aside
warnings() { # warnings TRACE
	babeltrace2 "$1" 2>&1 >/dev/null | grep 'Tracer discarded' |
		sed "s|$1|TRACE|g; s/(UUID: [^)]*)//"
}
stats_losses() { # stats_losses TRACE
	"$SPOOR" stats "$1" 2>&1 >/dev/null | grep 'discarded' | sed "s|$1|TRACE|g; s/; about .*//"
}
same_losses() { # same_losses WHAT INPUT CONVERTED
	$PY "$here/convert-packets.py" "$2" "$3" >"$TMP/$1.packets"
	check "$1: each input packet one converted packet: bounds, losses, sequence" \
		test $? -eq 0
	head -5 "$TMP/$1.packets"
	warnings "$2" >"$TMP/$1.in.warn"
	warnings "$3" >"$TMP/$1.out.warn"
	# (babeltrace2 says nothing of a loss in a stream's first packet: a recording whose
	# ring overflowed before its first read may give no warning; spoor stats' lines, below,
	# are never empty)
	if [ "$1" = gen ]; then
		check "$1: babeltrace2 warns of losses ($(wc -l <"$TMP/$1.in.warn") warnings)" \
			test -s "$TMP/$1.in.warn"
	else
		echo "note - $1: babeltrace2 warns of losses $(wc -l <"$TMP/$1.in.warn") times"
	fi
	check "$1: babeltrace2's warnings of losses are the input's" \
		cmp -s "$TMP/$1.in.warn" "$TMP/$1.out.warn"
	diff "$TMP/$1.in.warn" "$TMP/$1.out.warn" | head -4
	stats_losses "$2" >"$TMP/$1.in.stats"
	stats_losses "$3" >"$TMP/$1.out.stats"
	check "$1: spoor stats' loss lines are the input's" \
		test -s "$TMP/$1.in.stats" -a "$(cat "$TMP/$1.in.stats")" = "$(cat "$TMP/$1.out.stats")"
	diff "$TMP/$1.in.stats" "$TMP/$1.out.stats" | head -4
}

# 1. A trace of the project's own: packets of 37 events, losses in a stream's first packet,
# in two packets in a row, in one between packets without, and in an empty last packet
$PY "$SPOOR_TEST_DATA/gen_kernel.py" --spoor-reads "$TMP/gen" >/dev/null || exit 1
"$SPOOR" convert --layout=lttng "$TMP/gen" -o "$TMP/gen.lttng" 2>"$TMP/gen.err"
check "convert: exit 0" test $? -eq 0
check "convert: counts the losses" grep -q "(4 threads in the state dump, 32 events lost when recorded)" "$TMP/gen.err"
same_losses gen "$TMP/gen" "$TMP/gen.lttng"

# 2. A recording of this machine that lost events: a small kernel buffer under a flood of
# system calls (root and tracefs)
T=/sys/kernel/tracing
if [ "$(id -u)" -eq 0 ] && [ -w "$T/instances" ]; then
	"$SPOOR" record -k sched,syscalls --kernel-buffer=16k -o "$TMP/real" -- \
		dd if=/dev/zero of=/dev/null bs=1 count=100000 >/dev/null 2>&1
	check "record -k sched,syscalls --kernel-buffer=16k: exit 0" test $? -eq 0
	"$SPOOR" convert --layout=lttng "$TMP/real" -o "$TMP/real.lttng" 2>/dev/null
	check "a recording: convert exits 0" test $? -eq 0
	same_losses real "$TMP/real/kernel" "$TMP/real.lttng/kernel"
else
	echo "(a recording of this machine: skipped, it needs root and tracefs)"
fi
finish
