/* SPDX-License-Identifier: MIT */
/* sched.c: scheduling statistics and state changes (see sched.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "util/satadd.h"
#include "sched.h"

#define MAX_CPUS 4096

struct sched_analysis {
	struct an_engine *e;
	struct sched_thread *th; /* every thread seen; tid 0 (the idle tasks) never */
	size_t nth, capth;
	struct idmap by_tid;    /* tid -> index in th */
	struct sched_cpu *cpus; /* MAX_CPUS, by number */
	bool *cpu_seen;
	struct sched_wake *worst; /* a min-heap of the `nworst` largest */
	size_t nworst, maxworst;
	/* with --comm, each thread's own heap (by index in th), chosen from at the end by the
	 * names then, as the tables are: a name at the wake-up may be the one before an exec */
	struct thread_worst *thworst;
	size_t capthworst;
	bool by_task, by_name;
	struct sched_totals t;
	sched_change_fn change;
	void *change_data;
	sched_slice_fn slice;
	void *slice_data;
	bool oom, finished;
	bool raw_states; /* kernels before 4.14 report prev_state raw (see runnable_state) */
	/* the reports */
	struct sched_thread *rth;
	struct sched_proc *procs;
	struct sched_cpu *rcpus;
	size_t nrth, nprocs, nrcpus;
};

struct thread_worst {
	struct sched_wake *v;
	size_t n, cap; /* cap grows to maxworst: memory as the thread's latencies, at most */
};

/* ---- threads by tid ---- */

/* The thread's record, made on first sight. Pointers last until the next new thread. */
static struct sched_thread *thread_of(struct sched_analysis *a, int64_t tid)
{
	if (tid <= 0)
		return NULL;
	uint32_t *i = idmap_find(&a->by_tid, (uint64_t) tid);
	if (i)
		return &a->th[*i];
	if (a->nth == a->capth) {
		size_t cap = a->capth ? 2 * a->capth : 256;
		struct sched_thread *v = realloc(a->th, cap * sizeof(*v));
		if (!v) {
			a->oom = true;
			return NULL;
		}
		a->th = v;
		a->capth = cap;
	}
	if (idmap_add(&a->by_tid, (uint64_t) tid, (uint32_t) a->nth)) {
		a->oom = true;
		return NULL;
	}
	a->th[a->nth] =
	    (struct sched_thread){.tid = tid, .cpu = -1, .wake = -1, .wake_cpu = -1, .waker = -1};
	return &a->th[a->nth++];
}

/* ---- helpers ---- */

static struct sched_cpu *cpu_of(struct sched_analysis *a, int64_t cpu)
{
	if (cpu < 0 || cpu >= MAX_CPUS)
		return NULL;
	if (!a->cpus) {
		a->cpus = calloc(MAX_CPUS, sizeof(*a->cpus));
		a->cpu_seen = calloc(MAX_CPUS, sizeof(*a->cpu_seen));
		if (!a->cpus || !a->cpu_seen) {
			a->oom = true;
			return NULL;
		}
	}
	if (!a->cpu_seen[cpu]) {
		a->cpu_seen[cpu] = true;
		a->cpus[cpu] = (struct sched_cpu){.cpu = cpu, .cur = -1, .wake = -1};
	}
	return &a->cpus[cpu];
}

static void set_state(struct sched_analysis *a, struct sched_thread *t, enum sched_state to,
                      int64_t ts, int64_t cpu)
{
	if (a->change && t->state != to && an_task_selected(a->e, t->tid) &&
	    an_cpu_selected(a->e, cpu)) {
		struct sched_change c = {ts, t->tid,       cpu, (enum sched_state) t->state,
		                         to, t->prev_state};
		a->change(a->change_data, &c);
	}
	t->state = (uint8_t) to;
	t->since = ts;
}

static void heap_down(struct sched_wake *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < n && h[l].latency < h[m].latency)
			m = l;
		if (l + 1 < n && h[l + 1].latency < h[m].latency)
			m = l + 1;
		if (m == i)
			return;
		struct sched_wake x = h[i];
		h[i] = h[m];
		h[m] = x;
		i = m;
	}
}

/* h: a min-heap of at most max, *n now */
static inline void heap_keep(struct sched_wake *h, size_t *n, size_t max,
                             const struct sched_wake *w)
{
	if (*n < max) {
		size_t i = (*n)++;
		h[i] = *w;
		while (i && h[(i - 1) / 2].latency > h[i].latency) {
			struct sched_wake x = h[i];
			h[i] = h[(i - 1) / 2];
			h[(i - 1) / 2] = x;
			i = (i - 1) / 2;
		}
	} else if (w->latency > h[0].latency) {
		h[0] = *w;
		heap_down(h, *n, 0);
	}
}

static struct thread_worst *thread_worst(struct sched_analysis *a, size_t i)
{
	if (i >= a->capthworst) {
		size_t cap = a->capth > i ? a->capth : i + 1;
		struct thread_worst *v = realloc(a->thworst, cap * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + a->capthworst, 0, (cap - a->capthworst) * sizeof(*v));
		a->thworst = v;
		a->capthworst = cap;
	}
	struct thread_worst *tw = &a->thworst[i];
	if (tw->n == tw->cap && tw->cap < a->maxworst) {
		size_t cap = tw->cap ? 2 * tw->cap : 4;
		cap = cap < a->maxworst ? cap : a->maxworst;
		struct sched_wake *v = realloc(tw->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		tw->v = v;
		tw->cap = cap;
	}
	return tw;
}

/* With a task filter, only the selected tasks' latencies, so that the others do not push
 * theirs out of the N kept: by pid and tid now; by name at the end (each thread's N kept
 * till then). Out of the common path. */
static __attribute__((noinline)) void
keep_selected(struct sched_analysis *a, const struct sched_thread *t, const struct sched_wake *w)
{
	if (a->by_name) {
		struct thread_worst *tw = thread_worst(a, (size_t) (t - a->th));
		if (tw)
			heap_keep(tw->v, &tw->n, a->maxworst, w);
		else
			a->oom = true;
	} else if (an_task_selected(a->e, w->tid)) {
		heap_keep(a->worst, &a->nworst, a->maxworst, w);
	}
}

static inline void keep_worst(struct sched_analysis *a, const struct sched_thread *t,
                              const struct sched_wake *w)
{
	if (!a->maxworst)
		return;
	if (__builtin_expect(a->by_task, 0))
		keep_selected(a, t, w);
	else
		heap_keep(a->worst, &a->nworst, a->maxworst, w);
}

/*
 * Whether a switch-out leaves its task runnable (preempted or yielding). Kernels 4.14+ report
 * prev_state as one bit per state (S D T t X Z P I: 0x1 to 0x80) and preemption as 0x100;
 * older ones (LTTng 2.8's traces) the raw task state (S D T t X Z x K W P N: 0x1 to 0x400)
 * and preemption as TASK_STATE_MAX (0x800 or 0x1000).
 */
static bool runnable_state(const struct sched_analysis *a, int64_t s)
{
	return (s & (a->raw_states ? 0x7ff : 0xff)) == 0;
}

/* Before 4.14 (kernel_release "MAJOR.MINOR..."), or unknown: the current encoding. */
static bool raw_states(const struct spoor_reader *r)
{
	const char *rel =
	    spoor_reader_trace_count(r) ? spoor_reader_trace_env(r, 0, "kernel_release") : NULL;
	int major, minor;
	if (!rel || sscanf(rel, "%d.%d", &major, &minor) != 2)
		return false;
	return major < 4 || (major == 4 && minor < 14);
}

/* ---- the hooks ---- */

static bool runnable_state(const struct sched_analysis *a, int64_t s);

/* The interval of task tid on CPU c, counted: told to the slice callback. */
static __attribute__((noinline, cold)) void tell_slice(struct sched_analysis *a,
                                                       const struct sched_cpu *c, int64_t tid,
                                                       int64_t since, int64_t d,
                                                       const int64_t *state)
{
	char buf[16];
	const char *end = !state ? NULL
	                  : runnable_state(a, *state)
	                      ? "R"
	                      : sched_analysis_state_letters(a, *state, buf);
	struct sched_slice s = {c->cpu, tid, since, d, c->known == 1 ? c->wake : -1, end};
	a->slice(a->slice_data, &s);
}

/* The interval [since, ts] on CPU c of task tid ends (state: the switch's prev_state, NULL
 * when unknown or at the end): give it to its task t (NULL: idle), or to nobody when a loss
 * cut it. */
static inline __attribute__((always_inline)) void
close_interval(struct sched_analysis *a, struct sched_cpu *c, struct sched_thread *t, int64_t tid,
               int64_t ts, bool sel, const int64_t *state)
{
	int64_t since = c->since, end;
	if (c->known == 0) /* the first switch here: prev ran since the span's start */
		an_span(a->e, &since, &end);
	int64_t d = ts - since;
	if (d < 0 || !sel)
		return;
	if (c->known == 2)
		sat_add(&c->unknown_ns, d);
	else if (!t)
		sat_add(&c->idle_ns, d);
	else {
		sat_add(&c->busy_ns, d);
		sat_add(&t->cpu_ns, d);
	}
	if (__builtin_expect(a->slice != NULL, 0) && c->known != 2 && (t || tid == 0))
		tell_slice(a, c, t ? t->tid : 0, since, d, state);
}

/* state: the switch's prev_state, NULL when unknown (an inferred switch). */
static void switch_out(struct sched_analysis *a, struct sched_thread *t, const int64_t *state,
                       int64_t ts, int64_t cpu)
{
	t->prev_state = state ? *state : 0;
	t->cpu = cpu;
	if (t->exiting)
		set_state(a, t, SCHED_DEAD, ts, cpu);
	else if (!state)
		set_state(a, t, SCHED_UNKNOWN, ts, cpu);
	else
		set_state(a, t, runnable_state(a, *state) ? SCHED_RUNNABLE : SCHED_BLOCKED, ts,
		          cpu);
}

static inline __attribute__((always_inline)) void
switch_in(struct sched_analysis *a, struct sched_thread *t, int64_t ts, int64_t cpu, bool sel)
{
	if (sel) {
		t->switches++;
		if (t->state == SCHED_RUNNABLE)
			sat_add(&t->wait_ns, ts - t->since);
		else if (t->state == SCHED_BLOCKED) /* its wake-up was not in the trace */
			a->t.unwoken++;
		if (t->wake >= 0) {
			struct sched_wake w = {ts - t->wake, t->wake, ts, t->tid, cpu, t->waker};
			welford_add(&t->latency, (double) w.latency);
			keep_worst(a, t, &w);
		}
	}
	t->wake = -1;
	t->cpu = cpu;
	set_state(a, t, SCHED_RUNNING, ts, cpu);
}

/* On CPU c at ts, prev gives way to next (state: prev's prev_state, NULL: unknown). */
static inline __attribute__((always_inline)) void switch_cpu(struct sched_analysis *a,
                                                             struct sched_cpu *c, int64_t ts,
                                                             int64_t prev, const int64_t *state,
                                                             int64_t next)
{
	bool sel = an_cpu_selected(a->e, c->cpu);
	struct sched_thread *p = thread_of(a, prev);
	close_interval(a, c, p, prev, ts, sel, state);
	if (sel)
		c->switches++;
	if (p)
		switch_out(a, p, state, ts, c->cpu);
	struct sched_thread *n = thread_of(a, next); /* after p's last use: may move it */
	c->wake = n ? n->wake : -1;
	if (n)
		switch_in(a, n, ts, c->cpu, sel);
	c->cur = next;
	c->since = ts;
	c->known = 1;
}

/* A switch from prev to next that the trace lacks, shown at ts (prev's state unknown).
 * Counted unless a loss cut the CPU's interval (the loss may have held it). */
static __attribute__((noinline)) void infer(struct sched_analysis *a, struct sched_cpu *c,
                                            int64_t ts, int64_t prev, int64_t next)
{
	if (c->known != 2 && an_cpu_selected(a->e, c->cpu)) {
		c->inferred++;
		a->t.inferred++;
	}
	switch_cpu(a, c, ts, prev, NULL, next);
}

static void on_switch(void *data, const struct an_event *ev)
{
	struct sched_analysis *a = data;
	int64_t prev, state;
	struct sched_cpu *c = cpu_of(a, ev->cpu);
	if (!c || !kv_int(ev->ev, ev->cls, KS_PREV_TID, &prev) || !ev->has_next_tid)
		return;
	if (!kv_int(ev->ev, ev->cls, KS_PREV_STATE, &state))
		state = 0;
	switch_cpu(a, c, ev->ts, prev, &state, ev->next_tid);
}

/* A switch the events show but the trace lacks (engine.h). */
static void on_inferred(void *data, int64_t cpu, int64_t ts, int64_t prev, int64_t next)
{
	struct sched_analysis *a = data;
	struct sched_cpu *c = cpu_of(a, cpu);
	if (c) /* prev is c->cur, unless no switch was seen there yet */
		infer(a, c, ts, c->known ? c->cur : prev, next);
}

static void on_wakeup(void *data, const struct an_event *ev)
{
	struct sched_analysis *a = data;
	int64_t tid, target;
	if (!kv_int(ev->ev, ev->cls, KS_TID, &tid))
		return;
	struct sched_thread *t = thread_of(a, tid);
	/* a task on a CPU needs no wake-up; later wake-ups of a woken task change nothing */
	if (!t || t->state == SCHED_RUNNING || t->wake >= 0)
		return;
	if (!kv_int(ev->ev, ev->cls, KS_TARGET_CPU, &target))
		target = ev->cpu;
	t->wake = ev->ts;
	t->wake_cpu = target;
	t->waker = ev->tid;
	if (t->state == SCHED_BLOCKED && an_cpu_selected(a->e, ev->cpu))
		sat_add(&t->blocked_ns, ev->ts - t->since);
	if (t->state != SCHED_RUNNABLE)
		set_state(a, t, SCHED_RUNNABLE, ev->ts, ev->cpu);
}

static void on_fork(void *data, const struct an_event *ev)
{
	struct sched_analysis *a = data;
	int64_t child;
	struct sched_thread *t;
	if (kv_int(ev->ev, ev->cls, KS_CHILD_TID, &child) && (t = thread_of(a, child)) &&
	    t->state == SCHED_UNKNOWN)
		set_state(a, t, SCHED_RUNNABLE, ev->ts, ev->cpu); /* new tasks start runnable */
}

static void on_task_exit(void *data, const struct an_event *ev)
{
	struct sched_analysis *a = data;
	int64_t tid;
	struct sched_thread *t;
	if (kv_int(ev->ev, ev->cls, KS_EXIT_TID, &tid) && (t = thread_of(a, tid)))
		t->exiting = true;
}

/* Events lost on `cpu` (-1: somewhere): what ran there, and what may have, is unknown. */
static void on_lost(void *data, int64_t cpu, uint64_t count, int64_t ts)
{
	struct sched_analysis *a = data;
	a->t.lost_events += count;
	for (int64_t k = 0; a->cpus && k < MAX_CPUS; k++) {
		if (!a->cpu_seen[k] || (cpu >= 0 && k != cpu))
			continue;
		a->cpus[k].lost += cpu >= 0 ? count : 0;
		if (a->cpus[k].known == 1)
			a->t.cut_intervals++;
		if (a->cpus[k].known)
			a->cpus[k].known = 2;
	}
	for (size_t i = 0; i < a->nth; i++) {
		struct sched_thread *t = &a->th[i];
		bool there = cpu < 0 || t->cpu == cpu || t->wake_cpu == cpu;
		if (!there || t->state == SCHED_BLOCKED || t->state == SCHED_DEAD)
			continue;
		if (t->wake >= 0) {
			a->t.dropped_wakeups++;
			t->wake = -1;
		}
		set_state(a, t, SCHED_UNKNOWN, ts, cpu); /* the timeline shows it, at the loss */
	}
}

struct sched_analysis *sched_analysis_new(struct an_engine *e, size_t worst)
{
	struct sched_analysis *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->e = e;
	a->by_tid.runs = true;     /* every look-up finds its tid, or makes it */
	an_engine_want_threads(e); /* tasks are shown by name */
	an_engine_want_tasks(e);   /* a switch the trace lacks ends a wake-up's latency */
	a->maxworst = worst;
	a->by_task = an_selects_tasks(e);
	a->by_name = an_selects_by_name(e);
	a->raw_states = raw_states(an_reader(e));
	if ((worst && !(a->worst = calloc(worst, sizeof(*a->worst)))) ||
	    an_engine_on(e, KEV_SCHED_SWITCH, on_switch, a) ||
	    an_engine_on(e, KEV_SCHED_WAKING, on_wakeup, a) ||
	    an_engine_on(e, KEV_SCHED_WAKEUP, on_wakeup, a) ||
	    an_engine_on(e, KEV_PROCESS_FORK, on_fork, a) ||
	    an_engine_on(e, KEV_PROCESS_EXIT, on_task_exit, a)) {
		sched_analysis_free(a);
		return NULL;
	}
	an_engine_on_lost(e, on_lost, a);
	an_engine_on_inferred(e, on_inferred, a);
	return a;
}

void sched_analysis_free(struct sched_analysis *a)
{
	if (!a)
		return;
	free(a->th);
	idmap_free(&a->by_tid);
	free(a->cpus);
	free(a->cpu_seen);
	free(a->worst);
	for (size_t i = 0; i < a->capthworst; i++)
		free(a->thworst[i].v);
	free(a->thworst);
	free(a->rth);
	free(a->procs);
	free(a->rcpus);
	free(a);
}

void sched_analysis_on_change(struct sched_analysis *a, sched_change_fn fn, void *data)
{
	a->change = fn;
	a->change_data = data;
}

void sched_analysis_on_slice(struct sched_analysis *a, sched_slice_fn fn, void *data)
{
	a->slice = fn;
	a->slice_data = data;
}

int64_t sched_analysis_open_since(const struct sched_analysis *a)
{
	int64_t since = INT64_MAX, begin, end;
	for (int64_t k = 0; a->cpus && k < MAX_CPUS; k++) {
		const struct sched_cpu *c = &a->cpus[k];
		if (!a->cpu_seen[k] || c->known == 2) /* a cut interval is told to nobody */
			continue;
		if (c->known == 0) /* its first switch gives the span's start to a task */
			an_span(a->e, &begin, &end);
		int64_t s = c->known == 0 ? begin : c->since;
		since = s < since ? s : since;
	}
	return since;
}

const struct sched_totals *sched_analysis_totals(const struct sched_analysis *a)
{
	return &a->t;
}

const char *sched_analysis_state_letters(const struct sched_analysis *a, int64_t s, char buf[16])
{
	const char *letters = a->raw_states ? "SDTtXZxKWPN" : "SDTtXZPI";
	int64_t known = ((int64_t) 1 << strlen(letters)) - 1;
	size_t n = 0;
	for (int b = 0; letters[b]; b++)
		if (s & ((int64_t) 1 << b))
			buf[n++] = letters[b];
	buf[n] = '\0';
	if (s & ~known) /* the preempted flag, or bits this table does not know */
		snprintf(buf + n, 16 - n, "%s%#llx", n ? "|" : "",
		         (unsigned long long) (s & ~known));
	if (!s)
		strcpy(buf, "R");
	return buf;
}

/* ---- the reports ---- */

void sched_analysis_finish(struct sched_analysis *a)
{
	int64_t begin, end;
	if (a->finished)
		return;
	a->finished = true;
	an_span(a->e, &begin, &end);
	for (int64_t k = 0; a->cpus && k < MAX_CPUS; k++) /* what runs at the end runs to it */
		if (a->cpu_seen[k] && a->cpus[k].known)
			close_interval(a, &a->cpus[k], thread_of(a, a->cpus[k].cur), a->cpus[k].cur,
			               end, an_cpu_selected(a->e, k), NULL);
	for (size_t i = 0; i < a->nth; i++) {
		struct sched_thread *t = &a->th[i];
		bool sel = t->cpu < 0 || an_cpu_selected(a->e, t->cpu);
		if (t->state == SCHED_RUNNABLE && sel)
			sat_add(&t->wait_ns, end - t->since);
		else if (t->state == SCHED_BLOCKED && sel)
			sat_add(&t->blocked_ns, end - t->since);
		if (t->wake >= 0)
			a->t.pending_wakeups++;
	}
}

static int by_cpu_time(const void *x, const void *y)
{
	const struct sched_thread *a = x, *b = y;
	if (a->cpu_ns != b->cpu_ns)
		return a->cpu_ns > b->cpu_ns ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

size_t sched_analysis_threads(struct sched_analysis *a, const struct sched_thread **out)
{
	sched_analysis_finish(a);
	if (!a->rth) {
		a->rth = malloc((a->nth + 1) * sizeof(*a->rth));
		for (size_t i = 0; a->rth && i < a->nth; i++)
			if (an_task_selected(a->e, a->th[i].tid))
				a->rth[a->nrth++] = a->th[i];
		if (a->nrth > 1)
			qsort(a->rth, a->nrth, sizeof(*a->rth), by_cpu_time);
	}
	*out = a->rth;
	return a->nrth;
}

static int by_pid(const void *x, const void *y)
{
	const struct sched_proc *a = x, *b = y;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

static int by_proc_time(const void *x, const void *y)
{
	const struct sched_proc *a = x, *b = y;
	if (a->cpu_ns != b->cpu_ns)
		return a->cpu_ns > b->cpu_ns ? -1 : 1;
	return by_pid(x, y);
}

size_t sched_analysis_procs(struct sched_analysis *a, const struct sched_proc **out)
{
	const struct sched_thread *t;
	size_t n = sched_analysis_threads(a, &t);
	if (!a->procs && (a->procs = malloc((n + 1) * sizeof(*a->procs)))) {
		/* one line per thread with its pid, sorted, then the runs of one pid merged */
		for (size_t i = 0; i < n; i++)
			a->procs[i] = (struct sched_proc){an_task_pid(a->e, t[i].tid),
			                                  1,
			                                  t[i].switches,
			                                  t[i].cpu_ns,
			                                  t[i].wait_ns,
			                                  t[i].blocked_ns,
			                                  t[i].latency};
		qsort(a->procs, n, sizeof(*a->procs), by_pid);
		size_t m = 0;
		for (size_t i = 0; i < n; i++) {
			struct sched_proc *p =
			    &a->procs[m - (m && a->procs[m - 1].pid == a->procs[i].pid)];
			if (p == &a->procs[m]) {
				a->procs[m++] = a->procs[i];
				continue;
			}
			p->threads++;
			p->switches += a->procs[i].switches;
			sat_add(&p->cpu_ns, a->procs[i].cpu_ns);
			sat_add(&p->wait_ns, a->procs[i].wait_ns);
			sat_add(&p->blocked_ns, a->procs[i].blocked_ns);
			welford_combine(&p->latency, &a->procs[i].latency);
		}
		qsort(a->procs, m, sizeof(*a->procs), by_proc_time);
		a->nprocs = m;
	}
	*out = a->procs;
	return a->nprocs;
}

size_t sched_analysis_cpus(struct sched_analysis *a, const struct sched_cpu **out)
{
	sched_analysis_finish(a);
	if (!a->rcpus && a->cpus && (a->rcpus = malloc(MAX_CPUS * sizeof(*a->rcpus))))
		for (int64_t k = 0; k < MAX_CPUS; k++)
			if (a->cpu_seen[k] && an_cpu_selected(a->e, k))
				a->rcpus[a->nrcpus++] = a->cpus[k];
	*out = a->rcpus;
	return a->nrcpus;
}

static int by_latency(const void *x, const void *y)
{
	const struct sched_wake *a = x, *b = y;
	if (a->latency != b->latency)
		return a->latency > b->latency ? -1 : 1;
	return a->run < b->run ? -1 : a->run > b->run;
}

size_t sched_analysis_worst(struct sched_analysis *a, const struct sched_wake **out)
{
	sched_analysis_finish(a);
	/* by name: the N worst of the threads the tables list */
	for (size_t i = 0; a->maxworst && i < a->capthworst; i++)
		for (size_t k = 0; k < a->thworst[i].n; k++)
			if (an_task_selected(a->e, a->thworst[i].v[k].tid))
				heap_keep(a->worst, &a->nworst, a->maxworst, &a->thworst[i].v[k]);
	if (a->nworst > 1)
		qsort(a->worst, a->nworst, sizeof(*a->worst), by_latency);
	a->maxworst = 0; /* no longer a heap */
	*out = a->worst;
	return a->nworst;
}
