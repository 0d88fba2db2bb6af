#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make-elf-seeds.sh: writes the seeds of fuzz-elf to corpus/elf/: the test providers linked
# as small as the linker allows (no libc, byte-aligned segments, stripped), one per way a
# descriptor's pointers reach the file: relative relocations (a shared library), a symbol
# relocation (list-provider.c's exported enum table), absolute addresses (a non-PIE
# executable) and packed relocations (DT_RELR). Run it again after changing the descriptor
# layout (include/spoor/tracepoint-types.h). Needs gcc and binutils >= 2.38.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
src=../..
out=corpus/elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
small=(-Os -nostdlib -I"$src/include" -I"$src/examples/hello" -Wl,-z,noseparate-code
	-Wl,-z,max-page-size=16 -Wl,--build-id=none -Wl,--hash-style=gnu)
# undefined spoor_* calls are fine: nothing runs these files
exe=(-Wl,--unresolved-symbols=ignore-all -Wl,-e,0)

gcc "${small[@]}" -fPIC -shared "$src/tests/programs/list-provider.c" -o "$tmp/list-provider.so"
gcc "${small[@]}" -fPIC -shared "$src/examples/hello/hello-tp.c" -o "$tmp/hello-tp.so"
gcc "${small[@]}" -fno-pie -no-pie -static "${exe[@]}" "$src/examples/hello/hello-tp.c" \
	-o "$tmp/hello-tp-nopie"
gcc "${small[@]}" -fPIE -pie "${exe[@]}" -Wl,-z,pack-relative-relocs \
	"$src/examples/hello/hello-tp.c" -o "$tmp/hello-tp-relr"
gcc "${small[@]}" -fPIC -shared "$src/tests/programs/dl-provider.c" -o "$tmp/dl-provider.so"
for f in "$tmp"/*; do
	strip --strip-all -R .comment "$f" -o "$out/seed-$(basename "$f")"
	chmod 644 "$out/seed-$(basename "$f")"
done
# for the function table (elf-symtab.c): .symtab kept, and a build-id note
gcc "${small[@]/--build-id=none/--build-id=sha1}" -fPIC -shared \
	"$src/tests/programs/list-provider.c" -o "$tmp/symtab.so"
strip --strip-debug -R .comment "$tmp/symtab.so" -o "$out/seed-symtab.so"
chmod 644 "$out/seed-symtab.so"
ls -l "$out"
