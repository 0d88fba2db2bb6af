/* SPDX-License-Identifier: MIT */
/* ust-emit-lttng-tp.c: the probes of ust-emit-lttng-tp.h, linked into the program. */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "ust-emit-lttng-tp.h"
