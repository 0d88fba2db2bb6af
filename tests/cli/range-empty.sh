#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A --begin/--end that holds no event of the trace: every command that reads traces says so
# on stderr with the span of the trace (cmds/read-status.c, cmd_note_range), exit 0 as
# before; a range that holds events says nothing; the span given holds every event.
. "$(dirname "$0")/lib.sh"

an=$(python3 "$SPOOR_TEST_DATA/gen_kernel.py" --analyses "$TMP/an") || exit 1
"$SPOOR" dump "$an" >"$TMP/all"
first=$(head -1 "$TMP/all" | cut -d' ' -f1)
last=$(tail -1 "$TMP/all" | cut -d' ' -f1)

for c in dump stats graph export sched irq syscalls disk; do
	"$SPOOR" $c --begin 1 --end 2 "$an" >/dev/null 2>"$TMP/$c.err"
	check "$c: a range before the trace: exit 0" test $? -eq 0
	check "$c: a range before the trace: a note with the trace's span" \
		grep -qx "spoor $c: note: no event in \[0\.000000001, 0\.000000002\]; the trace spans .* \.\. .* (in ns: [0-9]* \.\. [0-9]*)" "$TMP/$c.err"
	"$SPOOR" $c --begin "$first" --end "$last" "$an" >/dev/null 2>"$TMP/$c.in"
	check "$c: a range with events: no note" test "$(grep -c "note: no event" "$TMP/$c.in")" -eq 0
done
"$SPOOR" dump --begin 1800000000.0 "$an" >"$TMP/late" 2>"$TMP/late.err"
check "--begin after the trace: exit 0, nothing printed" test $? -eq 0 -a ! -s "$TMP/late"
check "--begin after the trace: a note" grep -q "note: no event at or after 1800000000\.000000000; the trace spans" "$TMP/late.err"
"$SPOOR" dump --end 1.5 "$an" 2>"$TMP/early.err" >/dev/null
check "--end before the trace: a note" grep -q "note: no event at or before 1\.500000000; the trace spans" "$TMP/early.err"

# The span said, in either notation, selects every event of the trace.
span=$(sed -n 's/.*the trace spans \([0-9.]*\) \.\. \([0-9.]*\) (in ns: \([0-9]*\) \.\. \([0-9]*\))$/\1 \2 \3 \4/p' "$TMP/dump.err")
read -r s1 s2 n1 n2 <<<"$span"
"$SPOOR" dump --begin "$s1" --end "$s2" "$an" >"$TMP/span-s"
check "the span in seconds: every event" cmp -s "$TMP/all" "$TMP/span-s"
"$SPOOR" dump --begin "$n1" --end "$n2" "$an" >"$TMP/span-ns"
check "the span in ns: every event" cmp -s "$TMP/all" "$TMP/span-ns"
check "the span's ends are the first and last events" test "$s1 $s2" = "$first $last"
finish
