#!/bin/bash
#
# reader.sh [TRACE] [--update-doc] [--section=NAME] [--runs=N]  (TRACE: a trace or a folder of traces)
#
# Side-by-side benchmark of spoor's CTF reader against babeltrace2 on one trace
# (default /tmp/spoor-bench, made by bench/make-ust-trace.sh):
#
#   print:  babeltrace2 TRACE                       > /dev/null
#           spoor dump --format=babeltrace TRACE    > /dev/null
#           spoor dump TRACE                        > /dev/null
#   count:  babeltrace2 TRACE -c sink.utils.counter > /dev/null
#           spoor stats TRACE                       > /dev/null
#
# Before timing it checks that
#   - `spoor dump --format=babeltrace` prints what `babeltrace2 --clock-gmt`
#     prints, line by line.  The one accepted difference is babeltrace2
#     2.0.4's bug of showing an earlier string where an empty string was
#     recorded: a differing line passes only if replacing some string values
#     of babeltrace2's line with "" gives spoor's line;
#   - `spoor stats` counts as many events as babeltrace2's counter.
#
# Timing: hyperfine (warm-up run, then at least N runs, --export-json), or,
# without hyperfine, a best-of-N loop.  The Markdown result goes to stdout;
# progress and hyperfine's own report go to stderr.  With --update-doc the
# section between <!-- NAME:begin --> and <!-- NAME:end --> in
# docs/PERFORMANCE.md is replaced (NAME defaults to reader-bench).
#
# Environment: SPOOR (spoor binary, default build/spoor), BENCH_RUNS (N, 5),
# BENCH_KEEP (keep the work directory with the JSON exports), BENCH_NO_HYPERFINE
# (use the best-of-N loop even if hyperfine is installed).
. "$(dirname "$0")/common.sh"

trace=
update_doc=
section=reader-bench
runs=${BENCH_RUNS:-5}
for arg; do
	case $arg in
	--update-doc) update_doc=1 ;;
	--section=*) section=${arg#*=} ;;
	--runs=*) runs=${arg#*=} ;;
	-h | --help) usage ;;
	-*) die "unknown option '$arg'" ;;
	*)
		[ -z "$trace" ] || die "only one TRACE"
		trace=$arg
		;;
	esac
done
trace=${trace:-/tmp/spoor-bench}
case $runs in '' | *[!0-9]*) die "--runs must be a number" ;; esac
[ "$runs" -ge 3 ] || die "--runs must be at least 3"
case $section in '' | *[!A-Za-z0-9_.-]*) die "bad --section name '$section'" ;; esac

spoor=${SPOOR:-$top/build/spoor}
[ -x "$spoor" ] || die "no spoor binary at $spoor (cd $top && ninja -C build)"
command -v babeltrace2 >/dev/null 2>&1 || die "'babeltrace2' not found (apt-get install -y babeltrace2)"
# a trace, or a folder of traces (bench/replicate-trace.sh's copies)
[ -n "$(find "$trace" -name metadata -type f -print -quit 2>/dev/null)" ] ||
	die "no CTF trace in '$trace' (make one with bench/make-ust-trace.sh $trace)"
[ -z "$update_doc" ] || need_section

work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-reader-bench.XXXXXX")
if [ -n "${BENCH_KEEP:-}" ]; then
	trap 'note "kept $work"' EXIT
else
	trap 'rm -rf "$work"' EXIT
fi

q() { printf '%q' "$1"; }
# 1234567 -> 1,234,567
num() { sed ':a; s/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/; ta' <<<"$1"; }
# Other people may rebuild build/spoor while this runs: use a private copy,
# so that every check and timing runs the same binary.
cp "$spoor" "$work/spoor"
spoor=$work/spoor
qt=$(q "$trace")
qs=$(q "$spoor")

# ---- 1. same output as babeltrace2 -----------------------------------------
note "checking 'spoor dump --format=babeltrace' against 'babeltrace2 --clock-gmt' ..."
# Both commands feed awk through pipes (no multi-GB temporary files); their
# exit codes go to files.
bt_cmd="babeltrace2 --clock-gmt $qt 2>$(q "$work/bt.err"); echo \$? >$(q "$work/bt.rc")"
sp_cmd="$qs dump --format=babeltrace $qt 2>$(q "$work/sp.err"); echo \$? >$(q "$work/sp.rc")"
check=$(BT="$bt_cmd" SP="$sp_cmd" awk '
# Splits line s into text segments T[0..n] and string literals S[1..n]
# (without the quotes); returns n.
function split_line(s, T, S,    n, p, m) {
	n = 0
	for (;;) {
		p = index(s, "\"")
		if (p == 0)
			break
		T[n] = substr(s, 1, p - 1)
		s = substr(s, p)
		if (match(s, /^"([^"\\]|\\.)*"/))
			m = RLENGTH
		else
			m = length(s) + 1   # unterminated: rest of the line
		S[++n] = substr(s, 2, m - 2)
		s = substr(s, m + 1)
	}
	T[n] = s
	return n
}
# 1 if replacing some string values of bt with "" gives sp
function empty_string_bug(bt, sp,    n, k, BT, BS, ST, SS) {
	n = split_line(bt, BT, BS)
	if (split_line(sp, ST, SS) != n)
		return 0
	for (k = 0; k <= n; k++)
		if (BT[k] != ST[k])
			return 0
	for (k = 1; k <= n; k++)
		if (BS[k] != SS[k] && SS[k] != "")
			return 0
	return 1
}
BEGIN {
	bt = ENVIRON["BT"]; sp = ENVIRON["SP"]
	lines = same = bug = bad = 0
	for (;;) {
		rb = (bt | getline a)
		rs = (sp | getline b)
		if (rb <= 0 || rs <= 0)
			break
		lines++
		if (a == b)
			same++
		else if (empty_string_bug(a, b))
			bug++
		else if (++bad <= 3)
			printf "line %d differs:\n  babeltrace2: %s\n  spoor:       %s\n", lines, a, b > "/dev/stderr"
	}
	if (rb > 0 || rs > 0) {
		printf "%s ends first, after %d lines\n", (rb > 0 ? "spoor" : "babeltrace2"), lines > "/dev/stderr"
		bad++
	}
	close(bt); close(sp)
	print lines, same, bug, bad
}')
read -r lines same bug bad <<<"$check"
[ "$(cat "$work/sp.rc")" = 0 ] || { cat "$work/sp.err" >&2; die "spoor dump --format=babeltrace $trace failed"; }
[ "$bad" = 0 ] || die "spoor dump --format=babeltrace differs from babeltrace2 on $bad of $lines lines"
[ "$(cat "$work/bt.rc")" = 0 ] || { cat "$work/bt.err" >&2; die "babeltrace2 --clock-gmt $trace failed"; }
[ "$lines" -gt 0 ] || die "babeltrace2 prints no events for $trace"
bt_warnings=$(grep -c '^WARNING' "$work/bt.err" || true)
note "output OK: $lines lines, $same identical, $bug differ only by babeltrace2's empty-string bug"

# ---- 2. same event count ----------------------------------------------------
bt_count=$(babeltrace2 "$trace" -c sink.utils.counter -p step=+0 2>/dev/null |
	awk '/ Event messages$/ { n = $1 } END { print n }')
sp_count=$("$spoor" stats --json "$trace" | sed -n 's/^{"events": \([0-9]*\),.*/\1/p')
[ -n "$bt_count" ] || die "cannot read babeltrace2's counter output"
[ -n "$sp_count" ] || die "cannot read the event total of 'spoor stats --json'"
[ "$sp_count" = "$bt_count" ] || die "spoor stats counts $sp_count events, babeltrace2's counter $bt_count"
[ "$bt_count" = "$lines" ] || die "babeltrace2 prints $lines lines but counts $bt_count events"
events=$bt_count
note "count OK: $events events"

# ---- 3. timing ------------------------------------------------------------
names=("babeltrace2" "spoor dump --format=babeltrace" "spoor dump"
	"babeltrace2 -c sink.utils.counter" "spoor stats")
cmds=("babeltrace2 $qt > /dev/null"
	"$qs dump --format=babeltrace $qt > /dev/null"
	"$qs dump $qt > /dev/null"
	"babeltrace2 $qt -c sink.utils.counter > /dev/null"
	"$qs stats $qt > /dev/null")
shown=("babeltrace2 TRACE" "spoor dump --format=babeltrace TRACE" "spoor dump TRACE"
	"babeltrace2 TRACE -c sink.utils.counter" "spoor stats TRACE")
declare -a secs dev cpu
load_before=$(cut -d' ' -f1 /proc/loadavg)
awk -v l="$load_before" 'BEGIN { exit !(l > 0.5) }' &&
	note "warning: load average is $load_before: other processes compete for the CPUs, timings will be noisy"
if [ -z "${BENCH_NO_HYPERFINE:-}" ] && command -v hyperfine >/dev/null 2>&1 &&
	command -v jq >/dev/null 2>&1; then
	method="hyperfine $(hyperfine --version | awk '{ print $2 }'), 1 warm-up run then at least $runs runs each; wall seconds: mean ± standard deviation; CPU: mean user + system"
	hf=(hyperfine --style basic --warmup 1 --min-runs "$runs" --export-json "$work/hyperfine.json")
	for i in "${!cmds[@]}"; do
		hf+=(-n "${names[$i]}" "${cmds[$i]}")
	done
	note "timing: ${hf[*]}"
	"${hf[@]}" >&2
	i=0
	while IFS=$'\t' read -r mean sd c; do
		secs[i]=$mean dev[i]=$sd cpu[i]=$c
		i=$((i + 1))
	done < <(jq -r '.results[] | [.mean, .stddev, .user + .system] | @tsv' "$work/hyperfine.json")
	[ "$i" = "${#cmds[@]}" ] || die "unexpected hyperfine JSON"
else
	method="best of $runs runs after 1 warm-up run (hyperfine or jq missing); CPU: user + system of that run"
	for i in "${!cmds[@]}"; do
		note "timing: ${cmds[$i]}"
		best='' bestcpu=''
		for r in $(seq 0 "$runs"); do
			t=$({ TIMEFORMAT='%R %U %S'; time bash -c "${cmds[$i]}" 2>/dev/null; } 2>&1) ||
				die "'${cmds[$i]}' failed"
			[ "$r" = 0 ] && continue # warm-up
			read -r best bestcpu < <(awk -v t="$t" -v best="$best" -v bc="$bestcpu" 'BEGIN {
				split(t, f, " ")
				if (best == "" || f[1] < best) print f[1], f[2] + f[3]; else print best, bc }')
		done
		secs[i]=$best dev[i]='' cpu[i]=$bestcpu
	done
fi
load_after=$(cut -d' ' -f1 /proc/loadavg)

# ---- 4. report --------------------------------------------------------------
bytes=$(find "$trace" -type f ! -path '*/index/*' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
nstreams=$(find "$trace" -type f ! -name metadata ! -name '.*' ! -path '*/index/*' | wc -l)
rev=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$rev" != unknown ] && ! git -C "$top" --no-optional-locks diff --quiet HEAD -- 2>/dev/null; then
	rev="$rev + uncommitted changes"
fi
# the build's type and optimisation level (the default build overrides the type's level)
buildtype=$(python3 -c 'import json, sys
o = {x["name"]: x["value"] for x in json.load(open(sys.argv[1]))}
print("%s, -O%s" % (o.get("buildtype", "?"), o.get("optimization", "?")))' \
	"$top/build/meson-info/intro-buildoptions.json" 2>/dev/null || echo "?")
btver=$(babeltrace2 --version | awk 'NR == 1 { print $2 }')

# The goals (issue 21): spoor dump >= 15x babeltrace2's text rate, --format=babeltrace
# >= 12x, spoor stats >= 25x its counter (the first issue asked 10x for printing and
# quoted babeltrace2 at about 1.0 M events/s printing and 4 M events/s counting: the
# absolute targets' column).
ref_print=1.0e6 ref_count=4e6

report=$work/report.md
{
	echo "Trace \`$trace\`: $(num "$events") events, $nstreams data streams," \
		"$(awk -v b="$bytes" -v n="$events" 'BEGIN { printf "%.1f MiB (%.1f bytes/event)", b / 1048576, b / n }')."
	echo "Measured $(date -u '+%Y-%m-%d %H:%M') UTC with spoor $rev (build type ${buildtype:-?}), babeltrace2 $btver;"
	echo "$method; page cache warm; output to /dev/null; load average $load_before before, $load_after after."
	echo "Checked first: \`spoor dump --format=babeltrace\` = \`babeltrace2 --clock-gmt\` on all" \
		"$(num "$lines") lines ($(num "$bug") differ only by babeltrace2 2.0.4's empty-string bug);" \
		"\`spoor stats\` total = counter total."
	if [ "$bt_warnings" -gt 0 ]; then
		echo "babeltrace2 printed $bt_warnings warning(s) on stderr (e.g. discarded events)."
	fi
	echo
	echo "| task | command | wall s | CPU s | events/s | spoor / babeltrace2 | goal (× babeltrace2 here) | issue's absolute target |"
	echo "|------|---------|-------:|------:|---------:|--------------------:|------|------|"
	for i in "${!cmds[@]}"; do
		case $i in
		0 | 1) task=print base=0 goal=12 ref=$ref_print ;;
		2) task=print base=0 goal=15 ref=$ref_print ;;
		*) task=count base=3 goal=25 ref=$ref_count ;;
		esac
		awk -v task="$task" -v cmd="${shown[$i]}" -v s="${secs[$i]}" -v sd="${dev[$i]}" \
			-v c="${cpu[$i]}" -v base="${secs[$base]}" -v n="$events" \
			-v isbase="$([ "$i" = "$base" ] && echo 1)" -v goal="$goal" -v ref="$ref" '
		function rate(x) { return x >= 1e6 ? sprintf("%.2f M", x / 1e6) : sprintf("%.0f k", x / 1e3) }
		BEGIN {
			t = sprintf("%.3f", s)
			if (sd != "") t = t sprintf(" ± %.3f", sd)
			ct = c != "" ? sprintf("%.3f", c) : "?"
			if (isbase) {
				ratio = "1 (reference)"
				g = ""
				a = sprintf("issue quotes ~%s/s", rate(ref))
			} else {
				x = base / s
				ratio = sprintf("%.2f×", x)
				g = sprintf("≥ %d×: %s", goal, x >= goal ? "**met**" : "not met")
				a = sprintf("%s/s: %.0f%%", rate(goal * ref), 100 * (n / s) / (goal * ref))
			}
			printf "| %s | `%s` | %s | %s | %s | %s | %s | %s |\n", task, cmd, t, ct, rate(n / s), ratio, g, a
		}'
	done
} >"$report"

cat "$report"

if [ -n "$update_doc" ]; then
	update_section "$report"
fi
