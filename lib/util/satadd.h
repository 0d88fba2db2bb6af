/* SPDX-License-Identifier: MIT */
/*
 * satadd.h: sums of durations that stop at INT64_MAX instead of overflowing. The engine
 * keeps every time within 2^62 ns of the clock origin, so one duration always fits; a sum
 * of overlapping ones may not (a damaged trace where one thread runs on two CPUs at once,
 * or a process whose threads' times add up), and a signed overflow is undefined behaviour.
 */
#ifndef UTIL_SATADD_H
#define UTIL_SATADD_H

#include <stdint.h>

static inline void sat_add(int64_t *sum, int64_t d)
{
	if (__builtin_add_overflow(*sum, d, sum))
		*sum = d < 0 ? INT64_MIN : INT64_MAX;
}

#endif
