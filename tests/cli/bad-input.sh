#!/usr/bin/env bash
# Damaged and wrong input: a clear message naming the file (and offset), a non-zero exit,
# no crash, and every event before the damage still shown.
. "$(dirname "$0")/lib.sh"
synth
S=$TMP/synth

run() { # run NAME ARGS...: output in $TMP/NAME.out/.err, exit code in $TMP/NAME.rc
	local name=$1
	shift
	"$SPOOR" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
}
rc() { cat "$TMP/$1.rc"; }
# A crash shows as an exit status above 128 (killed by a signal).
clean_fail() { local r; r=$(rc "$1"); [ "$r" -ne 0 ] && [ "$r" -lt 128 ]; }

good=$("$SPOOR" dump "$S/synth-le" | wc -l)

for b in bad-truncated bad-magic bad-header bad-content-size bad-missing-stream; do
	run "$b" dump "$S/$b"
	check "$b: exits non-zero without crashing" clean_fail "$b"
	check "$b: the warning names the stream file and an offset" \
		grep -q -E "warning: $S/$b/channel0_[01]: offset [0-9]+: " "$TMP/$b.err"
	check "$b: says the trace is damaged" grep -q 'the trace is damaged' "$TMP/$b.err"
	n=$(wc -l <"$TMP/$b.out")
	check "$b: events before the damage are shown ($n of $good)" test "$n" -gt 0 -a "$n" -le "$good"
	# what is shown is exactly the undamaged events, as in the good trace
	check "$b: the events shown are real events of the good trace" \
		bash -c "sort '$TMP/$b.out' | comm -23 - <('$SPOOR' dump '$S/synth-le' | sort) | wc -l | grep -qx 0"
	run "$b.stats" stats "$S/$b"
	check "$b: stats exits non-zero without crashing" clean_fail "$b.stats"
	check "$b: stats marks the stream damaged" grep -q '(damaged)' "$TMP/$b.stats.out"
done
check "bad-magic: the message says magic" grep -q 'bad packet magic 0xdeadbeef' "$TMP/bad-magic.err"
check "bad-truncated: the message says where the data ends" grep -q -E 'longer than the data left|ends inside a packet' "$TMP/bad-truncated.err"
check "bad-header: the file ends inside the packet" grep -q 'ends inside a packet' "$TMP/bad-header.err"
check "bad-header: every event in the file is still read" test "$(wc -l <"$TMP/bad-header.out")" -eq "$good"

want=$(cat "$S/bad-metadata-syntax/EXPECTED")
line=${want%%:*}
col=${want##*:}
run syntax dump "$S/bad-metadata-syntax"
check "metadata syntax error: exit 1" test "$(rc syntax)" -eq 1
check "metadata syntax error: names the file, line $line and column $col" \
	grep -q "bad-metadata-syntax/metadata: line $line, column $col: " "$TMP/syntax.err"

# Metadata cut short (a copy cut off in transfer): says that it ends early, and where (the
# line and column of its end), not a parse error about the last word. Cuts between two
# top-level declarations leave valid (shorter) metadata, or a comment without its end
# (reported as such), and are left out.
python3 - "$S/synth-le/metadata" "$TMP/cuts" <<'PY'
import os, re, sys
text = open(sys.argv[1]).read()
os.makedirs(sys.argv[2])


def between(prefix):
    body = re.sub(r"/\*.*?\*/", "", prefix, flags=re.S).rstrip()
    return not body or (body.endswith(";") and body.count("{") == body.count("}"))


with open(os.path.join(sys.argv[2], "list"), "w") as out:
    for n in range(40, len(text), 211):
        cut = text[:n]
        if between(cut[:cut.rfind("/*")] if cut.count("/*") > cut.count("*/") else cut):
            continue
        line = cut.count("\n") + 1
        col = len(cut) - (cut.rfind("\n") + 1) + 1
        d = os.path.join(sys.argv[2], str(n))
        os.makedirs(d)
        open(os.path.join(d, "metadata"), "w").write(cut)
        out.write("%d %d %d\n" % (n, line, col))
PY
cuts=0
early=0
while read -r n line col; do
	cuts=$((cuts + 1))
	"$SPOOR" dump "$TMP/cuts/$n" >/dev/null 2>"$TMP/cut.err"
	[ $? -eq 1 ] && grep -q "cuts/$n/metadata: line $line, column $col: the metadata ends early, inside the declaration that begins at line " "$TMP/cut.err" &&
		early=$((early + 1))
done <"$TMP/cuts/list"
check "metadata cut at $cuts places: each says it ends early, at its end (line, column), exit 1" \
	test "$early" -eq "$cuts" -a "$cuts" -gt 50
# packetized metadata (LTTng's) cut inside a packet header and inside a packet
M=$SPOOR_TEST_DATA/traces/ust-types/metadata
for cut in "20 offset 0: the metadata ends early, inside a packet header (20 of its 37 bytes are there)" \
	"5000 offset 4096: the metadata ends early, inside a packet (904 of its 4096 bytes are there)" \
	"4096 line 135, column 16: the metadata ends early, inside the declaration that begins at line 125"; do
	n=${cut%% *}
	mkdir -p "$TMP/pcut$n"
	head -c "$n" "$M" >"$TMP/pcut$n/metadata"
	run "pcut$n" dump "$TMP/pcut$n"
	check "packetized metadata cut at $n bytes: exit 1, ${cut#* }" \
		bash -c "test $(rc pcut$n) -eq 1 && grep -q -F 'pcut$n/metadata: ${cut#* }' '$TMP/pcut$n.err'"
done

run empty dump "$S/bad-empty"
check "empty directory: exit 1" test "$(rc empty)" -eq 1
check "empty directory: says no trace" grep -q 'no CTF trace here' "$TMP/empty.err"
run notrace dump "$S/bad-not-a-trace"
check "not a trace: exit 1" test "$(rc notrace)" -eq 1
check "not a trace: names the path" grep -q "bad-not-a-trace: no CTF trace here" "$TMP/notrace.err"
run missing dump "$TMP/does-not-exist"
check "missing path: exit 1 and says so" \
	bash -c "test $(rc missing) -eq 1 && grep -q 'does-not-exist: No such file or directory' '$TMP/missing.err'"
echo hello >"$TMP/file"
run file dump "$TMP/file"
check "a file, not a directory: exit 1" test "$(rc file)" -eq 1

# A stream file cut at every length of its first packets: never a crash.
mkdir -p "$TMP/cut"
cp "$S/synth-le/metadata" "$TMP/cut/"
size=$(stat -c %s "$S/synth-le/channel0_0")
crashes=0
for ((len = 1; len < size; len += 7)); do
	head -c "$len" "$S/synth-le/channel0_0" >"$TMP/cut/channel0_0"
	"$SPOOR" dump "$TMP/cut" >/dev/null 2>&1
	[ $? -ge 128 ] && crashes=$((crashes + 1))
done
check "stream cut at $((size / 7)) lengths: no crash" test "$crashes" -eq 0

# Wrong options: usage errors exit 2 with a hint.
run badopt dump --no-such-option "$S/synth-le"
check "unknown option: exit 2" test "$(rc badopt)" -eq 2
check "unknown option: points to help" grep -q "try 'spoor help dump'" "$TMP/badopt.err"
run badfmt dump --format=xml "$S/synth-le"
check "unknown format: exit 2" test "$(rc badfmt)" -eq 2
run badtime dump --begin=yesterday "$S/synth-le"
check "invalid time: exit 2" test "$(rc badtime)" -eq 2
run notrace2 dump
check "no trace given: exit 2" test "$(rc notrace2)" -eq 2
run badcount dump -n -3 "$S/synth-le"
check "negative count: exit 2" test "$(rc badcount)" -eq 2
# A range that ends before it begins: a usage error that says so, for each command that
# reads traces, not an empty output and exit 0. Options after the traces are read as
# options (`spoor dump T -n 5`, as perf and babeltrace2 take them), not as traces named
# --tid ("No such file or directory"); after `--`, a trace's name.
for c in dump stats graph sched irq syscalls disk export; do
	run "range-$c" "$c" --begin=2000 --end=1000 "$S/synth-le"
	check "$c --end before --begin: exit 2, said" \
		bash -c "test $(rc "range-$c") -eq 2 && grep -q -- '--end is before --begin' '$TMP/range-$c.err'"
	run "early-$c" "$c" --end=1700000001197198618 "$S/synth-le"
	run "late-$c" "$c" "$S/synth-le" --end=1700000001197198618
	# (the same exit, output and messages; stats' read rate aside)
	check "$c TRACE --end=T: as $c --end=T TRACE (exit $(rc "late-$c"))" \
		bash -c "test $(rc "late-$c") -eq $(rc "early-$c") &&
			cmp -s <(grep -v '^Read: ' '$TMP/early-$c.out') <(grep -v '^Read: ' '$TMP/late-$c.out') &&
			cmp -s '$TMP/early-$c.err' '$TMP/late-$c.err' && ! grep -q 'No such file' '$TMP/late-$c.err'"
done
# ... and --end did cut: fewer events than the whole trace's, exit 0
check "dump TRACE --end=T: exit 0, $(wc -l <"$TMP/late-dump.out") of $good events" \
	test "$(rc late-dump)" -eq 0 -a -s "$TMP/late-dump.out" -a "$(wc -l <"$TMP/late-dump.out")" -lt "$good"
run dashdash dump -- "$S/synth-le" -n
check "after --, -n is a trace's name: exit 1, no such trace" \
	bash -c "test $(rc dashdash) -eq 1 && grep -q -- '-n' '$TMP/dashdash.err'"
# view too: an unknown option after the trace is one, not a trace named so
timeout 10 "$SPOOR" view "$S/synth-le" --no-such-option >/dev/null 2>"$TMP/late-view.err"
check "view TRACE --no-such-option: exit 2, an unknown option" \
	bash -c "test $? -eq 2 && grep -q -- 'unknown or incomplete option .--no-such-option' '$TMP/late-view.err'"

# Output to a full device: an error, not silence.
if [ -w /dev/full ]; then
	"$SPOOR" dump "$S/synth-le" >/dev/full 2>"$TMP/full.err"
	r=$?
	check "full disk: exit 1" test "$r" -eq 1
	check "full disk: says so" grep -q 'No space left on device' "$TMP/full.err"
fi
finish
