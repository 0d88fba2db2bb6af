#!/bin/bash
#
# ust-emit.sh [--update-doc] [--events=N] [--runs=N] [--disabled-iterations=N]
#             [--nice=N] [--no-build] [--no-bt2] [--no-perf]
#
# Side-by-side benchmark of the cost of emitting one user-space event with
# spoor's tracer (include/spoor/tracepoint.h, libspoor-ust) and with LTTng-UST
# 2.13, in the same run, on the same event shapes:
#
#   A (ints):  two uint64_t
#   B (str):   two int and a 16-character string
#
# The emitters are bench/ust-emit-spoor.c and bench/ust-emit-lttng.c, one
# harness for both (bench/ust-emit-common.h): THREADS threads each run N
# iterations of a tight loop emitting one event, the loop alone timed with
# clock_gettime(CLOCK_MONOTONIC) (ns/event = loop time / N, averaged over the
# threads) and with CLOCK_THREAD_CPUTIME_ID (the thread's CPU time, which
# does not count the time the thread waited for a CPU: steadier on a busy
# machine).  For each tracer, shape and 1 and 2 threads, the program runs
#
#   spoor:  spoor record -b 64m --subbuffers 8 -o DIR -- ust-emit-spoor SHAPE T N
#   LTTng:  a channel in its fastest configuration (below), discard mode,
#           only the ust_emit:SHAPE event enabled, no context; then
#           LTTNG_UST_REGISTER_TIMEOUT=10000 ust-emit-lttng SHAPE T N
#
# LTTng-UST at its best: first, in the same run, LTTng alone runs shape A with 1
# and 2 threads, --runs times, in each of these channel configurations:
#   uid:default  per-UID buffers, lttng's default sub-buffers (4 x 512 KiB per CPU
#                with lttng-tools 2.13)
#   pid:default  per-PID buffers, lttng's default sub-buffers for them
#   uid:8x1M pid:8x1M uid:8x4M pid:8x4M   8 sub-buffers of 1 or 4 MiB per CPU
# and the one with the least CPU time per event (the mean of the 1- and 2-thread
# medians) among those that lost no event is used for the whole table (with the
# 2026-11 numbers: per-UID buffers, lttng's default channel). The report gives each
# configuration's numbers.
#
# recording to disk (a temporary directory under ${TMPDIR:-/tmp}), and the
# trace is checked: `spoor stats --json` (spoor reads both) must count exactly
# T x N events and no discarded one; for LTTng also the channel's "Discarded
# events" statistic (`lttng list`) and babeltrace2's counter (its discarded-
# events messages).  A loss is reported in the table, never hidden.
# Bytes/event = the stream files' bytes / events (not the metadata, not
# LTTng's index/ directory).
#
# A thread's start: `ust-emit-TRACER start 1 30`, 30 short-lived threads one after the
# other each emitting one event (its buffer set up, for spoor), medians of the time of
# that first event (wall and CPU) and of the thread's whole life, under spoor record
# and in the LTTng session.
#
# The disabled cost: the same loop, 1 thread, with the event not enabled
# (spoor: the program run without `spoor record`; LTTng: run while the session
# daemon has no session), and the empty loop (only the compiler barrier that
# every loop iteration holds), in ns/iteration.
#
# Every configuration runs --runs times (3) and the median is kept.  The
# Markdown result goes to stdout, progress to stderr; with --update-doc it
# replaces the section between <!-- ust-emit:begin --> and <!-- ust-emit:end -->
# of docs/PERFORMANCE.md (added at the end of the file with its heading if
# absent), with the machine load (`uptime`) before and after, and the commands.
# With perf installed (and without --no-perf) it also profiles both emitters
# (shape A, 1 thread) and adds spoor's top functions and LTTng's top shared
# objects, with each one's share of kernel time.
#
# Isolation (as in tests/data/lttng-ust/record.sh): as root the script re-runs
# itself in a private mount namespace with fresh tmpfs on /run and /dev/shm,
# and a private LTTNG_HOME, so it never talks to or disturbs another session
# daemon; it starts its own `lttng-sessiond --daemonize --no-kernel` and, at
# the end, kills that daemon by its pid only.
#
# Options:
#   --update-doc               write the result into docs/PERFORMANCE.md
#   --events=N                 events per thread [2000000]
#   --runs=N                   runs per configuration, median kept [3]
#   --disabled-iterations=N    iterations of the disabled/empty loops [200000000]
#   --nice=N                   run the tracers and the emitters at this nice
#                              value (root only; 0: unchanged) [-10], so that
#                              other jobs on a busy machine disturb them less
#   --no-build                 do not run `ninja -C build` first
#   --no-bt2                   skip the babeltrace2 check of the LTTng traces
#   --no-perf                  skip the perf profiles of the emitters
# Environment: UST_EMIT_SPOOR_BUFFER [64m] and UST_EMIT_SPOOR_SUBBUFS [8]
# (spoor's ring buffer per thread), UST_EMIT_LTTNG_CONFIGS [the six above] (the
# LTTng configurations tried; one of them: no selection, that one is used),
# UST_EMIT_SPOOR_SMALL_BUFFER [8m] (the ring of one extra spoor run, shape A,
# 1 thread, whose pages are reused after their first pass), UST_EMIT_KEEP=1
# (keep the work directory).
#
# The spoor library and `spoor` binary are copied from build/ into the work
# directory first and the spoor emitter is linked against (and run with) that
# copy: other people rebuild build/ while this runs, and an emitter compiled
# against one tracepoint.h must not load another build's library.
. "$(dirname "$0")/common.sh"
section=ust-emit
heading='## User-space tracing: spoor vs LTTng-UST'

update_doc=
events=2000000
runs=3
dis_n=200000000
nice_val=-10
do_build=1
do_bt2=1
do_perf=1
for arg; do
	case $arg in
	--update-doc) update_doc=1 ;;
	--events=*) events=${arg#*=} ;;
	--runs=*) runs=${arg#*=} ;;
	--disabled-iterations=*) dis_n=${arg#*=} ;;
	--nice=*) nice_val=${arg#*=} ;;
	--no-build) do_build= ;;
	--no-bt2) do_bt2= ;;
	--no-perf) do_perf= ;;
	-h | --help) usage ;;
	*) die "unknown argument '$arg' (see --help)" ;;
	esac
done
for v in "$events" "$runs" "$dis_n"; do
	case $v in '' | *[!0-9]*) die "--events, --runs and --disabled-iterations take a number" ;; esac
done
case $nice_val in '' | *[!0-9-]* | ?*-*) die "--nice takes a number" ;; esac
[ "$runs" -ge 1 ] && [ "$events" -ge 1 ] && [ "$dis_n" -ge 1 ] || die "numbers must be >= 1"
[ "$(id -u)" -eq 0 ] || [ "$nice_val" -ge 0 ] || nice_val=0

spoor_buf=${UST_EMIT_SPOOR_BUFFER:-64m}
spoor_nsub=${UST_EMIT_SPOOR_SUBBUFS:-8}
lttng_configs=${UST_EMIT_LTTNG_CONFIGS:-uid:default pid:default uid:8x1M pid:8x1M uid:8x4M pid:8x4M}
for c in $lttng_configs; do
	case $c in
	uid:default | pid:default | uid:[0-9]*x[0-9]*[KMG] | pid:[0-9]*x[0-9]*[KMG]) ;;
	*) die "UST_EMIT_LTTNG_CONFIGS: '$c' is not BUFFERS:default or BUFFERS:NxSIZE (BUFFERS uid or pid)" ;;
	esac
done
start_threads=30

for tool in gcc lttng lttng-sessiond; do
	command -v "$tool" >/dev/null 2>&1 ||
		die "'$tool' not found (apt-get install -y gcc lttng-tools liblttng-ust-dev)"
done
if [ -n "$do_bt2" ] && ! command -v babeltrace2 >/dev/null 2>&1; then
	die "'babeltrace2' not found (apt-get install -y babeltrace2, or --no-bt2)"
fi
if [ -n "$do_perf" ] && ! command -v perf >/dev/null 2>&1; then
	note "perf not found: no profile"
	do_perf=
fi
if [ -n "$update_doc" ]; then
	[ -f "$doc" ] || die "no $doc"
fi

# ---- root: private mount namespace (see tests/data/lttng-ust/record.sh) ----
if [ "$(id -u)" -eq 0 ] && [ -z "${UST_EMIT_IN_NS:-}" ]; then
	command -v unshare >/dev/null 2>&1 || die "'unshare' not found (util-linux)"
	export UST_EMIT_IN_NS=1
	exec unshare --mount --propagation private -- "$BASH" "$here/$(basename "$0")" "$@"
fi
if [ -n "${UST_EMIT_IN_NS:-}" ]; then
	rundir=$(readlink -f /var/run)
	mount -t tmpfs -o mode=0755 spoor-ust-emit-run "$rundir" ||
		die "cannot mount private tmpfs on $rundir"
	mount -t tmpfs -o mode=1777 spoor-ust-emit-shm /dev/shm ||
		die "cannot mount private tmpfs on /dev/shm"
fi

uptime_before=$(uptime)
started=$(date -u '+%Y-%m-%d %H:%M')

# ---- work dir, cleanup -------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-ust-emit.XXXXXX")
export LTTNG_HOME=$work/home
mkdir -p "$LTTNG_HOME" "$work/lib" "$work/bin"
unset SPOOR_SESSION
pidfile=$work/sessiond.pid
session=ust-emit
session_created=
sessiond_pid=

cleanup() {
	local rc=$?
	set +e
	if [ -n "$session_created" ]; then
		lttng destroy "$session" >/dev/null 2>&1
	fi
	if [ -n "$sessiond_pid" ] && kill -0 "$sessiond_pid" 2>/dev/null; then
		kill -TERM "$sessiond_pid"
		for _ in $(seq 100); do
			kill -0 "$sessiond_pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$sessiond_pid" 2>/dev/null; then
			note "warning: sessiond $sessiond_pid ignored SIGTERM, sending SIGKILL"
			kill -KILL "$sessiond_pid"
		fi
	fi
	end_work "$rc" "${UST_EMIT_KEEP:-}"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

run_nice() {
	if [ "$nice_val" != 0 ]; then
		nice -n "$nice_val" "$@"
	else
		"$@"
	fi
}

# ---- build -------------------------------------------------------------------
if [ -n "$do_build" ]; then
	note "ninja -C $top/build"
	ninja -C "$top/build" >&2 || die "ninja -C $top/build failed (or use --no-build)"
fi
# A consistent snapshot of the library and the recorder (see above).
snapshot_build "$top/build" "$work"
for f in "$top"/include/spoor/*.h "$top"/lib/ust/*; do
	if [ "$f" -nt "$libreal" ]; then
		note "warning: $f is newer than $libreal: the build may be stale"
	fi
done

note "building the emitters (gcc -O2)"
gcc -O2 -Wall -Wextra -I"$top/include" -I"$here" -o "$work/bin/ust-emit-spoor" \
	"$here/ust-emit-spoor.c" "$here/ust-emit-spoor-tp.c" \
	-L"$work/lib" -lspoor-ust -Wl,-rpath,"$work/lib" -lpthread ||
	die "cannot build ust-emit-spoor"
gcc -O2 -Wall -Wextra -I"$here" -o "$work/bin/ust-emit-lttng" \
	"$here/ust-emit-lttng.c" "$here/ust-emit-lttng-tp.c" -llttng-ust -ldl -lpthread ||
	die "cannot build ust-emit-lttng (is liblttng-ust-dev installed?)"
emit_spoor=$work/bin/ust-emit-spoor
emit_lttng=$work/bin/ust-emit-lttng

# ---- private session daemon --------------------------------------------------
note "starting a private lttng-sessiond (LTTNG_HOME=$LTTNG_HOME)"
run_nice lttng-sessiond --daemonize --no-kernel --pidfile="$pidfile" >/dev/null 2>&1 ||
	die "lttng-sessiond failed to start"
for _ in $(seq 100); do
	[ -s "$pidfile" ] && break
	sleep 0.1
done
[ -s "$pidfile" ] || die "lttng-sessiond did not write its pid file"
sessiond_pid=$(cat "$pidfile")
case $sessiond_pid in '' | *[!0-9]*) die "bad pid in $pidfile: '$sessiond_pid'" ;; esac
kill -0 "$sessiond_pid" 2>/dev/null || die "lttng-sessiond (pid $sessiond_pid) is not running"
note "lttng-sessiond pid $sessiond_pid"

# ---- helpers -----------------------------------------------------------------
results=$work/results.tsv # kind tracer shape threads run wall cpu events expected discarded bytes note
: >"$results"

# parse_result FILE: sets $r_wall and $r_cpu, the means over the threads of
# the RESULT line's ns= and cpu= lists.
parse_result() {
	local line
	line=$(grep '^RESULT ' "$1" | tail -n 1) || return 1
	r_wall=$(sed -n 's/.* ns=\([^ ]*\).*/\1/p' <<<"$line" |
		awk -F, '{ for (i = 1; i <= NF; i++) s += $i; printf "%.3f", s / NF }')
	r_cpu=$(sed -n 's/.* cpu=\([^ ]*\).*/\1/p' <<<"$line" |
		awk -F, '{ for (i = 1; i <= NF; i++) s += $i; printf "%.3f", s / NF }')
	[ -n "$r_wall" ] && [ -n "$r_cpu" ]
}

# json_num FILE KEY: the first "KEY": NUMBER of spoor stats --json output.
json_num() {
	grep -o "\"$2\": [0-9]*" "$1" | head -n 1 | awk '{ print $2 }'
}

# stream_bytes DIR: bytes of the stream files (no metadata, no index/).
stream_bytes() {
	find "$1" -type f ! -name metadata ! -path '*/index/*' -printf '%s\n' |
		awk '{ s += $1 } END { print s + 0 }'
}

# check_trace DIR: spoor stats --json; sets $c_events $c_discarded $c_bytes.
check_trace() {
	c_events='' c_discarded='' c_bytes=''
	if ! "$spoor" stats --json "$1" >"$work/stats.json" 2>"$work/stats.err"; then
		cat "$work/stats.err" >&2
		return 1
	fi
	c_events=$(json_num "$work/stats.json" events)
	c_discarded=$(json_num "$work/stats.json" discarded)
	c_bytes=$(stream_bytes "$1")
	[ -n "$c_events" ] && [ -n "$c_discarded" ]
}

run_spoor() { # SHAPE THREADS RUN [KIND BUFFER SUBBUFFERS]
	local shape=$1 t=$2 run=$3 kind=${4:-enabled} buf=${5:-$spoor_buf} nsub=${6:-$spoor_nsub}
	local out=$work/trace-spoor note=''
	rm -rf "$out"
	if ! run_nice "$spoor" record -b "$buf" --subbuffers "$nsub" -o "$out" -- \
		"$emit_spoor" "$shape" "$t" "$events" >"$work/out" 2>"$work/err"; then
		cat "$work/out" "$work/err" >&2
		die "spoor record failed ($shape, $t threads)"
	fi
	parse_result "$work/out" || die "no RESULT from ust-emit-spoor: $(cat "$work/out" "$work/err")"
	check_trace "$out" || die "spoor stats cannot read the spoor trace $out"
	if grep -qi 'warning\|damaged' "$work/err"; then
		note="recorder warned"
		sed 's/^/    /' "$work/err" >&2
	fi
	printf '%s\tspoor\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$shape" "$t" "$run" \
		"$r_wall" "$r_cpu" "$c_events" "$((t * events))" "$c_discarded" "$c_bytes" "$note" >>"$results"
	note "  spoor${5:+ -b $buf --subbuffers $nsub} $shape ${t}T run $run: $r_wall ns/event (CPU $r_cpu), $c_events events, $c_discarded discarded, $c_bytes bytes"
	rm -rf "$out"
}

# channel_args CONFIG: lttng enable-channel's options for a configuration (see the top).
channel_args() {
	local size=${1#*:}
	echo "--buffers-${1%%:*}"
	[ "$size" = default ] || echo "--num-subbuf=${size%%x*} --subbuf-size=${size#*x}"
}
lttng_config=${lttng_configs%% *} # the configuration in use
# config_words CONFIG: the configuration in words, for the report.
config_words() {
	local size=${1#*:} b
	[ "${1%%:*}" = uid ] && b=per-UID || b=per-PID
	if [ "$size" = default ]; then
		echo "$b buffers, lttng's default sub-buffers"
	else
		echo "$b buffers, ${size%%x*} × $(sed 's/[KMG]$/ &iB/' <<<"${size#*x}") sub-buffers per CPU"
	fi
}

# lttng_begin SHAPE DIR: a session recording ust_emit:SHAPE into DIR, started.
lttng_begin() {
	rm -rf "$2"
	lttng create "$session" --output="$2" >/dev/null || die "lttng create failed"
	session_created=1
	# shellcheck disable=SC2046 # options, split on purpose
	lttng enable-channel --userspace $(channel_args "$lttng_config") c0 >/dev/null ||
		die "lttng enable-channel failed"
	lttng enable-event --userspace --channel=c0 "ust_emit:$1" >/dev/null ||
		die "lttng enable-event failed"
	lttng start "$session" >/dev/null || die "lttng start failed"
}

# lttng_end: stop, read the channel's discarded count into $lost, destroy.
lttng_end() {
	lttng stop "$session" >/dev/null || die "lttng stop failed"
	lost=$(lttng list "$session" -c c0 | awk '/Discarded events:/ { s += $3 } END { print s + 0 }')
	lttng destroy "$session" >/dev/null || die "lttng destroy failed"
	session_created=
}

run_lttng() { # SHAPE THREADS RUN [KIND]
	local shape=$1 t=$2 run=$3 kind=${4:-enabled} out=$work/trace-lttng note='' lost bt disc
	lttng_begin "$shape" "$out"
	# Wait (up to 10 s) for the app to register before main(), so no event is missed.
	if ! run_nice env LTTNG_UST_REGISTER_TIMEOUT=10000 "$emit_lttng" "$shape" "$t" "$events" \
		>"$work/out" 2>"$work/err"; then
		cat "$work/out" "$work/err" >&2
		die "ust-emit-lttng failed ($shape, $t threads)"
	fi
	lttng_end
	parse_result "$work/out" || die "no RESULT from ust-emit-lttng: $(cat "$work/out" "$work/err")"
	check_trace "$out" || die "spoor stats cannot read the LTTng trace $out"
	[ "$lost" -le "$c_discarded" ] || c_discarded=$lost
	[ "$lost" = 0 ] || note="lttng list: $lost discarded"
	# (not for the choice of a configuration: lttng list and spoor stats count its losses)
	if [ -n "$do_bt2" ] && [ "$kind" = enabled ]; then
		local tdir
		tdir=$(dirname "$(find "$out" -type f -name metadata | head -n 1)")
		bt=$(babeltrace2 "$tdir" -c sink.utils.counter 2>"$work/bt2.err") ||
			die "babeltrace2 cannot read $tdir: $(cat "$work/bt2.err")"
		local btn
		btn=$(awk '/ Event messages$/ { n = $1 } END { print n + 0 }' <<<"$bt")
		disc=$(awk '/ Discarded event messages$/ { n = $1 } END { print n + 0 }' <<<"$bt")
		if [ "$btn" != "$c_events" ]; then
			note="${note:+$note; }babeltrace2 counts $btn events"
		fi
		if [ "$disc" != 0 ] || grep -qi discard "$work/bt2.err"; then
			note="${note:+$note; }babeltrace2: $disc discarded-events messages"
		fi
	fi
	printf '%s\tlttng\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$shape" "$t" "$run" \
		"$r_wall" "$r_cpu" "$c_events" "$((t * events))" "$c_discarded" "$c_bytes" "$note" >>"$results"
	note "  lttng ($lttng_config) $shape ${t}T run $run: $r_wall ns/event (CPU $r_cpu), $c_events events, $c_discarded discarded, $c_bytes bytes${note:+ ($note)}"
	rm -rf "$out"
}

run_disabled() { # KIND(disabled|empty) TRACER SHAPE RUN
	local kind=$1 tracer=$2 shape=$3 run=$4 bin mode
	[ "$tracer" = spoor ] && bin=$emit_spoor || bin=$emit_lttng
	[ "$kind" = empty ] && mode=empty || mode=$shape
	# No `spoor record` (no SPOOR_SESSION) and no LTTng session: the event is off.
	run_nice "$bin" "$mode" 1 "$dis_n" >"$work/out" 2>"$work/err" ||
		die "$bin $mode failed: $(cat "$work/err")"
	parse_result "$work/out" || die "no RESULT from $bin"
	printf '%s\t%s\t%s\t1\t%s\t%s\t%s\t0\t0\t0\t0\t\n' "$kind" "$tracer" "$shape" "$run" \
		"$r_wall" "$r_cpu" >>"$results"
}

# run_start TRACER RUN: a thread's start (see the top), a row of kind "start" whose wall,
# CPU and (in the bytes column) life columns are the medians in microseconds.
run_start() {
	local tracer=$1 run=$2 line
	if [ "$tracer" = spoor ]; then
		rm -rf "$work/trace-start"
		run_nice "$spoor" record -b "$spoor_buf" --subbuffers "$spoor_nsub" -o "$work/trace-start" -- \
			"$emit_spoor" start 1 "$start_threads" >"$work/out" 2>"$work/err" ||
			die "spoor record of ust-emit-spoor start failed: $(cat "$work/err")"
	else
		lttng_begin ints "$work/trace-start"
		run_nice env LTTNG_UST_REGISTER_TIMEOUT=10000 "$emit_lttng" start 1 "$start_threads" \
			>"$work/out" 2>"$work/err" || die "ust-emit-lttng start failed: $(cat "$work/err")"
		lttng_end
	fi
	rm -rf "$work/trace-start"
	line=$(grep '^RESULT ' "$work/out") || die "no RESULT from $tracer start"
	printf 'start\t%s\t-\t1\t%s\t%s\t%s\t%s\t0\t0\t%s\t\n' "$tracer" "$run" \
		"$(sed -n 's/.* first_us=\([^ ]*\).*/\1/p' <<<"$line")" \
		"$(sed -n 's/.* first_cpu_us=\([^ ]*\).*/\1/p' <<<"$line")" "$start_threads" \
		"$(sed -n 's/.* life_us=\([^ ]*\).*/\1/p' <<<"$line")" >>"$results"
	note "  $tracer start run $run: $line"
}

# ---- measurements ---------------------------------------------------------------
# LTTng's fastest configuration (see the top): shape A, 1 and 2 threads, in each.
if [ "$lttng_configs" != "$lttng_config" ]; then
	note "LTTng configurations: $lttng_configs (ints, 1 and 2 threads, $runs runs each)"
	for run in $(seq "$runs"); do
		for lttng_config in $lttng_configs; do
			for t in 1 2; do
				run_lttng ints "$t" "$run" "pick-$lttng_config"
			done
		done
	done
	best=
	for c in $lttng_configs; do
		# lossless: every run of this configuration counted T x N events, none discarded
		bad=$(awk -F'\t' -v k="pick-$c" '$1 == k && ($8 != $9 || $10 > 0 || $12 != "") { n++ } END { print n + 0 }' "$results")
		c1=$(awk -F'\t' -v k="pick-$c" '$1 == k && $4 == 1 { print $7 }' "$results" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
		c2=$(awk -F'\t' -v k="pick-$c" '$1 == k && $4 == 2 { print $7 }' "$results" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
		score=$(awk -v a="$c1" -v b="$c2" 'BEGIN { printf "%.3f", (a + b) / 2 }')
		note "  LTTng $c: CPU ns/event $c1 (1 thread), $c2 (2 threads), $bad runs with a loss"
		if [ "$bad" = 0 ] && { [ -z "$best" ] || awk -v s="$score" -v b="$best_score" 'BEGIN { exit !(s < b) }'; }; then
			best=$c best_score=$score
		fi
	done
	[ -n "$best" ] || die "every LTTng configuration lost events: $lttng_configs"
	lttng_config=$best
	note "LTTng's fastest lossless configuration: $lttng_config"
fi

note "a thread's start: $start_threads short-lived threads, $runs runs"
for run in $(seq "$runs"); do
	run_start spoor "$run"
	run_start lttng "$run"
done

note "disabled and empty loops: 1 thread, $dis_n iterations, $runs runs"
for run in $(seq "$runs"); do
	for shape in ints str; do
		run_disabled disabled spoor "$shape" "$run"
		run_disabled disabled lttng "$shape" "$run"
	done
	run_disabled empty spoor - "$run"
	run_disabled empty lttng - "$run"
done

note "enabled: $events events per thread, $runs runs of each configuration"
for run in $(seq "$runs"); do
	for shape in ints str; do
		for t in 1 2; do
			run_spoor "$shape" "$t" "$run"
			run_lttng "$shape" "$t" "$run"
		done
	done
done

# The same, shape A, 1 thread, with a ring 8 times smaller, whose pages are reused
# after its first pass: what new pages still cost the thread (spoor's ring is a memfd
# that the program creates at the thread's first event and its runtime's helper thread
# fills while the thread writes, lib/ust/prefault.c; LTTng's buffers are allocated by
# its daemons before the program starts).
small_buf=${UST_EMIT_SPOOR_SMALL_BUFFER:-8m}
note "spoor with -b $small_buf --subbuffers $spoor_nsub (ints, 1 thread)"
for run in $(seq "$runs"); do
	run_spoor ints 1 "$run" smallring "$small_buf" "$spoor_nsub"
done

# ---- profile -----------------------------------------------------------------
# perf_top DATA COMM SORT N: the N top lines of `perf report --sort comm,SORT` for the
# threads named COMM (self time, in % of COMM's samples; perf's own --comm filter
# loses the kernel's and ld.so's samples when sorting by dso).
# kernel_share DATA COMM: % of COMM's samples in the kernel.
perf_lines() {
	perf report -i "$1" --no-children --percentage absolute --sort "comm,$3" -g none 2>/dev/null |
		awk -v comm="$2" '/^ *[0-9.]+%/ && $2 == comm {
			sub(/%/, "", $1); $2 = ""; sub(/[ \t]+-[ \t]+-[ \t]*$/, ""); print }'
}
perf_top() {
	perf_lines "$@" | awk -v max="$4" '
		{ p[NR] = $1; d[NR] = $2; $1 = $2 = ""; sub(/^ +/, ""); l[NR] = $0; s += p[NR] }
		END { for (i = 1; i <= NR && i <= max; i++) printf "%6.2f%%  %-32s %s\n", 100 * p[i] / s, d[i], l[i] }'
}
kernel_share() {
	perf_lines "$1" "$2" dso | awk '{ s += $1 } $2 == "[kernel.kallsyms]" { k += $1 }
		END { if (s > 0) printf "%.0f", 100 * k / s; else print "?" }'
}
profile_spoor=$work/profile-spoor.txt profile_lttng=$work/profile-lttng.txt
: >"$profile_spoor"
: >"$profile_lttng"
if [ -n "$do_perf" ]; then
	note "perf record of the emitters (ints, 1 thread, $events events)"
	rm -rf "$work/trace-perf"
	if run_nice perf record -q -F 9999 -o "$work/perf-spoor.data" -- "$spoor" record -b "$spoor_buf" \
		--subbuffers "$spoor_nsub" -o "$work/trace-perf" -- "$emit_spoor" ints 1 "$events" \
		>"$work/out" 2>"$work/err"; then
		perf_top "$work/perf-spoor.data" ust-emit-spoor dso,symbol 12 >"$profile_spoor" || true
		ksum_spoor=$(kernel_share "$work/perf-spoor.data" ust-emit-spoor)
		# the runtime's helper thread, which allocates the rings' pages (lib/ust/prefault.c)
		helper_share=$(perf report -i "$work/perf-spoor.data" --no-children --sort comm -g none 2>/dev/null |
			awk '$2 == "ust-emit-spoor" { e = $1 } $2 == "spoor-ust-fault" { h = $1 }
				END { sub(/%/, "", e); sub(/%/, "", h); if (e + h > 0) printf "%.0f", 100 * h / (e + h); else print "?" }')
	else
		note "perf record failed: $(tail -n 3 "$work/err")"
	fi
	lttng_begin ints "$work/trace-perf"
	if run_nice perf record -q -F 9999 -o "$work/perf-lttng.data" -- \
		env LTTNG_UST_REGISTER_TIMEOUT=10000 "$emit_lttng" ints 1 "$events" >"$work/out" 2>"$work/err"; then
		# liblttng-ust has no symbol table here: per shared object.
		perf_top "$work/perf-lttng.data" ust-emit-lttng dso 6 >"$profile_lttng" || true
		ksum_lttng=$(kernel_share "$work/perf-lttng.data" ust-emit-lttng)
	else
		note "perf record failed: $(tail -n 3 "$work/err")"
	fi
	lttng_end
	rm -rf "$work/trace-perf"
fi

uptime_after=$(uptime)

# ---- report ------------------------------------------------------------------
# median FILTER-AWK-CONDITION COLUMN: median over the matching rows.
median() {
	awk -F'\t' "$1 { print \$$2 }" "$results" | sort -g |
		awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
range() {
	local lo hi
	lo=$(awk -F'\t' "$1 { print \$$2 }" "$results" | sort -g | head -n 1)
	hi=$(awk -F'\t' "$1 { print \$$2 }" "$results" | sort -g | tail -n 1)
	echo "$(fmt "$lo")–$(fmt "$hi")"
}
fmt() { awk -v x="$1" 'BEGIN { if (x == "") print "?"; else if (x >= 100) printf "%.0f", x; else if (x >= 10) printf "%.1f", x; else printf "%.2f", x }'; }
num() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; }
fmt2() { awk -v x="$1" 'BEGIN { if (x == "") print "?"; else printf "%.2f", x }'; }

rev=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$rev" != unknown ] && ! git -C "$top" --no-optional-locks diff --quiet HEAD -- 2>/dev/null; then
	rev="$rev + uncommitted changes"
fi
ustver=$(dpkg-query -W -f '${Version}' liblttng-ust-dev 2>/dev/null | sed 's/-[^-]*$//' || true)
toolsver=$(lttng --version 2>/dev/null | grep -o '[0-9][0-9.]*[0-9]' | head -n 1 || true)
gccver=$(gcc -dumpfullversion 2>/dev/null || gcc -dumpversion)
kernel=$(uname -r)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
ncpu=$(nproc)
clocksrc=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || echo '?')

report=$work/report.md
goal_lines=$work/goals.md
: >"$goal_lines"
{
	echo "Measured $started UTC by \`bench/ust-emit.sh\` with spoor $rev (emitters: gcc $gccver \`-O2\`), LTTng-UST ${ustver:-?} / lttng-tools ${toolsver:-?};"
	echo "$ncpu CPUs ($cpu), Linux $kernel, clock source $clocksrc."
	if [ "$nice_val" != 0 ]; then
		prio="the emitters, \`spoor record\` and the LTTng daemons at nice $nice_val"
	else
		prio="default priority"
	fi
	echo "$(num "$events") events per thread, median of $runs runs; $prio."
	echo "Machine load (\`uptime\`): before: \`$(sed 's/^ *//' <<<"$uptime_before")\`; after: \`$(sed 's/^ *//' <<<"$uptime_after")\`."
	echo
	echo "Goals (issue 21): an enabled event costs at most **1/8** of LTTng-UST's at its fastest, measured in"
	echo "the same run, for both shapes, 1 and 2 threads (judged on CPU time, the steadier measure on a shared"
	echo "machine; wall time beside); with 2 threads, each thread's CPU time per event at most **1.2×** that of"
	echo "1 thread; **no loss**, and **no more bytes per event** than LTTng-UST (and than spoor before: 20 and"
	echo "29); disabled, no dearer than LTTng-UST's (within 10%)."
	echo
	echo "LTTng-UST's configuration: \`$lttng_config\` ($(config_words "$lttng_config"))$(
		[ "$lttng_configs" = "$lttng_config" ] && echo ", as asked (UST_EMIT_LTTNG_CONFIGS)." ||
			echo ", the fastest lossless one of those tried first in this run (shape A, CPU ns/event, median of $runs runs):")"
	if [ "$lttng_configs" != "$lttng_config" ]; then
		echo
		echo "| LTTng configuration | 1 thread: ns/event (CPU) | 2 threads: ns/event (CPU) | loss |"
		echo "|---|---:|---:|---|"
		for c in $lttng_configs; do
			sel="\$1 == \"pick-$c\""
			loss=$(awk -F'\t' -v k="pick-$c" '$1 == k && ($8 != $9 || $10 > 0 || $12 != "") { n++; d += $10; m += $9 - $8 } END { if (n) printf "%d runs: %.0f discarded, %.0f missing", n, d, m; else print "0" }' "$results")
			printf '| `%s`%s (%s) | %s (%s) | %s (%s) | %s |\n' "$c" "$([ "$c" = "$lttng_config" ] && echo ' **used**')" \
				"$(config_words "$c")" \
				"$(fmt "$(median "$sel && \$4 == 1" 6)")" "$(fmt "$(median "$sel && \$4 == 1" 7)")" \
				"$(fmt "$(median "$sel && \$4 == 2" 6)")" "$(fmt "$(median "$sel && \$4 == 2" 7)")" "$loss"
		done
	fi
	echo
	echo "Commands (\`N\` = events per thread, \`T\` = threads, \`SHAPE\` = \`ints\` or \`str\`):"
	echo
	echo '```sh'
	echo "bench/ust-emit.sh${update_doc:+ --update-doc}   # builds bench/ust-emit-{spoor,lttng}.c with gcc -O2 and runs, per run:"
	echo "spoor record -b $spoor_buf --subbuffers $spoor_nsub -o DIR -- ust-emit-spoor SHAPE T N"
	echo "lttng create ust-emit --output=DIR"
	echo "lttng enable-channel --userspace $(channel_args "$lttng_config" | tr '\n' ' ')c0"
	echo "lttng enable-event --userspace --channel=c0 'ust_emit:SHAPE'; lttng start"
	echo "LTTNG_UST_REGISTER_TIMEOUT=10000 ust-emit-lttng SHAPE T N"
	echo "lttng stop; lttng list ust-emit -c c0   # its 'Discarded events'; then lttng destroy"
	echo "spoor stats --json DIR                  # both traces: events and discarded must be T x N and 0"
	[ -z "$do_bt2" ] || echo "babeltrace2 DIR/ust/.../64-bit -c sink.utils.counter   # LTTng traces: same count, no discarded-events message"
	echo "ust-emit-spoor start 1 $start_threads; ust-emit-lttng start 1 $start_threads   # a thread's start, recorded as above"
	echo "ust-emit-spoor SHAPE 1 $dis_n; ust-emit-lttng SHAPE 1 $dis_n   # disabled: no spoor record, no LTTng session"
	echo "ust-emit-spoor empty 1 $dis_n; ust-emit-lttng empty 1 $dis_n   # the empty loop"
	echo '```'
	echo
	echo "ns/event: the timed loop (\`clock_gettime(CLOCK_MONOTONIC)\`) / events per thread, mean of the threads;"
	echo "median (min–max of the runs). CPU ns/event: the same with the threads' CPU time"
	echo "(\`CLOCK_THREAD_CPUTIME_ID\`), which leaves out time spent waiting for a CPU. Bytes/event: stream files"
	echo "(no metadata, no LTTng \`index/\`) / events."
	echo
	echo "| shape | threads | spoor ns/event | LTTng ns/event | ratio LTTng/spoor | spoor bytes/event | LTTng bytes/event | loss | CPU ns/event spoor / LTTng |"
	echo "|-------|--------:|---------------:|---------------:|------------------:|------------------:|------------------:|------|------------:|"
	for shape in ints str; do
		[ "$shape" = ints ] && sname='A: 2 × uint64' || sname='B: 2 × int + 16-char string'
		for t in 1 2; do
			sel_s="\$1 == \"enabled\" && \$2 == \"spoor\" && \$3 == \"$shape\" && \$4 == $t"
			sel_l="\$1 == \"enabled\" && \$2 == \"lttng\" && \$3 == \"$shape\" && \$4 == $t"
			sw=$(median "$sel_s" 6) lw=$(median "$sel_l" 6)
			sc=$(median "$sel_s" 7) lc=$(median "$sel_l" 7)
			sb=$(awk -F'\t' "$sel_s { print \$11 / \$8 }" "$results" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
			lb=$(awk -F'\t' "$sel_l { print \$11 / \$8 }" "$results" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
			# loss: discarded events and count mismatches of every run, per tracer
			loss=$(awk -F'\t' -v t="$t" -v shape="$shape" '
				$1 == "enabled" && $3 == shape && $4 == t {
					name = $2 == "spoor" ? "spoor" : "LTTng"
					d[name] += $10; runs[name]++
					if ($8 != $9 || $10 > 0) bad[name] = bad[name] sprintf(" run %d: %d of %d recorded, %d discarded;", $5, $8, $9, $10)
					if ($12 != "") bad[name] = bad[name] " run " $5 ": " $12 ";"
				}
				END {
					s = ""
					for (k = 0; k < 2; k++) {
						name = k ? "LTTng" : "spoor"
						if (bad[name] == "" && d[name] == 0) continue
						s = s (s == "" ? "" : " ") "**" name "**:" bad[name]
					}
					print s == "" ? "0" : s
				}' "$results")
			ratio=$(awk -v s="$sw" -v l="$lw" 'BEGIN { if (s > 0) printf "%.2f×", l / s; else print "?" }')
			printf '| %s | %d | %s (%s) | %s (%s) | %s | %s | %s | %s | %s / %s |\n' "$sname" "$t" \
				"$(fmt "$sw")" "$(range "$sel_s" 6)" "$(fmt "$lw")" "$(range "$sel_l" 6)" "$ratio" \
				"$(fmt2 "$sb")" "$(fmt2 "$lb")" "$loss" "$(fmt "$sc")" "$(fmt "$lc")"
			# goal checks
			awk -v shape="$sname" -v t="$t" -v s="$sw" -v l="$lw" -v sc="$sc" -v lc="$lc" 'BEGIN {
				r = l / s; rc = lc / sc
				printf "- enabled, %s, %d thread%s: LTTng/spoor = %.2f× in CPU time (%.2f× wall), goal ≥ 8×: %s; spoor %.1f CPU ns/event, 1/8 of LTTng-UST'"'"'s is %.1f\n",
					shape, t, (t > 1 ? "s" : ""), rc, r, (rc >= 8 ? "**met**" : "not met"), sc, lc / 8
			}' >>"$goal_lines"
		done
		s1=$(median "\$1 == \"enabled\" && \$2 == \"spoor\" && \$3 == \"$shape\" && \$4 == 1" 6)
		s2=$(median "\$1 == \"enabled\" && \$2 == \"spoor\" && \$3 == \"$shape\" && \$4 == 2" 6)
		c1=$(median "\$1 == \"enabled\" && \$2 == \"spoor\" && \$3 == \"$shape\" && \$4 == 1" 7)
		c2=$(median "\$1 == \"enabled\" && \$2 == \"spoor\" && \$3 == \"$shape\" && \$4 == 2" 7)
		awk -v shape="$sname" -v s1="$s1" -v s2="$s2" -v c1="$c1" -v c2="$c2" 'BEGIN {
			printf "- two threads, %s: spoor %.1f CPU ns/event per thread with 2 threads against %.1f with 1 (%.2f×; wall %.2f×), goal ≤ 1.2× (CPU time): %s\n",
				shape, c2, c1, c2 / c1, s2 / s1, (c2 <= 1.2 * c1 ? "**met**" : "not met")
		}' >>"$goal_lines"
		sb=$(awk -F'\t' -v shape="$shape" '$1 == "enabled" && $2 == "spoor" && $3 == shape && $8 > 0 { b += $11; n += $8 } END { if (n) printf "%.2f", b / n }' "$results")
		lb=$(awk -F'\t' -v shape="$shape" '$1 == "enabled" && $2 == "lttng" && $3 == shape && $8 > 0 { b += $11; n += $8 } END { if (n) printf "%.2f", b / n }' "$results")
		# spoor's bytes per event before issue 21: 20 (A), 29 (B)
		[ "$shape" = ints ] && before=20 || before=29
		awk -v shape="$sname" -v s="$sb" -v l="$lb" -v b="$before" 'BEGIN {
			printf "- bytes, %s: spoor %.2f bytes/event, LTTng-UST %.2f, goal spoor ≤ LTTng-UST and ≤ %d (before issue 21): %s\n",
				shape, s, l, b, (s <= l && s <= b ? "**met**" : "not met")
		}' >>"$goal_lines"
	done
	echo
	# wall (column 6) and CPU (column 7) medians of the disabled and empty loops
	dmed() { median "\$1 == \"$1\" && \$2 == \"$2\" && (\"$3\" == \"-\" || \$3 == \"$3\")" "$4"; }
	dsa6=$(dmed disabled spoor ints 6) dsa7=$(dmed disabled spoor ints 7)
	dsb6=$(dmed disabled spoor str 6) dsb7=$(dmed disabled spoor str 7)
	dla6=$(dmed disabled lttng ints 6) dla7=$(dmed disabled lttng ints 7)
	dlb6=$(dmed disabled lttng str 6) dlb7=$(dmed disabled lttng str 7)
	es6=$(dmed empty spoor - 6) es7=$(dmed empty spoor - 7)
	el6=$(dmed empty lttng - 6) el7=$(dmed empty lttng - 7)
	echo "**Disabled** (1 thread, $(num "$dis_n") iterations, median of $runs runs), ns/iteration, wall (CPU):" \
		"spoor $(fmt2 "$dsa6") ($(fmt2 "$dsa7")) for A, $(fmt2 "$dsb6") ($(fmt2 "$dsb7")) for B;" \
		"LTTng-UST $(fmt2 "$dla6") ($(fmt2 "$dla7")) for A, $(fmt2 "$dlb6") ($(fmt2 "$dlb7")) for B;" \
		"empty loop $(fmt2 "$es6") ($(fmt2 "$es7")) in spoor's program, $(fmt2 "$el6") ($(fmt2 "$el7")) in LTTng's."
	awk -v sa="$dsa7" -v la="$dla7" -v sb="$dsb7" -v lb="$dlb7" -v es="$es7" -v el="$el7" 'BEGIN {
		printf "- disabled (CPU time): spoor %.2f (A) / %.2f (B) ns against LTTng-UST %.2f / %.2f (empty loop %.2f / %.2f), goal spoor ≤ LTTng-UST (within 10%%): %s\n",
			sa, sb, la, lb, es, el, ((sa <= 1.1 * la && sb <= 1.1 * lb) ? "**met**" : "not met")
	}' >>"$goal_lines"
	rw=$(median '$1 == "smallring"' 6) rc=$(median '$1 == "smallring"' 7)
	rl=$(awk -F'\t' '$1 == "smallring" { d += $10; if ($8 != $9) bad++ } END { if (d || bad) printf "%d discarded, %d runs incomplete", d, bad; else print "none" }' "$results")
	rb=$(awk -F'\t' '$1 == "smallring" && $8 > 0 { b += $11; n += $8 } END { if (n) printf "%.2f", b / n }' "$results")
	ss() { median "\$1 == \"start\" && \$2 == \"$1\"" "$2"; }
	echo
	echo "**A thread's start** ($start_threads short-lived threads one after the other, each emitting one event; medians, then the"
	echo "median of $runs runs), µs: its first event, wall (CPU), and the thread's whole life (\`pthread_create\` to \`pthread_join\`):" \
		"spoor $(fmt "$(ss spoor 6)") ($(fmt "$(ss spoor 7)")), life $(fmt "$(ss spoor 11)");" \
		"LTTng-UST $(fmt "$(ss lttng 6)") ($(fmt "$(ss lttng 7)")), life $(fmt "$(ss lttng 11)")."
	echo
	echo "**Ring size** (spoor, A, 1 thread, \`-b $small_buf --subbuffers $spoor_nsub\` instead of \`-b $spoor_buf\`: the ring is reused"
	echo "after its first $small_buf, so most events land on pages written before, where the $spoor_buf ring's are new, allocated by the helper thread):" \
		"$(fmt "$rw") ns/event, CPU $(fmt "$rc") ns/event, $(fmt2 "$rb") bytes/event, loss: $rl."
	echo
	echo "Goal check:"
	echo
	cat "$goal_lines"
	if [ -s "$profile_spoor" ]; then
		echo
		echo "Where the emitters spend their time: \`perf record -F 9999\` of shape A, 1 thread, $(num "$events") events"
		echo "(\`spoor record ... -- ust-emit-spoor ints 1 N\`, and \`ust-emit-lttng ints 1 N\` in an LTTng session);"
		echo "self time in % of the emitter's samples, its whole life (set-up and exit included)."
		echo "In the kernel: spoor ${ksum_spoor:-?}%, LTTng-UST ${ksum_lttng:-?}%. Not in spoor's lines: its runtime's helper thread"
		echo "(\`spoor-ust-fault\`, which allocates the ring's pages), ${helper_share:-?}% of the program's samples."
		echo
		echo '```'
		echo "spoor, top functions:"
		sed 's/[[:space:]]*$//; s/^/  /' "$profile_spoor"
		if [ -s "$profile_lttng" ]; then
			echo "LTTng-UST, per shared object:"
			sed 's/[[:space:]]*$//; s/^/  /' "$profile_lttng"
		fi
		echo '```'
	fi
} >"$report"

cat "$report"

if [ -n "$update_doc" ]; then
	update_section "$report" "$heading"
fi
