#!/usr/bin/env bash
# spoor daemon and spoor session: a real daemon on a private socket, stopped by its pid,
# tracing tests/programs/service (emits only when told, so the counts are known), the
# traces compared with babeltrace2. Kernel parts need root and tracefs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"
: "${SERVICE:?}"
need babeltrace2 babeltrace2
need python3 python3

private_daemon user
PROGRAMS=()
trap 'stop_daemon; for p in "${PROGRAMS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT

# service STATUSFILE [OPTIONS]: start one, wait for its status line; its pid in $svc
service() {
	rm -f "$1"
	"$SERVICE" "${@:2}" "$1" &
	svc=$!
	PROGRAMS+=("$svc")
	while ! grep -q "^pid $svc " "$1" 2>/dev/null; do sleep 0.02; done
}
# batch STATUSFILE PID N: one more batch (SIGUSR1), then wait until it is emitted
batch() {
	local want
	want=$(($(awk '{print $4}' "$1") + 1))
	kill -USR1 "$2"
	while [ "$(awk '{print $4}' "$1" 2>/dev/null)" != "$want" ]; do sleep 0.02; done
}
rounds() { awk '{print $6}' "$1"; }
# count TRACE EVENT: events of that name babeltrace2 reads
count() { babeltrace2 "$1" 2>/dev/null | grep -c " $2: " || true; }
# wait until `spoor session list NAME` shows the text
wait_list() {
	while ! S list "$1" 2>/dev/null | grep -q -- "$2"; do sleep 0.02; done
}

# ---- the daemon as a process ----
start_daemon
check "daemon: detached, it returns once the socket listens" test -S "$SOCK"
pid=$(daemon_pid)
check "daemon: pid file next to the socket, the daemon's pid" kill -0 "$pid"
check "daemon: log next to the pid file" grep -q "listening on $SOCK" "$TMP/run/daemon.log"
start_daemon 2>"$TMP/twice.err"
check "daemon: a second one on the same socket fails" test $? -eq 1
check "daemon: ... saying which runs" grep -q "a daemon already runs (pid $pid)" "$TMP/twice.err"
stop_daemon
check "daemon: SIGTERM ends it, its socket and pid file removed" \
	test ! -e "$SOCK" -a ! -e "$TMP/run/daemon.pid"
# a stale socket (nobody listens) is replaced
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); s.bind(sys.argv[1])' "$SOCK"
start_daemon
check "daemon: a stale socket is replaced" S list
stop_daemon
# spoor session without --socket: the user's daemon when one listens, else the system's
mkdir -p "$TMP/sys"
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); s.bind(sys.argv[1])' "$TMP/run/stale.sock"
"$SPOOR" daemon --socket "$TMP/sys/daemon.sock"
SPOOR_DAEMON_SOCKET= SPOOR_USER_SOCKET=$TMP/run/stale.sock SPOOR_SYSTEM_SOCKET=$TMP/sys/daemon.sock \
	"$SPOOR" session list >"$TMP/pick.out" 2>&1
check "session: a stale user socket, the system daemon answers" grep -q "^no sessions" "$TMP/pick.out"
sys=$(cat "$TMP/sys/daemon.pid")
kill "$sys" && wait_gone "$sys"
rm -f "$TMP/run/stale.sock"
"$SPOOR" daemon --frobnicate 2>"$TMP/bad.err"
check "daemon: a bad option is a usage error" test $? -eq 2
S list 2>"$TMP/nod.err"
check "session: no daemon: exit 1" test $? -eq 1
check "session: no daemon: says so" grep -q "no session daemon listens on $SOCK" "$TMP/nod.err"

# ---- sessions without programs: the verbs and their errors ----
start_daemon
S create s1 >"$TMP/create.out"
check "create: default directory ~/spoor-traces/NAME-DATE-TIME" \
	grep -q "^session s1 created: trace in $HOME/spoor-traces/s1-[0-9]\{8\}-[0-9]\{6\}$" "$TMP/create.out"
S create s1 2>"$TMP/dup.err"
check "create: a name taken is an error" test $? -eq 1
check "create: ... said" grep -q "a session named 's1' exists" "$TMP/dup.err"
mkdir -p "$TMP/full" && touch "$TMP/full/x"
S create s2 -o "$TMP/full" 2>"$TMP/full.err"
check "create: -o DIR not empty is refused" test $? -eq 1
check "create: ... with no --force offered (create has none)" \
	bash -c "grep -q 'is not empty' '$TMP/full.err' && ! grep -q -- --force '$TMP/full.err'"
S create s2 -b 3k 2>/dev/null
check "create: a bad -b is a usage error" test $? -eq 2
S create s2 --subbuffers 3 2>/dev/null
check "create: a bad --subbuffers is a usage error" test $? -eq 2
S create s2 --rotate-every 3x 2>/dev/null
check "create: a bad --rotate-every is a usage error" test $? -eq 2
S create 'bad/name' 2>/dev/null
check "create: a bad name is a usage error" test $? -eq 2
S create 2>/dev/null
check "create: no name is a usage error" test $? -eq 2
# --layout: an unknown one refused by the client, and by the daemon in a request of its own
S create lx --layout=ftrace -o "$TMP/lx" 2>"$TMP/lx.err"
check "create --layout=ftrace: a usage error" test $? -eq 2
check "... naming the layouts" grep -q "unknown layout 'ftrace' (spoor or lttng)" "$TMP/lx.err"
S enable s1 --layout=lttng -k sched 2>/dev/null
check "enable --layout: not an option of enable (a usage error)" test $? -eq 2
python3 - "$SOCK" "$TMP/lx" <<'EOF' >"$TMP/lx.out" 2>&1
import socket, struct, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect(sys.argv[1])
body = ("verb create\nname lx\noutput %s\nlayout ftrace\n" % sys.argv[2]).encode()
s.send(struct.pack("<4I", 0x53504f53, 2, 16, 16 + len(body)) + body)
r = s.recv(65536)
status, outlen = struct.unpack("<iI", r[16:24])
print(status, r[24 + outlen:].decode().strip())
EOF
check "a request with 'layout ftrace': refused (status 2), saying why" \
	test "$(cat "$TMP/lx.out")" = "2 unknown layout 'ftrace' (spoor or lttng)"
S list lx >/dev/null 2>&1
check "... and no session made" test $? -eq 1
S create ly --layout=lttng --kernel-buffer 2m -o "$TMP/ly" >/dev/null
check "create --layout=lttng: list shows it, with the kernel's ring" \
	test "$(S list ly | grep '^  kernel trace')" = "  kernel trace: layout lttng, ring per CPU 2m"
S destroy ly >/dev/null
S start nosuch 2>"$TMP/nosuch.err"
check "start: an unknown session: exit 1" test $? -eq 1
check "start: ... said" grep -q "no session 'nosuch'" "$TMP/nosuch.err"
S start s1 2>"$TMP/noev.err"
check "start: a session without events is refused" test $? -eq 1
S enable s1 2>/dev/null
check "enable: nothing to enable is a usage error" test $? -eq 2
S enable s1 --filter 'x:y' -u 'a:*' 2>/dev/null
check "enable: --filter without -k is a usage error" test $? -eq 2
S disable s1 -u 'svc:*' 2>"$TMP/dis.err"
check "disable: a pattern not enabled is an error" test $? -eq 1
S frob s1 2>/dev/null
check "session: an unknown verb is a usage error" test $? -eq 2
S list nosuch 2>/dev/null
check "list: an unknown session: exit 1" test $? -eq 1
S destroy s1 >/dev/null
check "destroy: the session is gone" test "$(S list)" = "no sessions"

# ---- hostile clients: the daemon stays up, answers, and closes what misbehaves ----
python3 - "$SOCK" <<'EOF' >"$TMP/hostile.out" 2>&1
import os, socket, struct, sys
path = sys.argv[1]
def conn():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(path)
    return s
MAGIC, VERSION = 0x53504f53, 2
def closed(s):  # the daemon closed it: recv gives EOF (or the reset)
    s.settimeout(10)
    try:
        while s.recv(1 << 20):
            pass
    except ConnectionResetError:
        pass
    return True
# random bytes, a huge length, half a head, a head whose length lies, a message too long
for payload in [os.urandom(1000), struct.pack("<4I", MAGIC, VERSION, 1, 0xFFFFFFFF),
                b"\x53\x4f", struct.pack("<4I", MAGIC, VERSION, 16, 64) + b"verb list\n",
                struct.pack("<4I", MAGIC, VERSION, 3, 16), b"x" * (300 << 10)]:
    s = conn()
    try:
        s.send(payload)
    except OSError:
        pass
    closed(s)
# a request that is not lines; one with too many lines; a control reply sent to it
for body in [b"verb list", b"verb list\n" + b"k v\n" * 300, b"\0\0\0\n"]:
    s = conn()
    s.send(struct.pack("<4I", MAGIC, VERSION, 16, 16 + len(body)) + body)
    r = s.recv(1 << 20)
    status = struct.unpack("<i", r[16:20])[0]
    print("status", status)
    closed(s)
# a thousand idle connections, then more: the oldest go, the daemon still answers
idle = [conn() for _ in range(1000)]
more = [conn() for _ in range(100)]
s = conn()
body = b"verb list\n"
s.send(struct.pack("<4I", MAGIC, VERSION, 16, 16 + len(body)) + body)
r = s.recv(1 << 20)
print("answered", struct.unpack("<i", r[16:20])[0], r[24:].decode())
gone = sum(1 for c in idle[:200] if closed(c))
print("oldest idle closed", gone)
EOF
check "hostile: malformed requests get a usage error" \
	test "$(grep -c '^status 2$' "$TMP/hostile.out")" -eq 3
check "hostile: 1100 idle connections, a request is still answered" \
	grep -q '^answered 0 no sessions' "$TMP/hostile.out"
check "hostile: the oldest idle connections were closed" \
	grep -q '^oldest idle closed 200$' "$TMP/hostile.out"
check "hostile: the daemon is still up" kill -0 "$(daemon_pid)"
S list >/dev/null
check "hostile: and answers" test $? -eq 0
stop_daemon

# ---- programs ----
# A change (start, stop, enable, disable) reaches a program's listener thread
# asynchronously, microseconds after the command returns (docs/sessions.md): before a batch
# that depends on it, give it that.
settle() { sleep 0.2; }

# A program started before the daemon registers when it appears; a session created after
# the program started attaches it.
service "$TMP/a.status"
A=$svc
start_daemon
S create s1 -o "$TMP/s1" >/dev/null && S enable s1 -u 'svc:*' && S start s1 >/dev/null
wait_list s1 "service (pid $A,"
check "before the daemon: the program registers when the daemon starts" true
settle
batch "$TMP/a.status" "$A"
# A program started after the daemon (and the session) registers at its start, and
# records from its first line.
service "$TMP/b.status"
B=$svc
S list s1 >"$TMP/s1.list"
check "after the daemon: attached at its start" grep -q "service (pid $B," "$TMP/s1.list"
batch "$TMP/b.status" "$B"
batch "$TMP/b.status" "$B"
S stop s1 >/dev/null
babeltrace2 "$TMP/s1" >/dev/null 2>"$TMP/s1.err"
check "stop: babeltrace2 reads the trace" test $? -eq 0 -a ! -s "$TMP/s1.err"
check "before the daemon: every event of its batch (svc:request)" \
	test "$(count "$TMP/s1/ust/pid/service-$A" svc:request)" -eq "$(rounds "$TMP/a.status")"
check "before the daemon: every event of its batch (svc:tick)" \
	test "$(count "$TMP/s1/ust/pid/service-$A" svc:tick)" -eq "$(rounds "$TMP/a.status")"
check "after the daemon: every event of its two batches" \
	test "$(count "$TMP/s1/ust/pid/service-$B" svc:tick)" -eq "$(rounds "$TMP/b.status")"
check "spoor reads what babeltrace2 reads" \
	test "$("$SPOOR" dump "$TMP/s1" | wc -l)" -eq "$(babeltrace2 "$TMP/s1" | wc -l)"
# stopped: nothing recorded; started again: the same trace goes on
r0=$(rounds "$TMP/a.status")
batch "$TMP/a.status" "$A"
r1=$(rounds "$TMP/a.status")
S start s1 >/dev/null && settle
batch "$TMP/a.status" "$A"
S stop s1 >/dev/null
check "stopped, then started: only the batches while started, in the same trace" \
	test "$(count "$TMP/s1/ust/pid/service-$A" svc:tick)" -eq $((r0 + $(rounds "$TMP/a.status") - r1))
S destroy s1 >"$TMP/destroy.out"
check "destroy: the summary" grep -q "session s1 destroyed: 2 process(es)" "$TMP/destroy.out"

# Two sessions at once: a discard one with svc:*, a flight recorder with svc:request only;
# each trace holds exactly its own events.
S create disc -o "$TMP/disc" >/dev/null && S enable disc -u 'svc:*'
S create fly -o "$TMP/fly" --overwrite -b 1m >/dev/null && S enable fly -u 'svc:request'
S start disc >/dev/null && S start fly >/dev/null
settle
r0=$(rounds "$TMP/a.status")
batch "$TMP/a.status" "$A"
batch "$TMP/a.status" "$A"
n=$(($(rounds "$TMP/a.status") - r0))
S stop disc >/dev/null && S stop fly >/dev/null
S list fly >"$TMP/fly.list"
check "list: the flight recorder shows the program and its buffer" \
	grep -q "service (pid $A, uid $(id -u)): 1 buffer" "$TMP/fly.list"
check "list: the buffer's use" grep -q "thread $A: [0-9]* of 1048576 bytes in use, 0 events discarded, 0 overwritten" "$TMP/fly.list"
S destroy disc >/dev/null && S destroy fly >/dev/null
check "two sessions: the discard one has svc:request" \
	test "$(count "$TMP/disc/ust/pid/service-$A" svc:request)" -eq "$n"
check "two sessions: the discard one has svc:tick" \
	test "$(count "$TMP/disc/ust/pid/service-$A" svc:tick)" -eq "$n"
check "two sessions: the flight recorder has svc:request" \
	test "$(count "$TMP/fly/ust/pid/service-$A" svc:request)" -eq "$n"
check "two sessions: the flight recorder has no svc:tick" \
	test "$(count "$TMP/fly" svc:tick)" -eq 0

# Enable and disable while running.
S create ed -o "$TMP/ed" >/dev/null && S enable ed -u svc:request && S start ed >/dev/null
settle
r0=$(rounds "$TMP/a.status")
batch "$TMP/a.status" "$A"
r1=$(rounds "$TMP/a.status")
S enable ed -u svc:tick && settle
batch "$TMP/a.status" "$A"
r2=$(rounds "$TMP/a.status")
S disable ed -u svc:request && settle
batch "$TMP/a.status" "$A"
r3=$(rounds "$TMP/a.status")
S destroy ed >/dev/null
check "enable while running: svc:request of the first two batches" \
	test "$(count "$TMP/ed" svc:request)" -eq $((r2 - r0))
check "enable while running: svc:tick from the second batch on" \
	test "$(count "$TMP/ed" svc:tick)" -eq $((r3 - r1))
babeltrace2 "$TMP/ed" | grep ' svc:tick: ' | head -1 >"$TMP/ed.first"
check "enable while running: the first tick is the second batch's first round" \
	grep -q "seq = $r1 }" "$TMP/ed.first"

# A program killed mid-session loses none of its committed events.
S create die -o "$TMP/die" >/dev/null && S enable die -u 'svc:*' && S start die >/dev/null
service "$TMP/c.status"
C=$svc
batch "$TMP/c.status" "$C"
kill -9 "$C" && wait_gone "$C"
S stop die >/dev/null
check "program killed: every committed event is in the trace" \
	test "$(count "$TMP/die/ust/pid/service-$C" svc:tick)" -eq "$(rounds "$TMP/c.status")"
S destroy die >/dev/null

# A snapshot of a flight recorder that overwrote: babeltrace2 reads it, and the events in
# it plus those it says were overwritten are the events emitted.
S create snap --overwrite -b 16k -o "$TMP/snap" >/dev/null && S enable snap -u svc:request
S start snap >/dev/null && settle
r0=$(rounds "$TMP/a.status")
for i in $(seq 10); do batch "$TMP/a.status" "$A"; done # some 30 KB for a 16 KB ring
n=$(($(rounds "$TMP/a.status") - r0))
S snapshot snap >"$TMP/snap1.out"
dir=$(sed -n 's/^snapshot of session snap in \(.*\): [0-9]* events overwritten before it$/\1/p' "$TMP/snap1.out")
ow=$(sed -n 's/.*: \([0-9]*\) events overwritten before it$/\1/p' "$TMP/snap1.out")
babeltrace2 "$dir" >"$TMP/snap1.bt2" 2>"$TMP/snap1.err"
check "snapshot: babeltrace2 reads it" test $? -eq 0 -a -s "$TMP/snap1.bt2"
got=$(grep -c ' svc:request: ' "$TMP/snap1.bt2")
check "snapshot: recorded $got + overwritten $ow = emitted $n" test $((got + ow)) -eq "$n" -a "$ow" -gt 0
check "snapshot: under OUTDIR/snapshots/" test "${dir#$TMP/snap/snapshots/snapshot-0-}" != "$dir"
batch "$TMP/a.status" "$A"
S snapshot snap -o "$TMP/snap2" >"$TMP/snap2.out"
ow=$(sed -n 's/.*: \([0-9]*\) events overwritten before it$/\1/p' "$TMP/snap2.out")
got=$(count "$TMP/snap2" svc:request)
check "snapshot -o DIR, the session still running: recorded + overwritten = emitted" \
	test $((got + ow)) -eq $(($(rounds "$TMP/a.status") - r0))
S snapshot snap -o "$TMP/snap2" 2>/dev/null
check "snapshot -o an existing trace: exit 1" test $? -eq 1
# a program that crashed: the flight recorder keeps its rings for the next snapshot
service "$TMP/f.status"
F=$svc
for i in $(seq 10); do batch "$TMP/f.status" "$F"; done
kill -9 "$F" && wait_gone "$F"
while S list snap | grep -q "service (pid $F, uid"; do sleep 0.02; done # its end seen
S list snap >"$TMP/snap.list"
check "list: the flight recorder's ended program" grep -q "service (pid $F, ended): 1 buffer" "$TMP/snap.list"
S snapshot snap -o "$TMP/snap3" >"$TMP/snap3.out"
ow=$(sed -n 's/.*: \([0-9]*\) events overwritten before it$/\1/p' "$TMP/snap3.out")
got=$(count "$TMP/snap3" svc:request)
check "snapshot after a crash: the program's last events are in it" \
	test "$(count "$TMP/snap3/ust/pid/service-$F" svc:request)" -gt 0
check "snapshot after a crash: recorded + overwritten = emitted, both programs" \
	test $((got + ow)) -eq $(($(rounds "$TMP/a.status") - r0 + $(rounds "$TMP/f.status")))
S destroy snap >/dev/null
check "destroy: the ended program's rings are written into the trace" \
	test "$(count "$TMP/snap/ust/pid/service-$F" svc:request)" -gt 0

# Rotation: each chunk reads alone in babeltrace2, and the chunks hold every event once.
S create rot -o "$TMP/rot" >/dev/null && S enable rot -u 'svc:*' && S start rot >/dev/null
settle
r0=$(rounds "$TMP/a.status")
batch "$TMP/a.status" "$A"
S rotate rot >"$TMP/rot1.out"
check "rotate: the chunk closed" grep -q "chunk closed in $TMP/rot/archives/chunk-000" "$TMP/rot1.out"
r1=$(rounds "$TMP/a.status")
batch "$TMP/a.status" "$A"
batch "$TMP/a.status" "$A"
S rotate rot >/dev/null
r2=$(rounds "$TMP/a.status")
batch "$TMP/a.status" "$A"
S stop rot >/dev/null
for c in 0 1; do
	babeltrace2 "$TMP/rot/archives/chunk-00$c" >"$TMP/rot$c.bt2" 2>"$TMP/rot$c.err"
	check "rotate: chunk $c reads alone in babeltrace2" test $? -eq 0 -a ! -s "$TMP/rot$c.err"
done
check "rotate: chunk 0 holds the first batch" test "$(grep -c ' svc:tick: ' "$TMP/rot0.bt2")" -eq $((r1 - r0))
check "rotate: chunk 1 the next two" test "$(grep -c ' svc:tick: ' "$TMP/rot1.bt2")" -eq $((r2 - r1))
check "rotate: the current chunk the last" test "$(count "$TMP/rot/ust" svc:tick)" -eq $(($(rounds "$TMP/a.status") - r2))
check "rotate: spoor reads the folder of chunks as one trace, every event once" \
	test "$("$SPOOR" dump -e 'svc:tick' "$TMP/rot" | wc -l)" -eq $(($(rounds "$TMP/a.status") - r0))
S create ow --overwrite -o "$TMP/ow" >/dev/null
S rotate ow 2>"$TMP/ow.err"
check "rotate: a flight recorder is refused" test $? -eq 1 -a -s "$TMP/ow.err"
S destroy ow >/dev/null
S destroy rot >/dev/null
# --rotate-every SIZE
S create rsz --rotate-every 8k -b 16k -o "$TMP/rsz" >/dev/null && S enable rsz -u 'svc:*' && S start rsz >/dev/null
settle
r0=$(rounds "$TMP/a.status")
for i in $(seq 10); do batch "$TMP/a.status" "$A"; done # some 34 KB
S destroy rsz >/dev/null
check "--rotate-every SIZE: chunks made" test -d "$TMP/rsz/archives/chunk-001"
check "--rotate-every SIZE: every event once over the chunks" \
	test "$("$SPOOR" dump -e 'svc:tick' "$TMP/rsz" | wc -l)" -eq $(($(rounds "$TMP/a.status") - r0))
# --rotate-every TIME: a chunk each period while the session runs
S create rt --rotate-every 50ms -o "$TMP/rt" >/dev/null && S enable rt -u 'svc:*' && S start rt >/dev/null
settle
r0=$(rounds "$TMP/a.status")
batch "$TMP/a.status" "$A"
while [ ! -d "$TMP/rt/archives/chunk-002" ]; do sleep 0.02; done
batch "$TMP/a.status" "$A"
S destroy rt >/dev/null
check "--rotate-every TIME: every event once over the chunks" \
	test "$("$SPOOR" dump -e 'svc:tick' "$TMP/rt" | wc -l)" -eq $(($(rounds "$TMP/a.status") - r0))

# A live reader (spoor watch --session): the first reply names the trace, then watermarks;
# a flight recorder cannot be read live.
S create w -o "$TMP/w" >/dev/null && S enable w -u 'svc:*' && S start w >/dev/null
S create fr -o "$TMP/fr" --overwrite >/dev/null && S enable fr -u 'svc:*' && S start fr >/dev/null
cat >"$TMP/watch.py" <<'EOF'
import socket, struct, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect(sys.argv[1])
body = ("verb watch\nname %s\nperiod-ns 5000000\n" % sys.argv[2]).encode()
s.send(struct.pack("<4I", 0x53504f53, 2, 16, 16 + len(body)) + body)
for _ in range(int(sys.argv[3])):
    r = s.recv(65536)
    status, outlen = struct.unpack("<iI", r[16:24])
    print(status, (r[24:24 + outlen] + r[24 + outlen:]).decode().strip())
EOF
python3 "$TMP/watch.py" "$SOCK" w 3 >"$TMP/watch.out" 2>&1
check "watch: the trace, then watermarks" \
	test "$(sed -n 1p "$TMP/watch.out")" = "0 trace $TMP/w" -a \
	"$(grep -c '^0 flushed [0-9]*$' "$TMP/watch.out")" -eq 2
python3 "$TMP/watch.py" "$SOCK" fr 1 >"$TMP/watchfr.out" 2>&1
check "watch: a flight recorder is refused" grep -q "^1 .*cannot be read live" "$TMP/watchfr.out"
S destroy w >/dev/null && S destroy fr >/dev/null

# Kernel events beside user-space ones, on the same clock (root and tracefs).
if [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing/instances ]; then
	S create ks -o "$TMP/ks" >/dev/null
	S enable ks -u 'svc:*' -k sched_switch && S start ks >/dev/null
	service "$TMP/d.status"
	D=$svc
	wait_list ks "service (pid $D,"
	batch "$TMP/d.status" "$D"
	S stop ks >/dev/null
	S destroy ks >"$TMP/ks.out"
	check "kernel: the summary counts the kernel's events" grep -q "session ks: kernel: [1-9]" "$TMP/ks.out"
	babeltrace2 "$TMP/ks" >"$TMP/ks.bt2" 2>"$TMP/ks.err"
	check "kernel: babeltrace2 reads both, no error" test $? -eq 0 -a ! -s "$TMP/ks.err"
	check "kernel: the service's switches are in it" grep -q "next_pid = $D," "$TMP/ks.bt2"
	check "kernel: and its user-space events, every one" \
		test "$(grep -c ' svc:tick: ' "$TMP/ks.bt2")" -eq "$(rounds "$TMP/d.status")"
	check "kernel: spoor reads them as babeltrace2 does" \
		test "$("$SPOOR" dump "$TMP/ks" | wc -l)" -eq "$(wc -l <"$TMP/ks.bt2")"
	# a flight recorder with kernel events: the snapshot holds both, and says what each lost
	S create kf -o "$TMP/kf" --overwrite >/dev/null
	S enable kf -u 'svc:request' -k sched_switch && S start kf >/dev/null
	batch "$TMP/d.status" "$D"
	S snapshot kf -o "$TMP/kf-snap" >"$TMP/kf.out"
	check "kernel snapshot: user space's count, then the kernel's" \
		grep -Eq 'overwritten before it \(user space\); kernel: [0-9]+ events lost' "$TMP/kf.out"
	babeltrace2 "$TMP/kf-snap" >"$TMP/kf.bt2" 2>"$TMP/kf.err"
	check "kernel snapshot: babeltrace2 reads it" test $? -eq 0
	check "kernel snapshot: switches and the service's requests in it" \
		test "$(grep -c ' sched_switch: ' "$TMP/kf.bt2")" -gt 0 -a \
		"$(grep -c ' svc:request: ' "$TMP/kf.bt2")" -gt 0
	S destroy kf >/dev/null
	S create ku -o "$TMP/ku" >/dev/null
	S enable ku -k no_such_event_at_all 2>"$TMP/ku.err"
	check "kernel: an unknown event: exit 1" test $? -eq 1
	S destroy ku >/dev/null
else
	echo "# kernel events: skipped (needs root and tracefs)"
fi

# kill -9 of the daemon: the programs run on (their emits do not block), what was written
# reads cleanly, and a daemon started again re-attaches them.
S create k9 -o "$TMP/k9" >/dev/null && S enable k9 -u 'svc:*' && S start k9 >/dev/null
settle
r0=$(rounds "$TMP/a.status")
batch "$TMP/a.status" "$A"
S stop k9 >/dev/null && S start k9 >/dev/null # written: the first batch
r1=$(rounds "$TMP/a.status")
settle
batch "$TMP/a.status" "$A"
kill -9 "$(daemon_pid)" && wait_gone "$(daemon_pid)"
batch "$TMP/a.status" "$A" # no daemon: the program emits on
check "kill -9: the program runs on" kill -0 "$A"
babeltrace2 "$TMP/k9" >"$TMP/k9.bt2" 2>"$TMP/k9.err"
check "kill -9: babeltrace2 reads what was written, no error" test $? -eq 0 -a ! -s "$TMP/k9.err"
got=$(grep -c ' svc:tick: ' "$TMP/k9.bt2")
check "kill -9: the events written before are all there ($got)" test "$got" -ge $((r1 - r0))
check "kill -9: spoor reads it as babeltrace2 does" \
	test "$("$SPOOR" dump "$TMP/k9" | wc -l)" -eq "$(wc -l <"$TMP/k9.bt2")"
start_daemon
check "kill -9: a daemon starts again on the stale socket" test $? -eq 0
S create again -o "$TMP/again" >/dev/null && S enable again -u 'svc:*' && S start again >/dev/null
wait_list again "service (pid $A,"
wait_list again "service (pid $B,"
check "kill -9: the programs register with the new daemon" true
settle
r0=$(rounds "$TMP/a.status")
batch "$TMP/a.status" "$A"
S destroy again >/dev/null
check "kill -9: the new daemon traces them" \
	test "$(count "$TMP/again/ust/pid/service-$A" svc:tick)" -eq $(($(rounds "$TMP/a.status") - r0))

# A full disk stops the session with a clear message; what was written stays readable.
if [ "$(id -u)" = 0 ] && mkdir -p "$TMP/small" && mount -t tmpfs -o size=256k tmpfs "$TMP/small" 2>/dev/null; then
	trap 'umount "$TMP/small" 2>/dev/null; stop_daemon; for p in "${PROGRAMS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT
	S create full -o "$TMP/small/t" >/dev/null && S enable full -u 'svc:*' && S start full >/dev/null
	service "$TMP/e.status" --batch 5000 # about 170 KB a batch
	E=$svc
	wait_list full "service (pid $E,"
	for i in $(seq 40); do
		S list full | grep -q '^session full: failed' && break
		batch "$TMP/e.status" "$E"
	done
	S list full >"$TMP/full.list"
	check "full disk: the session failed" grep -q '^session full: failed' "$TMP/full.list"
	check "full disk: list says why" grep -q 'error: No space left on device: the session stopped' "$TMP/full.list"
	check "full disk: the log says it" grep -q 'session full: No space left on device' "$TMP/run/daemon.log"
	S start full 2>"$TMP/full.err"
	check "full disk: a failed session cannot start again" test $? -eq 1
	S destroy full >/dev/null
	babeltrace2 "$TMP/small/t" >/dev/null 2>"$TMP/full.bt2err"
	check "full disk: babeltrace2 reads what was written" test $? -eq 0 -a ! -s "$TMP/full.bt2err"
	umount "$TMP/small"
else
	echo "# full disk: skipped (needs root to mount a small tmpfs)"
fi

# A program with no user daemon's socket to watch makes /tmp/spoor-UID itself, private,
# rather than watch all of /tmp (docs/sessions.md, "In the traced program")
fallback=/tmp/spoor-$(id -u)
if [ ! -e "$fallback" ]; then
	(unset SPOOR_USER_SOCKET XDG_RUNTIME_DIR && service "$TMP/fb.status")
	fb=$(awk '{print $2}' "$TMP/fb.status")
	for _ in $(seq 100); do [ -d "$fallback" ] && break; sleep 0.02; done
	check "a program makes the user daemon's /tmp folder, 0700" \
		test "$(stat -c %a "$fallback" 2>/dev/null)" = 700
	kill "$fb"
	rmdir "$fallback" 2>/dev/null
else
	echo "# the user daemon's /tmp folder: skipped ($fallback is there already)"
fi

stop_daemon
# under the sanitizers (tests/run-sanitizers.sh) a detached daemon reports into its log
check "the daemons' log has no sanitizer report" \
	test -z "$(grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error' "$TMP/run/daemon.log" "$TMP/sys/daemon.log")"
finish
