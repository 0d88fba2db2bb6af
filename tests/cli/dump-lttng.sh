#!/usr/bin/env bash
# spoor dump --format=babeltrace on real LTTng traces (kernel and user space, little- and
# big-endian, LTTng 2.3 to 2.13) against babeltrace2, allowing only babeltrace2's known
# empty-string bug (see bt2-compare.py).
. "$(dirname "$0")/lib.sh"
need babeltrace2 babeltrace2
here=$(dirname "$0")

traces=("$SPOOR_TEST_DATA/traces/ust-types" "$SPOOR_TEST_DATA/traces/ust-discard")
if [ -d "${SHARED_TRACES:-}/lttng" ]; then
	for t in many-threads flipping-endianness ros2 cyg-profile/glxgears-cyg-profile \
		cyg-profile/glxgears-cyg-profile-fast; do
		traces+=("$SHARED_TRACES/lttng/$t")
	done
else
	echo "note: ../shared/traces not found; only the committed fixtures are compared"
fi

for t in "${traces[@]}"; do
	name=$(basename "$t")
	babeltrace2 --clock-gmt "$t" >"$TMP/$name.bt2" 2>/dev/null
	"$SPOOR" dump --format=babeltrace "$t" >"$TMP/$name.spoor" 2>"$TMP/$name.err"
	rc=$?
	check "$name: spoor dump exits 0" test "$rc" -eq 0
	# losses are warned of (one line per stream), nothing else
	check "$name: no warnings but losses" \
		bash -c "! grep -v '^spoor dump: warning: .*: [0-9]* events discarded' '$TMP/$name.err'"
	check "$name: babeltrace2 printed events" test -s "$TMP/$name.bt2"
	check "$name: same output as babeltrace2" \
		python3 "$here/bt2-compare.py" "$TMP/$name.spoor" "$TMP/$name.bt2"
done

# The one line where babeltrace2 and babeltrace 1.5 disagree on many-threads: spoor sides
# with babeltrace 1.5 (the recorded filename is empty).
if [ -d "${SHARED_TRACES:-}/lttng/many-threads" ]; then
	check "many-threads: the empty filename babeltrace2 misprints is empty" \
		grep -q '^\[17:46:23.226574671\] .* syscall_entry_access: { cpu_id = 4 }, { filename = "", mode = 4 }$' \
		"$TMP/many-threads.spoor"
	check "many-threads: exactly one line differs from babeltrace2" \
		test "$(diff "$TMP/many-threads.spoor" "$TMP/many-threads.bt2" | grep -c '^<')" -eq 1
fi
finish
