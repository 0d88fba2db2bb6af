#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# spoor view's flame rows (issue 22): the calls of gen-calls.py's traces (a tree with
# recursion, a longjmp, a signal handler, a library's function before and after its
# dlclose; a trace starting and ending mid-call; whole calls; lost events), read through
# api/meta and api/spans at 10 ns a pixel, exactly as the generator says they are
# (view-calls-check.py); a trace without calls has no flame rows.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view-lib.sh"
: "${CALLS_TREE:?}" "${DL_PROVIDER:?}"
need nm binutils

gen_calls
busy=$(python3 "$SPOOR_TEST_DATA/gen_kernel.py" --busy "$TMP/busy")

for t in calls-tree calls-midstart calls-whole calls-lost; do
	if view "$TMP/t/$t"; then
		check "$t: the flame rows, exact" python3 "$(dirname "$0")/view-calls-check.py" \
			"$URL" "$TMP/t/$t.flame"
		stop
	else
		fail "$t: spoor view"
	fi
done

if view "$busy"; then
	python3 - "$URL" >"$TMP/nocalls" <<'PY'
import json, sys, urllib.request
meta = json.load(urllib.request.urlopen(sys.argv[1] + "api/meta"))
print(sum(r["kind"] == "calls" for r in meta["rows"]), len(meta["functions"]))
PY
	check "a trace without calls: no flame rows, no functions ($(cat "$TMP/nocalls"))" \
		test "$(cat "$TMP/nocalls")" = "0 0"
	stop
else
	fail "busy: spoor view"
fi
finish
