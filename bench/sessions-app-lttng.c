/* SPDX-License-Identifier: MIT */
/* sessions-app-lttng.c: LTTng-UST's program for bench/sessions.sh (the code: sessions-app.h). */
#define _GNU_SOURCE /* sched_setaffinity */
#include "ust-emit-lttng-tp.h"

#define UST_EMIT_TRACER     "lttng"
#define UST_EMIT_INTS(a, b) tracepoint(ust_emit, ints, (a), (b))

#include "sessions-app.h"
