#!/usr/bin/env bash
# spoor record -k --layout=lttng: the option end to end (the layouts compared event by event
# from the same records: tests/unit/test-klayout.c). Needs root and tracefs for the recording;
# the usage errors run anywhere.
. "$(dirname "$0")/lib.sh"

"$SPOOR" record --layout=ctf -k sched -a -d 1ms -o "$TMP/bad" >/dev/null 2>"$TMP/err"
check "--layout: an unknown name is a usage error" test $? -eq 2
check "--layout: the error names the choices" grep -q "spoor or lttng" "$TMP/err"
"$SPOOR" record --layout=lttng -o "$TMP/nok" -- true >/dev/null 2>"$TMP/err"
check "--layout without -k: a usage error" test $? -eq 2
check "--layout without -k: says -k" grep -q -- "--layout need -k" "$TMP/err"

T=/sys/kernel/tracing
if [ "$(id -u)" -ne 0 ] || [ ! -w "$T/instances" ]; then
	echo "note: not root or no tracefs: the recording is left out"
	finish
	exit
fi
"$SPOOR" record -k sched,irq,syscalls:sys_enter_openat,syscalls:sys_exit_openat \
	--layout=lttng -o "$TMP/l" -- cat /proc/self/stat >/dev/null 2>"$TMP/rec.err"
check "record --layout=lttng: succeeds" test $? -eq 0
m="$TMP/l/kernel/metadata"
check "env: tracer_name lttng-modules 2.13.0" \
	grep -Pzq 'tracer_name = "lttng-modules";\n\ttracer_major = 2;\n\ttracer_minor = 13;\n\ttracer_patchlevel = 0;' "$m"
check "env: domain kernel" grep -q 'domain = "kernel";' "$m"
check "env: says spoor wrote it" grep -q 'spoor_layout = "lttng";' "$m"
check "names: syscall_entry_openat" grep -q 'name = "syscall_entry_openat";' "$m"
check "names: no ftrace name of a renamed event" bash -c "! grep -q 'name = \"sys_enter_openat\";' '$m'"
check "the event context is tid alone" \
	grep -Pzq 'event.context := struct \{\n[^\n]*_tid;\n\t\};' "$m"
"$SPOOR" dump "$TMP/l" >"$TMP/dump.txt"
check "spoor dump reads it" grep -q 'syscall_entry_openat' "$TMP/dump.txt"
check "sched_switch with prev_tid" grep -q 'sched_switch.*prev_tid' "$TMP/dump.txt"
"$SPOOR" syscalls "$TMP/l" >"$TMP/sys.txt"
check "spoor syscalls counts its openat calls" grep -Eq '^openat +[1-9]' "$TMP/sys.txt"
if command -v babeltrace2 >/dev/null; then
	babeltrace2 "$TMP/l" >/dev/null 2>"$TMP/bt2.err"
	check "babeltrace2 reads it" test $? -eq 0 -a ! -s "$TMP/bt2.err"
fi
if command -v babeltrace >/dev/null; then
	babeltrace "$TMP/l/kernel" >/dev/null 2>"$TMP/bt1.err"
	check "babeltrace 1 reads it without a warning" test $? -eq 0 -a ! -s "$TMP/bt1.err"
fi
# -k libc: the path the C library's unlinkat was called with, in the system call's entry
victim="$TMP/victim-$$"
touch "$victim"
"$SPOOR" record -k libc:unlink*,syscalls:sys_enter_unlinkat --layout=lttng -o "$TMP/p" \
	-- rm "$victim" >/dev/null 2>&1
"$SPOOR" dump "$TMP/p" >"$TMP/p.txt"
check "-k libc: rm's libc_unlinkat is there" grep -q "libc_unlinkat: .*path=\"$victim\"" "$TMP/p.txt"
check "-k libc: its syscall_entry_unlinkat has the path as a string" \
	grep -q "syscall_entry_unlinkat: .*pathname=\"$victim\"" "$TMP/p.txt"
check "-k libc: no other entry has it" \
	test "$(grep -c "syscall_entry_unlinkat: .*pathname=\"$victim\"" "$TMP/p.txt")" -eq 1
if command -v babeltrace >/dev/null; then
	babeltrace "$TMP/p/kernel" >"$TMP/p.bt1" 2>/dev/null
	check "-k libc: babeltrace 1 reads the string" grep -q "pathname = \"$victim\"" "$TMP/p.bt1"
fi
touch "$victim"
"$SPOOR" record -k libc:unlink*,syscalls:sys_enter_unlinkat -o "$TMP/ps" -- rm "$victim" \
	>/dev/null 2>&1
check "spoor's layout: the entry keeps the address" \
	grep -q "sys_enter_unlinkat: .*pathname=0x" <("$SPOOR" dump "$TMP/ps")
finish
