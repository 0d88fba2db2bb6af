#!/usr/bin/env bash
# spoor watch: Lua handlers on a live session. Each example script gives the same answer
# live as `spoor script` gives afterwards on the trace the live session wrote (-o); single
# events reach their handler quickly; the events enabled are the ones the script handles;
# errors. User-space parts run anywhere; kernel parts need root and tracefs.
. "$(dirname "$0")/lib.sh"
: "${SCRIPTS:?}" "${PULSE:?}" "${MARKS:?}" "${SCRIBBLER:?}" "${DL_LATE:?}" "${DL_PROVIDER:?}"
need babeltrace2 babeltrace2
T=/sys/kernel/tracing
# the pids of this test's spoors (exec keeps the pid): the last check names only them
W() { sh -c 'echo $$ >>"$0"; exec "$@"' "$TMP/spoor-pids" "$SPOOR" watch "$@"; }
events_in() { babeltrace2 "$1" 2>/dev/null | awk '{print $4}' | sed 's/:$//' | sort -u; }
count_bt2() { babeltrace2 "$1" 2>/dev/null | awk '{print $4}' | sed 's/:$//' | sort | uniq -c |
	awk '{print $2, $1}' | sort; }
cat >"$TMP/count.lua" <<'EOF'
local c = {}
on("*", function(e) c[e.name] = (c[e.name] or 0) + 1 end)
function finish()
  local names = {}
  for k in pairs(c) do names[#names + 1] = k end
  table.sort(names)
  for _, k in ipairs(names) do print(k, c[k]) end
end
EOF

# ---- user space (no root needed) ----

# Latency: one event every 100 ms; each reaches its handler long before a sub-buffer fills.
cat >"$TMP/lat.lua" <<'EOF'
function pulse_tick(e) print(e.i, string.format("%.3f", (spoor.now() - e.time) * 1000)) end
EOF
W "$TMP/lat.lua" -o "$TMP/lat" -- "$PULSE" 20 100 >"$TMP/lat.txt" 2>"$TMP/lat.err"
check "latency: all 20 single events handled live" test "$(wc -l <"$TMP/lat.txt")" -eq 20
# the issue's bound is 100 ms; the assertion is generous (a loaded CI machine), the figure
# measured here goes to docs/PERFORMANCE.md
max=$(sort -k2 -g "$TMP/lat.txt" | tail -1 | awk '{print $2}')
median=$(sort -k2 -g "$TMP/lat.txt" | awk 'NR == 10 {print $2}')
echo "# user-space event to handler: median ${median:-?} ms, max ${max:-?} ms"
check "latency: every event handled within 1 s of being emitted (max ${max:-?} ms)" \
	awk '$2 > 1000 || $2 < 0 { bad = 1 } END { exit bad }' "$TMP/lat.txt"
check "latency: the trace of the live session reads in babeltrace2, 20 events" \
	test "$(babeltrace2 "$TMP/lat" 2>/dev/null | grep -c 'pulse:tick')" -eq 20

# A fast source: the same counts live, offline and in babeltrace2 (packets written in
# slices while they fill, then whole).
W "$TMP/count.lua" -e "marks:*" -b 8m -o "$TMP/fast" -- "$MARKS" 100000 >"$TMP/fast.live" 2>"$TMP/fast.err"
"$SPOOR" script "$TMP/count.lua" "$TMP/fast" >"$TMP/fast.offline" 2>/dev/null
check "fast source: live counts = offline counts" cmp -s "$TMP/fast.live" "$TMP/fast.offline"
count_bt2 "$TMP/fast" | tr ' ' '\t' >"$TMP/fast.bt2"
check "fast source: live counts = babeltrace2's" cmp -s "$TMP/fast.live" "$TMP/fast.bt2"
check "fast source: nothing lost (8 MiB buffers)" grep -q ' 0 events discarded' "$TMP/fast.err"

# spoor.stop() ends the session and the command.
echo 'function pulse_tick(e) if e.i == 2 then print("stop", e.i); spoor.stop() end end' >"$TMP/stop.lua"
start=$(date +%s%N)
W "$TMP/stop.lua" -- "$PULSE" 100 50 >"$TMP/stop.txt" 2>&1
ms=$((($(date +%s%N) - start) / 1000000))
check "spoor.stop(): the session ends at once (${ms} ms, the command would run 5 s)" test "$ms" -lt 3000
check "spoor.stop(): no handler after it" test "$(cat "$TMP/stop.txt")" = "$(printf 'stop\t2')"

# A handler's run-time error: FILE:LINE and the event, exit 1, the recording goes on to the end.
printf 'function pulse_tick(e)\n  if e.i == 3 then error("boom") end\nend\n' >"$TMP/bad.lua"
W "$TMP/bad.lua" -o "$TMP/bad" -- "$PULSE" 10 20 >/dev/null 2>"$TMP/bad.err"
check "run-time error: exit status 1" test $? -eq 1
check "run-time error: FILE:LINE: message" grep -q "bad.lua:2: boom" "$TMP/bad.err"
check "run-time error: names the event" grep -q "in the handler of pulse:tick" "$TMP/bad.err"
check "run-time error: the trace is still whole (10 ticks)" \
	test "$(babeltrace2 "$TMP/bad" 2>/dev/null | grep -c 'pulse:tick')" -eq 10
printf 'function pulse_tick(e\n' >"$TMP/syntax.lua"
W "$TMP/syntax.lua" -o "$TMP/syntax" -- "$PULSE" 1 1 >/dev/null 2>"$TMP/syntax.err"
check "syntax error: exit 1, FILE:LINE, nothing recorded" \
	sh -c "[ $? -eq 1 ] && grep -q 'syntax.lua:2:' '$TMP/syntax.err' && [ ! -e '$TMP/syntax' ]"
W -- "$PULSE" 1 1 >/dev/null 2>"$TMP/u1.err"
check "usage: no script" sh -c "[ $? -eq 2 ] && grep -q 'no script' '$TMP/u1.err'"
W "$TMP/lat.lua" >/dev/null 2>"$TMP/u4.err"
check "usage: no command, with watch's usage (not record's)" \
	sh -c "[ $? -eq 2 ] && grep -q 'no command given (spoor watch .*SCRIPT.lua' '$TMP/u4.err'"
W --overwrite "$TMP/lat.lua" -- "$PULSE" 1 1 >/dev/null 2>"$TMP/u2.err"
check "usage: no flight recorder" sh -c "[ $? -eq 2 ] && grep -q 'overwrite' '$TMP/u2.err'"
W --period 5s "$TMP/lat.lua" -- "$PULSE" 1 1 >/dev/null 2>"$TMP/u3.err"
check "usage: period out of range" sh -c "[ $? -eq 2 ] && grep -q 'period' '$TMP/u3.err'"

# Events declared after the live reader opened the trace (a provider dlopen()ed 300 ms in):
# the grown metadata is taken in, the events counted live as offline.
W "$TMP/count.lua" -o "$TMP/dl" -- "$DL_LATE" "$DL_PROVIDER" 300 >"$TMP/dl.live" 2>"$TMP/dl.err"
"$SPOOR" script "$TMP/count.lua" "$TMP/dl" >"$TMP/dl.offline" 2>/dev/null
check "metadata that grows: live = offline, with the dlopen()ed provider's events" \
	sh -c "cmp -s '$TMP/dl.live' '$TMP/dl.offline' && grep -qx 'plugin:loaded.3' '$TMP/dl.live' && grep -qx 'late:mark.4' '$TMP/dl.live'"
check "metadata that grows: no damage reported" sh -c "! grep -q warning '$TMP/dl.err'"
# the same with a flush every millisecond, 10 times: a flush must never see the new events
# before their registration (it failed 9 times in 15 before the recorder took pending
# registrations first)
bad=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	W "$TMP/count.lua" --period 1ms -- "$DL_LATE" "$DL_PROVIDER" 20 >"$TMP/dl1.live" 2>"$TMP/dl1.err"
	grep -qx 'plugin:loaded.3' "$TMP/dl1.live" && ! grep -q warning "$TMP/dl1.err" || bad=$((bad + 1))
done
check "metadata that grows, flushed every 1 ms: the new events every time ($bad failures in 10)" test $bad -eq 0

# A program that writes garbage over its ring buffer (counters, write position, packets)
# and lingers, so that live flushes read the garbage: damage reported, no crash.
W "$TMP/count.lua" -o "$TMP/scr" -- "$SCRIBBLER" 1000 >"$TMP/scr.out" 2>"$TMP/scr.err"
check "scribbler, live: spoor watch ends normally (exit $?)" test $? -lt 2
check "scribbler, live: the damage is reported" grep -q 'warning: .*stream_' "$TMP/scr.err"
check "scribbler, live: the 2000 events committed before the garbage were handled" \
	grep -qx "$(printf 'scribbler:ok\t2000')" "$TMP/scr.out"

# Exit status as spoor record's: spoor's failure first, a command that cannot run as a
# shell says (127 not found, 126 not runnable; nothing left), else the command's status,
# 128+N for signal N. -o DIR never mixes two recordings.
W "$TMP/count.lua" -o "$TMP/wnx" -- /nonexistent/program >/dev/null 2>"$TMP/wnx.err"
check "watch, /nonexistent: exit 127, the shell's message, no -o directory" \
	sh -c "[ $? -eq 127 ] && grep -qx 'spoor watch: /nonexistent/program: No such file or directory' '$TMP/wnx.err' && [ ! -e '$TMP/wnx' ]"
printf '#!/bin/sh\n' >"$TMP/noexec"
W "$TMP/count.lua" -o "$TMP/wne" -- "$TMP/noexec" >/dev/null 2>"$TMP/wne.err"
check "watch, not executable: exit 126, no -o directory" \
	sh -c "[ $? -eq 126 ] && grep -q 'noexec: Permission denied' '$TMP/wne.err' && [ ! -e '$TMP/wne' ]"
W "$TMP/count.lua" -- false >/dev/null 2>&1
check "watch, false: exit 1" test $? -eq 1
W "$TMP/count.lua" -- sh -c 'exit 7' >/dev/null 2>&1
check "watch, sh -c 'exit 7': exit 7" test $? -eq 7
W "$TMP/count.lua" -- sh -c 'kill -TERM $$' >/dev/null 2>&1
check "watch, a command killed by SIGTERM: exit 143" test $? -eq 143
W "$TMP/stop.lua" -- "$PULSE" 100 50 >/dev/null 2>&1
check "watch, spoor.stop() ends the command: exit 0" test $? -eq 0
echo 'function finish() error("boom") end' >"$TMP/badend.lua"
W "$TMP/badend.lua" -- sh -c 'exit 7' >/dev/null 2>&1
check "watch, a script error and a failing command: the script's error first (1)" test $? -eq 1
sums() { (cd "$1" && find . -printf '%y %p\n' | sort && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
sums "$TMP/lat" >"$TMP/lat.sums"
W "$TMP/count.lua" -o "$TMP/lat" -- "$PULSE" 2 1 >/dev/null 2>"$TMP/again.err"
check "watch, existing -o: refused, exit 1" test $? -eq 1
check "watch, existing -o: says why" grep -q 'lat is not empty: .*--force' "$TMP/again.err"
check "watch, existing -o: the old trace is byte-identical" cmp -s "$TMP/lat.sums" <(sums "$TMP/lat")
# --force removes the old trace only once the recording has started
W "$TMP/count.lua" --force -o "$TMP/lat" -- /nonexistent >/dev/null 2>&1
check "watch, --force, command not found: exit 127" test $? -eq 127
check "watch, --force, command not found: the old trace is byte-identical" cmp -s "$TMP/lat.sums" <(sums "$TMP/lat")
W "$TMP/count.lua" --force -o "$TMP/lat" -k no_such_system:no_such_event -- "$PULSE" 2 1 >/dev/null 2>&1
check "watch, --force, session refused: exit 1" test $? -eq 1
check "watch, --force, session refused: the old trace is byte-identical" cmp -s "$TMP/lat.sums" <(sums "$TMP/lat")
W "$TMP/count.lua" --force -o "$TMP/lat" -- "$PULSE" 2 1 >/dev/null 2>&1
check "watch, --force: the new recording only (2 ticks)" \
	test $? -eq 0 -a "$(babeltrace2 "$TMP/lat" 2>/dev/null | grep -c 'pulse:tick')" -eq 2
check "watch, --force: nothing of the old trace left aside" test -z "$(find "$TMP/lat" -name '.spoor-old-*')"

# ---- the kernel (root and tracefs) ----
kernel=1
if [ "$(id -u)" -ne 0 ]; then
	echo "# SKIP kernel parts: they need root"
	kernel=0
elif [ "$(stat -f -c %T "$T" 2>/dev/null)" != tracefs ] &&
	! mount -t tracefs nodev "$T" 2>/dev/null; then
	echo "# SKIP kernel parts: tracefs cannot be mounted at $T"
	kernel=0
fi
if [ $kernel -eq 1 ]; then
	# live and offline, the same script on the same activity: LIVE_OFFLINE NAME SCRIPT ARGS...
	same() {
		local name=$1 script=$2
		shift 2
		# its pid kept: checks name this spoor, not others that may trace on this machine
		"$SPOOR" watch "$script" -o "$TMP/$name" "$@" >"$TMP/$name.live" 2>"$TMP/$name.err" &
		local pid=$!
		echo "$pid" >"$TMP/$name.pid"
		echo "$pid" >>"$TMP/spoor-pids"
		wait "$pid"
		local rc=$?
		"$SPOOR" script "$script" "$TMP/$name" >"$TMP/$name.offline" 2>/dev/null
		check "$name: live (exit $rc) and offline give the same answer" \
			sh -c "[ $rc -eq 0 ] && [ -s '$TMP/$name.live' ] && cmp -s '$TMP/$name.live' '$TMP/$name.offline'"
		if ! cmp -s "$TMP/$name.live" "$TMP/$name.offline"; then # say why
			diff "$TMP/$name.live" "$TMP/$name.offline" | head -5 | sed 's/^/# /'
			sed 's/^/# /' "$TMP/$name.err"
		fi
	}
	always="sched_process_exec sched_process_exit sched_process_fork statedump_process task_rename task_newtask"
	only() { # only TRACE EVENT...: the trace holds those events and spoor's name events
		local extra
		printf '%s\n' "${@:2}" $always >"$TMP/allowed"
		extra=$(events_in "$1" | grep -vxF -f "$TMP/allowed")
		[ -z "$extra" ] || echo "unexpected events in $1: $extra"
		[ -z "$extra" ]
	}

	# one timeline, live: marks:before(i) < sys_enter_getppid < sys_exit_getppid < marks:after(i)
	cat >"$TMP/order.lua" <<'EOF'
local state, bad, n, back, last = {}, 0, 0, 0, -1
local function step(e, want, nxt)
  if e.ts < last then back = back + 1 end
  last = e.ts
  if (state[e.tid] or "before") ~= want then bad = bad + 1 end
  state[e.tid] = nxt
end
function marks_before(e) step(e, "before", "enter") end
function sys_enter_getppid(e) if state[e.tid] then step(e, "enter", "exit") end end
function sys_exit_getppid(e) if state[e.tid] then step(e, "exit", "after") end end
function marks_after(e) step(e, "after", "before"); n = n + 1 end
function finish() print("pairs", n, "out of order", bad, "back in time", back) end
EOF
	# --late 200ms: a traced thread preempted between stamping and committing an event (a
	# slow host, a sanitizer build) must not make this check depend on the machine's load
	same order "$TMP/order.lua" --late 200ms -- "$MARKS" 20000
	check "order: 20000 user/kernel/kernel/user runs in order, live" \
		grep -qx "$(printf 'pairs\t20000\tout of order\t0\tback in time\t0')" "$TMP/order.live"
	check "order: only the events the script handles are enabled" \
		only "$TMP/order" marks:begin marks:before marks:after sys_enter_getppid sys_exit_getppid

	same count-events "$SCRIPTS/count-events.lua" -k sched_switch,sched_wakeup -- "$PULSE" 5 20
	same syscalls-by-name "$SCRIPTS/syscalls-by-name.lua" -- "$MARKS" 1000
	check "syscalls-by-name: the 1000 getppid calls of the command are there" \
		awk '$1 == "getppid" && $2 >= 1000 { ok = 1 } END { exit !ok }' "$TMP/syscalls-by-name.live"
	same syscalls-per-process "$SCRIPTS/syscalls-per-process.lua" -- "$MARKS" 1000
	check "syscalls-per-process: the command named from the trace" \
		grep -q 'syscall-marks' "$TMP/syscalls-per-process.live"
	check "syscalls-per-process: spoor's own system calls are not recorded" \
		sh -c "! grep -q '^  spoor\[$(cat "$TMP/syscalls-per-process.pid")\]' '$TMP/syscalls-per-process.live'"
	# its first calls come before the trace names it: still one row per process
	check "syscalls-per-process: one row per process, live (a name learnt late included)" \
		sh -c "! sed -n 's/^  .*\\[\\([0-9]*\\)\\] .*/\\1/p' '$TMP/syscalls-per-process.live' | sort | uniq -d | grep -q ."

	"$PULSE" 40 50 &
	victim=$!
	PID=$victim same syscall-time "$SCRIPTS/syscall-time.lua" --pid "$victim" -a -d 1s
	wait $victim
	PID=$victim "$SPOOR" script "$SCRIPTS/syscall-time.lua" "$TMP/syscall-time" >/dev/null
	check "syscall-time: the pulse's getppid calls timed" grep -q '^  getppid ' "$TMP/syscall-time.live"

	# disk writes that bypass the page cache: the disk's interrupts (a quiet second may
	# have none)
	same longest-irq "$SCRIPTS/longest-irq.lua" -- sh -c "dd if=/dev/zero of='$TMP/irq.dat' bs=64k count=200 oflag=direct 2>/dev/null; sync"
	check "longest-irq: the disk's interrupts handled" grep -q '^longest: irq ' "$TMP/longest-irq.live"

	sleep 30 &
	victim=$!
	start=$(date +%s%N)
	PID=$victim same who-killed "$SCRIPTS/who-killed.lua" -- sh -c "sleep 0.3; kill -TERM $victim; sleep 20"
	ms=$((($(date +%s%N) - start) / 1000000))
	check "who-killed: names the sender, stops the session (${ms} ms)" \
		sh -c "grep -q 'was sent SIGTERM by sh' '$TMP/who-killed.live' && [ $ms -lt 10000 ]"

	echo old >"$TMP/victim"
	FILE=$TMP/victim same who-modified "$SCRIPTS/who-modified.lua" -- sh -c "sleep 0.2; cat '$TMP/victim' >/dev/null; echo more >>'$TMP/victim'; sleep 20"
	check "who-modified: the shell that appended, by pid" \
		grep -q "was modified by sh (pid [0-9]*, tid [0-9]*): sys_enter_write on fd 1" "$TMP/who-modified.live"
	touch "$TMP/victim2"
	FILE=$TMP/victim2 same who-deleted "$SCRIPTS/who-deleted.lua" -- sh -c "sleep 0.2; rm '$TMP/victim2'; sleep 20"
	check "who-deleted: rm, by pid" grep -q "victim2 was deleted by rm (pid [0-9]*, tid [0-9]*) with libc_unlinkat" "$TMP/who-deleted.live"
	check "who-deleted: only the events the script handles are enabled" \
		only "$TMP/who-deleted" libc_unlink libc_unlinkat libc_rmdir

	# a kernel event live: within 1 s (the figure goes to docs/)
	cat >"$TMP/klat.lua" <<'EOF'
local pid = tonumber(os.getenv("PID"))
function sys_enter_getppid(e)
  if e.pid == pid then print(string.format("%.3f", (spoor.now() - e.time) * 1000)) end
end
EOF
	"$PULSE" 40 100 &
	victim=$!
	PID=$victim W "$TMP/klat.lua" --pid "$victim" -a -d 3s >"$TMP/klat.txt" 2>/dev/null
	wait $victim
	kmax=$(sort -g "$TMP/klat.txt" | tail -1)
	echo "# kernel event to handler: median $(sort -g "$TMP/klat.txt" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}') ms, max $kmax ms"
	check "kernel latency: the pulse's getppid calls within 1 s (max ${kmax:-?} ms)" \
		sh -c "[ \$(wc -l <'$TMP/klat.txt') -ge 10 ] && awk '\$1 > 1000 || \$1 < 0 { exit 1 }' '$TMP/klat.txt'"

	# (other tests' spoors may run, or be killed, on this machine meanwhile: only this
	# test's own count)
	left=$( (ls "$T/instances" | sed -n 's/^spoor-\([0-9]*\)-[0-9]*$/\1/p'
		sed -n 's/^p:spoor_\([0-9]*\)_.*/\1/p' "$T/uprobe_events") | sort -u |
		while read -r pid; do grep -qx "$pid" "$TMP/spoor-pids" && echo "$pid"; done)
	check "nothing left behind: no instance, no uprobe of a spoor that ended (${left:-none})" \
		test -z "$left"
fi
finish
