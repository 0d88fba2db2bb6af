/* SPDX-License-Identifier: MIT */
/* watch-emit-spoor.c: spoor's event source for bench/watch.sh (the loop: watch-emit.h). */
#include "ust-emit-spoor-tp.h"

#define UST_EMIT_TRACER     "spoor"
#define UST_EMIT_INTS(a, b) spoor_trace(ust_emit, ints, (a), (b))

#include "watch-emit.h"
