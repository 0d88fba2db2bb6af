#!/usr/bin/env bash
# spoor dump on the synthetic traces of tests/data/gen-ctf.py: byte-identical to babeltrace2,
# and each option checked against an independent selection of babeltrace2's lines.
. "$(dirname "$0")/lib.sh"
need babeltrace2 babeltrace2
synth
S=$TMP/synth

for t in synth-le synth-be synth-large synth-noclock synth-packetized synth-enums synth-procs; do
	babeltrace2 --clock-gmt "$S/$t" >"$TMP/$t.bt2" 2>/dev/null
	"$SPOOR" dump --format=babeltrace "$S/$t" >"$TMP/$t.spoor"
	check "$t: spoor dump --format=babeltrace is byte-identical to babeltrace2" \
		cmp -s "$TMP/$t.spoor" "$TMP/$t.bt2"
	check "$t: babeltrace2 printed events" test -s "$TMP/$t.bt2"
done

# Both byte orders and packetized metadata decode to the same events.
check "synth-be decodes like synth-le" cmp -s "$TMP/synth-le.spoor" "$TMP/synth-be.spoor"
check "packetized metadata decodes like plain text" \
	cmp -s "$TMP/synth-le.spoor" "$TMP/synth-packetized.spoor"

# Hand-computed values from tests/data/SYNTH.md, in spoor's own text format.
"$SPOOR" dump "$S/synth-le" >"$TMP/text"
check "27-bit timestamp wrap-around (SYNTH.md: bases at ...197198618)" \
	grep -q '^1700000001.197198618 cpu0 synth:bases: vtid=100 hex32=0xDEADBEEF' "$TMP/text"
check "negative 13-bit hex masked to whole nibbles" grep -q 'hex_s13=0xFFFE' "$TMP/text"
check "binary keeps the field's width" grep -q 'bin8=0b00100101' "$TMP/text"
check "enum without a label" grep -q 'e_unknown=( <unknown> : container = 99 )' "$TMP/text"
check "one line per event" test "$(wc -l <"$TMP/text")" -eq "$(wc -l <"$TMP/synth-le.bt2")"

# -e: the same lines as babeltrace2's, selected by event name.
"$SPOOR" dump --format=babeltrace -e 'synth:ti*' "$S/synth-le" >"$TMP/e.spoor"
grep ' synth:tie: ' "$TMP/synth-le.bt2" >"$TMP/e.want"
# the delta column differs once events are left out; compare everything after it
cut -d' ' -f1,3- "$TMP/e.spoor" >"$TMP/e.a"
cut -d' ' -f1,3- "$TMP/e.want" >"$TMP/e.b"
check "-e selects exactly the matching events" cmp -s "$TMP/e.a" "$TMP/e.b"
check "-e matched something" test -s "$TMP/e.a"
"$SPOOR" dump -e 'synth:ints' -e 'synth:floats' "$S/synth-le" >"$TMP/e2"
check "-e is repeatable" test "$(grep -c -E 'synth:(ints|floats):' "$TMP/e2")" -eq 3 -a "$(wc -l <"$TMP/e2")" -eq 3

# -n: a prefix of the full output.
"$SPOOR" dump --format=babeltrace -n 5 "$S/synth-le" >"$TMP/n"
check "-n 5 prints the first 5 lines" cmp -s "$TMP/n" <(head -5 "$TMP/synth-le.bt2")

# --begin/--end: the same events as babeltrace2's own --begin/--end.
b=1700000001.197198700
e=1700000001.497000000
babeltrace2 --clock-gmt --begin="$b" --end="$e" "$S/synth-le" 2>/dev/null | cut -d' ' -f1,3- >"$TMP/r.b"
"$SPOOR" dump --format=babeltrace --begin="$b" --end="$e" "$S/synth-le" | cut -d' ' -f1,3- >"$TMP/r.a"
check "--begin/--end select what babeltrace2 selects" cmp -s "$TMP/r.a" "$TMP/r.b"
check "--begin/--end selected a strict subset" \
	test "$(wc -l <"$TMP/r.a")" -gt 0 -a "$(wc -l <"$TMP/r.a")" -lt "$(wc -l <"$TMP/synth-le.bt2")"

# Several traces at once merge into one timeline.
"$SPOOR" dump --format=babeltrace "$S/synth-le" "$S/synth-large" >"$TMP/two"
check "two traces: all events" test "$(wc -l <"$TMP/two")" -eq $(($(wc -l <"$TMP/synth-le.bt2") + $(wc -l <"$TMP/synth-large.bt2")))
babeltrace2 --clock-gmt "$S/synth-le" "$S/synth-large" 2>/dev/null >"$TMP/two.bt2"
check "two traces: same merge as babeltrace2" cmp -s "$TMP/two" "$TMP/two.bt2"
# A folder of traces whose metadata are the same but for the clock offset and the trace UUID
# (bench/replicate-trace.sh's copies: one model parsed, shared), one of them with another
# hostname too, beside a trace of other metadata: the same events, times and merge as
# babeltrace2's.
top=$(cd "$(dirname "$0")/../.." && pwd)
"$top/bench/replicate-trace.sh" "$S/synth-le" "$TMP/copies" 4 >/dev/null 2>&1
cp -r "$S/synth-large" "$TMP/copies/large"
sed -i 's/hostname = "synth-host";/hostname = "another-host-name";/' "$TMP/copies/c03/kernel/metadata"
check "copies: the traces to compare are there" \
	grep -q another-host-name "$TMP/copies/c03/kernel/metadata"
babeltrace2 --clock-gmt "$TMP/copies" >"$TMP/copies.bt2" 2>/dev/null
"$SPOOR" dump --format=babeltrace "$TMP/copies" >"$TMP/copies.spoor" 2>/dev/null
check "copies, another hostname, another trace: the same output as babeltrace2" \
	cmp -s "$TMP/copies.spoor" "$TMP/copies.bt2"
check "copies: every trace's events" test "$(wc -l <"$TMP/copies.spoor")" -eq \
	$((4 * $(wc -l <"$TMP/synth-le.bt2") + $(wc -l <"$TMP/synth-large.bt2")))
check "copies: each its own hostname" test "$(grep -c ' another-host-name synth:' "$TMP/copies.spoor")" -eq \
	"$(wc -l <"$TMP/synth-le.bt2")"
finish
