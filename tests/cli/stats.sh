#!/usr/bin/env bash
# spoor stats against independent counts: babeltrace2's counter sink, and counts taken
# from babeltrace2's text output (per name, per CPU) and its discarded-events warnings.
. "$(dirname "$0")/lib.sh"
need babeltrace2 babeltrace2
synth

traces=("$SPOOR_TEST_DATA/traces/ust-types" "$SPOOR_TEST_DATA/traces/ust-discard" "$TMP/synth/synth-le"
	"$TMP/synth/synth-procs"
	"$SPOOR_TEST_DATA/traces/ctx-ref" "$SPOOR_TEST_DATA/traces/ctx-ref-lttng")
[ -d "${SHARED_TRACES:-}/lttng" ] && traces+=("$SHARED_TRACES/lttng/many-threads" "$SHARED_TRACES/lttng/ros2")

for t in "${traces[@]}"; do
	name=$(basename "$t")
	"$SPOOR" stats --json "$t" >"$TMP/$name.json" 2>"$TMP/$name.stats-err"
	check "$name: stats --json exits 0" test $? -eq 0
	check "$name: stats warns of nothing but losses" \
		bash -c "! grep -v '^spoor stats: warning: .*: [0-9]* events discarded' '$TMP/$name.stats-err'"
	babeltrace2 --clock-gmt "$t" >"$TMP/$name.txt" 2>"$TMP/$name.warn"
	want_total=$(babeltrace2 "$t" -c sink.utils.counter 2>/dev/null | awk '$2 == "Event" {n = $1} END {print n}')
	got_total=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["events"])' "$TMP/$name.json")
	check "$name: total $got_total = babeltrace2 counter $want_total" test "$got_total" = "$want_total"
	# per event name
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /:$/ && $(i+1) == "{") { print substr($i, 1, length($i) - 1); break } }' \
		"$TMP/$name.txt" | sort | uniq -c | awk '{print $2, $1}' | sort >"$TMP/$name.names.want"
	python3 -c 'import json,sys
for k, v in json.load(open(sys.argv[1]))["by_name"].items(): print(k, v)' "$TMP/$name.json" | sort >"$TMP/$name.names.got"
	check "$name: counts by name match babeltrace2's output" cmp -s "$TMP/$name.names.got" "$TMP/$name.names.want"
	# per cpu
	grep -o '{ cpu_id = [0-9]* }' "$TMP/$name.txt" | awk '{print $4}' | sort -n | uniq -c | awk '{print $2, $1}' >"$TMP/$name.cpu.want"
	python3 -c 'import json,sys,collections
c = collections.Counter()
for s in json.load(open(sys.argv[1]))["streams"]: c[s["cpu"]] += s["events"]
for k in sorted(c):
    if c[k]: print(k, c[k])' "$TMP/$name.json" >"$TMP/$name.cpu.got"
	check "$name: counts by CPU match babeltrace2's output" cmp -s "$TMP/$name.cpu.got" "$TMP/$name.cpu.want"
	# discarded events: the sum of babeltrace2's warnings ("discarded N event(s)")
	want_disc=$(grep -o 'discarded [0-9]* event' "$TMP/$name.warn" | awk '{s += $2} END {print s + 0}')
	got_disc=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["discarded"])' "$TMP/$name.json")
	check "$name: discarded $got_disc = babeltrace2's warnings $want_disc" test "$got_disc" = "$want_disc"
	# and spoor's own warnings, one per stream that lost events
	warned=$(grep -o ': [0-9]* events discarded' "$TMP/$name.stats-err" | awk '{s += $2} END {print s + 0}')
	check "$name: spoor's loss warnings add up to $got_disc ($warned)" test "$warned" = "$got_disc"
done

# ctx-ref: payload sequences sized by context fields; stats steps over events without
# printing them, so it must keep the contexts' values the sequences refer to.
# ctx-ref-lttng: the same through an LTTng event header, whose values are read lazily.
for name in ctx-ref ctx-ref-lttng; do
	"$SPOOR" dump --format=babeltrace "$SPOOR_TEST_DATA/traces/$name" >"$TMP/$name.dump"
	check "$name: dump --format=babeltrace = babeltrace2" cmp -s "$TMP/$name.dump" "$TMP/$name.txt"
done

# The discard fixture really lost events; the types fixture lost none.
check "ust-discard reports discarded events" test "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["discarded"])' "$TMP/ust-discard.json")" -gt 0

# Per process: the UST fixtures carry vpid/procname contexts.
"$SPOOR" stats "$SPOOR_TEST_DATA/traces/ust-types" >"$TMP/text"
want_proc=$(grep -c 'procname = "fixture-app"' "$TMP/ust-types.txt")
check "per-process count for fixture-app ($want_proc)" grep -q -E "^ +$want_proc +[0-9]+ +fixture-app$" "$TMP/text"
check "text report has a time span" grep -q '^Time span: ' "$TMP/text"
# synth-procs: per pid, its events and the last name babeltrace2 prints for it (a rename
# by exec; names whose bytes after the NUL differ; one of 16 characters; an empty one,
# which stats prints as "?"), read in place from the char array
python3 -c 'import re, sys, collections
count, name = collections.Counter(), {}
for line in open(sys.argv[1]):
    m = re.search(r"vpid = (-?[0-9]+), vtid = -?[0-9]+, procname = \"([^\"]*)\"", line)
    count[m.group(1)] += 1
    name[m.group(1)] = m.group(2) or "?"
for pid in sorted(count): print(pid, count[pid], name[pid])' "$TMP/synth-procs.txt" >"$TMP/procs.want"
"$SPOOR" stats "$TMP/synth/synth-procs" | sed -n '/^Events by process:/,$p' |
	awk 'NR > 2 {print $2, $1, $3}' | sort >"$TMP/procs.got"
check "synth-procs: events and last name per process match babeltrace2's" \
	cmp -s "$TMP/procs.got" "$TMP/procs.want"
check "synth-procs: three processes" test "$(wc -l <"$TMP/procs.got")" -eq 3
check "text report has a read rate" grep -q -E '^Read: [0-9]+ bytes in ' "$TMP/text"

# --begin/--end count what dump selects.
b=1700000001.197198700
e=1700000001.497000000
n_dump=$("$SPOOR" dump --begin=$b --end=$e "$TMP/synth/synth-le" | wc -l)
n_stats=$("$SPOOR" stats --json --begin=$b --end=$e "$TMP/synth/synth-le" | python3 -c 'import json,sys; print(json.load(sys.stdin)["events"])')
check "stats --begin/--end counts what dump prints ($n_dump)" test "$n_dump" = "$n_stats"
# two traces with the same event names: one line per name, their counts added up
"$SPOOR" stats "$TMP/synth/synth-le" "$TMP/synth/synth-be" |
	sed -n '/^Events by name:/,/^$/p' | awk 'NR > 2 && NF == 2 {print $2, $1}' | sort >"$TMP/both.names"
dup=$(cut -d' ' -f1 "$TMP/both.names" | uniq -d | wc -l)
check "stats of two traces: each name once in 'Events by name'" test "$dup" -eq 0
"$SPOOR" stats "$TMP/synth/synth-le" | sed -n '/^Events by name:/,/^$/p' |
	awk 'NR > 2 && NF == 2 {print $2, 2 * $1}' | sort >"$TMP/le.twice"
check "stats of two traces: counts of both (twice one copy's)" cmp -s "$TMP/both.names" "$TMP/le.twice"

finish
