/* SPDX-License-Identifier: MIT */
/*
 * ust-emit-lttng-tp.h: LTTng-UST 2.13 provider for bench/ust-emit-lttng.c (see
 * bench/ust-emit.sh); the same shapes as bench/ust-emit-spoor-tp.h.
 */
/* Event declarations are laid out by hand. */
/* clang-format off */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER ust_emit

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./ust-emit-lttng-tp.h"

#if !defined(UST_EMIT_LTTNG_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define UST_EMIT_LTTNG_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

/* Shape A: two 64-bit integers. */
TRACEPOINT_EVENT(ust_emit, ints,
	TP_ARGS(uint64_t, a, uint64_t, b),
	TP_FIELDS(
		ctf_integer(uint64_t, a, a)
		ctf_integer(uint64_t, b, b)
	)
)

/* Shape B: two ints and a string (16 characters in the benchmark). */
TRACEPOINT_EVENT(ust_emit, str,
	TP_ARGS(int, a, int, b, const char *, s),
	TP_FIELDS(
		ctf_integer(int, a, a)
		ctf_integer(int, b, b)
		ctf_string(s, s)
	)
)

#endif

#include <lttng/tracepoint-event.h>
/* clang-format on */
