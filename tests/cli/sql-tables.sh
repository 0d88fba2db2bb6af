#!/usr/bin/env bash
# spoor sql's events table and class tables (docs/sql.md "events", "A table per event
# class", "Push-down") through the command, against babeltrace2: the events counted by name
# (its text lines, and its counter's total), a class's values printed as it prints them;
# constraints whose values are no integer, or past the integers, answered as SQLite answers
# them on a copy of the rows (nothing pushed down); a trace without a clock; a damaged
# trace. Traces: gen_kernel.py's --busy, gen-ctf.py's, tests/data/traces/ust-types, and the
# shared LTTng traces when present.
. "$(dirname "$0")/lib.sh"
need babeltrace2 babeltrace2
sql() { "$SPOOR" sql --format=csv "$@"; }

busy=$(python3 "$SPOOR_TEST_DATA/gen_kernel.py" --busy "$TMP/busy") || exit 1
synth
traces=("$busy" "$TMP/synth/synth-le" "$TMP/synth/synth-large" "$TMP/synth/synth-noclock"
	"$SPOOR_TEST_DATA/traces/ust-types")
for t in many-threads cyg-profile ros2; do
	if [ -n "${SHARED_TRACES:-}" ] && [ -d "$SHARED_TRACES/lttng/$t" ]; then
		traces+=("$SHARED_TRACES/lttng/$t")
	else
		echo "note: no LTTng trace at '${SHARED_TRACES:-}/lttng/$t' (SHARED_TRACES)"
	fi
done

# babeltrace2's events per name, "NAME,COUNT" sorted by name
bt_by_name() {
	babeltrace2 "$1" 2>/dev/null | sed -E 's/^\[[^]]*\] \([^)]*\) //; s/: .*//; s/:$//; s/.* //' |
		LC_ALL=C sort | uniq -c | awk '{ print $2 "," $1 }'
}
for t in "${traces[@]}"; do
	name=$(basename "$t")
	bt_by_name "$t" >"$TMP/bt"
	sql "$t" -c "SELECT name, count(*) FROM events GROUP BY name" | tail -n +2 | tr -d '"' >"$TMP/ours"
	check "$name: events by name = babeltrace2's" cmp -s "$TMP/ours" "$TMP/bt"
	n=$(babeltrace2 "$t" -c sink.utils.counter | awk '/ Event messages$/ { n = $1 } END { print n }')
	check "$name: count(*) = babeltrace2's counter" test "$(sql "$t" -c "SELECT count(*) FROM events" | tail -n 1)" = "$n"
	# every class table holds its class's events (one query; each table reads the trace:
	# traces of up to 100 names)
	sql "$t" -c "SELECT name FROM sqlite_temp_master WHERE sql LIKE '%spoor_class%'" |
		tail -n +2 | tr -d '"' >"$TMP/tables"
	[ "$(wc -l <"$TMP/tables")" -le 100 ] || continue
	q=$(awk '{ gsub(/"/, "\"\""); printf "%sSELECT count(*) AS n FROM \"%s\"", (NR > 1 ? " UNION ALL " : ""), $0 }' "$TMP/tables")
	sum=$(sql "$t" -c "SELECT sum(n) FROM ($q)" | tail -n 1)
	check "$name: the class tables hold every event" test "$sum" = "$n"
done

# a class's values as babeltrace2 prints them (the busy trace's LTTng layout)
babeltrace2 "$busy" | grep -F ' sched_switch: ' | sed -E 's/.*\}, \{ /{ /' >"$TMP/bt"
sql "$busy" -c "SELECT printf('{ prev_comm = \"%s\", prev_tid = %d, prev_prio = %d, prev_state = %d, next_comm = \"%s\", next_tid = %d, next_prio = %d }', prev_comm, prev_tid, prev_prio, prev_state, next_comm, next_tid, next_prio) FROM sched_switch" |
	tail -n +2 | sed -E 's/^"(.*)"$/\1/; s/""/"/g' >"$TMP/ours"
check "busy: sched_switch's columns = babeltrace2's fields" cmp -s "$TMP/ours" "$TMP/bt"

# a switch happens in the task it switches out, a CPU's first switch too: its tid is its
# prev_tid (busy: no task context; lib/sql gave NULL before the CPU's first switch)
for t in "$busy" ${SHARED_TRACES:+"$SHARED_TRACES/lttng/many-threads"}; do
	[ -d "$t" ] || continue
	check "$(basename "$t"): every sched_switch's tid is its prev_tid" \
		test "$(sql "$t" -c "SELECT count(*) FROM sched_switch WHERE tid IS NOT prev_tid" | tail -n 1)" = 0
done

# LTTng's state dump comes some time into the trace: the events before it have the process
# it gives their thread, as the analysis tables do (events and syscalls agree)
python3 - "$SPOOR_TEST_DATA" "$TMP/late-dump" <<'PY' || exit 1
import sys
sys.path.insert(0, sys.argv[1])
import gen_kernel
comms = {0: "swapper/0", 42: "worker"}
gen_kernel.write(sys.argv[2], [
    gen_kernel.switch(100, 0, 0, 42, comms),
    (200, 0, "syscall_entry_read", {"fd": 3, "count": 10}),
    (300, 0, "syscall_exit_read", {"ret": 10}),
    (400, 0, "lttng_statedump_process_state", {"tid": 42, "pid": 40, "ppid": 1, "name": "worker"}),
    (500, 0, "lttng_statedump_end", {"dummy": 0})])
PY
check "late-dump: a thread's pid before the state dump is the dump's" \
	test "$(sql "$TMP/late-dump" -c "SELECT tid, pid, comm FROM events WHERE name = 'syscall_entry_read'" | tail -n 1)" = "42,40,worker"
check "late-dump: so with a time range, after another query of the database (the dump read once)" \
	test "$(sql "$TMP/late-dump" -c "SELECT count(pid) FROM events; SELECT pid FROM events WHERE name = 'syscall_entry_read' AND ts >= (SELECT ts FROM events WHERE name = 'syscall_entry_read')" | tail -n 1)" = 40
for t in "$TMP/late-dump" "$busy" ${SHARED_TRACES:+"$SHARED_TRACES/lttng/many-threads"}; do
	[ -d "$t" ] || continue
	check "$(basename "$t"): events and syscalls give a call the same pid" \
		test "$(sql "$t" -c "CREATE TEMP TABLE e AS SELECT ts, tid, pid FROM events WHERE name LIKE 'syscall_entry%';
			CREATE INDEX ei ON e(ts, tid);
			SELECT count(*) FROM syscalls s JOIN e ON e.ts = s.ts AND e.tid = s.tid WHERE s.pid IS NOT e.pid" | tail -n 1)" = 0
done

# a char array's text stops at its first NUL (its padding is not text), in its column and
# in the payload's JSON
check "synth-le: a char array's text up to its NUL" test "$(sql "$TMP/synth/synth-le" -c "SELECT a.a_text, length(a.a_text), json_extract(e.payload, '$.a_text'), a.a_text_full
	FROM \"synth:arrays\" a JOIN events e USING (ts, stream) LIMIT 1" | tail -n 1)" = "abc,3,abc,ABCDEFGH"

# a float in the payload's JSON reads as its REAL column prints: the fewest digits that read
# back (0.9975, not 0.99750000000000005)
ust=$SPOOR_TEST_DATA/traces/ust-types
num="substr(e.payload, instr(e.payload, '\"f64\":') + 6)"
sql "$ust" -c "SELECT f.f64, substr($num, 1, instr($num, ',') - 1) FROM \"spoor_fixture:floats\" f
	JOIN events e USING (ts, stream)" | tail -n +2 | tr -d '"' |
	awk -F, '{ sub(/\.0$/, "", $1) } $1 "" != $2 "" { bad++ } END { print NR, bad + 0 }' >"$TMP/floats"
check "ust-types: payload's floats read as their columns print them" test "$(awk '{ print ($1 > 10) $2 }' "$TMP/floats")" = 10

# push-down never changes a row: edge values, on events and on a class table, as SQLite
# answers them on a copy of the rows
edge="ts > 9223372036854775807|ts < -9223372036854775808|ts >= 1e300|ts <= -1e300|tid = 1.5
tid = 1000.0|cpu = '0'|cpu = 1|ts = 'x'|ts > NULL|ts < 1700000000123458039.5|tid = -1
tid IN (1001, '1002', 2.5)|ts BETWEEN 1700000000123600000 AND 1700000000123700000
ts > 1700000000123600000.25 AND ts <= 1700000000123700000.75"
while IFS= read -r -d '|' w || [ -n "$w" ]; do
	w=${w%$'\n'}
	for tab in events syscall_entry_read; do
		a=$(sql "$busy" -c "SELECT count(*), sum(ts % 1000), sum(tid) FROM $tab WHERE $w" 2>&1)
		b=$(sql "$busy" -c "WITH m AS MATERIALIZED (SELECT * FROM $tab)
			SELECT count(*), sum(ts % 1000), sum(tid) FROM m WHERE $w" 2>&1)
		check "$tab WHERE $w: as on a copy of its rows" test "$a" = "$b" -a -n "$a"
	done
done <<<"${edge//$'\n'/|}"
for w in "name = 'sched_switch'" "name = 'SCHED_SWITCH' COLLATE NOCASE" "name = 5" \
	"name IN ('sched_switch', 'irq_handler_entry', NULL)" "name = NULL" "name > 's'"; do
	a=$(sql "$busy" -c "SELECT name, count(*), sum(ts % 1000) FROM events WHERE $w GROUP BY name" 2>&1)
	b=$(sql "$busy" -c "WITH m AS MATERIALIZED (SELECT * FROM events)
		SELECT name, count(*), sum(ts % 1000) FROM m WHERE $w GROUP BY name" 2>&1)
	check "events WHERE $w: as on a copy of its rows" test "$a" = "$b" -a -n "$a"
done

# no clock: no times, and a time range holds nothing
noclock=$TMP/synth/synth-noclock
check "synth-noclock: ts and time are NULL" test "$(sql "$noclock" -c "SELECT count(*) FROM events WHERE ts IS NULL AND time IS NULL" | tail -n 1)" = "$(sql "$noclock" -c "SELECT count(*) FROM events" | tail -n 1)"
check "synth-noclock: a range holds nothing" test "$(sql "$noclock" -c "SELECT count(*) FROM events WHERE ts > -1e18" | tail -n 1)" = 0

# damage: a warning, the events before it, exit status 1
bad=$TMP/synth/bad-truncated
sql "$bad" -c "SELECT count(*) FROM events" >"$TMP/out" 2>"$TMP/err"
check "bad-truncated: exit status 1" test $? -eq 1
check "bad-truncated: the reader's warning" grep -q "warning:.*channel0_0" "$TMP/err"
check "bad-truncated: the events before the damage, as spoor stats counts them" \
	test "$(tail -n 1 "$TMP/out")" = "$("$SPOOR" stats "$bad" 2>/dev/null | awk '/^Events:/ { print $2 }')"
check "bad-truncated: the damaged event's payload is NULL" \
	test "$(sql "$bad" -c "SELECT count(*) FROM events WHERE payload IS NULL" 2>/dev/null | tail -n 1)" = 1
finish
