#!/usr/bin/env bash
# graph.sh [--rounds=N] [--runs=N] [--keep]
#
# spoor graph's printing speed against the peers that print a function graph or the same
# events: bench/calls.c (--rounds, default 2700000: 5.06 M calls under main) built
#   - with -finstrument-functions and bench/graph-hooks.c (the hooks emit LTTng-UST's
#     lttng_ust_cyg_profile:func_entry/func_exit through spoor's tracepoints), recorded by
#     `spoor record -b 256m`, then printed by
#       spoor graph --symbols NM TRACE          (function_graph: a line per call here)
#       babeltrace2 TRACE                       (a line per event: entries and exits)
#   - with -pg, recorded by `uftrace record`, then printed by
#       uftrace replay                          (its function graph: a line per call)
# Each printer's output goes to /dev/null; its lines are counted in a run of their own.
# CPU seconds (user + system) on CPU 0, best of --runs (default $BENCH_RUNS or 3; the
# peers: 1 run); lines per CPU second. The Markdown table goes to stdout.
# Environment: SPOOR (default build/spoor; libspoor-ust from the same folder), CC.
. "$(dirname "$0")/common.sh"
rounds=2700000 runs=${BENCH_RUNS:-3} keep=
for arg; do
	case $arg in
	--rounds=*) rounds=${arg#*=} ;;
	--runs=*) runs=${arg#*=} ;;
	--keep) keep=1 ;;
	-h | --help) usage ;;
	*) die "unknown option $arg" ;;
	esac
done
spoor=${SPOOR:-$top/build/spoor}
ustlib=$(dirname "$spoor")
cc=${CC:-cc}
[ -x "$spoor" ] || die "no $spoor (ninja -C build)"
work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-graph-bench.XXXXXX")
trap 'end_work $? "$keep"' EXIT

# the least CPU time (user + system) of a command on CPU 0, output thrown away
cpu() { # cpu RUNS CMD...
	local n=$1 b=1e9 t
	shift
	for _ in $(seq "$n"); do
		/usr/bin/time -o "$work/time" -f "%U %S" taskset -c 0 "$@" >/dev/null 2>&1
		t=$(awk '{ print $1 + $2 }' "$work/time")
		b=$(echo "$t $b" | awk '{ print ($1 < $2 ? $1 : $2) }')
	done
	echo "$b"
}

note "building bench/calls.c twice ..."
"$cc" -O2 -finstrument-functions -no-pie -c "$here/calls.c" -o "$work/calls-fi.o"
"$cc" -O2 -I"$top/include" -c "$here/graph-hooks.c" -o "$work/hooks.o"
"$cc" -no-pie "$work/calls-fi.o" "$work/hooks.o" -L"$ustlib" -lspoor-ust \
	-Wl,-rpath,"$ustlib" -o "$work/calls-fi"
"$cc" -O2 -pg -o "$work/calls-pg" "$here/calls.c"
nm "$work/calls-fi" >"$work/calls-fi.nm"

note "recording $rounds rounds ..."
"$spoor" record -b 256m -o "$work/sp" -- "$work/calls-fi" "$rounds" >"$work/rec" 2>&1 ||
	{ cat "$work/rec" >&2; die "spoor record failed"; }
grep -q " 0 events discarded" "$work/rec" || die "spoor record lost events: $(cat "$work/rec")"
have_uftrace=
if command -v uftrace >/dev/null; then
	uftrace record --no-libcall --no-sched -d "$work/uf" "$work/calls-pg" "$rounds" \
		>/dev/null 2>&1 && have_uftrace=1
fi

lines() { "$@" 2>/dev/null | wc -l; }
rows=()
add() { # add NAME LINES SECONDS
	rows+=("$(printf '| %s | %s | %.2f | %.2f M |' "$1" "$2" "$3" \
		"$(echo "$2 $3" | awk '{ print $1 / $2 / 1e6 }')")")
}
g_lines=$(lines "$spoor" graph --symbols "$work/calls-fi.nm" "$work/sp")
add "spoor graph" "$g_lines" "$(cpu "$runs" "$spoor" graph --symbols "$work/calls-fi.nm" "$work/sp")"
if command -v babeltrace2 >/dev/null; then
	add "babeltrace2 (a line per event)" "$(lines babeltrace2 "$work/sp")" \
		"$(cpu 1 babeltrace2 "$work/sp")"
fi
if [ -n "$have_uftrace" ]; then
	add "uftrace replay" "$(lines uftrace replay -d "$work/uf")" \
		"$(cpu 1 uftrace replay -d "$work/uf")"
fi
echo "bench/graph.sh --rounds=$rounds, $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| printer | lines | CPU s | lines per CPU s |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
