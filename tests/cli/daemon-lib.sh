# Shared by the session daemon's tests (sourced after lib.sh): a daemon of the test's own on
# a private socket, no other daemon reachable, started and stopped by its pid.

# private_daemon user|system: programs find the daemon at $SOCK as their user daemon (HOME
# in $TMP too) or as their system daemon (the users' tests: every user reaches it)
private_daemon() {
	SOCK=$TMP/run/daemon.sock
	mkdir -p "$TMP/run"
	export SPOOR_DAEMON_SOCKET=$SOCK
	if [ "$1" = system ]; then
		export SPOOR_SYSTEM_SOCKET=$SOCK SPOOR_USER_SOCKET=$TMP/run/none.sock
	else
		mkdir -p "$TMP/home"
		export HOME=$TMP/home SPOOR_USER_SOCKET=$SOCK SPOOR_SYSTEM_SOCKET=$TMP/run/none.sock
	fi
	unset SPOOR_SESSION XDG_RUNTIME_DIR
}
S() { "$SPOOR" session "$@"; }
daemon_pid() { cat "$TMP/run/daemon.pid" 2>/dev/null; }
start_daemon() { "$SPOOR" daemon --socket "$SOCK" "$@"; }
gone() { ! kill -0 "$1" 2>/dev/null; }
wait_gone() { # wait_gone PID: until the process has ended
	while ! gone "$1"; do sleep 0.05; done
}
stop_daemon() { # SIGTERM, and wait until it has finished every session
	local pid
	pid=$(daemon_pid)
	[ -n "$pid" ] && kill "$pid" && wait_gone "$pid"
}
# as_root_making_users: the users' tests make users, so they skip unless root
as_root_making_users() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "SKIP: needs root (it makes users)"
		echo "0 passed, 0 failed, 1 skipped"
		exit 77
	fi
	chmod 0755 "$TMP" # everything the users touch is under a folder they may traverse
}
# reachable_by_others TEST-FLAG FILE...: skip unless another user may use every FILE
reachable_by_others() {
	local flag=$1 f
	shift
	for f in "$@"; do
		if ! setpriv --reuid=nobody --regid=nogroup --clear-groups test "$flag" "$f"; then
			echo "SKIP: $f is not reachable by other users"
			echo "0 passed, 0 failed, 1 skipped"
			exit 77
		fi
	done
}
