#!/usr/bin/env bash
# spoor view in a real browser: Debian's Chromium, headless, driven by puppeteer-core
# (tests/browser/*.mjs, npm ci --prefix tests/browser). Starts one Chromium (a private
# profile, killed by its pid at the end) and, per trace, one `spoor view` (port 0, stopped
# by its pid), then runs the checks against it:
#   access.mjs  403 without the token, 404 for a traversal (plain HTTP and the browser's fetch)
#   view.mjs    rows, rects, marks, wheel zoom, pan, the event list, range statistics
#   damage.mjs  a damaged trace's banner
#   flame.mjs   function calls as flame rows under their thread
# Traces: gen_kernel.py's busy trace; gen-calls.py's calls-tree (with CALLS_TREE and
# DL_PROVIDER: the programs its addresses come from); as root with tracefs, `spoor record -k
# ... -- hello` (user-space marks); ../shared/traces/lttng/many-threads when present.
# Skips (77) only when chromium, node or node_modules is missing.
. "$(dirname "$0")/../cli/lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
skip() {
	echo "SKIP: $*"
	echo "0 passed, 0 failed, 1 skipped"
	exit 77
}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
[ -n "$chromium" ] || skip "chromium is not installed (apt-get install chromium)"
command -v node >/dev/null || skip "node is not installed (apt-get install npm)"
[ -d "$here/node_modules/puppeteer-core" ] ||
	skip "no $here/node_modules (npm ci --prefix tests/browser)"

CHROME_PID= VIEW_PID=
stop() { # stop PID: end a process this script started (SIGTERM, then SIGKILL after 10 s)
	kill "$1" 2>/dev/null || return 0
	for _ in $(seq 100); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$1" 2>/dev/null && kill -9 "$1" 2>/dev/null && return 1
	wait "$1" 2>/dev/null
	return 0
}
cleanup() { # the processes still running (a stopped one's pid may be another's by now)
	[ -z "$VIEW_PID" ] || stop "$VIEW_PID"
	[ -z "$CHROME_PID" ] || stop "$CHROME_PID"
	rm -rf "$TMP"
}
trap cleanup EXIT

# One Chromium for every check; its DevTools address from the profile's DevToolsActivePort.
"$chromium" --headless=new --no-sandbox --disable-gpu --no-first-run --no-default-browser-check \
	--disable-dev-shm-usage --user-data-dir="$TMP/chrome" --remote-debugging-port=0 \
	--window-size=1200,800 about:blank >"$TMP/chrome.log" 2>&1 &
CHROME_PID=$!
for _ in $(seq 600); do
	[ -s "$TMP/chrome/DevToolsActivePort" ] && break
	kill -0 "$CHROME_PID" 2>/dev/null || break
	sleep 0.1
done
[ -s "$TMP/chrome/DevToolsActivePort" ] || {
	cat "$TMP/chrome.log"
	echo "FAIL - chromium did not start"
	exit 1
}
{ read -r port; read -r wspath; } <"$TMP/chrome/DevToolsActivePort"
export CHROME_WS="ws://127.0.0.1:$port$wspath" SPOOR
# caches of read-only traces: here, not in the user's
export XDG_CACHE_HOME=$TMP/cache

# serve TRACE: start `spoor view` on it, set VIEW_URL and VIEW_PID once it prints its URL
serve() {
	"$SPOOR" view "$@" >"$TMP/view.out" 2>"$TMP/view.err" &
	VIEW_PID=$!
	VIEW_URL=
	for _ in $(seq 1200); do
		VIEW_URL=$(grep -m 1 -o 'http://127\.0\.0\.1:[0-9]*/[0-9a-f]\{32\}/' "$TMP/view.out")
		[ -n "$VIEW_URL" ] && return 0
		kill -0 "$VIEW_PID" 2>/dev/null || break
		sleep 0.1
	done
	cat "$TMP/view.out" "$TMP/view.err"
	stop "$VIEW_PID"
	VIEW_PID=
	return 1
}
# run NAME FILE.mjs TRACE [VAR=VALUE...]: the checks of FILE against a view of TRACE
run() {
	local name=$1 file=$2 trace=$3 out rc
	shift 3
	echo "# $name: $file on $trace"
	if ! serve "$trace"; then
		fail "$name: spoor view $trace printed no URL"
		return
	fi
	out=$(env VIEW_URL="$VIEW_URL" TRACE="$trace" CASE="$name" "$@" node "$here/$file" 2>&1)
	rc=$?
	echo "$out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed$'
	local p f
	read -r p f < <(echo "$out" | sed -n -E 's/^([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' | tail -1)
	passed=$((passed + ${p:-0}))
	failed=$((failed + ${f:-0}))
	[ "$rc" -eq 0 ] || [ "${f:-0}" -gt 0 ] || fail "$name: node $file exited $rc"
	if ! kill -0 "$VIEW_PID" 2>/dev/null; then
		wait "$VIEW_PID"
		fail "$name: spoor view ended during the checks (status $?)"
	fi
	stop "$VIEW_PID" || fail "$name: spoor view did not stop within 10 s of SIGTERM"
	VIEW_PID=
	[ -s "$TMP/view.err" ] && sed 's/^/# spoor view: /' "$TMP/view.err"
}

busy=$(python3 "$SPOOR_TEST_DATA/gen_kernel.py" --busy "$TMP/busy") || exit 1
run access access.mjs "$busy"
run busy view.mjs "$busy"
python3 "$SPOOR_TEST_DATA/gen-damaged.py" "$TMP/damaged" >/dev/null || exit 1
run damaged damage.mjs "$TMP/damaged/unknown-id"

# function calls (issue 22): flame rows
if [ -n "${CALLS_TREE:-}" ] && [ -n "${DL_PROVIDER:-}" ] && command -v nm >/dev/null; then
	cp "$CALLS_TREE" "$TMP/calls-tree"
	strip -s "$TMP/calls-tree" -o "$TMP/calls-tree-stripped"
	python3 "$SPOOR_TEST_DATA/gen-calls.py" --prog "$TMP/calls-tree" \
		--stripped "$TMP/calls-tree-stripped" --lib "$DL_PROVIDER" "$TMP/calls" || exit 1
	run flame flame.mjs "$TMP/calls/calls-tree" FLAME="$TMP/calls/calls-tree.flame"
else
	echo "# skipped: the flame rows (CALLS_TREE, DL_PROVIDER or nm missing)"
fi

# a trace recorded here: kernel and user-space events on one timeline (marks)
if [ "$(id -u)" -ne 0 ]; then
	echo "# skipped: the recorded trace (spoor record -k needs root)"
elif [ "$(stat -f -c %T /sys/kernel/tracing 2>/dev/null)" != tracefs ] &&
	! mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; then
	echo "# skipped: the recorded trace (no tracefs at /sys/kernel/tracing, and it cannot be mounted)"
elif [ -z "${HELLO:-}" ]; then
	echo "# skipped: the recorded trace (HELLO is not set)"
elif "$SPOOR" record -k sched,syscalls,irq -o "$TMP/rec" -- "$HELLO" 200 2 >"$TMP/rec.log" 2>&1; then
	run recorded view.mjs "$TMP/rec" MARKS=1
else
	cat "$TMP/rec.log"
	fail "spoor record -k sched,syscalls,irq -- hello 200 2"
fi

lttng=${SHARED_TRACES:-}/lttng/many-threads
if [ -n "${SHARED_TRACES:-}" ] && [ -d "$lttng" ]; then
	# the cache goes beside the trace, or to the user's cache when it is read-only: a copy
	cp -r "$lttng" "$TMP/many-threads"
	run many-threads view.mjs "$TMP/many-threads"
else
	echo "# skipped: many-threads (no \$SHARED_TRACES/lttng/many-threads)"
fi
finish
