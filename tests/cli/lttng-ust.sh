#!/usr/bin/env bash
# Programs written for LTTng-UST, built unchanged against spoor's compatibility headers
# (include/lttng-ust-compat, docs/compatibility.md), recorded by spoor record, read back as
# LTTng-UST 2.13.5 recorded the same programs: the same event names, field values and field
# types as the committed LTTng recordings (tests/data/lttng-ust/README.md), apart from the
# tracers' own env and contexts. Neither LTTng nor its headers are needed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lttng-compare.sh"
: "${CC:?}" "${SPOOR_INCLUDE:?}" "${SPOOR_UST_LIBDIR:?}"
CFLAGS=${CFLAGS:-}
src=$SPOOR_TEST_DATA/lttng-ust
traces=$SPOOR_TEST_DATA/traces
build() { # build OUT SOURCES...: warnings are errors, as a user's -Werror build would see them
	local out=$1
	shift
	$CC $CFLAGS -O2 -Wall -Wextra -Werror -I"$SPOOR_INCLUDE/lttng-ust-compat" -I"$SPOOR_INCLUDE" \
		-o "$out" "$@" -L"$SPOOR_UST_LIBDIR" -lspoor-ust -lpthread -Wl,-rpath,"$SPOOR_UST_LIBDIR"
}

# 1. the fixture provider, LTTng-UST's classic API, recorded as ust-types was (`200 2`)
build "$TMP/fixture-app" "$src/fixture-app.c" "$src/fixture-tp.c" 2>"$TMP/cc.err"
check "fixture: fixture-app.c and fixture-tp.c build unchanged, without a warning" test $? -eq 0
cat "$TMP/cc.err"
"$SPOOR" record -b 16m -o "$TMP/fixture" -- "$TMP/fixture-app" 200 2 2>/dev/null
check "fixture: recorded" test $? -eq 0
compare fixture "$traces/ust-types" "$TMP/fixture" 3600

# 2. classes and instances, automatic enum values, _nowrite fields, both APIs' spellings:
# tests/data/gen-tp/kinds.tp made into a provider as lttng-gen-tp makes it (its '# '
# comment lines dropped), and the program LTTng recorded as gen-tp-kinds
mkdir "$TMP/kinds"
{
	printf '#undef LTTNG_UST_TRACEPOINT_PROVIDER\n#define LTTNG_UST_TRACEPOINT_PROVIDER kinds\n'
	printf '#undef LTTNG_UST_TRACEPOINT_INCLUDE\n#define LTTNG_UST_TRACEPOINT_INCLUDE "./kinds.h"\n'
	printf '#if !defined(KINDS_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)\n'
	printf '#define KINDS_H\n#include <lttng/tracepoint.h>\n'
	grep -v '^# ' "$SPOOR_TEST_DATA/gen-tp/kinds.tp"
	printf '#endif /* KINDS_H */\n#include <lttng/tracepoint-event.h>\n'
} >"$TMP/kinds/kinds.h"
printf '#define LTTNG_UST_TRACEPOINT_CREATE_PROBES\n#define LTTNG_UST_TRACEPOINT_DEFINE\n#include "kinds.h"\n' \
	>"$TMP/kinds/kinds.c"
cp "$SPOOR_TEST_DATA/gen-tp/kinds-app.c" "$TMP/kinds/"
build "$TMP/kinds/app" "$TMP/kinds/kinds-app.c" "$TMP/kinds/kinds.c" 2>"$TMP/cc.err"
check "kinds: the program builds, without a warning" test $? -eq 0
cat "$TMP/cc.err"
"$SPOOR" record -o "$TMP/kt" -- "$TMP/kinds/app" 2>/dev/null
check "kinds: recorded" test $? -eq 0
compare kinds "$traces/gen-tp-kinds" "$TMP/kt" 35
if command -v c++ >/dev/null; then # LTTng-UST takes C++ providers and call sites too
	c++ -std=c++11 -O2 -Wall -Wextra -Werror -I"$SPOOR_INCLUDE/lttng-ust-compat" -I"$SPOOR_INCLUDE" \
		-x c++ -c -o "$TMP/kinds/cxx.o" "$TMP/kinds/kinds.c" 2>"$TMP/cc.err"
	check "kinds: the provider builds as C++, without a warning" test $? -eq 0
	cat "$TMP/cc.err"
fi

# 3. LTTng-UST 2.13's own names only (LTTNG_UST_COMPAT_API_VERSION 1), sequences with
# lengths of their own types, tracef() and tracelog() in both APIs' names; compiled by bare
# names from their folder, as LTTng's recording was, for tracelog's `file` field
(cd "$src" && build "$TMP/api213-app" api213-app.c api213-tp.c old-names.c) 2>"$TMP/cc.err"
check "api213: the program builds, without a warning" test $? -eq 0
cat "$TMP/cc.err"
"$SPOOR" record -o "$TMP/api213" -- "$TMP/api213-app" 6 1 2>/dev/null
check "api213: recorded" test $? -eq 0
compare api213 "$traces/ust-api213" "$TMP/api213" 67
check "api213: tracef's message longer than spoor's stack buffer, whole" \
	grep -q '^lttng_ust_tracef:event: { _msg_length = 701, msg = "x\{699\} 1" }$' "$TMP/api213-spoor.txt"

# 4. what spoor adds: tracelog() takes the level names before 2.13 (TRACE_ERR), and a level
# known at run time; and LTTNG_UST_COMPAT_API_VERSION 1 leaves the earlier names undefined
cat >"$TMP/levels.c" <<'EOF'
#include <lttng/tracelog.h>
#ifndef tracepoint
#error "tracepoint() is defined by default"
#endif
int main(int argc, char **argv)
{
	(void) argv;
	tracelog(TRACE_ERR, "by the old name");
	tracelog(argc + 5, "level %d", argc + 5); /* LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO */
	tracelog(99, "no such level");
	return 0;
}
EOF
build "$TMP/levels" "$TMP/levels.c" 2>"$TMP/cc.err"
check "levels: builds, without a warning" test $? -eq 0
cat "$TMP/cc.err"
"$SPOOR" record -o "$TMP/lv" -- "$TMP/levels" 2>/dev/null
payloads "$TMP/lv" >"$TMP/lv.txt"
check "levels: TRACE_ERR is LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR" grep -q \
	'^lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR: { line = 8, file = "[^"]*levels.c", func = "main", _msg_length = 15, msg = "by the old name" }$' "$TMP/lv.txt"
check "levels: a level in a variable" \
	grep -q '^lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO: .* msg = "level 6" }$' "$TMP/lv.txt"
check "levels: no event for a level that is none" test "$(wc -l <"$TMP/lv.txt")" -eq 2
check "levels: only the levels used are in the metadata" \
	test "$(grep -c 'name = "lttng_ust_tracelog:' "$(find "$TMP/lv" -name metadata)")" -eq 2
printf '#define LTTNG_UST_COMPAT_API_VERSION 1\n#include <lttng/tracef.h>\n#include <lttng/tracelog.h>\n#if defined(tracepoint) || defined(TRACEPOINT_EVENT) || defined(ctf_integer) || defined(tracef) || defined(tracelog) || defined(TRACE_ERR)\n#error "an earlier name"\n#endif\nint main(void) { return 0; }\n' \
	>"$TMP/v1.c"
build "$TMP/v1" "$TMP/v1.c" 2>"$TMP/cc.err"
check "LTTNG_UST_COMPAT_API_VERSION 1: no earlier name defined" test $? -eq 0
cat "$TMP/cc.err"

# 5. clear errors at build time: TRACEPOINT_DEFINE after the first inclusion
printf '#include <lttng/tracepoint.h>\n#define TRACEPOINT_DEFINE\n#include "fixture-tp.h"\nint main(void) { return 0; }\n' \
	>"$TMP/late.c"
build "$TMP/late" -I"$src" "$TMP/late.c" 2>"$TMP/late.err"
check "TRACEPOINT_DEFINE too late: the build fails" test $? -ne 0
check "TRACEPOINT_DEFINE too late: says so" \
	grep -q 'TRACEPOINT_DEFINE must be defined before the first #include of <lttng/tracepoint.h>' "$TMP/late.err"
for h in ust-fork ust-clock ust-getcpu; do # LTTng-UST's, not spoor's: never mixed in
	printf '#include <lttng/%s.h>\nint main(void) { return 0; }\n' "$h" >"$TMP/$h.c"
	build "$TMP/$h" "$TMP/$h.c" 2>"$TMP/$h.err"
	check "<lttng/$h.h>: the build fails, and says why" test $? -ne 0 -a \
		"$(grep -c "<lttng/$h.h> is not part of spoor's LTTng-UST compatibility" "$TMP/$h.err")" -ge 1
done
printf '#include <lttng/ust-version.h>\n#if LTTNG_UST_MAJOR_VERSION != 2 || LTTNG_UST_MINOR_VERSION != 13\n#error version\n#endif\nint main(void) { return 0; }\n' \
	>"$TMP/version.c"
build "$TMP/version" "$TMP/version.c" 2>"$TMP/cc.err"
check "<lttng/ust-version.h>: the API is 2.13's" test $? -eq 0
finish
