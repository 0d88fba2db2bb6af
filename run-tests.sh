#!/usr/bin/env bash
# Second command of the README: build and run every test (unit, whole-command, real LTTng
# traces against babeltrace2). Ends with one line: "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")"
[ -d build ] || meson setup build >/dev/null || exit 1
ninja -C build >/dev/null || { ninja -C build; exit 1; }  # a failed build shows its errors
meson test -C build --print-errorlogs "$@" | tee build/test-summary.txt
rc=${PIPESTATUS[0]}
get() { awk -v k="$1" '$1 == k {print $2}' build/test-summary.txt | tail -1; }
ok=$(get "Ok:")
fail=$(( $(get "Fail:") + $(get "Timeout:") ))
skip=$(get "Skipped:")
echo "${ok:-0} passed, ${fail:-0} failed, ${skip:-0} skipped"
exit "$rc"
