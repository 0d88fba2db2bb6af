#!/usr/bin/env bash
# spoor record --calls: a program of known call trees (tests/programs/calls-record.c) built
# with -finstrument-functions, -pg, -pg -mfentry, -fpatchable-function-entry=5 and
# -mnop-mcount (nops patched when tracing starts), recorded, and its trees read back from
# babeltrace2's output (calls-record-tree.py: names from the load map and the objects' symbols):
# exact, in threads, across dlopen, longjmp and a signal handler; the load map; the kernel's
# switches on the same clock; bad input.
. "$(dirname "$0")/lib.sh"
: "${CALLS_FLAVOURS:?}" "${CALLS_CYG:?}" "${CALLS_LIB:?}" "${CALLS_PLAIN:?}"
need babeltrace2 babeltrace2
TREE="python3 $(dirname "$0")/calls-record-tree.py"

record() { # record NAME [spoor options] -- PROGRAM ARGS: the trace in $TMP/NAME
	local name=$1
	shift
	"$SPOOR" record -o "$TMP/$name" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
}
lines() { printf '%s\n' "$@"; }

top3=$(lines 'thread 1' main '  top' '    mid' '      leaf' '      leaf' '    mid' \
	'      leaf' '      leaf' '    mid' '      leaf' '      leaf')
worker=$(lines worker '  top' '    mid' '      leaf' '      leaf' '    mid' '      leaf' \
	'      leaf')
for flavour in $CALLS_FLAVOURS; do # those the compiler builds
	var=CALLS_${flavour^^}
	prog=${!var}
	record $flavour-tree --calls -- "$prog" tree
	check "$flavour: records" test $? -eq 0
	check "$flavour: the call tree, exact" test "$($TREE "$TMP/$flavour-tree")" = "$top3"
	record $flavour-threads --calls -- "$prog" threads
	check "$flavour: each thread's tree" test "$($TREE "$TMP/$flavour-threads")" = \
		"$(lines 'thread 1' main 'thread 2' "$worker" 'thread 3' "$worker")"
	record $flavour-dl --calls -- "$prog" dlopen "$CALLS_LIB"
	check "$flavour: a dlopen'd library's calls, named from its dlopen event" \
		test "$($TREE "$TMP/$flavour-dl")" = \
		"$(lines 'thread 1' main '  lib_entry' '    lib_inner' '    lib_inner')"
	record $flavour-sig --calls -- "$prog" signal
	check "$flavour: a signal handler's calls nested where the signal came" \
		test "$($TREE "$TMP/$flavour-sig")" = "$(lines 'thread 1' main '  top' '    mid' \
		'      leaf' '      leaf' '  signaller' '    on_signal' '      leaf')"
	record $flavour-jmp --calls -- "$prog" longjmp
	if [ $flavour = cyg ]; then
		# -finstrument-functions has no exit for the frames longjmp left: a reader finds
		# them gone at jumper's exit (and may place leaf by its call site)
		check "$flavour: longjmp: every entry, the program ends well" \
			test "$($TREE "$TMP/$flavour-jmp" | tr -d ' ' | tr '\n' ,)" = \
			"thread1,main,jumper,deeper,deepest,leaf,"
	else
		check "$flavour: longjmp: the frames it left end before the next call" \
			test "$($TREE "$TMP/$flavour-jmp")" = "$(lines 'thread 1' main '  jumper' \
			'    deeper' '      deepest' '    leaf')"
	fi
	record $flavour-tail --calls -- "$prog" tail
	if objdump -d "$prog" | awk '/<tailer>:/,/^$/' | grep -q 'jmp .*<leaf'; then
		# the callee takes the caller's return: the two are siblings
		want=$(lines 'thread 1' main '  tailer' '  leaf')
	else # no tail call (-finstrument-functions: its exit hook comes after the call)
		want=$(lines 'thread 1' main '  tailer' '    leaf')
	fi
	check "$flavour: a tail call" test "$($TREE "$TMP/$flavour-tail")" = "$want"
	record $flavour-depth --calls --calls-depth=2 -- "$prog" tree
	check "$flavour: --calls-depth=2: two calls deep" \
		test "$($TREE "$TMP/$flavour-depth")" = "$(lines 'thread 1' main '  top')"
	# the count of dladdr calls (tests/programs/calls-count-dladdr.c), preloaded after ours
	LD_PRELOAD=$CALLS_COUNT record $flavour-lookups --calls --calls-depth=2 --calls-min=1ns \
		-- "$prog" tree
	check "$flavour: --calls-depth and --calls-min: no function's name looked up" \
		grep -qx "${prog##*/}: dladdr 0" "$TMP/$flavour-lookups.err"
	record $flavour-min --calls --calls-min=1ns -- "$prog" tree
	check "$flavour: --calls-min=1ns: every call, nested by its time and duration" \
		test "$($TREE "$TMP/$flavour-min")" = "$top3"
	record $flavour-only '--calls=mid,leaf' -- "$prog" tree
	m3=$(lines mid '  leaf' '  leaf' mid '  leaf' '  leaf' mid '  leaf' '  leaf')
	check "$flavour: --calls=mid,leaf: only those" \
		test "$($TREE "$TMP/$flavour-only")" = "$(lines 'thread 1' "$m3")"
	notleaf=$(lines 'thread 1' main '  top' '    mid' '    mid' '    mid')
	record $flavour-not '--calls=!leaf' -- "$prog" tree
	check "$flavour: --calls='!leaf': all but leaf" test "$($TREE "$TMP/$flavour-not")" = "$notleaf"
	record $flavour-excl --calls --calls-exclude='le?f' -- "$prog" tree
	check "$flavour: --calls-exclude='le?f': all but leaf" \
		test "$($TREE "$TMP/$flavour-excl")" = "$notleaf"
	record $flavour-graph --calls-graph=mid -- "$prog" tree
	check "$flavour: --calls-graph=mid: mid and what it calls" \
		test "$($TREE "$TMP/$flavour-graph")" = "$(lines 'thread 1' "$m3")"
	record $flavour-graph1 --calls-graph='m*' --calls-depth=1 -- "$prog" tree
	check "$flavour: --calls-graph='m*' --calls-depth=1: main alone" \
		test "$($TREE "$TMP/$flavour-graph1")" = "$(lines 'thread 1' main)"
	record $flavour-lib --calls=:lib:libcalls-record-lib -- "$prog" dlopen "$CALLS_LIB"
	check "$flavour: --calls=:lib:libcalls-record-lib: the dlopen'd library's functions only" \
		test "$($TREE "$TMP/$flavour-lib")" = \
		"$(lines 'thread 1' lib_entry '  lib_inner' '  lib_inner')"
	record $flavour-min10 --calls --calls-min=10ms -- "$prog" sleep
	check "$flavour: --calls-min=10ms: only the calls that slept 20 ms" \
		test "$($TREE "$TMP/$flavour-min10")" = "$(lines 'thread 1' main '  sleeper')"
done

LD_PRELOAD=$CALLS_COUNT record lookups-names --calls=mid -- "$CALLS_CYG" tree
check "a name filter looks names up (the count above counts)" \
	grep -qx "${CALLS_CYG##*/}: dladdr [1-9][0-9]*" "$TMP/lookups-names.err"

# the load map: the program, its libraries, libspoor-calls, with build-ids; dlopen, dlclose
bt="$TMP/cyg-dl.bt2"
babeltrace2 "$TMP/cyg-dl" >"$bt"
check "load map: the state dump starts and ends" bash -c "
	grep -q 'lttng_ust_statedump:start' '$bt' && grep -q 'lttng_ust_statedump:end' '$bt'"
check "load map: the program's path" grep -q "statedump:bin_info: .*path = \"$CALLS_CYG\"" "$bt"
id=$(readelf -n "$CALLS_CYG" | sed -n 's/.*Build ID: //p')
seen=$(grep -A0 'statedump:build_id' "$bt" | head -1 | sed 's/.*build_id = \[ \(.*\) \] }/\1/' |
	sed 's/\[[0-9]*\] = //g; s/,//g' | xargs printf '%02x')
check "load map: the program's build-id ($id)" test "$seen" = "$id"
lib=$(readlink -f "$CALLS_LIB")
check "load map: dlopen's event names the library" \
	grep -q "lttng_ust_dl:dlopen: .*path = \"$lib\"" "$bt"
base=$(sed -n "s/.*lttng_ust_dl:dlopen: .*baddr = \(0x[0-9A-F]*\),.*path = \"${lib//\//\\/}\".*/\1/p" "$bt")
check "load map: dlclose's event, with the same base address" \
	grep -q "lttng_ust_dl:dlclose: .*baddr = $base }" "$bt"

# -k: the kernel's switches on the same clock, inside the call that sleeps
if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/events ]; then
	record sleep --calls -k sched_switch -- "$CALLS_CYG" sleep
	check "-k: the thread switched out while sleeper ran (one clock)" \
		bash -c "$TREE --switch sleeper '$TMP/sleep' | grep -qx 'switched out in sleeper: yes'"
else
	echo "note: -k interleaving not checked (needs root and tracefs)"
fi

# A buffer too small for a burst of calls: spoor graph says where the thread's events were
# lost, ftrace's `[LOST n EVENTS]` (the thread's own buffer: named by the thread), as many
# as the trace counts; the calls whose exits went with them end at their caller's exit
# (exit lost), none is taken for a longjmp's (unwound), and main closes at depth 0 (or its
# exit went with the last events lost, when the recorder, starved of CPU, did not empty the
# buffer while the program slept).
record burst --calls -b 8k --subbuffers 2 -- "$CALLS_CYG" burst 30000
check "burst: records" test $? -eq 0
"$SPOOR" graph "$TMP/burst" >"$TMP/burst.graph" 2>/dev/null
lost=$(sed -n 's/^calls-r-[0-9]* \[LOST \([0-9]*\) EVENTS\]$/\1/p' "$TMP/burst.graph")
discarded=$("$SPOOR" stats "$TMP/burst" | sed -n 's/^Events discarded: //p')
check "burst: events lost ($discarded)" test "${discarded:-0}" -gt 0
check "burst: [LOST n EVENTS] lines, as many events as the trace lost" \
	test "$(echo "$lost" | awk '{ n += $1 } END { print n + 0 }')" = "$discarded"
check "burst: no call taken for unwound" bash -c "! grep -q '(unwound)' '$TMP/burst.graph'"
check "burst: main ends at depth 0, or the last events were lost" bash -c \
	"tail -1 '$TMP/burst.graph' | grep -qE ' us *\|  }\$|^calls-r-[0-9]+ \[LOST [0-9]+ EVENTS\]\$'"

# bad input
record plain --calls -- "$CALLS_PLAIN" tree
check "a program without hooks: exit 1" test $? -eq 1
check "... a message naming the flags" grep -q -- \
	"-finstrument-functions, -pg (and -mfentry), or -fpatchable-function-entry" "$TMP/plain.err"
check "... before running it: no trace" test ! -e "$TMP/plain"
record baddepth --calls-depth=x -- "$CALLS_CYG" tree
check "--calls-depth=x: a usage error" test $? -eq 2
record badmin --calls-min=soon -- "$CALLS_CYG" tree
check "--calls-min=soon: a usage error" test $? -eq 2
record all --calls -a -k sched_switch
check "--calls without a command: a usage error" test $? -eq 2
cp "$CALLS_CYG" "$TMP/stripped-prog" && strip "$TMP/stripped-prog"
record stripped --calls -- "$TMP/stripped-prog" tree
check "a stripped program records (its own functions as addresses)" bash -c "
	$TREE '$TMP/stripped' | sed -n 2p | grep -q '^0x'"
check "... every call" test "$($TREE "$TMP/stripped" | wc -l)" -eq 12
finish
