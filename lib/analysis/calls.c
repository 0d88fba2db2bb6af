/* SPDX-License-Identifier: MIT */
/* calls.c: calls rebuilt per thread from entries, exits and whole calls (see calls.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "calls.h"
#include "ctf/stream.h"
#include "ctf/trace.h"
#include "idmap.h"
#include "reader/reader.h"
#include "util/grow.h"

enum kind { K_NONE, K_ENTRY, K_EXIT, K_EXIT_TOP, K_WHOLE };

struct call_class {
	bool resolved, placed;
	uint8_t kind;
	int field[3];              /* addr, call_site, duration: payload indices, -1: none */
	struct ctf_place place[3]; /* the same read as plain loads (found at the first event) */
};

enum { F_ADDR, F_SITE, F_DURATION };

struct frame {
	uint64_t addr, site;
	int64_t begin, children;
	uint32_t losses; /* the thread's at its entry */
};

/* A whole call held until it is known not to be inside a later one: post-order, each with
 * the count of calls in its subtree (itself included). */
struct held {
	uint64_t addr, site;
	int64_t begin, end;
	uint32_t size;
};

struct thread {
	int64_t tid;
	uint64_t proc;
	int64_t last; /* its last event's time */
	struct frame *fr;
	size_t n, cap;
	uint32_t base;    /* calls open before the trace began, below fr (calls_seed) */
	uint32_t orphans; /* exits without an entry nor anything to unwind: the pre-pass's answer */
	uint32_t hidden;  /* entries beyond CALLS_MAX_DEPTH, not on fr */
	bool lost;        /* its stream lost events: an exit without entry is not from before */
	uint32_t losses;  /* the times it did (each a run of events lost) */
	size_t stream;    /* its last event's stream, and that stream's discarded count then */
	uint64_t discarded;
	struct held *held;
	size_t nheld, cap_held;
	uint32_t *tops; /* the held subtrees' roots (indices into held), in time order */
	size_t ntops, cap_tops;
};

struct calls {
	const struct spoor_reader *r;
	struct calls_ops ops;
	void *data;
	struct call_class *classes;
	size_t nclasses;
	struct thread *threads;
	size_t nthreads, cap_threads;
	struct idmap ids;
	size_t last; /* the thread of the last event: most events follow one of the same */
	uint64_t events;
};

struct calls *calls_new(const struct spoor_reader *r, const struct calls_ops *ops, void *data)
{
	struct calls *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->r = r;
	if (ops)
		c->ops = *ops;
	c->data = data;
	c->nclasses = spoor_reader_event_class_count(r);
	c->classes = calloc(c->nclasses + 1, sizeof(*c->classes));
	if (!c->classes) {
		free(c);
		return NULL;
	}
	c->last = SIZE_MAX;
	return c;
}

void calls_free(struct calls *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nthreads; i++) {
		free(c->threads[i].fr);
		free(c->threads[i].held);
		free(c->threads[i].tops);
	}
	free(c->threads);
	free(c->classes);
	idmap_free(&c->ids);
	free(c);
}

static struct call_class *class_of(struct calls *c, size_t ci)
{
	static const struct {
		const char *name;
		enum kind kind;
	} names[] = {
	    {"lttng_ust_cyg_profile:func_entry", K_ENTRY},
	    {"lttng_ust_cyg_profile:func_exit", K_EXIT},
	    {"lttng_ust_cyg_profile_fast:func_entry", K_ENTRY},
	    {"lttng_ust_cyg_profile_fast:func_exit", K_EXIT_TOP},
	    {"spoor_calls:call", K_WHOLE},
	};
	if (ci >= c->nclasses)
		return &c->classes[c->nclasses]; /* K_NONE */
	struct call_class *k = &c->classes[ci];
	if (k->resolved)
		return k;
	const struct spoor_event_class *ec = spoor_reader_event_class(c->r, ci);
	const char *name = spoor_event_class_name(ec);
	k->resolved = true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i].name))
			k->kind = (uint8_t) names[i].kind;
	if (k->kind == K_NONE) /* its fields would make the class ready: not for others */
		return k;
	static const char *const fields[] = {"addr", "call_site", "duration"};
	for (int f = 0; f < 3; f++)
		k->field[f] = spoor_event_class_field_index(ec, SPOOR_SCOPE_PAYLOAD, fields[f]);
	if ((k->kind != K_EXIT_TOP && k->field[F_ADDR] < 0) ||
	    (k->kind == K_WHOLE && k->field[F_DURATION] < 0))
		k->kind = K_NONE; /* not the fields we know */
	return k;
}

bool calls_reads(struct calls *c, size_t class_index)
{
	return class_of(c, class_index)->kind != K_NONE;
}

static struct thread *thread_of(struct calls *c, int64_t tid, uint64_t proc)
{
	if (c->last < c->nthreads && c->threads[c->last].tid == tid)
		return &c->threads[c->last];
	uint32_t *i = idmap_find(&c->ids, (uint64_t) tid);
	if (!i) {
		if (grow_one(&c->threads, c->nthreads, &c->cap_threads, sizeof(*c->threads), 16) ||
		    idmap_add(&c->ids, (uint64_t) tid, (uint32_t) c->nthreads))
			return NULL;
		c->threads[c->nthreads] =
		    (struct thread){.tid = tid, .proc = proc, .stream = SIZE_MAX};
		c->last = c->nthreads++;
	} else {
		c->last = *i;
	}
	return &c->threads[c->last];
}

static void report_leave(struct calls *c, struct calls_span *s)
{
	if (c->ops.leave)
		c->ops.leave(c->data, s);
}

/* The top frame ends at ts with flags. */
static void pop(struct calls *c, struct thread *t, int64_t ts, uint8_t flags)
{
	struct frame *f = &t->fr[--t->n];
	struct calls_span s = {t->tid,   t->proc, f->addr,     f->site,
	                       f->begin, ts,      f->children, t->base + (uint32_t) t->n,
	                       flags};
	if (t->n)
		t->fr[t->n - 1].children += ts - f->begin;
	report_leave(c, &s);
}

/* Held whole calls, reported in call order (an explicit stack: nesting may be deep). */
static int flush_held(struct calls *c, struct thread *t)
{
	if (!t->ntops)
		return 0;
	struct todo {
		uint32_t i, depth;
		bool leave;
	} *st = malloc(2 * t->nheld * sizeof(*st));
	if (!st)
		return -ENOMEM;
	uint32_t below = t->base + (uint32_t) t->n;
	for (size_t k = 0; k < t->ntops; k++) {
		size_t sp = 0;
		st[sp++] = (struct todo){t->tops[k], below, false};
		while (sp) {
			struct todo d = st[--sp];
			const struct held *h = &t->held[d.i];
			struct calls_span s = {t->tid, t->proc, h->addr, h->site, h->begin,
			                       h->end, 0,       d.depth, 0};
			uint32_t first = d.i + 1 - h->size;
			if (d.leave) {
				for (uint32_t ch = d.i; ch-- > first; ch -= t->held[ch].size - 1)
					s.children += t->held[ch].end - t->held[ch].begin;
				report_leave(c, &s);
				continue;
			}
			if (c->ops.enter) {
				s.end = 0;
				c->ops.enter(c->data, &s);
			}
			st[sp++] = (struct todo){d.i, d.depth, true};
			/* children from the last back: the first ends on top */
			for (uint32_t ch = d.i; ch-- > first; ch -= t->held[ch].size - 1)
				st[sp++] = (struct todo){ch, d.depth + 1, false};
		}
	}
	if (t->n) { /* they ran inside the open call */
		for (size_t k = 0; k < t->ntops; k++)
			t->fr[t->n - 1].children +=
			    t->held[t->tops[k]].end - t->held[t->tops[k]].begin;
	}
	free(st);
	t->nheld = t->ntops = 0;
	return 0;
}

static int whole(struct calls *c, struct thread *t, uint64_t addr, uint64_t site, int64_t begin,
                 int64_t end)
{
	uint32_t size = 1;
	while (t->ntops && t->held[t->tops[t->ntops - 1]].begin >= begin)
		size += t->held[t->tops[--t->ntops]].size;
	if (grow_one(&t->held, t->nheld, &t->cap_held, sizeof(*t->held), 64) ||
	    grow_one(&t->tops, t->ntops, &t->cap_tops, sizeof(*t->tops), 64))
		return -ENOMEM;
	t->held[t->nheld] = (struct held){addr, site, begin, end, size};
	t->tops[t->ntops++] = (uint32_t) t->nheld++;
	return t->nheld >= CALLS_HELD_MAX ? flush_held(c, t) : 0;
}

static int entry(struct calls *c, struct thread *t, uint64_t addr, uint64_t site, int64_t ts)
{
	if (t->n >= CALLS_MAX_DEPTH) {
		t->hidden++;
		return 0;
	}
	if (grow_one(&t->fr, t->n, &t->cap, sizeof(*t->fr), 64))
		return -ENOMEM;
	t->fr[t->n++] = (struct frame){addr, site, ts, 0, t->losses};
	if (c->ops.enter) {
		struct calls_span s = {
		    t->tid, t->proc, addr, site, ts, 0, 0, t->base + (uint32_t) (t->n - 1), 0};
		c->ops.enter(c->data, &s);
	}
	return 0;
}

/* An exit of addr (0: whatever is on top). */
static void exit_call(struct calls *c, struct thread *t, uint64_t addr, uint64_t site, int64_t ts)
{
	if (t->hidden) {
		t->hidden--;
		return;
	}
	size_t k = t->n;
	if (addr)
		while (k && t->fr[k - 1].addr != addr)
			k--;
	if (k) { /* found: what lies above it was left by a longjmp, or lost its exit */
		while (t->n > k)
			pop(c, t, ts,
			    CALLS_UNWOUND |
			        (t->fr[t->n - 1].losses != t->losses ? CALLS_EXIT_LOST : 0));
		pop(c, t, ts, 0);
		return;
	}
	if (t->lost) { /* its entry was lost: shown where it is, the stack left as it is */
		struct calls_span s = {t->tid,        t->proc, addr, site,
		                       INT64_MIN,     ts,      0,    t->base + (uint32_t) t->n,
		                       CALLS_NO_ENTRY};
		report_leave(c, &s);
		return;
	}
	while (t->n)
		pop(c, t, ts, CALLS_UNWOUND);
	if (t->base)
		t->base--;
	else
		t->orphans++;
	struct calls_span s = {t->tid, t->proc,   addr,
	                       site,   INT64_MIN, ts,
	                       0,      t->base,   CALLS_NO_ENTRY | CALLS_OPEN_BEFORE};
	report_leave(c, &s);
}

/* A payload integer: a plain load at its place, else through the reader (0 if absent). */
static uint64_t payload_u64(const struct spoor_event *ev, struct call_class *k, int f)
{
	int64_t v = 0;
	if (k->place[f].fast != PLAN_FAST_NONE && ctf_stream_place_int(ev->s, k->place[f], &v))
		return (uint64_t) v;
	if (k->field[f] < 0 || !reader_field_int(ev, SPOOR_SCOPE_PAYLOAD, k->field[f], &v))
		return 0;
	if (!k->placed) { /* the class is ready now: its places, once */
		k->placed = true;
		for (int i = 0; i < 3; i++)
			ctf_event_class_place(spoor_event_class(ev)->ec, k->field[i], &k->place[i]);
	}
	return (uint64_t) v;
}

bool calls_event_addr(struct calls *c, const struct spoor_event *ev, uint64_t *addr)
{
	struct call_class *k = class_of(c, reader_event_class_index(ev));
	if (k->kind == K_NONE || k->field[F_ADDR] < 0)
		return false;
	*addr = payload_u64(ev, k, F_ADDR);
	return true;
}

int calls_event(struct calls *c, const struct spoor_event *ev, int64_t tid, uint64_t proc)
{
	struct call_class *k = class_of(c, reader_event_class_index(ev));
	if (k->kind == K_NONE)
		return 0;
	struct thread *t = thread_of(c, tid, proc);
	if (!t)
		return -ENOMEM;
	c->events++;
	size_t stream = reader_event_stream(ev);
	uint64_t discarded = reader_event_discarded(ev);
	if (t->stream == stream && t->discarded != discarded) {
		t->lost = true;
		t->losses++;
	}
	t->stream = stream;
	t->discarded = discarded;
	int64_t ts = reader_event_timestamp(ev);
	t->last = ts;
	uint64_t addr = payload_u64(ev, k, F_ADDR);
	uint64_t site = c->ops.call_sites ? payload_u64(ev, k, F_SITE) : 0;
	if (k->kind == K_WHOLE) {
		uint64_t d = payload_u64(ev, k, F_DURATION);
		const struct ctf_stream *s = ev->s;
		int64_t ns = s->sc->clock ? (int64_t) ctf_cycles_to_ns(s->scp->clock_freq, d) : 0;
		if (ns < 0 || (ts < 0 && ns > ts - INT64_MIN))
			ns = 0; /* a corrupt duration: taken as none */
		return whole(c, t, addr, site, ts - ns, ts);
	}
	int rc = flush_held(c, t);
	if (rc)
		return rc;
	if (k->kind == K_ENTRY)
		return entry(c, t, addr, site, ts);
	exit_call(c, t, k->kind == K_EXIT ? addr : 0, site, ts);
	return 0;
}

int calls_finish(struct calls *c)
{
	for (size_t i = 0; i < c->nthreads; i++) {
		struct thread *t = &c->threads[i];
		int rc = flush_held(c, t);
		if (rc)
			return rc;
		while (t->n)
			pop(c, t, t->last, CALLS_NO_EXIT);
	}
	return 0;
}

uint64_t calls_events(const struct calls *c)
{
	return c->events;
}

int calls_seed(struct calls *c, const struct calls *prepass)
{
	for (size_t i = 0; i < prepass->nthreads; i++) {
		const struct thread *p = &prepass->threads[i];
		if (!p->orphans)
			continue;
		struct thread *t = thread_of(c, p->tid, p->proc);
		if (!t)
			return -ENOMEM;
		t->base = p->orphans;
	}
	return 0;
}
