/* SPDX-License-Identifier: MIT */
/*
 * flame.c: calls by depth (see flame.h). analysis/calls rebuilds the calls; without its
 * pre-pass, a thread's calls open when its trace began are met one by one at their exits
 * (CALLS_OPEN_BEFORE), each at depth 0 of what is known then. So a call's row is keyed by
 * its depth less the exits of that kind met so far (which may be negative): the same for
 * every call of one true depth, which is that key plus the thread's count of them at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calls.h"
#include "analysis/idmap.h"
#include "analysis/loadmap.h"
#include "flame.h"
#include "util/grow.h"

#define FLAGS_SHOWN (CALLS_NO_ENTRY | CALLS_NO_EXIT | CALLS_UNWOUND)

/* A thread's row at one key: its number + 1 (0: none yet), and its last call's end. */
struct slot {
	uint32_t row;
	int64_t end;
};

struct fthread {
	int64_t tid;
	int64_t first;          /* its first call event (relative) */
	int64_t last;           /* its last event of any class (absolute) */
	bool seen;              /* first is set */
	uint32_t before;        /* CALLS_OPEN_BEFORE exits met */
	struct slot *up, *down; /* keys >= 0 and < 0 (down[0]: key -1) */
	size_t nup, ndown;
};

struct frow {
	int64_t tid;
	int64_t key;
	uint32_t thread;
};

struct tl_flame {
	struct an_engine *e;
	struct tl_flame_callbacks cb;
	struct calls *calls;
	struct loadmap *lm;
	struct fthread *th;
	size_t nth, capth, last;
	struct idmap by_tid;
	struct frow *rows;
	size_t nrows, caprows;
	char **names;
	size_t nnames, capnames;
	struct idmap by_id;   /* loadmap's name id -> function */
	struct idmap by_text; /* a name's hash -> function: one number per text */
	struct tl_address *addrs;
	size_t naddrs, capaddrs;
	struct idmap by_addr; /* a (process, address)'s hash -> its last entry in addrs */
	int64_t origin;
	bool has_origin, finished, oom;
};

static int64_t rel(struct tl_flame *f, int64_t ts)
{
	if (!f->has_origin) { /* states.c's origin: the first event's time */
		int64_t end;
		an_span(f->e, &f->origin, &end);
		f->has_origin = true;
	}
	return ts - f->origin;
}

static struct fthread *thread_of(struct tl_flame *f, int64_t tid)
{
	if (f->last < f->nth && f->th[f->last].tid == tid)
		return &f->th[f->last];
	uint32_t *i = idmap_find(&f->by_tid, (uint64_t) tid);
	if (i) {
		f->last = *i;
		return &f->th[*i];
	}
	if (f->nth >= UINT32_MAX || grow_one(&f->th, f->nth, &f->capth, sizeof(*f->th), 16) ||
	    idmap_add(&f->by_tid, (uint64_t) tid, (uint32_t) f->nth))
		return NULL;
	f->th[f->nth] = (struct fthread){.tid = tid};
	f->last = f->nth;
	return &f->th[f->nth++];
}

/* The thread's slot at key, made (with its row) when new. */
static struct slot *slot_of(struct tl_flame *f, struct fthread *t, int64_t key)
{
	struct slot **v = key >= 0 ? &t->up : &t->down;
	size_t *n = key >= 0 ? &t->nup : &t->ndown;
	size_t at = key >= 0 ? (size_t) key : (size_t) (-key - 1);
	if (at >= *n) {
		size_t cap = at + 1 > *n * 2 ? at + 1 : *n * 2;
		struct slot *bigger = realloc(*v, cap * sizeof(*bigger));
		if (!bigger)
			return NULL;
		memset(bigger + *n, 0, (cap - *n) * sizeof(*bigger));
		*v = bigger;
		*n = cap;
	}
	struct slot *s = &(*v)[at];
	if (!s->row) {
		if (f->nrows >= UINT32_MAX - 1 ||
		    grow_one(&f->rows, f->nrows, &f->caprows, sizeof(*f->rows), 64))
			return NULL;
		f->rows[f->nrows] = (struct frow){t->tid, key, (uint32_t) (t - f->th)};
		s->row = (uint32_t) ++f->nrows;
		s->end = INT64_MIN;
	}
	return s;
}

static uint64_t text_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
	while (*s)
		h = (h ^ (unsigned char) *s++) * 0x100000001b3u;
	return h;
}

/* The function of a call: loadmap's name (each address of a process resolved once, so
 * one name has several ids), numbered here by its text in the order met. */
static int function_of(struct tl_flame *f, const struct calls_span *s, int64_t ts, uint32_t *out)
{
	int64_t id = loadmap_name_id(f->lm, s->proc, s->addr, ts);
	if (id < 0)
		return (int) id;
	uint32_t *have = idmap_find(&f->by_id, (uint64_t) id);
	if (have) {
		*out = *have;
		return 0;
	}
	const char *text = loadmap_name_text(f->lm, id);
	uint64_t h = text_hash(text);
	uint32_t *same = idmap_find(&f->by_text, h);
	if (same && !strcmp(f->names[*same], text)) {
		*out = *same;
		return idmap_add(&f->by_id, (uint64_t) id, *same);
	}
	char *name = strdup(text);
	if (!name || f->nnames >= UINT32_MAX ||
	    grow_one(&f->names, f->nnames, &f->capnames, sizeof(*f->names), 256) ||
	    idmap_add(&f->by_id, (uint64_t) id, (uint32_t) f->nnames) ||
	    (!same && idmap_add(&f->by_text, h, (uint32_t) f->nnames))) {
		free(name);
		return -ENOMEM;
	}
	f->names[f->nnames] = name;
	*out = (uint32_t) f->nnames++;
	return 0;
}

/* The call's address under its function, from relative time t: an entry per distinct
 * (process, address, function), the earliest time kept (calls end out of their begins'
 * order); a hash shared by two addresses only adds entries, which the finish merges. */
static int note_address(struct tl_flame *f, const struct calls_span *s, int64_t t, uint32_t fn)
{
	uint64_t key = s->addr ^ s->proc * 0x9e3779b97f4a7c15u;
	uint32_t *at = idmap_find(&f->by_addr, key);
	struct tl_address *a = at ? &f->addrs[*at] : NULL;
	if (a && a->proc == s->proc && a->addr == s->addr && a->function == fn) {
		if (t < a->from)
			a->from = t;
		return 0;
	}
	if (f->naddrs >= UINT32_MAX ||
	    grow_one(&f->addrs, f->naddrs, &f->capaddrs, sizeof(*f->addrs), 64) ||
	    (!at && idmap_add(&f->by_addr, key, (uint32_t) f->naddrs)))
		return -ENOMEM;
	if (at)
		*at = (uint32_t) f->naddrs;
	f->addrs[f->naddrs++] = (struct tl_address){s->proc, s->addr, t, fn};
	return 0;
}

static void on_leave(void *data, const struct calls_span *s)
{
	struct tl_flame *f = data;
	struct fthread *t = thread_of(f, s->tid);
	if (!t) {
		f->oom = true;
		return;
	}
	if (s->flags & CALLS_OPEN_BEFORE)
		t->before++;
	struct slot *sl = slot_of(f, t, (int64_t) s->depth - t->before);
	struct tl_call c = {.tid = s->tid, .flags = s->flags & FLAGS_SHOWN};
	int64_t named_at = s->flags & CALLS_NO_ENTRY ? s->end : s->begin;
	if (!sl || function_of(f, s, named_at, &c.function) ||
	    note_address(f, s, rel(f, named_at), c.function)) {
		f->oom = true;
		return;
	}
	c.row = sl->row - 1;
	c.end = rel(f, s->flags & CALLS_NO_EXIT && t->last > s->end ? t->last : s->end);
	if (s->flags & CALLS_OPEN_BEFORE)
		c.begin = 0;
	else if (s->flags & CALLS_NO_ENTRY) /* after the call before it here, or the first */
		c.begin = sl->end != INT64_MIN ? sl->end : t->first;
	else
		c.begin = rel(f, s->begin);
	if (c.begin < sl->end) /* not expected: the rows' calls never overlap */
		c.begin = sl->end;
	if (c.end < c.begin)
		c.end = c.begin;
	sl->end = c.end;
	f->cb.call(f->cb.data, &c);
}

static void on_call_event(void *data, const struct an_event *ev)
{
	struct tl_flame *f = data;
	if (ev->tid < 0) /* a thread unknown: no row to put it on */
		return;
	struct fthread *t = thread_of(f, ev->tid);
	if (!t) {
		f->oom = true;
		return;
	}
	if (!t->seen) {
		t->first = rel(f, ev->ts);
		t->seen = true;
	}
	t->last = ev->ts;
	if (calls_event(f->calls, ev->ev, ev->tid, loadmap_process(f->lm, ev->ev)) < 0)
		f->oom = true;
}

/* Another event of a trace with calls: a thread's last event ends its calls left open. */
static void on_other_event(void *data, const struct an_event *ev)
{
	struct tl_flame *f = data;
	uint32_t *i = idmap_find(&f->by_tid, (uint64_t) ev->tid);
	if (i)
		f->th[*i].last = ev->ts;
}

static void on_loadmap_event(void *data, const struct an_event *ev)
{
	on_other_event(data, ev);
	struct tl_flame *f = data;
	if (loadmap_update(f->lm, ev->ev) < 0)
		f->oom = true;
}

int tl_flame_new(struct an_engine *e, const struct tl_flame_callbacks *cb, struct tl_flame **out)
{
	const struct spoor_reader *r = an_reader(e);
	size_t n = spoor_reader_event_class_count(r);
	struct tl_flame *f = calloc(1, sizeof(*f));
	struct calls_ops ops = {.leave = on_leave};
	*out = NULL;
	if (!f)
		return -ENOMEM;
	f->e = e;
	f->cb = *cb;
	f->by_tid.runs = true;
	f->calls = calls_new(r, &ops, f);
	f->lm = loadmap_new(r, NULL);
	if (!f->calls || !f->lm) {
		tl_flame_free(f);
		return -ENOMEM;
	}
	/* the traces that hold calls: their other events are read too */
	bool any = false, *with = calloc(spoor_reader_trace_count(r) + 1, sizeof(*with));
	for (size_t c = 0; with && c < n; c++)
		if (calls_reads(f->calls, c))
			any = with[spoor_reader_event_class(r, c)->trace] = true;
	int rc = with ? 0 : -ENOMEM;
	for (size_t c = 0; any && !rc && c < n; c++) {
		if (calls_reads(f->calls, c))
			rc = an_engine_on_class(e, c, on_call_event, f);
		else if (loadmap_reads(f->lm, c))
			rc = an_engine_on_class(e, c, on_loadmap_event, f);
		else if (with[spoor_reader_event_class(r, c)->trace])
			rc = an_engine_on_class(e, c, on_other_event, f);
	}
	free(with);
	if (rc || !any) {
		tl_flame_free(f);
		return rc;
	}
	*out = f;
	return 0;
}

/* By process and address, then by time. */
static int address_cmp(const void *a, const void *b)
{
	const struct tl_address *x = a, *y = b;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->from < y->from ? -1 : x->from > y->from;
}

/* One entry per period in which a (process, address) names one function, from its
 * earliest time: an address that names f, then g (another library mapped there), then f
 * again keeps all three. */
static void merge_addresses(struct tl_flame *f)
{
	qsort(f->addrs, f->naddrs, sizeof(*f->addrs), address_cmp);
	size_t n = 0;
	for (size_t i = 0; i < f->naddrs; i++) {
		const struct tl_address *p = n ? &f->addrs[n - 1] : NULL, *a = &f->addrs[i];
		if (!p || p->proc != a->proc || p->addr != a->addr || p->function != a->function)
			f->addrs[n++] = *a;
	}
	f->naddrs = n;
}

int tl_flame_finish(struct tl_flame *f)
{
	if (f->finished)
		return 0;
	f->finished = true;
	if (calls_finish(f->calls) < 0)
		f->oom = true;
	merge_addresses(f);
	return f->oom ? -ENOMEM : 0;
}

void tl_flame_free(struct tl_flame *f)
{
	if (!f)
		return;
	calls_free(f->calls);
	loadmap_free(f->lm);
	for (size_t i = 0; i < f->nth; i++) {
		free(f->th[i].up);
		free(f->th[i].down);
	}
	free(f->th);
	idmap_free(&f->by_tid);
	free(f->rows);
	for (size_t i = 0; i < f->nnames; i++)
		free(f->names[i]);
	free(f->names);
	idmap_free(&f->by_id);
	idmap_free(&f->by_text);
	free(f->addrs);
	idmap_free(&f->by_addr);
	free(f);
}

bool tl_flame_oom(const struct tl_flame *f)
{
	return f->oom;
}

size_t tl_flame_rows(const struct tl_flame *f)
{
	return f->nrows;
}

void tl_flame_row(const struct tl_flame *f, uint32_t row, int64_t *tid, uint32_t *depth)
{
	const struct frow *r = &f->rows[row];
	int64_t d = r->key + f->th[r->thread].before;
	*tid = r->tid;
	*depth = d < 0 ? 0 : d > UINT32_MAX ? UINT32_MAX : (uint32_t) d;
}

size_t tl_flame_functions(const struct tl_flame *f)
{
	return f->nnames;
}

const char *tl_flame_function_name(const struct tl_flame *f, uint32_t i)
{
	return i < f->nnames ? f->names[i] : NULL;
}

size_t tl_flame_addresses(const struct tl_flame *f)
{
	return f->naddrs;
}

const struct tl_address *tl_flame_address(const struct tl_flame *f, size_t i)
{
	return &f->addrs[i];
}
