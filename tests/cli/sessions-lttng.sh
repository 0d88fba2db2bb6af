#!/usr/bin/env bash
# spoor session create --layout=lttng: a daemon's kernel session written as `spoor record -k
# --layout=lttng` writes its trace. Each rotation chunk and each snapshot is a trace that
# babeltrace2 reads, with LTTng's names (lttng-kernel-names.py check against the reference),
# the recording's event names and env keys, the env naming the session in every chunk as
# lttng-sessiond names it; the chunks read together span the session, every stream; and
# lttng-analyses gives spoor's numbers on a session's trace (lttng-analyses-compare.py). A
# daemon of the test's own on a private socket, stopped by its pid. Needs root and tracefs
# (the option's bad input: sessions.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"
here=$(dirname "$0")
names="$SPOOR_TEST_DATA/lttng-kernel-names.py"
ref="$SPOOR_TEST_DATA/lttng-kernel-reference.txt"
need babeltrace2 babeltrace2
need lttng-schedstats-mi python3-lttnganalyses
# babeltrace 1's Python bindings (the names script reads through them) are Debian's
py=/usr/bin/python3
$py -c 'import babeltrace' 2>/dev/null || skip "no babeltrace 1 Python bindings (python3-babeltrace)"
need_tracefs
private_daemon user
trap 'stop_daemon; [ -n "${KEEP:-}" ] || rm -rf "$TMP"' EXIT
start_daemon

# marker N: a copy of /bin/true run once; its exec (sched_process_exec's filename) says which
# chunk holds the time it ran
marker() {
	cp /bin/true "$TMP/marker-$1" && "$TMP/marker-$1"
}
execs_of() { babeltrace2 "$1" 2>/dev/null | grep -o "sched_process_exec: .*filename = \"$TMP/marker-[0-9]*\"" | grep -o 'marker-[0-9]*' | sort | tr '\n' ' '; }
work() {
	for i in $(seq 10); do cat /proc/interrupts >/dev/null; ls /nonexistent-spoor 2>/dev/null; done
	for i in $(seq 5); do sleep 0.002; done
}
env_of() { sed -n '/^env {/,/^};/p' "$1/metadata" | sed -n "s/^[[:space:]]*$2 = \(.*\);/\1/p"; }
env_keys() { sed -n '/^env {/,/^};/p' "$1/metadata" | sed -n 's/^[[:space:]]*\([a-z_]*\) = .*/\1/p' | sort; }
event_names() { grep -o '^[[:space:]]*name = "[^"]*";' "$1/metadata" | sort; }
# reads_as_lttng WHAT KDIR SESSION: babeltrace2 reads the kernel trace KDIR alone, exit 0,
# nothing on stderr but the kernel's losses (the whole machine is recorded, under the other
# tests' load); the names check passes; the env names the session
reads_as_lttng() {
	local what=$1 dir=$2
	babeltrace2 "$dir" >"$TMP/read.txt" 2>"$TMP/read.err"
	check "$what: babeltrace2 reads it, exit 0, nothing on stderr but losses ($(wc -l <"$TMP/read.txt") events)" \
		test $? -eq 0 -a -z "$(grep -v 'Tracer \(may have \)\?discarded' "$TMP/read.err")" -a -s "$TMP/read.txt"
	grep -v 'Tracer \(may have \)\?discarded' "$TMP/read.err" | head -3
	$py "$names" check "$ref" "$dir" >"$TMP/names.out"
	check "$what: env, scopes and event names as LTTng's (lttng-kernel-names.py check)" test $? -eq 0
	grep FAIL "$TMP/names.out"
	check "$what: trace_name is the session's, as lttng-sessiond gives it" \
		test "$(env_of "$dir" trace_name)" = "\"$3\""
}
# packet_begins KDIR: "STREAM-ID NS" for each packet of the trace read alone
packet_begins() {
	babeltrace2 --component=sink.text.details --params=with-metadata=false,compact=true "$1" |
		sed -n 's/^\[[0-9,]* \([0-9,]*\)\] {[0-9]* [0-9]* \([0-9]*\)} Packet beginning$/\2 \1/p'
}

# the recording the sessions must match: what `spoor record -k sched,syscalls --layout=lttng`
# declares and its env's keys
"$SPOOR" record -k sched,syscalls --layout=lttng -o "$TMP/rec" -- true 2>/dev/null
check "spoor record -k sched,syscalls --layout=lttng (the reference recording)" test -f "$TMP/rec/kernel/metadata"

# ---- a session rotated twice, an event enabled while it runs ----
# (the whole machine's system calls: rings of 8m per CPU lose none of them on a loaded
# machine, a sanitized daemon too)
S create lt --layout=lttng --kernel-buffer 8m -o "$TMP/lt" >/dev/null
S list lt >"$TMP/lt.list"
check "list: the layout, before any kernel event" grep -q '^  kernel trace: layout lttng, ' "$TMP/lt.list"
S enable lt -k sched,syscalls && S start lt >/dev/null
marker 0 && work
S rotate lt >/dev/null
marker 1
S enable lt -k irq_handler_entry,softirq_entry # declared under LTTng's names, while running
work
S rotate lt >/dev/null
marker 2 && work
S stop lt >/dev/null
S list lt >"$TMP/lt.list"
check "list: the layout, with the kernel's events" grep -qx '  kernel trace: layout lttng, ring per CPU 8m' "$TMP/lt.list"
S destroy lt >/dev/null
for c in 0 1; do
	reads_as_lttng "chunk $c" "$TMP/lt/archives/chunk-00$c/kernel" lt
done
reads_as_lttng "the current chunk" "$TMP/lt/kernel" lt
execs="$(execs_of "$TMP/lt/archives/chunk-000")/$(execs_of "$TMP/lt/archives/chunk-001")/$(execs_of "$TMP/lt/kernel")"
check "each chunk holds the exec of its time: chunk 0 marker 0, chunk 1 marker 1, the current chunk marker 2 ($execs)" \
	test "$execs" = "marker-0 /marker-1 /marker-2 "
check "chunk 0 declares the events of spoor record -k sched,syscalls --layout=lttng" \
	test "$(event_names "$TMP/lt/archives/chunk-000/kernel")" = "$(event_names "$TMP/rec/kernel")"
check "every chunk's env has the recording's keys" \
	test "$(env_keys "$TMP/lt/archives/chunk-000/kernel")" = "$(env_keys "$TMP/rec/kernel")" -a \
	"$(env_keys "$TMP/lt/archives/chunk-001/kernel")" = "$(env_keys "$TMP/rec/kernel")" -a \
	"$(env_keys "$TMP/lt/kernel")" = "$(env_keys "$TMP/rec/kernel")"
created=$(env_of "$TMP/lt/archives/chunk-000/kernel" trace_creation_datetime)
check "every chunk's trace_creation_datetime is the session's ($created)" \
	test -n "$created" -a "$(env_of "$TMP/lt/archives/chunk-001/kernel" trace_creation_datetime)" = "$created" -a \
	"$(env_of "$TMP/lt/kernel" trace_creation_datetime)" = "$created"
check "events enabled while it ran are declared under LTTng's names" \
	test "$(grep -c 'name = "irq_handler_entry";\|name = "irq_softirq_entry";' "$TMP/lt/archives/chunk-001/kernel/metadata")" -eq 2 -a \
	"$(grep -c 'name = "softirq_entry";' "$TMP/lt/archives/chunk-001/kernel/metadata")" -eq 0
# the chunks read together: babeltrace2 merges the streams of one uuid, ordering their
# packets by their beginnings alone (each put before those that begin with it): no two
# packets of a stream may begin at one time (the first chunk's state dump, all of one time,
# then its stream's next packet: swapped, time went back)
for d in "$TMP"/lt/archives/chunk-*/kernel "$TMP/lt/kernel"; do packet_begins "$d"; done >"$TMP/begins"
check "the chunks: no two packets of one stream begin at the same time ($(wc -l <"$TMP/begins") packets)" \
	test -s "$TMP/begins" -a -z "$(sort "$TMP/begins" | uniq -d)"
sort "$TMP/begins" | uniq -d | head -3
# every stream spans the session, from its start (the first state dump) to its stop
$py "$here/stream-bounds.py" "$TMP/lt" --begins-at lttng_statedump_start >"$TMP/bounds.out"
check "the chunks together: every stream begins at the session's start and ends at its stop" test $? -eq 0
grep -v '^stream' "$TMP/bounds.out"
babeltrace2 "$TMP/lt" >"$TMP/all.txt" 2>"$TMP/all.err"
check "the chunks together: babeltrace2 reads each event once, nothing on stderr but losses" \
	test $? -eq 0 -a -z "$(grep -v 'Tracer \(may have \)\?discarded' "$TMP/all.err")" -a "$(wc -l <"$TMP/all.txt")" -eq $(($(babeltrace2 "$TMP/lt/archives/chunk-000" | wc -l) + $(babeltrace2 "$TMP/lt/archives/chunk-001" | wc -l) + $(babeltrace2 "$TMP/lt/kernel" | wc -l)))

# ---- a flight recorder's snapshot ----
# (taken right after the marker, from rings that hold seconds of the machine's scheduling:
# the ring overwrites, under the other tests' load too)
S create fl --layout=lttng --overwrite --kernel-buffer 4m -o "$TMP/fl" >/dev/null
S enable fl -k sched && S start fl >/dev/null
marker 3
S snapshot fl -o "$TMP/snap" >/dev/null
reads_as_lttng "the snapshot" "$TMP/snap/kernel" fl
check "the snapshot holds the exec before it" test "$(execs_of "$TMP/snap")" = "marker-3 "
check "the snapshot has LTTng's state dump" grep -q ' lttng_statedump_process_state: ' "$TMP/read.txt"
# its streams end together, at the snapshot's time or at the last event read after it (a
# ring read while tracing goes on): each begins where its ring does
$py "$here/stream-bounds.py" "$TMP/snap/kernel" >"$TMP/snap.bounds"
check "the snapshot's streams end together" \
	test "$(sed -n 's/^stream .*, last ends at \([0-9]*\)$/\1/p' "$TMP/snap.bounds" | sort -u | wc -l)" -eq 1
grep '^stream' "$TMP/snap.bounds"
S destroy fl >/dev/null
reads_as_lttng "the flight recorder's own trace (written at destroy)" "$TMP/fl/kernel" fl

# ---- lttng-analyses on a session's trace: spoor's numbers ----
# (disk I/O that bypasses the cache: interrupts and block requests, which the comparison
# needs; libc: the paths as strings, as LTTng writes them, which lttng-iousagetop needs: as
# lttng-layout.sh's recording)
S create an --layout=lttng -o "$TMP/an" >/dev/null
S enable an -k sched,irq,syscalls,block,libc && S start an >/dev/null
work
dd if=/dev/zero of="$TMP/f" bs=64k count=16 oflag=direct 2>/dev/null
dd if=/dev/zero of="$TMP/s" bs=64k count=16 conv=fsync 2>/dev/null
S stop an >/dev/null && S destroy an >/dev/null
mkdir "$TMP/work"
$py "$here/lttng-analyses-compare.py" "$SPOOR" "$TMP/an/kernel" "$TMP/work" >"$TMP/cmp.out" 2>&1
check "lttng-irqstats, lttng-schedstats, lttng-syscallstats, lttng-iolatencystats = spoor irq, sched, syscalls, disk on a session's trace" \
	test $? -eq 0
grep -v '^ok' "$TMP/cmp.out"
stop_daemon
check "the daemon's log has no sanitizer report" \
	test -z "$(grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error' "$TMP/run/daemon.log")"
finish
