#!/usr/bin/env bash
# `meson install` gives a user everything: installed into a DESTDIR, the example program and
# the example plug-in build with pkg-config alone, the installed spoor records and reads,
# every man page formats without a warning, the bash completion offers every option, and the
# systemd units pass `systemd-analyze verify`.
. "$(dirname "$0")/lib.sh"
: "${SPOOR_BUILD:?}" "${PLUGIN:?}"
root=$(cd "$(dirname "$0")/../.." && pwd)
need pkg-config pkg-config
CC=${CC:-cc}
CFLAGS=${CFLAGS:-}
dest="$TMP/dest"
option() { # the build's value of a meson option
	meson introspect --buildoptions "$SPOOR_BUILD" | /usr/bin/python3 -c 'import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]))' "$1"
}

meson install -C "$SPOOR_BUILD" --no-rebuild --quiet --destdir "$dest" >"$TMP/install.log" 2>&1
check "meson install --destdir exits 0" test $? -eq 0 || cat "$TMP/install.log"
installed() { find "$dest" -path "*/$1" 2>/dev/null | head -n 1; }
bin=$(installed bin/spoor)
pc=$(installed pkgconfig/spoor-ust.pc)
check "spoor is installed" test -x "$bin"
check "spoor-ust.pc and spoor.pc are installed" test -f "$pc" -a -f "${pc%/*}/spoor.pc"
check "spoor-lttng-ust.pc is installed" test -f "${pc%/*}/spoor-lttng-ust.pc"
for h in spoor.h trace.h plugin.h tracepoint.h tracepoint-types.h; do
	check "spoor/$h is installed" test -f "$(installed "include/spoor/$h")"
done

# pkg-config alone, and only the installed files: no other search path
export PKG_CONFIG_LIBDIR="${pc%/*}" PKG_CONFIG_PATH= PKG_CONFIG_SYSROOT_DIR="$dest"
libdir=$(pkg-config --libs-only-L spoor-ust | sed 's/^ *-L//; s/ *$//')
check "pkg-config finds the library in the DESTDIR ($libdir)" test -e "$libdir/libspoor-ust.so"
$CC $CFLAGS -O2 -Wall -o "$TMP/hello" "$root/examples/hello/hello.c" "$root/examples/hello/hello-tp.c" \
	$(pkg-config --cflags --libs spoor-ust) 2>"$TMP/cc.log"
check "examples/hello builds with pkg-config --cflags --libs spoor-ust" test $? -eq 0 -a ! -s "$TMP/cc.log"
cat "$TMP/cc.log"
LD_LIBRARY_PATH="$libdir" "$bin" record -o "$TMP/trace" -- "$TMP/hello" 25 3 >"$TMP/record.log" 2>&1
check "the installed spoor records the example" test $? -eq 0
LD_LIBRARY_PATH="$libdir" ldd "$TMP/hello" | grep -q "=> $libdir/libspoor-ust.so"
check "the example runs with the installed libspoor-ust" test $? -eq 0
n=$("$bin" dump -e 'hello:request' "$TMP/trace" | wc -l)
check "the installed spoor reads it: 25 x 3 hello:request ($n)" test "$n" -eq 75
if command -v babeltrace2 >/dev/null; then
	check "babeltrace2 reads as many" test "$(babeltrace2 "$TMP/trace" | grep -c ' hello:request: ')" -eq 75
fi

# a program written for LTTng-UST builds unchanged with `pkg-config --cflags --libs
# spoor-lttng-ust` and records its events
$CC $CFLAGS -O2 -Wall -I"$root/tests/data/lttng-ust" -o "$TMP/fixture-app" \
	"$root/tests/data/lttng-ust/fixture-app.c" "$root/tests/data/lttng-ust/fixture-tp.c" \
	$(pkg-config --cflags --libs spoor-lttng-ust) 2>"$TMP/cc.log"
check "the LTTng-UST fixture builds with pkg-config --cflags --libs spoor-lttng-ust" \
	test $? -eq 0 -a ! -s "$TMP/cc.log"
cat "$TMP/cc.log"
LD_LIBRARY_PATH="$libdir" "$bin" record -o "$TMP/fx" -- "$TMP/fixture-app" 3 1 >"$TMP/record.log" 2>&1
n=$("$bin" dump -e 'spoor_fixture:*' "$TMP/fx" | wc -l)
check "the installed spoor records its 3 x 9 events ($n)" test "$n" -eq 27

# a plug-in builds with `pkg-config --cflags spoor` and reports what the build's one does
$CC $CFLAGS -shared -fPIC -Wall -o "$TMP/switches.so" "$root/examples/plugins/switches.c" \
	$(pkg-config --cflags spoor) 2>"$TMP/cc.log"
check "examples/plugins/switches.c builds with pkg-config --cflags spoor" test $? -eq 0 -a ! -s "$TMP/cc.log"
python3 - "$TMP/k" <<'PY'
import sys, os
sys.path.insert(0, os.environ["SPOOR_TEST_DATA"])
import gen_kernel
gen_kernel.write(sys.argv[1], [(1000 + 100 * i, i % 2, "sched_switch", {"prev_comm": "a",
    "prev_tid": 10 + i % 2, "prev_prio": 120, "prev_state": 1, "next_comm": "b",
    "next_tid": 20 + i % 3, "next_prio": 120}) for i in range(30)])
PY
"$bin" analyze --plugin "$TMP/switches.so" "$TMP/k" >"$TMP/plugin.txt"
check "the installed spoor runs it" test $? -eq 0
check "it counts the 30 switches" grep -qx "switches: 30" "$TMP/plugin.txt"
"$SPOOR" analyze --plugin "$PLUGIN" "$TMP/k" >"$TMP/plugin-build.txt"
check "as the plug-in built in the tree does" cmp -s "$TMP/plugin.txt" "$TMP/plugin-build.txt"

# `import spoor` (built when Python's headers and NumPy are there): installed where that
# Python looks under the prefix, and it reads the trace
ext=$(installed "spoor/_spoor*.so")
if [ -n "$ext" ]; then
	pkg=${ext%/*}
	check "spoor/__init__.py is installed beside the extension" test -f "$pkg/__init__.py"
	site=${pkg%/spoor}
	site=${site#"$dest"}
	/usr/bin/python3 -c 'import site, sys; sys.exit(sys.argv[1] not in sys.path + [site.getusersitepackages()])' "$site"
	looks=$?
	# a prefix Python does not read (./demo.sh with PREFIX=/opt/spoor, say) gets the plain
	# lib/python3.X/site-packages, for PYTHONPATH (README.md, "Installing")
	prefix=$(option prefix)
	case $prefix in
	/usr | /usr/local | "$HOME/.local") ;;
	*) [[ $site == "$prefix"/lib/python3.*/site-packages ]] && looks=0 ;;
	esac
	check "it is where /usr/bin/python3 looks ($site), or for PYTHONPATH under $prefix" test $looks -eq 0
	n=$(PYTHONPATH="${pkg%/spoor}" /usr/bin/python3 -c 'import spoor, sys; print(len(spoor.open(sys.argv[1]).columns("sched_switch", ["ts"])["ts"]))' "$TMP/k")
	check "the installed module reads the 30 switches (${n:-none})" test "${n:-0}" -eq 30
fi

# the commands, from spoor's own list, and each one's options from `spoor help CMD`:
# "-e, --event=PATTERN" or "--begin=TIME", as the man page shows them
commands=$("$bin" help | sed -n '/^commands:/,/^$/s/^  \([a-z-]*\) .*/\1/p')
check "spoor help lists commands" test -n "$commands"
option_tags() {
	"$bin" help "$1" | sed -n -E 's/^  (-(.), |    )--([a-z][a-z-]*)((\[?=)([^ ]+))?.*/\1--\3\4/p' |
		sed 's/^    //'
}
option_words() { option_tags "$1" | sed 's/\[\{0,1\}=.*//; s/, /\n/'; }

# man pages: one per command and spoor(1), formatted without a warning, options all there.
# cmds/meson.build builds a page per line of cmds/command-list.h, read at configure time:
# this is the check that those are the commands spoor itself lists.
man1=$(dirname "$(installed man1/spoor.1)")
pages="spoor.1"
for c in $commands; do pages="$pages spoor-$c.1"; done
check "the man pages are spoor(1) and one per command" \
	test "$(cd "$man1" && ls | sort | tr '\n' ' ')" = "$(printf '%s\n' $pages | sort | tr '\n' ' ')"
if command -v man >/dev/null && command -v groff >/dev/null; then
	for p in $pages; do
		LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=all -l "$man1/$p" >"$TMP/page.txt" 2>"$TMP/man.err"
		check "man -l $p: no warning" test $? -eq 0 -a ! -s "$TMP/man.err"
		cat "$TMP/man.err"
		groff -man -ww -z "$man1/$p" 2>"$TMP/groff.err"
		check "groff -man -ww $p: no warning" test ! -s "$TMP/groff.err"
		cat "$TMP/groff.err"
		for s in NAME SYNOPSIS DESCRIPTION EXIT; do
			check "$p has $s" grep -q "^$s" "$TMP/page.txt"
		done
		c=${p#spoor-}
		c=${c%.1}
		[ "$p" = spoor.1 ] && continue
		while read -r tag; do
			# an optional value: --name[=VALUE], its brackets literal
			check "$p describes $tag" grep -q -x -E -- " +${tag//[/\\[}( .*)?" "$TMP/page.txt"
		done < <(option_tags "$c")
	done
else
	echo "SKIP: man or groff is not installed (apt-get install man-db): the pages are not formatted"
fi

# systemd units: installed, starting the installed spoor, and clean for `systemd-analyze
# verify` (these machines do not run systemd as PID 1: verify is the check there is). The
# unit's paths are those of the prefix, so it is verified as a copy whose paths point into
# the DESTDIR; MANPATH lets verify find the man pages its Documentation= names.
prefix=$(option prefix)
unitdir=$(option systemdunitdir)
units="$dest${unitdir:-$prefix/lib/systemd/system}"
check "spoor.service is installed in ${unitdir:-PREFIX/lib/systemd/system} ($units)" test -f "$units/spoor.service"
exec_start=$(sed -n 's/^ExecStart=\([^ ]*\) .*/\1/p' "$units/spoor.service")
check "spoor.service starts the installed spoor ($exec_start)" test "$dest$exec_start" -ef "$bin"
if command -v systemd-analyze >/dev/null; then
	mkdir -p "$TMP/units"
	for u in "$units"/spoor*; do
		sed "s|=$(dirname "$exec_start")/|=$(dirname "$bin")/|" "$u" >"$TMP/units/${u##*/}"
	done
	for u in "$TMP"/units/*; do
		MANPATH="$(dirname "$man1")" systemd-analyze verify "$u" >"$TMP/verify.out" 2>&1
		check "systemd-analyze verify ${u##*/}: no error, no warning" test $? -eq 0 -a ! -s "$TMP/verify.out"
		cat "$TMP/verify.out"
	done
else
	echo "SKIP: systemd-analyze is not installed (apt-get install systemd): the units are not verified"
fi

# bash completion: the installed script offers every command, and each command's options
comp=$(installed bash-completion/completions/spoor)
check "the bash completion is installed" test -f "$comp"
complete_words() { # complete_words WORD... : what the completion offers for the last word
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _spoor
		printf "%s\n" "${COMPREPLY[@]}"' - "$comp" "$@"
}
check "completion offers every command" \
	test "$(complete_words spoor '' | grep -v -- '^-\|^help$' | tr '\n' ' ')" = "$(echo $commands) "
for c in $commands; do
	complete_words spoor "$c" - >"$TMP/offered"
	for opt in $(option_words "$c"); do
		check "completion offers spoor $c $opt" grep -qx -- "$opt" "$TMP/offered"
	done
done
mkdir -p "$TMP/dirs/trace-a"
check "completion offers a directory for -o" \
	test "$(cd "$TMP/dirs" && complete_words spoor record -o tr)" = trace-a
finish
