#!/usr/bin/env bash
# spoor record -k --layout=lttng opens in the tools users already have: babeltrace2 and
# babeltrace 1 read it, its env and names are LTTng's (tests/data/lttng-kernel-reference.txt,
# itself checked against the shared LTTng trace when ../shared is there), and lttng-analyses
# 0.6.1 gives the numbers spoor's analyses give (lttng-analyses-compare.py). The names check
# runs on a trace of the project's own too (gen_kernel.py --spoor, converted). Recording
# needs root and tracefs (skips with a message otherwise).
. "$(dirname "$0")/lib.sh"
here=$(dirname "$0")
names="$SPOOR_TEST_DATA/lttng-kernel-names.py"
ref="$SPOOR_TEST_DATA/lttng-kernel-reference.txt"
skip() {
	echo "SKIP: $*"
	echo "$passed passed, $failed failed, 1 skipped"
	[ "$failed" -eq 0 ] && exit 77
	exit 1
}
need babeltrace2 babeltrace2
need babeltrace babeltrace
need lttng-irqstats-mi python3-lttnganalyses
# babeltrace 1's Python bindings (the names script reads through them) are Debian's
py=/usr/bin/python3
$py -c 'import babeltrace' 2>/dev/null || skip "no babeltrace 1 Python bindings (python3-babeltrace)"

# 1. the reference is the shared LTTng trace's (when ../shared is there)
shared=${SHARED_TRACES:-}/lttng/many-threads
if [ -d "$shared" ]; then
	$py "$names" names "$shared" | grep -v '^event compat_syscall_' | sed 's/^/2.8 /' >"$TMP/shared.names"
	grep '^2\.8 ' "$ref" >"$TMP/ref.28"
	check "the reference's 2.8 lines are those of $shared (re-extracted)" \
		cmp -s "$TMP/shared.names" "$TMP/ref.28"
	diff "$TMP/ref.28" "$TMP/shared.names" | head -5
else
	echo "note - no $shared: the reference is not checked against it here"
fi

# 1b. the names check on a trace of the project's own (no ../shared, no root needed):
# gen_kernel.py --spoor (spoor's layout, the recorder's env keys) through spoor convert,
# which writes what `spoor record -k --layout=lttng` writes
$py "$SPOOR_TEST_DATA/gen_kernel.py" --spoor "$TMP/gen" >/dev/null &&
	"$SPOOR" convert --layout=lttng "$TMP/gen" -o "$TMP/gen.lttng" 2>/dev/null
check "gen_kernel.py --spoor converted to the LTTng layout" test $? -eq 0
babeltrace "$TMP/gen.lttng" >/dev/null 2>"$TMP/gen.bt1.err"
check "babeltrace (1) reads the converted trace (but for its losses' warning)" \
	test $? -eq 0 -a "$(grep -vc 'Tracer discarded' "$TMP/gen.bt1.err")" -eq 0
$py "$names" check "$ref" "$TMP/gen.lttng" >"$TMP/gen.names.out"
check "the converted trace: env, scopes and event names as LTTng's (lttng-kernel-names.py check)" \
	test $? -eq 0
grep -v '^ok' "$TMP/gen.names.out"
# sched_process_fork as lttng-modules 2.13 writes it, its tgids from the task_newtask before
# each fork and the dump: "parent_tid parent_pid parent_ns_inum child_tid vtids' count,
# vtids[0] child_pid child_ns_inum" (a converted trace has no /proc: namespaces 0)
forks() {
	babeltrace2 "$1" | sed -n 's/.* sched_process_fork: .*parent_tid = \([0-9]*\), parent_pid = \([0-9]*\), parent_ns_inum = \([0-9]*\), child_comm = "[^"]*", child_tid = \([0-9]*\), _vtids_length = \([0-9]*\), vtids = \[ \[0\] = \([0-9]*\) \], child_pid = \([0-9]*\), child_ns_inum = \([0-9]*\) }$/\1 \2 \3 \4 \5 \6 \7 \8/p'
}
forks "$TMP/gen.lttng" >"$TMP/gen.forks"
# gen_kernel.py: 100 forks process 300; 101 makes thread 102 (CPU 1), which forks process
# 400 on CPU 0, whose stream is converted first
check "the converted trace's forks: parent_pid and child_pid the processes (a thread's, a process's)" \
	test "$(cat "$TMP/gen.forks")" = "100 100 0 300 1 300 300 0
101 100 0 102 1 102 100 0
102 100 0 400 1 400 400 0"
cat "$TMP/gen.forks"

# 2. a recording in the LTTng layout of interrupts, scheduling and system calls
T=/sys/kernel/tracing
[ "$(id -u)" -eq 0 ] || skip "kernel tracing needs root (run the tests as root)"
if [ "$(stat -f -c %T "$T" 2>/dev/null)" != tracefs ]; then
	mount -t tracefs nodev "$T" 2>/dev/null || skip "tracefs cannot be mounted at $T"
fi
# disk I/O that bypasses the cache (interrupts) and a file written and synced (block
# requests, flushes), sleeps and a pipe (wake-ups, switches), failing and succeeding calls
# (errors per call); short: the whole machine is recorded, and lttng-analyses reads some
# 40,000 events a second
work="for i in \$(seq 20); do cat /proc/interrupts >/dev/null; ls /nonexistent-spoor 2>/dev/null; done
dd if=/dev/zero of=$TMP/f bs=64k count=16 oflag=direct 2>/dev/null
dd if=/dev/zero of=$TMP/s bs=64k count=16 conv=fsync 2>/dev/null
for i in \$(seq 10); do sleep 0.002; done; seq 2000 | cat >/dev/null"
# (libc: the paths as strings, as LTTng writes them: lttng-iousagetop takes a file name
# for a string, and stops on an address; 8m per CPU holds the whole recording, so that a
# loaded machine, where the recorder drains late, loses nothing: lttng-analyses and spoor
# count across a loss differently)
"$SPOOR" record -k sched,irq,syscalls,block,libc --layout=lttng --kernel-buffer=8m -o "$TMP/lt" \
	-- sh -c "$work" 2>"$TMP/rec.err"
check "record -k sched,irq,syscalls,block,libc --layout=lttng --kernel-buffer=8m exits 0" test $? -eq 0
cat "$TMP/rec.err"
K="$TMP/lt/kernel"
[ -f "$K/metadata" ] || skip "no kernel trace was written"

babeltrace2 "$TMP/lt" >"$TMP/bt2.txt" 2>"$TMP/bt2.err"
check "babeltrace2 reads it: exit 0, nothing on stderr, $(wc -l <"$TMP/bt2.txt") events" \
	test $? -eq 0 -a ! -s "$TMP/bt2.err" -a -s "$TMP/bt2.txt"
"$SPOOR" dump --format=babeltrace "$TMP/lt" >"$TMP/sp.txt"
# (but for babeltrace2 2.0.4's empty-string bug: bt2-compare.py)
check "spoor dump --format=babeltrace prints what babeltrace2 prints" \
	python3 "$here/bt2-compare.py" "$TMP/sp.txt" "$TMP/bt2.txt"
# lttng-analyses runs `babeltrace DIR` first too (its check for lost events)
babeltrace "$K" >"$TMP/bt1.txt" 2>"$TMP/bt1.err"
check "babeltrace (1) reads it: exit 0, nothing on stderr, as many events" \
	test $? -eq 0 -a ! -s "$TMP/bt1.err" -a "$(wc -l <"$TMP/bt1.txt")" -eq "$(wc -l <"$TMP/bt2.txt")"
head -3 "$TMP/bt1.err"
# lttng-analyses reads, by default, only the time range every stream covers: every stream
# spans the session, as LTTng's (from the state dump's time, stamped at the start)
$py "$here/stream-bounds.py" "$K" --begins-at lttng_statedump_start >"$TMP/bounds.out"
check "every stream's first packet begins at the session's start, its last ends at its stop" \
	test $? -eq 0
grep -v '^stream' "$TMP/bounds.out"
check "babeltrace 1's stream intersection (lttng-analyses' default range) keeps every event" \
	test "$(babeltrace --stream-intersection "$K" 2>/dev/null | wc -l)" -eq "$(wc -l <"$TMP/bt1.txt")"
env_of() { sed -n '/^env {/,/^};/p' "$K/metadata" | sed -n "s/^[[:space:]]*$1 = \(.*\);/\1/p"; }
check "env: domain \"kernel\", tracer lttng-modules 2.13 (Trace Compass's Lttng29EventLayout)" \
	test "$(env_of domain)$(env_of tracer_name)$(env_of tracer_major).$(env_of tracer_minor)" = \
	'"kernel""lttng-modules"2.13'
for e in sched_switch sched_waking irq_handler_entry irq_softirq_entry syscall_entry_openat \
	syscall_exit_openat lttng_statedump_process_state; do
	check "the trace has $e events" grep -q " $e: " "$TMP/bt2.txt"
done

# sched_process_fork's tgids on this machine: fork-kinds (P) makes thread T, which makes
# thread T2 and forks process C; the pid namespace is this shell's. On one CPU: the
# recorder reads its CPUs one after the other, and a thread that moved CPU and ended before
# its maker's records were read is not known by then (docs/kernel.md)
"$SPOOR" record -k sched --layout=lttng -o "$TMP/fk" -- taskset -c 0 "$FORK_KINDS" \
	>"$TMP/fk.out" 2>"$TMP/fk.err"
check "record -k sched --layout=lttng of fork-kinds exits 0" test $? -eq 0
read -r P T T2 C <"$TMP/fk.out"
ns=$(stat -L -c %i /proc/self/ns/pid)
# (the children it made: an ASan build's leak check forks at exit too)
forks "$TMP/fk" | grep -E "^[0-9]+ [0-9]+ [0-9]+ ($T|$T2|$C) " >"$TMP/fk.forks"
check "its forks: parent_pid and child_pid are the processes, vtids and namespaces this machine's" \
	test "$(cat "$TMP/fk.forks")" = "$P $P $ns $T 1 $T $P $ns
$T $P $ns $T2 1 $T2 $P $ns
$T $P $ns $C 1 $C $C $ns"
echo "fork-kinds: $(cat "$TMP/fk.out")"
cat "$TMP/fk.forks"

# 3. the names: every event both write has LTTng's fields (the reference's rules)
$py "$names" check "$ref" "$K" >"$TMP/names.out"
check "env, scopes and event names as LTTng's (lttng-kernel-names.py check)" test $? -eq 0
cat "$TMP/names.out"

# the env spoor convert writes is the recorder's: the same keys, and spoor_converted
env_keys() { sed -n '/^env {/,/^};/p' "$1/metadata" | sed -n 's/^[[:space:]]*\([a-z_]*\) = .*/\1/p'; }
check "spoor convert's env has the recorder's keys, and spoor_converted" \
	test "$( (env_keys "$K"; echo spoor_converted) | sort)" = "$(env_keys "$TMP/gen.lttng" | sort)"

# 4. lttng-analyses' numbers = spoor's
mkdir "$TMP/work"
# Debian's Python: babeltrace2's bindings (python3-bt2) and lttng-analyses live there
/usr/bin/python3 "$here/lttng-analyses-compare.py" "$SPOOR" "$K" "$TMP/work" >"$TMP/cmp.out" 2>&1
check "lttng-irqstats, lttng-schedstats, lttng-syscallstats, lttng-iolatencystats, lttng-iousagetop = spoor irq, sched, syscalls, disk" \
	test $? -eq 0
cat "$TMP/cmp.out"
finish
