#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# spoor graph: function_graph and the function profile on traces of known call trees
# (tests/data/gen-calls.py, which also renders the expected output), names from the
# program's symbols, a stripped copy (addresses) and its debug file by build-id, a library
# between dlopen and dlclose; the options; LTTng's glxgears cyg-profile trace when shared.
. "$(dirname "$0")/lib.sh"
: "${CALLS_TREE:?}" "${DL_PROVIDER:?}"
need nm binutils
need objcopy binutils

cp "$CALLS_TREE" "$TMP/calls-tree"
strip -s "$TMP/calls-tree" -o "$TMP/calls-tree-stripped"
python3 "$SPOOR_TEST_DATA/gen-calls.py" --prog "$TMP/calls-tree" \
	--stripped "$TMP/calls-tree-stripped" --lib "$DL_PROVIDER" "$TMP/t" ||
	fail "gen-calls.py"
T=$TMP/t

# The tree, exact: calls, leaves, marks, longjmp, the signal handler, comments, the
# context switches, dlopen/dlclose; a mid-call start and end; whole calls; a stream that
# lost an exit and an entry.
for t in calls-tree calls-midstart calls-whole calls-lost; do
	"$SPOOR" graph "$T/$t" >"$TMP/$t.out" 2>"$TMP/$t.err"
	check "$t: exit status 0" test $? -eq 0
	if diff -u "$T/$t.graph" "$TMP/$t.out"; then pass "$t: the expected graph"; else
		fail "$t: the expected graph"; fi
done
check "calls-tree: no warnings" test ! -s "$TMP/calls-tree.err"
# A sanitizer build keeps its runtime's symbols in .dynsym when stripped: not "no symbols".
asan=$(nm -D "$CALLS_TREE" 2>/dev/null | grep -c __asan_init)
if [ "$asan" = 0 ]; then
	check "calls-midstart: the stripped program is said" \
		grep -q "calls-tree-stripped: no symbols (stripped): addresses shown" "$TMP/calls-midstart.err"
fi

# Durations nested: a call's lies inside its caller's (each closing at least its longest
# child), from the printed graph.
nested() {
	python3 - "$1" <<'EOF'
import re, sys
stacks, ok = {}, True
for line in open(sys.argv[1]):
    m = re.match(r"(.{14}) \| .\s?([\d.]+ us)?\s*\|  ( *)(.*)$", line.rstrip("\n"))
    if not m:
        continue
    stack = stacks.setdefault(m.group(1), [])
    depth, text = len(m.group(3)) // 2, m.group(4)
    dur = float(m.group(2).split()[0]) * 1000 if m.group(2) else None
    if text.endswith("() {"):
        stack.append([depth, 0.0])
    elif text.startswith("}") and stack:
        d, longest = stack.pop()
        ok &= d == depth and (text != "}" or dur + 1 >= longest)
        if stack and dur is not None:
            stack[-1][1] = max(stack[-1][1], dur)
    elif text.endswith("();") and stack:
        stack[-1][1] = max(stack[-1][1], dur)
sys.exit(0 if ok else 1)
EOF
}
check "calls-tree: durations nested" nested "$TMP/calls-tree.out"

# The profile's hits: the calls that ended, per function (the program's own counts).
profile_hits() {
	"$SPOOR" graph --profile --json "$1" | python3 -c '
import json, sys
got = {f["name"]: f["hits"] for f in json.load(sys.stdin)["functions"] if f["hits"]}
want = json.load(open(sys.argv[1]))
sys.exit(0 if got == want else print(got, want) or 1)' "$2"
}
for t in calls-tree calls-whole; do
	check "$t: profile hits" profile_hits "$T/$t" "$T/$t.hits"
done
"$SPOOR" graph --profile --sort=hits "$T/calls-tree" >"$TMP/prof.txt"
check "profile: ftrace's header" grep -q "^  Function                               Hit    Time            Avg             s^2" "$TMP/prof.txt"
check "profile: no line ends in a blank" test "$(grep -c '[[:space:]]$' "$TMP/prof.txt")" -eq 0
check "profile: sorted by hits" test "$(sed -n 3p "$TMP/prof.txt" | awk '{print $1, $2}')" = "ct_leaf1 4"
check "profile: recursion's total and self" \
	grep -qE "^  ct_rec +3    6000\.600 us +2000\.200 us +0\.040 us +2000\.400 us" "$TMP/prof.txt"
if [ "$asan" = 0 ]; then # the stripped copy's addresses are named there (above)
	"$SPOOR" graph --profile --sort=name "$T/calls-tree" | sed -n '3p' >"$TMP/first"
	check "profile: --sort=name" grep -q "^  0x7f12345611e0 " "$TMP/first"
fi

# -D: the outermost calls only (main becomes a leaf); --tid: one thread, no switches.
# (Another thread's line between main's entry and exit makes it `main() {` ... `}`, as in
# ftrace: one thread alone shows the leaf.)
"$SPOOR" graph -D 1 "$T/calls-tree" >"$TMP/d1"
check "-D 1: only depth 0" test "$(grep -c '|  [a-z]' "$TMP/d1")" -eq 2
"$SPOOR" graph -D 1 --tid 101 "$T/calls-tree" >"$TMP/d1"
check "-D 1: main as a leaf" grep -q "| \* 22167.11 us |  main();" "$TMP/d1"
"$SPOOR" graph --tid 102 "$T/calls-tree" >"$TMP/tid"
check "--tid: its calls" test "$(grep -c 'calls-t-102' "$TMP/tid")" -eq 4
check "--tid: no switch" test "$(grep -c -- '------' "$TMP/tid")" -eq 0

# --begin inside calls: those open then end as `} /* name */`, at their depth.
jump_f=$(printf "%X" $((0x555555554000 + 0x$(nm "$CALLS_TREE" | sed -n 's/ t ct_jump_f$//p'))))
begin=$(babeltrace2 --clock-seconds "$T/calls-tree" | grep -m1 "func_entry.*addr = 0x$jump_f" |
	sed 's/^\[\([0-9.]*\)\].*/\1/')
"$SPOOR" graph --begin "$begin" "$T/calls-tree" >"$TMP/begin"
check "--begin: the first call at its depth" \
	grep -qE "^ calls-t-101   \|               \|    ct_jump_f\(\) \{" "$TMP/begin"
check "--begin: main's exit names it" \
	grep -qE "^ calls-t-101   \|               \|  \} /\* main \*/$" "$TMP/begin"

# The stripped program's debug file, by build-id: names again.
bid=$(readelf -n "$TMP/calls-tree-stripped" | sed -n 's/.*Build ID: //p')
mkdir -p "$TMP/debug/.build-id/${bid:0:2}"
objcopy --only-keep-debug "$TMP/calls-tree" "$TMP/debug/.build-id/${bid:0:2}/${bid:2}.debug"
"$SPOOR" graph --debug-dir "$TMP/debug" "$T/calls-midstart" >"$TMP/dbg" 2>"$TMP/dbg.err"
check "debug file: names" grep -q "} /\* ct_leaf2 \*/" "$TMP/dbg"
check "debug file: no warning" test ! -s "$TMP/dbg.err"

# Bad input: clear errors, non-zero exits.
synth
"$SPOOR" graph "$TMP/synth/synth-le" >"$TMP/none.out" 2>"$TMP/none.err"
check "no calls: a warning naming the way to record" grep -q "spoor record --calls" "$TMP/none.err"
check "no calls: the header only" test "$(wc -l <"$TMP/none.out")" -eq 4
"$SPOOR" graph "$TMP/nonexistent" 2>"$TMP/err"
check "missing trace: exit 1" test $? -eq 1
"$SPOOR" graph --sort=size --profile "$T/calls-tree" 2>"$TMP/err"
check "bad sort: usage error" test $? -eq 2
"$SPOOR" graph --json "$T/calls-tree" 2>"$TMP/err"
check "--json without --profile: usage error" test $? -eq 2
"$SPOOR" graph --symbols "$TMP/nonexistent" "$T/calls-tree" 2>"$TMP/err"
check "missing --symbols: exit 1" test $? -eq 1

# LTTng's cyg-profile trace of glxgears (shared), with its nm mapping: babeltrace2's
# counts of draw's exits are the profile's hits.
cyg=$SHARED_TRACES/lttng/cyg-profile
if [ -d "$cyg" ]; then
	"$SPOOR" graph --symbols "$cyg/cyg-profile-mapping.txt" "$cyg/glxgears-cyg-profile" >"$TMP/glx"
	check "glxgears: main first" grep -q "^glxgear-16073  |               |  main() {" "$TMP/glx"
	want=$(babeltrace2 "$cyg/glxgears-cyg-profile" | grep -c 'func_exit.*addr = 0x4033A7')
	got=$("$SPOOR" graph -p --json --symbols "$cyg/cyg-profile-mapping.txt" \
		"$cyg/glxgears-cyg-profile" | python3 -c '
import json, sys
print([f["hits"] for f in json.load(sys.stdin)["functions"] if f["name"] == "draw"][0])')
	check "glxgears: draw's hits ($got) are babeltrace2's exits ($want)" test "$got" = "$want"
	"$SPOOR" graph --symbols "$cyg/cyg-profile-mapping.txt" \
		"$cyg/glxgears-cyg-profile-fast" >"$TMP/glxf"
	check "glxgears (fast: exits without addresses): the same tree" \
		test "$(sed 's/^[^|]*|[^|]*|//' "$TMP/glx" | head -30)" = \
		"$(sed 's/^[^|]*|[^|]*|//' "$TMP/glxf" | head -30)"
else
	echo "SKIP: $cyg is not there"
fi
finish
