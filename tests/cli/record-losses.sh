#!/usr/bin/env bash
# Lost events, accounted for exactly: recorded + overwritten + discarded = emitted, as spoor
# record, spoor stats and babeltrace2 see them, with several threads and a signal handler
# that emits (and is sometimes dropped, when it interrupts an emit). Readers warn once per
# stream that lost events and exit 0.
. "$(dirname "$0")/lib.sh"
: "${HELLO:?}" "${EXIT_SIGNAL:?}"
need babeltrace2 babeltrace2
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

# hello N T signal emits 3 events per round and thread, 2 spoor:printf, and prints how many
# its handler emitted. A 64 KiB flight recorder per thread keeps a small part of them.
N=100000 T=3
"$SPOOR" record --overwrite -b 64k -o "$TMP/ow" -- "$HELLO" $N $T signal >"$TMP/ow.out" 2>"$TMP/ow.err"
check "overwrite: record exits 0" test $? -eq 0
h=$(awk '/handler emits/ {print $3}' "$TMP/ow.out")
emitted=$((3 * N * T + 2 + h))
# the timer counts the process's CPU time, which the rounds take whatever the load
check "overwrite: the signal handler emitted ($h)" test "$h" -gt 0
"$SPOOR" stats --json "$TMP/ow" >"$TMP/ow.json" 2>"$TMP/ow.stats.err"
check "overwrite: stats exits 0 (losses are not damage)" test $? -eq 0
rec=$(json 'd["events"]' <"$TMP/ow.json")
ow=$(json 'd["overwritten"]' <"$TMP/ow.json")
disc=$(json 'd["discarded"]' <"$TMP/ow.json")
lostp=$(json 'd["packets_lost"]' <"$TMP/ow.json")
check "overwrite: stats: recorded $rec + overwritten $ow + discarded $disc = emitted $emitted" \
	test $((rec + ow + disc)) -eq $emitted
check "overwrite: most events were overwritten ($ow)" test "$ow" -gt $((emitted / 2))
check "overwrite: per stream, the same sums" \
	test "$(json 'sum(s["events"] + s["overwritten"] + s["discarded"] for s in d["streams"])' <"$TMP/ow.json")" -eq $emitted
check "overwrite: record's summary has the same counts" \
	grep -q " $disc events discarded, $ow overwritten" "$TMP/ow.err"
check "overwrite: record advises a buffer" grep -q 'would have kept them' "$TMP/ow.err"
check "overwrite: stats warns once per stream" \
	test "$(grep -c 'warning: .*stream_.*events lost' "$TMP/ow.stats.err")" -eq $T
check "overwrite: the warning advises a buffer" grep -q 'would have kept them' "$TMP/ow.stats.err"

# babeltrace2: the events it prints plus those its warnings say were discarded
babeltrace2 "$TMP/ow" >"$TMP/ow.bt2" 2>"$TMP/ow.bt2err"
check "overwrite: babeltrace2 reads it" test $? -eq 0
bt_events=$(wc -l <"$TMP/ow.bt2")
bt_lost=$(grep -o 'discarded [0-9]* events\?' "$TMP/ow.bt2err" | awk '{s += $2} END {print s + 0}')
bt_packets=$(grep -o 'discarded [0-9]* packets\?' "$TMP/ow.bt2err" | awk '{s += $2} END {print s + 0}')
check "overwrite: babeltrace2: printed $bt_events + discarded $bt_lost = emitted $emitted" \
	test $((bt_events + bt_lost)) -eq $emitted
check "overwrite: babeltrace2 counts the lost packets too ($bt_packets, stats $lostp)" \
	test "$bt_packets" -eq "$lostp" -a "$lostp" -gt 0
check "overwrite: babeltrace2 gives every count (no 'unknown')" \
	bash -c "! grep -qi unknown '$TMP/ow.bt2err'"

# The other readers: one warning per stream, exit 0
"$SPOOR" dump "$TMP/ow" >/dev/null 2>"$TMP/ow.dump.err"
check "overwrite: dump exits 0" test $? -eq 0
check "overwrite: dump warns once per stream" \
	test "$(grep -c 'spoor dump: warning: .*events lost' "$TMP/ow.dump.err")" -eq $T

# A flight recorder stopped while the program runs (--duration): the final drain meets
# packets being overwritten, which is no damage (test-drain has it exactly); record's
# summary, stats and babeltrace2 give the same counts.
"$SPOOR" record --overwrite -b 64k --subbuffers 16 --duration 300ms -o "$TMP/run" -- \
	"$HELLO" 100000000 $T >/dev/null 2>"$TMP/run.err"
check "running: record exits 0" test $? -eq 0
check "running: no damage reported" bash -c "! grep -q 'not where\|damaged' '$TMP/run.err'"
"$SPOOR" stats --json "$TMP/run" >"$TMP/run.json" 2>/dev/null
check "running: stats exits 0" test $? -eq 0
ow=$(json 'd["overwritten"]' <"$TMP/run.json")
disc=$(json 'd["discarded"]' <"$TMP/run.json")
check "running: events were overwritten ($ow)" test "$ow" -gt 0
check "running: record's summary has stats' counts" \
	grep -q " $disc events discarded, $ow overwritten" "$TMP/run.err"
babeltrace2 "$TMP/run" >/dev/null 2>"$TMP/run.bt2err"
bt_lost=$(grep -o 'discarded [0-9]* events\?' "$TMP/run.bt2err" | awk '{s += $2} END {print s + 0}')
check "running: babeltrace2 counts the same losses ($bt_lost)" test "$bt_lost" -eq $((ow + disc))

# Discard mode, a ring far too small for the rate (4 sub-buffers of 4 KiB for 3 threads
# writing about 27 MB): the same sums
"$SPOOR" record -b 16k -o "$TMP/dc" -- "$HELLO" $N $T signal >"$TMP/dc.out" 2>"$TMP/dc.err"
h=$(awk '/handler emits/ {print $3}' "$TMP/dc.out")
emitted=$((3 * N * T + 2 + h))
"$SPOOR" stats --json "$TMP/dc" >"$TMP/dc.json" 2>/dev/null
rec=$(json 'd["events"]' <"$TMP/dc.json")
disc=$(json 'd["discarded"]' <"$TMP/dc.json")
check "discard: recorded $rec + discarded $disc = emitted $emitted, nothing overwritten" \
	test $((rec + disc)) -eq $emitted -a "$(json 'd["overwritten"]' <"$TMP/dc.json")" -eq 0
babeltrace2 "$TMP/dc" >"$TMP/dc.bt2" 2>"$TMP/dc.bt2err"
bt_lost=$(grep -o 'discarded [0-9]* events\?' "$TMP/dc.bt2err" | awk '{s += $2} END {print s + 0}')
check "discard: babeltrace2: printed + discarded $bt_lost = emitted $emitted" \
	test $(($(wc -l <"$TMP/dc.bt2") + bt_lost)) -eq $emitted
check "discard: events were discarded ($disc)" test "$disc" -gt 0
check "discard: record's summary has stats' count" grep -q " $disc events discarded" "$TMP/dc.err"
check "discard: record advises a buffer" grep -q 'would have kept them' "$TMP/dc.err"

# A signal handler that emits as its thread ends, after the tracer let go of the thread's
# ring (exit-signal: a thread key's destructor sends the process the signal, in 4 rounds):
# the ending thread keeps its signals out, so the main thread takes them and records the
# handler's events (before: the thread took them, and their events were neither recorded
# nor counted).
"$SPOOR" record -o "$TMP/ex" -- "$EXIT_SIGNAL" 4 >"$TMP/ex.out" 2>"$TMP/ex.err"
check "exit-signal: record exits 0" test $? -eq 0
h=$(awk '/handler emits/ {print $3}' "$TMP/ex.out")
check "exit-signal: the handler ran in every round ($h)" test "$h" = 4
"$SPOOR" stats --json "$TMP/ex" >"$TMP/ex.json" 2>/dev/null
rec=$(json 'd["events"]' <"$TMP/ex.json")
disc=$(json 'd["discarded"]' <"$TMP/ex.json")
check "exit-signal: recorded $rec + discarded $disc = emitted $((1 + 4 + h))" \
	test $((rec + disc)) -eq $((1 + 4 + h))
finish
