#!/usr/bin/env bash
# spoor list -u: the events of real binaries (PIE, non-PIE, packed relocations, shared
# libraries) against their provider headers; damaged and wrong files: a clear message and a
# clean exit, never a crash.
. "$(dirname "$0")/lib.sh"
: "${HELLO:?}" "${HELLO_NOPIE:?}" "${HELLO_RELR:?}" "${DL_PROVIDER:?}" "${LIST_PROVIDER:?}"
root=$(cd "$(dirname "$0")/../.." && pwd)

run() { # run NAME ARGS...: output in $TMP/NAME.out/.err, exit code in $TMP/NAME.rc
	local name=$1
	shift
	"$SPOOR" "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
	echo $? >"$TMP/$name.rc"
}
rc() { cat "$TMP/$1.rc"; }
# A crash shows as an exit status above 128 (killed by a signal), or, under a sanitizer, as
# its report: a clean run writes only spoor's own messages.
clean_stderr() { ! grep -q -v '^spoor list: ' "$1"; }
# One line per event with its fields, sorted: compares listings whatever the event order.
blocks() { awk '/^[^ ]/ { if (b != "") print b; b = $0; next } { b = b "|" $0 } END { if (b != "") print b }' "$@" | sort; }
same_events() { # same_events GOT WANT: the same events with the same fields, in any order
	[ -s "$1" ] && cmp -s <(blocks "$1") <(blocks "$2")
}

# ---- the events, from the provider headers ----
# `SPOOR_EVENT(hello, request,` in hello-tp.h is hello:request
sed -n 's/^SPOOR_EVENT(\([A-Za-z0-9_]*\), *\([A-Za-z0-9_]*\),.*/\1:\2/p' \
	"$root/examples/hello/hello-tp.h" | sort >"$TMP/hello.names"
check "hello-tp.h declares 3 events" test "$(wc -l <"$TMP/hello.names")" -eq 3
run hello list -u "$HELLO"
check "hello: exit 0" test "$(rc hello)" -eq 0
check "hello: the events of hello-tp.h, one PROVIDER:NAME line each" \
	bash -c "sort '$TMP/hello.out' | cmp -s - '$TMP/hello.names'"
check "hello: nothing on stderr" test ! -s "$TMP/hello.err"
if command -v nm >/dev/null; then
	# the order of the descriptors in the file (spoor__desc_PROVIDER__NAME symbols)
	nm -n "$HELLO" | sed -n 's/.* spoor__desc_\(.*\)__\(.*\)$/\1:\2/p' >"$TMP/hello.order"
	check "hello: events in the order of the file" cmp -s "$TMP/hello.out" "$TMP/hello.order"
fi

# -v: the fields as hello-tp.h declares them
cat >"$TMP/hello.v.want" <<'EOF'
hello:request
  int32_t fd
  string path
  uint64_t len (hex)
hello:tick
  uint64_t a
  uint64_t b
hello:sample
  int8_t worker
  double load
  uint16_t first[2]
  uint16_t hist[]
  char tag[4]
  char label[]
  enum (int32) state { IDLE = 0, BUSY = 1, DONE = 2 ... 9 }
EOF
run hello.v list -v -u "$HELLO"
check "hello -v: exit 0" test "$(rc hello.v)" -eq 0
check "hello -v: every field's type, as in hello-tp.h" \
	same_events "$TMP/hello.v.out" "$TMP/hello.v.want"
run hello.long list --verbose --user="$HELLO"
check "long options: --verbose --user= as -v -u" cmp -s "$TMP/hello.long.out" "$TMP/hello.v.out"

# The same program linked without PIE (absolute addresses in the file, no relocations) and
# with packed relative relocations (DT_RELR: the addends in the file).
for v in nopie:"$HELLO_NOPIE" relr:"$HELLO_RELR"; do
	run "hello-${v%%:*}" list -v -u "${v#*:}"
	check "hello ${v%%:*}: exit 0" test "$(rc "hello-${v%%:*}")" -eq 0
	check "hello ${v%%:*}: the same events and fields" \
		same_events "$TMP/hello-${v%%:*}.out" "$TMP/hello.v.want"
done
if command -v readelf >/dev/null; then
	check "hello-nopie is not PIE" bash -c "readelf -h '$HELLO_NOPIE' | grep -q 'EXEC (Executable file)'"
fi

# The dlopen'd provider of the record test (a shared library): dl-provider.c
cat >"$TMP/dl.want" <<'EOF'
plugin:loaded
  int32_t generation
  string name
EOF
run dl list -v -u "$DL_PROVIDER"
check "dl-provider: exit 0" test "$(rc dl)" -eq 0
check "dl-provider -v: the event and fields of dl-provider.c" cmp -s "$TMP/dl.out" "$TMP/dl.want"

# Network byte order, float, signed and 64-bit enums, and an exported enum table: list-provider.c
cat >"$TMP/lp.want" <<'EOF'
listprov:packet
  uint32_t addr (big-endian)
  uint16_t port (big-endian)
  float ratio
  enum (int16) level { low = -5 ... -1, zero = 0, high = 1 ... 100 }
  enum (uint64) big { max = 18446744073709551615 }
listprov:flag
  uint8_t on (hex)
EOF
run lp list -v -u "$LIST_PROVIDER"
check "list-provider: exit 0" test "$(rc lp)" -eq 0
check "list-provider -v: the events and fields of list-provider.c" \
	same_events "$TMP/lp.out" "$TMP/lp.want"
if command -v readelf >/dev/null; then
	check "list-provider: the enum table pointer is a symbol relocation" \
		bash -c "readelf -rW '$LIST_PROVIDER' | grep -q 'R_X86_64_64 .* list_level_entries'"
fi

# Several binaries: each under a header line, in the order given.
run many list -u "$HELLO" -u "$DL_PROVIDER"
check "two binaries: exit 0" test "$(rc many)" -eq 0
{ echo "$HELLO:"; cat "$TMP/hello.out"; echo; echo "$DL_PROVIDER:"; echo plugin:loaded; } >"$TMP/many.want"
check "two binaries: a header per binary, a blank line between" cmp -s "$TMP/many.out" "$TMP/many.want"

# ---- wrong input ----
run true list -u /bin/true
check "an ELF file without events: exit 0" test "$(rc true)" -eq 0
check "an ELF file without events: nothing on stdout" test ! -s "$TMP/true.out"
check "an ELF file without events: says so on stderr" grep -q 'no spoor events in /bin/true' "$TMP/true.err"

echo 'not an executable' >"$TMP/text"
run text list -u "$TMP/text"
check "a text file: exit 1" test "$(rc text)" -eq 1
check "a text file: not an ELF file" grep -q "spoor list: $TMP/text: not an ELF file" "$TMP/text.err"
: >"$TMP/empty"
run empty list -u "$TMP/empty"
check "an empty file: exit 1, not an ELF file" \
	bash -c "test $(rc empty) -eq 1 && grep -q 'not an ELF file' '$TMP/empty.err'"
run missing list -u "$TMP/does-not-exist"
check "a missing file: exit 1 and says so" \
	bash -c "test $(rc missing) -eq 1 && grep -q 'does-not-exist: No such file or directory' '$TMP/missing.err'"
run dir list -u "$TMP"
check "a directory: exit 1" test "$(rc dir)" -eq 1
run some list -u "$TMP/text" -u "$HELLO"
check "a bad file among good ones: exit 1, the good one still listed" \
	bash -c "test $(rc some) -eq 1 && grep -q '^hello:request$' '$TMP/some.out'"

# The program cut short at many lengths: a message (most say truncated), exit 1, no crash.
size=$(stat -c %s "$HELLO")
bad=0
for len in 1 3 4 5 6 16 63 64 65 120 $(seq $((size / 23)) $((size / 23)) $((size - 1))) $((size - 1)); do
	head -c "$len" "$HELLO" >"$TMP/cut"
	"$SPOOR" list -v -u "$TMP/cut" >/dev/null 2>"$TMP/cut.err"
	r=$?
	if [ "$r" -ne 1 ] || ! clean_stderr "$TMP/cut.err" ||
		! grep -q -E "^spoor list: $TMP/cut: (not an ELF file|truncated: )" "$TMP/cut.err"; then
		bad=$((bad + 1))
		echo "# cut at $len: exit $r: $(cat "$TMP/cut.err")"
	fi
done
check "hello cut at ~30 lengths: exit 1 with a clean message each time" test "$bad" -eq 0

# Damaged descriptors, with the section headers intact (python3 edits a copy).
edit_copy() { # edit_copy NAME PYTHON: runs PYTHON on the bytes b of a copy of hello ($TMP/NAME)
	python3 - "$HELLO" "$TMP/$1" "$2" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
shoff, = struct.unpack_from('<Q', b, 40)
shnum, shstrndx = struct.unpack_from('<HH', b, 60)
sec = lambda i: struct.unpack_from('<IIQQQQIIQQ', b, shoff + 64 * i)
names = sec(shstrndx)[4]
def section(name):
    for i in range(shnum):
        s = sec(i)
        if b[names + s[0]:].split(b'\0')[0] == name.encode():
            return i, s
i, s = section('spoor_events')
ev_off, ev_addr, ev_size = s[4], s[3], s[5]   # file offset, address, size
exec(sys.argv[3])
open(sys.argv[2], 'wb').write(b)
EOF
}
damaged() { # damaged NAME PYTHON MESSAGE
	edit_copy "$1" "$2"
	run "$1" list -v -u "$TMP/$1"
	check "$1: exit 1, only spoor's message on stderr" \
		bash -c "test $(rc "$1") -eq 1 && ! grep -q -v '^spoor list: ' '$TMP/$1.err'"
	check "$1: says '$3'" grep -q -- "$3" "$TMP/$1.err"
}
damaged bad-struct-size 'struct.pack_into("<I", b, ev_off, 3)' "struct_size 3 is not a descriptor's size"
damaged big-struct-size 'struct.pack_into("<I", b, ev_off, 1 << 30)' 'struct_size 1073741824 is not'
damaged struct-size-past-end 'struct.pack_into("<I", b, ev_off + 2 * 56, 64)' 'offset 112: the section ends inside a descriptor'
damaged many-fields 'struct.pack_into("<I", b, ev_off + 32, 0xffffffff)' '4294967295 fields (at most 1024)'
damaged bad-align 'struct.pack_into("<I", b, ev_off + 40, 3)' 'payload alignment 3'
damaged short-section 'struct.pack_into("<Q", b, shoff + 64 * i + 32, ev_size - 8)' 'the section ends inside a descriptor'
damaged section-past-end 'struct.pack_into("<Q", b, shoff + 64 * i + 24, len(b) - 8)' 'truncated: section spoor_events ends past the end of the file'
damaged no-section-names 'struct.pack_into("<H", b, 62, shnum + 5)' 'no section names'
damaged elf32 'b[4] = 1' 'a 32-bit ELF file'
damaged big-endian 'b[5] = 2' 'a big-endian ELF file'
damaged other-machine 'struct.pack_into("<H", b, 18, 183)' 'ELF machine 183, not x86-64'
damaged object-file 'struct.pack_into("<H", b, 16, 1)' 'an object file'
# the provider pointer of the first event, moved outside the file through its relocation
damaged wild-pointer '
r = section(".rela.dyn")[1]
for k in range(r[4], r[4] + r[5], 24):
    if struct.unpack_from("<Q", b, k)[0] == ev_addr + 8:
        struct.pack_into("<Q", b, k + 16, 0x7fff00000000)' 'provider: address 0x7fff00000000 is not in a loadable segment of the file'
# a name made of a character that is not in identifiers
damaged bad-name '
r = section(".rela.dyn")[1]
for k in range(r[4], r[4] + r[5], 24):
    if struct.unpack_from("<Q", b, k)[0] == ev_addr + 16:
        a = struct.unpack_from("<Q", b, k + 16)[0]
rodata = section(".rodata")[1]
b[rodata[4] + a - rodata[3]] = ord("-")' 'name: not an identifier'

# Random damage to the descriptors and the data they point to: never a crash.
python3 - "$HELLO" "$TMP/fuzz" <<'EOF'
import random, struct, sys
b = open(sys.argv[1], 'rb').read()
rnd = random.Random(7)
for n in range(60):
    c = bytearray(b)
    for _ in range(rnd.randint(1, 8)):
        c[rnd.randrange(len(c))] = rnd.randrange(256)
    open('%s.%d' % (sys.argv[2], n), 'wb').write(c)
EOF
crashes=0
for f in "$TMP"/fuzz.*; do
	"$SPOOR" list -v -u "$f" >/dev/null 2>"$TMP/fuzz.err"
	r=$?
	if [ "$r" -gt 1 ] || ! clean_stderr "$TMP/fuzz.err"; then
		crashes=$((crashes + 1))
		echo "# exit $r on $f: $(head -c 300 "$TMP/fuzz.err")"
	fi
done
check "hello with random bytes changed, 60 copies: exit 0 or 1, no crash" test "$crashes" -eq 0

# ---- options ----
run none list
check "no option: exit 2" test "$(rc none)" -eq 2
check "no option: prints the usage" grep -q '^usage: spoor list ' "$TMP/none.err"
run operand list "$HELLO"
check "a binary without -u: exit 2" test "$(rc operand)" -eq 2
run badopt list -x
check "unknown option: exit 2" test "$(rc badopt)" -eq 2
run noarg list -u
check "-u without a binary: exit 2" test "$(rc noarg)" -eq 2
run kernel list -k
check "-k is an option (not a usage error), no crash" \
	bash -c "r=$(rc kernel); test \$r -ne 2 -a \$r -lt 128"
if [ -w /dev/full ]; then
	"$SPOOR" list -u "$HELLO" >/dev/full 2>"$TMP/full.err"
	r=$?
	check "full disk: exit 1 and says so" \
		bash -c "test $r -eq 1 && grep -q 'No space left on device' '$TMP/full.err'"
fi
finish
