#!/usr/bin/env bash
# spoor record -k: kernel tracepoints through a private tracefs instance, read per CPU, one
# trace and one timeline with user space; checked against babeltrace2, trace-cmd and the
# kernel's own text output. Needs root and tracefs.
. "$(dirname "$0")/lib.sh"
: "${MARKS:?}" "${HELLO:?}"
here=$(dirname "$0")
need babeltrace2 babeltrace2
need_tracefs

# What spoor must never change: the global instance's settings.
global_state() {
	for f in tracing_on trace_clock current_tracer buffer_size_kb set_event set_event_pid \
		set_ftrace_filter events/enable options/function-trace options/overwrite; do
		echo "== $f"
		cat "$T/$f" 2>/dev/null
	done
}
global_state >"$TMP/global.before"
# the test's own instances and mount go too, however the test ends
trap 'rmdir "$T/instances/spoortest-$$" "$T/instances/spoortest-tc-$$" 2>/dev/null
	umount "$TMP/small" 2>/dev/null; rm -rf "$TMP"' EXIT
# instances of a spoor that has ended (spoor-PID-N): a live PID is another spoor tracing now
leftovers() {
	ls "$T/instances" | grep '^spoor-[0-9]*-[0-9]*$' | while IFS=- read -r _ pid _; do
		kill -0 "$pid" 2>/dev/null || echo "spoor-$pid"
	done
}
# A session has started once its state dump is written (tracing is on by then).
started() { # started TRACE_DIR PID
	until [ -s "$1/kernel/statedump" ]; do
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.05
	done
}
# The instance (spoor-PID-N) of the spoor with that pid, once it is listed.
instance_of() { # instance_of PID
	local i
	for _ in $(seq 100); do
		i=$(ls "$T/instances" | grep -m 1 "^spoor-$1-[0-9]*$") && break
		sleep 0.05
	done
	echo "$i"
}
no_leftovers() { [ -z "$(leftovers)" ] && global_state | cmp -s - "$TMP/global.before"; }
json() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }

# 1. both sides of one program: kernel and user-space events on one timeline
cp /bin/sleep "$TMP/spoorsleeper"
"$TMP/spoorsleeper" 60 &
sleeper=$!
# (the short sleep after it leaves time for a timer softirq: the irq check needs one)
"$SPOOR" record -k sched,irq,syscalls -o "$TMP/both" -- sh -c '"$0" 300 && sleep 0.3' "$MARKS" \
	2>"$TMP/both.err"
check "record -k sched,irq,syscalls -- CMD exits 0" test $? -eq 0
kill "$sleeper"
check "kernel trace: metadata, a stream per CPU, the state dump" \
	test -f "$TMP/both/kernel/metadata" -a -f "$TMP/both/kernel/cpu0" -a -f "$TMP/both/kernel/statedump"
check "user-space trace beside it" test -f "$(echo "$TMP"/both/ust/pid/syscall-marks-*/metadata)"
check "the summary counts kernel events" grep -q 'kernel: [1-9][0-9]* events on' "$TMP/both.err"
babeltrace2 --clock-gmt "$TMP/both" >"$TMP/both.bt2" 2>"$TMP/both.bt2err"
check "babeltrace2 reads the whole trace" test $? -eq 0 -a -s "$TMP/both.bt2"
"$SPOOR" dump --format=babeltrace "$TMP/both" >"$TMP/both.sp"
check "spoor dump prints exactly what babeltrace2 prints" cmp -s "$TMP/both.sp" "$TMP/both.bt2"
check "sched, irq and syscalls events are there" \
	bash -c "grep -q ' sched_switch: ' '$TMP/both.bt2' && grep -q ' sys_enter_getppid: ' '$TMP/both.bt2' && grep -q ' irq_handler_entry: \| softirq_entry: \| softirq_raise: ' '$TMP/both.bt2'"
# every user-space marks:before(i) / marks:after(i) pair encloses the thread's getppid
"$SPOOR" dump "$TMP/both" >"$TMP/both.txt"
python3 - "$TMP/both.txt" 300 >"$TMP/marks.out" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
n = int(sys.argv[2])
pid = None
state, ok, want = None, 0, 0
for l in lines:
    m = re.search(r"marks:(before|after): i=(\d+)", l)
    if m:
        i = int(m.group(2))
        if m.group(1) == "before":
            state = ("before", i)
        else:
            ok += state == ("exit", i)
            state = None
        continue
    if pid is None and " syscall-marks" not in l:
        pass
    m = re.search(r" (sys_enter|sys_exit)_getppid: common_flags=\d+ common_preempt_count=\d+ common_pid=(\d+)", l)
    if m and state:
        if m.group(1) == "sys_enter" and state[0] == "before":
            state = ("enter", state[1])
        elif m.group(1) == "sys_exit" and state[0] == "enter":
            state = ("exit", state[1])
print(ok)
PY
check "user events and system calls interleave (300 x before < enter < exit < after)" \
	test "$(cat "$TMP/marks.out")" -eq 300
check "state dump: a process running before the recording, by name" \
	grep -q "statedump_process: common_flags=0 common_preempt_count=0 common_pid=$sleeper tid=$sleeper pid=$sleeper ppid=[0-9]* name=\"spoorsleeper\"" "$TMP/both.txt"
marks_pid=$(basename "$(echo "$TMP"/both/ust/pid/syscall-marks-*)" | sed 's/.*-//')
check "the command's exec is recorded" \
	grep -q "sched_process_exec: common_flags=[0-9]* common_preempt_count=[0-9]* common_pid=$marks_pid filename=\"$MARKS\" pid=$marks_pid" "$TMP/both.txt"
"$SPOOR" dump --format=ftrace "$TMP/both" >"$TMP/both.ftrace"
check "ftrace format: kernel events named from the trace (the exec'd command)" \
	grep -q "^ *syscall-marks-$marks_pid *\[[0-9][0-9][0-9]\] [.dDbNnpBLlhHsSzZ0-9]\{5\} *[0-9]*\.[0-9]\{6\}: sys_enter_getppid: __syscall_nr=110$" "$TMP/both.ftrace"
check "ftrace format: user-space events with the program's name and tid" \
	grep -q "^ *syscall-marks-$marks_pid *\[???\] \.\.\.\.\. *[0-9]*\.[0-9]\{6\}: marks:after: i=299$" "$TMP/both.ftrace"
check "ftrace format: one line per event" test "$(wc -l <"$TMP/both.ftrace")" -eq "$(wc -l <"$TMP/both.txt")"
check "no instance left, global tracefs settings unchanged" no_leftovers

# 2. the same sched_switch events as trace-cmd, recorded at the same time on the same clock
if command -v trace-cmd >/dev/null; then
	# spoor records until trace-cmd is done (SIGINT), so its span covers trace-cmd's
	# buffers large enough that neither side loses events, even under ASan
	"$SPOOR" record -a -k sched:sched_switch --kernel-buffer 8m -o "$TMP/tc-spoor" 2>"$TMP/tc-spoor.err" &
	sp=$!
	started "$TMP/tc-spoor" "$sp"
	# -B -k -d: trace-cmd's default refuses to run here (docs/kernel.md says why); in an
	# instance of its own it changes nothing global, and leaves the instance to remove
	(cd "$TMP" && trace-cmd record -B "spoortest-tc-$$" -k -d -C x86-tsc -b 8192 -e sched:sched_switch \
		-o "$TMP/tc.dat" -- sh -c 'for i in $(seq 100); do sleep 0.002; done') >"$TMP/tc.log" 2>&1
	tc=$?
	rmdir "$T/instances/spoortest-tc-$$" 2>/dev/null
	kill -INT "$sp"
	wait "$sp"
	check "spoor and trace-cmd recorded side by side" test "$tc" -eq 0
	trace-cmd report -R -i "$TMP/tc.dat" >"$TMP/tc.txt" 2>/dev/null
	babeltrace2 --clock-cycles "$TMP/tc-spoor" >"$TMP/tc-spoor.bt2"
	python3 "$here/kernel-compare.py" trace-cmd "$TMP/tc-spoor.bt2" "$TMP/tc.txt" >"$TMP/tc.cmp"
	check "sched_switch (comm, pid, prio, state) identical to trace-cmd's, same times and order" test $? -eq 0
	cat "$TMP/tc.cmp"
	check "no event lost on spoor's side of that comparison" grep -q ' 0 lost ' "$TMP/tc-spoor.err"
	if ! grep -q '^compared [1-9]' "$TMP/tc.cmp" || ! grep -q ' 0 lost ' "$TMP/tc-spoor.err"; then
		cat "$TMP/tc-spoor.err"
		echo "trace-cmd's log and report, for the record:"
		tail -n 20 "$TMP/tc.log"
		head -n 5 "$TMP/tc.txt"
	fi
else
	echo "note: trace-cmd is not installed: the comparison with it is skipped"
fi

# 3. ftrace's columns against the kernel's own text, from an instance of the test's own
inst="$T/instances/spoortest-$$"
mkdir "$inst"
echo 0 >"$inst/tracing_on"
echo x86-tsc >"$inst/trace_clock"
echo 1 >"$inst/events/sched/sched_switch/enable"
"$SPOOR" record -a -k sched:sched_switch -o "$TMP/ft" 2>/dev/null &
sp=$!
started "$TMP/ft" "$sp"
echo 1 >"$inst/tracing_on"
sh -c 'for i in $(seq 100); do sleep 0.002; done'
echo 0 >"$inst/tracing_on"
# read now, while spoor still records: the kernel prints TASK names from its one comm
# cache, which any instance (the machine's other tests too) updates until the file is read
cat "$inst/trace" >"$TMP/ft.kernel"
kill -INT "$sp"
wait "$sp"
rmdir "$inst"
"$SPOOR" dump --format=ftrace "$TMP/ft" >"$TMP/ft.spoor"
babeltrace2 --clock-cycles "$TMP/ft" >"$TMP/ft.bt2"
python3 "$here/kernel-compare.py" ftrace "$TMP/ft.spoor" "$TMP/ft.bt2" "$TMP/ft.kernel" >"$TMP/ft.cmp"
check "ftrace format: TASK-PID, CPU and flag columns as the kernel prints them" test $? -eq 0
cat "$TMP/ft.cmp"

# 4. the whole system for a while, and stopping by signal
"$SPOOR" record -a -k sched -d 1s -o "$TMP/dur" 2>"$TMP/dur.err"
check "-a --duration 1s: exits 0" test $? -eq 0
check "-a --duration 1s: babeltrace2 reads it" bash -c "babeltrace2 '$TMP/dur' >/dev/null"
for sig in INT TERM; do
	"$SPOOR" record -a -k sched,irq --kernel-buffer 2m -o "$TMP/sig$sig" 2>"$TMP/sig$sig.err" &
	sp=$!
	started "$TMP/sig$sig" "$sp"
	inst=$(instance_of "$sp")
	kb=$(cat "$T/instances/$inst/buffer_size_kb")
	check "--kernel-buffer 2m sets the instance's buffer (rounded up to pages: $kb kB)" \
		test "$kb" -ge 2048 -a "$kb" -lt 2100
	sleep 0.5
	kill -$sig "$sp"
	wait "$sp"
	check "SIG$sig: spoor exits 0" test $? -eq 0
	check "SIG$sig: the trace is finished (babeltrace2 reads it)" \
		bash -c "babeltrace2 '$TMP/sig$sig' >/dev/null"
	check "SIG$sig: no instance left, global settings unchanged" no_leftovers
done

# 4b. spoor's own events are left out (its system calls would top every system-wide table),
# in spoor, not by the kernel's pid filter, which slows every switch and wake-up of the
# traced tasks; the switches and wake-ups between spoor and other tasks stay, and its line
# in the state dump
"$SPOOR" record -a -k sched,raw_syscalls -o "$TMP/self" 2>"$TMP/self.err" &
sp=$!
started "$TMP/self" "$sp"
inst=$(instance_of "$sp")
check "recording: the instance has no pid filter (set_event_notrace_pid empty)" \
	test -z "$(cat "$T/instances/$inst/set_event_notrace_pid" 2>/dev/null)"
sleep 0.3
kill -INT "$sp"
wait "$sp"
check "own events: spoor exits 0" test $? -eq 0
"$SPOOR" dump "$TMP/self" >"$TMP/self.txt"
check "own events: other tasks' system calls are recorded" \
	bash -c "grep ' sys_enter: ' '$TMP/self.txt' | grep -vq ' common_pid=$sp '"
check "own events: none of spoor's but switches and wake-ups" bash -c \
	"! grep ' common_pid=$sp ' '$TMP/self.txt' | grep -vq ' sched_switch: \| sched_waking: \| sched_wakeup: \| sched_wakeup_new: \| statedump_process: '"
check "own events: the switches from spoor to other tasks stay" \
	grep -q " sched_switch: .* prev_pid=$sp " "$TMP/self.txt"

# 5. two sessions at once
"$SPOOR" record -a -k sched:sched_switch -d 2s -o "$TMP/two-a" 2>/dev/null &
a=$!
"$SPOOR" record -a -k irq -d 2s -o "$TMP/two-b" 2>/dev/null &
b=$!
wait "$a"
ra=$?
wait "$b"
rb=$?
check "two sessions at once: both exit 0" test "$ra" -eq 0 -a "$rb" -eq 0
na=$("$SPOOR" stats --json "$TMP/two-a" | json 'd["events"]')
check "two sessions at once: the first has its sched_switch events" \
	bash -c "babeltrace2 '$TMP/two-a' | grep -q ' sched_switch: '"
check "two sessions at once: the second has only irq events" \
	bash -c "! babeltrace2 '$TMP/two-b' | grep -v ' statedump_process: \| irq_\| softirq_\| sched_process_\| task_rename: \| task_newtask: ' | grep -q ."
check "two sessions at once: no instance left" no_leftovers
echo "note: the first session has $na events"

# 6. a kernel filter
"$SPOOR" record -a -k sched:sched_switch --filter 'sched_switch:prev_pid != 0' -d 1s \
	-o "$TMP/filt" 2>/dev/null
"$SPOOR" dump -e sched_switch "$TMP/filt" >"$TMP/filt.txt"
check "--filter: sched_switch events recorded" grep -q ' sched_switch: ' "$TMP/filt.txt"
check "--filter: none with prev_pid 0" bash -c "! grep -q ' prev_pid=0 ' '$TMP/filt.txt'"

# --pid: the kernel's set_event_pid keeps other threads' events out
bash -c 'while :; do read -r _ </proc/loadavg; done' &
busy=$!
"$SPOOR" record -a -k syscalls --pid "$busy" -d 1s -o "$TMP/pid" 2>/dev/null
kill "$busy"
"$SPOOR" dump -e 'sys_*' "$TMP/pid" | sed 's/.* common_pid=\([0-9]*\) .*/\1/' | sort -u >"$TMP/pid.txt"
check "--pid: system calls of that pid only" test "$(cat "$TMP/pid.txt")" = "$busy"

# 7. lost events are counted and carried into the trace: the command makes its system
# calls while spoor is stopped (a consumer that keeps up would lose nothing), so they fill
# the 8 kB per-CPU buffers
"$SPOOR" record -k syscalls,sched --kernel-buffer 8k -o "$TMP/lost" -- \
	sh -c 'while [ ! -e "$1" ]; do sleep 0.01; done
	       i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); : >/dev/null; done' sh "$TMP/lost.go" \
	2>"$TMP/lost.err" &
rec=$!
started "$TMP/lost" "$rec"
kill -STOP "$rec"
touch "$TMP/lost.go"
sleep 0.5
kill -CONT "$rec"
wait "$rec"
lost=$(sed -n 's/.*kernel: [0-9]* events on [0-9]* CPU(s), \([0-9]*\) lost.*/\1/p' "$TMP/lost.err")
check "a tiny kernel buffer loses events, and says how many" test "${lost:-0}" -gt 0
disc=$("$SPOOR" stats --json "$TMP/lost" | json 'd["discarded"]')
check "the loss is in the trace: spoor stats counts $lost discarded" test "$disc" = "$lost"
babeltrace2 "$TMP/lost" >/dev/null 2>"$TMP/lost.bt2err"
check "babeltrace2 reports the discarded events too" grep -q 'discarded' "$TMP/lost.bt2err"

# 8. a disk that fills: the streams end on whole packets, the trace stays readable
mkdir "$TMP/small"
if mount -t tmpfs -o size=1m tmpfs "$TMP/small"; then
	"$SPOOR" record -k sched,syscalls -o "$TMP/small/t" -- \
		sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); : >/dev/null; done' 2>"$TMP/full.err"
	check "full disk: exit 1" test $? -eq 1
	check "full disk: says which stream and why" grep -q 'kernel/cpu[0-9]*: No space left on device' "$TMP/full.err"
	check "full disk: what was written reads in babeltrace2" bash -c "babeltrace2 '$TMP/small/t' >/dev/null"
	said=$(sed -n 's/.*kernel: \([0-9]*\) events on .*, \([0-9]*\) threads in the state dump/\1 \2/p' "$TMP/full.err")
	got=$("$SPOOR" stats --json "$TMP/small/t" | json 'd["events"]')
	check "full disk: the trace holds the events the summary says were written ($said)" \
		test "$got" -eq $(( ${said% *} + ${said#* } ))
	umount "$TMP/small"
fi

# 9. errors: clear messages, non-zero exits, nothing left behind
"$SPOOR" record -a -k no_such_event -d 1s -o "$TMP/e1" 2>"$TMP/e1.err"
check "unknown event: exit 1" test $? -eq 1
check "unknown event: names it" grep -q "no kernel event matches 'no_such_event'" "$TMP/e1.err"
check "unknown event: no trace directory made" test ! -e "$TMP/e1"
"$SPOOR" record -a -k sched:sched_switch --filter 'sched_switch:no_field == 1' -d 1s \
	-o "$TMP/e2" 2>"$TMP/e2.err"
check "filter the kernel rejects: exit 1" test $? -eq 1
check "filter the kernel rejects: shows the kernel's error_log" \
	bash -c "grep -q 'error_log says' '$TMP/e2.err' && grep -q 'Field not found' '$TMP/e2.err'"
"$SPOOR" record -a -k sched -F 'vfs_*' -d 1s -o "$TMP/e3" 2>"$TMP/e3.err"
if [ $? -eq 0 ]; then
	check "function tracer: function events recorded" bash -c "babeltrace2 '$TMP/e3' | grep -q ' function: '"
else
	check "function tracer refused by this kernel: says so" grep -q 'function tracer' "$TMP/e3.err"
fi
SPOOR_TRACEFS="$TMP" "$SPOOR" record -a -k sched -d 1s -o "$TMP/e4" 2>"$TMP/e4.err"
check "not a tracefs: exit 1 with a message" \
	bash -c "test $? -eq 1 && grep -q 'not a mounted tracefs' '$TMP/e4.err'"
mkdir -m 777 "$TMP/nobody"
chmod 755 "$TMP"
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SPOOR" record -a -k sched -d 1s -o "$TMP/nobody/t" 2>"$TMP/e5.err"
	check "not root: exit 1" test $? -eq 1
	check "not root: says kernel tracing needs root" grep -q 'needs root' "$TMP/e5.err"
fi
"$SPOOR" record -k sched 2>"$TMP/e6.err"
check "-k without a command or -a: usage error" test $? -eq 2
"$SPOOR" record -a -d 1s 2>"$TMP/e7.err"
check "-a without -k: usage error" test $? -eq 2
"$SPOOR" record -a -k sched -d 5x 2>"$TMP/e8.err"
check "bad duration: usage error" test $? -eq 2
check "after the errors: no instance left, global settings unchanged" no_leftovers

# 10. spoor list -k
"$SPOOR" list -k >"$TMP/list.txt"
check "list -k: sched:sched_switch among the kernel's events" grep -qx 'sched:sched_switch' "$TMP/list.txt"
check "list -k: as many as tracefs offers" test "$(wc -l <"$TMP/list.txt")" -ge 100
"$SPOOR" list -k -v >"$TMP/listv.txt"
check "list -k -v: fields with their types" grep -q '^    char\[16\] prev_comm' "$TMP/listv.txt"
# a dynamic field as its format file writes it: "__data_loc char[] filename", the keyword once
check "list -k -v: a __data_loc field as the format says" \
	grep -qx '    __data_loc char\[\] filename (variable length)' "$TMP/listv.txt"
check "list -k -v: __data_loc said once" bash -c "! grep -q '__data_loc __data_loc' '$TMP/listv.txt'"

finish
