#!/usr/bin/env bash
# First command of the README: install what spoor needs, build it, and run its main job on a
# demo workload: record the instrumented example program, then its statistics and first
# events; then a trace LTTng wrote, read the same way.
set -euo pipefail
cd "$(dirname "$0")"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq meson ninja-build pkg-config gcc python3 babeltrace2 \
		libtracefs-dev libtraceevent-dev libluajit-5.1-dev >/dev/null
fi
[ -d build ] || meson setup build --buildtype=release >/dev/null
ninja -C build >/dev/null
out=$(mktemp -d /tmp/spoor-demo.XXXXXX)
# As root, the kernel side too: its scheduler and system-call events, on the same timeline.
kernel=()
if [ "$(id -u)" = 0 ]; then
	kernel=(-k sched,syscalls)
fi
echo "== spoor record ${kernel[*]} -o $out/trace -- build/hello 1000 4   (an instrumented program, 4 threads)"
./build/spoor record "${kernel[@]}" -o "$out/trace" -- ./build/hello 1000 4
echo
echo "== spoor stats $out/trace"
./build/spoor stats "$out/trace"
echo
echo "== spoor dump -e 'hello:*' -n 6 $out/trace"
./build/spoor dump -e 'hello:*' -n 6 "$out/trace"
echo
if [ -d "$out/trace/kernel" ]; then
	echo "== spoor dump --format=ftrace $out/trace: kernel and user-space events of hello, interleaved"
	./build/spoor dump --format=ftrace "$out/trace" | grep ' hello-[0-9]' | grep -m 1 -B 8 'hello:request' || true
	echo
	echo "== spoor syscalls --comm hello --top 6 $out/trace   (an analysis: hello's system calls)"
	./build/spoor syscalls --comm hello --top 6 "$out/trace"
	echo
	echo "== spoor watch examples/scripts/syscalls-per-process.lua -- build/hello 200 2   (a Lua script, live)"
	./build/spoor watch examples/scripts/syscalls-per-process.lua -- ./build/hello 200 2 | head -12
	echo
fi
demo=tests/data/traces/ust-types
echo "== spoor dump --format=babeltrace -e 'spoor_fixture:enums' -n 2 $demo   (a trace LTTng wrote)"
./build/spoor dump --format=babeltrace -e 'spoor_fixture:enums' -n 2 "$demo"
