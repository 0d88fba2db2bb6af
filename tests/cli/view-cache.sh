#!/usr/bin/env bash
# spoor view and its timeline cache's builder (docs/view-cache.md): the builder is forked
# before any thread exists (strace: the fork's clone comes before the first thread's), and
# a server stopped during a build (SIGTERM) leaves no file in the trace and no builder.
# Trace: 40 copies of tests/data/gen_kernel.py's busy trace in one folder (a build long
# enough to be caught and stopped). The cache's files themselves: tests/unit/test-timeline-cache.c.
. "$(dirname "$0")/lib.sh"
need curl curl

busy=$(python3 "$SPOOR_TEST_DATA/gen_kernel.py" --busy "$TMP/busy")

# children PID: the children of every thread of process PID
children() { cat /proc/"$1"/task/*/children 2>/dev/null; }

# wait_url OUT PID: the URL the server writes to OUT first (empty when it ended)
wait_url() {
	for _ in $(seq 400); do
		[ -s "$1" ] && break
		kill -0 "$2" 2>/dev/null || break
		sleep 0.05
	done
	head -n 1 "$1" 2>/dev/null
}

# ---- the builder is forked before the server's threads start ----
if command -v strace >/dev/null; then
	rm -f "$busy"/.spoor*
	strace -f -qq -o "$TMP/strace" -e trace=clone,clone3,fork,vfork \
		"$SPOOR" view "$busy" >"$TMP/out1" 2>"$TMP/err1" &
	tracer=$!
	url=$(wait_url "$TMP/out1" $tracer)
	check "under strace: prints a URL" test -n "$url"
	for _ in $(seq 600); do # until the cache is built
		code=$(curl -s -o /dev/null -w '%{http_code}' "${url}api/meta")
		[ "$code" = 503 ] || break
		sleep 0.1
	done
	check "under strace: api/meta 200 ($code)" test "$code" = 200
	server=$(children $tracer | awk '{print $1}')
	[ -n "$server" ] && kill -TERM "$server"
	wait $tracer
	# the first clone that makes a process (no CLONE_THREAD) comes before the first thread
	first() { grep -nE "$1" "$TMP/strace" | head -n 1 | cut -d: -f1; }
	fork_at=$(grep -nE '(clone|clone3|fork|vfork)\(' "$TMP/strace" | grep -v CLONE_THREAD |
		head -n 1 | cut -d: -f1)
	thread_at=$(first 'CLONE_THREAD')
	check "the builder is forked (line ${fork_at:-none}) before any thread starts (line ${thread_at:-none})" \
		test -n "$fork_at" -a -n "$thread_at" -a "${fork_at:-0}" -lt "${thread_at:-0}"
else
	echo "# strace is not installed: the fork's order is not checked"
fi

# ---- SIGTERM during a build: no file left in the trace, no builder left ----
big=$TMP/big
mkdir -p "$big"
for i in $(seq -w 1 40); do cp -r "$busy" "$big/c$i" && rm -f "$big/c$i"/.spoor*; done
caught=
for attempt in 1 2 3 4 5; do
	rm -rf "$big"/.spoor*
	"$SPOOR" view "$big" >"$TMP/out2" 2>"$TMP/err2" &
	pid=$!
	builder=
	while kill -0 $pid 2>/dev/null && [ ! -e "$big/.spoor-view.cache" ]; do
		builder=$(children $pid | awk '{print $1}')
		[ -n "$builder" ] && kill -STOP "$builder" 2>/dev/null && break
		builder=
	done
	if [ -n "$builder" ] && [ ! -e "$big/.spoor-view.cache" ]; then
		caught=$attempt
		kill -TERM $pid
		wait $pid
		check "SIGTERM during a build: exit 0" test $? -eq 0
		check "SIGTERM during a build: the builder ($builder) is gone" \
			sh -c "! kill -0 $builder 2>/dev/null"
		left=$(ls -A "$big" | grep -v '^c[0-9]*$')
		check "SIGTERM during a build: no file left in the trace (${left:-none})" test -z "$left"
		break
	fi
	# the build ended before its builder could be stopped: again
	kill -TERM $pid 2>/dev/null
	wait $pid
done
[ -n "$caught" ] || echo "# the builds all ended before they could be stopped: not checked"
finish
