#!/usr/bin/env bash
# spoor gen-tp: lttng-gen-tp's templates made into spoor providers, built into programs,
# recorded, and read back as LTTng recorded the same programs built from lttng-gen-tp's
# output (tests/data/traces/ust-types, gen-tp-kinds): the fixture provider's events, every
# form of the syntax; the outputs -o names; clear errors for bad templates. Neither
# lttng-gen-tp nor LTTng is needed: their recordings are committed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lttng-compare.sh"
: "${CC:?}" "${SPOOR_INCLUDE:?}" "${SPOOR_UST_LIBDIR:?}"
CFLAGS=${CFLAGS:-}
data=$SPOOR_TEST_DATA/gen-tp
build() { # build OUT SOURCES...: warnings are errors, as a user's -Werror build would see them
	local out=$1
	shift
	$CC $CFLAGS -O2 -Wall -Wextra -Werror -I"$SPOOR_INCLUDE" -o "$out" "$@" \
		-L"$SPOOR_UST_LIBDIR" -lspoor-ust -lpthread -Wl,-rpath,"$SPOOR_UST_LIBDIR"
}

# 1. the fixture provider of tests/data/lttng-ust, as a template: its program, unchanged,
# records what LTTng recorded
mkdir "$TMP/fx"
cp "$SPOOR_TEST_DATA/lttng-ust/fixture-app.c" "$TMP/fx/" # beside the generated header
"$SPOOR" gen-tp -o "$TMP/fx/fixture-tp.h" -o "$TMP/fx/fixture-tp.c" "$data/fixture.tp" \
	2>"$TMP/fx.err"
check "fixture: gen-tp exits 0, without a warning" test $? -eq 0 -a ! -s "$TMP/fx.err"
check "fixture: the header and the C file" test -s "$TMP/fx/fixture-tp.h" -a -s "$TMP/fx/fixture-tp.c"
build "$TMP/fx/app" "$TMP/fx/fixture-app.c" "$TMP/fx/fixture-tp.c" 2>"$TMP/fx-cc.err"
check "fixture: fixture-app.c builds unchanged, without a warning" test $? -eq 0
cat "$TMP/fx-cc.err"
"$SPOOR" record -b 16m -o "$TMP/fx/trace" -- "$TMP/fx/app" 200 2 2>/dev/null
check "fixture: recorded" test $? -eq 0
compare fixture "$SPOOR_TEST_DATA/traces/ust-types" "$TMP/fx/trace" 3600

# 2. every form of the syntax; the outputs beside the template by default
cp "$data/kinds.tp" "$data/kinds-app.c" "$TMP/"
"$SPOOR" gen-tp "$TMP/kinds.tp" 2>"$TMP/kinds.err"
check "kinds: gen-tp exits 0, without a warning" test $? -eq 0 -a ! -s "$TMP/kinds.err"
check "kinds: kinds.h and kinds.c beside the template" test -s "$TMP/kinds.h" -a -s "$TMP/kinds.c"
check "kinds: the C file defines the probes and includes the header" \
	test "$(grep -v '^[/ ]\*' "$TMP/kinds.c")" = "$(printf '#define SPOOR_CREATE_PROBES\n#include "kinds.h"')"
build "$TMP/kinds-app" "$TMP/kinds-app.c" "$TMP/kinds.c" 2>"$TMP/kinds-cc.err"
check "kinds: the program builds, without a warning" test $? -eq 0
cat "$TMP/kinds-cc.err"
"$SPOOR" record -o "$TMP/kt" -- "$TMP/kinds-app" 2>/dev/null
check "kinds: recorded" test $? -eq 0
"$SPOOR" dump "$TMP/kt" | cut -d' ' -f2- >"$TMP/kinds.txt"
check "kinds: 7 rounds of 5 events" test "$(wc -l <"$TMP/kinds.txt")" -eq 35
# LTTng's recording of the same program built from lttng-gen-tp's output (README.md there)
compare kinds "$SPOOR_TEST_DATA/traces/gen-tp-kinds" "$TMP/kt" 35
# the enum's automatic values follow CTF's rule: one more than the entry before's last
for want in 'kinds:begin: id=0 phase=( "START" : container = 0 ) who="worker"' \
	'kinds:end: id=1 phase=( "RUN" : container = 1 ) who="boss"' \
	'kinds:begin: id=2 phase=( "WAIT" : container = 40 ) who="worker"' \
	'kinds:end: id=3 phase=( "WOKEN" : container = 41 ) who="boss"' \
	'kinds:begin: id=4 phase=( "LATE" : container = 55 ) who="worker"' \
	'kinds:end: id=5 phase=( "END" : container = 60 ) who="boss"' \
	'kinds:begin: id=6 phase=( <unknown> : container = 7 ) who="worker"' \
	'kinds:buffer: _bytes_length=3 bytes=[ [0] = 1, [1] = 2, [2] = 3 ] ratio=1.5 port=8080' \
	'kinds:tick:' 'kinds:tock: constant=-7'; do
	check "kinds: $want" grep -qxF "$want" "$TMP/kinds.txt"
done
meta=$(cat "$TMP"/kt/ust/pid/*/metadata)
check "kinds: a sequence's length has the template's type (size_t), as LTTng writes it" \
	grep -q 'integer { size = 64; .* signed = 0; .*} __bytes_length;' <<<"$meta"
for f in hidden_id hidden_who first text nophase; do # _nowrite: in no trace, as with LTTng
	check "kinds: the _nowrite field $f is in no event" test -z "$(grep -w "_$f" <<<"$meta")"
done

# the generated header and spoor's compatibility <lttng/tracepoint.h> in one file, in
# either order: the call-site macros are spelled alike, so neither redefines the other's
for first in '"kinds.h"' '<lttng/tracepoint.h>'; do
	second='<lttng/tracepoint.h>'
	[ "$first" = "$second" ] && second='"kinds.h"'
	printf '#include %s\n#include %s\n' "$first" "$second" >"$TMP/both.c"
	sed '/#include "kinds.h"/d' "$TMP/kinds-app.c" >>"$TMP/both.c"
	build "$TMP/both" -I"$TMP" -I"$SPOOR_INCLUDE/lttng-ust-compat" "$TMP/both.c" "$TMP/kinds.c" \
		2>"$TMP/both.err"
	check "kinds: with <lttng/tracepoint.h> too, $first first: builds without a warning" test $? -eq 0
	cat "$TMP/both.err"
done

# 3. what -o names: only those files; the C file includes the header by its base name
mkdir "$TMP/o" "$TMP/o/a" "$TMP/o/b"
cp "$data/kinds.tp" "$TMP/o/"
"$SPOOR" gen-tp -o "$TMP/o/only.h" "$TMP/o/kinds.tp"
check "-o FILE.h: only the header" test "$(ls "$TMP/o" | tr '\n' ' ')" = "a b kinds.tp only.h "
check "-o FILE.h: its include guard, as lttng-gen-tp makes it" grep -qx '#define ONLY_H' "$TMP/o/only.h"
"$SPOOR" gen-tp --output="$TMP/o/b/two.c" -o "$TMP/o/a/one.h" "$TMP/o/kinds.tp"
check "-o a/one.h -o b/two.c: two.c includes \"one.h\"" grep -qx '#include "one.h"' "$TMP/o/b/two.c"
"$SPOOR" gen-tp -o "$TMP/o/b/three.c" "$TMP/o/kinds.tp"
check "-o three.c alone: it includes \"three.h\"" grep -qx '#include "three.h"' "$TMP/o/b/three.c"
check "-o three.c alone: no header written" test ! -e "$TMP/o/b/three.h"

# 4. bad templates and arguments: the place and what is wrong, exit status 1, nothing
# written
bad() { # bad NAME 'EXPECTED STDERR LINE' [TEMPLATE TEXT from stdin]
	cat >"$TMP/bad/$1.tp"
	(cd "$TMP/bad" && "$SPOOR" gen-tp "$1.tp" >/dev/null 2>"$1.err")
	local rc=$?
	check "bad $1: exit 1" test $rc -eq 1
	check "bad $1: '$2'" grep -qxF "$2" "$TMP/bad/$1.err"
	check "bad $1: nothing written" test ! -e "$TMP/bad/$1.h" -a ! -e "$TMP/bad/$1.c"
}
mkdir "$TMP/bad"
bad unclosed "spoor gen-tp: unclosed.tp:2:17: this '(' of TRACEPOINT_EVENT is never closed" <<'EOF'
// the last ')' is missing
TRACEPOINT_EVENT(p, e, TP_ARGS(int, a), TP_FIELDS(ctf_integer(int, a, a))
EOF
bad field "spoor gen-tp: field.tp:3:3: 'ctf_intger' is not one of LTTng-UST's field macros (ctf_integer, ctf_string, ...)" <<'EOF'
TRACEPOINT_EVENT(p, e, TP_ARGS(int, a),
	TP_FIELDS(ctf_integer(int, a, a)
		ctf_intger(int, b, a)))
EOF
bad nargs "spoor gen-tp: nargs.tp:1:51: ctf_integer takes 3 arguments (type, name, expression), not 2" <<'EOF'
TRACEPOINT_EVENT(p, e, TP_ARGS(int, a), TP_FIELDS(ctf_integer(int, a)))
EOF
bad args "spoor gen-tp: args.tp:1:24: TP_ARGS takes a type and a name for each argument: 3 given" <<'EOF'
TRACEPOINT_EVENT(p, e, TP_ARGS(int, a, char *), TP_FIELDS(ctf_integer(int, a, a)))
EOF
bad name "spoor gen-tp: name.tp:1:21: expected the event's name (an identifier)" <<'EOF'
TRACEPOINT_EVENT(p, "e", TP_ARGS(int, a), TP_FIELDS())
EOF
bad comma "spoor gen-tp: comma.tp:1:73: TP_FIELDS takes its field macros one after another, without commas" <<'EOF'
TRACEPOINT_EVENT(p, e, TP_ARGS(int, a), TP_FIELDS(ctf_integer(int, a, a), ctf_integer(int, b, a)))
EOF
bad twice "spoor gen-tp: twice.tp:1:95: a second field named 'a' in the event" <<'EOF'
TRACEPOINT_EVENT(p, e, TP_ARGS(int, a), TP_FIELDS(ctf_integer(int, a, a) ctf_integer_hex(int, a, a)))
EOF
bad enum "spoor gen-tp: enum.tp:1:51: no TRACEPOINT_ENUM(p, colour, ...) in the template" <<'EOF'
TRACEPOINT_EVENT(p, e, TP_ARGS(int, a), TP_FIELDS(ctf_enum(p, colour, int, c, a)))
EOF
bad class "spoor gen-tp: class.tp:1:1: no TRACEPOINT_EVENT_CLASS(p, cls, ...) in the template" <<'EOF'
TRACEPOINT_EVENT_INSTANCE(p, cls, e, TP_ARGS(int, a))
EOF
bad dup "spoor gen-tp: dup.tp:2:1: a second event p:e" <<'EOF'
TRACEPOINT_EVENT(p, e, TP_ARGS(), TP_FIELDS())
TRACEPOINT_EVENT(p, e, TP_ARGS(), TP_FIELDS())
EOF
bad entry "spoor gen-tp: entry.tp:1:1: 'TRACEPOINT_EVNT' is not a template entry (TRACEPOINT_EVENT, TRACEPOINT_EVENT_CLASS, TRACEPOINT_EVENT_INSTANCE, TRACEPOINT_ENUM, TRACEPOINT_LOGLEVEL)" <<'EOF'
TRACEPOINT_EVNT(p, e, TP_ARGS(), TP_FIELDS())
EOF
bad string "spoor gen-tp: string.tp:2:26: unterminated string literal" <<'EOF'
TRACEPOINT_EVENT(p, e, TP_ARGS(),
	TP_FIELDS(ctf_string(s, "no end here)))
EOF
bad comment "spoor gen-tp: comment.tp:1:1: unterminated comment" <<'EOF'
/* TRACEPOINT_EVENT(p, e, TP_ARGS(), TP_FIELDS())
EOF
bad empty "spoor gen-tp: empty.tp:2:1: no events in the template (TRACEPOINT_EVENT or TRACEPOINT_EVENT_INSTANCE)" <<'EOF'
#include <stdint.h>
EOF
bad noentries "spoor gen-tp: noentries.tp:1:23: an enum without entries" <<'EOF'
TRACEPOINT_ENUM(p, c, TP_ENUM_VALUES())
TRACEPOINT_EVENT(p, e, TP_ARGS(), TP_FIELDS())
EOF
bad directive "spoor gen-tp: directive.tp:2:1: a preprocessor line inside TRACEPOINT_EVENT(...)" <<'EOF'
TRACEPOINT_EVENT(p, e, TP_ARGS(int, a), TP_FIELDS(
#ifdef X
	ctf_integer(int, a, a)))
EOF
printf 'TRACEPOINT_EVENT(p, e, \001\377' | bad bytes "spoor gen-tp: bytes.tp:1:24: unexpected byte 0x01 (not C)"
printf 'TRACEPOINT_EVENT(p, e, TP_ARGS(), TP_FIELDS())\n\0' | bad nul "spoor gen-tp: nul.tp:2:1: unexpected byte 0x00 (not C)"

"$SPOOR" gen-tp "$TMP/missing.tp" 2>"$TMP/missing.err"
check "a missing template: exit 1, said" test $? -eq 1 -a "$(cat "$TMP/missing.err")" = "spoor gen-tp: $TMP/missing.tp: No such file or directory"
mkdir "$TMP/dir.tp"
"$SPOOR" gen-tp "$TMP/dir.tp" 2>"$TMP/dir.err"
check "a directory: exit 1, said" test $? -eq 1 -a "$(cat "$TMP/dir.err")" = "spoor gen-tp: $TMP/dir.tp: Is a directory"
mkfifo "$TMP/fifo.tp"
timeout 20 "$SPOOR" gen-tp "$TMP/fifo.tp" 2>/dev/null
check "a FIFO: exit 1, not waited on for a writer" test $? -eq 1
"$SPOOR" gen-tp "$data/kinds-app.c" 2>/dev/null
check "a template's name ends in .tp: exit 2" test $? -eq 2
"$SPOOR" gen-tp -o "$TMP/x.o" "$data/kinds.tp" 2>"$TMP/o.err"
check "-o FILE.o: exit 2, said" test $? -eq 2 -a -n "$(grep 'not an object' "$TMP/o.err")"
"$SPOOR" gen-tp -o "$TMP/x.h" "$data/kinds.tp" "$data/fixture.tp" 2>/dev/null
check "-o with two templates: exit 2" test $? -eq 2
"$SPOOR" gen-tp 2>/dev/null
check "no template: exit 2" test $? -eq 2
head -c $((4 * 1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >"$TMP/big.tp"
"$SPOOR" gen-tp "$TMP/big.tp" 2>"$TMP/big.err"
check "a template over 4 MiB: exit 1, said" test $? -eq 1 -a "$(cat "$TMP/big.err")" = "spoor gen-tp: $TMP/big.tp: larger than 4 MiB, the most a template may be"

finish
