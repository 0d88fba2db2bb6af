#!/usr/bin/env bash
# script.sh [TRACE] [--update-doc] [--runs=N]
#
# Offline handler throughput: a handler that counts sched_switch events by a field
# (prev_comm), as a spoor Lua script (bench/count-by-field.lua, `spoor script`) and in
# babeltrace2's Python bindings (bench/count-by-field.py, python3-bt2), on the same LTTng
# kernel trace, one core (taskset -c 0), wall time; spoor best of N runs (5), Python best
# of 1. Both must give the same counts. The trace defaults to ../shared/traces/lttng/
# many-threads (240k events: the Python side takes seconds on it already); give
# /tmp/spoor-bench-lttng (bench/replicate-trace.sh) for a bigger one.
# With --update-doc the section between <!-- script:begin --> and <!-- script:end --> of
# docs/PERFORMANCE.md is replaced. Environment: SPOOR (default build/spoor).
. "$(dirname "$0")/common.sh"
section=script
trace_options "$@"
trace=${trace:-$top/../shared/traces/lttng/many-threads}
spoor=${SPOOR:-$top/build/spoor}
[ -x "$spoor" ] || die "no spoor binary at $spoor"
/usr/bin/python3 -c 'import bt2' 2>/dev/null || die "babeltrace2's Python bindings are missing (apt-get install python3-bt2)"
[ -d "$trace" ] || die "no trace at $trace"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

events=$("$spoor" stats --json "$trace" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
switches=$("$spoor" stats --json "$trace" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["by_name"].get("sched_switch", 0))' 2>/dev/null || echo "?")

# best wall time of a command, its output kept in $work/out.NAME
best() { # best NAME RUNS CMD...
	local name=$1 n=$2 b=
	shift 2
	for _ in $(seq "$n"); do
		local t0 t1
		t0=$(date +%s.%N)
		taskset -c 0 "$@" >"$work/out.$name"
		t1=$(date +%s.%N)
		b=$(echo "$t0 $t1 ${b:-1e9}" | awk '{t = $2 - $1; print (t < $3 ? t : $3)}')
	done
	echo "$b"
}
note "spoor script, $runs runs ..."
ts=$(best spoor "$runs" "$spoor" script "$here/count-by-field.lua" "$trace")
note "babeltrace2 Python, 1 run ..."
tp=$(best python 1 /usr/bin/python3 "$here/count-by-field.py" "$trace")
awk 'NF == 2 && $1 !~ /^@/ {print $2, $1}' "$work/out.spoor" | sort -k2 >"$work/s"
awk '{print $1, $2}' "$work/out.python" | sort -k2 >"$work/p"
same=no
cmp -s "$work/s" "$work/p" && same=yes

{
	echo "Trace \`$trace\`: $events events, $switches sched_switch; one core (taskset -c 0), wall"
	echo "seconds; spoor best of $runs runs, Python best of 1. $(date -u +%F), $(nproc) CPUs,"
	echo "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), babeltrace2 $(babeltrace2 --version | head -1 | awk '{print $2}')."
	echo
	echo "| handler: count sched_switch by prev_comm | s | events/s (whole trace) | ratio |"
	echo "|---|---|---|---|"
	awk -v t="$ts" -v n="$events" 'BEGIN { printf "| spoor script (LuaJIT) | %.3f | %.2f M | %.1fx |\n", t, n / t / 1e6, 0 }' |
		sed "s/| 0.0x |/| $(awk -v a="$tp" -v b="$ts" 'BEGIN { printf "%.1fx", a / b }') |/"
	awk -v t="$tp" -v n="$events" 'BEGIN { printf "| babeltrace2 Python bindings | %.3f | %.3f M | 1x |\n", t, n / t / 1e6 }'
	echo
	echo "Same counts from both: $same. Goal: at least 10x babeltrace2's Python: $(awk -v a="$tp" -v b="$ts" 'BEGIN { print (a / b >= 10 ? "**met**" : "not met") }')."
} >"$work/report"
cat "$work/report"
[ "$same" = yes ] || die "the two handlers disagree (see $work)"
if [ -n "$update_doc" ]; then
	update_section "$work/report" '## script: spoor script vs babeltrace2 Python'
fi
