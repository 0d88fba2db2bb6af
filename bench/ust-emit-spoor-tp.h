/* SPDX-License-Identifier: MIT */
/* ust-emit-spoor-tp.h: the events of bench/ust-emit-spoor.c (see bench/ust-emit.sh); the
 * same shapes as bench/ust-emit-lttng-tp.h. */
/* Event declarations are laid out by hand. */
/* clang-format off */
#ifndef UST_EMIT_SPOOR_TP_H
#define UST_EMIT_SPOOR_TP_H

#include <spoor/tracepoint.h>

/* Shape A: two 64-bit integers. */
SPOOR_EVENT(ust_emit, ints,
	    SPOOR_ARGS(uint64_t a, uint64_t b),
	    SPOOR_FIELDS(spoor_field_int(uint64_t, a, a)
			 spoor_field_int(uint64_t, b, b)))

/* Shape B: two ints and a string (16 characters in the benchmark). */
SPOOR_EVENT(ust_emit, str,
	    SPOOR_ARGS(int a, int b, const char *str),
	    SPOOR_FIELDS(spoor_field_int(int32_t, a, a)
			 spoor_field_int(int32_t, b, b)
			 spoor_field_string(s, str)))

#endif
/* clang-format on */
