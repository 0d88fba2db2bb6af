/* SPDX-License-Identifier: MIT */
/*
 * query.c: level of detail over a row's blocks (query.h). A cursor walks the range: at
 * each step one binary search finds the span under it; a span at least a pixel long is
 * given whole, else the rest of the pixel becomes one rect (its spans counted from the
 * blocks' running totals). The walk reads the coarsest level whose runs fit in a pixel
 * (cache-format.h), so it meets about 2 entries a pixel; and a pixel that holds whole
 * blocks of it is answered from the block index alone (its state: the longest span of the
 * block at its middle). The blocks were checked at open, not
 * their values: whatever they hold, every read stays within a block and the cursor only
 * moves forward.
 */
#include <errno.h>
#include <string.h>

#include "analysis/thread-states.h"
#include "timeline/cache-int.h"
#include "timeline/query.h"

typedef __int128 i128;

/* A row's blocks of one kind (spans or marks). */
struct run {
	const struct tl_cache *c;
	const struct tlc_block *b;
	uint64_t n;
	bool marks;
};

/* A place in a run: block i, record j. */
struct pos {
	uint64_t i;
	uint32_t j;
};

/* A record's time: a span's begin, a mark's time. */
static int64_t time_at(const struct run *r, struct pos p)
{
	const struct tlc_block *b = &r->b[p.i];
	if (r->marks)
		return tlc_mark_times(r->c, b)[p.j];
	if (b->level)
		return tlc_begins(r->c, b)[p.j];
	return (int64_t) ((uint64_t) b->first + tlc_deltas(r->c, b)[p.j]);
}

/* A span's end: the next one's begin, or its block's last. */
static int64_t end_at(const struct run *r, struct pos p)
{
	const struct tlc_block *b = &r->b[p.i];
	if (p.j + 1 < b->count)
		return time_at(r, (struct pos){p.i, p.j + 1});
	return b->last;
}

/* Spans of the row before the entry at p, and up to its end (from the blocks' running
 * totals: garbage in, garbage out). A level-0 entry is one span (or gap). */
static uint64_t spans_before(const struct run *r, struct pos p)
{
	const struct tlc_block *b = &r->b[p.i];
	if (!b->level || r->marks)
		return b->before + p.j;
	return b->before + (p.j ? tlc_spans(r->c, b)[p.j - 1] : 0);
}
static uint64_t spans_through(const struct run *r, struct pos p)
{
	const struct tlc_block *b = &r->b[p.i];
	if (!b->level || r->marks)
		return b->before + p.j + 1;
	return b->before + tlc_spans(r->c, b)[p.j];
}
static uint64_t spans_from_to(const struct run *r, struct pos p, struct pos q)
{
	uint64_t a = spans_before(r, p), z = spans_through(r, q);
	return z > a ? z - a : 1;
}

/* The last block whose first is <= t, +1 (0: none). */
static uint64_t block_after(const struct run *r, int64_t t)
{
	uint64_t lo = 0, hi = r->n;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		if (r->b[mid].first <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The last record whose time is <= t: false when none is. */
static bool last_at_or_before(const struct run *r, int64_t t, struct pos *p)
{
	uint64_t lo = block_after(r, t);
	if (!lo)
		return false;
	uint32_t l = 0, h = r->b[lo - 1].count; /* the first record whose time > t */
	while (l < h) {
		uint32_t m = l + (h - l) / 2;
		if (time_at(r, (struct pos){lo - 1, m}) <= t)
			l = m + 1;
		else
			h = m;
	}
	if (!l) /* the block's first said <= t, its records not: go by the records */
		return lo - 1 ? (*p = (struct pos){lo - 2, r->b[lo - 2].count - 1}, true) : false;
	*p = (struct pos){lo - 1, l - 1};
	return true;
}

/* The record after p (or the first, when p is NULL): false at the end. */
static bool next(const struct run *r, const struct pos *p, struct pos *out)
{
	if (!p)
		*out = (struct pos){0, 0};
	else if (p->j + 1 < r->b[p->i].count)
		*out = (struct pos){p->i, p->j + 1};
	else
		*out = (struct pos){p->i + 1, 0};
	return out->i < r->n;
}

static bool row_run(const struct tl_cache *c, size_t row, bool marks, unsigned level, struct run *r)
{
	if (!c || row >= c->h->rows.count)
		return false;
	const struct tlc_row *dr = &c->drows[row];
	r->c = c;
	r->b = (marks ? c->mark_index + dr->mark_block0 : c->span_index + dr->block0[level]);
	r->n = marks ? dr->mark_blocks : dr->blocks[level];
	r->marks = marks;
	return r->n > 0;
}

/* The coarsest level whose runs are no longer than a pixel (d / px), and that the row has. */
static bool level_run(const struct tl_cache *c, size_t row, i128 d, uint32_t px, struct run *r)
{
	unsigned level = TLC_LEVELS - 1;
	while (level && (i128) tlc_level_ns(level) * px > d)
		level--;
	while (level && !row_run(c, row, false, level, r))
		level--;
	return level || row_run(c, row, false, 0, r);
}

/* The pixel boundary after t: t0 + ceil((k + 1) * d / px) for t's pixel k; > t. */
static int64_t pixel_end(int64_t t0, i128 d, uint32_t px, int64_t t)
{
	i128 k = (((i128) t - t0) * px) / d;
	i128 e = t0 + ((k + 1) * d + px - 1) / px;
	if (e > INT64_MAX) /* the marks' range ends at INT64_MAX */
		return INT64_MAX;
	return e > t ? (int64_t) e : t + 1;
}

static struct tl_rect make_rect(int64_t begin, int64_t end, uint8_t state, uint32_t value,
                                uint64_t spans)
{
	return (struct tl_rect){.begin = begin,
	                        .end = end,
	                        .first = begin,
	                        .last = end,
	                        .state = state < TS_COUNT ? state : TS_UNKNOWN,
	                        .value = value,
	                        .spans = spans < 1            ? 1
	                                 : spans > UINT32_MAX ? UINT32_MAX
	                                                      : (uint32_t) spans};
}

static struct tl_rect span_rect(const struct run *r, struct pos p, int64_t begin, int64_t end,
                                uint64_t spans)
{
	const struct tlc_block *b = &r->b[p.i];
	return make_rect(begin, end, tlc_states(r->c, b)[p.j], tlc_values(r->c, b)[p.j], spans);
}

static bool is_gap(const struct run *r, struct pos p)
{
	return tlc_states(r->c, &r->b[p.i])[p.j] == TLC_GAP;
}

size_t tl_query_spans(const struct tl_cache *c, size_t row, int64_t t0, int64_t t1, uint32_t px,
                      struct tl_rect *out, size_t max)
{
	struct run r;
	size_t n = 0;
	i128 d = (i128) t1 - t0;
	if (t1 <= t0 || !px || !level_run(c, row, d, px, &r))
		return 0;
	int64_t t = t0;
	if (max > 2 * (uint64_t) px + 2) /* what a bad cache's unsorted spans could pass */
		max = 2 * (uint64_t) px + 2;
	/* each step gives a rect or reaches the next span (which gives one): a bad cache's
	 * spans (ends before begins) make steps of their own, which this bounds */
	for (uint64_t steps = 8 * (uint64_t) px + 64; t < t1 && n < max && steps; steps--) {
		struct pos p, q;
		int64_t pe = pixel_end(t0, d, px, t);
		if (pe > t1)
			pe = t1;
		/* whole blocks inside the rest of the pixel: the index alone tells it */
		uint64_t bi = block_after(&r, t), bq = block_after(&r, pe - 1);
		if (bi && bq >= bi + 2) {
			const struct tlc_block *a = &r.b[bi - 1], *z = &r.b[bq - 1];
			uint64_t mid =
			    block_after(&r, t + (int64_t) (((uint64_t) pe - (uint64_t) t) / 2));
			const struct tlc_block *m = &r.b[mid ? mid - 1 : bi - 1];
			int64_t end = z->last < pe && z->last > t ? z->last : pe; /* a gap after */
			out[n++] =
			    make_rect(t, end, m->state, m->value, z->before + z->spans - a->before);
			t = end;
			continue;
		}
		bool found = last_at_or_before(&r, t, &p);
		if (!found || is_gap(&r, p) || end_at(&r, p) <= t) { /* to the next span */
			if (!next(&r, found ? &p : NULL, &q))
				break;
			int64_t b = found && is_gap(&r, p) ? end_at(&r, p) : time_at(&r, q);
			t = b > t ? b : t + 1;
			continue;
		}
		int64_t b = time_at(&r, p), e = end_at(&r, p);
		int64_t end = e < t1 ? e : t1;
		if (((i128) e - b) * px >= d || /* a pixel long at least: whole */
		    !last_at_or_before(&r, pe - 1, &q) || q.i < p.i ||
		    (q.i == p.i && q.j <= p.j)) { /* or alone in the rest of its pixel */
			out[n] = span_rect(&r, p, t, end, spans_from_to(&r, p, p));
			if (out[n].spans == 1) { /* one span: its own times too */
				out[n].first = b;
				out[n].last = e;
			}
			n++;
			t = end;
			continue;
		}
		/* the rest of the pixel, or up to a gap after its last span */
		int64_t qe = is_gap(&r, q) ? time_at(&r, q) : end_at(&r, q);
		if (qe < pe && qe > t)
			pe = qe;
		struct pos m;
		if (!last_at_or_before(&r, t + (int64_t) (((uint64_t) pe - (uint64_t) t) / 2),
		                       &m) ||
		    is_gap(&r, m))
			m = p;
		out[n++] = span_rect(&r, m, t, pe, spans_from_to(&r, p, q));
		t = pe;
	}
	return n;
}

/* The first mark whose time is >= t: false when none is. */
static bool first_at_or_after(const struct run *r, int64_t t, struct pos *p)
{
	struct pos before;
	if (t == INT64_MIN)
		return next(r, NULL, p);
	if (!last_at_or_before(r, t - 1, &before))
		return next(r, NULL, p);
	return next(r, &before, p);
}

size_t tl_query_marks(const struct tl_cache *c, size_t row, int64_t t0, int64_t t1, uint32_t px,
                      struct tl_markrect *out, size_t max)
{
	struct run r;
	size_t n = 0;
	if (t1 < t0 || !px || !row_run(c, row, true, 0, &r))
		return 0;
	i128 d = (i128) t1 - t0 + 1; /* marks at t1 count */
	int64_t t = t0;
	while (n < max) {
		struct pos p, q;
		if (!first_at_or_after(&r, t, &p))
			break;
		int64_t tm = time_at(&r, p);
		if (tm > t1)
			break;
		if (tm < t) /* unsorted (a bad cache): go on from the cursor */
			tm = t;
		int64_t pe = pixel_end(t0, d, px, tm);
		const struct tlc_block *last = &r.b[r.n - 1];
		uint64_t upto = first_at_or_after(&r, pe, &q) ? spans_before(&r, q)
		                                              : last->before + last->count;
		uint64_t count = upto > spans_before(&r, p) ? upto - spans_before(&r, p) : 1;
		uint32_t cls = tlc_mark_classes(c, &r.b[p.i])[p.j];
		out[n++] = (struct tl_markrect){
		    .t = tm,
		    .class_index = cls < c->h->classes.count ? cls : UINT32_MAX,
		    .count = count > UINT32_MAX ? UINT32_MAX : (uint32_t) count};
		if (pe > t1 || pe == INT64_MAX)
			break;
		t = pe;
	}
	return n;
}

/* Add the stored bins b (spread evenly within each; the last ends at the trace's end)
 * into out's bins over [t0, t1). */
static void spread(const struct tl_cache *c, const struct tlc_class *k, int64_t t0, int64_t t1,
                   uint32_t bins, double *out)
{
	double w = (double) c->h->rate_width, step = ((double) t1 - (double) t0) / bins;
	double end = (double) c->h->duration + 1;
	const uint32_t *b = c->rates + k->rate; /* b[i - bin0]: bin i's count */
	uint64_t nb = (uint64_t) k->bin0 + k->bins;
	uint64_t i = t0 > 0 ? (uint64_t) (t0 / c->h->rate_width) : 0;
	if (i < k->bin0)
		i = k->bin0;
	/* the first output bin the class's bins reach */
	double first = ((double) i * w - (double) t0) / step;
	uint32_t j = first <= 0 ? 0 : first >= bins ? bins : (uint32_t) first;
	while (i < nb && j < bins) {
		double lo_i = (double) i * w, hi_i = lo_i + w < end ? lo_i + w : end;
		double lo_j = (double) t0 + j * step,
		       hi_j = j + 1 == bins ? (double) t1 : lo_j + step;
		double lo = lo_i > lo_j ? lo_i : lo_j, hi = hi_i < hi_j ? hi_i : hi_j;
		if (hi > lo)
			out[j] += (double) b[i - k->bin0] * (hi - lo) / (hi_i - lo_i);
		if (hi_i < hi_j)
			i++;
		else
			j++;
	}
}

int tl_query_rate(const struct tl_cache *c, size_t class_index, int64_t t0, int64_t t1,
                  uint32_t bins, double *out)
{
	if (!c || t1 <= t0 || !bins)
		return -EINVAL;
	memset(out, 0, bins * sizeof(*out));
	for (uint64_t k = 0; k < c->h->classes.count; k++) {
		if (class_index != SIZE_MAX && k != class_index)
			continue;
		if (c->classes[k].rate != UINT64_MAX)
			spread(c, &c->classes[k], t0, t1, bins, out);
	}
	if (class_index != SIZE_MAX && class_index >= c->h->classes.count)
		return -EINVAL;
	return 0;
}
