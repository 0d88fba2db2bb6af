#!/usr/bin/env bash
# First command of the README: install what spoor needs, build it, and run its main job on a
# demo workload: record the instrumented example program, then its statistics and first
# events; then a trace LTTng wrote, read the same way.
set -euo pipefail
cd "$(dirname "$0")"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq meson ninja-build pkg-config gcc python3 babeltrace2 >/dev/null
fi
[ -d build ] || meson setup build --buildtype=release >/dev/null
ninja -C build >/dev/null
out=$(mktemp -d /tmp/spoor-demo.XXXXXX)
echo "== spoor record -o $out/trace -- build/hello 1000 4   (an instrumented program, 4 threads)"
./build/spoor record -o "$out/trace" -- ./build/hello 1000 4
echo
echo "== spoor stats $out/trace"
./build/spoor stats "$out/trace"
echo
echo "== spoor dump $out/trace | head"
./build/spoor dump "$out/trace" | head -n 8
echo
demo=tests/data/traces/ust-types
echo "== spoor dump --format=babeltrace -e 'spoor_fixture:enums' -n 2 $demo   (a trace LTTng wrote)"
./build/spoor dump --format=babeltrace -e 'spoor_fixture:enums' -n 2 "$demo"
