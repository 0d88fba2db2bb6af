/* SPDX-License-Identifier: MIT */
/*
 * test-timeline-cache.c: the timeline cache (lib/timeline/cache.h, query.h).
 *   - written from synthetic spans, marks and events (cache-write.h), opened, and queried:
 *     at fine zoom the rects are exactly the spans; at coarse zoom at most 2 per pixel and
 *     2 more, covering the row's range, each merged rect with the state of the span at its
 *     middle; marks merged per pixel add up; rates add up to the events;
 *   - every truncation of the file, and bytes changed in it, refused or queried safely;
 *   - tl_cache_open on a kernel trace of our own (tests/data/gen_kernel.py --busy): built
 *     beside it, found again, rebuilt when a stream file changes or the cache is damaged,
 *     and put in $XDG_CACHE_HOME/spoor when the trace's folder is not writable (as a user
 *     other than root: root writes anywhere);
 *   - the cache's files: its mode from the trace's files' and the umask; only a regular
 *     file of ours that nobody else can write is mapped (group-writable, a link, a FIFO,
 *     nobody's: the user's folder instead); a hard link at the old temporary name is not
 *     written through; a full file system beside the trace (root: a small tmpfs) falls
 *     back to the user's folder.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "spoor/trace.h"
#include "timeline/cache-format.h"
#include "timeline/cache-write.h"
#include "timeline/cache.h"
#include "timeline/query.h"

static char tmp[256];

/* ---- synthetic input ---- */

static uint64_t lcg = 12345;
static uint32_t rnd(uint32_t n)
{
	lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t) ((lcg >> 33) % n);
}

#define ROWS 4
struct want_row {
	enum tl_row_kind kind;
	int64_t id, pid;
	const char *name;
	size_t n;
	struct tl_span *s;
	size_t nmarks;
	int64_t *mt;
	uint32_t *mc;
};
static struct want_row want[ROWS];
#define CLASSES 4
static uint64_t class_events[CLASSES];
static int64_t duration;

static void add_span(struct want_row *r, int64_t b, int64_t e, uint8_t state, uint32_t value)
{
	r->s = realloc(r->s, (r->n + 1) * sizeof(*r->s));
	r->s[r->n++] = (struct tl_span){.begin = b, .end = e, .state = state, .value = value};
}

/* Row 0: thread 100 (process 100), 3000 contiguous spans of 1 to 2000 ns and, now and
 * then, a long one; row 1: thread 101 (process 100), long spans with a gap (it exited, and
 * its tid came back); row 2: thread 7 (process 5), one span; row 3: CPU 0, 5000 spans of
 * 1 to 20 ns. */
static void make_input(void)
{
	want[0] = (struct want_row){.kind = TL_ROW_THREAD, .id = 100, .pid = 100, .name = "main"};
	int64_t t = 10;
	for (int i = 0; i < 3000; i++) {
		int64_t len = rnd(10) == 0 ? 100000 + rnd(100000) : 1 + rnd(2000);
		add_span(&want[0], t, t + len, (uint8_t) rnd(TS_COUNT), rnd(500));
		t += len;
	}
	want[1] = (struct want_row){.kind = TL_ROW_THREAD, .id = 101, .pid = 100, .name = "worker"};
	add_span(&want[1], 0, 500000, TS_BLOCKED, 0);
	add_span(&want[1], 500000, 900000, TS_USER, 0);
	add_span(&want[1], 2000000, 2500000, TS_WAIT_CPU, 0); /* after a gap */
	add_span(&want[1], 2500000, 3000000, TS_SYSCALL, 1);
	want[2] = (struct want_row){.kind = TL_ROW_THREAD, .id = 7, .pid = 5, .name = "other"};
	add_span(&want[2], 1000, 2000, TS_IDLE, 0);
	want[3] = (struct want_row){.kind = TL_ROW_CPU, .id = 0, .pid = -1, .name = ""};
	t = 0;
	for (int i = 0; i < 5000; i++) {
		int64_t len = 1 + rnd(20);
		add_span(&want[3], t, t + len, (uint8_t) rnd(TS_COUNT), rnd(100000));
		t += len;
	}
	/* marks on thread 100: some in bursts at one time */
	struct want_row *r = &want[0];
	int64_t mt = 20;
	for (int i = 0; i < 700; i++) {
		mt += rnd(3) ? rnd(5000) : 0;
		r->mt = realloc(r->mt, (r->nmarks + 1) * sizeof(*r->mt));
		r->mc = realloc(r->mc, (r->nmarks + 1) * sizeof(*r->mc));
		r->mt[r->nmarks] = mt;
		r->mc[r->nmarks++] = 2;
	}
	duration = want[0].s[want[0].n - 1].end;
}

static void row_info(void *data, enum tl_row_kind kind, int64_t id, int64_t *pid, const char **name)
{
	for (int i = 0; i < ROWS; i++)
		if (want[i].kind == kind && want[i].id == id) {
			*pid = want[i].pid;
			*name = kind == TL_ROW_CPU ? NULL : want[i].name;
		}
}

/* Rows interleaved as states.h gives them: a few spans of one, then of another. */
static char *write_cache(void)
{
	static char path[300];
	snprintf(path, sizeof(path), "%s/synth.cache", tmp);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct tl_cache_writer *w = NULL;
	CHECK_CTX("writer");
	if (!CHECK(fd >= 0) || !CHECK_EQ_S64(tl_cache_writer_new(fd, tmp, &w), 0))
		return NULL;
	size_t at[ROWS] = {0}, mat = 0, left = 0;
	for (int i = 0; i < ROWS; i++)
		left += want[i].n;
	while (left) {
		int i = (int) rnd(ROWS);
		for (uint32_t k = rnd(40); k && at[i] < want[i].n; k--, left--) {
			CHECK_EQ_S64(
			    tl_cache_writer_span(w, want[i].kind, want[i].id, &want[i].s[at[i]]),
			    0);
			/* the marks of row 0 and every event, roughly in time */
			while (i == 0 && mat < want[0].nmarks &&
			       want[0].mt[mat] <= want[0].s[at[0]].end) {
				tl_cache_writer_mark(w, 100, want[0].mt[mat], want[0].mc[mat]);
				mat++;
			}
			uint32_t c = rnd(CLASSES - 1); /* class 3 has no events */
			CHECK_EQ_S64(tl_cache_writer_event(w, want[i].s[at[i]].begin, c), 0);
			class_events[c]++;
			at[i]++;
		}
	}
	while (mat < want[0].nmarks) {
		tl_cache_writer_mark(w, 100, want[0].mt[mat], want[0].mc[mat]);
		mat++;
	}
	static const char *names[CLASSES] = {"sched_switch", "irq_handler_entry", "app:tick",
	                                     "never"};
	for (int c = CLASSES - 1; c >= 0; c--)
		CHECK_EQ_S64(tl_cache_writer_class(w, (size_t) c, names[c], c == 2), 0);
	CHECK_EQ_S64(tl_cache_writer_syscall(w, "read"), 0);
	CHECK_EQ_S64(tl_cache_writer_syscall(w, "write"), 0);
	CHECK_EQ_S64(tl_cache_writer_damage(w, 1234, "stream x: bad packet at byte 42"), 0);
	struct tl_cache_meta m = {.fingerprint = 0xfeed,
	                          .origin = 1700000000123456789,
	                          .duration = duration,
	                          .lost = 17,
	                          .row_info = row_info};
	CHECK_EQ_S64(tl_cache_writer_finish(w, &m), 0);
	tl_cache_writer_free(w);
	close(fd);
	return path;
}

/* ---- checks of the queries against the input ---- */

/* The input span of row r holding t (the last beginning at or before it), or NULL. */
static const struct tl_span *span_at(const struct want_row *r, int64_t t)
{
	const struct tl_span *found = NULL;
	for (size_t i = 0; i < r->n && r->s[i].begin <= t; i++)
		found = &r->s[i];
	return found && found->end > t ? found : NULL;
}

/* Whether a span of row r meets [a, b). */
static bool covered(const struct want_row *r, int64_t a, int64_t b)
{
	if (a >= b)
		return false;
	for (size_t i = 0; i < r->n; i++)
		if (r->s[i].begin < b && r->s[i].end > a && r->s[i].end > r->s[i].begin)
			return true;
	return false;
}

/* Whether a span of row w about the rect has its state and value. */
static bool shows(const struct want_row *w, const struct tl_rect *r)
{
	int64_t slack = TLC_BLOCK * 200000; /* the block at the middle reaches that far */
	for (size_t i = 0; i < w->n; i++)
		if (w->s[i].end > r->begin - slack && w->s[i].begin < r->end + slack &&
		    w->s[i].state == r->state && w->s[i].value == r->value)
			return true;
	return false;
}

static const struct want_row *want_of(const struct tl_cache_row *cr)
{
	for (int i = 0; i < ROWS; i++)
		if (want[i].kind == cr->kind && want[i].id == cr->id)
			return &want[i];
	return NULL;
}

static void check_fine(const struct tl_cache *c, size_t row, const struct want_row *w)
{
	int64_t t0 = w->s[0].begin, t1 = w->s[w->n - 1].end;
	uint32_t px = (uint32_t) (t1 - t0); /* a pixel a ns */
	struct tl_rect *out = calloc(w->n + 8, sizeof(*out));
	size_t n = tl_query_spans(c, row, t0, t1, px, out, w->n + 8);
	CHECK_CTX("row %zu (id %lld): fine zoom", row, (long long) w->id);
	if (CHECK_EQ_U64(n, w->n))
		for (size_t i = 0; i < n; i++) {
			CHECK_CTX("row %zu span %zu", row, i);
			bool same = out[i].begin == w->s[i].begin && out[i].end == w->s[i].end &&
			            out[i].state == w->s[i].state &&
			            out[i].value == w->s[i].value && out[i].spans == 1;
			if (!CHECK(same))
				break;
		}
	/* half a range, clipped */
	int64_t mid = t0 + (t1 - t0) / 2;
	n = tl_query_spans(c, row, mid, t1, (uint32_t) (t1 - mid) * 3, out, w->n + 8);
	const struct tl_span *s = span_at(w, mid);
	CHECK_CTX("row %zu: fine zoom from the middle", row);
	if (s && CHECK(n > 0)) {
		CHECK_EQ_S64(out[0].begin, mid);
		CHECK_EQ_S64(out[0].end, s->end < t1 ? s->end : t1);
		CHECK_EQ_U64(out[0].state, s->state);
	}
	free(out);
}

/* Coarse: rects in order, within [t0, t1], covering every span's part there, at most
 * 2 per pixel + 2, each merged one with the state at its middle. */
static void check_coarse(const struct tl_cache *c, size_t row, const struct want_row *w, int64_t t0,
                         int64_t t1, uint32_t px)
{
	size_t max = 2 * (size_t) px + 2;
	struct tl_rect *out = calloc(max + 16, sizeof(*out));
	size_t n = tl_query_spans(c, row, t0, t1, px, out, max + 16);
	CHECK_CTX("row %zu: [%lld, %lld] at %u px", row, (long long) t0, (long long) t1, px);
	CHECK(n <= max);
	int64_t at = t0;
	uint64_t spans = 0;
	for (size_t i = 0; i < n; i++) {
		const struct tl_rect *r = &out[i];
		CHECK_CTX("row %zu: [%lld, %lld] at %u px, rect %zu [%lld, %lld) x%u", row,
		          (long long) t0, (long long) t1, px, i, (long long) r->begin,
		          (long long) r->end, r->spans);
		if (!CHECK(r->begin >= at && r->end > r->begin && r->end <= t1))
			break;
		CHECK(!covered(w, at, r->begin)); /* nothing of the row left out before it */
		const struct tl_span *m = span_at(w, r->begin + (r->end - r->begin) / 2);
		if (r->spans >= TLC_BLOCK || (t1 - t0) / px >= tlc_level_ns(1)) {
			/* whole blocks in a pixel, or a coarser level (runs merged): a span there
			 */
			CHECK(shows(w, r));
		} else if (r->spans > 1) {
			if (m)
				CHECK(m->state == r->state && m->value == r->value);
		} else {
			const struct tl_span *s = span_at(w, r->begin);
			if (CHECK(s != NULL))
				CHECK(s->state == r->state && s->value == r->value &&
				      (s->end == r->end || r->end == t1));
		}
		spans += r->spans;
		at = r->end;
	}
	CHECK(!covered(w, at, t1)); /* nor after the last rect */
	size_t inside = 0;
	for (size_t i = 0; i < w->n; i++)
		inside += w->s[i].end > t0 && w->s[i].begin < t1;
	CHECK(spans >= inside);
	free(out);
}

static void check_marks(const struct tl_cache *c, size_t row, const struct want_row *w)
{
	struct tl_markrect out[2000];
	int64_t t0 = w->mt[0], t1 = w->mt[w->nmarks - 1];
	for (uint32_t px = 1; px <= 4096; px *= 8) {
		size_t n = tl_query_marks(c, row, t0, t1, px, out, 2000);
		CHECK_CTX("marks at %u px", px);
		CHECK(n <= px + 1);
		uint64_t sum = 0;
		int64_t prev = INT64_MIN;
		for (size_t i = 0; i < n; i++) {
			sum += out[i].count;
			CHECK(out[i].t > prev && out[i].class_index == 2);
			prev = out[i].t;
		}
		CHECK_EQ_U64(sum, w->nmarks);
	}
	/* a ns a pixel: one markrect per distinct time, counting the marks at it */
	size_t n = tl_query_marks(c, row, t0, t1, (uint32_t) (t1 - t0 + 1), out, 2000);
	size_t distinct = 0;
	for (size_t i = 0; i < w->nmarks; i++)
		distinct += !i || w->mt[i] != w->mt[i - 1];
	CHECK_CTX("marks at a ns a pixel");
	CHECK_EQ_U64(n, distinct);
}

static void check_rates(const struct tl_cache *c)
{
	double out[1000];
	uint64_t all = 0;
	for (int k = 0; k < CLASSES; k++) {
		CHECK_CTX("rate of class %d", k);
		CHECK_EQ_U64(tl_cache_class_events(c, (size_t) k), class_events[k]);
		all += class_events[k];
		for (uint32_t bins = 1; bins <= 1000; bins = bins * 3 + 1) {
			if (!CHECK_EQ_S64(tl_query_rate(c, (size_t) k, 0, duration + 1, bins, out),
			                  0))
				continue;
			double sum = 0;
			for (uint32_t j = 0; j < bins; j++)
				sum += out[j];
			CHECK(fabs(sum - (double) class_events[k]) <
			      1e-6 * (double) (class_events[k] + 1));
		}
	}
	/* a range in two parts, at any cut: the parts add up to the whole */
	for (int k = 0; k < 50; k++) {
		int64_t cut = 1 + rnd((uint32_t) duration);
		uint32_t b1 = 1 + rnd(300), b2 = 1 + rnd(300);
		double *o1 = calloc(b1, sizeof(double)), *o2 = calloc(b2, sizeof(double));
		double sum = 0;
		CHECK_CTX("rate of class 0 cut at %lld in %u and %u bins", (long long) cut, b1, b2);
		CHECK_EQ_S64(tl_query_rate(c, 0, 0, cut, b1, o1), 0);
		CHECK_EQ_S64(tl_query_rate(c, 0, cut, duration + 1, b2, o2), 0);
		for (uint32_t j = 0; j < b1; j++)
			sum += o1[j];
		for (uint32_t j = 0; j < b2; j++)
			sum += o2[j];
		CHECK(fabs(sum - (double) class_events[0]) < 1e-6 * (double) class_events[0]);
		free(o1);
		free(o2);
	}
	CHECK_CTX("rate of every class");
	CHECK_EQ_S64(tl_query_rate(c, SIZE_MAX, 0, duration + 1, 1, out), 0);
	CHECK(fabs(out[0] - (double) all) < 1e-6 * (double) all);
	CHECK_EQ_S64(tl_query_rate(c, CLASSES, 0, 10, 1, out), -EINVAL);
}

static void test_synthetic(void)
{
	make_input();
	char *path = write_cache();
	struct tl_cache *c = NULL;
	char *err = NULL;
	CHECK_CTX("open the synthetic cache");
	if (!path || !CHECK_EQ_S64(tl_cache_open_file(path, &c, &err), 0)) {
		printf("  %s\n", err ? err : "");
		free(err);
		return;
	}
	CHECK_EQ_U64(tl_cache_fingerprint(c), 0xfeed);
	CHECK_EQ_S64(tl_cache_origin(c), 1700000000123456789);
	CHECK_EQ_S64(tl_cache_duration(c), duration);
	CHECK_EQ_U64(tl_cache_lost(c), 17);
	CHECK_STR(tl_cache_path(c), path);
	CHECK_EQ_U64(tl_cache_classes(c), CLASSES);
	CHECK_STR(tl_cache_class_name(c, 2), "app:tick");
	CHECK(tl_cache_class_user(c, 2) && !tl_cache_class_user(c, 1));
	CHECK_EQ_U64(tl_cache_syscalls(c), 2);
	CHECK_STR(tl_cache_syscall_name(c, 1), "write");
	CHECK(tl_cache_syscall_name(c, 2) == NULL);
	CHECK_EQ_U64(tl_cache_damage(c), 1);
	CHECK_STR(tl_cache_damage_text(c, 0), "stream x: bad packet at byte 42");
	CHECK_EQ_S64(tl_cache_damage_at(c, 0), 1234);
	/* rows: threads by process then tid, then CPUs */
	static const int64_t order[ROWS] = {7, 100, 101, 0};
	if (CHECK_EQ_U64(tl_cache_rows(c), ROWS))
		for (size_t i = 0; i < ROWS; i++) {
			const struct tl_cache_row *cr = tl_cache_row(c, i);
			const struct want_row *w = want_of(cr);
			CHECK_CTX("row %zu", i);
			CHECK_EQ_S64(cr->id, order[i]);
			if (!CHECK(w != NULL))
				continue;
			CHECK_EQ_S64(cr->pid, w->pid);
			CHECK_STR(cr->name, w->name);
			int64_t first = w->s[0].begin, last = w->s[w->n - 1].end;
			if (w->nmarks && w->mt[0] < first)
				first = w->mt[0];
			if (w->nmarks && w->mt[w->nmarks - 1] > last)
				last = w->mt[w->nmarks - 1];
			CHECK_EQ_S64(cr->first, first);
			CHECK_EQ_S64(cr->last, last);
			check_fine(c, i, w);
			static const uint32_t pxs[] = {1, 2, 7, 100, 1000, 4000};
			for (size_t k = 0; k < sizeof(pxs) / sizeof(*pxs); k++)
				check_coarse(c, i, w, w->s[0].begin, w->s[w->n - 1].end, pxs[k]);
			for (int k = 0; k < 40; k++) {
				int64_t a = first - 100 + rnd((uint32_t) (last - first + 200));
				int64_t b = a + 1 + rnd((uint32_t) (last - first + 200));
				check_coarse(c, i, w, a, b, 1 + rnd(1500));
			}
			if (w->nmarks)
				check_marks(c, i, w);
		}
	CHECK_CTX("out of range");
	struct tl_rect r[4];
	CHECK_EQ_U64(tl_query_spans(c, ROWS, 0, 100, 10, r, 4), 0);
	CHECK_EQ_U64(tl_query_spans(c, 0, 100, 100, 10, r, 4), 0);
	CHECK_EQ_U64(tl_query_spans(c, 0, 0, 100, 0, r, 4), 0);
	CHECK_EQ_U64(tl_query_spans(c, 1, 0, duration, 10, r, 4),
	             4); /* row 1: tid 100; max stops it */
	check_rates(c);
	tl_cache_close(c);
}

/* The calls' addresses: each (process, address)'s function from its time on, the first
 * one before that; NULL for an address no call had, and for a function out of the table. */
static void test_addresses(void)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/addresses.cache", tmp);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct tl_cache_writer *w = NULL;
	CHECK_CTX("addresses");
	if (!CHECK(fd >= 0) || !CHECK_EQ_S64(tl_cache_writer_new(fd, tmp, &w), 0))
		return;
	tl_cache_writer_function(w, "main");
	tl_cache_writer_function(w, "plugin_run");
	tl_cache_writer_function(w, "0x7f0000001000");
	tl_cache_writer_address(w, 1, 0x1000, 50, 0);
	tl_cache_writer_address(w, 1ull << 32 | 7, 0x7f0000001000, 100, 1); /* dlopen */
	tl_cache_writer_address(w, 1ull << 32 | 7, 0x7f0000001000, 900, 2); /* dlclose */
	tl_cache_writer_address(w, 1ull << 32 | 7, 0x7f0000002000, 0, 9);   /* no such */
	tl_cache_writer_address(w, 2ull << 32 | 7, 0x1000, 0, 1);
	struct tl_cache_meta m = {.fingerprint = 1, .origin = 1000, .duration = 2000};
	CHECK_EQ_S64(tl_cache_writer_finish(w, &m), 0);
	tl_cache_writer_free(w);
	close(fd);
	struct tl_cache *c = NULL;
	char *err = NULL;
	if (!CHECK_EQ_S64(tl_cache_open_file(path, &c, &err), 0)) {
		free(err);
		return;
	}
	const char *main_ = "main", *run = "plugin_run", *gone = "0x7f0000001000";
	CHECK_STR(tl_cache_address_name(c, 1, 0x1000, 0), main_); /* before its first call */
	CHECK_STR(tl_cache_address_name(c, 1, 0x1000, 5000), main_);
	CHECK_STR(tl_cache_address_name(c, 1ull << 32 | 7, 0x7f0000001000, 100), run);
	CHECK_STR(tl_cache_address_name(c, 1ull << 32 | 7, 0x7f0000001000, 899), run);
	CHECK_STR(tl_cache_address_name(c, 1ull << 32 | 7, 0x7f0000001000, 900), gone);
	CHECK_STR(tl_cache_address_name(c, 1ull << 32 | 7, 0x7f0000001000, 1 << 30), gone);
	CHECK_STR(tl_cache_address_name(c, 2ull << 32 | 7, 0x1000, 0), run);
	CHECK(tl_cache_address_name(c, 1ull << 32 | 7, 0x7f0000002000, 0) == NULL);
	CHECK(tl_cache_address_name(c, 1, 0x1001, 0) == NULL);
	CHECK(tl_cache_address_name(c, 3, 0x1000, 0) == NULL);
	CHECK(tl_cache_address_name(c, 0, 0, 0) == NULL);
	tl_cache_close(c);
}

/* ---- damaged files ---- */

static unsigned char *read_all(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	*n = 0;
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	/* 8-aligned, as the cache's arrays want (malloc gives at least that) */
	buf = malloc(len > 0 ? (size_t) len : 1);
	if (buf && fread(buf, 1, (size_t) len, f) == (size_t) len)
		*n = (size_t) len;
	fclose(f);
	return buf;
}

/* Whatever the bytes, queries stay safe (ASan and UBSan watch this under run-sanitizers). */
static void query_everything(const struct tl_cache *c)
{
	struct tl_rect r[600];
	struct tl_markrect m[300];
	double rate[50];
	for (size_t i = 0; i < tl_cache_rows(c); i++) {
		const struct tl_cache_row *cr = tl_cache_row(c, i);
		tl_query_spans(c, i, cr->first, cr->last, 256, r, 600);
		tl_query_spans(c, i, INT64_MIN, INT64_MAX, 4096, r, 600);
		tl_query_marks(c, i, INT64_MIN, INT64_MAX, 256, m, 300);
	}
	tl_query_rate(c, SIZE_MAX, INT64_MIN, INT64_MAX, 50, rate);
	for (size_t k = 0; k < tl_cache_classes(c); k++)
		tl_query_rate(c, k, 0, tl_cache_duration(c) / 2 + 1, 50, rate);
}

static void test_damaged(const char *path)
{
	size_t n;
	unsigned char *good = read_all(path, &n);
	CHECK_CTX("damaged copies of %s", path);
	if (!CHECK(good && n > sizeof(struct tlc_header)))
		return;
	unsigned char *buf = malloc(n);
	/* every truncation is refused */
	size_t refused = 0, tries = 0;
	for (size_t len = 0; len < n; len += 1 + len / 50, tries++) {
		struct tl_cache *c = NULL;
		memcpy(buf, good, len);
		if (tl_cache_open_bytes(buf, len, &c, NULL))
			refused++;
		tl_cache_close(c);
	}
	CHECK_EQ_U64(refused, tries);
	/* bytes changed anywhere: refused, or queried without harm */
	for (int k = 0; k < 3000; k++) {
		struct tl_cache *c = NULL;
		memcpy(buf, good, n);
		size_t at = k < 1500 ? rnd(sizeof(struct tlc_header) + 64) : rnd((uint32_t) n);
		buf[at] = (unsigned char) rnd(256);
		if (k % 3 == 0) /* and a whole word: large values */
			memset(buf + (at & ~(size_t) 7), 0xff, at + 8 <= n ? 8 : 0);
		if (!tl_cache_open_bytes(buf, n, &c, NULL))
			query_everything(c);
		tl_cache_close(c);
	}
	/* the block index's entries changed (past the header's sections) */
	const struct tlc_header *h = (const void *) good;
	for (uint64_t i = 0; i < h->span_index.count && i < 200; i++) {
		struct tl_cache *c = NULL;
		memcpy(buf, good, n);
		struct tlc_block *b = (struct tlc_block *) (buf + h->span_index.offset) + i;
		switch (i % 4) {
		case 0: b->count = TLC_BLOCK + 1; break;
		case 1: b->offset = n - 8; break;
		case 2: b->first = INT64_MIN + (int64_t) i; break;
		default: b->before = UINT64_MAX - i; break;
		}
		int rc = tl_cache_open_bytes(buf, n, &c, NULL);
		CHECK(i % 4 >= 2 || rc != 0);
		if (!rc)
			query_everything(c);
		tl_cache_close(c);
	}
	/* span values themselves are not checked at open: swapped ends, huge times */
	for (int k = 0; k < 200; k++) {
		struct tl_cache *c = NULL;
		memcpy(buf, good, n);
		int64_t *span0 = (void *) (buf + sizeof(struct tlc_header));
		for (int j = 0; j < 64; j++)
			span0[rnd(512)] =
			    (int64_t) (((uint64_t) rnd(UINT32_MAX) << 32) | rnd(UINT32_MAX));
		if (CHECK_EQ_S64(tl_cache_open_bytes(buf, n, &c, NULL), 0))
			query_everything(c);
		tl_cache_close(c);
	}
	free(buf);
	free(good);
}

/* ---- tl_cache_open on a trace ---- */

static ino_t inode_of(const char *path)
{
	struct stat st;
	return stat(path, &st) ? 0 : st.st_ino;
}

static bool run(const char *fmt, const char *a, const char *b)
{
	char cmd[1200];
	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd) == 0;
}

/* Open the cache of paths; NULL (and a failed check) when it can't. */
static struct tl_cache *open_cache(const char *const *paths, size_t n)
{
	struct tl_cache *c = NULL;
	char *err = NULL;
	if (!CHECK_EQ_S64(tl_cache_open(paths, n, &c, &err), 0))
		printf("  %s\n", err ? err : "(no message)");
	free(err);
	return c;
}

/* The busy trace's rows and event counts (gen_kernel.py's busy()): every class's events
 * against a plain reader pass. */
static void check_busy(const struct tl_cache *c, const char *trace)
{
	bool main_thread = false;
	size_t cpus = 0;
	for (size_t i = 0; i < tl_cache_rows(c); i++) {
		const struct tl_cache_row *r = tl_cache_row(c, i);
		cpus += r->kind == TL_ROW_CPU;
		if (r->kind == TL_ROW_THREAD && r->id == 1000) {
			main_thread = true;
			CHECK_EQ_S64(r->pid, 1000);
			CHECK_STR(r->name, "multithread");
			struct tl_rect rects[600];
			size_t n = tl_query_spans(c, i, r->first, r->last, 256, rects, 600);
			CHECK(n > 0 && n <= 514 && rects[0].begin == r->first);
		}
	}
	CHECK(main_thread);
	CHECK_EQ_U64(cpus, 4);
	const char *paths[] = {trace};
	struct spoor_reader *rd = NULL;
	if (!CHECK_EQ_S64(spoor_reader_open(paths, 1, &rd, NULL), 0))
		return;
	size_t nc = spoor_reader_event_class_count(rd);
	uint64_t *counts = calloc(nc, sizeof(*counts));
	const struct spoor_event *ev;
	while (spoor_reader_next(rd, &ev) > 0)
		counts[spoor_event_class_index(spoor_event_class(ev))]++;
	CHECK_EQ_U64(tl_cache_classes(c), nc);
	for (size_t k = 0; k < nc && k < tl_cache_classes(c); k++) {
		CHECK_CTX("class %zu %s", k, tl_cache_class_name(c, k));
		CHECK_STR(tl_cache_class_name(c, k),
		          spoor_event_class_name(spoor_reader_event_class(rd, k)));
		CHECK_EQ_U64(tl_cache_class_events(c, k), counts[k]);
	}
	free(counts);
	spoor_reader_close(rd);
}

struct progress {
	unsigned calls;
	double first, last;
	bool ordered;
};

static void on_progress(void *data, double fraction)
{
	struct progress *p = data;
	if (!p->calls++) {
		p->first = fraction;
		p->ordered = true;
	}
	p->ordered &= fraction >= p->last && fraction <= 1;
	p->last = fraction;
}

static void test_open(const char *data)
{
	char trace[400], trace2[400], cache[500], xdg[400];
	snprintf(trace, sizeof(trace), "%s/busy", tmp);
	snprintf(trace2, sizeof(trace2), "%s/busy2", tmp);
	snprintf(xdg, sizeof(xdg), "%s/xdg", tmp);
	snprintf(cache, sizeof(cache), "%s/.spoor-view.cache", trace);
	setenv("XDG_CACHE_HOME", xdg, 1);
	CHECK_CTX("gen_kernel.py --busy");
	if (!CHECK(run("python3 '%s/gen_kernel.py' --busy '%s' >/dev/null", data, trace)))
		return;
	const char *paths[] = {trace, trace2};

	CHECK_CTX("built beside the trace");
	struct tl_cache *c = open_cache(paths, 1);
	if (!c)
		return;
	CHECK_STR(tl_cache_path(c), cache);
	check_busy(c, trace);
	uint64_t fp = tl_cache_fingerprint(c);
	tl_cache_close(c);
	ino_t built = inode_of(cache);
	struct stat st;
	CHECK(!stat(cache, &st) && (st.st_mode & 0777) == 0644);

	CHECK_CTX("found again");
	c = open_cache(paths, 1);
	CHECK_EQ_U64(inode_of(cache), built);
	tl_cache_close(c);

	CHECK_CTX("a stream file touched: stale, built again, with progress");
	char stream[500];
	snprintf(stream, sizeof(stream), "%s/channel0_1", trace);
	struct timespec times[2] = {{0, UTIME_OMIT}, {1234567890, 5}};
	CHECK_EQ_S64(utimensat(AT_FDCWD, stream, times, 0), 0);
	struct progress pr = {.last = -1};
	char *err = NULL;
	c = NULL;
	CHECK_EQ_S64(tl_cache_open_progress(paths, 1, on_progress, &pr, &c, &err), 0);
	free(err);
	CHECK(inode_of(cache) != built);
	CHECK(c && tl_cache_fingerprint(c) != fp);
	CHECK(pr.calls >= 2 && pr.first == 0 && pr.last == 1 && pr.ordered);
	tl_cache_close(c);

	CHECK_CTX("a truncated cache: built again");
	built = inode_of(cache);
	off_t size = stat(cache, &st) ? 0 : st.st_size;
	CHECK_EQ_S64(truncate(cache, size / 2), 0);
	c = open_cache(paths, 1);
	CHECK(inode_of(cache) != built && !stat(cache, &st) && st.st_size == size);
	if (c)
		check_busy(c, trace);
	tl_cache_close(c);

	CHECK_CTX("a cache of garbage: built again");
	built = inode_of(cache);
	CHECK(run("head -c %s /dev/urandom > '%s'", "5000", cache));
	c = open_cache(paths, 1);
	CHECK(inode_of(cache) != built && !stat(cache, &st) && st.st_size == size);
	tl_cache_close(c);
	CHECK(run("ls -a '%s' | grep -q tmp%s && exit 1 || exit 0", trace, "")); /* none left */

	CHECK_CTX("two traces: a cache named by their paths, in the first");
	if (CHECK(run("python3 '%s/gen_kernel.py' --busy '%s' >/dev/null", data, trace2))) {
		c = open_cache(paths, 2);
		const char *p = c ? tl_cache_path(c) : "";
		CHECK(!strncmp(p, trace, strlen(trace)) && strstr(p, "/.spoor-view-") &&
		      strlen(p) == strlen(trace) + strlen("/.spoor-view-") + 16 + strlen(".cache"));
		tl_cache_close(c);
	}

	CHECK_CTX("not a trace");
	const char *nothing[] = {"/nonexistent/trace"};
	err = NULL;
	c = NULL;
	CHECK(tl_cache_open(nothing, 1, &c, &err) < 0 && !c && err);
	free(err);
}

/* The trace's folder not writable: the cache goes to $XDG_CACHE_HOME/spoor (0600). Root
 * writes anywhere, so as root the check runs in a child as nobody (65534). */
static void test_unwritable(void)
{
	char ro[400], trace[400], xdg[400];
	snprintf(ro, sizeof(ro), "%s/ro", tmp);
	snprintf(trace, sizeof(trace), "%s/ro/busy", tmp);
	snprintf(xdg, sizeof(xdg), "%s/xdg-ro", tmp);
	CHECK_CTX("a read-only copy of the trace");
	if (!CHECK(run("mkdir -p '%s' '%s'", ro, xdg)) ||
	    !CHECK(run("cp -r '%s/busy' '%s'", tmp, ro)) ||
	    !CHECK(run("rm -f '%s'/.spoor* && chmod -R a-w,a+rX '%s'", trace, ro)) ||
	    !CHECK(run("chmod 0755 '%s'%s", tmp, "")))
		return;
	pid_t pid = fork();
	if (pid == 0) {
		check_failed = 0; /* the child's own */
		if (!geteuid()) {
			if (chown(xdg, 65534, 65534) || setgroups(0, NULL) ||
			    setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534)) {
				perror("becoming nobody");
				_exit(2);
			}
		}
		setenv("XDG_CACHE_HOME", xdg, 1);
		const char *paths[] = {trace};
		struct tl_cache *c = open_cache(paths, 1);
		char beside[500], user[500];
		snprintf(beside, sizeof(beside), "%s/.spoor-view.cache", trace);
		snprintf(user, sizeof(user), "%s/spoor/view-", xdg);
		const char *p = c ? tl_cache_path(c) : "";
		struct stat st;
		CHECK(!strncmp(p, user, strlen(user)) && !stat(p, &st) &&
		      (st.st_mode & 0777) == 0600);
		CHECK(access(beside, F_OK) && errno == ENOENT);
		CHECK(c && tl_cache_rows(c) > 0);
		ino_t ino = inode_of(p);
		tl_cache_close(c);
		/* and found there again */
		c = open_cache(paths, 1);
		CHECK(c && inode_of(tl_cache_path(c)) == ino);
		tl_cache_close(c);
		fflush(stdout);
		_exit(check_failed ? 1 : 0);
	}
	int status = -1;
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	run("chmod -R u+w '%s'%s", ro, "");
}

/* ---- the cache's files: whose, what mode, where when beside fails ---- */

/* A fresh copy of the busy trace at tmp/name (no cache in it): its path in out. */
static bool copy_trace(const char *name, char *out, size_t size)
{
	char cmd[1500];
	snprintf(out, size, "%s/%s", tmp, name);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && cp -r '%s/busy' '%s' && rm -f '%s'/.spoor*", out,
	         tmp, out, out);
	return CHECK(system(cmd) == 0);
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	return stat(path, &st) ? 0 : st.st_mode & 07777;
}

/* Open the cache of trace; its path (malloc'd, "" when it failed). */
static char *cache_path_of(const char *trace)
{
	const char *paths[] = {trace};
	struct tl_cache *c = open_cache(paths, 1);
	char *p = strdup(c ? tl_cache_path(c) : "");
	tl_cache_close(c);
	return p;
}

/* The cache's mode: what every file of the trace allows, less the umask (a cache of a
 * trace only its owner reads shows nobody else its thread names). */
static void test_mode(void)
{
	char trace[400], cache[500];
	if (!copy_trace("modes", trace, sizeof(trace)))
		return;
	snprintf(cache, sizeof(cache), "%s/.spoor-view.cache", trace);
	mode_t old = umask(022);
	CHECK_CTX("trace files 0640, umask 022: 0640");
	run("chmod 0640 '%s'/*%s", trace, "");
	free(cache_path_of(trace));
	CHECK_EQ_U64(mode_of(cache), 0640);
	CHECK_CTX("one file 0600: 0600");
	run("chmod 0600 '%s'/metadata && rm -f '%s'", trace, cache);
	free(cache_path_of(trace));
	CHECK_EQ_U64(mode_of(cache), 0600);
	CHECK_CTX("trace files 0644, umask 077: 0600");
	umask(077);
	run("chmod 0644 '%s'/* && rm -f '%s'", trace, cache);
	free(cache_path_of(trace));
	CHECK_EQ_U64(mode_of(cache), 0600);
	CHECK_CTX("trace files 0666, umask 0: 0644 (never writable by others)");
	umask(0);
	run("chmod 0666 '%s'/* && rm -f '%s'", trace, cache);
	free(cache_path_of(trace));
	CHECK_EQ_U64(mode_of(cache), 0644);
	umask(old);
}

/* Whether path is in $XDG_CACHE_HOME/spoor. */
static bool in_user_folder(const char *path)
{
	char user[500];
	snprintf(user, sizeof(user), "%s/spoor/view-", getenv("XDG_CACHE_HOME"));
	return !strncmp(path, user, strlen(user));
}

/* Only a cache of ours that nobody else can write is mapped (whoever can write it can
 * feed us any spans, or cut it short under us); any other is left alone and ours made in
 * the user's folder. The temporary file has no name, or a random one, made by us alone. */
static void test_untrusted(void)
{
	char trace[400], cache[500], other[500];
	if (!copy_trace("untrusted", trace, sizeof(trace)))
		return;
	snprintf(cache, sizeof(cache), "%s/.spoor-view.cache", trace);

	CHECK_CTX("a hard link at the old temporary name is not written through");
	char victim[500], planted[600];
	snprintf(victim, sizeof(victim), "%s/victim", tmp);
	snprintf(planted, sizeof(planted), "%s.%ld.tmp", cache, (long) getpid());
	run("echo precious > '%s'%s", victim, "");
	run("ln -f '%s' '%s'", victim, planted);
	char *p = cache_path_of(trace);
	CHECK_STR(p, cache);
	free(p);
	CHECK(run("grep -qx precious '%s'%s", victim, ""));
	unlink(planted);
	CHECK(run("ls -a '%s' | grep -q tmp%s && exit 1 || exit 0", trace, "")); /* none left */

	CHECK_CTX("a cache of ours others can write: ours in the user's folder");
	ino_t ino = inode_of(cache);
	chmod(cache, 0664);
	p = cache_path_of(trace);
	CHECK(in_user_folder(p));
	CHECK_EQ_U64(inode_of(cache), ino); /* left alone */
	free(p);

	CHECK_CTX("a symbolic link to a cache of ours: not followed");
	snprintf(other, sizeof(other), "%s/elsewhere.cache", tmp);
	rename(cache, other);
	chmod(other, 0644);
	CHECK_EQ_S64(symlink(other, cache), 0);
	run("rm -rf '%s'/spoor%s", getenv("XDG_CACHE_HOME"), "");
	p = cache_path_of(trace);
	CHECK(in_user_folder(p));
	free(p);
	unlink(cache);

	CHECK_CTX("a FIFO in its place: not waited on");
	CHECK_EQ_S64(mkfifo(cache, 0644), 0);
	p = cache_path_of(trace);
	CHECK(in_user_folder(p));
	free(p);
	unlink(cache);

	if (geteuid())
		return; /* making a file someone else's needs root */
	CHECK_CTX("a valid cache of this trace, someone else's (nobody's): not used");
	rename(other, cache);
	CHECK_EQ_S64(chown(cache, 65534, 65534), 0);
	run("rm -rf '%s'/spoor%s", getenv("XDG_CACHE_HOME"), "");
	p = cache_path_of(trace);
	CHECK(in_user_folder(p));
	free(p);
	struct stat st;
	CHECK(!stat(cache, &st) && st.st_uid == 65534);
}

/* No room beside the trace (a full file system): the cache goes to the user's folder,
 * and nothing is left beside it. Root only: a small tmpfs. */
static void test_full(void)
{
	char mnt[400], trace[500];
	snprintf(mnt, sizeof(mnt), "%s/full", tmp);
	snprintf(trace, sizeof(trace), "%s/busy", mnt);
	if (geteuid() ||
	    !run("mkdir -p '%s' && mount -t tmpfs -o size=512k,mode=0755 tmpfs '%s'", mnt, mnt)) {
		printf("# not root, or no tmpfs: the full file system is not checked\n");
		return;
	}
	CHECK_CTX("a full file system beside the trace");
	if (CHECK(run("cp -r '%s/busy' '%s'", tmp, mnt) &&
	          run("rm -f '%s'/.spoor* ; dd if=/dev/zero of='%s'/fill bs=4k 2>/dev/null; true",
	              trace, mnt))) {
		char *p = cache_path_of(trace);
		CHECK(in_user_folder(p));
		free(p);
		CHECK(run("ls -a '%s' | grep -q spoor%s && exit 1 || exit 0", trace, ""));
	}
	run("umount '%s'%s", mnt, "");
}

/* Small caches for the fuzzer's corpus (tests/fuzz/README.md): SPOOR_TLCACHE_SEEDS=DIR. */
static void write_seed(const char *dir, const char *name, int rows, int spans, int marks)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct tl_cache_writer *w = NULL;
	CHECK_CTX("seed %s", path);
	if (!CHECK(fd >= 0) || !CHECK_EQ_S64(tl_cache_writer_new(fd, tmp, &w), 0))
		return;
	for (int r = 0; r < rows; r++) {
		int64_t t = r * 10;
		for (int i = 0; i < spans; i++) {
			struct tl_span sp = {t, t + 1 + rnd(r == 0 ? 3 : 1000),
			                     (uint8_t) rnd(TS_COUNT), rnd(4)};
			tl_cache_writer_span(w, r == rows - 1 ? TL_ROW_CPU : TL_ROW_THREAD, 10 + r,
			                     &sp);
			tl_cache_writer_event(w, t, rnd(3));
			t = sp.end;
		}
	}
	for (int i = 0, t = 0; i < spans; i++) { /* a flame row: calls with gaps between */
		struct tl_span sp = {t, t + 1 + rnd(20), (uint8_t) rnd(8), rnd(2)};
		tl_cache_writer_call(w, 0, 10, &sp);
		t = (int) sp.end + (int) rnd(3);
	}
	if (spans)
		tl_cache_writer_call_depth(w, 0, 1);
	tl_cache_writer_function(w, "main");
	tl_cache_writer_function(w, "work");
	tl_cache_writer_address(w, 1, 0x1000, 0, 0);
	tl_cache_writer_address(w, 1, 0x1000, 7, 1);
	tl_cache_writer_address(w, 1, 0x2000, 0, 1);
	for (int i = 0; i < marks; i++)
		tl_cache_writer_mark(w, 10, i * (int64_t) rnd(3), 1);
	tl_cache_writer_class(w, 0, "sched_switch", false);
	tl_cache_writer_class(w, 1, "app:tick", true);
	tl_cache_writer_class(w, 2, "irq", false);
	tl_cache_writer_syscall(w, "read");
	tl_cache_writer_damage(w, 5, "damage");
	struct tl_cache_meta m = {.fingerprint = 1, .origin = 1000, .duration = 2000, .lost = 1};
	CHECK_EQ_S64(tl_cache_writer_finish(w, &m), 0);
	tl_cache_writer_free(w);
	close(fd);
}

int main(void)
{
	const char *seeds = getenv("SPOOR_TLCACHE_SEEDS");
	if (seeds) {
		write_seed(seeds, "empty", 0, 0, 0);
		write_seed(seeds, "small", 3, 8, 5);
		write_seed(seeds, "two-blocks", 2, TLC_BLOCK + 20, TLC_BLOCK + 3);
		return check_done();
	}
	snprintf(tmp, sizeof(tmp), "/tmp/spoor-test-tlcache.XXXXXX");
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}
	test_synthetic();
	test_addresses();
	char path[300];
	snprintf(path, sizeof(path), "%s/synth.cache", tmp);
	test_damaged(path);
	const char *data = getenv("SPOOR_TEST_DATA");
	if (CHECK(data != NULL)) {
		test_open(data);
		test_unwritable();
		test_mode();
		test_untrusted();
		test_full();
	}
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		printf("could not remove %s\n", tmp);
	return check_done();
}
