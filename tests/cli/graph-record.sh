#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# spoor graph on real recordings: tests/programs/calls-tree.c built with -finstrument-functions
# and with -pg, recorded by spoor record --calls: each thread's call tree is the program's
# own (the tree its source says), the profile's calls its own counters; and the -pg build
# recorded by uftrace gives the same tree (uftrace replay against spoor graph, modulo layout).
. "$(dirname "$0")/lib.sh"
: "${CALLS_TREE_CYG:?}" "${CALLS_TREE_PG:?}"
if ! "$SPOOR" help record 2>&1 | grep -q -- "--calls"; then
	echo "SKIP: this spoor record has no --calls"
	echo "0 passed, 0 failed, 1 skipped"
	exit 77
fi

# `DEPTH NAME` for each call of one thread of a function graph (spoor's or uftrace's) to a
# function of the program (main, ct_*): graph-tree.py.
tree() { # tree FILE TID
	python3 "$(dirname "$0")/graph-tree.py" "$1" "$2" 'main|ct_.*'
}
main_tree="0 main
1 ct_a
2 ct_leaf1
2 ct_b
3 ct_leaf2
1 ct_leaf1
1 ct_rec
2 ct_rec
3 ct_rec
1 ct_jump_f
2 ct_jump_g
3 ct_jump_h
1 ct_work
2 ct_handler
3 ct_leaf2"
thread_tree="0 ct_thread
1 ct_leaf1
1 ct_leaf1"

for flavour in cyg pg; do
	prog=$CALLS_TREE_CYG
	[ $flavour = pg ] && prog=$CALLS_TREE_PG
	"$SPOOR" record --calls -o "$TMP/$flavour" -- "$prog" >"$TMP/$flavour.counts" 2>"$TMP/$flavour.rec"
	check "$flavour: recorded" test $? -eq 0
	"$SPOOR" graph "$TMP/$flavour" >"$TMP/$flavour.graph" 2>"$TMP/$flavour.err"
	check "$flavour: graph exit 0, no warning" test $? -eq 0 -a ! -s "$TMP/$flavour.err"
	tids=$(grep -oE -- "-[0-9]+ +\|" "$TMP/$flavour.graph" | tr -dc '0-9\n' | sort -un)
	main_tid=$(echo "$tids" | head -1)
	other_tid=$(echo "$tids" | sed -n 2p)
	check "$flavour: the main thread's tree" test "$(tree "$TMP/$flavour.graph" "-$main_tid ")" = "$main_tree"
	check "$flavour: the second thread's tree" \
		test "$(tree "$TMP/$flavour.graph" "-$other_tid ")" = "$thread_tree"
	"$SPOOR" graph --profile --json "$TMP/$flavour" >"$TMP/$flavour.json"
	check "$flavour: the profile's calls are the program's counters" python3 -c '
import json, sys
prof = {f["name"]: f["hits"] + f["partial"] for f in json.load(open(sys.argv[1]))["functions"]}
want = {l.split()[0]: int(l.split()[1]) for l in open(sys.argv[2]) if l.startswith("ct_")}
bad = {n: (prof.get(n), c) for n, c in want.items() if prof.get(n) != c}
sys.exit(0 if not bad else print(bad) or 1)' "$TMP/$flavour.json" "$TMP/$flavour.counts"
done

# uftrace: the same -pg program, its replay's tree per thread against spoor graph's (with
# the C library's calls recorded: uftrace follows a longjmp through its setjmp and longjmp
# hooks, without them it nests what follows under the function left).
# uftrace cannot trace a program built with AddressSanitizer (it spins): the comparison runs
# in the plain build.
if command -v uftrace >/dev/null && ! nm -D "$CALLS_TREE_PG" 2>/dev/null | grep -q __asan_init; then
	uftrace record --no-sched -d "$TMP/uf" "$CALLS_TREE_PG" >/dev/null 2>&1
	uftrace replay -d "$TMP/uf" >"$TMP/uf.txt" 2>/dev/null
	utids=$(grep -oE "\[ *[0-9]+\]" "$TMP/uf.txt" | tr -dc '0-9\n' | sort -un)
	check "uftrace: the main thread's tree is spoor graph's" \
		test "$(tree "$TMP/uf.txt" "$(echo "$utids" | head -1)]")" = "$main_tree"
	check "uftrace: the second thread's tree is spoor graph's" \
		test "$(tree "$TMP/uf.txt" "$(echo "$utids" | sed -n 2p)]")" = "$thread_tree"
elif command -v uftrace >/dev/null; then
	echo "SKIP: the uftrace comparison: a sanitizer build (uftrace cannot trace it)"
else
	echo "SKIP: uftrace is not installed (apt-get install uftrace)"
fi
finish
