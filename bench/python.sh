#!/usr/bin/env bash
# python.sh [TRACE] [--update-doc] [--runs=N]
#
# `import spoor` against babeltrace2's Python bindings (python3-bt2), side by side in one
# run, on the LTTng-UST bench trace (default /tmp/spoor-bench, 4 M events, made by
# bench/make-ust-trace.sh), one core (taskset -c 0), each run a process of its own
# (bench/python-bench.py):
#
#   iteration: every event's name counted (collections.Counter over t.events(), or over
#              bt2's TraceCollectionMessageIterator), events/s;
#   columns:   spoor_fixture:two_ints' ts, a and b as NumPy arrays (t.columns(), or a bt2
#              loop appending to lists, then numpy.array), values/s.
#
# Both sides must give the same result (counts; the arrays' types and sums). Times: the
# work alone (not the interpreter's start), CPU (user + system, the rates' base: steadier on
# a shared machine) and wall, spoor best of N runs (5), bt2 best of BENCH_BT2_RUNS (1: it
# takes a minute or more). Memory: VmHWM (with the pages of the
# trace's mapped files) and RssAnon (the process's own memory) at the end of spoor's runs.
# Goals (issue 20): iteration >= 2 M events/s and 20x bt2; columns >= 50 M values/s and
# 200x bt2. With --update-doc the section between <!-- python:begin --> and
# <!-- python:end --> of docs/PERFORMANCE.md is replaced. Environment: SPOOR_PYTHONPATH
# (where `import spoor` is found, default build/python), BENCH_CLASS, BENCH_COLUMNS.
. "$(dirname "$0")/common.sh"
section=python
trace_options "$@"
trace=${trace:-/tmp/spoor-bench}
bt2_runs=${BENCH_BT2_RUNS:-1}
cls=${BENCH_CLASS:-spoor_fixture:two_ints}
read -r -a cols <<<"${BENCH_COLUMNS:-ts a b}"
[ -f "$trace/metadata" ] || die "no CTF trace in '$trace' (make one with bench/make-ust-trace.sh $trace)"
/usr/bin/python3 -c 'import bt2, numpy' 2>/dev/null || die "python3-bt2 and python3-numpy are needed"
work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-python-bench.XXXXXX")
trap 'end_work $? "${BENCH_KEEP:-}"' EXIT
# a copy of the module: others may rebuild it meanwhile
cp -r "${SPOOR_PYTHONPATH:-$top/build/python}/spoor" "$work/spoor"
rm -rf "$work/spoor/"*.p
/usr/bin/python3 -c "import sys; sys.path.insert(0, '$work'); import spoor" ||
	die "no spoor module (ninja -C build, with python3-dev and python3-numpy)"

# run MODE N ARGS...: the best of N runs of one mode, its JSON line in $work/MODE.json
run() {
	local mode=$1 n=$2
	shift 2
	note "$mode, $n run(s) ..."
	for _ in $(seq "$n"); do
		PYTHONPATH=$work taskset -c 0 /usr/bin/python3 "$here/python-bench.py" "$mode" "$trace" "$@"
	done >"$work/$mode.all"
	sort -t: -k2 -g "$work/$mode.all" | head -1 >"$work/$mode.json" # by CPU seconds, first
}
run spoor-iter "$runs"
run spoor-columns "$runs" "$cls" "${cols[@]}"
run bt2-iter "$bt2_runs"
run bt2-columns "$bt2_runs" "$cls" "${cols[@]}"

/usr/bin/python3 - "$work" "$trace" "$runs" "$bt2_runs" "$cls" "${cols[*]}" >"$work/section.md" <<'PY'
import json, os, subprocess, sys, time
work, trace, runs, bt2_runs, cls, cols = sys.argv[1:]
r = {m: json.load(open(os.path.join(work, m + ".json")))
     for m in ("spoor-iter", "bt2-iter", "spoor-columns", "bt2-columns")}
same_iter = r["spoor-iter"]["digest"] == r["bt2-iter"]["digest"]
same_cols = r["spoor-columns"]["digest"] == r["bt2-columns"]["digest"]
cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
bt = subprocess.run(["babeltrace2", "--version"], capture_output=True, text=True).stdout.split()[1]
load = open("/proc/loadavg").read().split()[0]
rate = lambda m, what: r[m][what] / r[m]["cpu_seconds"]
ri = rate("spoor-iter", "rows") / rate("bt2-iter", "rows")
rc = rate("spoor-columns", "values") / rate("bt2-columns", "values")
met = lambda ok: "**met**" if ok else "not met"
print(f"Trace `{trace}`: {r['spoor-iter']['rows']:,} events, {r['spoor-columns']['rows']:,} of "
      f"class `{cls}`; one core (taskset -c 0), the work alone (not the interpreter's "
      f"start), rates per CPU second (user + system); spoor best of {runs} runs, bt2 best "
      f"of {bt2_runs}. "
      f"{time.strftime('%Y-%m-%d', time.gmtime())}, {os.cpu_count()} CPUs, {cpu}, load "
      f"average {load}; Python {sys.version.split()[0]}, babeltrace2 {bt}.")
print()
print("| what | CPU s | wall s | rate | ratio | VmHWM | RssAnon |")
print("|---|---|---|---|---|---|---|")
mb = lambda kb: f"{kb / 1024:.0f} MiB"
for m, label, what, unit, ratio in (
        ("spoor-iter", "spoor: count events by name, `t.events()`", "rows", "M events/s", ri),
        ("bt2-iter", "bt2: the same, `TraceCollectionMessageIterator`", "rows", "M events/s", 1),
        ("spoor-columns", f"spoor: `t.columns(\"{cls}\", {json.dumps(cols.split())})`", "values", "M values/s", rc),
        ("bt2-columns", "bt2: the same columns, lists then `numpy.array`", "values", "M values/s", 1)):
    x = r[m]
    print(f"| {label} | {x['cpu_seconds']:.3f} | {x['seconds']:.3f} | "
          f"{rate(m, what) / 1e6:.2f} {unit} | {ratio:.0f}x | "
          f"{mb(x['vmhwm_kb'])} | {mb(x['rss_anon_kb'])} |")
print()
print(f"Same results from both: counts {'yes' if same_iter else 'NO'}, columns (types and "
      f"sums) {'yes' if same_cols else 'NO'}. Goals: iteration at least 2 M events/s: "
      f"{met(rate('spoor-iter', 'rows') >= 2e6)}, and 20x bt2: {met(ri >= 20)}; columns at "
      f"least 50 M values/s: {met(rate('spoor-columns', 'values') >= 50e6)}, and 200x bt2: "
      f"{met(rc >= 200)}.")
sys.exit(0 if same_iter and same_cols else 1)
PY
cat "$work/section.md"
[ -z "$update_doc" ] || update_section "$work/section.md" "## Python: import spoor vs babeltrace2's Python bindings"
