#!/bin/bash
#
# functions.sh [--update-doc] [--runs=N] [--off-pairs=N] [--fib=N] [--tsdl=EVENTS,ROUNDS] [--build=DIR]
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
#   patch, off   the patchable build, untraced (its nops): measured apart, below
#   spoor HOOK   spoor record --calls -b 512m --subbuffers 8 -o DIR -- ./W-HOOK ... (the
#                buffer holds a whole run's events: the recorder, starved of CPU on a busy
#                machine, need not keep up)
#   uftrace HOOK uftrace record -d DIR ./W-HOOK ... (uftrace 0.13 reads -pg and
#                -finstrument-functions builds)
#   spoor HOOK, filtered out   --calls=main: every call but main's is filtered out
# ns/call = (median - none's median) / calls, calls counted from spoor's trace of the same
# build (its func_entry events; -finstrument-functions also hooks the calls gcc inlined, and
# gcc -O2 turns one of fib's two recursive calls into a loop: the calls column is -pg's). spoor's
# runs are checked: no event discarded (a run that lost events, its recorder starved of CPU
# by the load, is run again, up to three times), an entry and an exit per call.
#
# The patchable build while tracing is off differs from the untraced build by a few nops
# per call, less than a busy machine's noise between two runs. So it is measured in
# --off-pairs pairs (21) of runs, the untraced build's and the patchable one's one after
# the other (which goes first alternating), each pair giving the patchable run's excess
# over its partner's: a load that drifts moves both runs of a pair. The median of those
# excesses is the cost, their quartiles its spread; the untraced build against itself, the
# same way, shows the noise. When clang is installed, its builds are measured the same way
# (clang against clang). And callgrind counts the instructions each build runs (the nops
# are instructions: gcc writes -fpatchable-function-entry=5 as five one-byte nops, clang as
# one five-byte nop), per call: an exact count the load does not touch.
#
# The Markdown result goes to stdout, progress to stderr; with --update-doc it replaces
# the section between <!-- functions:begin --> and <!-- functions:end --> of
# docs/PERFORMANCE.md (added at its end under its heading when absent), with the load
# (`uptime`) before and after.
. "$(dirname "$0")/common.sh"

update_doc= runs=3 off_pairs=21 fib=30 tsdl=400,25 build=$top/build
for arg; do
	case $arg in
	--update-doc) update_doc=1 ;;
	--runs=*) runs=${arg#*=} ;;
	--off-pairs=*) off_pairs=${arg#*=} ;;
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
# clang's builds, when clang is there: its patchable entry is one five-byte nop
command -v clang >/dev/null && hooks="$hooks clang-none clang-patch"
flags() {
	case $1 in
	none | clang-none) ;;
	clang-patch) echo -fpatchable-function-entry=5 ;;
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
	cc=gcc
	[ "${h#clang-}" = "$h" ] || cc=clang
	# shellcheck disable=SC2046
	$cc -O2 $(flags $h) "$here/functions-fib.c" -o "$work/fib-$h"
	# shellcheck disable=SC2046,SC2086
	$cc -O2 -D_GNU_SOURCE $(flags $h) -I "$top/include" -I "$top/lib" $tsdl_sources -o "$work/tsdl-$h"
done
args_fib="fib $fib"
args_tsdl="${tsdl%,*} ${tsdl#*,}"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ns_of() { sed -n 's/.*ns=\([0-9]*\).*/\1/p' "$1"; }

# run NAME CMD...: the median CPU time of CMD's work over the runs, into $work/NAME.ns
run() {
	local name=$1 i try
	shift
	for i in $(seq "$runs"); do
		for try in 1 2 3; do # a recorder starved of CPU by the load loses events: again
			rm -rf "$work/trace"
			"$@" >"$work/$name.out" 2>"$work/$name.err" || {
				cat "$work/$name.err" >&2
				die "$name failed"
			}
			[ -d "$work/trace/ust" ] || break
			"$spoor" stats "$work/trace" >"$work/$name.stats" 2>/dev/null
			grep -q 'Events discarded: 0$' "$work/$name.stats" && break
			[ "$try" -lt 3 ] || die "$name: events lost, three times"
			note "$name: events lost (the recorder starved?): again"
		done
		ns_of "$work/$name.out"
	done | median >"$work/$name.ns"
	rm -rf "$work/trace"
}
# off_cost W BASE BUILD ARGS...: --off-pairs pairs of runs of W's builds BASE and BUILD, in
# turn, BUILD's excess over BASE in % per pair, into $work/W-BUILD-BASE.pairs; the
# instructions each runs (callgrind), into $work/W-BUILD.ir and W-BASE.ir
off_cost() {
	local w=$1 base=$2 build=$3 i k b
	local -a t
	shift 3
	for i in $(seq "$off_pairs"); do
		for k in 0 1; do # t[0]: base's time, t[1]: build's; which goes first in turn
			[ $((i % 2)) -eq 0 ] && k=$((1 - k))
			b=$base
			[ "$k" -eq 1 ] && b=$build
			t[k]=$("$work/$w-$b" "$@" | sed -n 's/.*ns=\([0-9]*\).*/\1/p')
		done
		awk -v p="${t[1]}" -v n="${t[0]}" 'BEGIN { printf "%.3f\n", 100 * (p - n) / n }'
	done >"$work/$w-$build-$base.pairs"
	for b in "$base" "$build"; do
		[ -e "$work/$w-$b.ir" ] && continue
		if command -v valgrind >/dev/null; then
			valgrind --tool=callgrind --callgrind-out-file=/dev/null "$work/$w-$b" "$@" 2>&1 \
				>/dev/null | sed -n 's/.*I *refs: *//p' | tr -d , >"$work/$w-$b.ir"
		else
			: >"$work/$w-$b.ir"
		fi
	done
}
# off_name BUILD: the flags of an untraced build, for the report
off_name() {
	case $1 in
	none) echo "none" ;;
	patch) echo "\`-fpatchable-function-entry=5\`" ;;
	clang-none) echo "none (clang)" ;;
	clang-patch) echo "\`-fpatchable-function-entry=5\` (clang)" ;;
	esac
}
# quartiles FILE: the first quartile, median and third quartile of its numbers
quartiles() {
	sort -g "$1" | awk '{ v[NR] = $1 } END {
		q = (NR - 1) / 4; printf "%s %s %s\n", v[int(q) + 1], v[int(2 * q) + 1], v[int(3 * q) + 1] }'
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
	off_cost "$w" none patch "${args[@]}"
	off_cost "$w" none none "${args[@]}" # the noise: a build against itself
	if [ -e "$work/$w-clang-patch" ]; then
		off_cost "$w" clang-none clang-patch "${args[@]}"
		run "$w-spoor-clang-patch" "$spoor" record --calls -b 512m --subbuffers 8 \
			-o "$work/trace" -- "$work/$w-clang-patch" "${args[@]}" # its calls
	fi
	for h in pg fentry cyg patch; do
		note "$w: spoor $h ..."
		run "$w-spoor-$h" "$spoor" record --calls -b 512m --subbuffers 8 -o "$work/trace" -- \
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
		read -r _ off_median _ < <(quartiles "$work/$w-patch-none.pairs")
		off=$(printf '%+.1f%%' "$off_median")
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
	echo
	echo "Patchable builds, tracing off, against the untraced build: $off_pairs pairs of runs"
	echo "(one of each, in turn), the patchable run's excess over its partner; the untraced"
	echo "build against itself gives the noise. Instructions per call: callgrind's count of"
	echo "each build's, the difference over the calls (the nops are instructions)."
	echo
	echo "| workload | build, tracing off | against | excess: median | quartiles | instructions per call |"
	echo "|---|---|---|---|---|---|"
	for w in fib tsdl; do
		# the calls: those spoor counted in the patchable build of the same compiler
		for pair in "patch none patch" "none none patch" "clang-patch clang-none clang-patch"; do
			read -r b base traced <<<"$pair"
			[ -e "$work/$w-$b-$base.pairs" ] || continue
			read -r q1 q2 q3 < <(quartiles "$work/$w-$b-$base.pairs")
			per_call=$(awk -v p="$(cat "$work/$w-$b.ir")" -v n="$(cat "$work/$w-$base.ir")" \
				-v c="$(entries "$w-spoor-$traced")" \
				'BEGIN { if (p == "" || n == "") print "n/a"; else printf "%+.2f", (p - n) / c }')
			printf '| %s | %s | %s | **%+.1f%%** | %+.1f%% .. %+.1f%% | %s |\n' "$w" \
				"$(off_name "$b")" "$(off_name "$base")" "$q2" "$q1" "$q3" "$per_call"
		done
	done
} >"$report"
cat "$report"
if [ -n "$update_doc" ]; then
	section=functions
	update_section "$report" "## Function tracing: spoor record --calls vs uftrace"
fi
