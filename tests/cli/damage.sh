#!/usr/bin/env bash
# Damaged packet contents (docs/compatibility.md, "Damaged traces"): each kind of damage
# ends the damaged stream at the damaged event or packet, with the file and its byte offset,
# after every event before it, in time order, and exit 1; the other streams are read whole.
# Then the exit status of every reading command (docs/cli.md, "Exit codes").
# Traces: tests/data/gen-damaged.py (a gen_kernel.py trace, bytes of channel0_0 overwritten).
. "$(dirname "$0")/lib.sh"
python3 "$SPOOR_TEST_DATA/gen-damaged.py" "$TMP/d" || exit 1
D=$TMP/d
"$SPOOR" dump "$D/clean" >"$TMP/clean.out" || exit 1
grep ' cpu0 ' "$TMP/clean.out" >"$TMP/clean.cpu0"
grep ' cpu1 ' "$TMP/clean.out" >"$TMP/clean.cpu1"
bt=$(command -v babeltrace2)

in_order() { # the times (first column) never go back
	awk '{ t = $1; if (NR > 1 && t < last) exit 1; last = t }' "$1"
}

# case MESSAGE: the case's damage, reported as MESSAGE at the offset the generator expects
damaged() {
	local c=$1 msg=$2 at before
	read -r at before <"$D/$c.expect"
	"$SPOOR" dump "$D/$c" >"$TMP/$c.out" 2>"$TMP/$c.err"
	local rc=$?
	check "$c: exit 1" test "$rc" -eq 1
	check "$c: the warning names channel0_0, offset $at: $msg" \
		grep -q -F "warning: $D/$c/channel0_0: offset $at: $msg" "$TMP/$c.err"
	check "$c: says the trace is damaged" grep -q 'the trace is damaged: 1 stream(s)' "$TMP/$c.err"
	check "$c: the output is in time order" in_order "$TMP/$c.out"
	grep ' cpu0 ' "$TMP/$c.out" >"$TMP/$c.cpu0"
	check "$c: the damaged stream's $before events before the damage, as in the clean trace" \
		cmp -s "$TMP/$c.cpu0" <(head -n "$before" "$TMP/clean.cpu0")
	check "$c: the other stream read whole" cmp -s <(grep ' cpu1 ' "$TMP/$c.out") "$TMP/clean.cpu1"
	if [ -n "$bt" ]; then # babeltrace2 stops there too (and stops everything)
		"$bt" "$D/$c" >/dev/null 2>&1
		check "$c: babeltrace2 rejects it too" test $? -ne 0
	fi
}

damaged backwards "event time 2340999 is before the previous event's 2341000: time goes backwards"
damaged before-begin "event time 1996000 is before its packet's timestamp_begin 2001000"
damaged packet-backwards "packet timestamp_begin 1990999 is before the stream's previous time 1991000"
damaged after-end "event time 2351000 is after its packet's timestamp_end 2350999"
damaged end-before-begin "packet timestamp_end 2000999 is before its timestamp_begin 2001000"
damaged out-of-range "event time 9223372036854775808 is past the clock's range (7523372036731319018)"
damaged unknown-id "event id 132 is not declared in stream class 0"
damaged packet-past-file "the file ends inside a packet (18816 of its 22912 bytes are there)"
damaged field-past-content "integer runs past the packet content"
damaged string-past-content "string without its terminating NUL"

# 2,000 random bytes over the middle of a packet (issue 19): where the damage is caught
# depends on the bytes; it is within them, and no event before them is lost
read -r lo hi n <"$D/random.expect"
"$SPOOR" dump "$D/random" >"$TMP/random.out" 2>"$TMP/random.err"
check "random: exit 1" test $? -eq 1
at=$(sed -n -E "s|.*warning: $D/random/channel0_0: offset ([0-9]+): .*|\1|p" "$TMP/random.err")
check "random: stopped within the overwritten bytes ($lo <= ${at:-none} < $hi)" \
	test "${at:-0}" -ge "$lo" -a "${at:-0}" -lt "$hi"
check "random: the output is in time order" in_order "$TMP/random.out"
check "random: the $n events before the overwritten bytes, as in the clean trace" \
	cmp -s <(grep ' cpu0 ' "$TMP/random.out" | head -n "$n") <(head -n "$n" "$TMP/clean.cpu0")
if [ -n "$bt" ]; then
	"$bt" "$D/random" >/dev/null 2>&1
	check "random: babeltrace2 rejects it too" test $? -ne 0
fi

# One exit status for every reading command: 0 clean, 1 damaged (after the output), 2 usage.
printf 'n = 0\nfunction sched_switch(e) n = n + 1 end\nfunction finish() print(n) end\n' \
	>"$TMP/count.lua"
for c in dump stats irq sched syscalls disk "analyze --plugin $PLUGIN" "script $TMP/count.lua"; do
	name=${c%% *}
	"$SPOOR" $c "$D/clean" >"$TMP/$name.clean" 2>"$TMP/$name.clean.err"
	check "$name: exit 0 on the clean trace" test $? -eq 0
	"$SPOOR" $c "$D/unknown-id" >"$TMP/$name.dmg" 2>"$TMP/$name.dmg.err"
	check "$name: exit 1 on the damaged trace" test $? -eq 1
	check "$name: the damage named, then what the output covers" \
		grep -q "^spoor $name: the trace is damaged: 1 stream(s) stopped early" "$TMP/$name.dmg.err"
	check "$name: the output still printed" test -s "$TMP/$name.dmg"
	"$SPOOR" $name --no-such-option "$D/clean" >/dev/null 2>&1
	check "$name: exit 2 for a usage error" test $? -eq 2
done
"$SPOOR" list -u "$D/clean/metadata" >/dev/null 2>&1
check "list: exit 1 on a file it cannot read" test $? -eq 1
"$SPOOR" list --no-such-option >/dev/null 2>&1
check "list: exit 2 for a usage error" test $? -eq 2

# Events the tracer discarded are not damage: exit 0.
python3 - "$SPOOR_TEST_DATA" "$TMP/lost" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import gen_kernel
sw = {"prev_comm": "a", "prev_tid": 1, "prev_prio": 20, "prev_state": 1,
      "next_comm": "b", "next_tid": 2, "next_prio": 20}
gen_kernel.write(sys.argv[2], [(1000 * i, 0, "sched_switch", sw) for i in range(1, 5)],
                 losses={0: [(2, 7)]})
PY
for c in dump stats sched; do
	"$SPOOR" $c "$TMP/lost" >/dev/null 2>&1
	check "$c: exit 0 with discarded events" test $? -eq 0
done
finish
