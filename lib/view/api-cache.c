/* SPDX-License-Identifier: MIT */
/*
 * api-cache.c: the answers read from the timeline cache (lib/timeline: a file mapped
 * read-only, so any number of requests read it at once): api/meta, and the level-of-detail
 * queries api/spans, api/marks and api/rate, each O(pixels) whatever the trace's size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/thread-states.h"
#include "timeline/cache.h"
#include "timeline/query.h"
#include "util/json.h"
#include "view/api-int.h"

enum {
	PX_MAX = 16384, /* pixels (or bins) a query may ask for */
	/* rows x pixels (or classes x bins) of one query: its answer's size (a screen's rows,
	 * a hundred or two, at 4000 pixels, fit; the body's cap, BODY_MAX, is the other bound) */
	QUERY_MAX = 1 << 21,
	BUSIEST = 8, /* api/rate's series when no class is asked for */
};

/* ---- api/meta ---- */

/* A thread row's process: its pid, or its tid when the trace never said (a thread of
 * its own then). */
static int64_t process_of(const struct tl_cache_row *row)
{
	return row->pid >= 0 ? row->pid : row->id;
}

struct member {
	int64_t pid, tid;
	size_t row;
};

static int by_process(const void *x, const void *y)
{
	const struct member *a = x, *b = y;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static void json_rows(FILE *f, const struct tl_cache *c)
{
	size_t n = tl_cache_rows(c);
	fputs(",\n\"rows\": [", f);
	for (size_t i = 0; i < n; i++) {
		const struct tl_cache_row *row = tl_cache_row(c, i);
		bool cpu = row->kind == TL_ROW_CPU;
		fprintf(f, "%s\n{\"id\": %zu, \"kind\": \"%s\", ", i ? "," : "", i,
		        cpu                         ? "cpu"
		        : row->kind == TL_ROW_CALLS ? "calls"
		                                    : "thread");
		if (cpu)
			fprintf(f, "\"tid\": null, \"pid\": null, \"cpu\": %lld",
			        (long long) row->id);
		else
			fprintf(f, "\"tid\": %lld, \"pid\": %lld, \"cpu\": null",
			        (long long) row->id, (long long) row->pid);
		if (row->kind == TL_ROW_CALLS)
			fprintf(f, ", \"depth\": %u", row->depth);
		fputs(", \"name\": ", f);
		json_string(f, row->name);
		fprintf(f, ", \"first\": %lld, \"last\": %lld}", (long long) row->first,
		        (long long) row->last);
	}
	fputs("]", f);
}

/* Processes in pid order, each with its threads' rows in tid order, named by the thread
 * whose tid is the pid (else by its first thread). */
static int json_processes(FILE *f, const struct tl_cache *c)
{
	size_t n = tl_cache_rows(c), nm = 0;
	struct member *m = malloc((n + 1) * sizeof(*m));
	if (!m)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct tl_cache_row *row = tl_cache_row(c, i);
		if (row->kind == TL_ROW_THREAD)
			m[nm++] = (struct member){process_of(row), row->id, i};
	}
	qsort(m, nm, sizeof(*m), by_process);
	fputs(",\n\"processes\": [", f);
	for (size_t i = 0, k = 0; i < nm; k++) {
		size_t end = i, named = i;
		while (end < nm && m[end].pid == m[i].pid) {
			if (m[end].tid == m[i].pid)
				named = end;
			end++;
		}
		fprintf(f, "%s\n{\"pid\": %lld, \"name\": ", k ? "," : "", (long long) m[i].pid);
		json_string(f, tl_cache_row(c, m[named].row)->name);
		fputs(", \"rows\": [", f);
		for (size_t j = i; j < end; j++)
			fprintf(f, "%s%zu", j > i ? ", " : "", m[j].row);
		fputs("]}", f);
		i = end;
	}
	fputs("]", f);
	free(m);
	return 0;
}

static void json_names(FILE *f, const struct tl_cache *c)
{
	size_t n = tl_cache_classes(c);
	fputs(",\n\"classes\": [", f);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ",\n{\"name\": " : "\n{\"name\": ", f);
		json_string(f, tl_cache_class_name(c, i));
		fprintf(f, ", \"user\": %s}", tl_cache_class_user(c, i) ? "true" : "false");
	}
	fputs("],\n\"syscalls\": [", f);
	n = tl_cache_syscalls(c);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, tl_cache_syscall_name(c, (uint32_t) i));
	}
	fputs("],\n\"functions\": [", f);
	n = tl_cache_functions(c);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		json_string(f, tl_cache_function_name(c, (uint32_t) i));
	}
	fputs("],\n\"damage\": [", f);
	n = tl_cache_damage(c);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s{\"at\": %lld, \"text\": ", i ? ", " : "",
		        (long long) tl_cache_damage_at(c, i));
		json_string(f, tl_cache_damage_text(c, i));
		fputs("}", f);
	}
	fputs("]", f);
}

void api_meta(struct view_api *a, struct params *p)
{
	const struct tl_cache *c = cache_or_reply(a, p->r);
	struct body b;
	if (!c)
		return;
	if (!body_open(&b)) {
		oom_reply(p->r);
		return;
	}
	fputs("{\"version\": 1, \"traces\": [", b.f);
	for (size_t i = 0; i < a->cfg.npaths; i++) {
		fputs(i ? ", " : "", b.f);
		json_string(b.f, a->cfg.paths[i]);
	}
	fprintf(b.f, "],\n\"origin\": \"%lld\", \"duration\": %lld,\n\"states\": [",
	        (long long) tl_cache_origin(c), (long long) tl_cache_duration(c));
	for (int i = 0; i < TS_COUNT; i++) { /* their names and what they mean */
		fprintf(b.f, "%s{\"name\": ", i ? ", " : "");
		json_string(b.f, thread_state_name((enum thread_state) i));
		fputs(", \"label\": ", b.f);
		json_string(b.f, thread_state_label((enum thread_state) i));
		fputs("}", b.f);
	}
	fputs("]", b.f);
	json_rows(b.f, c);
	if (json_processes(b.f, c)) {
		body_drop(&b);
		oom_reply(p->r);
		return;
	}
	json_names(b.f, c);
	fprintf(b.f, ",\n\"lost\": %llu, \"cache\": ", (unsigned long long) tl_cache_lost(c));
	json_string(b.f, tl_cache_path(c));
	fputs("}\n", b.f);
	body_reply(&b, 200, p->r);
}

/* ---- api/spans, api/marks ---- */

/* rows, t0 < t1 and px of a query; *rows malloc'd. */
static bool query_params(struct params *p, const struct tl_cache *c, int64_t **rows, size_t *n,
                         int64_t t[2], int64_t *px)
{
	size_t nrows = tl_cache_rows(c);
	*rows = NULL;
	if (!nrows) { /* no row to ask for: every list is bad, none is nothing */
		const char *s = p->arg(p->ctx, "rows");
		if (s && *s) {
			error_reply(p->r, 400, "invalid rows '%.80s' (the trace has none)", s);
			p->bad = true;
		}
	} else {
		list_param(p, "rows", (int64_t) nrows - 1, rows, n);
	}
	range_params(p, true, t);
	int_param(p, "px", true, 1, PX_MAX, px);
	if (!p->bad && *n * (uint64_t) *px > QUERY_MAX) {
		error_reply(p->r, 400, "%zu rows of %lld pixels: more than %d at once", *n,
		            (long long) *px, QUERY_MAX);
		p->bad = true;
	}
	if (p->bad) {
		free(*rows);
		*rows = NULL;
	}
	return !p->bad;
}

/* One row's answer to a query, from a buffer of max items (room for px of them). */
struct row_query {
	const char *key;     /* the answer's list: "rects" */
	size_t per_px, size; /* items a pixel at most, and their size */
	void (*write)(FILE *f, const struct tl_cache *c, size_t row, const int64_t t[2],
	              uint32_t px, void *buf, size_t max);
};

static void rows_answer(struct view_api *a, struct params *p, const struct row_query *q)
{
	const struct tl_cache *c = cache_or_reply(a, p->r);
	int64_t *rows, t[2], px;
	size_t n = 0;
	if (!c || !query_params(p, c, &rows, &n, t, &px))
		return;
	size_t max = q->per_px * (size_t) px + 4;
	void *buf = malloc(max * q->size);
	struct body b;
	if (!buf || !body_open(&b)) {
		free(buf);
		free(rows);
		oom_reply(p->r);
		return;
	}
	fputs("{\"rows\": [", b.f);
	for (size_t i = 0; i < n && !p->bad; i++) {
		fprintf(b.f, "%s\n{\"id\": %lld, \"%s\": [", i ? "," : "", (long long) rows[i],
		        q->key);
		q->write(b.f, c, (size_t) rows[i], t, (uint32_t) px, buf, max);
		fputs("]}", b.f);
		if (!body_full(&b, p) && cancelled(p))
			body_drop(&b);
	}
	free(buf);
	free(rows);
	if (p->bad)
		return;
	fputs("]}\n", b.f);
	body_reply(&b, 200, p->r);
}

/* [begin, end, state, value, spans], and on a flame row the call's own [first, last] */
static void write_spans(FILE *f, const struct tl_cache *c, size_t row, const int64_t t[2],
                        uint32_t px, void *buf, size_t max)
{
	struct tl_rect *r = buf;
	size_t k = tl_query_spans(c, row, t[0], t[1], px, r, max);
	bool calls = tl_cache_row(c, row)->kind == TL_ROW_CALLS;
	for (size_t j = 0; j < k; j++) {
		fprintf(f, "%s[%lld,%lld,%u,%u,%u", j ? "," : "", (long long) r[j].begin,
		        (long long) r[j].end, r[j].state, r[j].value, r[j].spans);
		if (calls)
			fprintf(f, ",%lld,%lld", (long long) r[j].first, (long long) r[j].last);
		fputc(']', f);
	}
}

/* [t, class, count] */
static void write_marks(FILE *f, const struct tl_cache *c, size_t row, const int64_t t[2],
                        uint32_t px, void *buf, size_t max)
{
	struct tl_markrect *m = buf;
	size_t k = tl_query_marks(c, row, t[0], t[1], px, m, max);
	for (size_t j = 0; j < k; j++)
		fprintf(f, "%s[%lld,%u,%u]", j ? "," : "", (long long) m[j].t, m[j].class_index,
		        m[j].count);
}

void api_spans(struct view_api *a, struct params *p)
{
	static const struct row_query q = {"rects", 2, sizeof(struct tl_rect), write_spans};
	rows_answer(a, p, &q);
}

void api_marks(struct view_api *a, struct params *p)
{
	static const struct row_query q = {"marks", 1, sizeof(struct tl_markrect), write_marks};
	rows_answer(a, p, &q);
}

/* ---- api/rate ---- */

struct busy {
	uint64_t events;
	size_t class_index;
};

static int by_events(const void *x, const void *y)
{
	const struct busy *a = x, *b = y;
	if (a->events != b->events)
		return a->events > b->events ? -1 : 1;
	return a->class_index < b->class_index ? -1 : a->class_index > b->class_index;
}

/* The BUSIEST classes with events, the busiest first: *out malloc'd. */
static int busiest(const struct tl_cache *c, int64_t **out, size_t *n)
{
	size_t nc = tl_cache_classes(c), k = 0;
	struct busy *b = malloc((nc + 1) * sizeof(*b));
	*n = 0;
	if (!b || !(*out = malloc(BUSIEST * sizeof(**out)))) {
		free(b);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nc; i++)
		if (tl_cache_class_events(c, i))
			b[k++] = (struct busy){tl_cache_class_events(c, i), i};
	qsort(b, k, sizeof(*b), by_events);
	for (size_t i = 0; i < k && i < BUSIEST; i++)
		(*out)[(*n)++] = (int64_t) b[i].class_index;
	free(b);
	return 0;
}

void api_rate(struct view_api *a, struct params *p)
{
	const struct tl_cache *c = cache_or_reply(a, p->r);
	int64_t *classes = NULL, t[2], bins;
	size_t n = 0, nc = c ? tl_cache_classes(c) : 0;
	if (!c)
		return;
	range_params(p, true, t);
	int_param(p, "bins", true, 1, PX_MAX, &bins);
	if (nc)
		list_param(p, "classes", (int64_t) nc - 1, &classes, &n);
	if (!p->bad && n * (uint64_t) bins > QUERY_MAX) {
		error_reply(p->r, 400, "%zu classes of %lld bins: more than %d at once", n,
		            (long long) bins, QUERY_MAX);
		free(classes);
		p->bad = true;
	}
	if (p->bad)
		return;
	double *counts = malloc((size_t) bins * sizeof(*counts));
	struct body b;
	if (!counts || (!classes && busiest(c, &classes, &n)) || !body_open(&b)) {
		free(counts);
		free(classes);
		oom_reply(p->r);
		return;
	}
	fprintf(b.f, "{\"bins\": %lld, \"series\": [", (long long) bins);
	for (size_t i = 0; i < n && !p->bad; i++) {
		if (tl_query_rate(c, (size_t) classes[i], t[0], t[1], (uint32_t) bins, counts))
			memset(counts, 0, (size_t) bins * sizeof(*counts));
		fprintf(b.f, "%s\n{\"class\": %lld, \"counts\": [", i ? "," : "",
		        (long long) classes[i]);
		for (int64_t j = 0; j < bins; j++)
			fprintf(b.f, "%s%.10g", j ? "," : "", counts[j]);
		fputs("]}", b.f);
		if (!body_full(&b, p) && cancelled(p))
			body_drop(&b);
	}
	free(counts);
	free(classes);
	if (p->bad)
		return;
	fputs("]}\n", b.f);
	body_reply(&b, 200, p->r);
}
