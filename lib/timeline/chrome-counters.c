/* SPDX-License-Identifier: MIT */
/*
 * chrome-counters.c: the export's counters, in 1 ms bins, each written when its bin is
 * over and only when its value changed (a counter holds its value until the next sample):
 * events per ms of each event class, and each CPU's busy time in % of the ms. Events come
 * in time order, and each CPU row's spans in time order, so a bin is over when the next
 * one starts: the state is one bin per class and per CPU.
 */
#include <stdio.h>
#include <string.h>

#include "chrome-int.h"
#include "spoor/trace.h"

/* One sample of the class's rate counter: "NAME events/ms" in Perfetto. */
static void rate_sample(struct tl_chrome *c, size_t k, int64_t bin)
{
	struct ch_class *cl = &c->classes[k];
	const char *name = spoor_event_class_name(spoor_reader_event_class(an_reader(c->e), k));
	if (!tef_event(&c->t, 'C', TL_CHROME_RATE_PID, TL_CHROME_RATE_PID, bin * MS))
		return;
	tef_str(&c->t, "name", name, strlen(name));
	tef_object(&c->t, "args");
	tef_int(&c->t, "events/ms", cl->count);
	tef_close(&c->t);
	tef_close(&c->t);
	cl->shown = cl->count;
	c->rates_written = true;
}

/* The bin is over: the classes that changed, then the next bin's set of non-zero ones. */
static void rate_flush(struct tl_chrome *c, int64_t bin)
{
	for (size_t i = 0; i < c->nnonzero; i++) {
		struct ch_class *cl = &c->classes[c->nonzero[i]];
		if (!cl->count)
			rate_sample(c, c->nonzero[i], bin); /* back to 0 */
	}
	for (size_t i = 0; i < c->ntouched; i++)
		if (c->classes[c->touched[i]].count != c->classes[c->touched[i]].shown)
			rate_sample(c, c->touched[i], bin);
	for (size_t i = 0; i < c->ntouched; i++)
		c->classes[c->touched[i]].count = 0;
	size_t *swap = c->nonzero;
	c->nonzero = c->touched;
	c->nnonzero = c->ntouched;
	c->touched = swap;
	c->ntouched = 0;
}

void ch_rate_event(struct tl_chrome *c, size_t k, int64_t t)
{
	int64_t bin = t / MS;
	if (bin != c->rate_bin) {
		if (c->rate_bin >= 0) {
			rate_flush(c, c->rate_bin);
			if (bin > c->rate_bin + 1) /* bins without events between: 0 */
				rate_flush(c, c->rate_bin + 1);
		}
		c->rate_bin = bin;
	}
	if (!c->classes[k].count++)
		c->touched[c->ntouched++] = k;
}

/* The CPU's busy counter at bin's start, unless it says that already. */
static void busy_sample(struct tl_chrome *c, int64_t cpu, int64_t bin, int64_t busy)
{
	struct ch_cpu *u = &c->cpus[cpu];
	if (busy == u->shown)
		return;
	u->shown = busy;
	char name[32];
	int n = snprintf(name, sizeof(name), "cpu%lld busy", (long long) cpu);
	if (!tef_event(&c->t, 'C', TL_CHROME_CPU_PID, ch_cpu_tid(cpu), bin * MS))
		return;
	tef_str(&c->t, "name", name, (size_t) n);
	tef_object(&c->t, "args");
	tef_decimal(&c->t, "%", busy, 4); /* ns of 1 ms in % */
	tef_close(&c->t);
	tef_close(&c->t);
}

void ch_busy_span(struct tl_chrome *c, int64_t cpu, int64_t begin, int64_t end, bool busy)
{
	struct ch_cpu *u = &c->cpus[cpu];
	while (begin < end) {
		int64_t bin = begin / MS, bin_end = (bin + 1) * MS;
		if (bin != u->bin) {
			if (u->bin >= 0)
				busy_sample(c, cpu, u->bin, u->busy);
			u->bin = bin;
			u->busy = 0;
		}
		if (end < bin_end + MS) { /* ends in this bin or the next */
			int64_t to = end < bin_end ? end : bin_end;
			u->busy += busy ? to - begin : 0;
			begin = to;
			continue;
		}
		/* whole bins: one sample for all of them */
		u->busy += busy ? bin_end - begin : 0;
		busy_sample(c, cpu, bin, u->busy);
		busy_sample(c, cpu, bin + 1, busy ? MS : 0);
		u->bin = end / MS;
		u->busy = 0;
		begin = u->bin * MS;
	}
}

void ch_counters_finish(struct tl_chrome *c)
{
	if (c->rate_bin >= 0)
		rate_flush(c, c->rate_bin);
	for (size_t i = 0; i < c->ncpus; i++)
		if (c->cpus[i].seen && c->cpus[i].bin >= 0)
			busy_sample(c, (int64_t) i, c->cpus[i].bin, c->cpus[i].busy);
}
