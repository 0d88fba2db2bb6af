#!/bin/bash
#
# sql.sh [TRACE] [--update-doc] [--runs=N]
#
# spoor sql on the LTTng-UST bench trace (default /tmp/spoor-bench, 4 M events, made by
# bench/make-ust-trace.sh when missing), side by side in one run with babeltrace2's counter
# and with the naive way: `spoor dump` turned into CSV (time, cpu, name, the fields' text),
# imported by the sqlite3 shell, then the same query; its time includes the dump and the
# import.
#
#   count     spoor sql TRACE -c "SELECT count(*) FROM events"
#             babeltrace2 TRACE -c sink.utils.counter
#             naive: spoor dump TRACE | CSV | sqlite3 (.import), SELECT count(*) FROM events
#   by name   spoor sql TRACE -c "SELECT name, count(*) FROM events GROUP BY name"
#             the same through SQLite's sorter (GROUP BY +name: the table does not group)
#             naive: the same query after the import
#
# Then push-down on the kernel trace /tmp/spoor-bench-lttng (bench/replicate-trace.sh, made
# when missing, 3.85 M events): the last 3.5% of it, with and without push-down (+ts), and
# with comm (whose thread model reads the part before the range first): seconds and bytes
# read, by build/bench-sql-io (ninja -C build bench-sql-io).
#
# Checked first: spoor sql's count equals babeltrace2's, and its counts by name the naive
# way's. Times: of N runs (--runs, default 5; the slow tools run once) the one with the least
# CPU time, its wall and CPU seconds; rates on CPU time, the naive way's ratio on wall time
# (end to end: its three processes share the two cores).
# Memory: max RSS (/usr/bin/time), and the peak of anonymous memory (RssAnon, sampled every
# 10 ms): the reader maps the trace's files, so their pages count in RSS as they are read.
# With --update-doc the section between <!-- sql:begin --> and <!-- sql:end --> in
# docs/PERFORMANCE.md is replaced. Environment: SPOOR (default build/spoor).
. "$(dirname "$0")/common.sh"
section=sql
trace_options "$@"
trace=${trace:-/tmp/spoor-bench}
spoor=${SPOOR:-$top/build/spoor}
io=$top/build/bench-sql-io
[ -x "$spoor" ] || die "no spoor binary at $spoor (ninja -C build)"
[ -x "$io" ] || die "no $io (ninja -C build bench-sql-io)"
for t in babeltrace2 sqlite3 awk; do
	command -v $t >/dev/null || die "'$t' not found"
done
[ -f "$trace/metadata" ] || "$here/make-ust-trace.sh" "$trace" >&2
ktrace=/tmp/spoor-bench-lttng
trace_was=$trace
trace=$ktrace replicated_trace 16
trace=$trace_was
work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-sql-bench.XXXXXX")
trap 'end_work $? "${BENCH_KEEP:-}"' EXIT
cp "$spoor" "$work/spoor" # others may rebuild it meanwhile
cp "$io" "$work/bench-sql-io"
spoor=$work/spoor
io=$work/bench-sql-io

# the naive way: the dump as CSV into sqlite3, then the query ($1)
naive() {
	"$spoor" dump "$trace" | awk '{
		name = $3; sub(/:$/, "", name); cpu = $2; sub(/^cpu/, "", cpu)
		rest = $0; sub(/^[^ ]+ [^ ]+ [^ ]+ ?/, "", rest); gsub(/"/, "\"\"", rest)
		printf "%s,%s,\"%s\",\"%s\"\n", $1, cpu, name, rest }' >"$work/fifo.csv" &
	sqlite3 -csv :memory: "CREATE TABLE events(time TEXT, cpu INTEGER, name TEXT, fields TEXT)" \
		".import --csv $work/fifo.csv events" "$1"
	wait
}
rm -f "$work/fifo.csv"
mkfifo "$work/fifo.csv"

# the run of N with the least CPU time (user + system; the machine is shared, so wall times
# wander): "WALL CPU"; its output in $work/out
best() {
	local n=$1 w u y b= bw=
	shift
	for ((i = 0; i < n; i++)); do
		read -r w u y < <({ TIMEFORMAT='%R %U %S'; time "$@" >"$work/out" 2>"$work/err"; } 2>&1)
		u=$(awk -v u="$u" -v y="$y" 'BEGIN { printf "%.3f", u + y }')
		if [ -z "$b" ] || awk -v a="$u" -v b="$b" 'BEGIN { exit !(a < b) }'; then
			b=$u bw=$w
		fi
	done
	echo "$bw $b"
}

# max RSS (KiB, /usr/bin/time) and the peak RssAnon (KiB, sampled) of one run
memory() {
	/usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1 &
	local pid=$! peak=0 a child
	while kill -0 $pid 2>/dev/null; do
		child=$(pgrep -P $pid | head -n 1 || true)
		a=$(awk '/^RssAnon:/ { print $2 }' "/proc/${child:-x}/status" 2>/dev/null || true)
		[ -z "$a" ] || [ "$a" -le "$peak" ] || peak=$a
		sleep 0.01
	done
	wait $pid
	echo "$(cat "$work/rss") $peak"
}

q_count='SELECT count(*) FROM events'
q_name='SELECT name, count(*) FROM events GROUP BY name'
q_sorter='SELECT name, count(*) FROM events GROUP BY +name'

note "checking the counts ..."
events=$(babeltrace2 "$trace" -c sink.utils.counter | awk '/ Event messages$/ { n = $1 } END { print n }')
ours=$("$spoor" sql --format=csv "$trace" -c "$q_count" | tail -n 1)
[ "$ours" = "$events" ] || die "spoor sql counts $ours events, babeltrace2 $events"
"$spoor" sql --format=csv "$trace" -c "$q_name" | tail -n +2 | tr -d '"' >"$work/by-name"
naive "$q_name" | tr -d '"' | sort >"$work/by-name-naive"
cmp -s "$work/by-name" "$work/by-name-naive" || die "counts by name differ from the naive way's"
note "$events events; timing ($runs runs) ..."

read -r w_count t_count < <(best "$runs" "$spoor" sql "$trace" -c "$q_count")
read -r w_name t_name < <(best "$runs" "$spoor" sql "$trace" -c "$q_name")
read -r w_sorter t_sorter < <(best 1 "$spoor" sql "$trace" -c "$q_sorter")
read -r w_bt t_bt < <(best 1 babeltrace2 "$trace" -c sink.utils.counter)
read -r w_naive_count t_naive_count < <(best 1 naive "$q_count")
read -r w_naive_name t_naive_name < <(best 1 naive "$q_name")
read -r rss_count anon_count < <(memory "$spoor" sql "$trace" -c "$q_count")
read -r rss_name anon_name < <(memory "$spoor" sql "$trace" -c "$q_name")
read -r rss_dump anon_dump < <(memory "$spoor" dump "$trace")

note "push-down on $ktrace ..."
read -r first last < <("$spoor" sql --format=csv "$ktrace" -c "SELECT min(ts), max(ts) FROM events" |
	tail -n 1 | tr ',' ' ')
a=$(awk -v f="$first" -v l="$last" 'BEGIN { printf "%.0f", f + (l - f) * 0.965 }')
range="ts BETWEEN $a AND $last"
kevents=$("$spoor" sql --format=csv "$ktrace" -c "SELECT count(*) FROM events" | tail -n 1)
pushed() { # QUERY: CPU seconds and MiB read (the run of the least CPU time)
	local q=$1 b= line
	for ((i = 0; i < runs; i++)); do
		line=$("$io" "$q" "$ktrace")
		set -- $line
		if [ -z "$b" ] || awk -v a="$6" -v b="$b" 'BEGIN { exit !(a < b) }'; then
			b=$6 mib=$(awk -v x="$8" -v y="${10}" 'BEGIN { printf "%.1f", (x - y) / 1048576 }')
		fi
	done
	printf "%.3f %s\n" "$b" "$mib"
}
read -r k_push k_push_mib < <(pushed "SELECT count(*) FROM events WHERE $range")
read -r k_full k_full_mib < <(pushed "SELECT count(*) FROM events WHERE +$range")
read -r k_comm k_comm_mib < <(pushed "SELECT count(comm) FROM events WHERE $range")
read -r k_comm_full k_comm_full_mib < <(pushed "SELECT count(comm) FROM events WHERE +$range")
in_range=$("$spoor" sql --format=csv "$ktrace" -c "SELECT count(*) FROM events WHERE $range" | tail -n 1)

report=$work/report.md
rate() { awk -v n="$1" -v t="$2" 'BEGIN { r = n / t; printf (r >= 1e6 ? "%.1f M" : "%.0f k"), (r >= 1e6 ? r / 1e6 : r / 1e3) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1fx", a / b }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
goal() { awk "BEGIN { if ($1) print \"met\"; else print \"not met\" }"; }
commas() { sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta' <<<"$1"; }
{
	echo "Trace \`$trace\`: $(commas "$events") events (bench/make-ust-trace.sh), $(du -sm "$trace" | cut -f1) MiB."
	echo "Measured $(date -u '+%Y-%m-%d %H:%M') UTC with spoor $(git -C "$top" rev-parse --short HEAD), SQLite $(sqlite3 --version | cut -d' ' -f1), babeltrace2 $(babeltrace2 --version | awk 'NR == 1 { print $2 }');"
	echo "The run with the least CPU time (user + system) of $runs (babeltrace2, the sorter and the naive way: one run); rates on CPU time (the machine is shared: wall times wander); $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "Checked first: spoor sql's count equals babeltrace2's counter; its counts by name equal the naive way's."
	echo
	echo "| task | command | wall s | CPU s | rows/s | goal |"
	echo "|---|---|---:|---:|---:|---|"
	echo "| count | \`spoor sql TRACE -c \"$q_count\"\` | $w_count | $t_count | $(rate "$events" "$t_count") | ≥ 20 M rows/s: $(goal "$events / $t_count >= 20e6") |"
	echo "| count | \`babeltrace2 TRACE -c sink.utils.counter\` | $w_bt | $t_bt | $(rate "$events" "$t_bt") | spoor sql $(ratio "$t_bt" "$t_count") faster |"
	echo "| count | naive: \`spoor dump\` → CSV → \`sqlite3\` \`.import\`, then the query | $w_naive_count | $t_naive_count | $(rate "$events" "$t_naive_count") | spoor sql $(ratio "$w_naive_count" "$w_count") faster end to end (wall; goal 10x: $(goal "$w_naive_count / $w_count >= 10")) |"
	echo "| by name | \`spoor sql TRACE -c \"$q_name\"\` | $w_name | $t_name | $(rate "$events" "$t_name") | ≥ 10 M rows/s: $(goal "$events / $t_name >= 10e6") |"
	echo "| by name | the same through SQLite's sorter (\`GROUP BY +name\`) | $w_sorter | $t_sorter | $(rate "$events" "$t_sorter") | |"
	echo "| by name | naive, as above | $w_naive_name | $t_naive_name | $(rate "$events" "$t_naive_name") | spoor sql $(ratio "$w_naive_name" "$w_name") faster end to end (wall; goal 10x: $(goal "$w_naive_name / $w_name >= 10")) |"
	echo
	echo "Memory, MiB: max RSS (the mapped trace's pages count as they are read) / peak anonymous:"
	echo "count $(mib "$rss_count") / $(mib "$anon_count"), by name $(mib "$rss_name") / $(mib "$anon_name");"
	echo "\`spoor dump\` of the same trace $(mib "$rss_dump") / $(mib "$anon_dump")."
	echo
	echo "Push-down, on \`$ktrace\` ($(commas "$kevents") events; the range: its last 3.5%, $(commas "$in_range") events), by bench-sql-io:"
	echo
	echo "| query | CPU s | MiB read |"
	echo "|---|---:|---:|"
	echo "| \`SELECT count(*) FROM events WHERE ts BETWEEN a AND b\` | $k_push | $k_push_mib |"
	echo "| the same with \`+ts\` (no push-down) | $k_full | $k_full_mib |"
	echo "| \`SELECT count(comm) ...\` (the thread model reads the part before the range first) | $k_comm | $k_comm_mib |"
	echo "| the same with \`+ts\` | $k_comm_full | $k_comm_full_mib |"
} >"$report"
cat "$report"
if [ -n "$update_doc" ]; then
	update_section "$report" "## SQL: spoor sql vs babeltrace2 and an import into sqlite3"
fi
