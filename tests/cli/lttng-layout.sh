#!/usr/bin/env bash
# The names of LTTng's kernel traces (tests/data/lttng-kernel-reference.txt), checked against
# the shared LTTng trace when ../shared is there.
. "$(dirname "$0")/lib.sh"
names="$SPOOR_TEST_DATA/lttng-kernel-names.py"
ref="$SPOOR_TEST_DATA/lttng-kernel-reference.txt"
skip() {
	echo "SKIP: $*"
	echo "$passed passed, $failed failed, 1 skipped"
	[ "$failed" -eq 0 ] && exit 77
	exit 1
}
need babeltrace2 babeltrace2
need babeltrace babeltrace
# babeltrace 1's Python bindings (the names script reads through them) are Debian's
py=/usr/bin/python3
$py -c 'import babeltrace' 2>/dev/null || skip "no babeltrace 1 Python bindings (python3-babeltrace)"

# 1. the reference is the shared LTTng trace's (when ../shared is there)
shared=${SHARED_TRACES:-}/lttng/many-threads
if [ -d "$shared" ]; then
	$py "$names" names "$shared" | grep -v '^event compat_syscall_' | sed 's/^/2.8 /' >"$TMP/shared.names"
	grep '^2\.8 ' "$ref" >"$TMP/ref.28"
	check "the reference's 2.8 lines are those of $shared (re-extracted)" \
		cmp -s "$TMP/shared.names" "$TMP/ref.28"
	diff "$TMP/ref.28" "$TMP/shared.names" | head -5
else
	echo "note - no $shared: the reference is not checked against it here"
fi

finish
