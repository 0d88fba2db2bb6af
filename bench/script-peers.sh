#!/usr/bin/env bash
# script-peers.sh [--runs=N] [--peer-runs=N] [--round-trips=N] [--rounds=N] [--keep]
#
# Offline handler throughput against the peers that have a scripting language of their
# own: a handler that counts events by a field, each tool's handler run over its own
# trace of the same activity, one core (taskset -c 0), wall seconds, best of N runs
# (spoor: --runs, default $BENCH_RUNS or 5; the peers: --peer-runs, default 3).
# bench/script.sh has babeltrace2's Python bindings on an LTTng trace.
#
# 1. Kernel: bench/pingpong.c (--round-trips, default 200000), recorded system-wide twice:
#      spoor record -k sched:sched_switch -o DIR -- pingpong N
#      perf record -m 8M -e sched:sched_switch -a -o perf.data -- pingpong N
#    then "count sched_switch by prev_comm":
#      spoor script bench/count-by-field.lua DIR                       (LuaJIT)
#      perf script -i perf.data -s bench/count-by-field-perf.py        (perf's Python)
#      perf script -i perf.data -s bench/count-by-field-perf.pl        (perf's Perl)
#      python3 bench/count-by-field.py DIR                             (babeltrace2's
#        Python bindings on spoor's trace, 1 run; skipped without python3-bt2)
#    and, as the floor of perf's own reading, `perf script -i perf.data >/dev/null`
#    (perf's text output, no handler). Each handler's total must equal an independent
#    count of its own trace: `spoor stats`'s sched_switch, `perf script | grep -c`.
# 2. User space: bench/calls.c (--rounds, default 500000: 937500 calls, 2 records each),
#    built with -pg for uftrace and with spoor events calls:enter/calls:exit (field fn,
#    the function's name) for spoor, recorded by
#      uftrace record --no-libcall --no-sched -d DIR calls-pg N
#      spoor record -b 4m -o DIR -- calls-spoor N
#    then "count calls by function name":
#      spoor script bench/count-by-field-ust.lua DIR                    (LuaJIT)
#      uftrace script -d DIR -S bench/count-by-field-uftrace.lua        (uftrace's LuaJIT)
#      uftrace script -d DIR -S bench/count-by-field-uftrace.py         (uftrace's Python)
#    Every handler must find calls.c's known counts (alpha N, bravo N/2, charlie N/4,
#    delta N/8; uftrace's also main 1), and its total the trace's own count (`spoor
#    stats`'s calls:enter; `uftrace report`'s calls).
# The Markdown result goes to stdout; nothing is written to docs/PERFORMANCE.md.
# Needs root (kernel tracepoints), perf (linux-perf) with Python and Perl scripting, and
# uftrace built with luajit and python3 (Debian's uftrace). A missing peer is noted and
# its rows skipped. Environment: SPOOR (default build/spoor; libspoor-ust.so is taken from
# the same folder), CC (default cc). A run takes about 2 to 3 minutes here.
. "$(dirname "$0")/common.sh"
runs=${BENCH_RUNS:-5} peer_runs=3 round_trips=200000 rounds=500000 keep=
for arg; do
	case $arg in
	--runs=*) runs=${arg#*=} ;;
	--peer-runs=*) peer_runs=${arg#*=} ;;
	--round-trips=*) round_trips=${arg#*=} ;;
	--rounds=*) rounds=${arg#*=} ;;
	--keep) keep=1 ;;
	-h | --help) usage ;;
	*) die "unknown argument '$arg'" ;;
	esac
done
for v in "$runs" "$peer_runs" "$round_trips" "$rounds"; do
	case $v in '' | *[!0-9]* | 0) die "the numbers must be >= 1" ;; esac
done
spoor=${SPOOR:-$top/build/spoor}
cc=${CC:-cc}
[ -x "$spoor" ] || die "no spoor binary at $spoor"
ustlib=$(cd "$(dirname "$spoor")" && pwd)
[ -e "$ustlib/libspoor-ust.so" ] || die "no libspoor-ust.so beside $spoor"
[ "$(id -u)" -eq 0 ] || die "kernel tracepoints need root"

have_perf='' have_perl='' have_uftrace='' have_uftrace_py='' have_bt2=''
if command -v perf >/dev/null; then
	perf script -s lang 2>&1 | grep -q '\[Python\]' && have_perf=1
	perf script -s lang 2>&1 | grep -q '\[Perl\]' && have_perl=1
	[ -n "$have_perf" ] || note "perf has no Python scripting: its Python row is skipped"
	[ -n "$have_perl" ] || note "perf has no Perl scripting: its Perl row is skipped"
else
	note "no perf (apt-get install linux-perf): its rows are skipped"
fi
if command -v uftrace >/dev/null; then
	if uftrace --version | grep -qw luajit; then
		have_uftrace=1
	else
		note "uftrace was built without LuaJIT ($(uftrace --version)): its rows are skipped"
	fi
	uftrace --version | grep -qw python3 && have_uftrace_py=1
else
	note "no uftrace (apt-get install uftrace): its rows are skipped"
fi
if /usr/bin/python3 -c 'import bt2' 2>/dev/null; then
	have_bt2=1
else
	note "no babeltrace2 Python bindings (python3-bt2): that row is skipped"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-script-peers.XXXXXX")
trap 'end_work $? "$keep"' EXIT

# best wall time of a command on CPU 0, its output kept in $work/out.NAME
best() { # best NAME RUNS CMD...
	local name=$1 n=$2 b=
	shift 2
	for _ in $(seq "$n"); do
		local t0 t1
		t0=$(date +%s.%N)
		taskset -c 0 "$@" >"$work/out.$name" 2>"$work/err.$name" || {
			cat "$work/err.$name" >&2
			die "$name failed: $*"
		}
		t1=$(date +%s.%N)
		b=$(echo "$t0 $t1 ${b:-1e9}" | awk '{t = $2 - $1; print (t < $3 ? t : $3)}')
	done
	echo "$b"
}
json() { # json FILE PYTHON-EXPRESSION-OF-d
	/usr/bin/python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"
}
# `COUNT NAME` lines (NAME may have spaces) from spoor's map printout: `  NAME   COUNT`
spoor_counts() { awk '$1 !~ /^@/ && NF >= 2 { c = $NF; $NF = ""; sub(/ $/, ""); sub(/^ +/, ""); print c, $0 }' "$1" | sort -k2; }
total() { awk '{ s += $1 } END { print s + 0 }' "$1"; }
rows=$work/rows
: >"$rows"
row() { # row TABLE LABEL EVENTS SECONDS TOTAL OK RUNS
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$rows"
}

note "building the workloads ..."
"$cc" -O2 -pthread -o "$work/pingpong" "$here/pingpong.c"
"$cc" -O2 -pg -o "$work/calls-pg" "$here/calls.c"
"$cc" -O2 -DSPOOR_EVENTS -I"$top/include" -o "$work/calls-spoor" "$here/calls.c" \
	-L"$ustlib" -lspoor-ust -Wl,-rpath,"$ustlib"

# ---- 1. kernel: sched_switch by prev_comm ----
note "recording pingpong $round_trips with spoor ..."
"$spoor" record -k sched:sched_switch -o "$work/sp" -- "$work/pingpong" "$round_trips" \
	>"$work/rec.spoor" 2>&1 || { cat "$work/rec.spoor" >&2; die "spoor record failed"; }
"$spoor" stats --json "$work/sp" >"$work/stats.sp"
sp_events=$(json "$work/stats.sp" 'd["events"]')
sp_switches=$(json "$work/stats.sp" 'd["by_name"].get("sched_switch", 0)')
sp_lost=$(json "$work/stats.sp" 'd["discarded"]')
note "spoor script, $runs runs ..."
t=$(best spoor-k "$runs" "$spoor" script "$here/count-by-field.lua" "$work/sp")
spoor_counts "$work/out.spoor-k" >"$work/c.spoor-k"
n=$(total "$work/c.spoor-k")
row k "spoor script (LuaJIT)" "$sp_events" "$t" "$n" "$([ "$n" = "$sp_switches" ] && echo yes || echo no)" "$runs"
if [ -n "$have_bt2" ]; then
	note "babeltrace2 Python on spoor's trace, 1 run ..."
	t=$(best bt2 1 /usr/bin/python3 "$here/count-by-field.py" "$work/sp")
	n=$(total "$work/out.bt2")
	ok=no
	[ "$n" = "$sp_switches" ] && cmp -s "$work/c.spoor-k" <(sort -k2 "$work/out.bt2") && ok=yes
	row k "babeltrace2 Python bindings (spoor's trace)" "$sp_events" "$t" "$n" "$ok" 1
fi
pf_events=
if [ -n "$have_perf$have_perl" ]; then
	note "recording pingpong $round_trips with perf ..."
	perf record -m 8M -e sched:sched_switch -a -o "$work/perf.data" -- "$work/pingpong" "$round_trips" \
		>"$work/rec.perf" 2>&1 || { cat "$work/rec.perf" >&2; die "perf record failed"; }
	pf_lost=$(grep -Eo 'lost [0-9]+ chunks' "$work/rec.perf" | awk '{print $2}' || true)
	pf_events=$(perf script -i "$work/perf.data" 2>/dev/null | grep -c sched_switch || true)
	note "perf script (text, no handler), $peer_runs runs ..."
	t=$(best perf-text "$peer_runs" perf script -i "$work/perf.data")
	row k "perf script, text output (no handler: perf's reading alone)" "$pf_events" "$t" - - "$peer_runs"
	if [ -n "$have_perf" ]; then
		note "perf script Python, $peer_runs runs ..."
		t=$(best perf-py "$peer_runs" perf script -i "$work/perf.data" -s "$here/count-by-field-perf.py")
		n=$(total "$work/out.perf-py")
		row k "perf script -s (Python)" "$pf_events" "$t" "$n" "$([ "$n" = "$pf_events" ] && echo yes || echo no)" "$peer_runs"
	fi
	if [ -n "$have_perl" ]; then
		note "perf script Perl, $peer_runs runs ..."
		t=$(best perf-pl "$peer_runs" perf script -i "$work/perf.data" -s "$here/count-by-field-perf.pl")
		n=$(total "$work/out.perf-pl")
		ok=no
		[ "$n" = "$pf_events" ] && { [ -z "$have_perf" ] || cmp -s "$work/out.perf-py" "$work/out.perf-pl"; } && ok=yes
		row k "perf script -s (Perl)" "$pf_events" "$t" "$n" "$ok" "$peer_runs"
	fi
fi

# ---- 2. user space: calls by function name ----
expected=$(printf '%s alpha\n%s bravo\n%s charlie\n%s delta\n' "$rounds" \
	$(((rounds + 1) / 2)) $(((rounds + 3) / 4)) $(((rounds + 7) / 8)))
note "recording calls $rounds with spoor ..."
"$spoor" record -b 4m -o "$work/sc" -- "$work/calls-spoor" "$rounds" >"$work/rec.sc" 2>&1 ||
	{ cat "$work/rec.sc" >&2; die "spoor record failed"; }
"$spoor" stats --json "$work/sc" >"$work/stats.sc"
sc_events=$(json "$work/stats.sc" 'd["events"]')
sc_enters=$(json "$work/stats.sc" 'd["by_name"].get("calls:enter", 0)')
sc_lost=$(json "$work/stats.sc" 'd["discarded"]')
note "spoor script, $runs runs ..."
t=$(best spoor-u "$runs" "$spoor" script "$here/count-by-field-ust.lua" "$work/sc")
spoor_counts "$work/out.spoor-u" >"$work/c.spoor-u"
n=$(total "$work/c.spoor-u")
ok=no
[ "$n" = "$sc_enters" ] && [ "$(cat "$work/c.spoor-u")" = "$expected" ] && ok=yes
row u "spoor script (LuaJIT)" "$sc_events" "$t" "$n" "$ok" "$runs"
uf_events=
if [ -n "$have_uftrace" ]; then
	note "recording calls $rounds with uftrace ..."
	(cd "$work" && uftrace record --no-libcall --no-sched -d "$work/uft" "$work/calls-pg" "$rounds") \
		>"$work/rec.uft" 2>&1 || { cat "$work/rec.uft" >&2; die "uftrace record failed"; }
	uf_events=$(uftrace dump -d "$work/uft" --no-pager 2>/dev/null | grep -cE '\[(entry|exit ?)\]' || true)
	uf_calls=$(uftrace report -d "$work/uft" --no-pager -f call 2>/dev/null | awk '$1 ~ /^[0-9]+$/ { s += $1 } END { print s + 0 }')
	uf_expected=$(printf '%s\n1 main\n' "$expected")
	for lang in lua py; do
		[ "$lang" = py ] && [ -z "$have_uftrace_py" ] && continue
		note "uftrace script ($lang), $peer_runs runs ..."
		t=$(cd "$work" && best "uft-$lang" "$peer_runs" uftrace script -d "$work/uft" -S "$here/count-by-field-uftrace.$lang")
		n=$(total "$work/out.uft-$lang")
		ok=no
		[ "$n" = "$uf_calls" ] && [ "$(cat "$work/out.uft-$lang")" = "$uf_expected" ] && ok=yes
		label="uftrace script -S (LuaJIT)"
		[ "$lang" = py ] && label="uftrace script -S (Python)"
		row u "$label" "$uf_events" "$t" "$n" "$ok" "$peer_runs"
	done
fi

# ---- the report ----
table() { # table KIND HEADING: rows of KIND, ratios to the first (spoor's) events/s
	echo "| $2 | events in its trace | runs | s | events/s | spoor's rate / this | total counted | = own trace's count |"
	echo "|---|---|---|---|---|---|---|---|"
	awk -F'\t' -v k="$1" '
		$1 != k { next }
		{ rate = $3 / $4 }
		i++ == 0 { ref = rate }
		{ printf "| %s | %d | %d | %.3f | %.2f M | %s | %s | %s |\n", $2, $3, $7, $4, rate / 1e6,
			(i == 1 ? "1x" : sprintf("%.1fx", ref / rate)), $5, $6 }' "$rows"
}
{
	echo "One core (taskset -c 0), wall seconds, best of the runs shown. $(date -u +%F), $(nproc) CPUs,"
	echo "$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end;"
	echo "spoor $("$spoor" --version 2>/dev/null | head -1 | awk '{print $NF}'),"
	[ -z "$have_perf$have_perl" ] || echo "perf $(perf version | awk '{print $3}'),"
	[ -z "$have_uftrace" ] || echo "uftrace $(uftrace --version | awk '{print $2}'),"
	[ -z "$have_bt2" ] || echo "babeltrace2 $(babeltrace2 --version 2>/dev/null | head -1 | awk '{print $2}'),"
	echo "$($cc --version | head -1)."
	echo
	echo "Kernel: bench/pingpong.c, $round_trips round trips, recorded system-wide by each tool"
	echo "(spoor: $sp_switches sched_switch of $sp_events events, $sp_lost lost${pf_events:+; perf: $pf_events sched_switch, ${pf_lost:-0} chunks lost})."
	echo "Nearly every event of these traces reaches the handler (bench/script.sh's LTTng trace"
	echo "sends it about one in eight, the others costing a header read: hence its higher rate)."
	echo
	table k "handler: count sched_switch by prev_comm"
	echo
	echo "User space: bench/calls.c, $rounds rounds, $((rounds + (rounds + 1) / 2 + (rounds + 3) / 4 + (rounds + 7) / 8)) calls"
	echo "(spoor: calls:enter + calls:exit per call, $sc_lost lost${uf_events:+; uftrace: an entry and an exit record per call, -pg})."
	echo
	table u "handler: count calls by function name"
	echo
	echo "Each tool's handler runs over that tool's own trace of the same activity, so the"
	echo "traces differ a little in size (the kernel ones: whatever else ran on the machine);"
	echo "events/s is the events of the tool's whole trace over the handler's wall time, and"
	echo "the ratio compares those rates. \"= own trace's count\" checks each handler's total"
	echo "against an independent count of its trace (\`spoor stats\`; \`perf script | grep -c"
	echo "sched_switch\`; \`uftrace report\`'s calls), and for calls.c also against the known"
	echo "answer (alpha N, bravo N/2, charlie N/4, delta N/8). perf's text output without a"
	echo "handler is perf's own floor: what its reading costs before any script runs."
} >"$work/report"
cat "$work/report"
awk -F'\t' '$6 == "no" { bad = 1 } END { exit bad }' "$rows" || die "a handler's counts are wrong (see $work, kept with --keep)"
