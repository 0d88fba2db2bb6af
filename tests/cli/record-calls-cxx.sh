#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# spoor record --calls and C++ exceptions (lib/calls/unwind.c): tests/programs/calls-cxx.cc,
# built with each hook, throws through traced functions in two threads (a catch by type
# through a destructor's cleanup, a rethrow from catch (...), an int through a try that does
# not match, std::rethrow_exception) and goes on calling. It must run to its end with its own
# output, and spoor graph show each thread's exact call tree: the calls an exception left
# closed where it landed (the destructor's call after them, in the frame that ran it), the
# later calls nested as before. Uncaught, it ends in std::terminate as it does untraced; a
# thread's pthread_exit runs the destructors on its way, as untraced.
. "$(dirname "$0")/lib.sh"
: "${CALLS_CXX_FLAVOURS:?}"

tree() { # tree GRAPH TID [EVENTS]: `DEPTH NAME` for the program's calls (main, cx_*) of one
	# thread, and for its comments of EVENTS (a regex)
	python3 "$(dirname "$0")/graph-tree.py" "$1" "-$2 " 'main|cx_.*' "${@:3}"
}
indent() { # indent N: the tree on stdin N levels deeper
	awk -v n="$1" '{ print $1 + n, $2 }'
}
# cx_all's calls, from depth 0 (the destructor, ~guard, is not the program's C name: its
# cx_release counts one level under cx_guarded), and each throw in the call that threw
throw=spoor_calls:throw
all="0 cx_all
1 cx_catcher
2 cx_guarded
3 cx_middle
4 cx_thrower
5 cx_leaf
5 $throw
3 cx_release
2 cx_leaf
1 cx_rethrown
2 cx_rethrower
3 cx_middle
4 cx_thrower
5 cx_leaf
5 $throw
3 cx_leaf
3 $throw
2 cx_leaf
1 cx_any
2 cx_middle
3 cx_thrower
4 cx_leaf
4 $throw
2 cx_leaf
1 cx_saved
2 cx_middle
3 cx_thrower
4 cx_leaf
4 $throw
2 $throw
2 cx_leaf
1 cx_middle
2 cx_thrower
3 cx_leaf"
main_tree=$(printf '0 main\n%s\n1 cx_middle\n2 cx_thrower\n3 cx_leaf\n' "$(indent 1 <<<"$all")")
worker_tree=$(printf '0 cx_worker\n%s\n' "$(indent 1 <<<"$all")")

# graphed NAME [calls]: the recording's graph checked: exit 0, no warning; each thread's tree
# with its throws, or its calls only (with --calls-min, whose calls come at their exits, after
# the throws inside them, a comment's place among them is not the call it was in) (unless
# $exits is empty: clang's -finstrument-functions calls no exit hook when an exception leaves a
# function, so its calls end only at the exit of a call below them, docs/functions.md)
graphed() {
	local name=$1 g="$TMP/$1.graph"
	"$SPOOR" graph "$TMP/$name" >"$g" 2>"$TMP/$name.gerr"
	check "$name: graph exit 0, no warning" test $? -eq 0 -a ! -s "$TMP/$name.gerr"
	if [ -z "$exits" ]; then
		echo "note: $name: the trees are not checked (no exit hook in the cleanups)"
		return
	fi
	local tids main_tid worker_tid
	tids=$(grep -oE -- "-[0-9]+ +\|" "$g" | tr -dc '0-9\n' | sort -un)
	main_tid=$(echo "$tids" | head -1)
	worker_tid=$(echo "$tids" | sed -n 2p)
	if [ "${2:-}" = calls ]; then # the calls only
		check "$name: the main thread's tree, exact" \
			test "$(tree "$g" "$main_tid")" = "$(grep -v $throw <<<"$main_tree")"
		check "$name: the second thread's tree, exact" \
			test "$(tree "$g" "$worker_tid")" = "$(grep -v $throw <<<"$worker_tree")"
	else
		check "$name: the main thread's tree and throws, exact" \
			test "$(tree "$g" "$main_tid" $throw)" = "$main_tree"
		check "$name: the second thread's tree and throws, exact" \
			test "$(tree "$g" "$worker_tid" $throw)" = "$worker_tree"
	fi
	check "$name: every call an exception left has its exit (none unwound)" \
		bash -c "! grep -q unwound '$g'"
}

for flavour in $CALLS_CXX_FLAVOURS; do
	var=CALLS_CXX_${flavour^^}
	prog=${!var}
	exits=yes
	if [ $flavour = cyg ] && [ "$(objdump -d "$prog" | awk '/<cx_middle>:/,/^$/' |
		grep -c 'call.*__cyg_profile_func_exit')" -lt 2 ]; then
		exits= # the exit hook at the return only, none in a cleanup
	fi
	"$prog" >"$TMP/$flavour.plain"
	"$SPOOR" record --calls -o "$TMP/$flavour" -- "$prog" >"$TMP/$flavour.out" 2>"$TMP/$flavour.err"
	check "$flavour: the program runs to its end (exit 0)" test $? -eq 0
	check "$flavour: ... its output unchanged" cmp -s "$TMP/$flavour.plain" "$TMP/$flavour.out"
	graphed $flavour

	# the destructor filtered out: the landing in cx_guarded is still seen before cx_release
	"$SPOOR" record '--calls=main,cx_*' -o "$TMP/$flavour-names" -- "$prog" \
		>"$TMP/$flavour-names.out" 2>"$TMP/$flavour-names.err"
	check "$flavour --calls='main,cx_*': exit 0" test $? -eq 0
	graphed $flavour-names

	"$SPOOR" record --calls --calls-min=1ns -o "$TMP/$flavour-min" -- "$prog" \
		>"$TMP/$flavour-min.out" 2>"$TMP/$flavour-min.err"
	check "$flavour --calls-min=1ns: exit 0" test $? -eq 0
	graphed $flavour-min calls

	# nothing catches: std::terminate's message and SIGABRT, as untraced; the calls stay open
	"$prog" uncaught >/dev/null 2>"$TMP/$flavour-plain-uncaught.err"
	want=$?
	"$SPOOR" record --calls -o "$TMP/$flavour-uncaught" -- "$prog" uncaught \
		>/dev/null 2>"$TMP/$flavour-uncaught.err"
	check "$flavour uncaught: the same exit status ($want)" test $? -eq $want
	check "$flavour uncaught: std::terminate's message" \
		grep -q "terminate called after throwing an instance of 'std::runtime_error'" \
		"$TMP/$flavour-uncaught.err"
	"$SPOOR" graph "$TMP/$flavour-uncaught" >"$TMP/$flavour-uncaught.graph"
	tid=$(grep -oE -- "-[0-9]+ +\|" "$TMP/$flavour-uncaught.graph" | tr -dc '0-9\n' | head -1)
	# (std::terminate's handler rethrows it to print its what(): a second throw, in the same
	# place, which the process's abort may leave out)
	check "$flavour uncaught: the calls up to the throw" \
		test "$(tree "$TMP/$flavour-uncaught.graph" "$tid" $throw | uniq)" = \
		"$(printf '0 main\n1 cx_middle\n2 cx_thrower\n3 cx_leaf\n3 %s' $throw)"
	check "$flavour uncaught: ... still open (no closing brace)" \
		bash -c "! grep -q '}' '$TMP/$flavour-uncaught.graph'"

	# pthread_exit: its unwinding runs the destructor, as untraced; the calls it left end there
	"$prog" pthread_exit >"$TMP/$flavour-plain-exit.out"
	"$SPOOR" record --calls -o "$TMP/$flavour-exit" -- "$prog" pthread_exit \
		>"$TMP/$flavour-exit.out" 2>"$TMP/$flavour-exit.err"
	check "$flavour pthread_exit: exit 0" test $? -eq 0
	check "$flavour pthread_exit: the destructor ran, the output unchanged" \
		cmp -s "$TMP/$flavour-plain-exit.out" "$TMP/$flavour-exit.out"
	"$SPOOR" graph "$TMP/$flavour-exit" >"$TMP/$flavour-exit.graph"
	tid=$(grep -oE -- "-[0-9]+ +\|" "$TMP/$flavour-exit.graph" | tr -dc '0-9\n' | sort -un | sed -n 2p)
	if [ -n "$exits" ]; then
		check "$flavour pthread_exit: the thread's calls, cx_release in the destructor's frame" \
			test "$(tree "$TMP/$flavour-exit.graph" "$tid")" = \
			"$(printf '0 cx_exiter\n1 cx_exit_guarded\n2 cx_exit_deep\n3 cx_leaf\n2 cx_release')"
	fi
done

# uftrace on the same -pg program: the same trees. uftrace (0.13) ends std::rethrow_exception in
# std::terminate, so this runs without cx_saved ("cxa"). It cannot trace a program built with
# AddressSanitizer (it spins): the plain build only.
if [ -z "${CALLS_CXX_PG:-}" ] || nm -D "$CALLS_CXX_PG" 2>/dev/null | grep -q __asan_init; then
	echo "SKIP: the uftrace comparison: no -pg build, or a sanitizer build"
elif command -v uftrace >/dev/null; then
	uftrace record --no-sched -d "$TMP/uf" "$CALLS_CXX_PG" cxa >"$TMP/uf.out" 2>&1
	uftrace replay -d "$TMP/uf" >"$TMP/uf.txt" 2>/dev/null
	"$SPOOR" record --calls -o "$TMP/pg-cxa" -- "$CALLS_CXX_PG" cxa >/dev/null 2>&1
	"$SPOOR" graph "$TMP/pg-cxa" >"$TMP/pg-cxa.graph"
	utids=$(grep -oE "\[ *[0-9]+\]" "$TMP/uf.txt" | tr -dc '0-9\n' | sort -un)
	tids=$(grep -oE -- "-[0-9]+ +\|" "$TMP/pg-cxa.graph" | tr -dc '0-9\n' | sort -un)
	for k in 1 2; do
		uf=$(python3 "$(dirname "$0")/graph-tree.py" "$TMP/uf.txt" \
			"$(echo "$utids" | sed -n ${k}p)]" 'main|cx_.*')
		check "uftrace: thread $k's tree is spoor graph's" \
			test -n "$uf" -a "$uf" = "$(tree "$TMP/pg-cxa.graph" "$(echo "$tids" | sed -n ${k}p)")"
	done
else
	echo "SKIP: uftrace is not installed (apt-get install uftrace)"
fi
finish
