#!/usr/bin/env bash
# First command of the README: install what spoor needs, build it, and run its main job on a
# demo trace: statistics, then the first events, of an LTTng-UST trace shipped in tests/data.
set -euo pipefail
cd "$(dirname "$0")"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq meson ninja-build pkg-config gcc python3 babeltrace2 >/dev/null
fi
[ -d build ] || meson setup build --buildtype=release >/dev/null
ninja -C build >/dev/null
demo=tests/data/traces/ust-types
echo "== spoor stats $demo"
./build/spoor stats "$demo"
echo
echo "== spoor dump $demo | head"
./build/spoor dump "$demo" | head -n 8
echo
echo "== spoor dump --format=babeltrace -e 'spoor_fixture:enums' -n 2 $demo"
./build/spoor dump --format=babeltrace -e 'spoor_fixture:enums' -n 2 "$demo"
