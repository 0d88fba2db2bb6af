#!/bin/bash
#
# functions.sh [--update-doc] [--runs=N] [--fib=N] [--tsdl=EVENTS,ROUNDS] [--build=DIR]
#
# The cost of function tracing (spoor record --calls, lib/calls) per traced call (entry and
# exit), side by side with uftrace on the same binaries in the same run, against the
# uninstrumented build, with the cost of one rdtsc measured in the same run (the goal:
# at most two rdtsc + 5 ns per call, and 3x cheaper than uftrace or more), and the cost of
# -fpatchable-function-entry=5 while tracing is off (goal: within 2% of the uninstrumented
# build).
#
# Two workloads, each built with gcc -O2 and each kind of hook (none, -pg, -pg -mfentry,
# -finstrument-functions, -fpatchable-function-entry=5):
#   fib    bench/functions-fib.c: fib(N) recursively (noipa: every call is a call)
#   tsdl   bench/functions-tsdl.c: spoor's own TSDL parser (lib/ctf) over a generated
#          metadata text of EVENTS event classes, ROUNDS times
# Each prints the CPU time of its thread around the work (CLOCK_THREAD_CPUTIME_ID: the cost
# in the traced thread, steadier than wall time on a busy machine). A configuration runs
# --runs times (3) and its median is kept:
#   none         the build without hooks, untraced
#   patch, off   the patchable build, untraced (its nops)
#   spoor HOOK   spoor record --calls -b 256m --subbuffers 8 -o DIR -- ./W-HOOK ...
#   uftrace HOOK uftrace record -d DIR ./W-HOOK ... (uftrace 0.13 reads -pg and
#                -finstrument-functions builds)
#   spoor HOOK, filtered out   --calls=main: every call but main's is filtered out
# ns/call = (median - none's median) / calls, calls counted from spoor's trace of the same
# build (its func_entry events; -finstrument-functions also hooks the calls gcc inlined, and
# gcc -O2 turns one of fib's two recursive calls into a loop: the calls column is -pg's). spoor's
# runs are checked: no event discarded, an entry and an exit per call.
#
# The Markdown result goes to stdout, progress to stderr; with --update-doc it replaces
# the section between <!-- functions:begin --> and <!-- functions:end --> of
# docs/PERFORMANCE.md (added at its end under its heading when absent), with the load
# (`uptime`) before and after.
. "$(dirname "$0")/common.sh"

update_doc= runs=3 fib=30 tsdl=400,25 build=$top/build
for arg; do
	case $arg in
	--update-doc) update_doc=1 ;;
	--runs=*) runs=${arg#*=} ;;
	--fib=*) fib=${arg#*=} ;;
	--tsdl=*) tsdl=${arg#*=} ;;
	--build=*) build=${arg#*=} ;;
	-h | --help) usage ;;
	*) die "unknown option '$arg'" ;;
	esac
done
spoor=$build/spoor
[ -x "$spoor" ] && [ -e "$build/libspoor-calls.so" ] || die "no $spoor or libspoor-calls.so (ninja -C $build)"
command -v uftrace >/dev/null || die "uftrace is not installed (apt-get install uftrace)"
work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-functions.XXXXXX")
trap 'end_work $? ""' EXIT

hooks="none pg fentry cyg patch"
flags() {
	case $1 in
	none) ;;
	pg) echo -pg ;;
	fentry) echo -pg -mfentry ;;
	cyg) echo -finstrument-functions ;;
	patch) echo -fpatchable-function-entry=5 ;;
	esac
}
note "building the workloads ..."
tsdl_sources="$here/functions-tsdl.c $top/lib/ctf/tsdl-parse.c $top/lib/ctf/tsdl-lex.c
	$top/lib/ctf/tsdl-scan.c $top/lib/ctf/types.c $top/lib/util/arena.c $top/lib/util/errors.c"
for h in $hooks; do
	# shellcheck disable=SC2046
	gcc -O2 $(flags $h) "$here/functions-fib.c" -o "$work/fib-$h"
	# shellcheck disable=SC2046,SC2086
	gcc -O2 $(flags $h) -I "$top/include" -I "$top/lib" $tsdl_sources -o "$work/tsdl-$h"
done
args_fib="fib $fib"
args_tsdl="${tsdl%,*} ${tsdl#*,}"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ns_of() { sed -n 's/.*ns=\([0-9]*\).*/\1/p' "$1"; }

# run NAME CMD...: the median CPU time of CMD's work over the runs, into $work/NAME.ns
run() {
	local name=$1 i
	shift
	for i in $(seq "$runs"); do
		rm -rf "$work/trace"
		"$@" >"$work/$name.out" 2>"$work/$name.err" || {
			cat "$work/$name.err" >&2
			die "$name failed"
		}
		ns_of "$work/$name.out"
		if [ "$i" -eq "$runs" ] && [ -d "$work/trace/ust" ]; then
			"$spoor" stats "$work/trace" >"$work/$name.stats"
			grep -q 'Events discarded: 0$' "$work/$name.stats" || die "$name: events lost"
		fi
	done | median >"$work/$name.ns"
	rm -rf "$work/trace"
}
entries() { awk '$2 == "lttng_ust_cyg_profile:func_entry" { print $1 }' "$work/$1.stats"; }
exits() { awk '$2 == "lttng_ust_cyg_profile:func_exit" { print $1 }' "$work/$1.stats"; }

load_before=$(uptime)
note "rdtsc ..."
run rdtsc "$work/fib-none" rdtsc 20000000
rdtsc_ns=$(awk -v t="$(cat "$work/rdtsc.ns")" 'BEGIN { printf "%.2f", t / 20000000 }')

for w in fib tsdl; do
	args_var=args_$w
	read -r -a args <<<"${!args_var}"
	note "$w: untraced ..."
	run "$w-none" "$work/$w-none" "${args[@]}"
	run "$w-patch-off" "$work/$w-patch" "${args[@]}"
	for h in pg fentry cyg patch; do
		note "$w: spoor $h ..."
		run "$w-spoor-$h" "$spoor" record --calls -b 256m --subbuffers 8 -o "$work/trace" -- \
			"$work/$w-$h" "${args[@]}"
		[ "$(entries "$w-spoor-$h")" = "$(exits "$w-spoor-$h")" ] ||
			die "$w-spoor-$h: entries and exits differ"
	done
	for h in pg cyg patch; do
		note "$w: spoor $h, filtered out ..."
		run "$w-filtered-$h" "$spoor" record --calls=main -b 256m -o "$work/trace" -- \
			"$work/$w-$h" "${args[@]}"
	done
	for h in pg cyg; do
		note "$w: uftrace $h ..."
		run "$w-uftrace-$h" uftrace record -d "$work/trace.uftrace" "$work/$w-$h" "${args[@]}"
		rm -rf "$work/trace.uftrace"
	done
done
load_after=$(uptime)

report=$work/report.md
{
	echo "bench/functions.sh --runs=$runs --fib=$fib --tsdl=$tsdl (gcc -O2; medians of the traced"
	echo "thread's CPU time; load before: \`${load_before#*load }\`, after: \`${load_after#*load }\`)."
	echo "One rdtsc: **$rdtsc_ns ns** here, so the goal, two rdtsc + 5 ns, is"
	echo "$(awk -v r="$rdtsc_ns" 'BEGIN { printf "%.1f", 2 * r + 5 }') ns per call."
	echo
	echo "| workload | calls | untraced | patchable, off | spoor -pg | spoor -mfentry | spoor -finstrument-functions | spoor patched | uftrace -pg | uftrace -finstrument-functions | uftrace / spoor: -pg, -finstrument-functions | filtered out: -pg, -finstrument-functions, patched |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
	for w in fib tsdl; do
		calls=$(entries "$w-spoor-pg")
		none=$(cat "$work/$w-none.ns")
		# per CONFIG [COUNTED]: the calls of the build as spoor's trace of it counted them
		# (-finstrument-functions also hooks the calls it inlined)
		per() {
			awk -v t="$(cat "$work/$1.ns")" -v b="$none" -v c="$(entries "${2:-$1}")" \
				'BEGIN { printf "%.1f", (t - b) / c }'
		}
		off=$(awk -v t="$(cat "$work/$w-patch-off.ns")" -v b="$none" 'BEGIN { printf "%+.1f%%", 100 * (t - b) / b }')
		ratio=$(awk -v u="$(per "$w-uftrace-pg" "$w-spoor-pg")" -v s="$(per "$w-spoor-pg")" \
			-v uc="$(per "$w-uftrace-cyg" "$w-spoor-cyg")" -v sc="$(per "$w-spoor-cyg")" \
			'BEGIN { printf "%.1fx, %.1fx", u / s, uc / sc }')
		printf '| %s | %s | %.1f ms | %s | %s ns | %s ns | %s ns | %s ns | %s ns | %s ns | **%s** | %s, %s, %s ns |\n' \
			"$w" "$calls" "$(awk -v t="$none" 'BEGIN { print t / 1e6 }')" "$off" \
			"$(per "$w-spoor-pg")" "$(per "$w-spoor-fentry")" "$(per "$w-spoor-cyg")" \
			"$(per "$w-spoor-patch")" "$(per "$w-uftrace-pg" "$w-spoor-pg")" \
			"$(per "$w-uftrace-cyg" "$w-spoor-cyg")" "$ratio" \
			"$(per "$w-filtered-pg" "$w-spoor-pg")" "$(per "$w-filtered-cyg" "$w-spoor-cyg")" \
			"$(per "$w-filtered-patch" "$w-spoor-patch")"
	done
	echo
	echo "ns/call: (the configuration's time - the untraced build's) / calls, entry and exit."
	echo "Filtered out: \`--calls=main\`, the workload's functions not traced (their hook and"
	echo "one look-up each; patched sites keep their nops)."
} >"$report"
cat "$report"
if [ -n "$update_doc" ]; then
	section=functions
	update_section "$report" "## Function tracing: spoor record --calls vs uftrace"
fi
