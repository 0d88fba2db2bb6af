#!/usr/bin/env bash
# spoor convert --layout=lttng: a spoor kernel trace (gen_kernel.py --spoor; and one recorded
# here, with root and tracefs) written again in the LTTng layout. babeltrace2 reads both and
# prints the same events and values, named as lttng-modules names them (convert-check.py);
# spoor's analyses give the same answers on both. Bad input: a clear error, exit 1, OUT as
# it was; cut and damaged traces: never a crash.
. "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
need babeltrace2 babeltrace2
PY=/usr/bin/python3

# The same answers, and the same warnings of losses up to their advice (the trace's path
# aside; the advice counts the stream's bytes, which differ).
same_answers() { # same_answers WHAT BEFORE AFTER
	local a
	for a in irq sched syscalls disk; do
		"$SPOOR" $a "$2" 2>&1 | sed "s|$2|TRACE|g; s/; about .*//" >"$TMP/$1.before.$a"
		"$SPOOR" $a "$3" 2>&1 | sed "s|$3|TRACE|g; s/; about .*//" >"$TMP/$1.after.$a"
		check "$1: spoor $a gives the same answers on both" \
			cmp -s "$TMP/$1.before.$a" "$TMP/$1.after.$a"
	done
}
# babeltrace2 reads both; the same events and values, LTTng's names (convert-check.py).
same_events() { # same_events WHAT BEFORE AFTER BLOCK_DEVICES
	babeltrace2 "$2" >"$TMP/$1.before.txt" 2>/dev/null
	check "$1: babeltrace2 reads the trace" test $? -eq 0
	babeltrace2 "$3" >"$TMP/$1.after.txt" 2>"$TMP/$1.after.err"
	check "$1: babeltrace2 reads the converted trace" test $? -eq 0
	$PY "$here/convert-check.py" "$TMP/$1.before.txt" "$TMP/$1.after.txt" "$4" >"$TMP/$1.diff"
	check "$1: the same events and values, LTTng's names" test $? -eq 0
	head -5 "$TMP/$1.diff"
}
env_of() { babeltrace2 --output-format=ctf-metadata "$1" | sed -n '/^env {/,/^}/p'; }

# 1. A trace as spoor records one, of the project's own
$PY "$SPOOR_TEST_DATA/gen_kernel.py" --spoor "$TMP/gen" >/dev/null || exit 1
"$SPOOR" convert --layout=lttng "$TMP/gen" -o "$TMP/gen.lttng" 2>"$TMP/gen.err"
check "convert: exit 0" test $? -eq 0
check "convert: says what it wrote" \
	grep -q "^spoor convert: [0-9]* events in 2 streams written to .*(4 threads in the state dump, 5 events lost when recorded)" "$TMP/gen.err"
same_events gen "$TMP/gen" "$TMP/gen.lttng" 2
# every stream spans the trace, as the recorder's and LTTng's (the input's do not)
$PY "$here/stream-bounds.py" "$TMP/gen.lttng" --bounds-of "$TMP/gen" >"$TMP/gen.bounds"
check "every stream spans the input's first packet to its last" test $? -eq 0
grep -v '^stream' "$TMP/gen.bounds"
same_answers gen "$TMP/gen" "$TMP/gen.lttng"
env_of "$TMP/gen.lttng" >"$TMP/gen.env"
for kv in 'domain = "kernel"' 'tracer_name = "lttng-modules"' 'tracer_major = 2' \
	'tracer_minor = 13' 'tracer_patchlevel = 0' 'hostname = "synth-host"' \
	'spoor_layout = "lttng"' 'trace_buffering_scheme = "global"' 'trace_name = "gen.lttng"'; do
	check "env: $kv" grep -qF "	$kv;" "$TMP/gen.env"
done
check "the losses stay between the same events" \
	grep -q 'Tracer discarded 5 events between \[22:13:20.124509789\] and \[22:13:20.124929486\]' \
	"$TMP/gen.after.err"
check "the dump's kernel threads: kthreadd's children" \
	grep -q 'lttng_statedump_process_state: .*{ tid = 30, pid = 30, ppid = 2, name = "kworker/0:1", type = 1, mode = 5, submode = 0, status = 0, cpu = 0, file_table_address = 0x1E }' \
	"$TMP/gen.after.txt"
check "-k libc: the C library's path in the openat that follows (not its address)" \
	grep -q 'syscall_entry_openat: .*{ dfd = -100, filename = "/etc/passwd", flags = 0, mode = 0 }' \
	"$TMP/gen.after.txt"
check "the recording's block devices" \
	grep -q 'lttng_statedump_block_device: .*{ dev = 271581185, diskname = "nvme0n1p1" }' \
	"$TMP/gen.after.txt"
# a recording's directory: its kernel/ trace goes to OUT/kernel
mkdir "$TMP/rec" && cp -r "$TMP/gen" "$TMP/rec/kernel"
"$SPOOR" convert --layout=lttng -o "$TMP/rec.lttng" "$TMP/rec" 2>/dev/null
check "a recording's directory: OUT/kernel" test $? -eq 0 -a -f "$TMP/rec.lttng/kernel/metadata"

# 2. Bad input: a clear error, OUT as it was
refused() { # refused WHAT STATUS PATTERN ARGS...
	local what=$1 status=$2 pattern=$3
	shift 3
	rm -rf "$TMP/out"
	"$SPOOR" convert "$@" 2>"$TMP/refused.err"
	local rc=$?
	check "$what: exit $status" test $rc -eq "$status"
	check "$what: says why" grep -q "^spoor convert: .*$pattern" "$TMP/refused.err"
	check "$what: no OUT" test ! -e "$TMP/out"
}
refused "no layout" 2 "layout" "$TMP/gen" -o "$TMP/out"
refused "another layout" 2 "unknown layout 'ctf'" --layout=ctf "$TMP/gen" -o "$TMP/out"
refused "no -o" 2 "-o DIR" --layout=lttng "$TMP/gen"
refused "no trace" 2 "no trace given" --layout=lttng -o "$TMP/out"
refused "two traces" 2 "one trace at a time" --layout=lttng "$TMP/gen" "$TMP/gen" -o "$TMP/out"
mkdir -p "$TMP/empty"
refused "not a trace" 1 "$TMP/empty" --layout=lttng "$TMP/empty" -o "$TMP/out"
refused "no such trace" 1 "$TMP/none" --layout=lttng "$TMP/none" -o "$TMP/out"
$PY "$SPOOR_TEST_DATA/gen_kernel.py" "$TMP/lttng" >/dev/null
refused "an LTTng kernel trace" 1 'tracer_name "lttng-modules"' --layout=lttng "$TMP/lttng" -o "$TMP/out"
refused "a converted trace" 1 "not a kernel trace in spoor's layout" --layout=lttng "$TMP/gen.lttng" -o "$TMP/out"
refused "a user-space trace" 1 "not a kernel trace" --layout=lttng "$SPOOR_TEST_DATA/traces/ust-types" -o "$TMP/out"
# a recording of user space only (its traces under ust/), and a folder with no trace
mkdir -p "$TMP/urec/ust/pid" "$TMP/notrace" && cp -r "$SPOOR_TEST_DATA/traces/ust-types" "$TMP/urec/ust/pid/"
refused "a recording of user space only" 1 "no kernel trace here .*; it holds user-space traces only" \
	--layout=lttng "$TMP/urec" -o "$TMP/out"
refused "a folder with no trace" 1 "no kernel trace here (convert takes" --layout=lttng "$TMP/notrace" -o "$TMP/out"
mkdir "$TMP/full" && echo keep >"$TMP/full/file"
"$SPOOR" convert --layout=lttng "$TMP/gen" -o "$TMP/full" 2>"$TMP/full.err"
check "OUT not empty: exit 1" test $? -eq 1
check "OUT not empty: says so" grep -q "^spoor convert: .*$TMP/full" "$TMP/full.err"
check "OUT not empty: as it was" test "$(ls -A "$TMP/full")" = file
# spoor record's --force hint does not belong here: convert has no --force
check "OUT not empty: no --force offered" bash -c "! grep -q -- --force '$TMP/full.err'"
echo file >"$TMP/file"
"$SPOOR" convert --layout=lttng "$TMP/gen" -o "$TMP/file" 2>/dev/null
check "OUT a file: exit 1, the file as it was" test $? -eq 1 -a "$(cat "$TMP/file")" = file

# 3. Cut and damaged traces: exit 0 or a clear error (exit 1, no OUT), never a crash
size=$(stat -c %s "$TMP/gen/channel0_1")
msize=$(stat -c %s "$TMP/gen/metadata")
bad=0
for cut in 1 40 84 85 200 $((size / 3)) $((size / 2)) $((size - 3)) m1 m$((msize / 2)) x100 x300 x$((size / 2)); do
	rm -rf "$TMP/cut" "$TMP/out"
	cp -r "$TMP/gen" "$TMP/cut"
	case $cut in
	m*) truncate -s "${cut#m}" "$TMP/cut/metadata" ;;
	x*) printf '\377\377\377\377\377\377\377\377' |
		dd of="$TMP/cut/channel0_1" bs=1 seek="${cut#x}" conv=notrunc 2>/dev/null ;;
	*) truncate -s "$cut" "$TMP/cut/channel0_1" ;;
	esac
	"$SPOOR" convert --layout=lttng "$TMP/cut" -o "$TMP/out" 2>"$TMP/cut.err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q '^spoor convert: ' "$TMP/cut.err" && [ ! -e "$TMP/out" ]; then
		:
	elif [ $rc -eq 0 ] && babeltrace2 "$TMP/out" >/dev/null 2>&1; then
		:
	else
		bad=$((bad + 1))
		echo "  cut/damage $cut: exit $rc: $(head -c 300 "$TMP/cut.err")"
	fi
done
check "cut and damaged traces: converted whole or refused clearly" test $bad -eq 0

# 4. A recording of this machine (root and tracefs); 8m of kernel buffer per CPU holds
# each recording whole, so that a loaded machine, where the recorder drains late, loses
# nothing (the answers compared differ across a loss)
T=/sys/kernel/tracing
if [ "$(id -u)" -eq 0 ] && [ -w "$T/instances" ]; then
	"$SPOOR" record -k sched,irq,syscalls,block --kernel-buffer=8m -o "$TMP/real" -- sh -c \
		"ls /usr/bin >/dev/null; dd if=/dev/zero of='$TMP/zero' bs=64k count=16 conv=fsync 2>/dev/null; sleep 0.1" \
		>/dev/null 2>&1
	check "record -k: exit 0" test $? -eq 0
	"$SPOOR" convert --layout=lttng "$TMP/real" -o "$TMP/real.lttng" 2>/dev/null
	check "a recording: convert exits 0" test $? -eq 0
	same_events real "$TMP/real/kernel" "$TMP/real.lttng/kernel" \
		"$(grep -c '^ ' "$TMP/real/kernel/.partitions")"
	same_answers real "$TMP/real/kernel" "$TMP/real.lttng/kernel"
	# every stream spans the session, in both layouts (from the dump's time: the start)
	$PY "$here/stream-bounds.py" "$TMP/real/kernel" --begins-at statedump_process \
		>"$TMP/real.bounds"
	check "a recording: every stream spans the session" test $? -eq 0
	$PY "$here/stream-bounds.py" "$TMP/real.lttng/kernel" --bounds-of "$TMP/real/kernel" \
		--begins-at lttng_statedump_start >>"$TMP/real.bounds"
	check "a recording converted: every stream spans the session" test $? -eq 0
	grep -v '^stream' "$TMP/real.bounds"
	# the same selection recorded in both layouts: convert writes what record
	# --layout=lttng writes (env, stream, each event's name and fields), -k libc's paths
	# in the system calls as strings too
	sel=sched,irq,syscalls,block,libc
	work="for i in 1 2 3; do cat /etc/hostname; done >/dev/null"
	"$SPOOR" record -k $sel --kernel-buffer=8m -o "$TMP/both.sp" -- sh -c "$work" >/dev/null 2>&1 &&
		"$SPOOR" record -k $sel --layout=lttng --kernel-buffer=8m -o "$TMP/both.lt" -- sh -c "$work" \
			>/dev/null 2>&1 &&
		"$SPOOR" convert --layout=lttng "$TMP/both.sp" -o "$TMP/both.cv" 2>/dev/null
	check "record -k $sel in both layouts, convert: exit 0" test $? -eq 0
	$PY "$here/convert-record-compare.py" "$TMP/both.lt/kernel" "$TMP/both.cv/kernel" \
		>"$TMP/both.cmp"
	check "convert's metadata is record --layout=lttng's (env, contexts, events)" test $? -eq 0
	cat "$TMP/both.cmp"
	for t in lt cv; do
		check "$t: -k libc's paths in syscall_entry_openat, as strings" bash -c \
			"babeltrace2 '$TMP/both.$t' | grep -q 'syscall_entry_openat: .*filename = \"/etc/hostname\"'"
	done
	# lttng-analyses reads where every stream spans: the dump's stream spans the trace
	if command -v lttng-irqstats >/dev/null; then
		lttng-irqstats --no-progress "$TMP/real.lttng/kernel" >"$TMP/la.txt" 2>&1
		check "lttng-analyses finds the streams' times intersect" \
			bash -c "! grep -q 'no intersection' '$TMP/la.txt'"
	fi
else
	echo "(a recording of this machine: skipped, it needs root and tracefs)"
fi
finish
