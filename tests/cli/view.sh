#!/usr/bin/env bash
# spoor view: the URL and its token (403 without it), nothing but the page and the API
# under it (404 for traversal, raw and percent-encoded), the embedded assets, the API's
# answers against the commands that print the same (dump, sched, irq, syscalls), bad
# parameters (400), SIGTERM (exit 0), and --open (a 0600 file, no token on a command line).
# Trace: tests/data/gen_kernel.py's busy trace.
. "$(dirname "$0")/lib.sh"
need curl curl

busy=$(python3 "$SPOOR_TEST_DATA/gen_kernel.py" --busy "$TMP/busy")
WEB=$(dirname "$0")/../../web

# get PATH [METHOD]: the status; the body in $TMP/body, the headers in $TMP/headers. The
# path goes out as it is (--path-as-is: curl neither normalises nor encodes it).
get() {
	curl -s --path-as-is -X "${2:-GET}" -o "$TMP/body" -D "$TMP/headers.raw" -w '%{http_code}' \
		"${URL%/*/}$1"
	tr -d '\r' <"$TMP/headers.raw" >"$TMP/headers"
}
status() { # status WANT PATH [METHOD]
	local got
	got=$(get "$2" "${3:-GET}")
	check "${3:-GET} $2: $1 ($got)" test "$got" = "$1"
}

# start ARGS...: spoor view in the background, $PID and $URL (from its first line)
start() {
	rm -f "$TMP/out" # the last server's URL must not pass for this one's
	"$SPOOR" view "$@" >"$TMP/out" 2>"$TMP/err" &
	PID=$!
	for _ in $(seq 200); do
		[ -s "$TMP/out" ] && break
		kill -0 $PID 2>/dev/null || break
		sleep 0.05
	done
	URL=$(head -n 1 "$TMP/out" 2>/dev/null)
	[ -n "$URL" ] || { echo "spoor view $* printed no URL:"; cat "$TMP/err"; }
}
stop() { # SIGTERM: exit 0
	kill -TERM $PID
	wait $PID
	check "SIGTERM: exit 0" test $? -eq 0
}

start "$busy"
check "prints http://127.0.0.1:PORT/TOKEN/ ($URL)" \
	grep -qE '^http://127\.0\.0\.1:[0-9]+/[0-9a-f]{32}/$' <<<"$URL"
token() { sed -E 's|.*/([0-9a-f]{32})/$|\1|' <<<"$URL"; }
TOKEN=$(token)
WRONG=$(tr 0-9a-f 1-9a-f0 <<<"$TOKEN")

# without the token, or with a wrong one: 403
status 403 /
status 403 /index.html
status 403 /api/meta
status 403 "/$TOKEN"
status 403 "/$WRONG/"
status 403 "/$WRONG/api/meta"
status 403 "/${TOKEN:0:31}/"
status 403 "/${TOKEN}0/"
status 403 "/../$TOKEN/"
status 403 "/%2e%2e/$TOKEN/"
# under it: only the page and the API, by exact name
for p in "../$TOKEN/view.js" "%2e%2e/$TOKEN/view.js" "..%2f$TOKEN%2fview.js" "..%2F..%2Fetc%2Fpasswd" \
	"../../../../etc/passwd" "%2e%2e/%2e%2e/etc/passwd" "/view.js" "./view.js" "%2fview.js" \
	"view.js/" "view.js%2f" "%76iew.js" "view.js%00" "api/../view.js" "api/%2e%2e/view.js" \
	"api/meta/" "api//meta" "api" "api/" "api/nothing" "embed.py" "nothing" "index.html/"; do
	status 404 "/$TOKEN/$p"
done
status 405 "/$TOKEN/" POST

# the assets, byte for byte, with their types and headers
status 200 "/$TOKEN/"
check "/ is web/index.html" cmp -s "$TMP/body" "$WEB/index.html"
check "index.html: text/html" grep -qi '^Content-Type: text/html' "$TMP/headers"
check "Cache-Control: no-store" grep -qi '^Cache-Control: no-store$' "$TMP/headers"
check "Content-Security-Policy: default-src 'self'" \
	grep -qi "^Content-Security-Policy: default-src 'self';" "$TMP/headers"
status 200 "/$TOKEN/index.html"
check "index.html is web/index.html" cmp -s "$TMP/body" "$WEB/index.html"
status 200 "/$TOKEN/view.js"
check "view.js is web/view.js" cmp -s "$TMP/body" "$WEB/view.js"
check "view.js: text/javascript" grep -qi '^Content-Type: text/javascript' "$TMP/headers"
check "view.js: Cache-Control: no-store" grep -qi '^Cache-Control: no-store$' "$TMP/headers"
status 200 "/$TOKEN/view.css"
check "view.css is web/view.css" cmp -s "$TMP/body" "$WEB/view.css"

# api/meta: the traces and where they start (the first event)
status 200 "/$TOKEN/api/meta"
check "api/meta: application/json" grep -qi '^Content-Type: application/json' "$TMP/headers"
ORIGIN=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["origin"])' "$TMP/body")
first=$("$SPOOR" dump -n 1 "$busy" | awk '{print $1}' | tr -d .)
check "api/meta: origin $ORIGIN = the first event's time ($first)" test "$ORIGIN" = "$((10#$first))"
check "api/meta names the trace" python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["version"] == 1 and m["traces"] == [sys.argv[2]], m' "$TMP/body" "$busy"

# api/events: spoor dump's lines on the same range
jtext() { python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for e in d["events"]: print(e["text"])
print("more" if d["more"] else "all", file=open(sys.argv[2], "w"))' "$TMP/body" "$TMP/more"; }
range_dump() { "$SPOOR" dump --begin $((ORIGIN + $1)) --end $((ORIGIN + $2)) "${@:3}" "$busy"; }
status 200 "/$TOKEN/api/events?t0=100000&t1=130000&limit=10000"
jtext >"$TMP/events.got"
range_dump 100000 130000 >"$TMP/events.want"
n=$(wc -l <"$TMP/events.want")
check "api/events: the $n lines of spoor dump --begin --end" cmp -s "$TMP/events.got" "$TMP/events.want"
check "api/events: all of them (more: false)" grep -qx all "$TMP/more"
check "api/events: each event's t, cpu and name are its line's" python3 -c '
import json, sys
origin = int(sys.argv[2])
for e in json.load(open(sys.argv[1]))["events"]:
    sec, cpu, name = e["text"].split()[:3]
    assert int(sec.replace(".", "")) - origin == e["t"], e
    assert cpu == "cpu%d" % e["cpu"] and name == e["name"] + ":", e' "$TMP/body" "$ORIGIN"
status 200 "/$TOKEN/api/events?t0=100000&t1=130000&limit=7"
jtext >"$TMP/events.got"
check "api/events limit=7: the first 7 lines" cmp -s "$TMP/events.got" <(head -n 7 "$TMP/events.want")
check "api/events limit=7: more: true" grep -qx more "$TMP/more"
status 200 "/$TOKEN/api/events?t0=0&t1=400000&name=irq_handler_*&limit=10000"
jtext >"$TMP/events.got"
range_dump 0 400000 -e 'irq_handler_*' >"$TMP/events.want"
check "api/events name=irq_handler_*: spoor dump -e's $(wc -l <"$TMP/events.want") lines" \
	cmp -s "$TMP/events.got" "$TMP/events.want"
# tid: thread 1001 runs alone on CPU 1 but for worker-1's turns (every 8th round, from
# round 4 on: 600-700 ns into it)
status 200 "/$TOKEN/api/events?t0=100000&t1=130000&tid=1001&limit=10000"
check "api/events tid=1001: only its events" python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
assert ev and all(e["tid"] == 1001 and e["cpu"] == 1 for e in ev), ev[:3]' "$TMP/body"
jtext >"$TMP/events.got"
# the want: CPU 1's lines while 1001 runs there, from the switches in the range (the
# trace names no task in its other events: before the range's first switch, unknown)
range_dump 100000 130000 | awk -v tid=-1 '$2 == "cpu1" {
	if (tid == 1001) print
	if ($3 == "sched_switch:") for (i = 4; i <= NF; i++) if ($i ~ /^next_tid=/) tid = substr($i, 10) + 0
}' >"$TMP/events.want"
check "api/events tid=1001: CPU 1's lines while it runs there ($(wc -l <"$TMP/events.want"))" \
	cmp -s "$TMP/events.got" "$TMP/events.want"
status 200 "/$TOKEN/api/events?t0=100000&t1=130000&pid=2001&limit=10000"
check "api/events pid=2001: worker-1's getpid calls" python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
assert ev and all(e["tid"] == 2001 for e in ev), ev[:3]
assert any(e["name"] == "syscall_entry_getpid" for e in ev), ev' "$TMP/body"

# api/stats: what the commands print on the same range (and threads)
stats_of() { python3 -c 'import json,sys; sys.stdout.write(json.load(open(sys.argv[1]))[sys.argv[2]])' "$TMP/body" "$1"; }
status 200 "/$TOKEN/api/stats?t0=100000&t1=200000"
for a in sched irq syscalls; do
	stats_of $a >"$TMP/$a.got"
	"$SPOOR" $a --begin $((ORIGIN + 100000)) --end $((ORIGIN + 200000)) "$busy" >"$TMP/$a.want"
	check "api/stats $a = spoor $a --begin --end" cmp -s "$TMP/$a.got" "$TMP/$a.want"
done
status 200 "/$TOKEN/api/stats?t0=0&t1=300000&tids=1001,2001"
for a in sched irq syscalls; do
	stats_of $a >"$TMP/$a.got"
	"$SPOOR" $a --begin "$ORIGIN" --end $((ORIGIN + 300000)) --tid 1001 --tid 2001 "$busy" >"$TMP/$a.want"
	check "api/stats tids=1001,2001 $a = spoor $a --tid 1001 --tid 2001" cmp -s "$TMP/$a.got" "$TMP/$a.want"
done
check "api/stats sched: the threads asked for" grep -qE '^ +1001 +1000 multithread' "$TMP/sched.got"

# bad parameters: 400 with a JSON error
for q in "events?t1=5" "events?t0=5" "events?t0=x&t1=5" "events?t0=5&t1=4" "events?t0=1e3&t1=5000" \
	"events?t0=0&t1=5&limit=0" "events?t0=0&t1=5&limit=10001" "events?t0=0&t1=5&limit=-1" \
	"events?t0=0&t1=5&tid=x" "events?t0=0&t1=5&pid=-2" "events?t0=0&t1=5&name=" \
	"events?t0=99999999999999999999&t1=5" "events?t0=0&t1=9223372036854775807" \
	"stats?t0=0" "stats?t0=0&t1=5&tids=1,,2" "stats?t0=0&t1=5&tids=a" "stats?t0=0&t1=5&tids=-1"; do
	status 400 "/$TOKEN/api/$q"
	check "api/$q: a JSON error" python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["error"]' "$TMP/body"
done
stop
check "nothing on stderr" test ! -s "$TMP/err"

# --open: the browser gets a private 0600 file that redirects, never the token
cat >"$TMP/browser" <<SH
#!/bin/sh
printf '%s\n' "\$@" >"$TMP/argv"
stat -c %a "\$1" >"$TMP/mode"
stat -c %a "\$(dirname "\$1")" >"$TMP/dirmode"
cp "\$1" "$TMP/page.tmp"
mv "$TMP/page.tmp" "$TMP/page"
SH
chmod +x "$TMP/browser"
BROWSER="$TMP/browser" start --open "$busy"
for _ in $(seq 200); do [ -s "$TMP/page" ] && break; sleep 0.05; done
check "--open: the browser is given one file" test "$(wc -l <"$TMP/argv")" -eq 1
check "--open: no token on its command line" bash -c "! grep -q '$(token)' '$TMP/argv'"
check "--open: the file is 0600" test "$(cat "$TMP/mode")" = 600
check "--open: in a 0700 folder" test "$(cat "$TMP/dirmode")" = 700
check "--open: the file redirects to the URL" grep -q "url=$URL\"" "$TMP/page"
file=$(head -n 1 "$TMP/argv")
stop
check "--open: the file is gone at the end" test ! -e "$file"
# no opener: said, and the server goes on
BROWSER=/nonexistent/browser start --open "$busy"
status 200 "/$(token)/view.js"
check "--open without an opener: said on stderr" grep -q 'cannot run /nonexistent/browser' "$TMP/err"
stop

# --port N: that port; bad input
"$SPOOR" view --port 70000 "$busy" >/dev/null 2>"$TMP/err"
check "--port 70000: usage error (exit 2)" test $? -eq 2
"$SPOOR" view "$TMP/nonexistent" >/dev/null 2>"$TMP/err"
check "a missing trace: exit 1" test $? -eq 1
check "a missing trace: said" grep -q "spoor view: .*nonexistent" "$TMP/err"
"$SPOOR" view >/dev/null 2>&1
check "no trace: usage error (exit 2)" test $? -eq 2
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start --port "$port" "$busy"
check "--port $port: listens there" grep -q "^http://127.0.0.1:$port/" <<<"$URL"
"$SPOOR" view --port "$port" "$busy" >/dev/null 2>"$TMP/err2"
check "--port of a port in use: exit 1, said" bash -c "test $? -eq 1 && grep -q 'cannot listen on 127.0.0.1:$port' '$TMP/err2'"
stop

finish
