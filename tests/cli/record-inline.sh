#!/usr/bin/env bash
# The inline emit path (tracepoint.h) and its ABI version: a program built for this
# runtime's inline ABI writes most events without calling spoor_reserve; one built for
# another version (-DSPOOR_INLINE_ABI=1, the first one) calls it for every event. Both
# record the same events, and both keep tracing_off and probes.
. "$(dirname "$0")/lib.sh"
: "${INLINE_ABI:?}" "${INLINE_ABI_OLD:?}"
N=20000

for build in same old; do
	prog=$INLINE_ABI
	[ "$build" = old ] && prog=$INLINE_ABI_OLD
	out="$TMP/$build"
	"$SPOOR" record -o "$out" -b 16m -- "$prog" "$N" >"$out.txt" 2>"$out.err"
	check "$build: record exits 0" test $? -eq 0
	"$SPOOR" dump "$out" >"$out.dump"
	check "$build: every recorded event (2N, then N probed; none while off)" \
		test "$(wc -l <"$out.dump")" -eq $((3 * N))
	check "$build: first and last values" bash -c "
		grep -q 'abi:pair: x=0 y=0\$' '$out.dump' &&
		grep -q 'abi:pair: x=$((N - 1)) y=$((3 * (N - 1)))\$' '$out.dump' &&
		grep -q 'abi:text: i=$((N - 1)) s=\"t$((N - 1))\"\$' '$out.dump' &&
		grep -q 'abi:pair: x=$((2000000 + N - 1)) y=0\$' '$out.dump'"
	check "$build: nothing recorded while tracing was off" \
		test "$(grep -c 'abi:pair: x=1[0-9]\{6\} ' "$out.dump")" -eq 0
	check "$build: no event lost" test "$("$SPOOR" stats --json "$out" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["discarded"])')" -eq 0
	check "$build: the probe saw each of its events" grep -q " probed=$N\$" "$out.txt"
	check "$build: timestamps increase" bash -c "cut -d' ' -f1 '$out.dump' | sort -c -n"
	reserves=$(sed -n 's/^reserves=\([0-9]*\) .*/\1/p' "$out.txt")
	if [ "$build" = old ]; then
		check "old version: every event through spoor_reserve" test "$reserves" -eq $((4 * N))
	elif grep -q 'name = "tsc";' "$out"/ust/pid/*/metadata; then
		# paused and probed events still go out of line (2N); the N pairs and N texts don't
		check "same version: events written inline" test "$reserves" -lt $((3 * N))
	else
		echo "note: the session's clock is not the TSC: every event goes out of line"
	fi
done
babeltrace2 "$TMP/same" >"$TMP/same.bt2" 2>/dev/null
"$SPOOR" dump --format=babeltrace "$TMP/same" >"$TMP/same.sp"
check "same version: same output as babeltrace2" cmp -s "$TMP/same.sp" "$TMP/same.bt2"
finish
