#!/usr/bin/env bash
# The session daemon's permissions, with real users (root only; skips otherwise): a system
# daemon (root) on a private socket, stopped by its pid; two users made here with useradd
# (removed at the end) run their commands and programs through setpriv. A user traces only
# their own programs; root traces everyone's; kernel events need root or the group
# `tracing` (made here when the machine has none, and then removed); a user can neither
# list, stop, snapshot nor destroy a session that is not theirs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"
: "${SERVICE:?}"
need babeltrace2 babeltrace2
for tool in useradd userdel groupadd groupdel gpasswd setpriv; do need "$tool" passwd; done
as_root_making_users
private_daemon system
# the build's spoor and service, run by the users too
reachable_by_others -x "$SPOOR" "$SERVICE"

u1=spoort$$a u2=spoort$$b made_group=
PROGRAMS=()
cleanup() {
	local p
	for p in "${PROGRAMS[@]}"; do kill "$p" 2>/dev/null; done
	[ -z "${daemon:-}" ] || kill "$daemon" 2>/dev/null
	[ -z "${daemon:-}" ] || while kill -0 "$daemon" 2>/dev/null; do sleep 0.05; done
	userdel "$u1" 2>/dev/null
	userdel "$u2" 2>/dev/null
	[ -z "$made_group" ] || groupdel tracing 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
useradd -M -N -s /usr/sbin/nologin "$u1" && useradd -M -N -s /usr/sbin/nologin "$u2" ||
	{ echo "FAIL - useradd"; exit 1; }
if ! getent group tracing >/dev/null; then
	groupadd --system tracing && made_group=1
fi
for u in "$u1" "$u2"; do
	mkdir -p "$TMP/$u"
	chown "$u" "$TMP/$u"
done

# as USER CMD...: run as that user, with the groups /etc/group gives them now
as() {
	local u=$1
	shift
	setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups env HOME="$TMP/$u" "$@"
}
# service USER STATUSFILE: one of USER's programs (root: "root"), its pid in $svc
service() {
	rm -f "$2"
	if [ "$1" = root ]; then
		"$SERVICE" "$2" &
	else
		# a simple command, not the function: $! is then the program's own pid
		setpriv --reuid="$1" --regid="$(id -g "$1")" --init-groups "$SERVICE" "$2" &
	fi
	svc=$!
	PROGRAMS+=("$svc")
	while ! grep -q "^pid $svc " "$2" 2>/dev/null; do sleep 0.02; done
}
batch() { # batch STATUSFILE PID: one more batch (SIGUSR1), emitted
	local want
	want=$(($(awk '{print $4}' "$1") + 1))
	kill -USR1 "$2"
	while [ "$(awk '{print $4}' "$1" 2>/dev/null)" != "$want" ]; do sleep 0.02; done
}
# pids TRACE: the processes whose events babeltrace2 reads in it (from the folder names)
pids() { find "$1" -name metadata -path '*/ust/pid/*' | sed 's|.*-\([0-9]*\)/metadata$|\1|' | sort -n | tr '\n' ' '; }
count() { babeltrace2 "$1" 2>/dev/null | grep -c " $2: " || true; }
# wait_programs USER NAME N: until USER's session NAME has N programs attached
wait_programs() {
	while ! as "$1" "$SPOOR" session list "$2" 2>/dev/null | grep -qx "  programs: $3"; do
		sleep 0.02
	done
}

"$SPOOR" daemon --foreground --socket "$SOCK" 2>"$TMP/daemon.log" &
daemon=$!
while ! [ -S "$SOCK" ]; do
	kill -0 "$daemon" 2>/dev/null || { cat "$TMP/daemon.log"; echo "FAIL - the daemon did not start"; exit 1; }
	sleep 0.05
done

# programs of root, u1 and u2, all started before the sessions
service root "$TMP/root.status"
p0=$svc
service "$u1" "$TMP/$u1/svc.status"
p1=$svc
service "$u2" "$TMP/$u2/svc.status"
p2=$svc

# ---- each user's session traces only their own programs; root's traces everyone's ----
as "$u1" "$SPOOR" session create mine -o "$TMP/$u1/trace" >/dev/null
check "a user creates a session" test $? -eq 0
as "$u1" "$SPOOR" session enable mine -u 'svc:*' && as "$u1" "$SPOOR" session start mine >/dev/null
check "and starts it" test $? -eq 0
S create all -o "$TMP/root-trace" >/dev/null && S enable all -u 'svc:*' && S start all >/dev/null
check "root creates and starts a session" test $? -eq 0
wait_programs "$u1" mine 1
wait_programs root all 3
for p in "$p0:$TMP/root.status" "$p1:$TMP/$u1/svc.status" "$p2:$TMP/$u2/svc.status"; do
	batch "${p#*:}" "${p%%:*}"
done
as "$u1" "$SPOOR" session stop mine >/dev/null
S stop all >/dev/null
check "the user's trace holds their program only (pid $p1): $(pids "$TMP/$u1/trace")" \
	test "$(pids "$TMP/$u1/trace")" = "$p1 "
check "it holds that program's 100 svc:request" test "$(count "$TMP/$u1/trace" svc:request)" -eq 100
check "root's trace holds every program ($p0 $p1 $p2): $(pids "$TMP/root-trace")" \
	test "$(pids "$TMP/root-trace")" = "$(printf '%s\n' "$p0" "$p1" "$p2" | sort -n | tr '\n' ' ')"
check "and their 300 svc:request" test "$(count "$TMP/root-trace" svc:request)" -eq 300
check "the user's trace files are the user's" test "$(stat -c %U "$TMP/$u1/trace")" = "$u1"

# ---- another user: neither list, stop, snapshot nor destroy it ----
as "$u1" "$SPOOR" session start mine >/dev/null
as "$u2" "$SPOOR" session list >"$TMP/u2-list" 2>&1
check "another user's list does not show it" test "$(grep -c '^mine ' "$TMP/u2-list")" -eq 0
check "nor root's session" test "$(grep -c '^all ' "$TMP/u2-list")" -eq 0
as "$u2" "$SPOOR" session list mine >/dev/null 2>&1
check "another user cannot list it by name" test $? -ne 0
for verb in stop snapshot destroy; do
	as "$u2" "$SPOOR" session "$verb" mine >/dev/null 2>"$TMP/u2.err"
	rc=$?
	check "another user cannot $verb it (exit $rc): the session is not theirs to see" \
		grep -q "no session 'mine'" "$TMP/u2.err"
	check "and the command fails" test "$rc" -ne 0
	as "$u2" "$SPOOR" session "$verb" all >/dev/null 2>&1
	check "nor $verb root's session" test $? -ne 0
done
as "$u1" "$SPOOR" session list mine >"$TMP/u1-list"
check "the session still runs, its owner sees it" grep -q 'started' "$TMP/u1-list"
S list >"$TMP/root-list"
check "root lists everyone's sessions" test "$(grep -c '^\(mine\|all\) ' "$TMP/root-list")" -eq 2
S stop mine >/dev/null
check "root may stop a user's session" test $? -eq 0

# ---- kernel events: root or the group tracing ----
if ! grep -qw tracefs /proc/mounts; then
	echo "SKIP: no tracefs: the kernel events part"
	as "$u1" "$SPOOR" session destroy mine >/dev/null
	finish
	exit
fi
as "$u1" "$SPOOR" session enable mine -k sched_switch >/dev/null 2>"$TMP/k.err"
check "a user outside 'tracing' cannot enable kernel events" test $? -ne 0
check "and is told why" grep -q "root or the group 'tracing'" "$TMP/k.err"
gpasswd -a "$u2" tracing >/dev/null
as "$u2" "$SPOOR" session create theirs -o "$TMP/$u2/trace" >/dev/null &&
	as "$u2" "$SPOOR" session enable theirs -k sched_switch -u 'svc:*' 2>"$TMP/k2.err"
check "a member of 'tracing' enables kernel events" test $? -eq 0
cat "$TMP/k2.err"
as "$u2" "$SPOOR" session start theirs >/dev/null
wait_programs "$u2" theirs 3
batch "$TMP/root.status" "$p0"
as "$u2" "$SPOOR" session stop theirs >/dev/null
check "and, privileged, traces root's program too ($p0 in $(pids "$TMP/$u2/trace"))" \
	grep -qw "$p0" <<<"$(pids "$TMP/$u2/trace")"
check "its trace has kernel events" test "$(count "$TMP/$u2/trace" sched_switch)" -gt 0
gpasswd -d "$u2" tracing >/dev/null
as "$u2" "$SPOOR" session destroy theirs >/dev/null
as "$u1" "$SPOOR" session destroy mine >/dev/null
check "the owner destroys their session" test $? -eq 0
finish
