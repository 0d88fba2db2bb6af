#!/usr/bin/env bash
# spoor watch --session: a Lua script live on a running session of a real daemon (on a
# private socket, stopped by its pid), tracing tests/programs/service (it emits only when
# told: the counts are known). Detaching leaves the session running; spoor.stop() stops
# it; spoor.snapshot() snapshots another session; a flight recorder is refused.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"
: "${SERVICE:?}"
need babeltrace2 babeltrace2

private_daemon user
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	if [ -n "${daemon:-}" ]; then
		kill "$daemon" 2>/dev/null
		while kill -0 "$daemon" 2>/dev/null; do sleep 0.05; done
	fi
	rm -rf "$TMP"
}
trap cleanup EXIT
"$SPOOR" daemon --foreground --socket "$SOCK" 2>"$TMP/daemon.log" &
daemon=$!
while ! [ -S "$SOCK" ]; do
	kill -0 "$daemon" 2>/dev/null || { cat "$TMP/daemon.log"; exit 1; }
	sleep 0.02
done

# service: a program started before the sessions; batch: one batch of 100 rounds, emitted
"$SERVICE" "$TMP/svc.status" &
svc=$!
PIDS+=("$svc")
while ! grep -q "^pid $svc " "$TMP/svc.status" 2>/dev/null; do sleep 0.02; done
batch() {
	local want
	want=$(($(awk '{print $4}' "$TMP/svc.status") + 1))
	kill -USR1 "$svc"
	while [ "$(awk '{print $4}' "$TMP/svc.status" 2>/dev/null)" != "$want" ]; do sleep 0.02; done
}
count() { babeltrace2 "$1" 2>/dev/null | grep -c " $2: " || true; }
wait_line() { # wait_line FILE REGEX PID: until FILE has a matching line (PID still alive)
	while ! grep -q "$2" "$1" 2>/dev/null; do
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.02
	done
}
session() { # session NAME [create options]: made, svc:* enabled, started
	local name=$1
	shift
	S create "$name" -o "$TMP/$name" "$@" >/dev/null && S enable "$name" -u 'svc:*' &&
		S start "$name" >/dev/null
}
wait_programs() { # until session NAME has the program attached
	while ! S list "$1" 2>/dev/null | grep -qx "  programs: 1"; do sleep 0.02; done
}

# ---- live, then detached: the session goes on ----
session live
wait_programs live
cat >"$TMP/count.lua" <<'EOF'
n = 0
function svc_request(e)
	n = n + 1
	if e.seq % 100 == 99 then print("batch done at", e.seq + 1) io.stdout:flush() end
end
function finish() print("requests", n) end
EOF
"$SPOOR" watch --session live "$TMP/count.lua" >"$TMP/live.out" 2>"$TMP/live.err" &
watcher=$!
PIDS+=("$watcher")
batch
wait_line "$TMP/live.out" "^batch done at	100$" "$watcher"
check "the script sees a batch while the session runs" test $? -eq 0
batch
wait_line "$TMP/live.out" "^batch done at	200$" "$watcher"
check "and the next one" test $? -eq 0
kill -INT "$watcher"
wait "$watcher"
check "Ctrl-C detaches: exit 0" test $? -eq 0
check "finish() ran, with every event seen (200)" grep -qx "requests	200" "$TMP/live.out"
check "it says the session goes on" grep -q "detached; session live goes on" "$TMP/live.err"
S list live >"$TMP/live.list"
check "the session still runs" grep -q "^session live: started" "$TMP/live.list"
batch
S stop live >/dev/null
check "and records after the watcher left: 300 svc:request" test "$(count "$TMP/live" svc:request)" -eq 300
S destroy live >/dev/null

# ---- spoor.stop() stops the watched session; spoor.snapshot() snapshots another ----
session watched
session flight --overwrite
wait_programs watched
wait_programs flight
cat >"$TMP/stop.lua" <<'EOF'
n = 0
function svc_request(e)
	n = n + 1
	if n == 150 then
		local report, err = spoor.snapshot("flight")
		print("snapshot", report or ("failed: " .. err))
		print("no such session", select(2, spoor.snapshot("nope")) ~= nil)
		spoor.stop()
	end
end
function finish() print("requests", n) end
EOF
"$SPOOR" watch --session watched "$TMP/stop.lua" >"$TMP/stop.out" 2>"$TMP/stop.err" &
watcher=$!
PIDS+=("$watcher")
batch
batch
wait "$watcher"
check "spoor.stop(): the watch ends, exit 0" test $? -eq 0
cat "$TMP/stop.err"
check "the script read up to its stop (150)" grep -qx "requests	150" "$TMP/stop.out"
S list watched >"$TMP/watched.list"
check "the watched session is stopped" grep -q "^session watched: stopped" "$TMP/watched.list"
# what spoor session snapshot says of the flight recorder now: the script got the same
if S snapshot flight -o "$TMP/probe" >/dev/null 2>"$TMP/probe.err"; then
	check "spoor.snapshot() returned the daemon's report" \
		grep -q "^snapshot	snapshot of session flight in " "$TMP/stop.out"
	snap=$(sed -n 's/^snapshot	snapshot of session flight in \(.*\): .*/\1/p' "$TMP/stop.out")
	check "the snapshot is a trace babeltrace2 reads, with svc:request events" \
		test "$(count "$snap" svc:request)" -gt 0
else # a daemon without snapshots yet
	check "spoor.snapshot() returned nil and the daemon's reason" \
		grep -qxF "snapshot	failed: $(sed 's/^spoor session snapshot: //' "$TMP/probe.err")" "$TMP/stop.out"
fi
check "a snapshot of no session gives nil and why" grep -qx "no such session	true" "$TMP/stop.out"
S list flight >"$TMP/flight.list"
check "the flight recorder still runs" grep -q "^session flight: started" "$TMP/flight.list"

# ---- refused: a flight recorder, an unknown session, a command, spoor script offline ----
"$SPOOR" watch --session flight "$TMP/count.lua" >/dev/null 2>"$TMP/over.err"
check "watching a flight recorder fails (exit 1)" test $? -eq 1
check "and says to take snapshots" grep -q "flight recorder (--overwrite).*spoor session snapshot flight" "$TMP/over.err"
"$SPOOR" watch --session nope "$TMP/count.lua" >/dev/null 2>"$TMP/nope.err"
check "an unknown session: exit 1" test $? -eq 1
check "it is named" grep -q "no session 'nope'" "$TMP/nope.err"
"$SPOOR" watch --session flight "$TMP/count.lua" -- true >/dev/null 2>"$TMP/cmd.err"
check "--session with a command: a usage error (exit 2)" test $? -eq 2
printf 'print("offline", select(2, spoor.snapshot("flight")))\n' >"$TMP/offline.lua"
"$SPOOR" script "$TMP/offline.lua" "$TMP/live" >"$TMP/offline.out" 2>&1
check "spoor.snapshot() offline gives nil and why" grep -q "^offline	spoor.snapshot works in spoor watch only" "$TMP/offline.out"
S destroy flight >/dev/null
S destroy watched >/dev/null
finish
