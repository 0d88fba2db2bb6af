/* SPDX-License-Identifier: MIT */
/* sessions-app-spoor.c: spoor's program for bench/sessions.sh (the code: sessions-app.h). */
#define _GNU_SOURCE /* sched_setaffinity */
#include "ust-emit-spoor-tp.h"

#define UST_EMIT_TRACER     "spoor"
#define UST_EMIT_INTS(a, b) spoor_trace(ust_emit, ints, (a), (b))

#include "sessions-app.h"
