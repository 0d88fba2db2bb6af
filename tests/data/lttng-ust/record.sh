#!/bin/bash
#
# record.sh OUTDIR ITERATIONS THREADS [SUBBUF_SIZE NUM_SUBBUF]
#
# Builds the spoor_fixture LTTng-UST test application, records it with a
# private lttng-sessiond and leaves a flat CTF trace in OUTDIR (OUTDIR holds
# `metadata` and the stream files directly).  See README.md.
#
# Another program of this folder: SOURCES (its C files, default
# "fixture-app.c fixture-tp.c") and EVENTS (the events to enable, comma-separated,
# default 'spoor_fixture:*').  The sources are compiled from this folder by
# their bare names, so that __FILE__ (tracelog's `file` field) is one.
#
# Isolation: a non-root session daemon keeps all of its state under
# $LTTNG_HOME/.lttng, so pointing LTTNG_HOME at a private directory is enough.
# A root session daemon however always uses /var/run/lttng and the global
# /dev/shm wait shm, whatever LTTNG_HOME says; when run as root the script
# therefore re-executes itself in a private mount namespace (unshare -m) with
# fresh tmpfs mounts on /run and /dev/shm, so it never talks to (or disturbs)
# another session daemon on the machine.
set -eu -o pipefail

prog=record.sh
die() {
	echo "$prog: error: $*" >&2
	exit 1
}
trap 'rc=$?; echo "$prog: error: command failed (exit $rc) at line $LINENO: $BASH_COMMAND" >&2' ERR

usage() {
	echo "usage: $prog OUTDIR ITERATIONS THREADS [SUBBUF_SIZE NUM_SUBBUF]" >&2
	exit 2
}

[ $# -eq 3 ] || [ $# -eq 5 ] || usage
outdir_arg=$1
iterations=$2
threads=$3
subbuf_size=${4:-}
num_subbuf=${5:-}

case $iterations in '' | *[!0-9]*) die "ITERATIONS must be a number: '$iterations'" ;; esac
case $threads in '' | *[!0-9]*) die "THREADS must be a number: '$threads'" ;; esac
[ "$threads" -ge 1 ] || die "THREADS must be >= 1"

for tool in gcc lttng lttng-sessiond; do
	command -v "$tool" >/dev/null 2>&1 ||
		die "'$tool' not found (apt-get install -y gcc lttng-tools liblttng-ust-dev)"
done

here=$(cd "$(dirname "$0")" && pwd)

# ---- root: isolate in a private mount namespace --------------------------
if [ "$(id -u)" -eq 0 ] && [ -z "${SPOOR_RECORD_IN_NS:-}" ]; then
	command -v unshare >/dev/null 2>&1 || die "'unshare' not found (util-linux)"
	export SPOOR_RECORD_IN_NS=1
	exec unshare --mount --propagation private -- "$BASH" "$here/$(basename "$0")" "$@"
fi
if [ -n "${SPOOR_RECORD_IN_NS:-}" ]; then
	rundir=$(readlink -f /var/run)
	mount -t tmpfs -o mode=0755 spoor-lttng-run "$rundir" ||
		die "cannot mount private tmpfs on $rundir"
	mount -t tmpfs -o mode=1777 spoor-lttng-shm /dev/shm ||
		die "cannot mount private tmpfs on /dev/shm"
fi

# ---- output directory ------------------------------------------------------
mkdir -p "$outdir_arg" || die "cannot create OUTDIR '$outdir_arg'"
outdir=$(cd "$outdir_arg" && pwd)
[ "$outdir" != / ] || die "refusing to use / as OUTDIR"
# Only wipe a directory that is empty or looks like a previous trace.
if [ -n "$(ls -A "$outdir")" ] && [ ! -f "$outdir/metadata" ]; then
	die "OUTDIR '$outdir' is not empty and holds no CTF 'metadata'; refusing to wipe it"
fi
find "$outdir" -mindepth 1 -delete

# ---- private work dir, cleanup trap ---------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-record.XXXXXX")
export LTTNG_HOME="$work/home"
mkdir -p "$LTTNG_HOME"
pidfile="$work/sessiond.pid"
session=spoor-fixture
session_created=
sessiond_pid=

cleanup() {
	local rc=$?
	set +e
	trap - ERR
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
			echo "$prog: warning: sessiond $sessiond_pid ignored SIGTERM, sending SIGKILL" >&2
			kill -KILL "$sessiond_pid"
		fi
	fi
	rm -rf "$work"
	if [ "$rc" -ne 0 ]; then
		echo "$prog: FAILED (exit $rc); OUTDIR '$outdir' is incomplete" >&2
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- build -----------------------------------------------------------------
sources=${SOURCES:-fixture-app.c fixture-tp.c}
events=${EVENTS:-spoor_fixture:*}
echo "$prog: building fixture-app from $sources"
# shellcheck disable=SC2086 # the list of sources
(cd "$here" && gcc -O2 -Wall -Wextra -I. -o "$work/fixture-app" $sources -llttng-ust -ldl -lpthread) ||
	die "failed to build fixture-app (is liblttng-ust-dev installed?)"

# ---- private session daemon ------------------------------------------------
echo "$prog: starting private lttng-sessiond (LTTNG_HOME=$LTTNG_HOME)"
lttng-sessiond --daemonize --no-kernel --pidfile="$pidfile" ||
	die "lttng-sessiond failed to start"
for _ in $(seq 100); do
	[ -s "$pidfile" ] && break
	sleep 0.1
done
[ -s "$pidfile" ] || die "lttng-sessiond did not write its pid file $pidfile"
sessiond_pid=$(cat "$pidfile")
case $sessiond_pid in '' | *[!0-9]*) die "bad pid in $pidfile: '$sessiond_pid'" ;; esac
kill -0 "$sessiond_pid" 2>/dev/null || die "lttng-sessiond (pid $sessiond_pid) is not running"
echo "$prog: lttng-sessiond pid $sessiond_pid"

# ---- session -----------------------------------------------------------------
raw="$work/trace"
lttng create "$session" --output="$raw" || die "lttng create failed"
session_created=1
chan_opts=(--userspace --buffers-uid)
if [ -n "$subbuf_size" ]; then
	chan_opts+=(--subbuf-size="$subbuf_size" --num-subbuf="$num_subbuf")
fi
lttng enable-channel "${chan_opts[@]}" channel0 || die "lttng enable-channel failed"
lttng enable-event --userspace --channel=channel0 "$events" ||
	die "lttng enable-event failed"
lttng add-context --userspace --channel=channel0 -t vpid -t vtid -t procname ||
	die "lttng add-context failed"
lttng start || die "lttng start failed"

echo "$prog: running fixture-app $iterations $threads"
# Wait (up to 10 s) for the app to register with the session daemon before
# main() runs, so that no early event is lost.
LTTNG_UST_REGISTER_TIMEOUT=10000 "$work/fixture-app" "$iterations" "$threads" ||
	die "fixture-app failed"

lttng stop "$session" || die "lttng stop failed"
lttng destroy "$session" || die "lttng destroy failed"
session_created=

# ---- flatten ---------------------------------------------------------------
# lttng lays out per-UID traces as $raw/ust/uid/<UID>/<BITNESS>-bit/
mapfile -t metas < <(find "$raw" -type f -name metadata)
[ "${#metas[@]}" -eq 1 ] ||
	die "expected exactly one 'metadata' under $raw, found ${#metas[@]} (did the app register?)"
tracedir=$(dirname "${metas[0]}")
echo "$prog: trace recorded in ${tracedir#"$raw"/}"
# The LTTng-specific packet index (index/*.idx) is not part of CTF: drop it.
rm -rf "$tracedir/index"
find "$tracedir" -mindepth 1 -maxdepth 1 -exec mv -t "$outdir" {} +
find "$outdir" -type f -exec chmod 0644 {} +   # consumerd creates them 0660
streams=$(find "$outdir" -maxdepth 1 -type f ! -name metadata | wc -l)
[ "$streams" -ge 1 ] || die "no stream files in the recorded trace"

echo "$prog: wrote $outdir ($streams stream files, $(du -sk "$outdir" | cut -f1) KiB)"
if command -v babeltrace2 >/dev/null 2>&1; then
	n=$(babeltrace2 "$outdir" | wc -l) || die "babeltrace2 cannot read $outdir"
	echo "$prog: babeltrace2 reads $n events"
fi
