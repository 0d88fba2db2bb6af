#!/usr/bin/env bash
# spoor record end to end: programs instrumented with SPOOR_EVENT, traced through shared-
# memory ring buffers, read back by spoor and by babeltrace2.
. "$(dirname "$0")/lib.sh"
: "${HELLO:?}"
: "${HOSTILE_RING:?}" "${DL_LOADER:?}" "${DL_PROVIDER:?}" "${SCRIBBLER:?}" "${MANY_EVENTS:?}"
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
check "killed program: exit 128 + 9, as a shell gives" test $? -eq 137
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

# wait (bounded) until the program's thread buffer exists in trace $1, then a little more
wait_for_stream() {
	for _ in $(seq 100); do
		ls "$1"/ust/pid/*/stream_* >/dev/null 2>&1 && break
		sleep 0.1
	done
	sleep 0.3
}

# 13. SIGINT to spoor record: the command is stopped, the trace finished
"$SPOOR" record -o "$TMP/int" $BIG -- "$HELLO" 3000 1 slow >/dev/null 2>"$TMP/int.err" &
rpid=$!
wait_for_stream "$TMP/int"
kill -INT "$rpid"
wait "$rpid"
check "SIGINT: record exits 0" test $? -eq 0
check "SIGINT: the command was stopped" grep -q 'killed by signal 15' "$TMP/int.err"
n=$("$SPOOR" dump "$TMP/int" | wc -l)
check "SIGINT: the events so far are in the trace ($n)" test "$n" -gt 1 -a "$n" -lt 9002
check "SIGINT: babeltrace2 reads it" bash -c "babeltrace2 '$TMP/int' >/dev/null 2>&1"

# 14. -o DIR never mixes two recordings: an existing trace is refused, untouched; --force
# replaces it, and only a trace
sums() { (cd "$1" && find . -printf '%y %p %l\n' | sort && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
sums "$TMP/one" >"$TMP/one.sums"
"$SPOOR" record -o "$TMP/one" $BIG -- "$HELLO" 10 1 2>"$TMP/again.err"
check "existing -o: refused, exit 1" test $? -eq 1
check "existing -o: says why and what to do" grep -q 'one is not empty: .*--force' "$TMP/again.err"
check "existing -o: the old trace is byte-identical" cmp -s "$TMP/one.sums" <(sums "$TMP/one")
"$SPOOR" record --force -o "$TMP/one" $BIG -- "$HELLO" 10 1 2>/dev/null
check "--force: exit 0" test $? -eq 0
check "--force: the new recording only (10 rounds: 32 events, one process)" \
	test "$("$SPOOR" dump "$TMP/one" | wc -l)" -eq 32 -a "$(ls "$TMP/one/ust/pid" | wc -l)" -eq 1
check "--force: nothing of the old trace left aside" test -z "$(ls -A "$TMP/one" | grep -v '^ust$')"
# spoor view's cache beside a trace it showed (TRACE/.spoor-view.cache, hidden) is the
# trace's: --force replaces the two
: >"$TMP/one/.spoor-view.cache"
"$SPOOR" record --force -o "$TMP/one" $BIG -- "$HELLO" 10 1 2>"$TMP/view.err"
check "--force on a trace with spoor view's cache: exit 0" test $? -eq 0
check "--force on a trace with spoor view's cache: it went with the old trace" \
	test -z "$(ls -A "$TMP/one" | grep -v '^ust$')"
# --force removes the old trace only once the recording has started: a start that fails
# (a command that cannot run; a kernel event that does not exist) leaves it as it was
sums "$TMP/one" >"$TMP/one.sums"
"$SPOOR" record --force -o "$TMP/one" -- /nonexistent 2>/dev/null
check "--force, command not found: exit 127" test $? -eq 127
check "--force, command not found: the old trace is byte-identical" cmp -s "$TMP/one.sums" <(sums "$TMP/one")
"$SPOOR" record --force -o "$TMP/one" -k no_such_system:no_such_event -- "$HELLO" 1 1 2>/dev/null
check "--force, session refused: exit 1" test $? -eq 1
check "--force, session refused: the old trace is byte-identical" cmp -s "$TMP/one.sums" <(sums "$TMP/one")
mkdir -p "$TMP/home/work" "$TMP/mt"
cp -r "$TMP/e" "$TMP/home/work/trace"
echo 'keep me' >"$TMP/home/.profile"
sums "$TMP/home" >"$TMP/home.sums"
"$SPOOR" record --force -o "$TMP/home" -- "$HELLO" 1 1 2>"$TMP/home.err"
check "--force on a directory that is not a trace (it holds one): refused, exit 1" test $? -eq 1
check "--force on a non-trace: names what is not trace data" grep -q 'not a trace (it holds .profile)' "$TMP/home.err"
check "--force on a non-trace: everything is still there" cmp -s "$TMP/home.sums" <(sums "$TMP/home")
cp -r "$TMP/e" "$TMP/lnk"
ln -s "$TMP/home/.profile" "$TMP/lnk/ust/link"
"$SPOOR" record --force -o "$TMP/lnk" -- "$HELLO" 1 1 2>/dev/null
check "--force on a trace holding a symbolic link: refused, the link's target kept" \
	test $? -eq 1 -a -L "$TMP/lnk/ust/link" -a -f "$TMP/home/.profile"
echo data >"$TMP/afile"
"$SPOOR" record --force -o "$TMP/afile" -- "$HELLO" 1 1 2>/dev/null
check "--force on a file: refused, the file kept" test $? -eq 1 -a "$(cat "$TMP/afile")" = data
"$SPOOR" record -o "$TMP/mt" $BIG -- "$HELLO" 1 1 2>/dev/null
check "an existing empty directory is used" test $? -eq 0 -a -f "$(echo "$TMP"/mt/ust/pid/hello-*/metadata)"

# 15. the default name: a suffix when the name of this second is taken (here made before,
# for the next ten seconds, with a file in each; two recordings at once)
mkdir "$TMP/dflt"
now=$(date +%s)
for k in $(seq 0 9); do
	d="$TMP/dflt/spoor-trace-$(date -d "@$((now + k))" +%Y%m%d-%H%M%S)"
	mkdir "$d" && echo taken >"$d/file"
done
(cd "$TMP/dflt" && { "$SPOOR" record -- "$HELLO" 5 1 & "$SPOOR" record -- "$HELLO" 5 1 & wait; }) 2>/dev/null
taken=("$TMP"/dflt/spoor-trace-*-??????)
check "default names: the ten names taken are untouched (their one file each)" \
	test ${#taken[@]} -eq 10 -a "$(find "${taken[@]}" -mindepth 1 | wc -l)" -eq 10 \
	-a "$(cat "$TMP"/dflt/spoor-trace-*-??????/file | grep -c "^taken$")" -eq 10
new=$(cd "$TMP/dflt" && ls -d spoor-trace-*-*-[0-9] 2>/dev/null)
check "default names: two new directories with a suffix ($(echo $new))" test "$(echo "$new" | grep -c .)" -eq 2
for d in $new; do
	check "default names: $d holds one recording (17 events)" \
		test "$("$SPOOR" dump "$TMP/dflt/$d" 2>/dev/null | wc -l)" -eq 17
done

# 16. exit status: a command that cannot run as a shell says it (127 not found, 126 not
# runnable) and leaves nothing; else the command's status, 128+N for signal N
mkdir "$TMP/cwd"
(cd "$TMP/cwd" && "$SPOOR" record -- /nonexistent/program 2>"$TMP/nx.err")
check "/nonexistent: exit 127" test $? -eq 127
check "/nonexistent: the shell's message" grep -qx 'spoor record: /nonexistent/program: No such file or directory' "$TMP/nx.err"
check "/nonexistent: no trace directory left" test -z "$(ls -A "$TMP/cwd")"
"$SPOOR" record -o "$TMP/nx" -- no-such-command-spoor 2>"$TMP/nf.err"
check "not on PATH: exit 127, 'command not found', no -o directory" \
	sh -c "[ $? -eq 127 ] && grep -qx 'spoor record: no-such-command-spoor: command not found' '$TMP/nf.err' && [ ! -e '$TMP/nx' ]"
printf '#!/bin/sh\n' >"$TMP/noexec"
"$SPOOR" record -o "$TMP/ne" -- "$TMP/noexec" 2>"$TMP/ne.err"
check "not executable: exit 126, 'Permission denied', no directory" \
	sh -c "[ $? -eq 126 ] && grep -q 'noexec: Permission denied' '$TMP/ne.err' && [ ! -e '$TMP/ne' ]"
"$SPOOR" record -o "$TMP/isdir" -- "$TMP/cwd" 2>"$TMP/isdir.err"
check "a directory as the command: exit 126, 'Is a directory'" \
	sh -c "[ $? -eq 126 ] && grep -q 'cwd: Is a directory' '$TMP/isdir.err' && [ ! -e '$TMP/isdir' ]"
"$SPOOR" record -o "$TMP/false" -- false 2>"$TMP/false.err"
check "false: exit 1" test $? -eq 1
check "false: said" grep -q 'false exited with status 1' "$TMP/false.err"
"$SPOOR" record -o "$TMP/x7" -- sh -c 'exit 7' 2>/dev/null
check "sh -c 'exit 7': exit 7" test $? -eq 7
"$SPOOR" record -o "$TMP/term" -- sh -c 'kill -TERM $$' 2>/dev/null
check "a command killed by SIGTERM: exit 143" test $? -eq 143
check "a failed command's trace is kept" test -d "$TMP/term"
"$SPOOR" record -o "$TMP/dur" -d 200ms -- sleep 30 2>"$TMP/dur.err"
check "--duration ends the command: exit 0 (stopped by spoor)" \
	sh -c "[ $? -eq 0 ] && grep -q 'stopped by spoor' '$TMP/dur.err'"

# 17. Ctrl-C reaches the whole foreground process group, spoor and the command: the command
# dies of the SIGINT spoor received too, and that is the stop spoor was asked for (exit 0)
setsid -w bash -c 'echo $$ >"$1.pgid"; exec "$0" record -o "$1" '"$BIG"' -- "$2" 3000 1 slow' \
	"$SPOOR" "$TMP/pg" "$HELLO" >/dev/null 2>"$TMP/pg.err" &
spid=$!
wait_for_stream "$TMP/pg"
pg=$(cat "$TMP/pg.pgid")
kill -INT -- "-$pg"
wait "$spid"
check "Ctrl-C to the process group: exit 0" test $? -eq 0
check "Ctrl-C to the process group: the command died of it, as spoor was asked" \
	grep -q 'killed by signal 2 (as spoor was' "$TMP/pg.err"
check "Ctrl-C to the process group: the trace is finished" \
	bash -c "'$SPOOR' dump '$TMP/pg' >/dev/null && babeltrace2 '$TMP/pg' >/dev/null 2>&1"
# ...but a command killed by SIGINT when spoor was not asked to stop is the command's end
"$SPOOR" record -o "$TMP/int2" -- sh -c 'kill -INT $$' 2>/dev/null
check "a command killed by SIGINT alone: exit 130" test $? -eq 130

# 18. a full disk is spoor's own failure: exit 1, said, and the trace stays readable to its
# last whole packet (a tmpfs of 128 KiB, mounted here: root only; it holds less than the
# ring buffer of 256 KiB, which the program fills even when the consumer is slow)
mkdir "$TMP/full"
if mount -t tmpfs -o size=128k spoor-test "$TMP/full" 2>/dev/null; then
	trap 'umount "$TMP/full" 2>/dev/null; rm -rf "$TMP"' EXIT
	"$SPOOR" record -o "$TMP/full/T" -b 256k -- "$HELLO" 20000 1 >/dev/null 2>"$TMP/full.err"
	check "disk full: exit 1 (the command succeeded)" test $? -eq 1
	check "disk full: said, with the packets not written" \
		grep -q 'error: user-space trace: No space left on device: [1-9][0-9]* packets were not written' "$TMP/full.err"
	"$SPOOR" dump --format=babeltrace "$TMP/full/T" >"$TMP/full.sp" 2>"$TMP/full.sperr"
	check "disk full: spoor dump reads the trace to its end, no damage (exit $?)" \
		test $? -eq 0 -a ! -s "$TMP/full.sperr" -a -s "$TMP/full.sp"
	babeltrace2 --clock-gmt "$TMP/full/T" >"$TMP/full.bt2" 2>/dev/null
	check "disk full: babeltrace2 reads it (exit $?)" test $? -eq 0 -a -s "$TMP/full.bt2"
	check "disk full: babeltrace2 gives the same events" cmp -s "$TMP/full.sp" "$TMP/full.bt2"
	umount "$TMP/full"
else
	echo "# skipped: disk full (cannot mount a tmpfs here: not root?)"
fi

# 19. descriptions larger than one message (64 events with long enum labels: 440 KiB of
# metadata) go in several; every event is recorded, with its labels
"$SPOOR" record -o "$TMP/many-ev" -- "$MANY_EVENTS" 2>"$TMP/many-ev.err"
check "descriptions over several messages: record exits 0" test $? -eq 0
"$SPOOR" dump --format=babeltrace "$TMP/many-ev" >"$TMP/many-ev.sp" 2>/dev/null
check "descriptions over several messages: all 64 events" test "$(wc -l <"$TMP/many-ev.sp")" -eq 64
check "descriptions over several messages: the last event's label" \
	grep -q 'many:e87: .* { v = ( "a_label_long_enough_that_the_descriptions_outgrow_one_message_87" : container = 87 ) }' "$TMP/many-ev.sp"
babeltrace2 "$TMP/many-ev" >"$TMP/many-ev.bt2" 2>/dev/null
check "descriptions over several messages: the same in babeltrace2" cmp -s "$TMP/many-ev.sp" "$TMP/many-ev.bt2"

# A program that hands over a ring and shrinks it, then rings the doorbell: the reader would
# die of SIGBUS at its next read of the ring. Refused (not sealed), with a warning naming the
# program; the well-behaved program after it is recorded. Sealed, the ring cannot shrink.
for mode in open sealed; do
	d="$TMP/hostile-$mode"
	"$SPOOR" record -o "$d" -- sh -c '"$1" "$2" "$3" "$4" >"$2.out" && "$5" 10 1' sh \
		"$HOSTILE_RING" "$d" "$d.err" "$mode" "$HELLO" >/dev/null 2>"$d.err"
	check "shrunk ring ($mode): record survives and exits 0" test $? -eq 0
	"$SPOOR" dump "$d" >"$d.txt" 2>/dev/null
	check "shrunk ring ($mode): the next program recorded" test "$(grep -c 'hello:' "$d.txt")" -eq 30
done
check "shrunk ring: the unsealed ring was shrunk" grep -q 'shrunk 1' "$TMP/hostile-open.out"
check "shrunk ring: refused, the program named" \
	grep -q 'hostile-ring (pid [0-9]*): ring buffer of thread [0-9]* refused: not a memfd sealed' "$TMP/hostile-open.err"
check "shrunk ring: a sealed ring cannot shrink" grep -q 'shrunk 0' "$TMP/hostile-sealed.out"
check "shrunk ring: a sealed ring is taken" test -f "$(echo "$TMP"/hostile-sealed/ust/pid/hostile-ring-*/stream_*)"

# usage errors
"$SPOOR" record -b 3k -- "$HELLO" >/dev/null 2>&1
check "bad buffer size: exit 2" test $? -eq 2
"$SPOOR" record >/dev/null 2>&1
check "no command: exit 2" test $? -eq 2
finish
