#!/bin/bash
#
# make-ust-trace.sh OUTDIR [EVENTS]
#
# Records the LTTng-UST trace used by bench/reader.sh: about EVENTS events
# (default 4000000) from bench/ust-bench-app.c, i.e. ~47% spoor_fixture:two_ints,
# ~47% spoor_fixture:ints_string and ~6% integers/floats/strings/enums, with
# the vpid, vtid and procname contexts, 2 threads (one stream per CPU).
#
# The recording itself is done by tests/data/lttng-ust/record.sh (private
# lttng-sessiond, private mount namespace as root, flat trace in OUTDIR): the
# script runs it from a temporary directory in which fixture-app.c is
# bench/ust-bench-app.c and every other file links to tests/data/lttng-ust/.
#
# No event may be lost: the sub-buffers are large and the app is paced; the
# result is checked with babeltrace2's counter (event count, discarded-events
# messages) and the script fails if anything was discarded.
#
# Cache: if OUTDIR already holds a trace with exactly the expected number of
# events and no discarded event, nothing is done.
#
# Environment (defaults in brackets):
#   SPOOR_BENCH_THREADS   app threads [2]
#   SPOOR_BENCH_SUBBUF    sub-buffer size [4M]
#   SPOOR_BENCH_NSUBBUF   sub-buffers per CPU [32]
#   SPOOR_BENCH_RATE      max events/s per app thread, 0 = unpaced [1000000]
set -eu -o pipefail

prog=make-ust-trace.sh
die() {
	echo "$prog: error: $*" >&2
	exit 1
}
usage() {
	echo "usage: $prog OUTDIR [EVENTS]" >&2
	exit 2
}

[ $# -eq 1 ] || [ $# -eq 2 ] || usage
outdir=$1
events=${2:-4000000}
threads=${SPOOR_BENCH_THREADS:-2}
subbuf=${SPOOR_BENCH_SUBBUF:-4M}
nsubbuf=${SPOOR_BENCH_NSUBBUF:-32}
export SPOOR_BENCH_RATE=${SPOOR_BENCH_RATE:-1000000}

case $events in '' | *[!0-9]*) die "EVENTS must be a number: '$events'" ;; esac
case $threads in '' | *[!0-9]*) die "SPOOR_BENCH_THREADS must be a number" ;; esac
[ "$threads" -ge 1 ] || die "SPOOR_BENCH_THREADS must be >= 1"
command -v babeltrace2 >/dev/null 2>&1 || die "'babeltrace2' not found (apt-get install -y babeltrace2)"

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
fixture=$top/tests/data/lttng-ust

# A thread emits 2 * I + I / 8 events for I iterations (see ust-bench-app.c).
iterations=$((events * 8 / (17 * threads)))
[ "$iterations" -ge 1 ] || die "EVENTS too small"
expected=$((threads * (2 * iterations + iterations / 8)))

# check_trace DIR: succeeds if DIR holds a complete trace of $expected events.
# Sets $got and $discarded_msgs (babeltrace2 turns the packets'
# events_discarded counters into "discarded events" messages).
check_trace() {
	local dir=$1 out err
	got='' discarded_msgs=''
	[ -f "$dir/metadata" ] || return 1
	err=$(mktemp)
	if ! out=$(babeltrace2 "$dir" -c sink.utils.counter -p step=+0 2>"$err"); then
		cat "$err" >&2
		rm -f "$err"
		return 1
	fi
	got=$(awk '/ Event messages$/ { n = $1 } END { print n }' <<<"$out")
	discarded_msgs=$(awk '/ Discarded event messages$/ { n = $1 } END { print n }' <<<"$out")
	rm -f "$err"
	[ "$got" = "$expected" ] && [ "$discarded_msgs" = 0 ]
}

if check_trace "$outdir"; then
	echo "$prog: $outdir already holds the trace ($expected events, none discarded); nothing to do"
	exit 0
fi
if [ -n "$got" ]; then
	echo "$prog: $outdir holds $got events ($discarded_msgs discarded-events messages), expected $expected: re-recording"
fi

for f in record.sh fixture-tp.c fixture-tp.h; do
	[ -f "$fixture/$f" ] || die "missing $fixture/$f"
done
work=$(mktemp -d "${TMPDIR:-/tmp}/spoor-bench-app.XXXXXX")
trap 'rm -rf "$work"' EXIT
for f in record.sh fixture-tp.c fixture-tp.h; do
	ln -s "$fixture/$f" "$work/$f"
done
ln -s "$here/ust-bench-app.c" "$work/fixture-app.c"

echo "$prog: recording $expected events ($threads threads x $iterations iterations," \
	"sub-buffers $nsubbuf x $subbuf per CPU, pace $SPOOR_BENCH_RATE events/s per thread)"
start=$(date +%s.%N)
"$work/record.sh" "$outdir" "$iterations" "$threads" "$subbuf" "$nsubbuf"
end=$(date +%s.%N)

if ! check_trace "$outdir"; then
	die "bad trace in $outdir: babeltrace2 reads ${got:-?} events (expected $expected)," \
		"${discarded_msgs:-?} discarded-events messages;" \
		"raise SPOOR_BENCH_SUBBUF/SPOOR_BENCH_NSUBBUF or lower SPOOR_BENCH_RATE"
fi
bytes=$(find "$outdir" -maxdepth 1 -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
data=$(find "$outdir" -maxdepth 1 -type f ! -name metadata -printf '%s\n' | awk '{ s += $1 } END { print s }')
awk -v p="$prog" -v d="$outdir" -v n="$expected" -v b="$bytes" -v db="$data" \
	-v s="$start" -v e="$end" 'BEGIN {
	printf "%s: OK: %s: %d events, none discarded; %d bytes (%.1f MiB, %.1f bytes/event of stream data); recorded in %.1f s\n",
		p, d, n, b, b / 1048576, db / n, e - s
}'
