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
	local what=$2
	[ ${#what} -le 120 ] || what="${what:0:100}...(${#what} bytes)"
	check "${3:-GET} $what: $1 ($got)" test "$got" = "$1"
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
wait_meta() { # api/meta answers 503 while the cache is built: until it answers 200
	local code
	for _ in $(seq 600); do
		code=$(get "/$(token)/api/meta")
		[ "$code" = 503 ] || break
		check "api/meta 503 while the cache is built: says so" \
			python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); assert d["error"] and 0 <= d["progress"] <= 1' "$TMP/body"
		sleep 0.1
	done
	check "api/meta: 200 once the cache is built ($code)" test "$code" = 200
	cp "$TMP/body" "$TMP/meta.json"
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

# api/meta: the traces, where they start (the first event), the rows and processes
wait_meta
check "api/meta: application/json" grep -qi '^Content-Type: application/json' "$TMP/headers"
ORIGIN=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["origin"])' "$TMP/meta.json")
first=$("$SPOOR" dump -n 1 "$busy" | awk '{print $1}' | tr -d .)
check "api/meta: origin $ORIGIN = the first event's time ($first)" test "$ORIGIN" = "$((10#$first))"
check "api/meta: the cache beside the trace" test -f "$busy/.spoor-view.cache"
check "api/meta: the rows and processes of the busy trace" python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["version"] == 1 and m["traces"] == [sys.argv[2]], m["traces"]
assert m["cache"] == sys.argv[2] + "/.spoor-view.cache", m["cache"]
assert [s["name"] for s in m["states"]] == ["unknown", "user", "syscall", "irq", "softirq",
    "wait_cpu", "blocked", "running", "idle"], m["states"]
rows = m["rows"]
assert [r["id"] for r in rows] == list(range(len(rows)))
cpus = sorted(r["cpu"] for r in rows if r["kind"] == "cpu")
assert cpus == [0, 1, 2, 3], cpus
threads = {r["tid"]: r for r in rows if r["kind"] == "thread"}
want = {1000 + i: ("multithread", 1000) for i in range(4)}
want.update({2000 + c: ("worker-%d" % c, 2000 + c) for c in range(4)})
want[5000] = ("rm", 5000)
for tid, (name, pid) in want.items():
    assert tid in threads, (tid, sorted(threads))
    assert (threads[tid]["name"], threads[tid]["pid"]) == (name, pid), threads[tid]
    assert 0 <= threads[tid]["first"] <= threads[tid]["last"] <= m["duration"], threads[tid]
procs = {p["pid"]: p for p in m["processes"]}
assert procs[1000]["name"] == "multithread", procs[1000]
assert sorted(rows[i]["tid"] for i in procs[1000]["rows"]) == [1000, 1001, 1002, 1003], procs[1000]
assert sum(len(p["rows"]) for p in m["processes"]) == len(threads)
assert "read" in m["syscalls"] and "openat" in m["syscalls"], m["syscalls"]
names = [c["name"] for c in m["classes"]]
assert "sched_switch" in names and not any(c["user"] for c in m["classes"])
assert m["damage"] == [] and m["lost"] == 0
' "$TMP/meta.json" "$busy"
row_of() { # row_of thread|cpu ID: the row's index
	python3 -c 'import json,sys
m = json.load(open(sys.argv[1]))
print([r["id"] for r in m["rows"] if r["kind"] == sys.argv[2] and r[{"thread": "tid", "cpu": "cpu"}[sys.argv[2]]] == int(sys.argv[3])][0])' \
		"$TMP/meta.json" "$1" "$2"
}

# api/spans: thread 1001 reads on CPU 1 at round 100 from 1000 + 100 * 1000 + 7 for
# 60 ns (gen_kernel.busy; its first event, relative 0, at 10): a syscall span of read,
# [100997, 101057), on its row and on CPU 1's (whose value is then the thread)
r1001=$(row_of thread 1001)
rcpu1=$(row_of cpu 1)
status 200 "/$TOKEN/api/spans?rows=$r1001,$rcpu1&t0=100990&t1=101070&px=80"
check "api/spans: read's syscall span on thread 1001's row and CPU 1's" python3 -c '
import json, sys
m, d = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
read, syscall = m["syscalls"].index("read"), [s["name"] for s in m["states"]].index("syscall")
thread, cpu = d["rows"]
assert thread["id"] == int(sys.argv[3]) and cpu["id"] == int(sys.argv[4]), d
assert [100997, 101057, syscall, read, 1] in thread["rects"], thread
assert [100997, 101057, syscall, 1001, 1] in cpu["rects"], cpu
' "$TMP/meta.json" "$TMP/body" "$r1001" "$rcpu1"
# the whole trace on 100 pixels: few rects, in order, in the range
status 200 "/$TOKEN/api/spans?rows=$(seq -s, 0 $(($(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["rows"]))' "$TMP/meta.json") - 1)))&t0=0&t1=400000&px=100"
check "api/spans, all rows on 100 pixels: at most 2 rects a pixel, in order, within the range" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rows"]
for r in d["rows"]:
    rects = r["rects"]
    assert len(rects) <= 2 * 100 + 2, (r["id"], len(rects))
    for a, b in zip(rects, rects[1:]):
        assert a[1] <= b[0], (r["id"], a, b)
    for x in rects:
        assert 0 <= x[0] < x[1] <= 400000 and x[4] >= 1, (r["id"], x)
assert any(x[4] > 1 for r in d["rows"] for x in r["rects"]), "no merged rects"
' "$TMP/body"
# api/marks: none in a kernel trace; api/rate: the events of each class
status 200 "/$TOKEN/api/marks?rows=$r1001&t0=0&t1=400000&px=100"
check "api/marks: none in a kernel trace" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d == {"rows": [{"id": int(sys.argv[2]), "marks": []}]}, d' "$TMP/body" "$r1001"
status 200 "/$TOKEN/api/rate?t0=0&t1=1000000&bins=50"
"$SPOOR" stats --json "$busy" >"$TMP/stats.json"
check "api/rate: the 8 busiest classes, their counts adding up to spoor stats'" python3 -c '
import json, sys
m, d, st = (json.load(open(f)) for f in sys.argv[1:4])
assert d["bins"] == 50 and len(d["series"]) == 8, d
by_name = st["by_name"]
busiest = sorted(by_name.values(), reverse=True)[:8]
got = [by_name[m["classes"][s["class"]]["name"]] for s in d["series"]]
assert got == busiest, (got, busiest)
for s in d["series"]:
    assert len(s["counts"]) == 50
    want = by_name[m["classes"][s["class"]]["name"]]
    assert abs(sum(s["counts"]) - want) < 1e-6 * want, (s["class"], sum(s["counts"]), want)
' "$TMP/meta.json" "$TMP/body" "$TMP/stats.json"
sw=$(python3 -c 'import json,sys; print([c["name"] for c in json.load(open(sys.argv[1]))["classes"]].index("sched_switch"))' "$TMP/meta.json")
status 200 "/$TOKEN/api/rate?t0=0&t1=1000000&bins=4&classes=$sw"
check "api/rate classes=sched_switch: one series, its switches" python3 -c '
import json, sys
d, st = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert d["bins"] == 4 and [s["class"] for s in d["series"]] == [int(sys.argv[3])], d
assert abs(sum(d["series"][0]["counts"]) - st["by_name"]["sched_switch"]) < 1e-6' \
	"$TMP/body" "$TMP/stats.json" "$sw"

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
# the want: CPU 1's lines while 1001 runs there (it does at 100000: the trace names no
# task in its events, but the cache's CPU row knows), from the switches
range_dump 100000 130000 | awk -v tid=1001 '$2 == "cpu1" {
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
# the threads of a big selection, as many as a list may hold (a URL of 33 kB: more than
# libmicrohttpd's default takes)
status 200 "/$TOKEN/api/stats?t0=0&t1=300000&tids=1001,2001,$(seq -s, 1000000 1004093)"
stats_of sched >"$TMP/sched.many"
check "api/stats with 4,096 tids: the same as with the two that ran" cmp -s "$TMP/sched.many" "$TMP/sched.got"

# bad parameters: 400 with a JSON error
for q in "events?t1=5" "events?t0=5" "events?t0=x&t1=5" "events?t0=5&t1=4" "events?t0=1e3&t1=5000" \
	"events?t0=0&t1=5&limit=0" "events?t0=0&t1=5&limit=10001" "events?t0=0&t1=5&limit=-1" \
	"events?t0=0&t1=5&tid=x" "events?t0=0&t1=5&pid=-2" "events?t0=0&t1=5&name=" \
	"events?t0=99999999999999999999&t1=5" "events?t0=0&t1=9223372036854775807" \
	"stats?t0=0" "stats?t0=0&t1=5&tids=1,,2" "stats?t0=0&t1=5&tids=a" "stats?t0=0&t1=5&tids=-1" \
	"spans?rows=0&t0=0&t1=0&px=10" "spans?rows=0&t0=0&t1=5" "spans?rows=0&t0=0&t1=5&px=0" \
	"spans?rows=0&t0=0&t1=5&px=16385" "spans?rows=99999&t0=0&t1=5&px=10" "spans?rows=0,x&t0=0&t1=5&px=10" \
	"marks?rows=0&t0=5&t1=0&px=10" "marks?rows=-1&t0=0&t1=5&px=10" "rate?t0=0&t1=5" \
	"rate?t0=0&t1=5&bins=0" "rate?t0=0&t1=5&bins=4&classes=99999" \
	"spans?rows=$(printf '0,%.0s' $(seq 1100))0&t0=0&t1=5&px=16384"; do
	status 400 "/$TOKEN/api/$q"
	check "api/${q:0:100}: a JSON error" python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["error"]' "$TMP/body"
done

# limits: a request for more than a screenful gets 400 at once, whatever it would cost;
# the server's memory stays that of small answers (a class 4,000 times at 16,384 bins was
# a body of 130 MB)
for q in "rate?t0=0&t1=300000&bins=16384&classes=$(printf '0,%.0s' $(seq 3999))0" \
	"rate?t0=0&t1=300000&bins=4&classes=1,0,1" "spans?rows=0,1,0&t0=0&t1=5&px=10" \
	"marks?rows=1,1&t0=0&t1=5&px=10" "stats?t0=0&t1=300000&tids=1001,2001,1001" \
	"stats?t0=0&t1=300000&tids=$(seq -s, 1000000 1004096)"; do
	status 400 "/$TOKEN/api/$q"
	check "api/${q:0:100}: a JSON error" python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["error"]' "$TMP/body"
done
hwm=$(awk '/^VmHWM/ { print $2 }' /proc/$PID/status)
check "the server's peak memory stays small (${hwm} kB)" test "$hwm" -lt 65536

# Host: only 127.0.0.1:PORT and localhost:PORT (a web page's DNS name rebound to 127.0.0.1
# is not ours)
PORT=$(sed -E 's|^http://127\.0\.0\.1:([0-9]+)/.*|\1|' <<<"$URL")
host() { curl -s -o /dev/null -w '%{http_code}' -H "Host: $1" "$URL"; }
for h in "127.0.0.1:$PORT" "localhost:$PORT"; do
	check "Host: $h: 200" test "$(host "$h")" = 200
done
for h in "evil.example:$PORT" "evil.example" "127.0.0.1" "localhost" "localhost:1" \
	"127.0.0.1:$PORT.evil.example" "[::1]:$PORT"; do
	check "Host: $h: 403" test "$(host "$h")" = 403
done
check "no Host (HTTP/1.0): 403" test "$(curl -s -0 -o /dev/null -w '%{http_code}' -H 'Host:' "$URL")" = 403

# 70 idle connections of someone without the token (any local user can connect): the
# user's requests still answer
python3 -c 'import socket, sys, time
conns = []
for _ in range(70):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.sendall(b"GET / HTTP/1.1\r\n")
    conns.append(s)
print("ready", flush=True)
time.sleep(600)' "$PORT" >"$TMP/idle" &
IDLE=$!
for _ in $(seq 200); do [ -s "$TMP/idle" ] && break; sleep 0.05; done
status 200 "/$TOKEN/api/meta"
status 200 "/$TOKEN/"
kill $IDLE
wait $IDLE 2>/dev/null
stop
check "nothing on stderr" test ! -s "$TMP/err"

# user-space events: marks on their threads' rows, as many as the trace has (a copy: the
# cache goes beside the trace)
cp -r "$SPOOR_TEST_DATA/traces/ust-types" "$TMP/ust"
start "$TMP/ust"
wait_meta
"$SPOOR" dump "$TMP/ust" | grep -o ' vtid=[0-9]*' | sort | uniq -c | awk '{print substr($2, 6), $1}' >"$TMP/marks.want"
python3 -c 'import json,sys
m = json.load(open(sys.argv[1]))
print(",".join(str(r["id"]) for r in m["rows"] if r["kind"] == "thread"))' "$TMP/meta.json" >"$TMP/rows"
status 200 "/$(token)/api/marks?rows=$(cat "$TMP/rows")&t0=0&t1=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["duration"] + 1)' "$TMP/meta.json")&px=64"
python3 -c 'import json,sys
m, d = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
for r in d["rows"]:
    n = sum(x[2] for x in r["marks"])
    if n:
        print(m["rows"][r["id"]]["tid"], n)
    assert len(r["marks"]) <= 64
    assert all(m["classes"][x[1]]["user"] for x in r["marks"])' "$TMP/meta.json" "$TMP/body" | sort >"$TMP/marks.got"
check "api/marks: each thread's user-space events ($(tr '\n' ' ' <"$TMP/marks.want"))" cmp -s "$TMP/marks.got" "$TMP/marks.want"
stop

# a real LTTng kernel trace, when there (a copy: the cache goes beside the trace): the
# events and statistics of a range in its middle as the commands print them
if [ -d "${SHARED_TRACES:-}/lttng/many-threads" ]; then
	cp -r "$SHARED_TRACES/lttng/many-threads" "$TMP/mt"
	start "$TMP/mt"
	wait_meta
	read -r O t0 t1 < <(python3 -c 'import json,sys
m = json.load(open(sys.argv[1])); d = m["duration"]
print(m["origin"], d // 3, d // 3 + d // 200)' "$TMP/meta.json")
	status 200 "/$(token)/api/events?t0=$t0&t1=$t1&limit=10000"
	jtext >"$TMP/events.got"
	"$SPOOR" dump --begin $((O + t0)) --end $((O + t1)) "$TMP/mt" | head -n 10000 >"$TMP/events.want"
	check "many-threads: api/events = spoor dump's $(wc -l <"$TMP/events.want") lines" \
		cmp -s "$TMP/events.got" "$TMP/events.want"
	status 200 "/$(token)/api/stats?t0=$t0&t1=$t1"
	for a in sched irq syscalls; do
		stats_of $a >"$TMP/$a.got"
		"$SPOOR" $a --begin $((O + t0)) --end $((O + t1)) "$TMP/mt" >"$TMP/$a.want" 2>/dev/null
		check "many-threads: api/stats $a = spoor $a --begin --end" cmp -s "$TMP/$a.got" "$TMP/$a.want"
	done
	stop
fi

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
