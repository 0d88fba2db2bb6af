/* SPDX-License-Identifier: MIT */
/*
 * exactstat.h: count, sum, mean, standard deviation, min and max of non-negative integer
 * samples (durations in ns), exact: the sum is a 128-bit integer and the sum of squares a
 * 192-bit one, so adding a sample is a few integer operations with no division (Welford's
 * running mean needs one per sample, a long dependency chain on the hot path of `spoor
 * syscalls`), and no digit is lost to rounding.
 *
 * The variance is worked out at the end from integers: with q = sum / n and r = sum % n,
 * S = sum((x - q)^2) = sumsq - 2 q sum + n q^2, computed modulo 2^128, is exact whenever
 * S < 2^128, which n (max - min)^2 < 2^128 guarantees (every x and q lie in [min, max]);
 * then sum((x - mean)^2) = S - r^2 / n. Past that bound (centuries of summed squared
 * spread: corrupt or crafted timestamps) the variance comes from the full sums in long
 * double, sumsq - sum^2 / n, which is then far from cancelling.
 */
#ifndef ANALYSIS_EXACTSTAT_H
#define ANALYSIS_EXACTSTAT_H

#include <math.h>
#include <stdint.h>

struct exactstat {
	uint64_t n;
	uint64_t min, max;
	unsigned __int128 sum;
	unsigned __int128 sumsq; /* low 128 bits of the sum of squares */
	uint64_t sumsq_hi;       /* and the bits above */
};

static inline void exactstat_add(struct exactstat *s, uint64_t x)
{
	if (!s->n || x < s->min)
		s->min = x;
	if (!s->n || x > s->max)
		s->max = x;
	s->n++;
	s->sum += x;
	unsigned __int128 sq = (unsigned __int128) x * x;
	s->sumsq += sq;
	s->sumsq_hi += s->sumsq < sq; /* the carry */
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
	s->sumsq_hi += o->sumsq_hi + (s->sumsq < o->sumsq);
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
	unsigned __int128 spread = s->max - s->min, bound;
	long double n = (long double) s->n, m2;
	if (!__builtin_mul_overflow(spread * spread, (unsigned __int128) s->n, &bound)) {
		unsigned __int128 q = s->sum / s->n, r = s->sum % s->n;
		unsigned __int128 dev =
		    s->sumsq - 2 * q * s->sum + (unsigned __int128) s->n * q * q;
		m2 = (long double) dev - (long double) r * (long double) r / n;
	} else {
		long double sumsq = (long double) s->sumsq_hi * 0x1p128L + (long double) s->sumsq;
		long double sum = (long double) s->sum;
		m2 = sumsq - sum * (sum / n);
	}
	return m2 > 0 ? (double) sqrtl(m2 / (n - 1)) : 0;
}

#endif
