/* SPDX-License-Identifier: MIT */
/*
 * rate-bins.h: events per class counted in at most TLC_RATE_BINS equal bins from time 0,
 * for the timeline cache, while the trace's length is not known yet: the bins start 1 us
 * wide and double (merged in pairs) whenever an event comes past the last. Each class
 * keeps only its run of bins from its first event to its last (a folder of traces has
 * thousands of classes, each busy a while), so memory is O(classes + their busy bins).
 */
#ifndef TIMELINE_RATE_BINS_H
#define TIMELINE_RATE_BINS_H

#include <stddef.h>
#include <stdint.h>

struct rate_class {
	uint32_t *bins; /* counts (saturating) of bins [lo, lo + n), NULL: no events */
	uint32_t lo, n, cap;
};

struct rate_bins {
	struct rate_class *cls;
	size_t n, cap; /* n: the highest class counted + 1 */
	int64_t width; /* ns per bin: 2^shift */
	unsigned shift;
};

void rate_bins_init(struct rate_bins *r);
/* One event of class cls at t (ns >= 0). 0 or -ENOMEM. */
int rate_bins_add(struct rate_bins *r, size_t cls, int64_t t);
/* The bins that hold [0, end]: events past them (not expected) into the last one. */
uint32_t rate_bins_close(struct rate_bins *r, int64_t end);
void rate_bins_free(struct rate_bins *r);

#endif
