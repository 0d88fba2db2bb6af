#!/usr/bin/env bash
# spoor sql's analysis tables (docs/sql.md, "The models' and analyses' tables") against the
# analyses' own --json on the same trace (tests/cli/sql-analyses-check.py: per group, count,
# sum, min, max, percentiles), and docs/sql.md's ten questions, run as written and checked
# where an analysis answers them. Traces: gen_kernel.py's --analyses (every table) and
# --busy, and ../shared/traces/lttng/many-threads when present.
. "$(dirname "$0")/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
chk() { python3 "$here/sql-analyses-check.py" "$@"; }

analyses=$(python3 "$SPOOR_TEST_DATA/gen_kernel.py" --analyses "$TMP/analyses") || exit 1
busy=$(python3 "$SPOOR_TEST_DATA/gen_kernel.py" --busy "$TMP/busy") || exit 1
traces=("$analyses" "$busy")
shared=${SHARED_TRACES:-}/lttng/many-threads
if [ -n "${SHARED_TRACES:-}" ] && [ -d "$shared" ]; then
	traces+=("$shared")
else
	echo "note: no LTTng trace at '$shared' (SHARED_TRACES): the traces of our own only"
fi
for t in "${traces[@]}"; do
	name=$(basename "$t")
	check "$name: syscalls = spoor syscalls --json" chk syscalls "$SPOOR" "$t"
	check "$name: irqs = spoor irq --json (and --all-cpus)" chk irq "$SPOOR" "$t"
	check "$name: sched_slices, thread_states, threads = spoor sched --json" \
		chk sched "$SPOOR" "$t"
	check "$name: disk_requests = spoor disk --json" chk disk "$SPOOR" "$t"
done
check "docs/sql.md's ten questions: each answers, as the analyses do" \
	chk questions "$SPOOR" "$analyses" "$here/../../docs/sql.md"

# bad input: a clear error, exit 1 (SQLite's message), never a crash
"$SPOOR" sql "$analyses" -c "SELECT nope FROM syscalls" >/dev/null 2>"$TMP/err"
check "an unknown column: exit 1" test $? -eq 1
check "an unknown column: SQLite's message" grep -q "no such column: nope" "$TMP/err"
"$SPOOR" sql "$analyses" -c "DELETE FROM syscalls" >/dev/null 2>"$TMP/err"
check "the tables are read-only: exit 1" test $? -eq 1
# constraints whose values are no integer, or past the integers: each as SQLite answers it
# on the table's rows copied first (a MATERIALIZED CTE: nothing pushed down, the columns'
# affinity kept), with no error
edge="ts > 9223372036854775807|ts < -9223372036854775808|ts >= 1e300|ts <= -1e300|tid = 1.5
tid = 100.0|cpu = '0'|ts = 'x'|ts > NULL|ts < 1700000000123458039.5|tid = -1"
while IFS= read -r -d '|' w || [ -n "$w" ]; do
	w=${w%$'\n'}
	for t in syscalls irqs sched_slices; do
		[ "$t" = syscalls ] && [[ $w == cpu* ]] && continue
		a=$("$SPOOR" sql --format=csv "$analyses" -c "SELECT count(*), sum(dur) FROM $t WHERE $w" 2>&1)
		b=$("$SPOOR" sql --format=csv "$analyses" -c "WITH m AS MATERIALIZED (SELECT * FROM $t)
			SELECT count(*), sum(dur) FROM m WHERE $w" 2>&1)
		check "$t WHERE $w: as on a copy of its rows" test "$a" = "$b" -a -n "$a"
	done
done <<<"${edge//$'\n'/|}"
finish
