/* SPDX-License-Identifier: MIT */
/* ust-emit-lttng.c: LTTng-UST's side of bench/ust-emit.sh (the harness: ust-emit-common.h). */
#include "ust-emit-lttng-tp.h"

#define UST_EMIT_TRACER       "lttng"
#define UST_EMIT_INTS(a, b)   tracepoint(ust_emit, ints, (a), (b))
#define UST_EMIT_STR(a, b, s) tracepoint(ust_emit, str, (a), (b), (s))

#include "ust-emit-common.h"
