#!/bin/bash
#
# watch.sh [--update-doc] [--runs=N] [--duration=MS] [--rates=LIST] [--nice=N]
#          [--build=DIR] [--no-build] [--no-lttng] [--no-cli] [--viewer-timeout=S]
#
# Live handlers: how fast `spoor watch` runs a Lua handler on the events of a running
# program, and where it stops keeping up, side by side with LTTng's live mode
# (lttng-relayd) read by babeltrace2's lttng-live source, with the same handler in
# babeltrace2's Python bindings (python3-bt2) and, as a second row, the babeltrace2 CLI
# with a counter sink.
#
# The event source is bench/watch-emit-spoor.c / bench/watch-emit-lttng.c (one loop for
# both: bench/watch-emit.h): one thread emitting ust_emit:ints (bench/ust-emit.sh's
# shape A, two uint64_t, a = the event's number, b = a % 8) for --duration ms (1000) at
# each offered rate of --rates (100000,1000000,4000000,0; 0 = flat out, as fast as the
# loop goes), paced by CLOCK_MONOTONIC in steps of 50 us. Per offered rate and run:
#
#   spoor:   spoor watch bench/watch-count.lua -o DIR -- watch-emit-spoor RATE MS RES
#            (the handler: c[e.b] = (c[e.b] or 0) + 1; the watch defaults: --period
#            20ms, -b 1m with 4 sub-buffers per thread; "N events discarded" from the
#            summary on stderr)
#   LTTng:   lttng create S --live=20000 (the live timer: spoor's period), a per-UID
#            channel of 4 x 256 KiB sub-buffers per CPU (spoor's 1 MiB), discard mode,
#            only ust_emit:ints; the viewer started and attached first, then
#            LTTNG_UST_REGISTER_TIMEOUT=10000 watch-emit-lttng RATE MS RES; then
#            lttng stop, lttng list, lttng destroy, and the viewer reads to the
#            session's end:
#     Python: /usr/bin/python3 bench/watch-count.py net://localhost/host/HOST/S
#            (the same count by b; it sleeps 1 ms when the relay has nothing new)
#     CLI:   babeltrace2 --retry-duration=1000 -c src.ctf.lttng-live
#            -p 'inputs=["net://..."],session-not-found-action="end"' -c sink.utils.counter -p step=+0
#
# Measured: events emitted (the emitter's count), handled (the handler's count), lost
# (spoor: the recorder's discarded count; LTTng: the discarded counts of the packets of
# the trace the relay wrote, `spoor stats --json`, whose event count must also equal the
# handler's; `lttng list`'s "Discarded events" and the viewer's discarded-events
# messages are noted where they differ, not used: both sometimes give absurd counts
# here, 2^63 or 2^64 - 1), the emitting loop's wall time, the
# lag at the end (from the loop's end, CLOCK_REALTIME in the emitter, to the exit of
# spoor watch or of the viewer, `date +%s%N`; for LTTng this includes lttng stop and
# lttng destroy, which end a live session) and handled events/s = handled / (wall +
# lag), the rate the handler sustained from the first event to its end. Every row is
# checked: handled must equal emitted - lost, and the handler's counts by b must add up
# to handled (and, without loss, be the exact share of each b); a mismatch is reported
# in the table and on stderr, never hidden. With --runs=N (1) each configuration runs N
# times and the run with the median handled events/s is shown.
#
# Isolation (as bench/ust-emit.sh): as root the script re-runs itself in private mount
# and network namespaces (fresh tmpfs on /run and /dev/shm, the loopback brought up, so
# that its relay daemon's default ports and its session daemon disturb nobody), with a
# private LTTNG_HOME, and the traces (spoor's -o DIR, the relay's output) on a tmpfs;
# it starts its own `lttng-sessiond --daemonize --no-kernel --pidfile` and
# `lttng-relayd` and kills them by their pids at the end. Not root: spoor only.
#
# Options:
#   --update-doc          write the result into docs/PERFORMANCE.md (the section between
#                         <!-- watch:begin --> and <!-- watch:end -->)
#   --runs=N              runs per configuration, the median one shown [1]
#   --duration=MS         the emitter's time per run [1000]
#   --rates=LIST          offered rates in events/s, 0 = flat out [100000,1000000,4000000,0]
#   --nice=N              run the tools and the emitters at this nice value (root only;
#                         0: unchanged) [-10]
#   --build=DIR           the meson build directory of spoor [build]
#   --no-build            do not run ninja in it first
#   --no-lttng            spoor only
#   --no-cli              no babeltrace2 CLI rows
#   --viewer-timeout=S    give up on a viewer still reading S seconds after the
#                         session's end, lttng destroy (killed; its row says so) [120]
# Environment: WATCH_KEEP=1 keeps the work directory (not the traces: on a tmpfs);
# WATCH_LTTNG_LIVE_US [20000], WATCH_LTTNG_SUBBUF [256k] and WATCH_LTTNG_NSUBBUF [4]: the
# LTTng live timer and sub-buffers.
#
# The spoor library and binary are copied from the build directory into the work
# directory first and the spoor emitter is linked against (and run with) that copy, so
# that a rebuild during the run changes nothing.
. "$(dirname "$0")/common.sh"
section=watch
heading='## Live handlers: spoor watch vs LTTng live + babeltrace2'

update_doc=
runs=1
duration=1000
rates=100000,1000000,4000000,0
nice_val=-10
build=$top/build
do_build=1
do_lttng=1
do_cli=1
viewer_timeout=120
for arg; do
	case $arg in
	--update-doc) update_doc=1 ;;
	--runs=*) runs=${arg#*=} ;;
	--duration=*) duration=${arg#*=} ;;
	--rates=*) rates=${arg#*=} ;;
	--nice=*) nice_val=${arg#*=} ;;
	--build=*) build=${arg#*=} ;;
	--no-build) do_build= ;;
	--no-lttng) do_lttng= ;;
	--no-cli) do_cli= ;;
	--viewer-timeout=*) viewer_timeout=${arg#*=} ;;
	-h | --help) usage ;;
	*) die "unknown argument '$arg' (see --help)" ;;
	esac
done
for v in "$runs" "$duration" "$viewer_timeout"; do
	case $v in '' | *[!0-9]*) die "--runs, --duration and --viewer-timeout take a number" ;; esac
done
[ "$runs" -ge 1 ] && [ "$duration" -ge 1 ] && [ "$viewer_timeout" -ge 1 ] || die "numbers must be >= 1"
case $rates in '' | *[!0-9,]* | ,* | *, | *,,*) die "--rates takes numbers separated by commas" ;; esac
case $nice_val in '' | *[!0-9-]* | ?*-*) die "--nice takes a number" ;; esac
build=$(cd "$build" 2>/dev/null && pwd) || die "no build directory '$build'"
command -v gcc >/dev/null 2>&1 || die "'gcc' not found"

if [ "$(id -u)" -ne 0 ]; then
	[ "$nice_val" -ge 0 ] || nice_val=0
	if [ -n "$do_lttng" ]; then
		note "not root: no private namespaces for the LTTng daemons, spoor only"
		do_lttng=
	fi
fi
if [ -n "$do_lttng" ]; then
	for tool in lttng lttng-sessiond lttng-relayd babeltrace2 ip ss unshare; do
		command -v "$tool" >/dev/null 2>&1 ||
			die "'$tool' not found (apt-get install -y lttng-tools liblttng-ust-dev babeltrace2 python3-bt2 iproute2; or --no-lttng)"
	done
	/usr/bin/python3 -c 'import bt2' 2>/dev/null ||
		die "babeltrace2's Python bindings are missing (apt-get install -y python3-bt2; or --no-lttng)"
fi
if [ -n "$update_doc" ]; then
	[ -f "$doc" ] || die "no $doc"
fi

# ---- root: private mount and network namespaces --------------------------------------
if [ "$(id -u)" -eq 0 ] && [ -z "${WATCH_IN_NS:-}" ]; then
	export WATCH_IN_NS=1
	exec unshare --mount --net --propagation private -- "$BASH" "$here/$(basename "$0")" "$@"
fi
if [ -n "${WATCH_IN_NS:-}" ]; then
	rundir=$(readlink -f /var/run)
	mount -t tmpfs -o mode=0755 spoor-watch-run "$rundir" || die "cannot mount a tmpfs on $rundir"
	mount -t tmpfs -o mode=1777 spoor-watch-shm /dev/shm || die "cannot mount a tmpfs on /dev/shm"
	ip link set lo up || die "cannot bring the loopback up in the private network namespace"
fi

uptime_before=$(uptime)
started=$(date -u '+%Y-%m-%d %H:%M')

# ---- work dir, cleanup ------------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-watch.XXXXXX")
export LTTNG_HOME=$work/home
mkdir -p "$LTTNG_HOME" "$work/lib" "$work/bin" "$work/traces"
traces=$work/traces
traces_mounted=
if [ -n "${WATCH_IN_NS:-}" ]; then
	mount -t tmpfs -o mode=0700 spoor-watch-traces "$traces" || die "cannot mount a tmpfs on $traces"
	traces_mounted=1
fi
unset SPOOR_SESSION
sessiond_pid=
relayd_pid=
viewer_pid=
session=
session_n=0

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
	local rc=$?
	set +e
	[ -z "$viewer_pid" ] || stop_pid "$viewer_pid" viewer
	[ -z "$session" ] || lttng destroy "$session" >/dev/null 2>&1
	[ -z "$sessiond_pid" ] || stop_pid "$sessiond_pid" lttng-sessiond
	[ -z "$relayd_pid" ] || stop_pid "$relayd_pid" lttng-relayd
	[ -z "$traces_mounted" ] || umount "$traces"
	end_work "$rc" "${WATCH_KEEP:-}"
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
# For the daemons and viewers started with &: a simple command (no function, whose
# subshell would be $!), so that $! is the program's own pid, to stop it by.
nice_cmd=()
[ "$nice_val" = 0 ] || nice_cmd=(nice -n "$nice_val")
now_ns() { date +%s%N; }
big() { awk -v x="$1" 'BEGIN { if (x > 1e12) printf "%.3g\n", x; else printf "%d\n", x }'; }

# ---- build -------------------------------------------------------------------------------
if [ -n "$do_build" ]; then
	note "ninja -C $build"
	ninja -C "$build" >&2 || die "ninja -C $build failed (or use --no-build)"
fi
snapshot_build "$build" "$work"
note "building the emitters (gcc -O2)"
gcc -O2 -Wall -Wextra -I"$top/include" -I"$here" -o "$work/bin/watch-emit-spoor" \
	"$here/watch-emit-spoor.c" "$here/ust-emit-spoor-tp.c" \
	-L"$work/lib" -lspoor-ust -Wl,-rpath,"$work/lib" -lpthread ||
	die "cannot build watch-emit-spoor"
emit_spoor=$work/bin/watch-emit-spoor
if [ -n "$do_lttng" ]; then
	gcc -O2 -Wall -Wextra -I"$here" -o "$work/bin/watch-emit-lttng" \
		"$here/watch-emit-lttng.c" "$here/ust-emit-lttng-tp.c" -llttng-ust -ldl -lpthread ||
		die "cannot build watch-emit-lttng (is liblttng-ust-dev installed?)"
	emit_lttng=$work/bin/watch-emit-lttng
fi

# ---- LTTng daemons -------------------------------------------------------------------------
live_us=${WATCH_LTTNG_LIVE_US:-20000}
lttng_subbuf=${WATCH_LTTNG_SUBBUF:-256k}
lttng_nsub=${WATCH_LTTNG_NSUBBUF:-4}
if [ -n "$do_lttng" ]; then
	note "starting a private lttng-sessiond and lttng-relayd (LTTNG_HOME=$LTTNG_HOME)"
	run_nice lttng-sessiond --daemonize --no-kernel --pidfile="$work/sessiond.pid" >/dev/null 2>&1 ||
		die "lttng-sessiond failed to start"
	for _ in $(seq 100); do
		[ -s "$work/sessiond.pid" ] && break
		sleep 0.1
	done
	sessiond_pid=$(cat "$work/sessiond.pid" 2>/dev/null || true)
	case $sessiond_pid in '' | *[!0-9]*) die "lttng-sessiond wrote no pid file" ;; esac
	# lttng-relayd has no --pidfile: in the background, its pid from the shell.
	"${nice_cmd[@]}" lttng-relayd --output="$traces/relay" >"$work/relayd.log" 2>&1 &
	relayd_pid=$!
	for _ in $(seq 100); do
		ss -ltn 2>/dev/null | grep -q ':5344 ' && break
		kill -0 "$relayd_pid" 2>/dev/null || die "lttng-relayd exited: $(cat "$work/relayd.log")"
		sleep 0.1
	done
	ss -ltn | grep -q ':5344 ' || die "lttng-relayd does not listen on its live port 5344"
	note "lttng-sessiond pid $sessiond_pid, lttng-relayd pid $relayd_pid"
	host=$(hostname)
fi

# ---- runs ----------------------------------------------------------------------------------
results=$work/results.tsv # tool rate run emitted handled lost wall_ns lag_ns note
: >"$results"
res=$work/res

# parse_res: sets r_emitted r_wall r_end from the emitter's RESULT line in $res.
parse_res() {
	local line
	line=$(grep '^RESULT ' "$res" | tail -n 1) || return 1
	r_emitted=$(sed -n 's/.* emitted=\([0-9]*\).*/\1/p' <<<"$line")
	r_wall=$(sed -n 's/.* wall_ns=\([0-9]*\).*/\1/p' <<<"$line")
	r_end=$(sed -n 's/.* end_realtime_ns=\([0-9]*\).*/\1/p' <<<"$line")
	[ -n "$r_emitted" ] && [ -n "$r_wall" ] && [ -n "$r_end" ]
}

# check_counts OUT HANDLED LOST EMITTED [TOTAL_ONLY]: the problems with a handler's output
# (OUT's "by_b B COUNT" lines: unless TOTAL_ONLY, they must add up to HANDLED), or nothing.
check_counts() {
	awk -v h="$2" -v lost="$3" -v n="$4" -v total_only="${5:-}" '
		$1 == "by_b" { sum += $3; c[$2] = $3 }
		END {
			s = ""
			if (h + lost != n) s = s sprintf("handled %d + lost %d != emitted %d (%+d); ", h, lost, n, h + lost - n)
			if (total_only != "") { sub(/; $/, "", s); print s; exit }
			if (sum != h) s = s sprintf("counts by b add up to %d, not %d; ", sum, h)
			if (lost == 0 && h == n)
				for (b = 0; b < 8; b++) {
					want = int(n / 8) + (b < n % 8 ? 1 : 0)
					if (c[b] + 0 != want) s = s sprintf("b=%d counted %d times, not %d; ", b, c[b], want)
				}
			sub(/; $/, "", s)
			print s
		}' "$1"
}

record_row() { # TOOL RATE RUN HANDLED LOST LAG NOTE
	local problems total_only=
	[ "$1" != cli ] || total_only=1 # the counter counts events, not by b
	problems=$(check_counts "$work/out" "$4" "$5" "$r_emitted" "$total_only")
	if [ -n "$problems" ]; then
		note "MISMATCH: $1 at rate $2, run $3: $problems"
		set -- "$1" "$2" "$3" "$4" "$5" "$6" "${7:+$7; }**mismatch**: $problems"
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$r_emitted" "$4" "$5" \
		"$r_wall" "$6" "$7" >>"$results"
	note "  $1 rate $2 run $3: emitted $r_emitted in $((r_wall / 1000000)) ms, handled $4, lost $5, lag $(($6 / 1000000)) ms${7:+ ($7)}"
}

run_spoor() { # RATE RUN
	local rate=$1 run=$2 out=$traces/spoor t_end handled lost note=''
	rm -rf "$out" "$res"
	if ! run_nice "$spoor" watch "$here/watch-count.lua" -o "$out" -- \
		"$emit_spoor" "$rate" "$duration" "$res" >"$work/out" 2>"$work/err"; then
		cat "$work/out" "$work/err" >&2
		die "spoor watch failed (rate $rate)"
	fi
	t_end=$(now_ns)
	parse_res || die "no RESULT from watch-emit-spoor: $(cat "$work/err")"
	handled=$(awk '$1 == "handled" { print $2 }' "$work/out")
	lost=$(sed -n 's/.* \([0-9][0-9]*\) events discarded.*/\1/p' "$work/err" | tail -n 1)
	[ -n "$handled" ] || die "no count from the spoor handler: $(cat "$work/out" "$work/err")"
	[ -n "$lost" ] || die "no 'N events discarded' in spoor watch's summary: $(cat "$work/err")"
	if grep -qi 'warning\|error\|damaged' "$work/err"; then
		note="spoor watch: $(grep -i 'warning\|error\|damaged' "$work/err" | head -n 1)"
	fi
	record_row spoor "$rate" "$run" "$handled" "$lost" "$((t_end - r_end))" "$note"
	rm -rf "$out"
}

run_lttng() { # VIEWER(python|cli) RATE RUN
	local viewer=$1 rate=$2 run=$3 t_end t_stop handled lost llost note='' url ready=$work/ready waited
	session_n=$((session_n + 1))
	session=watch$session_n
	local name=$session # $session: to destroy on exit; cleared once destroyed
	url=net://localhost/host/$host/$name
	rm -f "$res" "$ready"
	lttng create "$session" --live="$live_us" >/dev/null || die "lttng create --live failed"
	lttng enable-channel --userspace --buffers-uid --subbuf-size="$lttng_subbuf" \
		--num-subbuf="$lttng_nsub" c0 >/dev/null || die "lttng enable-channel failed"
	lttng enable-event --userspace --channel=c0 ust_emit:ints >/dev/null || die "lttng enable-event failed"
	lttng start "$session" >/dev/null || die "lttng start failed"
	if [ "$viewer" = python ]; then
		"${nice_cmd[@]}" /usr/bin/python3 "$here/watch-count.py" "$url" "$ready" >"$work/out" 2>"$work/err" &
		viewer_pid=$!
		for _ in $(seq 200); do
			[ -e "$ready" ] && break
			kill -0 "$viewer_pid" 2>/dev/null || break
			sleep 0.05
		done
		[ -e "$ready" ] || die "the Python viewer did not attach: $(cat "$work/err")"
	else
		"${nice_cmd[@]}" babeltrace2 --retry-duration=1000 -c src.ctf.lttng-live \
			-p "inputs=[\"$url\"],session-not-found-action=\"end\"" \
			-c sink.utils.counter -p step=+0 >"$work/out" 2>"$work/err" &
		viewer_pid=$!
		sleep 1 # no sign of attachment from the CLI: the count check tells if it was late
		kill -0 "$viewer_pid" 2>/dev/null || die "babeltrace2 exited: $(cat "$work/err")"
	fi
	# Wait (up to 10 s) for the app to register before main(), so no event is missed.
	run_nice env LTTNG_UST_REGISTER_TIMEOUT=10000 "$emit_lttng" "$rate" "$duration" "$res" \
		>/dev/null 2>"$work/emit.err" || die "watch-emit-lttng failed: $(cat "$work/emit.err")"
	t_stop=$(now_ns)
	lttng stop "$session" >/dev/null || die "lttng stop failed"
	lttng list "$session" -c c0 >"$work/list.$name" || die "lttng list failed"
	llost=$(awk '/Discarded events:/ { s += $3 } END { printf "%.0f\n", s }' "$work/list.$name")
	lttng destroy "$session" >/dev/null || die "lttng destroy failed"
	session=
	printf '%s\t%s\n' "$viewer" "$(($(now_ns) - t_stop))" >>"$work/stop.tsv"
	waited=0
	while kill -0 "$viewer_pid" 2>/dev/null && [ "$waited" -lt $((viewer_timeout * 20)) ]; do
		sleep 0.05
		waited=$((waited + 1))
	done
	if kill -0 "$viewer_pid" 2>/dev/null; then
		t_end=$(now_ns)
		note="**viewer killed**, still reading ${viewer_timeout} s after lttng destroy"
		stop_pid "$viewer_pid" viewer
		wait "$viewer_pid" 2>/dev/null || true
	else
		wait "$viewer_pid" || note="viewer exit status $?: $(head -c 300 "$work/err")"
		t_end=$(now_ns)
	fi
	viewer_pid=
	parse_res || die "no RESULT from watch-emit-lttng: $(cat "$work/emit.err")"
	# lost: what the trace the relay wrote says (spoor stats: the packets' discarded
	# counts), which must also hold as many events as the viewer handled. `lttng list`'s
	# "Discarded events" and the viewer's discarded-events messages are only noted when
	# they differ: both sometimes give absurd counts (2^63, 2^64 - 1) here.
	local dmsg dsum tdir tevents
	tdir=$(find "$traces/relay" -name metadata -path "*/$name-*" -printf '%h\n' | head -n 1)
	[ -n "$tdir" ] || die "no trace of $name under $traces/relay"
	"$spoor" stats --json "$tdir" >"$work/stats.json" 2>"$work/stats.err" ||
		die "spoor stats cannot read the relay's trace $tdir: $(cat "$work/stats.err")"
	tevents=$(grep -o '"events": [0-9]*' "$work/stats.json" | head -n 1 | awk '{ print $2 }')
	lost=$(grep -o '"discarded": [0-9]*' "$work/stats.json" | head -n 1 | awk '{ print $2 }')
	[ -n "$tevents" ] && [ -n "$lost" ] || die "no counts in spoor stats --json $tdir"
	[ "$llost" = "$lost" ] || note="${note:+$note; }lttng list: $(big "$llost") discarded"
	if [ "$viewer" = python ]; then
		handled=$(awk '$1 == "handled" { print $2 }' "$work/out")
		dmsg=$(awk '$1 == "discarded_msgs" { print $2 }' "$work/out")
		dsum=$(awk '$1 == "discarded" { print $2 }' "$work/out")
		if [ "${dmsg:-0}" != 0 ] && [ "$dsum" != "$lost" ]; then
			note="${note:+$note; }the viewer's $dmsg discarded-events messages count $(big "$dsum")"
		fi
	else
		# the counter counts messages: "N Event messages", "N Discarded event messages"
		handled=$(awk '/ Event messages$/ { n = $1 } END { print n }' "$work/out")
		dmsg=$(awk '/ Discarded event messages$/ { n = $1 } END { print n + 0 }' "$work/out")
		[ "$dmsg" = 0 ] || note="${note:+$note; }$dmsg discarded-events messages"
	fi
	handled=${handled:-0}
	[ "$tevents" = "$handled" ] || note="${note:+$note; }**the relay's trace holds $tevents events**"
	record_row "$viewer" "$rate" "$run" "$handled" "$lost" "$((t_end - r_end))" "$note"
	rm -rf "${traces:?}/relay"/*
}

IFS=, read -r -a rate_list <<<"$rates"
for run in $(seq "$runs"); do
	for rate in "${rate_list[@]}"; do
		note "offered rate $rate events/s (0: flat out), run $run of $runs"
		run_spoor "$rate" "$run"
		if [ -n "$do_lttng" ]; then
			run_lttng python "$rate" "$run"
			[ -z "$do_cli" ] || run_lttng cli "$rate" "$run"
		fi
	done
done
uptime_after=$(uptime)

# ---- report ------------------------------------------------------------------------------
num() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; }
rate_name() {
	if [ "$1" = 0 ]; then
		echo "flat out"
	else
		awk -v r="$1" 'BEGIN { if (r >= 1e6) printf "%g M/s", r / 1e6; else printf "%g k/s", r / 1e3 }'
	fi
}
tool_name() {
	case $1 in
	spoor) echo "spoor watch (Lua)" ;;
	python) echo "LTTng live + babeltrace2 Python" ;;
	cli) echo "LTTng live + babeltrace2 CLI counter" ;;
	esac
}

rev=$(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)
ustver=$(dpkg-query -W -f '${Version}' liblttng-ust-dev 2>/dev/null | sed 's/-[^-]*$//' || true)
toolsver=$(lttng --version 2>/dev/null | grep -o '[0-9][0-9.]*[0-9]' | head -n 1 || true)
btver=$(babeltrace2 --version 2>/dev/null | head -n 1 | awk '{ print $2 }' || true)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
report=$work/report.md
tools="spoor"
[ -z "$do_lttng" ] || tools="$tools python"
[ -z "$do_lttng" ] || [ -z "$do_cli" ] || tools="$tools cli"
{
	echo "Measured $started UTC by \`bench/watch.sh${update_doc:+ --update-doc}$([ "$runs" = 1 ] || echo " --runs=$runs")\` with spoor $rev;"
	if [ -n "$do_lttng" ]; then
		echo "LTTng-UST ${ustver:-?} / lttng-tools ${toolsver:-?}, babeltrace2 ${btver:-?};"
	fi
	echo "$(nproc) CPUs ($cpu), Linux $(uname -r); one emitting thread, $duration ms per run;"
	if [ "$nice_val" != 0 ]; then
		echo "the tools, daemons and emitters at nice $nice_val; traces on a tmpfs."
	else
		echo "default priority; traces on ${traces_mounted:+a tmpfs}${traces_mounted:-disk}."
	fi
	echo "Machine load (\`uptime\`): before: \`$(sed 's/^ *//' <<<"$uptime_before")\`; after: \`$(sed 's/^ *//' <<<"$uptime_after")\`."
	[ "$runs" = 1 ] || echo "$runs runs per row, the one with the median handled events/s shown."
	echo
	echo "| handler | offered | emitted | handled | lost | emitter wall s | lag at end s | handled ev/s | check |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
	for rate in "${rate_list[@]}"; do
		for tool in $tools; do
			# the run with the median handled/s (handled / (wall + lag))
			line=$(awk -F'\t' -v t="$tool" -v r="$rate" '$1 == t && $2 == r {
					printf "%.6f\t%s\n", $5 / (($7 + $8) / 1e9), $0 }' "$results" |
				sort -g | awk -v k="$runs" 'NR == int((k + 1) / 2)')
			[ -n "$line" ] || continue
			IFS=$'\t' read -r hps _ _ _ e h l w g nt <<<"$line"
			# ok: handled = emitted - lost (and the counts by b agree); then the notes
			case $nt in
			*mismatch* | *killed*) check=$nt ;;
			'') check=ok ;;
			*) check="ok; $nt" ;;
			esac
			[ "$runs" = 1 ] || {
				bad=$(awk -F'\t' -v t="$tool" -v r="$rate" '$1 == t && $2 == r && $9 ~ /mismatch|killed/' "$results" | wc -l)
				[ "$bad" = 0 ] || check="$check (problems in $bad of $runs runs)"
			}
			printf '| %s | %s | %s | %s | %s | %.3f | %.3f | %s | %s |\n' "$(tool_name "$tool")" \
				"$(rate_name "$rate")" "$(num "$e")" "$(num "$h")" "$(num "$l")" \
				"$(awk -v x="$w" 'BEGIN { print x / 1e9 }')" "$(awk -v x="$g" 'BEGIN { print x / 1e9 }')" \
				"$(awk -v x="$hps" 'BEGIN { if (x >= 1e6) printf "%.2f M", x / 1e6; else printf "%.0f k", x / 1e3 }')" \
				"$check"
		done
	done
	if [ -s "$work/stop.tsv" ]; then
		echo
		sort -n -k2 "$work/stop.tsv" | awk '{ v[NR] = $2 / 1e9 } END {
			printf "Of the LTTng lags, `lttng stop`, `lttng list` and `lttng destroy` (which end the live\n"
			printf "session) took %.3f s (median; %.3f to %.3f s).\n", v[int((NR + 1) / 2)], v[1], v[NR] }'
	fi
	if grep -q 'lttng list: \|discarded-events messages count' "$results"; then
		echo
		echo "Where a row notes \`lttng list\`'s or the Python viewer's discarded count: those are absurd here"
		echo "at times (\`lttng list\` adds 2^63 to the true count, babeltrace2's lttng-live gives discarded-events"
		echo "messages of about 2^64 events); the lost column is read from the trace the relay wrote."
	fi
} >"$report"
cat "$report"
if grep -q 'mismatch' "$results"; then
	note "MISMATCH between a handler's count and emitted - lost: see the table"
fi
if [ -n "$update_doc" ]; then
	update_section "$report" "$heading"
fi
