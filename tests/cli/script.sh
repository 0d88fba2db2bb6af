#!/usr/bin/env bash
# spoor script: the example scripts (examples/scripts/) over recorded traces, against
# independent counts from babeltrace2's output and against spoor's own analyses; errors.
. "$(dirname "$0")/lib.sh"
: "${SCRIPTS:?}"
need babeltrace2 babeltrace2

# process(e): a process named late is one row, under its last name. Process 5555's thread
# 5556 calls before the state dump names either: before, rows ?[5555], ?[5556] and hello[5555]
python3 - "$TMP/late" <<'EOF_PY' >/dev/null
import os, sys
sys.path.insert(0, os.environ["SPOOR_TEST_DATA"])
import gen_kernel
E = lambda ts, cpu, ev, task, **f: (ts, cpu, ev, dict(f, common_pid=task))
gen_kernel.write(sys.argv[1], [
    E(1000, 0, "sys_enter_getppid", 5555, x=0), E(1100, 0, "sys_exit_getppid", 5555, ret=1),
    E(1200, 1, "sys_enter_getppid", 5556, x=0), E(1300, 1, "sys_exit_getppid", 5556, ret=1),
    E(2000, 0, "statedump_process", 5555, tid=5555, pid=5555, ppid=1, name="hello"),
    E(2000, 0, "statedump_process", 5556, tid=5556, pid=5555, ppid=1, name="worker"),
    E(3000, 0, "sys_enter_getppid", 5555, x=0)], style="ftrace")
EOF_PY
"$SPOOR" script "$SCRIPTS/syscalls-per-process.lua" "$TMP/late" >"$TMP/late.txt"
check "syscalls-per-process: a process named late is one row, with its name" \
	test "$(sed -n '2,$p' "$TMP/late.txt" | tr -s ' ')" = " hello[5555] 3"

# only process(e)'s keys are one row per process: other keys that print alike stay apart
printf 'function sys_enter_getppid(e) map("k"):count(5); map("k"):count("5") end\n' >"$TMP/alike.lua"
"$SPOOR" script "$TMP/alike.lua" "$TMP/late" >"$TMP/alike.txt"
check "keys that print alike but differ (5 and \"5\") are two rows" \
	test "$(sed -n '2,$p' "$TMP/alike.txt" | tr -s ' ')" = "$(printf ' 5 3\n 5 3')"

# A busy kernel trace of our own (a small stand-in for many-threads: tests/data/gen_kernel.py
# --busy); ../shared's many-threads, when there, adds a real one.
busy=$(python3 "$SPOOR_TEST_DATA/gen_kernel.py" --busy "$TMP/busy") || fail "gen_kernel.py --busy"
traces=("$busy")
[ -d "${SHARED_TRACES:-}/lttng/many-threads" ] && traces+=("$SHARED_TRACES/lttng/many-threads")
table() { sed -n '/^@/,$p' | awk 'NF >= 2 && $1 !~ /^@/ {print $NF, $1}' | sort; }

# The examples that analyse a whole trace, on TRACE (NAME in the messages).
examples() {
	local trace=$1 t=$2
	babeltrace2 "$trace" >"$TMP/bt2.txt"

	# count-events: every name, as babeltrace2 counts them
	"$SPOOR" script "$SCRIPTS/count-events.lua" "$trace" | table >"$TMP/count.spoor"
	awk '{print $4}' "$TMP/bt2.txt" | sed 's/:$//' | sort | uniq -c | awk '{print $1, $2}' | sort >"$TMP/count.bt2"
	check "$t: count-events: every event name counted as babeltrace2 does" cmp -s "$TMP/count.spoor" "$TMP/count.bt2"

	# syscalls-by-name: entries by call name
	"$SPOOR" script "$SCRIPTS/syscalls-by-name.lua" "$trace" | table >"$TMP/sc.spoor"
	sed -n 's/.* syscall_entry_\([a-z0-9_]*\): .*/\1/p' "$TMP/bt2.txt" | sort | uniq -c |
		awk '{print $1, $2}' | sort >"$TMP/sc.bt2"
	check "$t: syscalls-by-name: as babeltrace2 counts the entries" cmp -s "$TMP/sc.spoor" "$TMP/sc.bt2"

	# syscalls-per-process: the same total, processes named from the trace
	"$SPOOR" script "$SCRIPTS/syscalls-per-process.lua" "$trace" >"$TMP/pp.txt"
	sum=$(awk 'NF == 2 && $1 !~ /^@/ {s += $2} END {print s}' "$TMP/pp.txt")
	check "$t: syscalls-per-process: every entry counted once" test "$sum" -eq "$(awk '{s += $1} END {print s}' "$TMP/sc.bt2")"
	check "$t: syscalls-per-process: processes named from the trace" grep -q '^  multithread\[[0-9]*\] ' "$TMP/pp.txt"

	# syscall-time for one process: the same totals as spoor syscalls (its own pairing code)
	pid=$("$SPOOR" syscalls --json "$trace" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(max(d["processes"], key=lambda p: p["count"])["pid"])' 2>/dev/null)
	if [ -n "$pid" ]; then
		PID=$pid "$SPOOR" script "$SCRIPTS/syscall-time.lua" "$trace" | sed -n '/^@ns per syscall/,/^@/p' |
			awk 'NF == 2 && $1 !~ /^@/ {print $1, $2}' | sort >"$TMP/st.spoor"
		"$SPOOR" syscalls --json --pid "$pid" "$trace" 2>/dev/null | python3 -c '
import json, sys
for s in json.load(sys.stdin)["syscalls"]:
    if s["count"]:
        print(s["name"], s["total_ns"])' | sort >"$TMP/st.analysis"
		check "$t: syscall-time (pid $pid): the totals spoor syscalls finds" \
			bash -c "test -s '$TMP/st.spoor' && cmp -s '$TMP/st.spoor' '$TMP/st.analysis'"
	else
		fail "$t: syscall-time: no process found by spoor syscalls --json"
	fi

	# longest-irq: the max per IRQ that spoor irq --all-cpus finds
	"$SPOOR" script "$SCRIPTS/longest-irq.lua" "$trace" >"$TMP/li.txt"
	awk '$1 ~ /^[0-9]+$/ {print $1, $NF}' "$TMP/li.txt" | sort >"$TMP/li.spoor"
	"$SPOOR" irq --all-cpus --json "$trace" | python3 -c '
import json, sys
for l in json.load(sys.stdin)["lines"]:
    if l["kind"] == "irq":
        print(l["irq"], int(l["max_ns"]))' | sort >"$TMP/li.irq"
	check "$t: longest-irq: the longest run of each IRQ, as spoor irq" \
		bash -c "test -s '$TMP/li.spoor' && cmp -s '$TMP/li.spoor' '$TMP/li.irq'"
	check "$t: longest-irq: names the IRQ (e:field, not the event's name)" grep -q '^longest: irq 30 (i915)' "$TMP/li.txt"
}
for trace in "${traces[@]}"; do
	examples "$trace" "$(basename "$trace")"
done
trace=$busy

# who-modified: thread 1001 opens /tmp/target for writing (fd 7), dup2s it to 9, closes 7,
# writes to fd 7 (no longer the file), then to fd 9 (gen_kernel.busy)
FILE=/tmp/target "$SPOOR" script "$SCRIPTS/who-modified.lua" "$trace" >"$TMP/mod.txt"
check "who-modified: the write through the dup2'd descriptor, named from the trace" \
	test "$(cat "$TMP/mod.txt")" = "/tmp/target was modified by multithread (pid 1000, tid 1001): syscall_entry_write on fd 9"
FILE=/tmp/other "$SPOOR" script "$SCRIPTS/who-modified.lua" "$trace" >"$TMP/mod2.txt"
check "who-modified: nothing for a file nobody wrote" test ! -s "$TMP/mod2.txt"

# who-deleted: 1000 forks 5000, which execs /bin/rm and unlinks /tmp/victim
FILE=/tmp/victim "$SPOOR" script "$SCRIPTS/who-deleted.lua" "$trace" >"$TMP/del.txt"
check "who-deleted: the process, named after its exec" \
	test "$(cat "$TMP/del.txt")" = "/tmp/victim was deleted by rm (pid 5000, tid 5000) with syscall_entry_unlinkat"

# who-killed: a synthetic trace where one process kills another
python3 - "$TMP/kill" <<'PY'
import os, sys
sys.path.insert(0, os.environ["SPOOR_TEST_DATA"])
import gen_kernel
gen_kernel.write(sys.argv[1], [
    (100, 0, "statedump_process", {"common_pid": 500, "tid": 500, "pid": 500, "ppid": 1, "name": "killer"}),
    (100, 0, "statedump_process", {"common_pid": 600, "tid": 600, "pid": 600, "ppid": 1, "name": "victim"}),
    (200, 1, "signal_generate", {"common_pid": 500, "sig": 10, "errno": 0, "code": 0, "comm": "victim", "pid": 600, "group": 1, "result": 0}),
    (300, 1, "signal_generate", {"common_pid": 500, "sig": 9, "errno": 0, "code": 0, "comm": "victim", "pid": 600, "group": 1, "result": 0}),
    (400, 1, "signal_generate", {"common_pid": 500, "sig": 15, "errno": 0, "code": 0, "comm": "victim", "pid": 600, "group": 1, "result": 0}),
], style="ftrace")
PY
PID=600 "$SPOOR" script "$SCRIPTS/who-killed.lua" "$TMP/kill" >"$TMP/kill.txt"
check "who-killed: the sender, named from the trace, and it stops there" \
	test "$(cat "$TMP/kill.txt")" = "victim (pid 600) was sent SIGKILL by killer (pid 500, tid 500)"

# e:labels(): an enum field's labels, as babeltrace2 prints them (gen-ctf.py's synth-enums)
synth
cat >"$TMP/labels.lua" <<'LUA'
local fields = {
  ["enums:ranges"] = {"proto_low", "proto_tcp", "proto_high", "overlap", "three", "second_range",
    "second_label", "none"},
  ["enums:signed"] = {"two_neg", "two_zero", "later_range", "none", "implicit_b", "implicit_c",
    "range_c", "packed_min", "packed_two", "packed_p", "s64_min", "s64_max", "u64_high", "u64_top"},
}
on("enums:*", function(e)
  for _, f in ipairs(fields[e.name] or {}) do print(f .. "=" .. table.concat(e:labels(f), ",")) end
end)
LUA
"$SPOOR" script "$TMP/labels.lua" "$TMP/synth/synth-enums" >"$TMP/labels.spoor"
bt2_labels "$TMP/synth/synth-enums" ' enums:(ranges|signed): ' >"$TMP/labels.bt2"
check "e:labels: every label of a value, as babeltrace2 prints them" \
	bash -c "test \$(wc -l <'$TMP/labels.bt2') -eq 22 && cmp -s '$TMP/labels.spoor' '$TMP/labels.bt2'"

# the script's API
cat >"$TMP/api.lua" <<'LUA'
local n, first = 0, nil
function start() print("start") end
function sched_switch(e)
  n = n + 1
  if n == 1 then first = e.ts end
  if n == 5 then
    print(e.name, e.cpu >= 0, e.ts >= first, type(e.prev_comm), e.next_tid == e:field("next_tid"))
    spoor.stop()
  end
end
function finish() print("seen", n) end
LUA
"$SPOOR" script "$TMP/api.lua" "$trace" >"$TMP/api.txt"
check "start, fields, e:field, spoor.stop, finish" \
	test "$(tr '\t' ' ' <"$TMP/api.txt")" = "$(printf 'start\nsched_switch true true string true\nseen 5')"

# errors: file:line, the event being handled, non-zero exits
printf 'function sched_switch(e)\n  local x = e.prev_comm .. nil\nend\n' >"$TMP/bad1.lua"
"$SPOOR" script "$TMP/bad1.lua" "$trace" 2>"$TMP/bad1.err"
check "run-time error: exit 1" test $? -eq 1
at=$("$SPOOR" dump -e sched_switch -n 1 "$trace" | cut -d' ' -f1)
check "run-time error: file:line and the event, at its time as spoor dump prints it ($at)" \
	grep -q "bad1.lua:2: attempt to concatenate .* (in the handler of sched_switch, at $at)\$" "$TMP/bad1.err"
printf 'function sched_switch(e)\n  x = = 1\nend\n' >"$TMP/bad2.lua"
"$SPOOR" script "$TMP/bad2.lua" "$trace" 2>"$TMP/bad2.err"
check "syntax error: exit 1 with file:line" bash -c "test $? -eq 1 && grep -q 'bad2.lua:2:' '$TMP/bad2.err'"
printf 'function finish() error("boom") end\n' >"$TMP/bad3.lua"
"$SPOOR" script "$TMP/bad3.lua" "$trace" 2>"$TMP/bad3.err"
check "error in finish(): exit 1, says where" bash -c "test $? -eq 1 && grep -q 'bad3.lua:1: boom (in finish())' '$TMP/bad3.err'"
"$SPOOR" script "$TMP/nope.lua" "$trace" 2>"$TMP/bad4.err"
check "missing script: exit 1" test $? -eq 1
"$SPOOR" script "$TMP/api.lua" 2>"$TMP/notrace.err"
check "no trace: usage error" test $? -eq 2
check "no trace: says so" grep -q 'spoor script: no trace given' "$TMP/notrace.err"
"$SPOOR" script 2>"$TMP/noscript.err"
check "no script: usage error naming what to give" \
	bash -c "test $? -eq 2 && grep -q 'SCRIPT.lua TRACE' '$TMP/noscript.err'"
# --json is the analyses' option: a script's output is its own, so it is refused, not ignored
"$SPOOR" script --json "$TMP/api.lua" "$trace" >"$TMP/json.out" 2>"$TMP/json.err"
check "--json: usage error, nothing run" \
	bash -c "test $? -eq 2 && grep -q -- '--json is not for scripts' '$TMP/json.err' && test ! -s '$TMP/json.out'"
finish
