#!/bin/bash
#
# sessions.sh [--update-doc] [--runs=N] [--spawns=N] [--events=N] [--fill-events=N]
#             [--nice=N] [--build=DIR] [--no-build] [--no-lttng] [--no-spoor]
#
# Sessions (issue 17): spoor's session daemon (`spoor daemon`, `spoor session`) side by
# side with LTTng's (lttng-sessiond, `lttng`), in the same run, on the same programs
# (bench/sessions-app-spoor.c and bench/sessions-app-lttng.c, one code for both:
# bench/sessions-app.h; bench/ust-emit.sh's emitters; the events are its shape A,
# ust_emit:ints, two uint64_t). Four measures:
#
#   start-up     a program's start-up time, exec to main's first line and to its exit
#                (bench/startup-time.c: --spawns runs of `sessions-app-T start`, which
#                emits one event), with no daemon, with a daemon and no session, and with
#                a daemon and a started session enabling ust_emit:*; LTTng-UST's
#                constructor waits for its daemon up to LTTNG_UST_REGISTER_TIMEOUT (left
#                at its default here), spoor's up to 100 ms (docs/sessions.md).
#   start        the time from a start command (`spoor session start`, `lttng start`),
#                run against a program already registered, to the session's first
#                recorded event: `sessions-app-T paced 20` emits an event every 20 us
#                carrying its CLOCK_REALTIME, and the first one the trace holds, minus the
#                time the command was run (bash's $EPOCHREALTIME), is the measure; also
#                the command's own time.
#   emit         the cost of an event with 0, 1 and 2 sessions enabling it (the same
#                program recording into both): `ust-emit-T ints 1 --events`, as
#                bench/ust-emit.sh runs it, ns/event (wall and thread CPU time), every
#                session's trace checked to hold every event (spoor stats --json).
#   snapshot     the time of `spoor session snapshot` and `lttng snapshot record` of a
#                flight recorder whose rings hold 2 x 64 MiB: spoor a 64 MiB ring
#                per thread (-b 64m --subbuffers 8, --overwrite), LTTng per-UID rings of
#                8 x 8 MiB per CPU (--overwrite, a --snapshot session), filled by
#                `sessions-app-T fill 2 --fill-events` (two threads, pinned to CPUs 0
#                and 1), the program still running; the snapshot's bytes and events too.
#
# Each measure runs --runs times (3; start-up: --spawns programs, 200, a share in each run,
# where the daemons are started anew) and the median is kept. The Markdown result goes to stdout, progress to stderr; with --update-doc it
# replaces the section between <!-- sessions:begin --> and <!-- sessions:end --> of
# docs/PERFORMANCE.md (added at its end if absent).
#
# Isolation (as bench/ust-emit.sh): as root the script re-runs itself in a private mount
# namespace with fresh tmpfs on /run and /dev/shm, a private LTTNG_HOME, the traces on a
# tmpfs, and private spoor sockets (SPOOR_SYSTEM_SOCKET, SPOOR_USER_SOCKET), so it never
# talks to or disturbs another daemon; it starts its own `lttng-sessiond --daemonize
# --no-kernel` and `spoor daemon --foreground`, and stops them by their pids. Not root:
# spoor only.
#
# Options:
#   --update-doc        write the result into docs/PERFORMANCE.md
#   --runs=N            runs of the start, emit and snapshot measures [3]
#   --spawns=N          programs started per start-up case [200]
#   --events=N          events of the emit measure [2000000]
#   --fill-events=N     events per thread that fill the snapshot's rings [4000000]
#   --nice=N            the daemons and programs at this nice value (root only) [-10]
#   --build=DIR         the meson build directory of spoor [build]
#   --no-build          do not run ninja in it first
#   --no-lttng          spoor only
#   --no-spoor          LTTng only
# Environment: SESSIONS_KEEP=1 keeps the work directory (not the traces: on a tmpfs).
#
# The spoor library and binary are copied from the build directory into the work
# directory first and spoor's programs are linked against (and run with) that copy.
. "$(dirname "$0")/common.sh"
section=sessions
heading='## Sessions: spoor daemon vs lttng-sessiond'

update_doc=
runs=3
spawns=200
events=2000000
fill_events=4000000
nice_val=-10
build=$top/build
do_build=1
do_lttng=1
do_spoor=1
for arg; do
	case $arg in
	--update-doc) update_doc=1 ;;
	--runs=*) runs=${arg#*=} ;;
	--spawns=*) spawns=${arg#*=} ;;
	--events=*) events=${arg#*=} ;;
	--fill-events=*) fill_events=${arg#*=} ;;
	--nice=*) nice_val=${arg#*=} ;;
	--build=*) build=${arg#*=} ;;
	--no-build) do_build= ;;
	--no-lttng) do_lttng= ;;
	--no-spoor) do_spoor= ;;
	-h | --help) usage ;;
	*) die "unknown argument '$arg' (see --help)" ;;
	esac
done
for v in "$runs" "$spawns" "$events" "$fill_events"; do
	case $v in '' | *[!0-9]* | 0) die "--runs, --spawns, --events and --fill-events take a number >= 1" ;; esac
done
case $nice_val in '' | *[!0-9-]* | ?*-*) die "--nice takes a number" ;; esac
build=$(cd "$build" 2>/dev/null && pwd) || die "no build directory '$build'"
[ -n "$do_lttng$do_spoor" ] || die "--no-lttng and --no-spoor: nothing to measure"
command -v gcc >/dev/null 2>&1 || die "'gcc' not found"
[ -n "${EPOCHREALTIME:-}" ] || die "bash 5 is needed (\$EPOCHREALTIME)"

if [ "$(id -u)" -ne 0 ]; then
	[ "$nice_val" -ge 0 ] || nice_val=0
	if [ -n "$do_lttng" ]; then
		note "not root: no private namespace for lttng-sessiond, spoor only"
		do_lttng=
	fi
fi
if [ -n "$do_lttng" ]; then
	for tool in lttng lttng-sessiond babeltrace2 unshare; do
		command -v "$tool" >/dev/null 2>&1 ||
			die "'$tool' not found (apt-get install -y lttng-tools liblttng-ust-dev babeltrace2; or --no-lttng)"
	done
fi
[ -z "$update_doc" ] || [ -f "$doc" ] || die "no $doc"

# ---- root: a private mount namespace ---------------------------------------------------
if [ "$(id -u)" -eq 0 ] && [ -z "${SESSIONS_IN_NS:-}" ]; then
	export SESSIONS_IN_NS=1
	exec unshare --mount --propagation private -- "$BASH" "$here/$(basename "$0")" "$@"
fi
if [ -n "${SESSIONS_IN_NS:-}" ]; then
	rundir=$(readlink -f /var/run)
	mount -t tmpfs -o mode=0755 spoor-sessions-run "$rundir" || die "cannot mount a tmpfs on $rundir"
	mount -t tmpfs -o mode=1777 spoor-sessions-shm /dev/shm || die "cannot mount a tmpfs on /dev/shm"
fi

uptime_before=$(uptime)
started=$(date -u '+%Y-%m-%d %H:%M')

# ---- work dir, cleanup ------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-sessions.XXXXXX")
export LTTNG_HOME=$work/home
mkdir -p "$LTTNG_HOME" "$work/lib" "$work/bin" "$work/traces"
traces=$work/traces
traces_mounted=
if [ -n "${SESSIONS_IN_NS:-}" ]; then
	mount -t tmpfs -o mode=0700 spoor-sessions-traces "$traces" || die "cannot mount a tmpfs on $traces"
	traces_mounted=1
fi
# spoor's daemon on a private socket; no other daemon is seen by the programs
unset SPOOR_SESSION
export SPOOR_SYSTEM_SOCKET=$work/spoor/daemon.sock SPOOR_USER_SOCKET=$work/spoor/daemon.sock
export SPOOR_DAEMON_SOCKET=$SPOOR_SYSTEM_SOCKET
sessiond_pid=
spoord_pid=
app_pid=
lttng_sessions=()
spoor_sessions=()

stop_pid() { # stop_pid PID NAME: SIGTERM, then SIGKILL after 10 s
	kill -0 "$1" 2>/dev/null || return 0
	kill -TERM "$1"
	for _ in $(seq 100); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	note "warning: $2 (pid $1) ignored SIGTERM, sending SIGKILL"
	kill -KILL "$1"
}
cleanup() {
	local rc=$? s
	set +e
	[ -z "$app_pid" ] || stop_pid "$app_pid" program
	for s in "${lttng_sessions[@]}"; do lttng destroy "$s" >/dev/null 2>&1; done
	for s in "${spoor_sessions[@]}"; do "$spoor" session destroy "$s" >/dev/null 2>&1; done
	[ -z "$sessiond_pid" ] || stop_pid "$sessiond_pid" lttng-sessiond
	[ -z "$spoord_pid" ] || stop_pid "$spoord_pid" "spoor daemon"
	[ -z "$traces_mounted" ] || umount "$traces"
	end_work "$rc" "${SESSIONS_KEEP:-}"
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
nice_cmd=() # for what starts with &: a simple command, so that $! is its own pid
[ "$nice_val" = 0 ] || nice_cmd=(nice -n "$nice_val")
now_ns() { echo "${EPOCHREALTIME/./}000"; } # CLOCK_REALTIME, without a fork

# wait_file FILE WORD PID WHAT: until FILE holds WORD (30 s), PID still alive
wait_file() {
	for _ in $(seq 600); do
		grep -qx "$2" "$1" 2>/dev/null && return 0
		kill -0 "$3" 2>/dev/null || die "$4 exited early"
		sleep 0.05
	done
	die "$4 did not write '$2' to $1 in 30 s"
}

# ---- build -------------------------------------------------------------------------------
if [ -n "$do_build" ]; then
	note "ninja -C $build"
	ninja -C "$build" >&2 || die "ninja -C $build failed (or use --no-build)"
fi
snapshot_build "$build" "$work"
if [ -n "$do_spoor" ] && ! "$spoor" help daemon >/dev/null 2>&1; then
	note "this spoor has no 'daemon' command: LTTng only"
	do_spoor=
fi
note "building the programs (gcc -O2)"
gcc -O2 -Wall -Wextra -o "$work/bin/startup-time" "$here/startup-time.c" || die "cannot build startup-time"
gcc -O2 -Wall -Wextra -I"$top/include" -I"$here" -o "$work/bin/sessions-app-spoor" \
	"$here/sessions-app-spoor.c" "$here/ust-emit-spoor-tp.c" \
	-L"$work/lib" -lspoor-ust -Wl,-rpath,"$work/lib" -lpthread &&
	gcc -O2 -Wall -Wextra -I"$top/include" -I"$here" -o "$work/bin/ust-emit-spoor" \
		"$here/ust-emit-spoor.c" "$here/ust-emit-spoor-tp.c" \
		-L"$work/lib" -lspoor-ust -Wl,-rpath,"$work/lib" -lpthread || die "cannot build spoor's programs"
if [ -n "$do_lttng" ]; then
	gcc -O2 -Wall -Wextra -I"$here" -o "$work/bin/sessions-app-lttng" \
		"$here/sessions-app-lttng.c" "$here/ust-emit-lttng-tp.c" -llttng-ust -ldl -lpthread &&
		gcc -O2 -Wall -Wextra -I"$here" -o "$work/bin/ust-emit-lttng" \
			"$here/ust-emit-lttng.c" "$here/ust-emit-lttng-tp.c" -llttng-ust -ldl -lpthread ||
		die "cannot build LTTng's programs (is liblttng-ust-dev installed?)"
fi
startup=$work/bin/startup-time

results=$work/results.tsv # measure tracer case run value value2 note
: >"$results"
row() { # MEASURE TRACER CASE RUN VALUE VALUE2 NOTE
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$results"
	note "  $1 $2 $3 run $4: $5 $6${7:+ ($7)}"
}

# stats_of DIR: sets s_events, s_discarded (spoor stats --json reads both tracers' traces)
stats_of() {
	"$spoor" stats --json "$1" >"$work/stats.json" 2>"$work/stats.err" ||
		die "spoor stats cannot read $1: $(head -c 300 "$work/stats.err")"
	s_events=$(grep -o '"events": [0-9]*' "$work/stats.json" | head -n 1 | awk '{ print $2 }')
	s_discarded=$(grep -o '"discarded": [0-9]*' "$work/stats.json" | head -n 1 | awk '{ print $2 }')
	[ -n "$s_events" ] && [ -n "$s_discarded" ] || die "no counts in spoor stats --json $1"
}

# first_a DIR: the field a of the trace's first event (babeltrace2's order)
first_a() {
	{ babeltrace2 "$1" 2>/dev/null || true; } | grep -m 1 -o ' a = [0-9]*' | awk '{ print $3 }' || true
}

# startup_case TRACER CASE: --spawns runs of sessions-app-TRACER start
startup_case() {
	local app=$work/bin/sessions-app-$1
	run_nice "$startup" "$per_run" "$app" start >"$work/startup.out" 2>"$work/startup.err" ||
		die "start-up of $1 ($2) failed: $(cat "$work/startup.err")"
	sed -n 's/^RUN main_ns=\([0-9]*\) exit_ns=\([0-9]*\)$/\1\t\2/p' "$work/startup.out" |
		while IFS=$'\t' read -r m e; do
			printf 'startup\t%s\t%s\t0\t%s\t%s\t\n' "$1" "$2" "$m" "$e"
		done >>"$results"
	note "  startup $1 $2: $(awk -F'\t' -v t="$1" -v c="$2" '$1 == "startup" && $2 == t && $3 == c { n++ } END { print n }' "$results") programs"
}

# ---- the daemons, and each tracer's session commands ------------------------------------
lttng_daemon_start() {
	note "starting a private lttng-sessiond (LTTNG_HOME=$LTTNG_HOME)"
	rm -f "$work/sessiond.pid"
	run_nice lttng-sessiond --daemonize --no-kernel --pidfile="$work/sessiond.pid" >/dev/null 2>&1 ||
		die "lttng-sessiond failed to start"
	for _ in $(seq 100); do
		[ -s "$work/sessiond.pid" ] && break
		sleep 0.1
	done
	sessiond_pid=$(cat "$work/sessiond.pid" 2>/dev/null || true)
	case $sessiond_pid in '' | *[!0-9]*) die "lttng-sessiond wrote no pid file" ;; esac
}
spoor_daemon_start() {
	note "starting spoor daemon --foreground on $SPOOR_SYSTEM_SOCKET"
	mkdir -p "$work/spoor"
	"${nice_cmd[@]}" "$spoor" daemon --foreground --socket "$SPOOR_SYSTEM_SOCKET" >"$work/spoord.log" 2>&1 &
	spoord_pid=$!
	for _ in $(seq 100); do
		[ -S "$SPOOR_SYSTEM_SOCKET" ] && break
		kill -0 "$spoord_pid" 2>/dev/null || die "spoor daemon exited: $(cat "$work/spoord.log")"
		sleep 0.05
	done
	[ -S "$SPOOR_SYSTEM_SOCKET" ] || die "spoor daemon made no socket"
}

# session_make TRACER NAME DIR KIND: a session recording ust_emit:ints into DIR; KIND is
# plain (default buffers), emit (bench/ust-emit.sh's buffers: spoor 64 MiB a thread,
# LTTng 8 x 4 MiB a CPU) or snap (a flight recorder of 64 MiB a thread, or a CPU)
session_make() {
	local t=$1 name=$2 dir=$3 kind=$4
	if [ "$t" = lttng ]; then
		local create=() chan=()
		case $kind in
		emit) chan=(--subbuf-size=4M --num-subbuf=8) ;;
		snap) create=(--snapshot) chan=(--overwrite --subbuf-size=8M --num-subbuf=8) ;;
		esac
		lttng create "$name" --output="$dir" "${create[@]}" >/dev/null || die "lttng create $name failed"
		lttng_sessions+=("$name")
		lttng enable-channel --session="$name" --userspace --buffers-uid "${chan[@]}" c0 >/dev/null &&
			lttng enable-event --session="$name" --userspace --channel=c0 ust_emit:ints >/dev/null ||
			die "lttng enable-channel or enable-event failed"
	else
		local opts=()
		case $kind in
		emit) opts=(-b 64m --subbuffers 8) ;;
		snap) opts=(--overwrite -b 64m --subbuffers 8) ;;
		esac
		"$spoor" session create "$name" -o "$dir" "${opts[@]}" >/dev/null || die "spoor session create $name failed"
		spoor_sessions+=("$name")
		"$spoor" session enable "$name" -u 'ust_emit:*' >/dev/null || die "spoor session enable failed"
	fi
}
session_do() { # TRACER VERB NAME [DIR]: start, stop, or snapshot (into DIR)
	if [ "$1" = lttng ]; then
		case $2 in
		snapshot) lttng snapshot record --session="$3" ;;
		*) lttng "$2" "$3" ;;
		esac
	else
		"$spoor" session "$2" "$3" ${4:+-o "$4"}
	fi >/dev/null || die "$1: $2 $3 failed"
}
sessions_destroy() { # TRACER: destroys every session the script made with it
	local s
	if [ "$1" = lttng ]; then
		for s in "${lttng_sessions[@]}"; do lttng destroy "$s" >/dev/null || die "lttng destroy $s failed"; done
		lttng_sessions=()
	else
		for s in "${spoor_sessions[@]}"; do
			"$spoor" session destroy "$s" >/dev/null || die "spoor session destroy $s failed"
		done
		spoor_sessions=()
	fi
}
# app_start TRACER STATUS WORD MODE ARGS...: sessions-app-TRACER in the background, until it
# writes WORD to STATUS (LTTng's waits up to 10 s for its daemon before main, as
# bench/ust-emit.sh runs it, so that it misses nothing)
app_start() {
	local t=$1 status=$2 word=$3
	shift 3
	rm -f "$status"
	LTTNG_UST_REGISTER_TIMEOUT=10000 "${nice_cmd[@]}" "$work/bin/sessions-app-$t" "$@" "$status" &
	app_pid=$!
	wait_file "$status" "$word" "$app_pid" "sessions-app-$t $1"
}
app_stop() {
	stop_pid "$app_pid" sessions-app
	wait "$app_pid" || true
	app_pid=
}

# ---- the measures ----------------------------------------------------------------------------
startup_sessions() { # TRACER: start-up with a daemon, then with a started session
	startup_case "$1" "with a daemon"
	session_make "$1" st "$traces/$1-st" plain
	session_do "$1" start st
	startup_case "$1" "with a session"
	sessions_destroy "$1"
	rm -rf "$traces/$1-st"
}

start_latency() { # TRACER RUN
	local t=$1 t0 t1 a
	session_make "$t" first "$traces/$t-first" plain
	app_start "$t" "$work/paced.status" ready paced 20
	sleep 0.3
	t0=$(now_ns)
	session_do "$t" start first
	t1=$(now_ns)
	sleep 0.3
	session_do "$t" stop first
	app_stop
	sessions_destroy "$t"
	a=$(first_a "$traces/$t-first")
	[ -n "$a" ] || die "no event in $t's trace of the start measure"
	row start "$t" "start to first event" "$2" "$((a - t0))" "$((t1 - t0))" ""
	rm -rf "$traces/$t-first"
}

emit_cost() { # TRACER SESSIONS RUN
	local t=$1 n=$2 i note='' loss=0 line
	for i in $(seq "$n"); do
		session_make "$t" "emit$i" "$traces/$t-emit$i" emit
		session_do "$t" start "emit$i"
	done
	LTTNG_UST_REGISTER_TIMEOUT=10000 run_nice "$work/bin/ust-emit-$t" ints 1 "$events" \
		>"$work/emit.out" 2>"$work/emit.err" || die "ust-emit-$t failed: $(cat "$work/emit.err")"
	for i in $(seq "$n"); do session_do "$t" stop "emit$i"; done
	sessions_destroy "$t"
	for i in $(seq "$n"); do
		stats_of "$traces/$t-emit$i"
		[ "$s_events" = "$events" ] || note="${note:+$note; }session $i: $s_events events of $events"
		loss=$((loss + s_discarded))
	done
	[ "$loss" = 0 ] || note="${note:+$note; }$loss discarded"
	line=$(grep '^RESULT ' "$work/emit.out") || die "no RESULT from ust-emit-$t"
	row emit "$t" "$n sessions" "$3" "$(sed -n 's/.* ns=\([0-9.]*\).*/\1/p' <<<"$line")" \
		"$(sed -n 's/.* cpu=\([0-9.]*\).*/\1/p' <<<"$line")" "$note"
	rm -rf "$traces/$t"-emit*
}

snapshot_time() { # TRACER RUN
	local t=$1 t0 t1 out=$traces/$t-snap bytes
	session_make "$t" snap "$out" snap
	session_do "$t" start snap
	app_start "$t" "$work/fill.status" filled fill 2 "$fill_events"
	# LTTng writes snapshots under the session's output, spoor where -o says
	[ "$t" = lttng ] || out=$traces/spoor-snapshot
	t0=$(now_ns)
	if ! (session_do "$t" snapshot snap "$out") 2>"$work/snap.err"; then
		# a daemon without snapshots yet: said in the table, the other measures go on
		app_stop
		sessions_destroy "$t"
		row snapshot "$t" "2 x 64 MiB" "$2" "" "" "failed: $(head -n 1 "$work/snap.err")"
		return
	fi
	t1=$(now_ns)
	app_stop
	sessions_destroy "$t"
	find "$out" -name metadata | grep -q . || die "no snapshot under $out"
	bytes=$(find "$out" -type f ! -name metadata ! -path '*/index/*' -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
	stats_of "$out"
	row snapshot "$t" "2 x 64 MiB" "$2" "$((t1 - t0))" "$bytes" "$s_events events"
	rm -rf "$traces/$t-snapshot" "$traces/$t-snap"
}

# ---- runs ----------------------------------------------------------------------------------
tracers=()
[ -z "$do_spoor" ] || tracers+=(spoor)
[ -z "$do_lttng" ] || tracers+=(lttng)
# The start-up cases a share of the programs in each run, the daemons started again for
# it, so that a busy spell of the machine does not fall on one case alone.
per_run=$(((spawns + runs - 1) / runs))
for run in $(seq "$runs"); do
	note "run $run of $runs: start-up ($per_run programs a case), start to first event, emit cost, snapshot"
	[ -z "$sessiond_pid" ] || { stop_pid "$sessiond_pid" lttng-sessiond; sessiond_pid=; }
	[ -z "$spoord_pid" ] || { stop_pid "$spoord_pid" "spoor daemon"; wait "$spoord_pid" || true; spoord_pid=; }
	for t in "${tracers[@]}"; do startup_case "$t" "no daemon"; done
	[ -z "$do_lttng" ] || lttng_daemon_start
	[ -z "$do_spoor" ] || spoor_daemon_start
	for t in "${tracers[@]}"; do startup_sessions "$t"; done
	for t in "${tracers[@]}"; do start_latency "$t" "$run"; done
	for n in 0 1 2; do
		for t in "${tracers[@]}"; do emit_cost "$t" "$n" "$run"; done
	done
	for t in "${tracers[@]}"; do snapshot_time "$t" "$run"; done
done
uptime_after=$(uptime)

# ---- report ----------------------------------------------------------------------------------
# median MEASURE TRACER CASE COLUMN (5: value, 6: value2), and pct P of the same
values() { awk -F'\t' -v m="$1" -v t="$2" -v c="$3" -v k="$4" '$1 == m && $2 == t && $3 == c { print $k }' "$results" | sort -g; }
median() { values "$@" | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
pct() { values "$1" "$2" "$3" "$4" | awk -v p="$5" '{ v[NR] = $1 } END { if (NR) { i = int(p * NR / 100 + 0.5); if (i < 1) i = 1; if (i > NR) i = NR; print v[i] } }'; }
notes() { awk -F'\t' -v m="$1" -v t="$2" -v c="$3" '$1 == m && $2 == t && $3 == c && $7 != "" { printf "%srun %s: %s", (n++ ? "; " : ""), $4, $7 }' "$results"; }
ms() { awk -v x="$1" 'BEGIN { if (x == "") print "–"; else if (x >= 1e8) printf "%.0f", x / 1e6; else if (x >= 1e7) printf "%.1f", x / 1e6; else printf "%.2f", x / 1e6 }'; }
ns() { awk -v x="$1" 'BEGIN { if (x == "") print "–"; else if (x >= 100) printf "%.0f", x; else if (x >= 10) printf "%.1f", x; else printf "%.2f", x }'; }
ratio() { awk -v s="$1" -v l="$2" 'BEGIN { if (s > 0 && l != "") printf "%.2f×", l / s; else print "–" }'; }
mib() { awk -v x="$1" 'BEGIN { if (x == "") print "–"; else printf "%.1f", x / 1048576 }'; }
num() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; }

rev=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$rev" != unknown ] && ! git -C "$top" --no-optional-locks diff --quiet HEAD -- 2>/dev/null; then
	rev="$rev + uncommitted changes"
fi
toolsver=$(lttng --version 2>/dev/null | grep -o '[0-9][0-9.]*[0-9]' | head -n 1 || true)
ustver=$(dpkg-query -W -f '${Version}' liblttng-ust-dev 2>/dev/null | sed 's/-[^-]*$//' || true)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)

report=$work/report.md
{
	echo "Measured $started UTC by \`bench/sessions.sh\` with spoor $rev, lttng-tools ${toolsver:-?} / LTTng-UST ${ustver:-?};"
	echo "$(nproc) CPUs ($cpu), Linux $(uname -r). Load before: \`${uptime_before#*load average: }\`, after: \`${uptime_after#*load average: }\`."
	[ "$nice_val" = 0 ] || echo "The daemons and programs at nice $nice_val."
	echo
	echo "**Start-up** of a program (\`sessions-app-T start\`: emits one event), $(num "$((per_run * runs))") programs per row ($per_run a run, the daemons started anew each run),"
	echo "median (10th–90th percentile), ms: from fork to main's first line, and to its exit."
	echo
	echo "| case | spoor to main | LTTng-UST to main | ratio LTTng/spoor | spoor to exit | LTTng-UST to exit |"
	echo "|------|-------------:|------------------:|------------------:|--------------:|------------------:|"
	for c in "no daemon" "with a daemon" "with a session"; do
		sm=$(median startup spoor "$c" 5) lm=$(median startup lttng "$c" 5)
		se=$(median startup spoor "$c" 6) le=$(median startup lttng "$c" 6)
		printf '| %s | %s (%s–%s) | %s (%s–%s) | %s | %s | %s |\n' "$c" \
			"$(ms "$sm")" "$(ms "$(pct startup spoor "$c" 5 10)")" "$(ms "$(pct startup spoor "$c" 5 90)")" \
			"$(ms "$lm")" "$(ms "$(pct startup lttng "$c" 5 10)")" "$(ms "$(pct startup lttng "$c" 5 90)")" \
			"$(ratio "$sm" "$lm")" "$(ms "$se")" "$(ms "$le")"
	done
	echo
	awk -v s0="$(median startup spoor "no daemon" 5)" -v s1="$(median startup spoor "with a daemon" 5)" \
		-v s2="$(median startup spoor "with a session" 5)" -v l0="$(median startup lttng "no daemon" 5)" \
		-v l1="$(median startup lttng "with a daemon" 5)" -v l2="$(median startup lttng "with a session" 5)" 'BEGIN {
		if (s0 == "" || l0 == "") exit
		printf "Registration, the medians to main against no daemon: spoor %+.2f ms with a daemon, %+.2f ms with a started session (goal: under 1 ms: %s); LTTng-UST %+.2f ms and %+.2f ms.\n",
			(s1 - s0) / 1e6, (s2 - s0) / 1e6, ((s1 - s0 < 1e6 && s2 - s0 < 1e6) ? "**met**" : "not met"), (l1 - l0) / 1e6, (l2 - l0) / 1e6
	}'
	echo
	c="start to first event"
	sf=$(median start spoor "$c" 5) lf=$(median start lttng "$c" 5)
	echo "**Start to first event** (a program already registered, emitting every 20 µs; median (min–max) of $runs runs), ms:"
	echo "spoor $(ms "$sf") ($(ms "$(pct start spoor "$c" 5 0)")–$(ms "$(pct start spoor "$c" 5 100)"); \`spoor session start\` itself $(ms "$(median start spoor "$c" 6)")),"
	echo "LTTng $(ms "$lf") ($(ms "$(pct start lttng "$c" 5 0)")–$(ms "$(pct start lttng "$c" 5 100)"); \`lttng start\` itself $(ms "$(median start lttng "$c" 6)")); ratio LTTng/spoor $(ratio "$sf" "$lf")."
	echo
	echo "**Emit cost** by sessions enabling the event (\`ust-emit-T ints 1 $(num "$events")\`, 1 thread; median of $runs runs),"
	echo "ns/event, wall (thread CPU time):"
	echo
	echo "| sessions | spoor | LTTng-UST | ratio LTTng/spoor | losses |"
	echo "|---------:|------:|----------:|------------------:|--------|"
	for n in 0 1 2; do
		c="$n sessions"
		sw=$(median emit spoor "$c" 5) lw=$(median emit lttng "$c" 5)
		loss="$(notes emit spoor "$c")"
		loss="${loss:+spoor: $loss }$(l=$(notes emit lttng "$c"); echo "${l:+LTTng: $l}")"
		printf '| %d | %s (%s) | %s (%s) | %s | %s |\n' "$n" "$(ns "$sw")" "$(ns "$(median emit spoor "$c" 6)")" \
			"$(ns "$lw")" "$(ns "$(median emit lttng "$c" 6)")" "$(ratio "$sw" "$lw")" "${loss:-none}"
	done
	echo
	c="2 x 64 MiB"
	ss=$(median snapshot spoor "$c" 5) ls=$(median snapshot lttng "$c" 5)
	echo "**Snapshot** of a flight recorder holding 2 × 64 MiB (median of $runs runs), ms:"
	echo "\`spoor session snapshot\` $(ms "$ss") ($(ms "$(pct snapshot spoor "$c" 5 0)")–$(ms "$(pct snapshot spoor "$c" 5 100)"); $(mib "$(median snapshot spoor "$c" 6)") MiB written, $(notes snapshot spoor "$c" | sed 's/run [0-9]*: //; s/;.*//')),"
	echo "\`lttng snapshot record\` $(ms "$ls") ($(ms "$(pct snapshot lttng "$c" 5 0)")–$(ms "$(pct snapshot lttng "$c" 5 100)"); $(mib "$(median snapshot lttng "$c" 6)") MiB, $(notes snapshot lttng "$c" | sed 's/run [0-9]*: //; s/;.*//')); ratio LTTng/spoor $(ratio "$ss" "$ls")."
	echo
	echo "Commands:"
	echo
	echo '```'
	echo "bench/sessions.sh$( [ "$runs" = 3 ] || echo " --runs=$runs")$( [ "$spawns" = 200 ] || echo " --spawns=$spawns")$( [ "$events" = 2000000 ] || echo " --events=$events")$( [ "$fill_events" = 4000000 ] || echo " --fill-events=$fill_events")"
	echo "spoor daemon --foreground --socket S; spoor session create NAME -o DIR [-b 64m --subbuffers 8] [--overwrite]"
	echo "spoor session enable NAME -u 'ust_emit:*'; spoor session start|stop|snapshot|destroy NAME"
	echo "lttng-sessiond --daemonize --no-kernel; lttng create NAME [--snapshot]; lttng enable-channel -u --buffers-uid"
	echo "  [--subbuf-size=4M --num-subbuf=8 | --overwrite --subbuf-size=8M --num-subbuf=8] c0"
	echo "lttng enable-event -u -c c0 ust_emit:ints; lttng start|stop|snapshot record|destroy NAME"
	echo '```'
} >"$report"

cat "$report"
[ -z "$update_doc" ] || update_section "$report" "$heading"
