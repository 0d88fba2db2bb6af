#!/usr/bin/env bash
# The trace generators of tests/data refuse an OUTDIR that starts with '-' (an option
# mistyped, --help): a usage on stderr, exit 2, and no trace written under that name.
. "$(dirname "$0")/lib.sh"
cd "$TMP" || exit 1

refuses() { # refuses SCRIPT ARGS...
	local script=$1
	shift
	python3 "$SPOOR_TEST_DATA/$script" "$@" >gen.out 2>gen.err
	local rc=$?
	check "$script $*: exit 2" test $rc -eq 2
	check "$script $*: a usage" grep -q '^usage: ' gen.err
	check "$script $*: no trace written" test -z "$(ls -A "$TMP" | grep -v -x -e gen.out -e gen.err)"
}
refuses gen_kernel.py --help
refuses gen_kernel.py -o
refuses gen_kernel.py --busy --help
refuses gen_kernel.py --analyses
refuses gen-ctf.py --help
refuses gen-ctf.py --bad --help
refuses gen-damaged.py --help
refuses gen-damaged.py

python3 "$SPOOR_TEST_DATA/gen_kernel.py" --busy "$TMP/busy" >/dev/null
check "gen_kernel.py --busy OUTDIR still writes its trace" test -f "$TMP/busy/metadata"
python3 "$SPOOR_TEST_DATA/gen_kernel.py" "$TMP/demo" >/dev/null
check "gen_kernel.py OUTDIR still writes its trace" test -f "$TMP/demo/metadata"
finish
