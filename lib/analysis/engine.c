/* SPDX-License-Identifier: MIT */
/* engine.c: the shared pass and state of the analyses (see engine.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "model/threads.h"
#include "reader/reader.h" /* per-event facts without calls */

#define MAX_CPUS 4096

struct hook {
	an_hook_fn fn;
	void *data;
};

/* What the per-event loop needs of an event class, small (a kernel trace has hundreds of
 * classes, a folder of traces thousands: the loop touches one of these per event); the
 * fields the hooks read are in refs. */
struct eclass {
	/* its kind's hooks then its own (an_engine_on, an_engine_on_class), in one list; the
	 * first also here (a no-op when none), called without a loop */
	struct hook first;
	struct hook *hooks;
	uint32_t nhooks;
	int32_t tid_index; /* common_pid / tid context index, -1 none */
	int8_t tid_scope;
	/* its events show the task running on their CPU: tid_index is common_pid or a tid
	 * context (a vtid is a namespace's), and the class is not a state dump's */
	bool shows_task;
	bool threads;  /* the thread model reads its events (want_threads, threads_update) */
	bool resolved; /* fields looked up and hooks gathered (at its first event) */
	bool plain;    /* resolved, and none of threads, tid_index or a switch's next task */
};

struct name_hook { /* an_engine_on_name, kept for classes found later (live traces) */
	char *pattern;
	an_hook_fn fn;
	void *data;
};

/* The range of the times hooks see (hook_time). */
#define HOOK_TIME_MIN (-((int64_t) 1 << 62))
#define HOOK_TIME_MAX (((int64_t) 1 << 62) - 1)

struct an_engine {
	struct spoor_reader *r;
	struct an_filter f;
	struct eclass *classes;  /* per reader class */
	struct kclass_ref *refs; /* per reader class: its kind and fields */
	size_t nclasses;
	uint8_t *schemes; /* per trace: how it names system calls (enum ksyscalls) */
	size_t ntraces;
	struct hook *hooks[KEV_COUNT];
	size_t nhooks[KEV_COUNT];
	struct hook **class_hooks; /* per class, from an_engine_on_name */
	size_t *nclass_hooks;
	struct {
		an_lost_fn fn;
		void *data;
	} lost_hooks[16]; /* one per analysis or plug-in in the pass */
	size_t nlost;
	struct {
		an_inferred_fn fn;
		void *data;
	} inferred_hooks[16];
	size_t ninferred;
	struct name_hook *name_hooks;
	size_t nname_hooks;
	an_classes_fn classes_fn;
	void *classes_data;
	uint64_t *stream_discarded;
	bool *stream_user; /* of a user-space trace: its losses say nothing of the kernel */
	size_t nstreams;
	uint64_t lost, inferred;
	int64_t cur[MAX_CPUS]; /* the task on each CPU, -1: unknown */
	struct threads *threads;
	bool has[KEV_COUNT];  /* declared */
	bool seen[KEV_COUNT]; /* met in the pass (in the time range or not) */
	bool want_threads;
	bool want_tasks; /* an_engine_want_tasks */
	bool dump_first; /* an_engine_read_dump_first */
	bool stop;       /* a hook asked to end the pass, or to pause it (paused) */
	bool paused;     /* an_engine_pause: the pass goes on at the next call */
	bool planned;    /* the classes nobody reads are passed over (plan_pass_over) */
	bool finished;   /* the pass reached the end of the trace */
	bool any_ts;
	bool plain_time; /* any_ts, and no time range: hook_time is a max */
	int64_t first, last;
};

/* The class's task field; whether it names the running task (not a vtid). */
static bool resolve_tid(const struct spoor_event_class *ec, int *idx, int8_t *scope)
{
	static const char *const names[] = {"common_pid", "tid", "vtid"};
	static const enum spoor_scope scopes[] = {SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_PACKET_CONTEXT};
	*idx = -1;
	for (int n = 0; n < 3; n++)
		for (int s = 0; s < 3; s++) {
			int i = spoor_event_class_field_index(ec, scopes[s], names[n]);
			if (i >= 0) {
				*idx = i;
				*scope = (int8_t) scopes[s];
				return n < 2;
			}
		}
	return false;
}

static inline void run_hooks(const struct eclass *k, const struct an_event *a)
{
	k->first.fn(k->first.data, a);
	if (__builtin_expect(k->nhooks > 1, 0)) /* most analyses hook a kind once */
		for (const struct hook *h = k->hooks + 1, *end = k->hooks + k->nhooks; h < end; h++)
			h->fn(h->data, a);
}

static void no_hook(void *data, const struct an_event *a)
{
	(void) data;
	(void) a;
}

/* Whether the class's events take an_engine_run_until's shortest path. */
static void set_plain(struct eclass *k, const struct kclass_ref *ref)
{
	k->plain = k->resolved && !k->threads && k->tid_index < 0 && ref->kind != KEV_SCHED_SWITCH;
}

/* At a class's first event: the fields its kind and the thread look-up need, and the hooks
 * its events go to. */
static __attribute__((noinline)) int resolve_class(struct an_engine *e, size_t c)
{
	const struct spoor_event_class *ec = spoor_reader_event_class(e->r, c);
	struct eclass *k = &e->classes[c];
	struct kclass_ref *ref = &e->refs[c];
	kvocab_resolve(ec, (enum ksyscalls) e->schemes[ec->trace], ref);
	e->seen[ref->kind] = true;
	int tid_index;
	/* a state dump's events say nothing of the running task (spoor's carry the dumped
	 * thread's common_pid; LTTng's layout written by spoor, 0 or the dumped thread) */
	k->shows_task = resolve_tid(ec, &tid_index, &k->tid_scope) && ref->kind != KEV_STATEDUMP &&
	                strncmp(spoor_event_class_name(ec), "lttng_statedump_", 16);
	k->tid_index = tid_index;
	k->threads = e->want_threads;
	size_t nkind = e->nhooks[ref->kind], nown = e->class_hooks ? e->nclass_hooks[c] : 0;
	struct hook *h = realloc(k->hooks, (nkind + nown + 1) * sizeof(*h));
	if (!h)
		return -ENOMEM;
	if (nkind) /* an empty list's pointer may be NULL, which memcpy must not see */
		memcpy(h, e->hooks[ref->kind], nkind * sizeof(*h));
	if (nown)
		memcpy(h + nkind, e->class_hooks[c], nown * sizeof(*h));
	k->hooks = h;
	k->nhooks = (uint32_t) (nkind + nown);
	k->first = k->nhooks ? h[0] : (struct hook){no_hook, NULL};
	k->resolved = true;
	set_plain(k, ref);
	return 0;
}

/* A hook was added: each class gathers its hooks again at its next event. */
static void hooks_changed(struct an_engine *e)
{
	for (size_t c = 0; c < e->nclasses; c++)
		e->classes[c].resolved = e->classes[c].plain = false;
}

/* A bigger copy of an array of n elements, the new ones zeroed; NULL when out of memory
 * (the old one is freed then). */
static void *enlarge(void *v, size_t size, size_t n, size_t more)
{
	char *bigger = realloc(v, (n + more + 1) * size);
	if (!bigger) {
		free(v);
		return NULL;
	}
	memset(bigger + n * size, 0, (more + 1) * size);
	return bigger;
}

/* How each trace names its system calls, from the events it declares, else from its env
 * (traces [old, ntraces) are new). True when the naming of a trace known before changed: a
 * live trace's classes come in several refreshes, and those known already must be read
 * again (a new trace's naming is new, not changed). 0 or -ENOMEM. */
static int decide_schemes(struct an_engine *e, size_t nc, size_t old, bool *changed)
{
	uint8_t *said = calloc(e->ntraces + 1, 1); /* KSC_UNDECIDED */
	if (!said)
		return -ENOMEM;
	for (size_t c = 0; c < nc; c++) { /* the first event that says decides */
		const struct spoor_event_class *ec = spoor_reader_event_class(e->r, c);
		if (ec->trace < e->ntraces && said[ec->trace] == KSC_UNDECIDED)
			said[ec->trace] = (uint8_t) kvocab_scheme_mark(spoor_event_class_name(ec));
	}
	*changed = false;
	for (size_t t = 0; t < e->ntraces; t++) {
		uint8_t s = said[t];
		if (s == KSC_UNDECIDED)
			s = (uint8_t) kvocab_scheme_env(
			    spoor_reader_trace_env(e->r, t, "tracer_name"),
			    spoor_reader_trace_env(e->r, t, "tracer_major"),
			    spoor_reader_trace_env(e->r, t, "tracer_minor"));
		*changed |= t < old && s != e->schemes[t];
		e->schemes[t] = s;
	}
	free(said);
	return 0;
}

/* A class's kind from its name, in its trace's naming: the fields of a class never met are
 * never looked at (a kernel trace declares over a thousand classes). */
static void class_kind(struct an_engine *e, size_t c)
{
	const struct spoor_event_class *ec = spoor_reader_event_class(e->r, c);
	kvocab_kind(ec, (enum ksyscalls) e->schemes[ec->trace], &e->refs[c]);
	e->has[e->refs[c].kind] = true;
}

/* Take in the classes and streams the reader has that the engine does not know yet. */
static int grow(struct an_engine *e)
{
	size_t nc = spoor_reader_event_class_count(e->r), ns = spoor_reader_stream_count(e->r);
	size_t old = e->nclasses, more = nc - old, nt = spoor_reader_trace_count(e->r);
	size_t old_traces = e->classes ? e->ntraces : 0; /* none known before the first */

	if (!e->stream_discarded || ns > e->nstreams) {
		e->stream_discarded =
		    enlarge(e->stream_discarded, sizeof(uint64_t), e->nstreams, ns - e->nstreams);
		e->stream_user =
		    enlarge(e->stream_user, sizeof(bool), e->nstreams, ns - e->nstreams);
		if (!e->stream_discarded || !e->stream_user)
			return -ENOMEM;
		for (size_t s = e->nstreams; s < ns; s++) {
			struct spoor_stream_info info;
			spoor_reader_stream_info(e->r, s, &info);
			const char *domain = spoor_reader_trace_env(e->r, info.trace, "domain");
			e->stream_user[s] = domain && !strcmp(domain, "ust");
		}
		e->nstreams = ns;
	}
	if (e->classes && !more)
		return 0;
	e->classes = enlarge(e->classes, sizeof(*e->classes), old, more);
	e->refs = enlarge(e->refs, sizeof(*e->refs), old, more);
	if (e->class_hooks) {
		e->class_hooks = enlarge(e->class_hooks, sizeof(*e->class_hooks), old, more);
		e->nclass_hooks = enlarge(e->nclass_hooks, sizeof(*e->nclass_hooks), old, more);
	}
	if (!e->schemes || nt > e->ntraces) {
		e->schemes = enlarge(e->schemes, 1, e->ntraces, nt - e->ntraces);
		if (!e->schemes)
			return -ENOMEM;
		e->ntraces = nt;
	}
	if (!e->classes || !e->refs || (e->class_hooks == NULL) != (e->nclass_hooks == NULL))
		return -ENOMEM;
	e->nclasses = nc;
	bool changed;
	if (decide_schemes(e, nc, old_traces, &changed))
		return -ENOMEM;
	if (changed) { /* the classes known already are read again in the new naming */
		memset(e->has, 0, sizeof(e->has));
		for (size_t c = 0; c < old; c++)
			class_kind(e, c);
		hooks_changed(e);
	}
	for (size_t c = old; c < nc; c++) {
		const struct spoor_event_class *ec = spoor_reader_event_class(e->r, c);
		class_kind(e, c);
		for (size_t h = 0; h < e->nname_hooks; h++) {
			const struct name_hook *n = &e->name_hooks[h];
			if (!fnmatch(n->pattern, spoor_event_class_name(ec), 0) &&
			    an_engine_on_class(e, c, n->fn, n->data))
				return -ENOMEM;
		}
	}
	if (e->classes_fn && old < nc)
		return e->classes_fn(e->classes_data, old, nc);
	return 0;
}

int an_engine_refresh(struct an_engine *e)
{
	return grow(e);
}

void an_engine_on_classes(struct an_engine *e, an_classes_fn fn, void *data)
{
	e->classes_fn = fn;
	e->classes_data = data;
}

int an_engine_new(struct spoor_reader *r, const struct an_filter *f, struct an_engine **out)
{
	struct an_engine *e = calloc(1, sizeof(*e));
	*out = NULL;
	if (!e)
		return -ENOMEM;
	e->r = r;
	if (f)
		e->f = *f;
	e->threads = threads_new(r);
	if (!e->threads || grow(e)) {
		an_engine_free(e);
		return -ENOMEM;
	}
	for (size_t i = 0; i < MAX_CPUS; i++)
		e->cur[i] = -1;
	e->want_threads = e->f.npids || e->f.ncomms;
	*out = e;
	return 0;
}

void an_engine_want_threads(struct an_engine *e)
{
	e->want_threads = true;
	hooks_changed(e); /* classes resolved before take it in at their next event */
}

void an_engine_want_tasks(struct an_engine *e)
{
	e->want_tasks = true;
}

void an_engine_read_dump_first(struct an_engine *e)
{
	e->dump_first = true;
}

void an_engine_free(struct an_engine *e)
{
	if (!e)
		return;
	for (int k = 0; k < KEV_COUNT; k++)
		free(e->hooks[k]);
	for (size_t c = 0; e->class_hooks && c < e->nclasses; c++)
		free(e->class_hooks[c]);
	free(e->class_hooks);
	free(e->nclass_hooks);
	for (size_t h = 0; h < e->nname_hooks; h++)
		free(e->name_hooks[h].pattern);
	free(e->name_hooks);
	for (size_t c = 0; e->classes && c < e->nclasses; c++)
		free(e->classes[c].hooks);
	free(e->classes);
	free(e->refs);
	free(e->schemes);
	free(e->stream_discarded);
	free(e->stream_user);
	threads_free(e->threads);
	free(e);
}

/* Append to a hook list. */
static int push_hook(struct hook **v, size_t *n, an_hook_fn fn, void *data)
{
	struct hook *h = realloc(*v, (*n + 1) * sizeof(*h));
	if (!h)
		return -ENOMEM;
	h[(*n)++] = (struct hook){fn, data};
	*v = h;
	return 0;
}

int an_engine_on(struct an_engine *e, enum kev kind, an_hook_fn fn, void *data)
{
	if (kind <= KEV_NONE || kind >= KEV_COUNT)
		return -EINVAL;
	hooks_changed(e);
	return push_hook(&e->hooks[kind], &e->nhooks[kind], fn, data);
}

void an_engine_stop(struct an_engine *e)
{
	e->stop = true;
	e->paused = false;
}

void an_engine_pause(struct an_engine *e)
{
	if (!e->stop) /* an end stays an end */
		e->stop = e->paused = true;
}

int an_engine_on_class(struct an_engine *e, size_t class_index, an_hook_fn fn, void *data)
{
	if (class_index >= e->nclasses)
		return -EINVAL;
	/* the per-class lists exist only once some analysis hooks a class */
	if (!e->class_hooks) {
		e->class_hooks = calloc(e->nclasses + 1, sizeof(*e->class_hooks));
		e->nclass_hooks = calloc(e->nclasses + 1, sizeof(*e->nclass_hooks));
		if (!e->class_hooks || !e->nclass_hooks)
			return -ENOMEM;
	}
	/* gathered again at its next event, which must not take the shortest path before */
	e->classes[class_index].resolved = e->classes[class_index].plain = false;
	return push_hook(&e->class_hooks[class_index], &e->nclass_hooks[class_index], fn, data);
}

int an_engine_on_name(struct an_engine *e, const char *pattern, an_hook_fn fn, void *data)
{
	struct name_hook *v = realloc(e->name_hooks, (e->nname_hooks + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	e->name_hooks = v;
	if (!(v[e->nname_hooks].pattern = strdup(pattern)))
		return -ENOMEM;
	v[e->nname_hooks].fn = fn;
	v[e->nname_hooks++].data = data;
	for (size_t c = 0; c < e->nclasses; c++) {
		const char *name = spoor_event_class_name(spoor_reader_event_class(e->r, c));
		int rc = fnmatch(pattern, name, 0) ? 0 : an_engine_on_class(e, c, fn, data);
		if (rc)
			return rc;
	}
	return 0;
}

int an_engine_on_lost(struct an_engine *e, an_lost_fn fn, void *data)
{
	if (e->nlost == sizeof(e->lost_hooks) / sizeof(e->lost_hooks[0]))
		return -ENOSPC;
	e->lost_hooks[e->nlost].fn = fn;
	e->lost_hooks[e->nlost++].data = data;
	return 0;
}

int an_engine_on_inferred(struct an_engine *e, an_inferred_fn fn, void *data)
{
	if (e->ninferred == sizeof(e->inferred_hooks) / sizeof(e->inferred_hooks[0]))
		return -ENOSPC;
	e->inferred_hooks[e->ninferred].fn = fn;
	e->inferred_hooks[e->ninferred++].data = data;
	return 0;
}

static inline bool in_range(const struct an_engine *e, int64_t ts)
{
	if (__builtin_expect(!e->f.has_begin && !e->f.has_end, 1))
		return true;
	return (!e->f.has_begin || ts >= e->f.begin) && (!e->f.has_end || ts <= e->f.end);
}

/* The time hooks see: within [HOOK_TIME_MIN, HOOK_TIME_MAX] (1824 to 2116 from the epoch,
 * negative times of a clock with a negative offset included) and never before the previous
 * event's. A damaged stream's clock may jump anywhere, and the analyses subtract times
 * (durations, latencies, CPU time) and add up the differences: with times in order within
 * a range of 2^63 ns, no difference overflows, nor any sum of differences that do not
 * overlap in time. An event that goes back in time counts at the latest time seen; the
 * events of a sound trace are already in order. */
static int64_t clamp_time(int64_t ts)
{
	return ts < HOOK_TIME_MIN ? HOOK_TIME_MIN : ts > HOOK_TIME_MAX ? HOOK_TIME_MAX : ts;
}

/* hook_time once some event was seen (plain_time: and no time range is set). */
static inline int64_t plain_hook_time(struct an_engine *e, int64_t ts)
{
	if (ts > e->last)
		e->last = ts < HOOK_TIME_MAX ? ts : HOOK_TIME_MAX;
	return e->last;
}

/* The hooks' time of an event at ts; the span they saw (first, last) grows with it. */
static inline int64_t hook_time(struct an_engine *e, int64_t ts)
{
	if (__builtin_expect(!e->any_ts, 0)) {
		e->first = e->last = clamp_time(ts);
		e->any_ts = true;
		e->plain_time = !e->f.has_begin && !e->f.has_end;
		return e->last;
	}
	return plain_hook_time(e, ts);
}

/* Stream s's packets now say d events were discarded: report the new ones. */
static void stream_lost(struct an_engine *e, size_t s, uint64_t d, int64_t cpu, int64_t ts)
{
	if (s >= e->nstreams || d == e->stream_discarded[s])
		return;
	uint64_t n = d - e->stream_discarded[s];
	e->stream_discarded[s] = d;
	e->lost += n;
	if (e->stream_user[s]) /* counted, but the kernel's state (its CPUs) stays known */
		return;
	/* at a time as the hooks see them (hook_time), without moving their span */
	ts = clamp_time(ts);
	if (e->any_ts && ts < e->last)
		ts = e->last;
	for (size_t i = 0; i < e->nlost; i++)
		e->lost_hooks[i].fn(e->lost_hooks[i].data, cpu, n, ts);
}

static int64_t monotonic_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t) t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Whether the class's stream gives each event the running task (common_pid, a tid
 * context): the stream class's context, which needs no look at the event class's fields. */
static bool stream_shows_task(const struct spoor_event_class *ec)
{
	return spoor_event_class_field_index(ec, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, "common_pid") >=
	           0 ||
	       spoor_event_class_field_index(ec, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, "tid") >= 0;
}

/* Events of a class no hook and no model reads are stepped over inside the reader: never
 * merged, never dispatched. Switches are always read (the task on each CPU), with the
 * thread model every class that names tasks, and with want_tasks every class whose events
 * show the running task. */
static int plan_pass_over(struct an_engine *e)
{
	e->planned = true;
	bool *pass = calloc(e->nclasses + 1, sizeof(*pass));
	if (!pass)
		return -ENOMEM;
	for (size_t c = 0; c < e->nclasses; c++) {
		enum kev kind = (enum kev) e->refs[c].kind;
		bool read = kind == KEV_SCHED_SWITCH || e->nhooks[kind] ||
		            (e->class_hooks && e->nclass_hooks[c]) ||
		            (e->want_threads && threads_names_tasks(e->threads, c)) ||
		            (e->want_tasks && stream_shows_task(spoor_reader_event_class(e->r, c)));
		pass[c] = !read;
	}
	reader_pass_over(e->r, pass, e->nclasses, e->f.has_begin ? e->f.begin : INT64_MIN,
	                 e->f.has_end ? e->f.end : INT64_MAX);
	free(pass);
	return 0;
}

/* The event at ts shows task `shown` running on cpu, not the one the last switch put there:
 * a switch is missing from the trace. Follow the event, and tell the analyses when it is in
 * the range (at the time its hooks will see). Nothing there yet: it only says who runs. */
static __attribute__((noinline)) void infer_switch(struct an_engine *e, int64_t cpu, int64_t ts,
                                                   int64_t shown)
{
	int64_t prev = e->cur[cpu];
	e->cur[cpu] = shown;
	if (prev < 0 || !in_range(e, ts))
		return;
	ts = hook_time(e, ts); /* the event's hooks get the same */
	e->inferred++;
	for (size_t i = 0; i < e->ninferred; i++)
		e->inferred_hooks[i].fn(e->inferred_hooks[i].data, cpu, ts, prev, shown);
}

/* Where events do not show the running task (no common_pid or tid context), a switch's
 * prev_tid does: a missing switch shows there first. Read only for analyses that hear of
 * inferred switches (a second field per switch costs the others). */
static void prev_shows_task(struct an_engine *e, const struct an_event *a)
{
	int64_t prev;
	if ((uint64_t) a->cpu < MAX_CPUS && kv_int(a->ev, a->cls, KS_PREV_TID, &prev) &&
	    prev != e->cur[a->cpu] && prev >= 0)
		infer_switch(e, a->cpu, a->ts, prev);
}

/* The filters by pid and name decide at the event in irq, disk and the timeline: with such
 * a filter (or an_engine_read_dump_first), LTTng's state dump is read first
 * (threads_read_dump_ahead), so that threads that run before it have their process. */
static void read_dump_ahead(struct an_engine *e)
{
	if (e->f.npids || e->f.ncomms || e->dump_first)
		threads_read_dump_ahead(e->threads);
}

/* Losses at the end of a stream, with no later event of it to report them. */
static void report_last_losses(struct an_engine *e)
{
	for (size_t i = 0; i < e->nstreams; i++) {
		int64_t cpu, last;
		uint64_t d;
		reader_stream_end(e->r, i, &cpu, &d, &last);
		stream_lost(e, i, d, cpu, last);
	}
}

int an_engine_run(struct an_engine *e)
{
	return an_engine_run_until(e, INT64_MAX);
}

int an_engine_run_until(struct an_engine *e, int64_t deadline)
{
	const struct spoor_event *ev;
	int rc = 0;
	unsigned until_clock = 1024;     /* events before the next look at the deadline */
	bool plain_time = e->plain_time; /* only hook_time sets it, outside the shortest path */

	if (!e->planned) {
		read_dump_ahead(e);
		if ((rc = plan_pass_over(e)))
			return rc;
	}
	while (!e->stop && (rc = reader_next(e->r, &ev)) > 0) {
		if (__builtin_expect(!--until_clock, 0)) {
			until_clock = 1024;
			if (deadline != INT64_MAX && monotonic_ns() > deadline) {
				spoor_reader_unread(e->r); /* this event comes first next time */
				return 1;
			}
		}
		size_t c = reader_event_class_index(ev);
		if (c >= e->nclasses && (grow(e) || c >= e->nclasses))
			continue; /* a live trace declared it since the last refresh */
		struct eclass *k = &e->classes[c];
		if (__builtin_expect(k->plain && plain_time && !reader_event_stream_lost_any(ev),
		                     1)) {
			/* the common case of what follows: no thread model, task from the CPU, no
			 * time range, nothing lost */
			int64_t cpu = reader_event_cpu(ev);
			const struct kclass_ref *cls = &e->refs[c];
			struct an_event a = {ev,
			                     cls,
			                     c,
			                     (enum kev) cls->kind,
			                     plain_hook_time(e, reader_event_timestamp(ev)),
			                     cpu,
			                     an_cpu_task(e, cpu),
			                     false,
			                     -1};
			run_hooks(k, &a);
			continue;
		}
		if (!k->resolved && (rc = resolve_class(e, c)))
			return rc;
		const struct kclass_ref *cls = &e->refs[c];
		int64_t ts = reader_event_timestamp(ev);
		int64_t cpu = reader_event_cpu(ev);
		if (__builtin_expect(reader_event_stream_lost_any(ev), 0)) /* most never do */
			stream_lost(e, reader_event_stream(ev), reader_event_discarded(ev), cpu,
			            ts);
		if (k->threads && !(k->threads = threads_update(e->threads, ev)))
			set_plain(k, cls);
		struct an_event a = {ev, cls, c, (enum kev) cls->kind, ts, cpu, -1, false, -1};
		if (a.kind == KEV_SCHED_SWITCH)
			a.has_next_tid = kv_int(ev, cls, KS_NEXT_TID, &a.next_tid);
		if (k->tid_index >= 0) {
			if (!reader_field_int(ev, (enum spoor_scope) k->tid_scope, k->tid_index,
			                      &a.tid))
				a.tid = -1;
			/* the task it shows running (a switch's is its prev) */
			else if (k->shows_task && (uint64_t) cpu < MAX_CPUS &&
			         a.tid != e->cur[cpu] && a.tid >= 0)
				infer_switch(e, cpu, ts, a.tid);
		} else {
			if (a.kind == KEV_SCHED_SWITCH && e->ninferred)
				prev_shows_task(e, &a);
			a.tid = an_cpu_task(e, cpu);
		}
		if (in_range(e, ts)) {
			a.ts = ts = hook_time(e, ts);
			plain_time = e->plain_time;
			run_hooks(k, &a);
		}
		/* the state after the hooks: a switch's hooks still see the task it ends */
		if (a.has_next_tid && cpu >= 0 && cpu < MAX_CPUS)
			e->cur[cpu] = a.next_tid;
	}
	if (__builtin_expect(e->paused, 0)) { /* the loop's own test: free */
		e->stop = e->paused = false;
		return rc < 0 ? rc : 1;
	}
	if (!rc && !e->stop && !e->finished) {
		e->finished = true;
		report_last_losses(e);
	}
	return rc;
}

int64_t an_cpu_task(const struct an_engine *e, int64_t cpu)
{
	return cpu >= 0 && cpu < MAX_CPUS ? e->cur[cpu] : -1;
}

const char *an_task_comm(const struct an_engine *e, int64_t tid)
{
	return threads_comm(e->threads, tid);
}

int64_t an_task_pid(const struct an_engine *e, int64_t tid)
{
	int64_t pid = threads_pid(e->threads, tid);
	return pid >= 0 ? pid : tid;
}

int64_t an_task_pid_said(const struct an_engine *e, int64_t tid)
{
	return threads_pid(e->threads, tid);
}

bool an_selects_threads(const struct an_engine *e)
{
	return e->f.ntids || e->f.ncomms;
}

static bool in_list(const int64_t *v, size_t n, int64_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* Whether a task passes the filters: tid, and pid and comm when asked for (get). */
static bool task_passes(const struct an_engine *e, int64_t tid, bool get, int64_t pid,
                        const char *comm)
{
	const struct an_filter *f = &e->f;
	if (!f->npids && !f->ntids && !f->ncomms)
		return true;
	if (f->ntids && in_list(f->tids, f->ntids, tid))
		return true;
	if (f->npids && in_list(f->pids, f->npids, get ? an_task_pid(e, tid) : pid))
		return true;
	if (get)
		comm = f->ncomms ? an_task_comm(e, tid) : NULL;
	for (size_t i = 0; comm && i < f->ncomms; i++)
		if (!fnmatch(f->comms[i], comm, 0))
			return true;
	return false;
}

bool an_task_selected(const struct an_engine *e, int64_t tid)
{
	return task_passes(e, tid, true, -1, NULL);
}

bool an_selects_tasks(const struct an_engine *e)
{
	return e->f.npids || e->f.ntids || e->f.ncomms;
}

bool an_selects_by_name(const struct an_engine *e)
{
	return e->f.ncomms > 0;
}

bool an_task_matches(const struct an_engine *e, int64_t tid, int64_t pid, const char *comm)
{
	return task_passes(e, tid, false, pid, comm);
}

bool an_selects(const struct an_engine *e)
{
	return e->f.npids || e->f.ntids || e->f.ncomms || e->f.ncpus;
}

bool an_cpu_selected(const struct an_engine *e, int64_t cpu)
{
	return !e->f.ncpus || in_list(e->f.cpus, e->f.ncpus, cpu);
}

bool an_trace_has(const struct an_engine *e, enum kev kind)
{
	return kind < KEV_COUNT && e->has[kind];
}

bool an_trace_saw(const struct an_engine *e, enum kev kind)
{
	return kind < KEV_COUNT && e->seen[kind];
}

static const char *class_name(const struct an_engine *e, size_t c)
{
	return spoor_event_class_name(spoor_reader_event_class(e->r, c));
}

static bool lookalike(const struct an_engine *e, enum kev kind, size_t c)
{
	return e->refs[c].kind == KEV_NONE && kvocab_lookalike(kind, class_name(e, c));
}

size_t an_lookalikes(const struct an_engine *e, enum kev kind, const char **names, size_t max)
{
	size_t found = 0;
	for (size_t c = 0; c < e->nclasses; c++) {
		if (!lookalike(e, kind, c))
			continue;
		const char *name = class_name(e, c);
		bool again = false; /* a folder of traces declares one event many times */
		for (size_t d = 0; d < c && !again; d++)
			again = lookalike(e, kind, d) && !strcmp(class_name(e, d), name);
		if (!again && found++ < max)
			names[found - 1] = name;
	}
	return found;
}

void an_span(const struct an_engine *e, int64_t *begin, int64_t *end)
{
	*begin = e->any_ts ? e->first : 0;
	*end = e->any_ts ? e->last : 0;
	/* Events passed over count too. Mid-pass, the first one is right as soon as some event
	 * was read (streams are in time order); the last one only at the end. */
	int64_t pf, pl;
	if (!reader_passed_span(e->r, &pf, &pl))
		return;
	if (!e->any_ts || pf < *begin)
		*begin = pf;
	if (e->finished && (!e->any_ts || pl > *end))
		*end = pl;
	else if (!e->any_ts)
		*end = *begin;
	/* as the hooks' times (hook_time): the events passed over may have any time */
	*begin = clamp_time(*begin);
	*end = clamp_time(*end);
	if (*end < *begin)
		*end = *begin;
}

uint64_t an_events_lost(const struct an_engine *e)
{
	return e->lost;
}

uint64_t an_switches_inferred(const struct an_engine *e)
{
	return e->inferred;
}

const struct spoor_reader *an_reader(const struct an_engine *e)
{
	return e->r;
}
