/* SPDX-License-Identifier: MIT */
/*
 * syscalls.h: `spoor syscalls`: which calls each process makes and where its time goes.
 * Per call name: completed calls (entry to exit), their total, mean, min, max and standard
 * deviation; error returns by errno; the same per process (threads grouped by pid) or per
 * thread. One pass, nothing kept per call.
 *
 * A thread's figures go to its process as the whole trace tells it (a state dump may name
 * it after the thread's first calls), at the end or at the thread's exit; --pid, --tid and
 * --comm are applied then too, --cpu at the entry.
 *
 * Pairing is per thread (the engine's tid): an entry opens the thread's call, the next exit
 * closes it when the names agree (per-name events) or the numbers do (raw sys_exit with an
 * id); an exit with neither (LTTng 2.5's exit_syscall) closes whatever call is open. What cannot be
 * paired is counted, never folded into the figures:
 *   - unmatched: an exit without an open entry (the entry was before the trace or the time
 *     range, or lost); a new thread's return from clone/fork (ret 0) is counted apart;
 *   - unfinished: an entry still open at the end of the trace (or of the time range);
 *   - noreturn: exit and exit_group, which end the thread instead of returning, and
 *     rt_sigreturn, whose exit the kernel does not trace;
 *   - superseded: an entry while the thread's previous call was open (its exit was lost);
 *   - mismatched: an exit whose name differs from the open entry's (both dropped);
 *   - dropped: entries open when the tracer lost events on the CPU their thread was last
 *     seen on (its entry, or the CPU it was switched in on): their exit may be among the
 *     lost events, so their duration could silently span the loss.
 */
#ifndef ANALYSIS_SYSCALLS_H
#define ANALYSIS_SYSCALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "exactstat.h"

#define SC_NAME_MAX 48

/* One call name over the selected tasks (or one task group and call name). */
struct sc_stat {
	uint32_t call;        /* index in the calls */
	struct exactstat dur; /* ns, completed calls */
	uint64_t errors;      /* completed calls that returned -errno */
	uint64_t noexit;      /* entries that never completed (see above) */
};

struct sc_call {
	char name[SC_NAME_MAX];
	struct sc_stat all; /* merged over the groups */
	bool selected;      /* by --syscall */
};

/* A process (pid), or a thread with per_thread. */
struct sc_group {
	int64_t id, pid;
	char comm[16];
	struct sc_stat total; /* .call unused */
	size_t first, n;      /* its stats: sc_analysis_group_stats */
};

struct sc_errno {
	uint32_t call;
	int64_t err; /* positive */
	uint64_t count;
};

struct sc_totals {
	uint64_t calls, unmatched, child_returns, unfinished, noreturn, superseded, mismatched,
	    dropped, no_task;
};

struct sc_options {
	bool per_thread;          /* group by thread, not process */
	const char *const *calls; /* --syscall patterns (shell wildcards), none: all */
	size_t ncalls;
};

struct sc_analysis;

/* One completed call, as it is counted (sc_analysis_on_call): its thread, name, entry time
 * (ns, as the hooks see them), duration and return value (has_ret false: the exit had
 * none). */
struct sc_done {
	int64_t tid, ts, dur, ret;
	bool has_ret;
	const char *name;
};
typedef void (*sc_call_fn)(void *data, const struct sc_done *c);

/* Hooks itself to the engine; run the engine, then sc_analysis_finish and read. */
struct sc_analysis *sc_analysis_new(struct an_engine *e, const struct sc_options *o);
void sc_analysis_free(struct sc_analysis *a);
/* Close the run: open entries become unfinished, figures are merged and sorted (calls by
 * count, descending). 0 or -ENOMEM. */
int sc_analysis_finish(struct sc_analysis *a);
/* Call fn at each completed call counted, as it completes (SQL's syscalls table). */
void sc_analysis_on_call(struct sc_analysis *a, sc_call_fn fn, void *data);
/* The earliest start (ns) of the calls still open, INT64_MAX for none: a row told from now
 * on begins there or later (at the current event's time, for calls not begun yet). */
int64_t sc_analysis_open_since(const struct sc_analysis *a);

size_t sc_analysis_calls(const struct sc_analysis *a, const struct sc_call **calls);
/* Groups by completed calls, descending; each group's stats likewise. */
size_t sc_analysis_groups(const struct sc_analysis *a, const struct sc_group **groups);
const struct sc_stat *sc_analysis_group_stats(const struct sc_analysis *a,
                                              const struct sc_group *g);
/* Errors by call and errno, by count descending. */
size_t sc_analysis_errnos(const struct sc_analysis *a, const struct sc_errno **errs);
const struct sc_totals *sc_analysis_totals(const struct sc_analysis *a);

#endif
