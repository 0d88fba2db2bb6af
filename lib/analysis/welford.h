/* SPDX-License-Identifier: MIT */
/* welford.h: running count, mean, variance, min and max in one pass (Welford's method:
 * numerically stable where the textbook sum of squares loses every digit). */
#ifndef ANALYSIS_WELFORD_H
#define ANALYSIS_WELFORD_H

#include <math.h>
#include <stdint.h>

struct welford {
	uint64_t n;
	double mean, m2, min, max, sum;
};

static inline void welford_add(struct welford *w, double x)
{
	if (!w->n || x < w->min)
		w->min = x;
	if (!w->n || x > w->max)
		w->max = x;
	w->n++;
	w->sum += x;
	double d = x - w->mean;
	w->mean += d / (double) w->n;
	w->m2 += d * (x - w->mean);
}

/* The sample standard deviation (divided by n - 1, as lttng-analyses' statistics.stdev),
 * 0 below 2 values. */
static inline double welford_stddev(const struct welford *w)
{
	return w->n > 1 ? sqrt(w->m2 / (double) (w->n - 1)) : 0;
}

#endif
