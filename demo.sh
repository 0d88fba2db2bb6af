#!/usr/bin/env bash
# First command of the README: install what spoor needs, build spoor, install it into a
# user-local prefix (PREFIX, default ~/.local), and run its main job on a demo workload:
# record the instrumented example program, then its statistics and first events; then a
# trace LTTng wrote, read the same way. Ends with how to put spoor on PATH.
set -euo pipefail
cd "$(dirname "$0")"
prefix=${PREFIX:-$HOME/.local}
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# trace-cmd and man-db: for ./run-tests.sh (the kernel comparison, the man pages)
	apt-get install -y -qq meson ninja-build pkg-config gcc python3 babeltrace2 trace-cmd \
		man-db libtracefs-dev libtraceevent-dev libluajit-5.1-dev libmicrohttpd-dev \
		libsqlite3-dev libedit-dev >/dev/null
fi
[ -d build ] || meson setup build --buildtype=release --prefix="$prefix" --libdir=lib >/dev/null
# the build's PREFIX LIBDIR (one made before may install elsewhere: point it at this prefix)
dirs() {
	meson introspect build --buildoptions | python3 -c 'import json, sys
o = {o["name"]: o["value"] for o in json.load(sys.stdin)}
print(o["prefix"], o["libdir"])'
}
read -r built_for libdir < <(dirs)
if [ "$built_for" != "$prefix" ]; then
	meson configure build -Dprefix="$prefix" -Dlibdir=lib >/dev/null
	libdir=lib
fi
ninja -C build >/dev/null
meson install -C build --no-rebuild --quiet >/dev/null
echo "== spoor is installed in $prefix (the command, man pages, bash completion, headers, libraries, pkg-config files)"
echo
export PATH="$prefix/bin:$PATH"
out=$(mktemp -d /tmp/spoor-demo.XXXXXX)
# As root, the kernel side too: its scheduler and system-call events, on the same timeline.
kernel=()
if [ "$(id -u)" = 0 ]; then
	kernel=(-k sched,syscalls)
fi
echo "== spoor record ${kernel[*]} -o $out/trace -- build/hello 1000 4   (an instrumented program, 4 threads)"
spoor record "${kernel[@]}" -o "$out/trace" -- ./build/hello 1000 4
echo
echo "== spoor stats $out/trace"
spoor stats "$out/trace"
echo
echo "== spoor dump -e 'hello:*' -n 6 $out/trace"
spoor dump -e 'hello:*' -n 6 "$out/trace"
echo
if [ -d "$out/trace/kernel" ]; then
	echo "== spoor dump --format=ftrace $out/trace: kernel and user-space events of hello, interleaved"
	spoor dump --format=ftrace "$out/trace" | grep ' hello-[0-9]' | grep -m 1 -B 8 'hello:request' || true
	echo
	echo "== spoor syscalls --comm hello --top 6 $out/trace   (an analysis: hello's system calls)"
	spoor syscalls --comm hello --top 6 "$out/trace"
	echo
	echo "== spoor watch examples/scripts/syscalls-per-process.lua -- build/hello 200 2   (a Lua script, live)"
	spoor watch examples/scripts/syscalls-per-process.lua -- ./build/hello 200 2 | head -12
	echo
fi
demo=tests/data/traces/ust-types
echo "== spoor dump --format=babeltrace -e 'spoor_fixture:enums' -n 2 $demo   (a trace LTTng wrote)"
spoor dump --format=babeltrace -e 'spoor_fixture:enums' -n 2 "$demo"
echo
echo "== to see the demo trace as a timeline in your browser (docs/view.md):"
echo "spoor view --open $out/trace      # or: spoor export --format=chrome $out/trace -o demo.json (Perfetto's UI)"
echo
echo "== to use spoor from your shell (add the lines to ~/.profile to keep them):"
echo "export PATH=\"$prefix/bin:\$PATH\""
echo "export PKG_CONFIG_PATH=\"$prefix/$libdir/pkgconfig\" LD_LIBRARY_PATH=\"$prefix/$libdir\"   # to build and run instrumented programs"
