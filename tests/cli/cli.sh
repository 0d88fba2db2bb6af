#!/usr/bin/env bash
# The command line itself: version, help, every option documented.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)

v=$("$SPOOR" --version)
check "--version prints the version" test "$v" = "spoor $(sed -n "s/^  version : '\(.*\)',$/\1/p" "$root/meson.build")"
"$SPOOR" >/dev/null 2>&1
check "no command: exit 2" test $? -eq 2
"$SPOOR" frobnicate >/dev/null 2>&1
check "unknown command: exit 2" test $? -eq 2
"$SPOOR" help >"$TMP/help"
for cmd in record dump stats list irq sched syscalls disk analyze export script daemon session; do
	check "spoor help lists $cmd" grep -q "^  $cmd " "$TMP/help"
	"$SPOOR" help "$cmd" >"$TMP/$cmd.help"
	check "spoor help $cmd exits 0" test $? -eq 0
	"$SPOOR" "$cmd" --help >"$TMP/$cmd.help2"
	check "spoor $cmd --help = spoor help $cmd" cmp -s "$TMP/$cmd.help" "$TMP/$cmd.help2"
	# every option of the command's table is documented in docs/cli.md
	for opt in $(grep -o -E -- '--[a-z-]+' "$TMP/$cmd.help" | sort -u); do
		check "$cmd $opt is documented in docs/cli.md" grep -q -- "$opt" "$root/docs/cli.md"
	done
done
# libmicrohttpd and the libraries it needs are loaded by spoor view only (lib/view/mhd.c):
# the commands that read traces start without them
LD_DEBUG=libs "$SPOOR" stats "$SPOOR_TEST_DATA/traces/ust-types" 2>"$TMP/libs" >/dev/null
check "spoor stats runs" test $? -eq 0
check "spoor stats loads libc (LD_DEBUG works)" grep -q 'libc\.so' "$TMP/libs"
check "spoor stats does not load libmicrohttpd" bash -c "! grep -q microhttpd '$TMP/libs'"
finish
