/* SPDX-License-Identifier: MIT */
/* irq.c: interrupt statistics (see irq.h). */
#include <stdlib.h>
#include <string.h>

#include "irq.h"

#define MAX_DEPTH 8
#define MAX_CPUS  4096

struct running {
	int64_t irq, start;
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
	bool oom;
	uint32_t *map; /* (soft, cpu < MAP_CPUS, irq < MAP_IRQS) -> line + 1 */
};

#define MAP_CPUS 64
#define MAP_IRQS 256

const char *irq_softirq_name(int64_t vec)
{
	static const char *const names[] = {"HI",       "TIMER",   "NET_TX", "NET_RX",  "BLOCK",
	                                    "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU"};
	return vec >= 0 && vec < 10 ? names[vec] : "?";
}

static struct irq_line *line_of(struct irq_analysis *a, bool soft, int64_t cpu, int64_t irq,
                                size_t *index)
{
	/* the common case, small CPU and IRQ numbers, in one look-up */
	uint32_t *slot = NULL;
	if (cpu < MAP_CPUS && irq >= 0 && irq < MAP_IRQS) {
		if (!a->map && !(a->map = calloc(2 * MAP_CPUS * MAP_IRQS, sizeof(*a->map)))) {
			a->oom = true;
			return NULL;
		}
		slot = &a->map[((size_t) soft * MAP_CPUS + (size_t) cpu) * MAP_IRQS + (size_t) irq];
		if (*slot) {
			*index = *slot - 1;
			return &a->lines[*index];
		}
	}
	for (size_t i = 0; i < a->n; i++)
		if (a->lines[i].soft == soft && a->lines[i].cpu == cpu && a->lines[i].irq == irq) {
			*index = i;
			return &a->lines[i];
		}
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 32;
		struct irq_line *v = realloc(a->lines, cap * sizeof(*v));
		if (!v) {
			a->oom = true;
			return NULL;
		}
		a->lines = v;
		a->cap = cap;
	}
	struct irq_line *l = &a->lines[a->n];
	*l = (struct irq_line){.soft = soft, .cpu = cpu, .irq = irq, .last_entry = -1};
	if (soft)
		strcpy(l->name, irq_softirq_name(irq));
	*index = a->n++;
	if (slot)
		*slot = (uint32_t) a->n;
	return l;
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

static void entry(struct irq_analysis *a, const struct an_event *ev, bool soft, int slot)
{
	int64_t irq;
	struct cpu_state *c = cpu_of(a, ev->cpu);
	if (!c || !an_cpu_selected(a->e, ev->cpu) || !kv_int(ev->ev, ev->cls, slot, &irq))
		return;
	size_t li;
	struct irq_line *l = line_of(a, soft, ev->cpu, irq, &li);
	if (!l)
		return;
	if (!soft && !l->name[0]) {
		const char *s;
		size_t len;
		if (kv_str(ev->ev, ev->cls, KS_IRQ_NAME, &s, &len)) {
			if (len >= sizeof(l->name))
				len = sizeof(l->name) - 1;
			memcpy(l->name, s, len);
			l->name[len] = '\0';
		}
	}
	if (l->last_entry >= 0 && ev->ts > l->last_entry) {
		double p = (double) (ev->ts - l->last_entry);
		welford_add(&l->period, p);
		welford_add(&l->freq, 1e9 / p);
	}
	l->last_entry = ev->ts;
	struct running *st = soft ? c->soft : c->hard;
	int *n = soft ? &c->nsoft : &c->nhard;
	if (*n == MAX_DEPTH) { /* deeper than any kernel nests: the oldest is lost */
		memmove(st, st + 1, (MAX_DEPTH - 1) * sizeof(*st));
		(*n)--;
		a->t.broken++;
	}
	st[(*n)++] = (struct running){irq, ev->ts, li};
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
	struct irq_line *l = &a->lines[st[k].line];
	int64_t d = ev->ts - st[k].start;
	if (d >= 0) {
		welford_add(&l->duration, (double) d);
		l->hist[log2_bucket(d)]++;
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
	for (size_t i = 0; i < a->n; i++)
		if (cpu < 0 || a->lines[i].cpu == cpu)
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

void irq_analysis_free(struct irq_analysis *a)
{
	if (!a)
		return;
	free(a->lines);
	free(a->cpus);
	free(a->map);
	free(a);
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
	/* runs still open at the end never finished */
	for (int64_t k = 0; a->cpus && k < MAX_CPUS; k++) {
		struct cpu_state *s = &a->cpus[k];
		a->t.unfinished += (uint64_t) (s->nhard + s->nsoft);
		s->nhard = s->nsoft = 0;
	}
	if (a->n > 1)
		qsort(a->lines, a->n, sizeof(*a->lines), line_cmp);
	free(a->map); /* the indices no longer hold */
	a->map = NULL;
	*lines = a->lines;
	return a->n;
}

const struct irq_totals *irq_analysis_totals(const struct irq_analysis *a)
{
	return &a->t;
}
