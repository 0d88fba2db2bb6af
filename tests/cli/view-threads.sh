#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# spoor view's thread rows of a user-space trace (no kernel events) have the names and
# processes the trace gives them: LTTng-UST's procname context (the thread's own name, at
# its first event when it renamed itself later: gen-calls.py's calls-tree; the recorded
# LTTng-UST fixture ust-types, whose per-UID trace has no procname in its env), or the
# trace's env procname (a recording of spoor record, several threads): api/meta's rows and
# processes against babeltrace2's lines of the same trace (view-names-check.py).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view-lib.sh"
: "${CALLS_TREE:?}" "${DL_PROVIDER:?}" "${HELLO:?}"
need babeltrace2 babeltrace2
need nm binutils
CHECK="python3 $(dirname "$0")/view-names-check.py"

gen_calls
cp -r "$SPOOR_TEST_DATA/traces/ust-types" "$TMP/ust-types" # the cache is written beside it
"$SPOOR" record -o "$TMP/hello" -- "$HELLO" 20 3 >"$TMP/hello.log" 2>&1 ||
	fail "spoor record -- hello 20 3: $(cat "$TMP/hello.log")"

for t in "$TMP/t/calls-tree" "$TMP/ust-types" "$TMP/hello"; do
	if view "$t"; then
		check "${t##*/}: the threads' names and processes are the trace's" \
			$CHECK threads "$URL" "$t"
		stop
	else
		fail "${t##*/}: spoor view"
	fi
done
finish
