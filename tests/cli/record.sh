#!/usr/bin/env bash
# spoor record end to end: programs instrumented with SPOOR_EVENT, traced through shared-
# memory ring buffers, read back by spoor and by babeltrace2.
. "$(dirname "$0")/lib.sh"
: "${HELLO:?}" "${DL_LOADER:?}" "${DL_PROVIDER:?}" "${SCRIBBLER:?}"
here=$(dirname "$0")
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

# Buffers large enough that nothing can be lost, however slow the consumer is scheduled.
BIG="-b 16m"

# 1. one thread: every event, with its values, also through babeltrace2
"$SPOOR" record -o "$TMP/one" $BIG -- "$HELLO" 50 1 2>"$TMP/one.err"
check "one thread: record exits 0" test $? -eq 0
check "one thread: a trace per process under ust/pid/" test -f "$(echo "$TMP"/one/ust/pid/hello-*/metadata)"
"$SPOOR" dump "$TMP/one" >"$TMP/one.txt"
check "one thread: 50 rounds of 3 events and 2 printf" test "$(wc -l <"$TMP/one.txt")" -eq 152
check "one thread: request values" grep -q 'hello:request: fd=3 path="/srv/0/49" len=0x31000$' "$TMP/one.txt"
check "one thread: sequence and enum values" \
	grep -q 'hello:sample: worker=0 load=12.25 first=\[ \[0\] = 392, \[1\] = 393 \] _hist_length=4 hist=\[ \[0\] = 392, \[1\] = 393, \[2\] = 394, \[3\] = 395 \] tag="abcd" _label_length=4 label="abcd" state=( "BUSY" : container = 1 )$' "$TMP/one.txt"
check "one thread: spoor_printf message" grep -q 'spoor:printf: msg="hello starts: 50 iterations, 1 threads"' "$TMP/one.txt"
# timestamps never go backwards within the thread
check "one thread: timestamps increase" \
	bash -c "cut -d' ' -f1 '$TMP/one.txt' | sort -c -n"
babeltrace2 --clock-gmt "$TMP/one" >"$TMP/one.bt2" 2>"$TMP/one.bt2err"
check "one thread: babeltrace2 reads it" test $? -eq 0 -a -s "$TMP/one.bt2"
"$SPOOR" dump --format=babeltrace "$TMP/one" >"$TMP/one.sp"
check "one thread: same events and values in babeltrace2" cmp -s "$TMP/one.sp" "$TMP/one.bt2"

# 2. many threads
"$SPOOR" record -o "$TMP/many" $BIG -- "$HELLO" 400 8 2>/dev/null
"$SPOOR" stats --json "$TMP/many" >"$TMP/many.json"
check "8 threads: every event (8 x 400 x 3 + 2)" test "$(json 'd["events"]' <"$TMP/many.json")" -eq 9602
check "8 threads: one stream per thread" test "$(ls "$TMP"/many/ust/pid/hello-*/ | grep -c '^stream_')" -eq 8
for id in 0 7; do
	n=$("$SPOOR" dump -e 'hello:request' "$TMP/many" | grep -c "fd=$((3 + id)) path=\"/srv/$id/")
	check "8 threads: thread $id emitted its 400 requests" test "$n" -eq 400
done
babeltrace2 --clock-gmt "$TMP/many" >"$TMP/many.bt2" 2>/dev/null
"$SPOOR" dump --format=babeltrace "$TMP/many" >"$TMP/many.sp"
check "8 threads: same output as babeltrace2" cmp -s "$TMP/many.sp" "$TMP/many.bt2"

# 3. fork and exec: children are traced, each process in its own trace
"$SPOOR" record -o "$TMP/fork" $BIG -- "$HELLO" 20 1 fork 2>/dev/null
"$SPOOR" dump "$TMP/fork" >"$TMP/fork.txt"
check "fork: the child's events are there" test "$(grep -c 'fd=103 path="/srv/100/' "$TMP/fork.txt")" -eq 20
check "fork: the parent's too" test "$(grep -c 'fd=3 path="/srv/0/' "$TMP/fork.txt")" -eq 20
check "fork: two processes, two traces" test "$(ls "$TMP/fork/ust/pid" | wc -l)" -eq 2
"$SPOOR" record -o "$TMP/exec" $BIG -- "$HELLO" 10 1 exec 2>/dev/null
"$SPOOR" dump "$TMP/exec" >"$TMP/exec.txt"
check "exec: the exec'd program's events are there" grep -q 'msg="hello starts: 3 iterations, 1 threads"' "$TMP/exec.txt"
check "exec: all events (32 + 11)" test "$(wc -l <"$TMP/exec.txt")" -eq 43
check "exec: babeltrace2 reads every trace" bash -c "babeltrace2 '$TMP/exec' >/dev/null 2>&1"

# 4. a provider in a dlopen'd library, loaded twice
"$SPOOR" record -o "$TMP/dl" $BIG -- "$DL_LOADER" "$DL_PROVIDER" 2>/dev/null
"$SPOOR" dump "$TMP/dl" >"$TMP/dl.txt"
check "dlopen: events of both loads" test "$(grep -c 'plugin:loaded: .*name="dl-provider"' "$TMP/dl.txt")" -eq 4
check "dlopen: generation 2 after dlclose" grep -q 'generation=2' "$TMP/dl.txt"
check "dlopen: babeltrace2 reads it" bash -c "babeltrace2 '$TMP/dl' >/dev/null 2>&1"

# 5. lost events in discard mode: emitted = recorded + discarded, exactly
"$SPOOR" record -o "$TMP/lost" -b 16k -- "$HELLO" 20000 2 2>/dev/null
"$SPOOR" stats --json "$TMP/lost" >"$TMP/lost.json"
rec=$(json 'd["events"]' <"$TMP/lost.json")
disc=$(json 'd["discarded"]' <"$TMP/lost.json")
check "discard: recorded $rec + discarded $disc = emitted 120002" test $((rec + disc)) -eq 120002
check "discard: the small buffer did overflow" test "$disc" -gt 0
warn=$(babeltrace2 "$TMP/lost" 2>&1 >/dev/null | grep -o 'discarded [0-9]* event' | awk '{s += $2} END {print s + 0}')
check "discard: babeltrace2 sees the same losses ($warn)" test "$warn" -eq "$disc"

# 6. overwrite mode: the flight recorder keeps the latest events
"$SPOOR" record -o "$TMP/ow" --overwrite -b 16k -- "$HELLO" 20000 1 2>/dev/null
"$SPOOR" dump "$TMP/ow" >"$TMP/ow.txt"
check "overwrite: the last events are kept" grep -q 'msg="hello done"' "$TMP/ow.txt"
check "overwrite: the last request is kept" grep -q 'path="/srv/0/19999"' "$TMP/ow.txt"
check "overwrite: the oldest were overwritten" bash -c "! grep -q 'path=\"/srv/0/0\"' '$TMP/ow.txt'"
check "overwrite: babeltrace2 reads it" bash -c "babeltrace2 '$TMP/ow' >/dev/null 2>&1"

# 7. the traced program killed (SIGKILL) mid-packet: all it committed is there
"$SPOOR" record -o "$TMP/kill" $BIG -- "$HELLO" 100 1 kill 2>"$TMP/kill.err"
check "killed program: record says so" grep -q 'killed by signal 9' "$TMP/kill.err"
check "killed program: every committed event (302)" test "$("$SPOOR" dump "$TMP/kill" | wc -l)" -eq 302
check "killed program: babeltrace2 reads the trace" bash -c "babeltrace2 '$TMP/kill' >/dev/null 2>&1"

# 8. the consumer killed: the program runs on unharmed
child_of() { # the pid whose parent is $1, from /proc (bash only: fast, no procps)
	local f line rest
	for f in /proc/[0-9]*/stat; do
		read -r line <"$f" 2>/dev/null || continue
		rest=${line##*) } # after the command name, which may hold spaces
		set -- $rest
		[ "$2" = "$rpid" ] && { f=${f#/proc/}; echo "${f%/stat}"; return; }
	done
}
"$SPOOR" record -o "$TMP/ck" -b 16k -- "$HELLO" 3000 1 slow >/dev/null 2>&1 &
rpid=$!
hpid=""
for _ in $(seq 100); do
	hpid=$(child_of)
	[ -n "$hpid" ] && break
	sleep 0.05
done
sleep 0.2
kill -9 "$rpid"
if [ -n "$hpid" ]; then
	for _ in $(seq 200); do kill -0 "$hpid" 2>/dev/null || break; sleep 0.1; done
	check "consumer killed: the program finished on its own" bash -c "! kill -0 $hpid 2>/dev/null"
else
	fail "consumer killed: the traced program was not found"
fi

# 9. a program scribbling over its own buffer: reported, not fatal
"$SPOOR" record -o "$TMP/scr" -- "$SCRIBBLER" 2>"$TMP/scr.err"
r=$?
check "scribbler: record exits 0" test "$r" -eq 0
check "scribbler: the damage is reported" grep -q 'warning: .*stream_' "$TMP/scr.err"
"$SPOOR" dump "$TMP/scr" >/dev/null 2>&1
check "scribbler: the trace does not crash the reader" test $? -lt 128

# 10. -e: only matching events are enabled
"$SPOOR" record -o "$TMP/e" $BIG -e 'hello:tick' -- "$HELLO" 10 1 2>/dev/null
check "-e: only hello:tick" test "$("$SPOOR" dump "$TMP/e" | grep -c -v 'hello:tick:')" -eq 0 -a "$("$SPOOR" dump "$TMP/e" | wc -l)" -eq 10

# 11. tracing off and on from the code (the middle third of 300 rounds is not recorded)
"$SPOOR" record -o "$TMP/pause" $BIG -- "$HELLO" 300 1 pause >/dev/null 2>&1
check "tracing_off/on: 200 of 300 rounds recorded" \
	test "$("$SPOOR" dump -e hello:tick "$TMP/pause" | wc -l)" -eq 200
check "tracing_off/on: the paused rounds are missing" \
	bash -c "! '$SPOOR' dump '$TMP/pause' | grep -q 'path=\"/srv/0/150\"'"

# 12. emitting from a signal handler, interrupting emits: nothing corrupt, nothing unaccounted
"$SPOOR" record -o "$TMP/sig" $BIG -- "$HELLO" 200000 1 signal >"$TMP/sig.out" 2>/dev/null
h=$(awk '/handler emits/ {print $3}' "$TMP/sig.out")
"$SPOOR" stats --json "$TMP/sig" >"$TMP/sig.json"
rec=$(json 'd["events"]' <"$TMP/sig.json")
disc=$(json 'd["discarded"]' <"$TMP/sig.json")
check "signal handler: recorded $rec + discarded $disc = emitted $((600002 + h))" test $((rec + disc)) -eq $((600002 + h))
check "signal handler: babeltrace2 reads the trace" bash -c "babeltrace2 '$TMP/sig' >/dev/null 2>&1"
check "signal handler: the handler's events are there" test "$("$SPOOR" dump -e hello:tick "$TMP/sig" | grep -c 'a=999 ')" -gt 0

# 13. SIGINT to spoor record: the command is stopped, the trace finished
"$SPOOR" record -o "$TMP/int" $BIG -- "$HELLO" 3000 1 slow >/dev/null 2>"$TMP/int.err" &
rpid=$!
# wait (bounded) until the program's thread buffer exists, then a little more
for _ in $(seq 100); do
	ls "$TMP"/int/ust/pid/*/stream_* >/dev/null 2>&1 && break
	sleep 0.1
done
sleep 0.3
kill -INT "$rpid"
wait "$rpid"
check "SIGINT: record exits 0" test $? -eq 0
check "SIGINT: the command was stopped" grep -q 'killed by signal 15' "$TMP/int.err"
n=$("$SPOOR" dump "$TMP/int" | wc -l)
check "SIGINT: the events so far are in the trace ($n)" test "$n" -gt 1 -a "$n" -lt 9002
check "SIGINT: babeltrace2 reads it" bash -c "babeltrace2 '$TMP/int' >/dev/null 2>&1"

# usage errors
"$SPOOR" record -b 3k -- "$HELLO" >/dev/null 2>&1
check "bad buffer size: exit 2" test $? -eq 2
"$SPOOR" record >/dev/null 2>&1
check "no command: exit 2" test $? -eq 2
"$SPOOR" record -o "$TMP/nx" -- /nonexistent/program 2>"$TMP/nx.err"
check "a command that cannot run is reported" grep -q 'cannot run /nonexistent/program' "$TMP/nx.err"
finish
