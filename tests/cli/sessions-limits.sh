#!/usr/bin/env bash
# The system daemon (root) against one user (root only; skips otherwise): a user made here
# (useradd, in a group made here; both removed at the end) cannot take the connection table
# from the others, and the daemon writes the user's files with the user's own groups. A
# real daemon on a private socket, stopped by its pid; tests/cli/hostile-client.py speaks
# the protocol.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"
need python3 python3
for tool in useradd userdel groupadd groupdel setpriv; do need "$tool" passwd; done
as_root_making_users
HOSTILE=$(cd "$(dirname "$0")" && pwd)/hostile-client.py
# an interpreter every user may run (a python3 under root's home is not)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
private_daemon system
reachable_by_others -r "$SPOOR" "$HOSTILE" "$PY"

u=spoorl$$ g=spoorg$$
CLIENTS=()
cleanup() {
	local p
	for p in "${CLIENTS[@]}"; do kill "$p" 2>/dev/null; done
	[ -z "${daemon:-}" ] || kill "$daemon" 2>/dev/null
	[ -z "${daemon:-}" ] || while kill -0 "$daemon" 2>/dev/null; do sleep 0.05; done
	userdel "$u" 2>/dev/null
	groupdel "$g" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
groupadd "$g" && useradd -M -N -G "$g" -s /usr/sbin/nologin "$u" || { echo "FAIL - useradd"; exit 1; }
mkdir -p "$TMP/$u" && chown "$u" "$TMP/$u"
# as USER CMD...: run as that user, with the groups /etc/group gives them
as() {
	local who=$1
	shift
	setpriv --reuid="$who" --regid="$(id -g "$who")" --init-groups env HOME="$TMP/$who" "$@"
}
"$SPOOR" daemon --socket "$SOCK" || { echo "FAIL - daemon"; exit 1; }
daemon=$(cat "$TMP/run/daemon.pid")

# ---- the connection table: one user's programs take 1/8 of it ----
setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups "$PY" "$HOSTILE" hello "$SOCK" 1030 stay \
	>"$TMP/flood.out" &
CLIENTS+=($!)
while ! [ -s "$TMP/flood.out" ]; do sleep 0.05; done
check "connections: 1030 programs of one user, 128 registered" test "$(cat "$TMP/flood.out")" -eq 128
lists() { timeout 30 "$SPOOR" session list >/dev/null 2>&1; }
check "connections: ... root's spoor session list still answers" lists
check "connections: ... another user's program registers" test "$(timeout 30 setpriv \
	--reuid=nobody --regid=nogroup --clear-groups "$PY" "$HOSTILE" hello "$SOCK" 1)" = 1
kill "${CLIENTS[@]}" 2>/dev/null
CLIENTS=()

# ---- a user's files: written with the user's own groups, never root's ----
mkdir -p "$TMP/shared"
chgrp "$g" "$TMP/shared" && chmod 0770 "$TMP/shared"
as "$u" "$SPOOR" session create grp -o "$TMP/shared/out" >"$TMP/grp.out" 2>&1
check "groups: -o into a folder shared by the user's group" test $? -eq 0
check "... the trace folder is the user's" test "$(stat -c %U "$TMP/shared/out")" = "$u"
mkdir -p "$TMP/rootgrp"
chgrp root "$TMP/rootgrp" && chmod 0770 "$TMP/rootgrp"
as "$u" "$SPOOR" session create rg -o "$TMP/rootgrp/out" >/dev/null 2>&1
check "groups: a folder of root's group stays closed to the user" test $? -ne 0

finish
