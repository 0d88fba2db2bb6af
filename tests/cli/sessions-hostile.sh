#!/usr/bin/env bash
# The session daemon against hostile clients of one user (tests/cli/hostile-client.py speaks
# the protocols directly): none can hang it, spin it, or lock others out. A real daemon on a
# private socket, stopped by its pid.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"
need python3 python3
HOSTILE="python3 $(dirname "$0")/hostile-client.py"

private_daemon user
# ends: SIGTERM ends the daemon (its loop still runs), within 30 s at worst
ends() {
	local pid
	pid=$(daemon_pid)
	[ -n "$pid" ] && kill "$pid" || return 1
	for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
	kill -9 "$pid"
	return 1
}
CLIENTS=()
trap 'ends; for p in "${CLIENTS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
# answers: the daemon serves a request (a hung daemon: none within 30 s)
answers() { timeout 30 "$SPOOR" session list >/dev/null 2>&1; }
# client OUTFILE ARGS...: a hostile client in the background, until it printed a line
client() {
	local out=$1
	shift
	$HOSTILE "$@" >"$out" &
	CLIENTS+=($!)
	while ! [ -s "$out" ]; do
		kill -0 "${CLIENTS[-1]}" 2>/dev/null || return 1
		sleep 0.05
	done
}

# ---- the programs' doorbells ----
start_daemon
check "doorbell: each program has its own" test "$($HOSTILE bells "$SOCK")" = separate
# a program that makes its doorbell blocking and reads it away as it rings it: the daemon
# reading a doorbell that holds nothing waited there for ever
client "$TMP/steal.out" steal-bell "$SOCK" 2000 "$(daemon_pid)"
check "doorbell: a program reading its doorbell away does not hang the daemon" answers
check "doorbell: ... and SIGTERM still ends it" ends
kill "${CLIENTS[@]}" 2>/dev/null
CLIENTS=()

# ---- rotation timers: a request the client would refuse ----
start_daemon
$HOSTILE ctl "$SOCK" verb create name tiny output "$TMP/tiny" rotate-ns 1000 >/dev/null 2>"$TMP/tiny.err"
check "rotate-ns below 10 ms: refused as a usage error" test $? -eq 2
check "... saying why" grep -q "10ms or more" "$TMP/tiny.err"
$HOSTILE ctl "$SOCK" verb create name small output "$TMP/small" rotate-bytes 100 >/dev/null 2>&1
check "rotate-bytes below 4 KiB: refused" test $? -eq 2
$HOSTILE ctl "$SOCK" verb create name ok output "$TMP/ok" rotate-ns 10000000 >/dev/null 2>&1
check "rotate-ns of 10 ms: taken" test $? -eq 0
check "rotation: SIGTERM ends the daemon" ends

finish
