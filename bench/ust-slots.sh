#!/bin/bash
#
# ust-slots.sh [--update-doc] [--runs=N] [--events=N] [--no-build]
#
# The emit cost of a program recording into 0, 1 and 2 sessions at once (issue 17: a
# program registered with session daemons; docs/sessions.md, "In the traced program").
# bench/ust-slots.c plays the daemon: it runs bench/ust-emit-spoor.c (shape A, two
# uint64_t, 1 thread) registered through SPOOR_USER_SOCKET, gives it NSLOTS sessions of
# every event (discard mode, 8 x 8 MiB per thread: nothing is drained nor dropped, which
# its output checks: every session's rings hold the same bytes, none discarded), and
# `spoor record` runs the same program for the one-session case as it always did.
#
#   instructions per event: callgrind, N = 100,000 and 200,000 events, from the
#                           difference (start-up and registration cancel out)
#   CPU ns per event:       CLOCK_THREAD_CPUTIME_ID of the loop, --events events
#                           [2000000], median of --runs [3]
#
# With --update-doc the Markdown table replaces the section between
# <!-- ust-slots:begin --> and <!-- ust-slots:end --> of docs/PERFORMANCE.md.
. "$(dirname "$0")/common.sh"
section=ust-slots
update_doc= runs=3 events=2000000 build=1
for arg; do
	case $arg in
	--update-doc) update_doc=1 ;;
	--runs=*) runs=${arg#*=} ;;
	--events=*) events=${arg#*=} ;;
	--no-build) build= ;;
	-h | --help) usage ;;
	*) die "unknown option '$arg'" ;;
	esac
done
command -v valgrind >/dev/null || die "valgrind not found (apt-get install -y valgrind)"
[ -z "$update_doc" ] || need_section
[ -z "$build" ] || ninja -C "$top/build" >&2 || die "build failed"
work=$(mktemp -d "${TMPDIR:-/tmp}/ust-slots.XXXXXX")
trap 'end_work $? ""' EXIT
snapshot_build "$top/build" "$work"
gcc -O2 -Wall -Wextra -I"$top/include" -I"$here" -o "$work/bin/emit" \
	"$here/ust-emit-spoor.c" "$here/ust-emit-spoor-tp.c" \
	-L"$work/lib" -lspoor-ust -Wl,-rpath,"$work/lib" -lpthread || die "cannot build the emitter"
gcc -O2 -Wall -Wextra -D_GNU_SOURCE -I"$top/lib" -I"$top/include" -o "$work/bin/ust-slots" \
	"$here/ust-slots.c" "$top/lib/ipc/msg.c" || die "cannot build ust-slots"

# run CONFIG CMD...: CONFIG record (spoor record) or 0, 1, 2 (sessions of ust-slots)
run() {
	local c=$1
	shift
	if [ "$c" = record ]; then
		rm -rf "$work/trace"
		"$spoor" record -b 64m --subbuffers 8 -o "$work/trace" -- "$@" 2>"$work/err"
	else
		"$work/bin/ust-slots" "$c" -- "$@" 2>"$work/err"
	fi
}

# instructions per event of the whole program
ipe() {
	local c=$1 n total=()
	for n in 100000 200000; do
		run "$c" valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" \
			"$work/bin/emit" ints 1 $n >"$work/out.$n" ||
			{ note "$c: the run failed: $(cat "$work/err")" && kill $$; }
		total+=("$(callgrind_annotate "$work/cg.$n" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')")
	done
	echo "scale=1; (${total[1]} - ${total[0]}) / 100000" | bc
}

# median CPU ns per event; checks that every session holds every event
cpu_ns() {
	local c=$1 i vals=()
	for ((i = 0; i < runs; i++)); do
		run "$c" "$work/bin/emit" ints 1 "$events" >"$work/out" ||
			{ note "$c: the run failed: $(cat "$work/err")" && kill $$; }
		vals+=("$(sed -n 's/.* cpu=\([0-9.]*\).*/\1/p' "$work/out")")
		# every session: one ring, the same bytes, 20 per event and packet headers, no drop
		if [ "$c" != record ] && [ "$c" -gt 0 ] &&
			! awk -v n="$c" -v ev="$events" '/^slot/ { k++; b[k] = $6; bad += $4 != 1 || $8 != 0 ||
				$6 < ev * 20 || ($6 - ev * 20) % 96 }
				END { for (i = 2; i <= k; i++) bad += b[i] != b[1]; exit bad || k != n }' "$work/out"; then
			note "$c sessions: not every event in every session: $(grep ^slot "$work/out")"
			kill $$
		fi
	done
	printf '%s\n' "${vals[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

rev=$(git -C "$top" rev-parse --short HEAD)
git -C "$top" diff --quiet HEAD -- lib include || rev="$rev + uncommitted changes"
report=$work/report.md
{
	echo "Measured $(date -u '+%Y-%m-%d %H:%M') UTC by \`bench/ust-slots.sh\` with spoor $rev"
	echo "(emitter: gcc $(gcc -dumpfullversion) \`-O2\`, shape A, 1 thread); load before: \`$(uptime | sed 's/.*load/load/')\`."
	echo
	echo "| sessions recording the event | instructions per event (callgrind) | CPU ns per event (median of $runs) |"
	echo "|---|---:|---:|"
	for c in 0 record 1 2; do
		label=$c
		[ "$c" = record ] && label="1 (\`spoor record\`)"
		[ "$c" = 1 ] && label="1 (a daemon's)"
		[ "$c" = 0 ] && label="0 (registered, event not enabled)"
		note "$label: callgrind"
		i=$(ipe "$c")
		note "$label: $runs timed runs"
		echo "| $label | $i | $(cpu_ns "$c") |"
	done
	echo
	echo "Load after: \`$(uptime | sed 's/.*load/load/')\`."
} >"$report"
cat "$report"
[ -z "$update_doc" ] || update_section "$report"
