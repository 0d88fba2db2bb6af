#!/usr/bin/env bash
# A setuid program linked with libspoor-ust ignores its caller's environment: a setuid-root
# copy of hello run by a user made here (so AT_SECURE) under that user's `spoor record`
# does not obey SPOOR_SESSION, and so hands its rings to no one its caller names. The same
# program without the setuid bit is recorded. Root only (it makes a user; skips otherwise).
. "$(dirname "$0")/lib.sh"
: "${HELLO_STATIC_UST:?}"
for tool in useradd userdel setpriv; do need "$tool" passwd; done
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: needs root (it makes a user)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 77
fi
u="spoorsuid$$"
useradd -M -N -s /usr/sbin/nologin "$u" || { echo "FAIL - useradd"; exit 1; }
trap 'userdel "$u" 2>/dev/null; rm -rf "$TMP"' EXIT

as_user() { setpriv --reuid="$u" --regid="$(id -g "$u")" --clear-groups "$@"; }
chmod 755 "$TMP"
mkdir "$TMP/u" && chown "$u" "$TMP/u"
cp "$HELLO_STATIC_UST" "$TMP/hello-plain"
cp "$HELLO_STATIC_UST" "$TMP/hello-suid"
chmod 755 "$TMP/hello-plain" && chmod 4755 "$TMP/hello-suid"
as_user "$SPOOR" record -o "$TMP/u/plain" -- "$TMP/hello-plain" 5 1 >/dev/null 2>"$TMP/plain.err"
check "plain: recorded" grep -q ' 1 process(es)' "$TMP/plain.err"
check "plain: its 17 events" test "$("$SPOOR" dump "$TMP/u/plain" 2>/dev/null | wc -l)" -eq 17
as_user "$SPOOR" record -o "$TMP/u/suid" -- "$TMP/hello-suid" 5 1 >"$TMP/suid.out" 2>"$TMP/suid.err"
check "setuid: the program ran" test $? -eq 0
check "setuid: SPOOR_SESSION ignored, nothing recorded" grep -q ' 0 process(es)' "$TMP/suid.err"
finish
