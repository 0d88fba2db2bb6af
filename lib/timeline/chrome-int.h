/* SPDX-License-Identifier: MIT */
/* chrome-int.h: what chrome.c (spans, instants, names) and chrome-counters.c (the
 * counters) share. */
#ifndef TIMELINE_CHROME_INT_H
#define TIMELINE_CHROME_INT_H

#include "analysis/idmap.h"
#include "chrome.h"
#include "flame.h"
#include "states.h"
#include "tef.h"

#define MS 1000000 /* ns: the counters' bin */

/* A row of the file: a thread under the process it was written with. A tid whose pid
 * changed (known late, or the tid reused) gets a new one; its old rows keep their names. */
struct ch_thread {
	int64_t tid, pid;
	char comm[17]; /* a user-space trace's procname, for threads the kernel did not name */
};

/* A CPU's row and its busy counter. */
struct ch_cpu {
	bool seen;
	uint8_t run_state; /* the run of one thread not written yet: user, syscall, running */
	int64_t run_begin, run_end, run_tid; /* run_end 0: none */
	int64_t bin;                         /* the bin being summed, -1: none */
	int64_t busy;                        /* ns of it busy so far */
	int64_t shown;                       /* the value last written, -1: none */
};

/* Per event class. */
struct ch_class {
	bool instant;  /* its events become instants */
	bool resolved; /* the context fields below were looked up */
	int8_t pid_scope, name_scope;
	int pid_index, name_index; /* vpid and procname in a context, -1: none */
	uint32_t count, shown;     /* events in the rate's current bin; the value last written */
};

struct tl_chrome {
	struct an_engine *e;
	struct tl_states *st;
	struct tl_flame *fl; /* NULL: the trace has no function calls */
	struct tef t;
	struct tl_chrome_opts o;
	bool has_origin, oom;
	int64_t origin;
	struct ch_thread *threads;
	size_t nthreads, capthreads;
	struct idmap by_tid;       /* tid -> its latest row in threads */
	struct ch_thread *callers; /* the calls' rows: a thread's calls apart from its states */
	size_t ncallers, capcallers;
	struct idmap by_caller; /* tid -> callers */
	struct ch_cpu *cpus;
	size_t ncpus;
	struct ch_class *classes;
	size_t nclasses;
	/* the rates' current bin: the classes with events in it, and those whose last
	 * written value is not 0 */
	int64_t rate_bin;
	size_t *touched, ntouched, *nonzero, nnonzero;
	bool rates_written;
};

/* Relative ns of an absolute time: the origin is fixed at the first call, as states.c
 * fixes its own (an_span's begin, right as soon as an event was read). */
int64_t ch_rel(struct tl_chrome *c, int64_t abs);
/* A CPU's entry (NULL: out of memory, or no CPU); its row's tid. */
struct ch_cpu *ch_cpu(struct tl_chrome *c, int64_t cpu);
static inline int64_t ch_cpu_tid(int64_t cpu)
{
	return TL_CHROME_CPU_PID + 1 + cpu;
}

/* chrome-counters.c: an event of class k at relative t; a span of a CPU row (relative,
 * clipped); the last bins at the end. */
void ch_rate_event(struct tl_chrome *c, size_t k, int64_t t);
void ch_busy_span(struct tl_chrome *c, int64_t cpu, int64_t begin, int64_t end, bool busy);
void ch_counters_finish(struct tl_chrome *c);

#endif
