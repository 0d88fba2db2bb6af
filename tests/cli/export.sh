#!/usr/bin/env bash
# spoor export --format=chrome (docs/export.md): the file parses as JSON (strict UTF-8, no
# raw control characters); its thread-state durations add up per thread to what
# `spoor sched --json` says, on the whole trace and on a --begin/--end range (where nothing
# lies outside the range); user-space events become instants with their fields as
# `spoor dump` prints them, and -e turns the events it names into instants; untrusted
# names come out escaped; errors exit non-zero and leave no file; a damaged trace is
# exported up to the damage. Checks: tests/cli/export-check.py. Traces: gen_kernel.py's
# busy trace and one with hostile names, tests/data/traces/ust-types, a recording of
# examples/hello, gen-damaged.py, and
# ../shared/traces/lttng/many-threads when present.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
chk() { python3 "$here/export-check.py" "$@"; }
# in_range NAME TRACE WHOLE.json FROM LEN: export and sched on [start + FROM, start + FROM +
# LEN] ns (the start: WHOLE.json's origin), compared; the range file is NAME.json
in_range() {
	local origin b e
	origin=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["otherData"]["origin_ns"])' "$3")
	b=$((origin + $4)) e=$((origin + $4 + $5))
	"$SPOOR" export --begin "$b" --end "$e" -o "$TMP/$1.json" "$2" 2>/dev/null
	"$SPOOR" sched --json --begin "$b" --end "$e" "$2" >"$TMP/$1-sched.json"
	check "$1: --begin/--end: only that range, and the sums of sched --begin/--end" \
		chk sums "$TMP/$1.json" "$TMP/$1-sched.json" "$b" "$e"
}

busy=$(python3 "$SPOOR_TEST_DATA/gen_kernel.py" --busy "$TMP/busy") || exit 1
"$SPOOR" export --format=chrome -o "$TMP/busy.json" "$busy" 2>"$TMP/busy.err"
check "busy trace: exit 0" test $? -eq 0
check "busy trace: -o says what it wrote" grep -q "trace events, .* MB, in $TMP/busy.json" "$TMP/busy.err"
"$SPOOR" export -o /dev/null "$busy" 2>"$TMP/null.err"
check "-o /dev/null: exit 0" test $? -eq 0
check "-o /dev/null: the events, no size (not 0.0 MB)" \
	grep -qx "spoor export: [1-9][0-9]* trace events, in /dev/null" "$TMP/null.err"
"$SPOOR" sched --json "$busy" >"$TMP/busy-sched.json"
check "busy trace: per thread, the states add up to sched's times" \
	chk sums "$TMP/busy.json" "$TMP/busy-sched.json"
"$SPOOR" export "$busy" >"$TMP/stdout.json" 2>/dev/null
check "no -o: the same file on standard output" cmp -s "$TMP/busy.json" "$TMP/stdout.json"
"$SPOOR" export -o - "$busy" >"$TMP/dash.json" 2>/dev/null
check "-o -: standard output too" cmp -s "$TMP/busy.json" "$TMP/dash.json"

in_range busy-range "$busy" "$TMP/busy.json" 100000 100000 # 100 us, 100 us in
check "--begin/--end: a smaller file" test "$(stat -c %s "$TMP/busy-range.json")" -lt "$(stat -c %s "$TMP/busy.json")"

# user-space events: instants with their payload, as spoor dump prints it
ust=$SPOOR_TEST_DATA/traces/ust-types
"$SPOOR" export "$ust" >"$TMP/ust.json"
"$SPOOR" dump "$ust" >"$TMP/ust.dump"
check "user-space trace: an instant per event, with its fields" chk instants "$TMP/ust.json" "$TMP/ust.dump"
# a fresh recording of examples/hello: 4 threads
"$SPOOR" record -o "$TMP/hello" -- "$HELLO" 20 4 >/dev/null 2>&1
"$SPOOR" export -o "$TMP/hello.json" "$TMP/hello" 2>/dev/null
"$SPOOR" dump "$TMP/hello" >"$TMP/hello.dump"
check "spoor record -- hello: an instant per event, with its fields" \
	chk instants "$TMP/hello.json" "$TMP/hello.dump"
check "spoor record -- hello: its threads named, under one process" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
names = {e["tid"]: e for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
tids = {e["tid"] for e in d["traceEvents"] if e["ph"] == "i"}
sys.exit(not (len(tids) >= 4 and tids <= set(names) and len({names[t]["pid"] for t in tids}) == 1))' "$TMP/hello.json"
# -e: the kernel events it names become instants, and only they
"$SPOOR" export -e 'irq_handler_*' -e softirq_entry "$busy" >"$TMP/irq.json" 2>/dev/null
"$SPOOR" dump -e 'irq_handler_*' -e softirq_entry "$busy" >"$TMP/irq.dump"
check "-e: instants for the events it names" chk instants "$TMP/irq.json" "$TMP/irq.dump"
"$SPOOR" export -e 'spoor_fixture:str*' "$ust" >"$TMP/ust-e.json"
"$SPOOR" dump -e 'spoor_fixture:str*' "$ust" >"$TMP/ust-e.dump"
check "-e: limits a user-space trace's instants" chk instants "$TMP/ust-e.json" "$TMP/ust-e.dump"

# untrusted names: quotes, backslashes, control characters, bytes that are not UTF-8
python3 - "$SPOOR_TEST_DATA" "$TMP/hostile" <<'PY' || exit 1
import sys
sys.path.insert(0, sys.argv[1])
import gen_kernel

class Raw(str):  # a payload string whose bytes are not UTF-8
    def encode(self, *a, **k):
        return b"bad\xff\xfeutf8 \xc3\xa9"

comm = 'ev"il\\ \x01\x7f\ttab'
sw = {"prev_prio": 20, "next_prio": 20}
gen_kernel.write(sys.argv[2], [
    (10, 0, "lttng_statedump_process_state", {"tid": 300, "pid": 300, "ppid": 1, "name": comm}),
    (11, 0, "lttng_statedump_process_state", {"tid": 301, "pid": 301, "ppid": 1, "name": Raw("x")}),
    (100, 0, "sched_switch", dict(sw, prev_comm="swapper/0", prev_tid=0, prev_state=0,
                                  next_comm=comm, next_tid=300)),
    (200, 0, 'we\\"ird\x01\x7f\tname', {"text": 'q"b\\s\n\x01', "raw": Raw("x")}),
    (300, 0, "sched_switch", dict(sw, prev_comm=comm, prev_tid=300, prev_state=1,
                                  next_comm=Raw("x"), next_tid=301)),
    (400, 0, "sched_switch", dict(sw, prev_comm=Raw("x"), prev_tid=301, prev_state=1,
                                  next_comm="swapper/0", next_tid=0))])
PY
"$SPOOR" export -e '*' "$TMP/hostile" >"$TMP/hostile.json" 2>/dev/null
check "hostile names: escaped, and read back as they were" \
	chk names "$TMP/hostile.json" 'we"ird\x01\x7f\tname' 'ev"il\\ \x01\x7f\ttab' \
	'q"b\\s\n\x01' 'bad\ufffd\ufffdutf8 \xe9'
# the commands' --json share the escaping (lib/util/json.c): a name that is not UTF-8
"$SPOOR" sched --json "$TMP/hostile" >"$TMP/hostile-sched.json"
check "spoor sched --json: a thread name that is not UTF-8 still makes UTF-8 JSON" \
	chk names "$TMP/hostile-sched.json" 'bad\ufffd\ufffdutf8 \xe9'

# errors: a clear message, non-zero, and no file left behind
"$SPOOR" export >/dev/null 2>"$TMP/err"
check "no trace: exit 2" test $? -eq 2
"$SPOOR" export --format=perfetto "$busy" >/dev/null 2>"$TMP/err"
check "unknown format: exit 2, named" test $? -eq 2 -a -n "$(grep "unknown format 'perfetto'" "$TMP/err")"
"$SPOOR" export --begin=soon "$busy" >/dev/null 2>"$TMP/err"
check "bad time: exit 2" test $? -eq 2
"$SPOOR" export -o "$TMP/none.json" "$TMP/no-such-trace" 2>"$TMP/err"
check "missing trace: exit 1, and no file made" test $? -eq 1 -a ! -e "$TMP/none.json"
"$SPOOR" export -o "$TMP/no/such/dir/x.json" "$busy" 2>"$TMP/err"
check "unwritable output: exit 1, named" test $? -eq 1 -a -n "$(grep "cannot write $TMP/no/such/dir/x.json" "$TMP/err")"
if [ -w /dev/full ]; then # a device is written as it is, never replaced or removed
	"$SPOOR" export -o /dev/full "$busy" 2>"$TMP/err"
	check "-o /dev/full: exit 1, said" test $? -eq 1 -a -n "$(grep -i "no space" "$TMP/err")"
	check "-o /dev/full: still the device" test -c /dev/full
	"$SPOOR" export "$busy" >/dev/full 2>"$TMP/err"
	check "standard output full: exit 1, said" test $? -eq 1 -a -n "$(grep -i "no space" "$TMP/err")"
fi
# a write that fails half way (a file size limit): the old file stays as it was, no
# temporary one left
mkdir "$TMP/keep" && echo old >"$TMP/keep/old.json"
(trap '' XFSZ && ulimit -f 64 && exec "$SPOOR" export -o "$TMP/keep/old.json" "$busy") 2>"$TMP/err"
check "failed half way: exit 1, said" test $? -eq 1 -a -n "$(grep -i "too large" "$TMP/err")"
check "failed half way: the old file kept, nothing else" \
	test "$(cat "$TMP/keep/old.json")" = old -a "$(ls "$TMP/keep")" = old.json

# a damaged trace: exported up to the damage, with the usual warning and exit 1
python3 "$SPOOR_TEST_DATA/gen-damaged.py" "$TMP/d" >/dev/null || exit 1
"$SPOOR" export -o "$TMP/damaged.json" "$TMP/d/after-end" 2>"$TMP/damaged.err"
check "damaged trace: exit 1" test $? -eq 1
check "damaged trace: the reader's warning and the damage said" \
	grep -q 'the trace is damaged: 1 stream(s).*the file covers the events before the damage' "$TMP/damaged.err"
check "damaged trace: the file is whole JSON, and says so" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (d["otherData"]["damaged_streams"] == 1 and len(d["traceEvents"]) > 100))' "$TMP/damaged.json"

mt=${SHARED_TRACES:-$here/../../../shared/traces}/lttng/many-threads
if [ -d "$mt" ]; then
	"$SPOOR" export -o "$TMP/mt.json" "$mt" 2>/dev/null
	"$SPOOR" sched --json "$mt" >"$TMP/mt-sched.json"
	check "many-threads: per thread, the states add up to sched's times" \
		chk sums "$TMP/mt.json" "$TMP/mt-sched.json"
	in_range many-threads-range "$mt" "$TMP/mt.json" 150000000 100000000 # 100 ms, 150 ms in
else
	echo "note: no LTTng trace at $mt: the traces of our own only"
fi
ros2=$(dirname "$mt")/ros2 # LTTng-UST: vpid, vtid and procname contexts
if [ -d "$ros2" ]; then
	"$SPOOR" export -o "$TMP/ros2.json" "$ros2" 2>/dev/null
	"$SPOOR" dump "$ros2" >"$TMP/ros2.dump"
	check "ros2 (LTTng-UST): an instant per event, with its fields" \
		chk instants "$TMP/ros2.json" "$TMP/ros2.dump"
fi
# function calls (gen-calls.py's traces): X events on each thread's calls row, nested
if [ -n "${CALLS_TREE:-}" ] && [ -n "${DL_PROVIDER:-}" ] && command -v nm >/dev/null; then
	cp "$CALLS_TREE" "$TMP/calls-tree"
	strip -s "$TMP/calls-tree" -o "$TMP/calls-tree-stripped"
	python3 "$SPOOR_TEST_DATA/gen-calls.py" --prog "$TMP/calls-tree" \
		--stripped "$TMP/calls-tree-stripped" --lib "$DL_PROVIDER" "$TMP/calls" ||
		fail "gen-calls.py"
	for t in calls-tree calls-midstart calls-lost; do
		"$SPOOR" export -o "$TMP/$t.json" "$TMP/calls/$t" 2>/dev/null
		check "$t: the calls, exact and nested" chk calls "$TMP/$t.json" "$TMP/calls/$t.flame"
	done
else
	echo "# skipped: the calls (CALLS_TREE, DL_PROVIDER or nm missing)"
fi
finish
