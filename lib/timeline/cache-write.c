/* SPDX-License-Identifier: MIT */
/*
 * cache-write.c: a timeline cache file written as the spans come (see cache-write.h and
 * cache-format.h). Each row fills one block per level: a level-0 span goes into level 0
 * and on to level 1, which merges runs of short ones (and passes what it closes on to
 * level 2...); a full block is written at once, its place kept in the block list. At the
 * end: the last blocks, then the tables.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/idmap.h"
#include "timeline/cache-format.h"
#include "timeline/cache-write.h"
#include "timeline/rate-bins.h"
#include "util/grow.h"
#include "util/outbuf.h"
#include "util/writeall.h"

/* A span (level 0) or a run of them (above). */
struct entry {
	int64_t begin, end;
	uint32_t longest; /* its longest span's length, saturated (state, value: its); gaps: 0 */
	uint32_t spans;   /* spans and gaps it holds (saturated) */
	uint32_t value;
	uint8_t state;
};

static uint32_t sat32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t) v;
}

/* Whether a shows more of its entries than b: the longer, and a span rather than a gap. */
static bool longer(const struct entry *a, const struct entry *b)
{
	if ((a->state == TLC_GAP) != (b->state == TLC_GAP))
		return b->state == TLC_GAP;
	return a->longest > b->longest;
}

/* A level above 0: its block being filled, and the run being merged. */
struct level {
	struct entry *buf; /* it grows to TLC_BLOCK / 4 */
	uint32_t n, cap;
	struct entry run;
	bool has_run;
};

/* Level 0's block being filled, as the file holds it (9 bytes a span: every row has one),
 * and what its index entry needs. */
struct level0 {
	uint32_t *delta, *value; /* begins from first; values */
	uint8_t *state;
	uint32_t n, cap; /* it grows to TLC_BLOCK */
	int64_t first, end;
	struct entry best; /* its longest span */
};

struct mark_buf {
	int64_t t[TLC_BLOCK];
	uint32_t cls[TLC_BLOCK];
};

struct wrow {
	enum tl_row_kind kind;
	int64_t id, first, last;
	uint32_t depth; /* TL_ROW_CALLS */
	bool seen;      /* first and last are set */
	bool spanned;   /* a span came: end is set */
	int64_t end;    /* the last span's end */
	uint64_t real;  /* spans, gaps not counted */
	struct level0 l0;
	struct level lv[TLC_LEVELS]; /* [0] unused */
	struct mark_buf *marks;      /* allocated at the row's first mark */
	uint32_t nmarks;
	/* its blocks of each level, then of marks, in time order: lists through the block
	 * list (block + 1, 0: none) */
	size_t head[TLC_LEVELS + 1], tail[TLC_LEVELS + 1];
};

/* A block written: its place in the file, and the next of its row's list (+ 1). */
struct wblock {
	struct tlc_block b;
	size_t next;
};

/* Where blocks go: the file (level 0 and marks), or a level's temporary file, copied into
 * it at the end. */
struct stream {
	int fd; /* -1: not opened yet */
	struct outbuf out;
	uint64_t at; /* file offset of out's first byte */
};

struct tl_cache_writer {
	struct stream s[TLC_LEVELS];
	char *tmpdir; /* where the levels' temporary files go */
	struct idmap ids;
	struct wrow *rows;
	size_t nrows, caprows;
	struct wblock *blocks;
	size_t nblocks, capblocks;
	char *strings;
	size_t nstrings, capstrings;
	struct wclass {
		uint32_t name;
		bool user;
	} * classes;
	size_t nclasses, capclasses; /* nclasses: the highest index given + 1 */
	struct rate_bins rates;
	uint32_t *syscalls;
	size_t nsyscalls, capsyscalls;
	uint32_t *functions;
	size_t nfunctions, capfunctions;
	struct tlc_address *addresses;
	size_t naddresses, capaddresses;
	uint32_t *call_rows; /* the caller's numbers of flame rows -> rows (UINT32_MAX: none) */
	size_t ncall_rows;
	struct tlc_damage *damage;
	size_t ndamage, capdamage;
	int error; /* the first error: every later call returns it */
};

/* Grow *v (n used of *cap, elements of size sz) to hold one more. */
static int grow(void *v, size_t n, size_t *cap, size_t sz)
{
	return grow_one(v, n, cap, sz, 16);
}

int tl_cache_writer_new(int fd, const char *tmpdir, struct tl_cache_writer **out)
{
	struct tl_cache_writer *w = calloc(1, sizeof(*w));
	*out = NULL;
	if (!w)
		return -ENOMEM;
	for (unsigned l = 0; l < TLC_LEVELS; l++)
		w->s[l].fd = -1;
	if (outbuf_init(&w->s[0].out, fd, 1 << 16) ||
	    !(w->tmpdir = strdup(tmpdir ? tmpdir : "/tmp"))) {
		tl_cache_writer_free(w);
		return -ENOMEM;
	}
	w->s[0].fd = fd;
	/* the header's place, written last */
	memset(w->s[0].out.buf, 0, sizeof(struct tlc_header));
	w->s[0].out.len = sizeof(struct tlc_header);
	rate_bins_init(&w->rates);
	/* offset 0 is the empty string */
	if (grow(&w->strings, 0, &w->capstrings, 1)) {
		tl_cache_writer_free(w);
		return -ENOMEM;
	}
	w->strings[w->nstrings++] = 0;
	*out = w;
	return 0;
}

static int fail(struct tl_cache_writer *w, int rc)
{
	if (!w->error)
		w->error = rc;
	return w->error;
}

/* The stream offset where the next bytes go. */
static uint64_t offset_in(const struct stream *s)
{
	return s->at + s->out.len;
}
static uint64_t offset(const struct tl_cache_writer *w)
{
	return offset_in(&w->s[0]);
}

static int flush(struct tl_cache_writer *w, struct stream *s)
{
	s->at += s->out.len;
	if (outbuf_flush(&s->out))
		return fail(w, s->out.error ? s->out.error : -EIO);
	return 0;
}

static int put_in(struct tl_cache_writer *w, struct stream *s, const void *p, size_t n)
{
	if (!n) /* an empty table (p may be NULL) */
		return 0;
	if (s->out.len + n > s->out.cap && flush(w, s))
		return w->error;
	if (n > s->out.cap) { /* a table larger than the buffer: straight to the file */
		int rc = write_all(s->fd, p, n);
		if (rc)
			return fail(w, rc);
		s->at += n;
		return 0;
	}
	outbuf_put(&s->out, p, n);
	return 0;
}
static int put(struct tl_cache_writer *w, const void *p, size_t n)
{
	return put_in(w, &w->s[0], p, n);
}

static int pad8_in(struct tl_cache_writer *w, struct stream *s)
{
	static const char zeros[8];
	uint64_t o = offset_in(s);
	return o & 7 ? put_in(w, s, zeros, 8 - (o & 7)) : 0;
}
static int pad8(struct tl_cache_writer *w)
{
	return pad8_in(w, &w->s[0]);
}

/* The stream of a level's blocks, its temporary file made at its first block. */
static struct stream *stream_of(struct tl_cache_writer *w, unsigned level)
{
	struct stream *s = &w->s[level];
	if (s->fd >= 0)
		return s;
	int fd = open(w->tmpdir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) { /* no O_TMPFILE there: a name, gone at once */
		char *path = NULL;
		if (asprintf(&path, "%s/.spoor-view-level.XXXXXX", w->tmpdir) >= 0 &&
		    (fd = mkostemp(path, O_CLOEXEC)) >= 0)
			unlink(path);
		free(path);
	}
	if (fd < 0) {
		fail(w, -errno);
		return NULL;
	}
	if (outbuf_init(&s->out, fd, 1 << 16)) {
		close(fd);
		fail(w, -ENOMEM);
		return NULL;
	}
	s->fd = fd;
	return s;
}

/* Append a level's temporary file to the file (at a multiple of 8): where it starts. */
static int copy_level(struct tl_cache_writer *w, unsigned level, uint64_t *base)
{
	struct stream *s = &w->s[level];
	char buf[1 << 16];
	int rc = pad8(w);
	*base = offset(w);
	if (rc || s->fd < 0)
		return rc;
	if (flush(w, s))
		return w->error;
	for (uint64_t at = 0; at < s->at;) {
		ssize_t n = pread(s->fd, buf, sizeof(buf), (off_t) at);
		if (n <= 0)
			return fail(w, n < 0 ? -errno : -EIO);
		if ((rc = put(w, buf, (size_t) n)))
			return rc;
		at += (uint64_t) n;
	}
	return 0;
}

static int string(struct tl_cache_writer *w, const char *s, uint32_t *off)
{
	size_t n = strlen(s) + 1;
	if ((uint64_t) w->nstrings + n > UINT32_MAX)
		return fail(w, -E2BIG);
	while (w->nstrings + n > w->capstrings)
		if (grow(&w->strings, w->capstrings, &w->capstrings, 1))
			return fail(w, -ENOMEM);
	*off = (uint32_t) w->nstrings;
	memcpy(w->strings + w->nstrings, s, n);
	w->nstrings += n;
	return 0;
}

static struct wrow *new_row(struct tl_cache_writer *w, enum tl_row_kind kind, int64_t id)
{
	if (w->nrows >= UINT32_MAX || grow(&w->rows, w->nrows, &w->caprows, sizeof(*w->rows))) {
		fail(w, -ENOMEM);
		return NULL;
	}
	struct wrow *r = &w->rows[w->nrows++];
	*r = (struct wrow){.kind = kind, .id = id};
	return r;
}

static struct wrow *row_of(struct tl_cache_writer *w, enum tl_row_kind kind, int64_t id)
{
	uint64_t key = (uint64_t) id ^ ((uint64_t) kind << 63);
	uint32_t *at = idmap_find(&w->ids, key);
	if (at)
		return &w->rows[*at];
	if (idmap_add(&w->ids, key, (uint32_t) w->nrows)) {
		fail(w, -ENOMEM);
		return NULL;
	}
	return new_row(w, kind, id);
}

/* The flame row the caller numbers n (dense from 0), made when new. */
static struct wrow *call_row_of(struct tl_cache_writer *w, uint32_t n, int64_t tid)
{
	if (n >= w->ncall_rows) {
		size_t cap = n + 1 > w->ncall_rows * 2 ? (size_t) n + 1 : w->ncall_rows * 2;
		uint32_t *bigger = realloc(w->call_rows, cap * sizeof(*bigger));
		if (!bigger) {
			fail(w, -ENOMEM);
			return NULL;
		}
		memset(bigger + w->ncall_rows, 0xff, (cap - w->ncall_rows) * sizeof(*bigger));
		w->call_rows = bigger;
		w->ncall_rows = cap;
	}
	if (w->call_rows[n] != UINT32_MAX)
		return &w->rows[w->call_rows[n]];
	w->call_rows[n] = (uint32_t) w->nrows;
	return new_row(w, TL_ROW_CALLS, tid);
}

static void extend(struct wrow *r, int64_t begin, int64_t end)
{
	if (!r->seen || begin < r->first)
		r->first = begin;
	if (!r->seen || end > r->last)
		r->last = end;
	r->seen = true;
}

static struct tlc_block *add_block(struct tl_cache_writer *w, struct wrow *r, bool marks,
                                   unsigned level, uint32_t n, int64_t first)
{
	struct stream *s = stream_of(w, level);
	if (!s)
		return NULL;
	if (grow(&w->blocks, w->nblocks, &w->capblocks, sizeof(*w->blocks))) {
		fail(w, -ENOMEM);
		return NULL;
	}
	w->blocks[w->nblocks] = (struct wblock){
	    .b = {.offset = offset_in(s),
	          .count = n,
	          .first = first,
	          .spans = n,
	          .level = (uint8_t) level},
	};
	unsigned list = marks ? TLC_LEVELS : level;
	if (r->tail[list])
		w->blocks[r->tail[list] - 1].next = w->nblocks + 1;
	else
		r->head[list] = w->nblocks + 1;
	r->tail[list] = w->nblocks + 1;
	return &w->blocks[w->nblocks++].b;
}

/* Write the row's block of level 0 (cache-format.h's arrays, as they are). */
static int flush0(struct tl_cache_writer *w, struct wrow *r)
{
	struct level0 *l0 = &r->l0;
	uint32_t n = l0->n;
	if (!n)
		return 0;
	l0->n = 0;
	struct tlc_block *b = add_block(w, r, false, 0, n, l0->first);
	if (!b)
		return w->error;
	b->last = l0->end;
	b->state = l0->best.state;
	b->value = l0->best.value;
	int rc = put_in(w, &w->s[0], l0->delta, n * sizeof(*l0->delta));
	if (!rc)
		rc = put_in(w, &w->s[0], l0->value, n * sizeof(*l0->value));
	if (!rc)
		rc = put_in(w, &w->s[0], l0->state, n);
	return rc ? rc : pad8(w);
}

/* One more span in the row's level-0 block: the block is written first when its begin is
 * too far from the block's first for 32 bits, and after when full. */
static int append0(struct tl_cache_writer *w, struct wrow *r, const struct entry *e)
{
	struct level0 *l0 = &r->l0;
	if (l0->n && (uint64_t) (e->begin - l0->first) > UINT32_MAX) {
		int rc = flush0(w, r);
		if (rc)
			return rc;
	}
	if (l0->n == l0->cap) {
		uint32_t cap = l0->cap ? l0->cap * 2 : 8;
		uint32_t *delta = realloc(l0->delta, cap * sizeof(*delta));
		if (delta)
			l0->delta = delta;
		uint32_t *value = realloc(l0->value, cap * sizeof(*value));
		if (value)
			l0->value = value;
		uint8_t *state = realloc(l0->state, cap);
		if (state)
			l0->state = state;
		if (!delta || !value || !state)
			return fail(w, -ENOMEM);
		l0->cap = cap;
	}
	if (!l0->n) {
		l0->first = e->begin;
		l0->best = *e;
	} else if (longer(e, &l0->best)) {
		l0->best = *e;
	}
	l0->delta[l0->n] = (uint32_t) (e->begin - l0->first);
	l0->value[l0->n] = e->value;
	l0->state[l0->n] = e->state;
	l0->end = e->end;
	return ++l0->n == TLC_BLOCK ? flush0(w, r) : 0;
}

/* Write the row's block of a level above 0 (cache-format.h's arrays). */
static int flush_level(struct tl_cache_writer *w, struct wrow *r, unsigned level)
{
	struct level *lv = &r->lv[level];
	const struct entry *e = lv->buf;
	uint32_t n = lv->n, col[TLC_BLOCK / 4];
	int64_t begins[TLC_BLOCK / 4];
	uint8_t st[TLC_BLOCK / 4];
	if (!n)
		return 0;
	lv->n = 0;
	struct tlc_block *b = add_block(w, r, false, level, n, e[0].begin);
	if (!b)
		return w->error;
	struct stream *s = &w->s[level];
	const struct entry *big = &e[0];
	uint64_t sum = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (longer(&e[i], big))
			big = &e[i];
		sum += e[i].spans;
		begins[i] = e[i].begin;
		st[i] = e[i].state;
	}
	b->last = e[n - 1].end;
	b->state = big->state;
	b->value = big->value;
	b->spans = sum;
	int rc = put_in(w, s, begins, n * sizeof(*begins));
	for (uint32_t i = 0; !rc && i < n; i++)
		col[i] = e[i].value;
	if (!rc)
		rc = put_in(w, s, col, n * sizeof(*col));
	sum = 0;
	for (uint32_t i = 0; !rc && i < n; i++) {
		sum += e[i].spans;
		col[i] = sat32(sum);
	}
	if (!rc)
		rc = put_in(w, s, col, n * sizeof(*col));
	if (!rc)
		rc = put_in(w, s, st, n);
	return rc ? rc : pad8_in(w, s);
}

/* One more entry in the row's block of a level; the block is written when full. */
static int append(struct tl_cache_writer *w, struct wrow *r, unsigned level, const struct entry *e)
{
	if (!level)
		return append0(w, r, e);
	struct level *lv = &r->lv[level];
	if (lv->n == lv->cap) {
		uint32_t cap = lv->cap ? lv->cap * 2 : 8;
		struct entry *bigger = realloc(lv->buf, cap * sizeof(*bigger));
		if (!bigger)
			return fail(w, -ENOMEM);
		lv->buf = bigger;
		lv->cap = cap;
	}
	lv->buf[lv->n] = *e;
	/* the coarser levels' blocks fill slowly: smaller, so that every row's buffers stay
	 * small (a coarse picture reads few of them anyway) */
	return ++lv->n == TLC_BLOCK / 4 ? flush_level(w, r, level) : 0;
}

static int feed(struct tl_cache_writer *w, struct wrow *r, unsigned level, const struct entry *e);

/* An entry of a level: into its block, and on to the level above. */
static int emit(struct tl_cache_writer *w, struct wrow *r, unsigned level, const struct entry *e)
{
	int rc = append(w, r, level, e);
	return rc || level + 1 == TLC_LEVELS ? rc : feed(w, r, level + 1, e);
}

/* Level `level` (> 0) takes an entry of the level below: one at least tlc_level_ns long,
 * or a gap, stays as it is; shorter ones make runs no longer than that. */
static int feed(struct tl_cache_writer *w, struct wrow *r, unsigned level, const struct entry *e)
{
	struct level *lv = &r->lv[level];
	int64_t most = tlc_level_ns(level);
	int rc = 0;
	/* on a flame row the time between calls is a gap: short ones merge too */
	bool merges = e->state != TLC_GAP || r->kind == TL_ROW_CALLS;
	if (merges && e->end - e->begin < most) {
		if (lv->has_run && e->end - lv->run.begin <= most) {
			lv->run.end = e->end;
			lv->run.spans = sat32((uint64_t) lv->run.spans + e->spans);
			if (longer(e, &lv->run)) {
				lv->run.longest = e->longest;
				lv->run.state = e->state;
				lv->run.value = e->value;
			}
			return 0;
		}
		if (lv->has_run)
			rc = emit(w, r, level, &lv->run);
		lv->run = *e;
		lv->has_run = true;
		return rc;
	}
	if (lv->has_run) {
		lv->has_run = false;
		rc = emit(w, r, level, &lv->run);
	}
	return rc ? rc : emit(w, r, level, e);
}

static int add_span(struct tl_cache_writer *w, struct wrow *r, const struct tl_span *s)
{
	struct entry e = {
	    .begin = s->begin, .end = s->end, .spans = 1, .value = s->value, .state = s->state};
	if (r->spanned && e.begin < r->end) /* overlapping the last one (not expected): cut */
		e.begin = r->end;
	if (e.end < e.begin || e.state == TLC_GAP) /* nothing left of it, or not a state */
		return 0;
	e.longest = sat32((uint64_t) (e.end - e.begin));
	if (r->spanned && e.begin > r->end) { /* a gap: the row's entries stay contiguous */
		struct entry gap = {.begin = r->end, .end = e.begin, .spans = 1, .state = TLC_GAP};
		int rc = emit(w, r, 0, &gap);
		if (rc)
			return rc;
	}
	extend(r, e.begin, e.end);
	r->real++;
	r->end = e.end;
	r->spanned = true;
	return emit(w, r, 0, &e);
}

int tl_cache_writer_span(struct tl_cache_writer *w, enum tl_row_kind kind, int64_t id,
                         const struct tl_span *s)
{
	if (w->error)
		return w->error;
	struct wrow *r = row_of(w, kind, id);
	return r ? add_span(w, r, s) : w->error;
}

int tl_cache_writer_call(struct tl_cache_writer *w, uint32_t n, int64_t tid,
                         const struct tl_span *s)
{
	if (w->error)
		return w->error;
	struct wrow *r = call_row_of(w, n, tid);
	return r ? add_span(w, r, s) : w->error;
}

void tl_cache_writer_call_depth(struct tl_cache_writer *w, uint32_t n, uint32_t depth)
{
	if (n < w->ncall_rows && w->call_rows[n] != UINT32_MAX)
		w->rows[w->call_rows[n]].depth = depth;
}

static int flush_marks(struct tl_cache_writer *w, struct wrow *r)
{
	uint32_t n = r->nmarks;
	struct mark_buf *b = r->marks;
	if (!n)
		return 0;
	r->nmarks = 0;
	struct tlc_block *blk = add_block(w, r, true, 0, n, b->t[0]);
	if (!blk)
		return w->error;
	blk->last = b->t[n - 1];
	int rc = put(w, b->t, n * sizeof(int64_t));
	if (!rc)
		rc = put(w, b->cls, n * sizeof(uint32_t));
	return rc ? rc : pad8(w);
}

int tl_cache_writer_mark(struct tl_cache_writer *w, int64_t tid, int64_t t, size_t class_index)
{
	if (w->error)
		return w->error;
	if (class_index >= UINT32_MAX)
		return fail(w, -EINVAL);
	struct wrow *r = row_of(w, TL_ROW_THREAD, tid);
	if (!r)
		return w->error;
	if (!r->marks && !(r->marks = malloc(sizeof(*r->marks))))
		return fail(w, -ENOMEM);
	r->marks->t[r->nmarks] = t;
	r->marks->cls[r->nmarks] = (uint32_t) class_index;
	extend(r, t, t);
	return ++r->nmarks == TLC_BLOCK ? flush_marks(w, r) : 0;
}

int tl_cache_writer_event(struct tl_cache_writer *w, int64_t t, size_t class_index)
{
	if (w->error)
		return w->error;
	if (class_index >= UINT32_MAX)
		return fail(w, -EINVAL);
	return rate_bins_add(&w->rates, class_index, t) ? fail(w, -ENOMEM) : 0;
}

int tl_cache_writer_class(struct tl_cache_writer *w, size_t index, const char *name, bool user)
{
	if (w->error)
		return w->error;
	if (index >= UINT32_MAX)
		return fail(w, -EINVAL);
	if (index >= w->capclasses) {
		size_t n = index + 1 > w->capclasses * 2 ? index + 1 : w->capclasses * 2;
		struct wclass *bigger = realloc(w->classes, n * sizeof(*bigger));
		if (!bigger)
			return fail(w, -ENOMEM);
		memset(bigger + w->capclasses, 0, (n - w->capclasses) * sizeof(*bigger));
		w->classes = bigger;
		w->capclasses = n;
	}
	if (index >= w->nclasses)
		w->nclasses = index + 1;
	w->classes[index].user = user;
	return string(w, name ? name : "", &w->classes[index].name);
}

int tl_cache_writer_syscall(struct tl_cache_writer *w, const char *name)
{
	if (w->error)
		return w->error;
	if (grow(&w->syscalls, w->nsyscalls, &w->capsyscalls, sizeof(*w->syscalls)))
		return fail(w, -ENOMEM);
	if (string(w, name ? name : "", &w->syscalls[w->nsyscalls]))
		return w->error;
	w->nsyscalls++;
	return 0;
}

int tl_cache_writer_function(struct tl_cache_writer *w, const char *name)
{
	if (w->error)
		return w->error;
	if (grow(&w->functions, w->nfunctions, &w->capfunctions, sizeof(*w->functions)))
		return fail(w, -ENOMEM);
	if (string(w, name ? name : "", &w->functions[w->nfunctions]))
		return w->error;
	w->nfunctions++;
	return 0;
}

int tl_cache_writer_address(struct tl_cache_writer *w, uint64_t proc, uint64_t addr, int64_t from,
                            uint32_t function)
{
	if (w->error)
		return w->error;
	if (grow(&w->addresses, w->naddresses, &w->capaddresses, sizeof(*w->addresses)))
		return fail(w, -ENOMEM);
	w->addresses[w->naddresses++] = (struct tlc_address){proc, addr, from, function, 0};
	return 0;
}

int tl_cache_writer_damage(struct tl_cache_writer *w, int64_t at, const char *text)
{
	if (w->error)
		return w->error;
	if (grow(&w->damage, w->ndamage, &w->capdamage, sizeof(*w->damage)))
		return fail(w, -ENOMEM);
	struct tlc_damage *d = &w->damage[w->ndamage];
	*d = (struct tlc_damage){.at = at};
	if (string(w, text ? text : "", &d->text))
		return w->error;
	w->ndamage++;
	return 0;
}

/* ---- finish: the last blocks, then the tables ---- */

/* Close the runs being merged (each passes its entry on up), then write every block. */
static int flush_row(struct tl_cache_writer *w, struct wrow *r)
{
	int rc = 0;
	for (unsigned l = 1; !rc && l < TLC_LEVELS; l++)
		if (r->lv[l].has_run) {
			r->lv[l].has_run = false;
			rc = emit(w, r, l, &r->lv[l].run);
		}
	if (!rc)
		rc = flush0(w, r);
	for (unsigned l = 1; !rc && l < TLC_LEVELS; l++)
		rc = flush_level(w, r, l);
	return rc ? rc : flush_marks(w, r);
}

/* Threads by process then tid, then CPUs by number, then flame rows as threads, by depth. */
static int row_cmp(const void *a, const void *b)
{
	const struct tlc_row *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* A section starts here, at a multiple of 8. */
static int section(struct tl_cache_writer *w, uint64_t count, struct tlc_section *s)
{
	int rc = pad8(w);
	*s = (struct tlc_section){.offset = offset(w), .count = count};
	return rc;
}

/* The rows in the file's order, each with its writer's row in mark_block0 for now. */
static int row_table(struct tl_cache_writer *w, const struct tl_cache_meta *m, struct tlc_row **out)
{
	struct tlc_row *t = calloc(w->nrows ? w->nrows : 1, sizeof(*t));
	if (!t)
		return fail(w, -ENOMEM);
	for (size_t i = 0; i < w->nrows; i++) {
		const struct wrow *r = &w->rows[i];
		int64_t pid = -1;
		const char *name = NULL;
		if (m->row_info)
			m->row_info(m->data, r->kind, r->id, &pid, &name);
		t[i] = (struct tlc_row){.kind = r->kind,
		                        .id = r->id,
		                        .pid = pid,
		                        .first = r->first,
		                        .last = r->last,
		                        .spans = r->real,
		                        .depth = r->depth,
		                        .mark_block0 = i};
		if (name && string(w, name, &t[i].name)) {
			free(t);
			return w->error;
		}
	}
	qsort(t, w->nrows, sizeof(*t), row_cmp);
	*out = t;
	return 0;
}

/* An index: each row's blocks of a list (a level, or marks) in time order, rows in the
 * file's order (order[i]: the writer's row of file row i), with running totals. */
static int write_list(struct tl_cache_writer *w, struct tlc_row *rows, const uint32_t *order,
                      unsigned list, struct tlc_section *sec)
{
	int rc = 0;
	for (size_t i = 0; !rc && i < w->nrows; i++) {
		struct tlc_row *r = &rows[i];
		uint64_t before = 0;
		uint64_t *first = list == TLC_LEVELS ? &r->mark_block0 : &r->block0[list];
		uint64_t *n = list == TLC_LEVELS ? &r->mark_blocks : &r->blocks[list];
		*first = sec->count;
		for (size_t k = w->rows[order[i]].head[list]; !rc && k; k = w->blocks[k - 1].next) {
			struct tlc_block db = w->blocks[k - 1].b;
			db.before = before;
			before += db.spans;
			if (list == TLC_LEVELS)
				r->marks += db.count;
			++*n;
			sec->count++;
			rc = put(w, &db, sizeof(db));
		}
	}
	return rc;
}

/* The span index by level (a coarse picture reads one level of every row), then the
 * mark index. */
static int write_index(struct tl_cache_writer *w, struct tlc_row *rows, const uint32_t *order,
                       struct tlc_header *h)
{
	int rc = section(w, 0, &h->span_index);
	for (unsigned l = 0; !rc && l < TLC_LEVELS; l++)
		rc = write_list(w, rows, order, l, &h->span_index);
	if (!rc)
		rc = section(w, 0, &h->mark_index);
	return rc ? rc : write_list(w, rows, order, TLC_LEVELS, &h->mark_index);
}

static int write_classes(struct tl_cache_writer *w, struct tlc_header *h)
{
	struct rate_bins *rb = &w->rates;
	size_t n = w->nclasses > rb->n ? w->nclasses : rb->n;
	uint64_t at = 0;
	int rc = section(w, n, &h->classes);
	for (size_t i = 0; !rc && i < n; i++) {
		const struct rate_class *k = i < rb->n ? &rb->cls[i] : NULL;
		struct tlc_class dc = {.rate = UINT64_MAX};
		if (i < w->nclasses) {
			dc.name = w->classes[i].name;
			dc.user = w->classes[i].user;
		}
		if (k && k->n) {
			dc.rate = at;
			dc.bin0 = k->lo;
			dc.bins = k->n;
			at += k->n;
		}
		rc = put(w, &dc, sizeof(dc));
	}
	if (!rc)
		rc = section(w, at, &h->rates);
	for (size_t i = 0; !rc && i < rb->n; i++)
		rc = put(w, rb->cls[i].bins, rb->cls[i].n * sizeof(uint32_t));
	return rc;
}

int tl_cache_writer_finish(struct tl_cache_writer *w, const struct tl_cache_meta *m)
{
	struct tlc_header h = {.version = TLC_VERSION, .header_size = sizeof(h)};
	struct tlc_row *rows = NULL;
	uint32_t *order = NULL;
	int rc = w->error;

	memcpy(h.magic, TLC_MAGIC, sizeof(h.magic));
	for (size_t i = 0; !rc && i < w->nrows; i++)
		rc = flush_row(w, &w->rows[i]);
	/* the levels' blocks after level 0's, each level together */
	for (unsigned l = 1; !rc && l < TLC_LEVELS; l++) {
		uint64_t base;
		rc = copy_level(w, l, &base);
		for (size_t i = 0; !rc && i < w->nrows; i++)
			for (size_t k = w->rows[i].head[l]; k; k = w->blocks[k - 1].next)
				w->blocks[k - 1].b.offset += base;
	}
	if (!rc)
		rc = row_table(w, m, &rows);
	if (!rc && !(order = malloc((w->nrows ? w->nrows : 1) * sizeof(*order))))
		rc = fail(w, -ENOMEM);
	if (!rc) {
		for (size_t i = 0; i < w->nrows; i++) {
			order[i] = (uint32_t) rows[i].mark_block0;
			rows[i].mark_block0 = 0;
		}
		rc = write_index(w, rows, order, &h);
	}
	if (!rc)
		rc = section(w, w->nrows, &h.rows);
	if (!rc)
		rc = put(w, rows, w->nrows * sizeof(*rows));
	if (!rc) {
		h.rate_width = w->rates.width;
		h.rate_bins = rate_bins_close(&w->rates, m->duration);
		rc = write_classes(w, &h);
	}
	if (!rc)
		rc = section(w, w->nsyscalls, &h.syscalls);
	if (!rc)
		rc = put(w, w->syscalls, w->nsyscalls * sizeof(*w->syscalls));
	if (!rc)
		rc = section(w, w->nfunctions, &h.functions);
	if (!rc)
		rc = put(w, w->functions, w->nfunctions * sizeof(*w->functions));
	if (!rc)
		rc = section(w, w->naddresses, &h.addresses);
	if (!rc)
		rc = put(w, w->addresses, w->naddresses * sizeof(*w->addresses));
	if (!rc)
		rc = section(w, w->ndamage, &h.damage);
	if (!rc)
		rc = put(w, w->damage, w->ndamage * sizeof(*w->damage));
	if (!rc)
		rc = section(w, w->nstrings, &h.strings);
	if (!rc)
		rc = put(w, w->strings, w->nstrings);
	if (!rc)
		rc = pad8(w);
	if (!rc) {
		h.file_size = offset(w);
		rc = flush(w, &w->s[0]);
	}
	if (!rc) {
		h.fingerprint = m->fingerprint;
		h.origin = m->origin;
		h.duration = m->duration;
		h.lost = m->lost;
		ssize_t n = pwrite(w->s[0].fd, &h, sizeof(h), 0);
		if (n != (ssize_t) sizeof(h))
			rc = fail(w, n < 0 ? -errno : -EIO);
	}
	free(rows);
	free(order);
	return rc;
}

void tl_cache_writer_free(struct tl_cache_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nrows; i++) {
		free(w->rows[i].l0.delta);
		free(w->rows[i].l0.value);
		free(w->rows[i].l0.state);
		for (unsigned l = 1; l < TLC_LEVELS; l++)
			free(w->rows[i].lv[l].buf);
		free(w->rows[i].marks);
	}
	rate_bins_free(&w->rates);
	for (unsigned l = 0; l < TLC_LEVELS; l++) {
		outbuf_fini(&w->s[l].out);
		if (l && w->s[l].fd >= 0)
			close(w->s[l].fd);
	}
	free(w->tmpdir);
	idmap_free(&w->ids);
	free(w->rows);
	free(w->blocks);
	free(w->strings);
	free(w->classes);
	free(w->syscalls);
	free(w->functions);
	free(w->addresses);
	free(w->call_rows);
	free(w->damage);
	free(w);
}
