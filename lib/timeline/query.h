/* SPDX-License-Identifier: MIT */
/*
 * query.h: what a time range of an open cache looks like at a given width in pixels (level
 * of detail), at a cost of O(px log n) whatever the number of spans in the range: a binary
 * search over a row's blocks, then within one, per pixel, on the coarsest level of the row
 * whose merged runs fit in a pixel (cache-format.h).
 */
#ifndef TIMELINE_QUERY_H
#define TIMELINE_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "timeline/cache.h"

struct tl_rect {
	int64_t begin, end; /* relative ns, within [t0, t1] */
	uint8_t state;      /* enum thread_state (a bad cache's others: TS_UNKNOWN); a flame
	                     * row's: the call's flags (enum calls_flag's first three) */
	uint32_t value;     /* a flame row's: the function (tl_cache_function_name) */
	/* >1: several spans merged in one pixel (about: at a coarse level, runs partly in
	 * the range count whole); state and value those of the span at the rect's middle (at a
	 * coarse level, or for whole blocks in the pixel: of the longest span of the run or
	 * block there) */
	uint32_t spans;
	/* spans == 1: the span's own begin and end, beyond [t0, t1] (a flame row's call, to
	 * the exit the range cut off); else begin and end */
	int64_t first, last;
};

/* Spans of row between t0 and t1 at px pixels (t0 < t1, px > 0), in time order: spans at
 * least a pixel long come whole (clipped to [t0, t1]); runs of shorter ones become one rect
 * per pixel. At most 2 rects per pixel and 2 more; fewer when max stops it. Returns the
 * number of rects written. */
size_t tl_query_spans(const struct tl_cache *c, size_t row, int64_t t0, int64_t t1, uint32_t px,
                      struct tl_rect *out, size_t max);

struct tl_markrect {
	int64_t t;            /* the first mark's time */
	uint32_t class_index; /* the first mark's class (UINT32_MAX: none, a bad cache's) */
	uint32_t count;       /* >1: the marks of one pixel merged */
};
/* User-space marks of row in [t0, t1] at px pixels: at most one markrect per pixel. */
size_t tl_query_marks(const struct tl_cache *c, size_t row, int64_t t0, int64_t t1, uint32_t px,
                      struct tl_markrect *out, size_t max);

/* Events per bin of class (every class: SIZE_MAX) over [t0, t1) cut in bins equal bins, from
 * the stored bins (a stored bin counts in each output bin for the part of it that overlaps:
 * a fraction when output bins are finer than the stored ones). A class without events
 * gives zeros. 0, or -EINVAL (bad arguments, no such class). */
int tl_query_rate(const struct tl_cache *c, size_t class_index, int64_t t0, int64_t t1,
                  uint32_t bins, double *out);

#endif
