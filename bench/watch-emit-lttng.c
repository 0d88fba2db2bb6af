/* SPDX-License-Identifier: MIT */
/* watch-emit-lttng.c: LTTng-UST's event source for bench/watch.sh (the loop: watch-emit.h). */
#include "ust-emit-lttng-tp.h"

#define UST_EMIT_TRACER     "lttng"
#define UST_EMIT_INTS(a, b) tracepoint(ust_emit, ints, (a), (b))

#include "watch-emit.h"
