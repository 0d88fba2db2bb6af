# Shared helpers for the whole-command tests: counters, a temp dir, and the closing line.
set -u
: "${SPOOR:?SPOOR must name the spoor binary}"
: "${SPOOR_TEST_DATA:?}"
passed=0
failed=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/spoor-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

pass() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "FAIL - $*"; }
check() { # check DESCRIPTION COMMAND...
	local what=$1
	shift
	if "$@"; then pass "$what"; else fail "$what"; fi
}
need() { # skip the whole file with a clear message when a tool is missing
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "SKIP: $1 is not installed (apt-get install $2)"
		echo "0 passed, 0 failed, 1 skipped"
		exit 77
	fi
}
skip() { # skip the whole file, saying why
	echo "SKIP: $*"
	echo "0 passed, 0 failed, 1 skipped"
	exit 77
}
need_tracefs() { # skip the whole file without root and a tracefs at $T with instances
	T=/sys/kernel/tracing
	[ "$(id -u)" -eq 0 ] || skip "kernel tracing needs root (run the tests as root)"
	if [ "$(stat -f -c %T "$T" 2>/dev/null)" != tracefs ]; then
		mount -t tracefs nodev "$T" 2>/dev/null || skip "tracefs cannot be mounted at $T"
	fi
	[ -w "$T/instances" ] || skip "$T/instances is not writable here"
}
synth() { # generate the synthetic traces once per test file
	if [ ! -d "$TMP/synth" ]; then
		python3 "$SPOOR_TEST_DATA/gen-ctf.py" "$TMP/synth" >/dev/null &&
			python3 "$SPOOR_TEST_DATA/gen-ctf.py" --bad "$TMP/synth" >/dev/null
	fi
}
bt2_labels() { # bt2_labels TRACE REGEX: `field=LABEL,...` for each enum of babeltrace2's lines
	babeltrace2 "$1" | grep -E "$2" | python3 -c '
import re, sys
for line in sys.stdin:
    for name, labels in re.findall(r"(\w+) = \( (.*?) : container = ", line):
        print(name + "=" + ",".join(re.findall(r"\"([^\"]*)\"", labels)))'
}
finish() {
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
