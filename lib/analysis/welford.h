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

/* o's values added to w, as one pass over both would give (Chan, Golub and LeVeque). */
static inline void welford_combine(struct welford *w, const struct welford *o)
{
	if (!o->n)
		return;
	if (!w->n) {
		*w = *o;
		return;
	}
	double n = (double) (w->n + o->n), d = o->mean - w->mean;
	w->m2 += o->m2 + d * d * (double) w->n * (double) o->n / n;
	w->mean += d * (double) o->n / n;
	w->sum += o->sum;
	w->min = o->min < w->min ? o->min : w->min;
	w->max = o->max > w->max ? o->max : w->max;
	w->n += o->n;
}

/* The sample standard deviation (divided by n - 1, as lttng-analyses' statistics.stdev),
 * 0 below 2 values. */
static inline double welford_stddev(const struct welford *w)
{
	return w->n > 1 ? sqrt(w->m2 / (double) (w->n - 1)) : 0;
}

#endif
