#!/usr/bin/env bash
# spoor record --calls: what -pg's hooks must keep for a traced function (mcount.S): its
# vector arguments and result, 256 bits wide, through the hooks' general path while the C
# code there wipes the vector registers (tests/programs/calls-regs.c, calls-clobber.c), for
# each flavour of hook the compiler builds (-pg, -mfentry, patched entries).
. "$(dirname "$0")/lib.sh"
: "${CALLS_REGS_FLAVOURS?}" "${CALLS_CLOBBER:?}"
need babeltrace2 babeltrace2
grep -qw avx /proc/cpuinfo || skip "no AVX on this CPU"
[ -n "$CALLS_REGS_FLAVOURS" ] || skip "the compiler builds none with -mavx"

for flavour in $CALLS_REGS_FLAVOURS; do
	var=CALLS_REGS_${flavour^^}
	LD_PRELOAD=$CALLS_CLOBBER "$SPOOR" record -o "$TMP/$flavour" --calls -- "${!var}" \
		>"$TMP/$flavour.out" 2>"$TMP/$flavour.err"
	check "$flavour: records" test $? -eq 0
	check "$flavour: %ymm0-7 in, %ymm0 out: every lane" grep -qx 'vectors: ok' "$TMP/$flavour.out"
	check "$flavour: vsum's entry recorded (the general path's)" \
		test "$(babeltrace2 "$TMP/$flavour" | grep -c 'func_entry')" -ge 1
done
finish
