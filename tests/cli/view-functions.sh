#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# spoor view's event list names the function of each event of a call (api/events'
# `function`, as the flame rows and spoor graph name it; its text stays spoor dump's line):
# gen-calls.py's traces (a library's function before and after its dlclose, a stripped
# program, whole calls, lost events) against the generator's names, and a recording of
# `spoor record --calls` (threads, a dlopen'd library) against the names nm gives the
# addresses of the objects its load map names, as babeltrace2 reads it
# (view-names-check.py).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/view-lib.sh"
: "${CALLS_TREE:?}" "${DL_PROVIDER:?}" "${CALLS_CYG:?}" "${CALLS_LIB:?}"
need nm binutils
need babeltrace2 babeltrace2
CHECK="python3 $(dirname "$0")/view-names-check.py"

gen_calls
for t in calls-tree calls-midstart calls-whole calls-lost; do
	if view "$TMP/t/$t"; then
		check "$t: each call's event names its function" $CHECK functions "$URL" "$TMP/t/$t.names"
		stop
	else
		fail "$t: spoor view"
	fi
done

for run in threads "dlopen $CALLS_LIB"; do
	name=${run%% *}
	# shellcheck disable=SC2086 # the program's arguments
	if ! "$SPOOR" record -o "$TMP/$name" --calls -- "$CALLS_CYG" $run >"$TMP/$name.log" 2>&1; then
		fail "spoor record --calls -- calls-record-cyg $run"
		cat "$TMP/$name.log"
	elif view "$TMP/$name"; then
		check "recorded ($run): each call's event names its function as nm does" \
			$CHECK functions-bt2 "$URL" "$TMP/$name"
		stop
	else
		fail "$name: spoor view"
	fi
done
finish
