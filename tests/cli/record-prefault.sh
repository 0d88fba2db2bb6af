#!/usr/bin/env bash
# A thread's ring is allocated by the runtime's helper thread (lib/ust/prefault.c), not by
# the thread at its first event: the thread's page faults are counted (getrusage), the
# ring's pages found resident (mincore) before the thread writes them; and every event is
# recorded, as spoor stats and babeltrace2 count them.
. "$(dirname "$0")/lib.sh"
: "${RING_PAGES:?}"
need babeltrace2 babeltrace2
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

N=40000 # about 0.8 MiB of events: most of the ring, every page written
"$SPOOR" record -b 1m --subbuffers 8 -o "$TMP/t" -- "$RING_PAGES" $N >"$TMP/out" 2>"$TMP/err"
check "record exits 0" test $? -eq 0
read -r _ pages _ first _ res _ later <"$TMP/out"
echo "# $(cat "$TMP/out")"
check "the ring has its pages (${pages:-?})" test "${pages:-0}" -gt 200
check "every page of the ring allocated while its thread waited ($res of $pages)" \
	test "${res:-0}" -eq "${pages:-1}"
check "the thread's first event did not allocate its ring ($first page faults)" \
	test "${first:-999999}" -lt $((pages / 4))
# (not under a sanitizer: the thread's writes fault in the sanitizer's shadow memory)
if [ "${SANITIZE:-none}" = none ]; then
	check "the thread met its ring's pages allocated ($later page faults for $N events)" \
		test "${later:-999999}" -lt $((pages / 4))
fi
"$SPOOR" stats --json "$TMP/t" >"$TMP/stats.json"
check "stats: every event recorded" test "$(json 'd["events"]' <"$TMP/stats.json")" -eq $((N + 1))
check "stats: none discarded" test "$(json 'd["discarded"]' <"$TMP/stats.json")" -eq 0
check "babeltrace2 counts every event" test "$(babeltrace2 "$TMP/t" | wc -l)" -eq $((N + 1))

finish
