/* SPDX-License-Identifier: MIT */
/*
 * irq.h: `spoor irq`, LTTV's interrupt view: per CPU and hard IRQ, and per CPU and softirq
 * vector, the handler runs (entry to exit): count, frequency over the span, total, mean,
 * standard deviation, min and max duration; the period between successive entries (mean,
 * standard deviation) and the frequency's standard deviation (of 1/period); a duration
 * histogram. One pass (Welford), nothing kept per interrupt.
 *
 * Pairing: per CPU, a stack of hard IRQs and one of softirqs (a hard IRQ can interrupt a
 * softirq). An exit without its entry (before the trace, or lost) is counted as unmatched;
 * an entry without its exit at the end of the trace as unfinished; events lost on a CPU
 * drop the runs in progress there and restart its periods (counted as broken), so a loss
 * never makes a long run or a long period out of two halves.
 *
 * Filters: --cpu keeps the CPUs asked for; the task filters (pid, tid, name) keep the runs
 * whose entry interrupted a selected task (the task then current on that CPU). Lines are
 * found through a hash table on (kind, CPU, number): O(1) per event whatever the machine.
 */
#ifndef ANALYSIS_IRQ_H
#define ANALYSIS_IRQ_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "welford.h"

#define IRQ_HIST_BUCKETS 32 /* log2 of the duration in ns */

struct irq_line {
	bool soft;
	int64_t cpu, irq;        /* cpu -1: all CPUs; irq: the IRQ number or softirq vector */
	char name[32];           /* the handler's name (hard), or the vector's (soft) */
	struct welford duration; /* ns */
	struct welford period;   /* ns between successive entries */
	struct welford freq;     /* Hz, 1 / period */
	uint64_t hist[IRQ_HIST_BUCKETS];
	int64_t last_entry; /* -1: none since the start or a loss */
};

struct irq_totals {
	uint64_t unmatched, unfinished, broken;
};

struct irq_analysis;

/* One handler run, as it is counted (irq_analysis_on_run): where, which, its entry time and
 * duration (ns), the task it interrupted (the CPU's at the entry, -1 unknown). */
struct irq_run {
	bool soft;
	int64_t cpu, irq, ts, dur, tid;
	const char *name; /* the line's: the handler's (hard) or the vector's (soft) */
};
typedef void (*irq_run_fn)(void *data, const struct irq_run *r);

/* Hooks itself to the engine; run the engine, then read the lines. */
struct irq_analysis *irq_analysis_new(struct an_engine *e);
void irq_analysis_free(struct irq_analysis *a);
/* Before the run: one line per IRQ and per vector for all CPUs together (cpu -1), as
 * lttng-irqstats shows them: durations merged exactly, periods between entries on any CPU. */
void irq_analysis_all_cpus(struct irq_analysis *a);
/* Call fn at each run counted, at its exit (SQL's irqs table). */
void irq_analysis_on_run(struct irq_analysis *a, irq_run_fn fn, void *data);
/* The earliest start (ns) of the runs still open, INT64_MAX for none: a row told from now
 * on begins there or later (at the current event's time, for runs not begun yet). */
int64_t irq_analysis_open_since(const struct irq_analysis *a);
/* The lines, sorted by kind (hard first), CPU, number; totals. Call after the run. */
size_t irq_analysis_lines(struct irq_analysis *a, const struct irq_line **lines);
const struct irq_totals *irq_analysis_totals(const struct irq_analysis *a);
/* Whether memory ran out during the run (some runs were not counted). */
bool irq_analysis_oom(const struct irq_analysis *a);
const char *irq_softirq_name(int64_t vec);

#endif
