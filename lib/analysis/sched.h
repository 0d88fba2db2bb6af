/* SPDX-License-Identifier: MIT */
/*
 * sched.h: `spoor sched`: where each thread's time went, from sched_switch and the wake-ups.
 *
 * Per thread: CPU time (on-CPU intervals between switches), switch-ins, wake-up latency
 * (the first sched_waking / sched_wakeup / sched_wakeup_new since the thread last ran, to
 * its switch-in: the same start as lttng-schedstats and ftrace's wakeup tracer; a wake-up of
 * a thread that is on a CPU is ignored), time runnable but waiting (preempted or woken,
 * until switch-in) and time blocked (switched out asleep, until the wake-up). Per CPU:
 * busy and idle (tid 0) time. The N worst latencies with their timestamps.
 *
 * A switch missing from the trace (some kernels leave out those from the idle task) is
 * inferred at the first event of the task that then runs (engine.h): counted, and taken as a
 * switch whose prev_state is unknown.
 *
 * The interval before a CPU's first switch belongs to that switch's prev_tid from the span's
 * start, and the running task's runs to the span's end. Events lost on a CPU make its
 * current interval unknown (counted apart, never given to a task), and drop the pending
 * wake-ups aimed at it and what was known of the tasks last there.
 */
#ifndef ANALYSIS_SCHED_H
#define ANALYSIS_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "welford.h"

enum sched_state {
	SCHED_UNKNOWN,
	SCHED_RUNNING,
	SCHED_RUNNABLE, /* preempted, yielded, woken or new: waiting for a CPU */
	SCHED_BLOCKED,  /* switched out asleep (prev_state S, D, ...) */
	SCHED_DEAD      /* switched out after sched_process_exit */
};

struct sched_thread {
	int64_t tid;
	uint64_t switches;                   /* switch-ins on the selected CPUs */
	int64_t cpu_ns, wait_ns, blocked_ns; /* see the file comment */
	struct welford latency;              /* ns */
	/* the pass's state */
	uint8_t state;
	int64_t since, cpu;     /* since: the state's start; cpu: where it runs or ran last */
	int64_t prev_state;     /* the switch-out's prev_state, for the timeline */
	int64_t wake, wake_cpu; /* the pending wake-up (-1: none) and its target CPU */
	int64_t waker;
	bool exiting;
};

struct sched_proc {
	int64_t pid;
	uint64_t threads, switches;
	int64_t cpu_ns, wait_ns, blocked_ns;
	struct welford latency;
};

struct sched_cpu {
	int64_t cpu;
	uint64_t switches, lost;
	uint64_t inferred; /* of the switches: missing from the trace, shown by its events */
	int64_t busy_ns, idle_ns, unknown_ns;
	/* the pass's state */
	int64_t cur, since; /* the task on it since `since` */
	int64_t wake;       /* the wake-up that ended with cur's switch-in (-1: none) */
	uint8_t known;      /* 0: no switch yet, 1: known, 2: cut by a loss */
};

struct sched_wake {
	int64_t latency, wake, run; /* ns */
	int64_t tid, cpu, waker;    /* cpu: where it ran */
};

struct sched_totals {
	uint64_t lost_events, cut_intervals, dropped_wakeups, pending_wakeups;
	uint64_t unwoken;  /* switch-ins of blocked threads without a wake-up seen */
	uint64_t inferred; /* switches missing from the trace, shown by its events (engine.h) */
};

/* One state change, for the timeline (in time order, during the run). */
struct sched_change {
	int64_t ts, tid, cpu;
	enum sched_state from, to;
	int64_t prev_state; /* to == SCHED_BLOCKED: the switch's prev_state */
};
typedef void (*sched_change_fn)(void *data, const struct sched_change *c);

/* A task's interval on a CPU, as it is counted in its CPU time (idle: tid 0), at its end:
 * a switch (end_state: its prev_state's letters, "R" preempted or yielding; NULL for a
 * switch missing from the trace) or the span's end (end_state NULL). wake: the wake-up
 * whose latency ended at its start (-1: none). */
struct sched_slice {
	int64_t cpu, tid, ts, dur, wake;
	const char *end_state;
};
typedef void (*sched_slice_fn)(void *data, const struct sched_slice *s);

struct sched_analysis;

/* Hooks itself to the engine (worst: how many worst latencies to keep). */
struct sched_analysis *sched_analysis_new(struct an_engine *e, size_t worst);
void sched_analysis_free(struct sched_analysis *a);
/* Call each state change of the selected tasks on the selected CPUs as it happens. */
void sched_analysis_on_change(struct sched_analysis *a, sched_change_fn fn, void *data);
/* Call fn at each interval counted on a selected CPU (SQL's sched_slices table). */
void sched_analysis_on_slice(struct sched_analysis *a, sched_slice_fn fn, void *data);
/* The earliest start (ns) of the intervals still open, INT64_MAX for none: a row told from now
 * on begins there or later (at the current event's time, for intervals not begun yet). */
int64_t sched_analysis_open_since(const struct sched_analysis *a);

/* After the run: close the open intervals at the span's end (once), then read. */
void sched_analysis_finish(struct sched_analysis *a);
/* Threads of the selected tasks, by CPU time (largest first), then tid. */
size_t sched_analysis_threads(struct sched_analysis *a, const struct sched_thread **out);
/* The same, per process (pid from the trace), by CPU time. */
size_t sched_analysis_procs(struct sched_analysis *a, const struct sched_proc **out);
/* The CPUs seen, selected ones only, by number. */
size_t sched_analysis_cpus(struct sched_analysis *a, const struct sched_cpu **out);
/* The worst latencies, largest first. */
size_t sched_analysis_worst(struct sched_analysis *a, const struct sched_wake **out);
const struct sched_totals *sched_analysis_totals(const struct sched_analysis *a);
/* "S", "D", ... for a switch-out's prev_state, as the trace's kernel encodes it (ftrace's
 * letters; docs/analyses/sched.md). */
const char *sched_analysis_state_letters(const struct sched_analysis *a, int64_t prev_state,
                                         char buf[16]);

#endif
