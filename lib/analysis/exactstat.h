/* SPDX-License-Identifier: MIT */
/*
 * exactstat.h: count, sum, mean, standard deviation, min and max of non-negative integer
 * samples (durations in ns), exact: the sum and the sum of squares are 128-bit integers, so
 * adding a sample is a few integer operations with no division (Welford's running mean
 * needs one per sample, a long dependency chain on the hot path of `spoor syscalls`), and
 * no digit is lost to rounding. The variance is worked out at the end from integers:
 * with q = sum / n and r = sum % n, sum((x - q)^2) = sumsq - 2 q sum + n q^2 is exact in
 * 128-bit arithmetic (it wraps in between but not at the end while that sum of squares
 * stays below 2^128, e.g. 2^28 samples of up to 13 days each), and
 * sum((x - mean)^2) = sum((x - q)^2) - r^2 / n.
 */
#ifndef ANALYSIS_EXACTSTAT_H
#define ANALYSIS_EXACTSTAT_H

#include <math.h>
#include <stdint.h>

struct exactstat {
	uint64_t n;
	uint64_t min, max;
	unsigned __int128 sum, sumsq; /* sumsq modulo 2^128 */
};

static inline void exactstat_add(struct exactstat *s, uint64_t x)
{
	if (!s->n || x < s->min)
		s->min = x;
	if (!s->n || x > s->max)
		s->max = x;
	s->n++;
	s->sum += x;
	s->sumsq += (unsigned __int128) x * x;
}

static inline void exactstat_combine(struct exactstat *s, const struct exactstat *o)
{
	if (!o->n)
		return;
	if (!s->n) {
		*s = *o;
		return;
	}
	s->min = o->min < s->min ? o->min : s->min;
	s->max = o->max > s->max ? o->max : s->max;
	s->n += o->n;
	s->sum += o->sum;
	s->sumsq += o->sumsq;
}

static inline double exactstat_sum(const struct exactstat *s)
{
	return (double) s->sum;
}

static inline double exactstat_mean(const struct exactstat *s)
{
	return s->n ? (double) ((long double) s->sum / (long double) s->n) : 0;
}

/* The sample standard deviation (divided by n - 1, as lttng-analyses' statistics.stdev),
 * 0 below 2 samples. */
static inline double exactstat_stddev(const struct exactstat *s)
{
	if (s->n < 2)
		return 0;
	unsigned __int128 q = s->sum / s->n, r = s->sum % s->n;
	unsigned __int128 m = s->sumsq - 2 * q * s->sum + (unsigned __int128) s->n * q * q;
	long double m2 = (long double) m - (long double) r * (long double) r / (long double) s->n;
	return m2 > 0 ? (double) sqrtl(m2 / (long double) (s->n - 1)) : 0;
}

#endif
