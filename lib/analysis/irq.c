/* SPDX-License-Identifier: MIT */
/* irq.c: interrupt statistics (see irq.h). */
#include <stdlib.h>
#include <string.h>

#include "irq.h"

#define MAX_DEPTH   8
#define MAX_CPUS    4096
#define NOT_COUNTED SIZE_MAX /* a run whose entry the task filter left out */

struct running {
	int64_t irq, start, tid;
	size_t line;
};

struct cpu_state {
	struct running hard[MAX_DEPTH], soft[MAX_DEPTH];
	int nhard, nsoft;
};

struct irq_analysis {
	struct an_engine *e;
	struct irq_line *lines;
	size_t n, cap;
	struct cpu_state *cpus; /* MAX_CPUS, allocated on first use */
	struct irq_totals t;
	bool oom, all_cpus, finished;
	irq_run_fn on_run;
	void *on_run_data;
	uint32_t *slots; /* open addressing: (soft, cpu, irq) -> line + 1, 0 empty */
	size_t nslots;   /* a power of two, at most half full */
};

const char *irq_softirq_name(int64_t vec)
{
	static const char *const names[] = {"HI",       "TIMER",   "NET_TX", "NET_RX",  "BLOCK",
	                                    "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU"};
	return vec >= 0 && vec < 10 ? names[vec] : "?";
}

static size_t hash_key(bool soft, int64_t cpu, int64_t irq)
{
	uint64_t k = ((uint64_t) irq * 0x9e3779b97f4a7c15ull) ^ ((uint64_t) cpu << 1) ^ soft;
	k *= 0xff51afd7ed558ccdull;
	return (size_t) (k ^ (k >> 32));
}

static bool same(const struct irq_line *l, bool soft, int64_t cpu, int64_t irq)
{
	return l->irq == irq && l->cpu == cpu && l->soft == soft;
}

/* Rebuild the table twice as big: lines only ever get added, so this is amortised O(1). */
static bool grow_slots(struct irq_analysis *a)
{
	size_t n = a->nslots ? 2 * a->nslots : 256;
	uint32_t *s = calloc(n, sizeof(*s));
	if (!s)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct irq_line *l = &a->lines[i];
		size_t h = hash_key(l->soft, l->cpu, l->irq) & (n - 1);
		while (s[h])
			h = (h + 1) & (n - 1);
		s[h] = (uint32_t) (i + 1);
	}
	free(a->slots);
	a->slots = s;
	a->nslots = n;
	return true;
}

static bool add_line(struct irq_analysis *a, bool soft, int64_t cpu, int64_t irq)
{
	if ((a->n + 1) * 2 > a->nslots && !grow_slots(a))
		return false;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 32;
		struct irq_line *v = realloc(a->lines, cap * sizeof(*v));
		if (!v)
			return false;
		a->lines = v;
		a->cap = cap;
	}
	struct irq_line *l = &a->lines[a->n++];
	*l = (struct irq_line){.soft = soft, .cpu = cpu, .irq = irq, .last_entry = -1};
	if (soft)
		strcpy(l->name, irq_softirq_name(irq));
	size_t h = hash_key(soft, cpu, irq) & (a->nslots - 1);
	while (a->slots[h])
		h = (h + 1) & (a->nslots - 1);
	a->slots[h] = (uint32_t) a->n;
	return true;
}

/* The line of (soft, cpu, irq), made on first use; its index, or NOT_COUNTED (memory). */
static size_t line_of(struct irq_analysis *a, bool soft, int64_t cpu, int64_t irq)
{
	if (a->nslots) {
		size_t h = hash_key(soft, cpu, irq) & (a->nslots - 1);
		for (uint32_t s; (s = a->slots[h]); h = (h + 1) & (a->nslots - 1))
			if (same(&a->lines[s - 1], soft, cpu, irq))
				return s - 1;
	}
	if (!add_line(a, soft, cpu, irq)) {
		a->oom = true;
		return NOT_COUNTED;
	}
	return a->n - 1;
}

static struct cpu_state *cpu_of(struct irq_analysis *a, int64_t cpu)
{
	if (cpu < 0 || cpu >= MAX_CPUS)
		return NULL;
	if (!a->cpus && !(a->cpus = calloc(MAX_CPUS, sizeof(*a->cpus)))) {
		a->oom = true;
		return NULL;
	}
	return &a->cpus[cpu];
}

static unsigned log2_bucket(int64_t ns)
{
	unsigned b = 0;
	while (ns > 1 && b + 1 < IRQ_HIST_BUCKETS) {
		ns >>= 1;
		b++;
	}
	return b;
}

static void add_period(struct irq_line *l, int64_t ts)
{
	if (l->last_entry >= 0 && ts > l->last_entry) {
		double p = (double) (ts - l->last_entry);
		welford_add(&l->period, p);
		welford_add(&l->freq, 1e9 / p);
	}
	l->last_entry = ts;
}

static void set_name(struct irq_line *l, const struct an_event *ev)
{
	const char *s;
	size_t len;
	if (l->soft || l->name[0] || !kv_str(ev->ev, ev->cls, KS_IRQ_NAME, &s, &len))
		return;
	if (len >= sizeof(l->name))
		len = sizeof(l->name) - 1;
	memcpy(l->name, s, len);
	l->name[len] = '\0';
}

/* The line an entry counts in, its periods updated; NOT_COUNTED if filtered out. */
static size_t count_entry(struct irq_analysis *a, const struct an_event *ev, bool soft, int64_t irq)
{
	if (!an_task_selected(a->e, ev->tid))
		return NOT_COUNTED;
	size_t li = line_of(a, soft, ev->cpu, irq);
	if (li == NOT_COUNTED)
		return li;
	set_name(&a->lines[li], ev);
	add_period(&a->lines[li], ev->ts);
	if (a->all_cpus) { /* the periods between entries on any CPU */
		size_t ai = line_of(a, soft, -1, irq);
		if (ai != NOT_COUNTED)
			add_period(&a->lines[ai], ev->ts);
	}
	return li;
}

static void entry(struct irq_analysis *a, const struct an_event *ev, bool soft, int slot)
{
	int64_t irq;
	struct cpu_state *c = cpu_of(a, ev->cpu);
	if (!c || !an_cpu_selected(a->e, ev->cpu) || !kv_int(ev->ev, ev->cls, slot, &irq))
		return;
	size_t li = count_entry(a, ev, soft, irq);
	struct running *st = soft ? c->soft : c->hard;
	int *n = soft ? &c->nsoft : &c->nhard;
	if (*n == MAX_DEPTH) { /* deeper than any kernel nests: the oldest is lost */
		memmove(st, st + 1, (MAX_DEPTH - 1) * sizeof(*st));
		(*n)--;
		a->t.broken++;
	}
	st[(*n)++] = (struct running){irq, ev->ts, ev->tid, li};
}

static void leave(struct irq_analysis *a, const struct an_event *ev, bool soft, int slot)
{
	int64_t irq;
	struct cpu_state *c = cpu_of(a, ev->cpu);
	if (!c || !an_cpu_selected(a->e, ev->cpu) || !kv_int(ev->ev, ev->cls, slot, &irq))
		return;
	struct running *st = soft ? c->soft : c->hard;
	int *n = soft ? &c->nsoft : &c->nhard;
	int k = *n - 1;
	while (k >= 0 && st[k].irq != irq)
		k--;
	if (k < 0) {
		a->t.unmatched++;
		return;
	}
	a->t.broken += (uint64_t) (*n - 1 - k); /* entries above it never exited */
	int64_t d = ev->ts - st[k].start;
	if (st[k].line != NOT_COUNTED && d >= 0) {
		struct irq_line *l = &a->lines[st[k].line];
		welford_add(&l->duration, (double) d);
		l->hist[log2_bucket(d)]++;
		if (__builtin_expect(a->on_run != NULL, 0)) {
			struct irq_run r = {soft, ev->cpu, irq, st[k].start, d, st[k].tid, l->name};
			a->on_run(a->on_run_data, &r);
		}
	}
	*n = k;
}

static void on_irq_entry(void *data, const struct an_event *ev)
{
	entry(data, ev, false, KS_IRQ);
}

static void on_irq_exit(void *data, const struct an_event *ev)
{
	leave(data, ev, false, KS_IRQ);
}

static void on_soft_entry(void *data, const struct an_event *ev)
{
	entry(data, ev, true, KS_VEC);
}

static void on_soft_exit(void *data, const struct an_event *ev)
{
	leave(data, ev, true, KS_VEC);
}

static void on_lost(void *data, int64_t cpu, uint64_t count, int64_t ts)
{
	struct irq_analysis *a = data;
	(void) count;
	(void) ts;
	for (int64_t k = 0; a->cpus && k < MAX_CPUS; k++) {
		if (cpu >= 0 && k != cpu)
			continue;
		struct cpu_state *s = &a->cpus[k];
		a->t.broken += (uint64_t) (s->nhard + s->nsoft);
		s->nhard = s->nsoft = 0;
	}
	/* periods restart on that CPU, and on all-CPU lines (a lost entry shortens none) */
	for (size_t i = 0; i < a->n; i++)
		if (cpu < 0 || a->lines[i].cpu == cpu || a->lines[i].cpu < 0)
			a->lines[i].last_entry = -1;
}

struct irq_analysis *irq_analysis_new(struct an_engine *e)
{
	struct irq_analysis *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->e = e;
	if (an_engine_on(e, KEV_IRQ_ENTRY, on_irq_entry, a) ||
	    an_engine_on(e, KEV_IRQ_EXIT, on_irq_exit, a) ||
	    an_engine_on(e, KEV_SOFTIRQ_ENTRY, on_soft_entry, a) ||
	    an_engine_on(e, KEV_SOFTIRQ_EXIT, on_soft_exit, a)) {
		free(a);
		return NULL;
	}
	an_engine_on_lost(e, on_lost, a);
	return a;
}

void irq_analysis_all_cpus(struct irq_analysis *a)
{
	a->all_cpus = true;
}

void irq_analysis_on_run(struct irq_analysis *a, irq_run_fn fn, void *data)
{
	a->on_run = fn;
	a->on_run_data = data;
}

int64_t irq_analysis_open_since(const struct irq_analysis *a)
{
	int64_t since = INT64_MAX;
	for (int64_t k = 0; a->cpus && k < MAX_CPUS; k++) {
		const struct cpu_state *s = &a->cpus[k];
		for (int i = 0; i < s->nhard; i++)
			since = s->hard[i].start < since ? s->hard[i].start : since;
		for (int i = 0; i < s->nsoft; i++)
			since = s->soft[i].start < since ? s->soft[i].start : since;
	}
	return since;
}

void irq_analysis_free(struct irq_analysis *a)
{
	if (!a)
		return;
	free(a->lines);
	free(a->cpus);
	free(a->slots);
	free(a);
}

/* Fold each CPU's durations into its all-CPU line, then keep only those. */
static void merge_cpus(struct irq_analysis *a)
{
	for (size_t i = 0; i < a->n; i++) {
		struct irq_line *l = &a->lines[i];
		if (l->cpu < 0)
			continue;
		size_t ai = line_of(a, l->soft, -1, l->irq);
		if (ai == NOT_COUNTED)
			continue;
		l = &a->lines[i]; /* line_of may have moved the table */
		struct irq_line *all = &a->lines[ai];
		welford_combine(&all->duration, &l->duration);
		for (int b = 0; b < IRQ_HIST_BUCKETS; b++)
			all->hist[b] += l->hist[b];
		if (!all->name[0])
			memcpy(all->name, l->name, sizeof(all->name));
	}
	size_t k = 0;
	for (size_t i = 0; i < a->n; i++)
		if (a->lines[i].cpu < 0)
			a->lines[k++] = a->lines[i];
	a->n = k;
}

static int line_cmp(const void *x, const void *y)
{
	const struct irq_line *a = x, *b = y;
	if (a->soft != b->soft)
		return a->soft ? 1 : -1;
	if (a->cpu != b->cpu)
		return a->cpu < b->cpu ? -1 : 1;
	return a->irq < b->irq ? -1 : a->irq > b->irq;
}

size_t irq_analysis_lines(struct irq_analysis *a, const struct irq_line **lines)
{
	if (!a->finished) {
		/* runs still open at the end never finished */
		for (int64_t k = 0; a->cpus && k < MAX_CPUS; k++) {
			struct cpu_state *s = &a->cpus[k];
			a->t.unfinished += (uint64_t) (s->nhard + s->nsoft);
			s->nhard = s->nsoft = 0;
		}
		if (a->all_cpus)
			merge_cpus(a);
		if (a->n > 1)
			qsort(a->lines, a->n, sizeof(*a->lines), line_cmp);
		free(a->slots); /* the indices no longer hold */
		a->slots = NULL;
		a->nslots = 0;
		a->finished = true;
	}
	*lines = a->lines;
	return a->n;
}

const struct irq_totals *irq_analysis_totals(const struct irq_analysis *a)
{
	return &a->t;
}

bool irq_analysis_oom(const struct irq_analysis *a)
{
	return a->oom;
}
