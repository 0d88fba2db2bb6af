/* SPDX-License-Identifier: MIT */
/* ust-emit-spoor.c: spoor's side of bench/ust-emit.sh (the harness: ust-emit-common.h). */
#include "ust-emit-spoor-tp.h"

#define UST_EMIT_TRACER       "spoor"
#define UST_EMIT_INTS(a, b)   spoor_trace(ust_emit, ints, (a), (b))
#define UST_EMIT_STR(a, b, s) spoor_trace(ust_emit, str, (a), (b), (s))

#include "ust-emit-common.h"
