/* SPDX-License-Identifier: MIT */
/* rate-bins.c: events per class in bins that widen as the trace goes on (rate-bins.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "timeline/cache-format.h"
#include "timeline/rate-bins.h"

#define FIRST_SHIFT 10 /* bins of 2^10 ns at first */

static uint32_t sat_add(uint32_t a, uint32_t b)
{
	return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

void rate_bins_init(struct rate_bins *r)
{
	*r = (struct rate_bins){.width = (int64_t) 1 << FIRST_SHIFT, .shift = FIRST_SHIFT};
}

/* Twice as wide bins: pairs merged, for every class (in place: bin i goes to a lower or
 * the same place, and no place is written before it is read). */
static void widen(struct rate_bins *r)
{
	for (size_t k = 0; k < r->n; k++) {
		struct rate_class *c = &r->cls[k];
		for (uint32_t i = 0; i < c->n; i++) {
			uint32_t v = c->bins[i], j = (c->lo + i) / 2 - c->lo / 2;
			c->bins[i] = 0;
			c->bins[j] = sat_add(c->bins[j], v);
		}
		if (c->n)
			c->n = (c->lo + c->n - 1) / 2 - c->lo / 2 + 1;
		c->lo /= 2;
	}
	r->width *= 2;
	r->shift++;
}

/* Bin b of class c, its run grown to hold it (events come in time order: seldom below). */
static uint32_t *bin_of(struct rate_class *c, uint32_t b)
{
	if (!c->n)
		c->lo = b;
	uint32_t lo = b < c->lo ? b : c->lo, hi = b + 1 > c->lo + c->n ? b + 1 : c->lo + c->n;
	if (hi - lo > c->cap) {
		uint32_t cap = c->cap ? c->cap : 16;
		while (cap < hi - lo)
			cap *= 2;
		uint32_t *bigger = realloc(c->bins, cap * sizeof(*bigger));
		if (!bigger)
			return NULL;
		c->bins = bigger;
		c->cap = cap;
	}
	if (lo < c->lo) {
		memmove(c->bins + (c->lo - lo), c->bins, c->n * sizeof(*c->bins));
		memset(c->bins, 0, (c->lo - lo) * sizeof(*c->bins));
		c->n += c->lo - lo;
		c->lo = lo;
	}
	if (hi - lo > c->n) {
		memset(c->bins + c->n, 0, (hi - lo - c->n) * sizeof(*c->bins));
		c->n = hi - lo;
	}
	return &c->bins[b - c->lo];
}

int rate_bins_add(struct rate_bins *r, size_t cls, int64_t t)
{
	if (cls >= r->cap) {
		size_t cap = cls + 1 > r->cap * 2 ? cls + 1 : r->cap * 2;
		struct rate_class *bigger = realloc(r->cls, cap * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		memset(bigger + r->cap, 0, (cap - r->cap) * sizeof(*bigger));
		r->cls = bigger;
		r->cap = cap;
	}
	if (cls >= r->n)
		r->n = cls + 1;
	if (t < 0)
		t = 0;
	while ((t >> r->shift) >= TLC_RATE_BINS && r->shift < 62)
		widen(r);
	int64_t b = t >> r->shift;
	uint32_t *bin = bin_of(&r->cls[cls], b < TLC_RATE_BINS ? (uint32_t) b : TLC_RATE_BINS - 1);
	if (!bin)
		return -ENOMEM;
	*bin = sat_add(*bin, 1);
	return 0;
}

uint32_t rate_bins_close(struct rate_bins *r, int64_t end)
{
	int64_t used = end > 0 ? end / r->width + 1 : 1;
	uint32_t nb = used < TLC_RATE_BINS ? (uint32_t) used : TLC_RATE_BINS, last = nb - 1;
	for (size_t k = 0; k < r->n; k++) {
		struct rate_class *c = &r->cls[k];
		if (c->n && c->lo > last) {
			for (uint32_t i = 1; i < c->n; i++)
				c->bins[0] = sat_add(c->bins[0], c->bins[i]);
			c->lo = last;
			c->n = 1;
		}
		for (; c->n && c->lo + c->n - 1 > last; c->n--)
			c->bins[c->n - 2] = sat_add(c->bins[c->n - 2], c->bins[c->n - 1]);
	}
	return nb;
}

void rate_bins_free(struct rate_bins *r)
{
	for (size_t k = 0; k < r->n; k++)
		free(r->cls[k].bins);
	free(r->cls);
	*r = (struct rate_bins){0};
}
