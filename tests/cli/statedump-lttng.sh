#!/usr/bin/env bash
# spoor record -k --layout=lttng: the state dump as lttng-modules 2.13 writes it, from this
# machine's /proc and /sys (lib/kernel/statedump-lttng.h), read by babeltrace2, by spoor's
# thread model and, where it is installed, by lttng-analyses. Needs root and tracefs.
. "$(dirname "$0")/lib.sh"
need babeltrace2 babeltrace2
need_tracefs

# a process asleep before the recording, with a file open on descriptor 7
cp /bin/sleep "$TMP/spoorsleeper"
: >"$TMP/held"
(exec 7>>"$TMP/held" && exec "$TMP/spoorsleeper" 60) &
sleeper=$!
until [ -e "/proc/$sleeper/fd/7" ] && grep -q '^State:.S' "/proc/$sleeper/status" 2>/dev/null; do
	sleep 0.05
done
"$SPOOR" record -k sched,irq --layout=lttng -o "$TMP/t" -- sleep 0.2 2>"$TMP/record.err"
check "record -k --layout=lttng: exit 0" test $? -eq 0
kill "$sleeper"
babeltrace2 "$TMP/t/kernel" >"$TMP/all.txt" 2>"$TMP/bt2.err"
check "babeltrace2 reads the trace" test $? -eq 0
grep ' lttng_statedump_' "$TMP/all.txt" | sed 's/^.*\] ([^)]*) [^ ]* //' >"$TMP/dump.txt"
check "the dump begins with lttng_statedump_start" \
	test "$(head -1 "$TMP/dump.txt" | cut -d: -f1)" = lttng_statedump_start
check "the dump ends with lttng_statedump_end" \
	test "$(tail -1 "$TMP/dump.txt" | cut -d: -f1)" = lttng_statedump_end
hex=$(printf '0x%X' "$sleeper")
check "the sleeper's state: a user thread, waiting (5), its file table" \
	grep -q "^lttng_statedump_process_state: .*{ tid = $sleeper, pid = $sleeper, ppid = [0-9]*, name = \"spoorsleeper\", type = 0, mode = 5, submode = 0, status = 5, cpu = [0-9]*, file_table_address = $hex }" "$TMP/dump.txt"
check "its pid namespace: its ids there" \
	grep -q "^lttng_statedump_process_pid_ns: .*{ tid = $sleeper, vtid = $sleeper, vpid = $sleeper, vppid = [0-9]*, ns_level = 0, ns_inum = $(stat -L -c %i /proc/self/ns/pid) }" "$TMP/dump.txt"
check "its open file, written for, with its process" \
	grep -q "^lttng_statedump_file_descriptor: .*{ file_table_address = $hex, fd = 7, flags = 0[0-7]*, fmode = 0x2, filename = \"$TMP/held\", pid = $sleeper }" "$TMP/dump.txt"
check "kthreadd: a kernel thread" \
	grep -q '^lttng_statedump_process_state: .*{ tid = 2, pid = 2, ppid = 0, name = "kthreadd", type = 1, ' "$TMP/dump.txt"
threads=$(grep -c '^lttng_statedump_process_state:' "$TMP/dump.txt")
check "the summary's threads are the dump's ($threads)" \
	grep -q "kernel: .*, $threads threads in the state dump" "$TMP/record.err"
actions=$(cat /sys/kernel/irq/*/actions 2>/dev/null | tr ',' '\n' | grep -c .)
check "an interrupt event per action of /sys/kernel/irq ($actions)" \
	test "$(grep -c '^lttng_statedump_interrupt:' "$TMP/dump.txt")" -eq "$actions"
devices=$(grep -c '^ ' /proc/partitions)
check "a block device event per device of /proc/partitions ($devices)" \
	test "$(grep -c '^lttng_statedump_block_device:' "$TMP/dump.txt")" -eq "$devices"
check "an interface event for lo" grep -q '^lttng_statedump_network_interface: .*name = "lo"' "$TMP/dump.txt"
# spoor's thread model takes the names from it
"$SPOOR" sql "$TMP/t" -c "SELECT comm FROM threads WHERE tid = $sleeper" >"$TMP/sql.txt" 2>&1
check "spoor's thread model names the sleeper from the dump" grep -q spoorsleeper "$TMP/sql.txt"
# lttng-analyses reads the dump: its streams span the trace (else: "no intersection"), its
# descriptors have their pid (else: "Cannot run analysis: 'pid'"). (Its other errors are
# about other events.)
if command -v lttng-irqstats >/dev/null; then
	lttng-irqstats --no-progress "$TMP/t/kernel" >"$TMP/la.txt" 2>&1
	check "lttng-analyses finds the streams' times intersect" \
		bash -c "! grep -q 'no intersection' '$TMP/la.txt'"
	check "lttng-analyses finds the dump's fields" \
		bash -c "! grep -qE \"Cannot run analysis: '(pid|tid|ppid|name|fd|filename|flags|dev|diskname)'\" '$TMP/la.txt'"
fi
finish
