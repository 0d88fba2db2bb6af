#!/bin/bash
#
# analyses.sh [TRACE] [--update-doc] [--runs=N]
#
# spoor's analyses against lttng-analyses on the same LTTng kernel trace, on one core
# (taskset -c 0):
#
#   spoor irq --all-cpus   vs  lttng-irqstats
#   spoor sched            vs  lttng-schedstats
#   spoor syscalls         vs  lttng-syscallstats
#   spoor disk             vs  lttng-iolatencystats
#
# each spoor analysis only if `spoor help NAME` knows it. TRACE defaults to
# /tmp/spoor-bench-lttng, made when missing by bench/replicate-trace.sh from
# ../shared/traces/lttng/many-threads (16 copies one after the other: 3.85 M events; see that
# script for what is copied and what changes). lttng-analyses cannot read those copies as
# one timeline (babeltrace 1 averages the clock offsets of the traces it opens, so the copies
# overlap, and lttng-irqstats then fails), so it runs on the first copy alone, TRACE/c00
# (many-threads as it is, softirqs renamed: 240,644 events), and the ratio is of the rates,
# events per second, each tool on the trace it can read. It runs with --skip-validation
# (otherwise it first prints the whole trace with babeltrace to look for lost events) and
# --no-progress; MALLOC_PERTURB_ is removed from its environment (babeltrace 1's Python
# bindings print nothing under it).
#
# Before timing, the IRQ and softirq counts of `spoor irq --all-cpus` are checked against
# lttng-irqstats's on TRACE/c00 (from the timed run's output). Events are counted by
# babeltrace2's counter sink. Times, wall clock: for spoor, N rounds (5) of one run of each
# analysis, BENCH_PAUSE seconds (1) between rounds, the best and the median of each and the
# share of its runs at 20 M events/s or more; for lttng-analyses the best of
# BENCH_LTTNG_RUNS (1); rates are events of the whole trace per second, the goals checked
# on the best.
# With --update-doc the section between <!-- analyses:begin --> and <!-- analyses:end -->
# in docs/PERFORMANCE.md is replaced. Environment: SPOOR (default build/spoor),
# BENCH_ANALYSES (which to run, default "irq sched syscalls disk").
. "$(dirname "$0")/common.sh"
section=analyses
lruns=${BENCH_LTTNG_RUNS:-1}
trace_options "$@"
trace=${trace:-/tmp/spoor-bench-lttng}
spoor=${SPOOR:-$top/build/spoor}
[ -x "$spoor" ] || die "no spoor binary at $spoor"
for t in babeltrace2 lttng-irqstats taskset; do
	command -v $t >/dev/null || die "'$t' not found"
done
replicated_trace 16
[ -z "$update_doc" ] || need_section
work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-analyses-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$spoor" "$work/spoor" # others may rebuild it meanwhile
spoor=$work/spoor

events=$(babeltrace2 "$trace" -c sink.utils.counter | awk '/ Event messages$/ { n = $1 } END { print n }')
[ "${events:-0}" -gt 0 ] || die "babeltrace2 counted no events in $trace"
note "$events events in $trace"
ltrace=$trace/c00
levents=$(babeltrace2 "$ltrace" -c sink.utils.counter | awk '/ Event messages$/ { n = $1 } END { print n }')
[ "${levents:-0}" -gt 0 ] || die "babeltrace2 counted no events in $ltrace"

# best WALL USER of N runs of a command (stdout to $work/out)
best() {
	local n=$1 w u b= bu=
	shift
	for ((i = 0; i < n; i++)); do
		read -r w u < <({ TIMEFORMAT='%R %U'; time "$@" >"$work/out" 2>"$work/err"; } 2>&1)
		if [ -z "$b" ] || awk -v a="$w" -v b="$b" 'BEGIN { exit !(a < b) }'; then
			b=$w bu=$u
		fi
	done
	echo "$b $bu"
}
lttng() { env -u MALLOC_PERTURB_ taskset -c 0 "$@" --skip-validation --no-progress --no-color "$ltrace"; }

# spoor's runs, spread: N rounds of one run of each analysis, PAUSE seconds between rounds,
# so that the best and the median sample the host over a minute rather than one busy second
# (other guests slow this VM's user time by up to half for tens of seconds: see
# docs/PERFORMANCE.md). Wall seconds per run into $work/times-NAME.
spread() {
	local names=("$@") r name args w
	for ((r = 0; r < runs; r++)); do
		for name in "${names[@]}"; do
			args=${spoor_args[$name]}
			read -r w < <({ TIMEFORMAT='%R'; time taskset -c 0 "$spoor" $args "$trace" \
				>/dev/null 2>"$work/err"; } 2>&1)
			echo "$w" >>"$work/times-$name"
		done
		sleep "$pause"
	done
}
# best and median of a run-time file, and the share of its runs (%) at 20 M events/s or more
best_median() {
	sort -n "$1" | awk -v ev="$events" '{ t[NR] = $1; k += ev / $1 >= 20e6 }
		END { print t[1], (NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2), 100 * k / NR }'
}

# name | spoor args | lttng-analyses command
rows=("irq|irq --all-cpus|lttng-irqstats" "sched|sched|lttng-schedstats"
	"syscalls|syscalls|lttng-syscallstats" "disk|disk|lttng-iolatencystats")
pause=${BENCH_PAUSE:-1}
declare -A spoor_args
timed=()
for row in "${rows[@]}"; do
	IFS='|' read -r name args tool <<<"$row"
	case " ${BENCH_ANALYSES:-irq sched syscalls disk} " in *" $name "*) ;; *) continue ;; esac
	"$spoor" $args "$trace" >/dev/null 2>&1 || continue # the report says why
	spoor_args[$name]=$args
	timed+=("$name")
done
note "spoor ${timed[*]}: $runs rounds, ${pause}s apart ..."
[ ${#timed[@]} -eq 0 ] || spread "${timed[@]}"

report=$work/report.md
{
	echo "Trace \`$trace\`: $(sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta' <<<"$events") events"
	echo "(bench/replicate-trace.sh: 16 time-shifted copies of lttng/many-threads, LTTng 2.8, 8 CPUs);"
	echo "lttng-analyses on its first copy, \`$ltrace\`, $levents events (it cannot merge the copies)."
	echo "One core (taskset -c 0); spoor: $runs rounds of one run of each analysis, ${pause} s apart,"
	echo "best, median and the share of runs at 20 M events/s or more; the goals are checked on the best;"
	echo "lttng-analyses $(lttng-irqstats -V 2>&1 | awk '{ print $NF }') best of $lruns;"
	echo "wall seconds; rates are the trace's events per second. $(date -u +%Y-%m-%d), $(nproc) CPUs,"
	echo "$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)."
	echo
	echo "| analysis | spoor s | spoor M ev/s | median M ev/s | runs at 20+ | lttng-analyses | its s | its k ev/s | ratio | 20 M ev/s goal | 50x goal |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
} >"$report"
for row in "${rows[@]}"; do
	IFS='|' read -r name args tool <<<"$row"
	case " ${BENCH_ANALYSES:-irq sched syscalls disk} " in *" $name "*) ;; *) continue ;; esac
	if ! "$spoor" help "$name" >/dev/null 2>&1; then
		note "spoor $name: not there, skipped"
		continue
	fi
	if [ -z "${spoor_args[$name]+set}" ]; then
		"$spoor" $args "$trace" >/dev/null 2>"$work/err" || true
		note "spoor $name fails on this trace: $(head -n 1 "$work/err")"
		echo "| $name | - | - | - | - | $tool | - | - | - | (spoor $name: the trace lacks its events) | - |" >>"$report"
		continue
	fi
	read -r sw sm share < <(best_median "$work/times-$name")
	lw=- lu=-
	if command -v "$tool" >/dev/null; then
		note "$tool (slow) ..."
		read -r lw lu < <(best "$lruns" lttng "$tool")
		cp "$work/out" "$work/lttng-$name.out"
	fi
	awk -v n="$name" -v ev="$events" -v lev="$levents" -v sw="$sw" -v sm="$sm" -v share="$share" \
		-v lw="$lw" -v tool="$tool" 'BEGIN {
		r = ev / sw / 1e6
		if (lw == "-") { lr = "-"; ratio = "-"; g2 = "-" }
		else { x = (ev / sw) / (lev / lw)
		       lr = sprintf("%.0f", lev / lw / 1e3); ratio = sprintf("%.0fx", x)
		       g2 = x >= 50 ? "met" : "not met" }
		printf "| %s | %.3f | %.2f | %.2f | %.0f%% | %s | %s | %s | %s | %s | %s |\n", n, sw, r,
			ev / sm / 1e6, share, tool, lw, lr, ratio,
			(n == "disk" ? "(none)" : (r >= 20 ? "met" : "not met")), g2
	}' >>"$report"
done

# the counts agree (irq): spoor's all-CPU lines against lttng-irqstats's tables
if [ -f "$work/lttng-irq.out" ]; then
	mine=$("$spoor" irq --all-cpus --json "$ltrace" | python3 -c '
import json, sys
for x in json.load(sys.stdin)["lines"]:
    print(x["kind"], x["irq"] if x["kind"] == "irq" else x["vec"], x["count"])' | sort)
	theirs=$(awk '/^Hard IRQ/ { k = "irq" } /^Soft IRQ/ { k = "softirq" }
		k && match($0, /^[0-9]+: +<[^>]*> +[0-9]+/) { split($0, a, /[: <>]+/); n = split(substr($0, RSTART, RLENGTH), b, / +/); print k, a[1], b[n] }' \
		"$work/lttng-irq.out" | sort)
	if [ "$mine" = "$theirs" ]; then
		echo -e "\nspoor irq --all-cpus and lttng-irqstats count the same runs per IRQ and vector ($(wc -l <<<"$mine") lines)." >>"$report"
	else
		echo -e "\nWARNING: spoor irq and lttng-irqstats counts differ:\n\n\`\`\`\n$(diff <(echo "$mine") <(echo "$theirs") || true)\n\`\`\`" >>"$report"
	fi
fi
cat "$report"
if [ -n "$update_doc" ]; then
	update_section "$report"
fi
