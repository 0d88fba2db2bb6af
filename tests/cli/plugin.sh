#!/usr/bin/env bash
# Analysis plug-ins: examples/plugins/switches.c loaded by `spoor analyze` and, in the same
# pass as a built-in analysis, by `spoor irq --plugin`; its counts against babeltrace2's.
. "$(dirname "$0")/lib.sh"
: "${PLUGIN:?}" "${LABELS_PLUGIN:?}"
need babeltrace2 babeltrace2
trace="${SHARED_TRACES:-}/lttng/many-threads"
if [ ! -d "$trace" ]; then
	python3 - "$TMP/t" <<'PY'
import sys, os
sys.path.insert(0, os.environ["SPOOR_TEST_DATA"])
import gen_kernel
ev = []
for i in range(50):
    cpu = i % 2
    ev.append((1000 + 100 * i, cpu, "sched_switch", {"prev_comm": "a", "prev_tid": 10 + cpu, "prev_prio": 120,
               "prev_state": 1, "next_comm": "b", "next_tid": 20 + i % 3, "next_prio": 120}))
# interrupts too: `spoor irq --plugin` below needs some
for i in range(10):
    ev.append((1050 + 500 * i, i % 2, "irq_handler_entry", {"irq": 11, "name": "eth0"}))
    ev.append((1060 + 500 * i, i % 2, "irq_handler_exit", {"irq": 11, "ret": 1}))
gen_kernel.write(sys.argv[1], sorted(ev, key=lambda e: e[0]))
PY
	trace="$TMP/t"
fi

# independent counts: sched_switch per CPU, from babeltrace2's text
babeltrace2 "$trace" | sed -n 's/.* sched_switch: { cpu_id = \([0-9]*\) }.*/\1/p' | sort -n | uniq -c |
	awk '{print "  cpu " $2 ": " $1}' >"$TMP/bt2.txt"
total=$(awk '{s += $3} END {print s}' "$TMP/bt2.txt")

"$SPOOR" analyze --plugin "$PLUGIN" "$trace" >"$TMP/out.txt"
check "analyze --plugin: exits 0" test $? -eq 0
check "the plug-in counts every sched_switch ($total)" grep -qx "switches: $total" "$TMP/out.txt"
grep '^  cpu ' "$TMP/out.txt" >"$TMP/cpus.txt"
check "per CPU, as babeltrace2 counts them" cmp -s "$TMP/cpus.txt" "$TMP/bt2.txt"
check "threads named from the trace" bash -c "sed -n '/most switched in/,\$p' '$TMP/out.txt' | grep -q '^  [^ ?].* tid [0-9]'"

SPOOR_SWITCHES_COUNT='sched_*' "$SPOOR" analyze --plugin "$PLUGIN" --json "$trace" >"$TMP/out.json"
n=$(babeltrace2 "$trace" | grep -c ' sched_[a-z_]*: ')
check "hooks by name (sched_*: $n events), JSON output" \
	python3 -c "import json,sys; d=json.load(open('$TMP/out.json')); sys.exit(d['named'] != $n or d['switches'] != $total)"

"$SPOOR" analyze --plugin "$PLUGIN" --cpu 0 "$trace" >/dev/null
check "common options work with plug-ins" test $? -eq 0

if "$SPOOR" help irq >/dev/null 2>&1; then
	"$SPOOR" irq --plugin "$PLUGIN" "$trace" >"$TMP/irq.txt" 2>/dev/null
	check "a built-in analysis and a plug-in in one pass" \
		bash -c "grep -q '^switches: $total\$' '$TMP/irq.txt' && grep -q 'IRQ' '$TMP/irq.txt'"
fi

# enum labels through the host's field() and field_label(), as babeltrace2 prints them
synth
SPOOR_LABELS_EVENTS='enums:*' SPOOR_LABELS_FIELDS=proto_high,three,second_label,none,two_neg,later_range \
	"$SPOOR" analyze --plugin "$LABELS_PLUGIN" "$TMP/synth/synth-enums" | sort >"$TMP/labels.spoor"
bt2_labels "$TMP/synth/synth-enums" ' enums:(ranges|signed): ' |
	grep -E '^(proto_high|three|second_label|none|two_neg|later_range)=' | sort >"$TMP/labels.bt2"
check "field_label(): every label of a value, as babeltrace2 prints them" \
	bash -c "test \$(wc -l <'$TMP/labels.bt2') -eq 7 && cmp -s '$TMP/labels.spoor' '$TMP/labels.bt2'"

# bad plug-ins: clear errors
"$SPOOR" analyze --plugin "$TMP/nope.so" "$trace" 2>"$TMP/e1"
check "missing plug-in: exit 1, says so" bash -c "test $? -eq 1 && grep -q 'cannot load plug-in' '$TMP/e1'"
"$SPOOR" analyze --plugin /lib/x86_64-linux-gnu/libm.so.6 "$trace" 2>"$TMP/e2"
check "not a plug-in: exit 1, says so" bash -c "test $? -eq 1 && grep -q 'not a spoor plug-in' '$TMP/e2'"
"$SPOOR" analyze "$trace" 2>/dev/null
check "no plug-in: usage error" test $? -eq 2
finish
