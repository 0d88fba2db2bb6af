/* SPDX-License-Identifier: MIT */
/*
 * calls.h: function calls rebuilt per thread from function entries and exits
 * (lttng_ust_cyg_profile:func_entry/func_exit { addr, call_site }, the _fast variant's
 * func_entry { addr } and func_exit { }) and from whole calls (spoor_calls:call { addr,
 * call_site, duration }, written at the exit, duration in clock cycles: it began at the
 * exit's time less the duration). Each thread keeps a stack of open calls; the caller hears
 * of each call as it starts (enter) and as it ends (leave), with its depth, so a printer
 * lays out function_graph and a profile sums durations.
 *
 * What the trace may hold besides matching pairs:
 *   - an exit without an entry (the trace started mid-call, or the entry was lost): a call
 *     with CALLS_NO_ENTRY, its begin unknown. A pre-pass (calls_seed) counts, per thread,
 *     the calls that were open when the trace started, so the calls seen before their exits
 *     are at their true depth below them;
 *   - an exit of a function below the top (longjmp, an exception, a signal handler left by
 *     siglongjmp): the calls above it end there, CALLS_UNWOUND, at the exit's time; those
 *     of them that began before the thread's stream lost events also CALLS_EXIT_LOST:
 *     their exits are likelier among the lost events than left by a longjmp;
 *   - an exit of a function not on the stack at all: the stack's open calls are unwound,
 *     then it is a CALLS_NO_ENTRY exit; once the thread's stream has lost events, such
 *     an exit is taken as one whose entry was lost: a CALLS_NO_ENTRY exit at the depth
 *     of the stack, which stays as it is (an exit of a call below a lost exit unwinds);
 *   - entries with no exit when the trace ends (a thread that ended mid-call, or the
 *     trace stopped): calls_finish ends them CALLS_NO_EXIT at the thread's last event;
 *   - a signal handler's calls: an entry on top of the interrupted call, nested in it;
 *   - recursion deeper than CALLS_MAX_DEPTH: the deeper calls are counted, not reported,
 *     and their exits taken as theirs.
 * Whole calls arrive after the calls inside them; a thread's are held until its next
 * entry or exit, its end, or CALLS_HELD_MAX of them, then reported in call order.
 */
#ifndef ANALYSIS_CALLS_H
#define ANALYSIS_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor/trace.h"

#define CALLS_MAX_DEPTH 4096
#define CALLS_HELD_MAX  (1u << 20)

enum calls_flag {
	CALLS_NO_ENTRY = 1, /* its entry is not in the trace: begin unknown (INT64_MIN) */
	CALLS_NO_EXIT = 2,  /* the trace ends before its exit: end is the thread's last event */
	CALLS_UNWOUND = 4,  /* a return from a caller ended it (longjmp): end is that time */
	/* with CALLS_NO_ENTRY: a call open when the thread's trace began (one of those
	 * calls_seed counts), not one whose entry was lost */
	CALLS_OPEN_BEFORE = 8,
	/* with CALLS_UNWOUND: its stream lost events since it began, so its exit was probably
	 * among them rather than left by a longjmp */
	CALLS_EXIT_LOST = 16,
};

/* One call: at enter, end and children are not known yet (0). */
struct calls_span {
	int64_t tid;
	uint64_t proc; /* as loadmap_process() */
	uint64_t addr, call_site;
	int64_t begin, end; /* ns from the clock origin */
	int64_t children;   /* ns spent in the calls directly inside it (at leave) */
	uint32_t depth;     /* 0: outermost */
	uint8_t flags;      /* enum calls_flag */
};

struct calls_ops {
	void (*enter)(void *data, const struct calls_span *s); /* NULL: not wanted */
	void (*leave)(void *data, const struct calls_span *s);
	bool call_sites; /* fill calls_span.call_site (else 0: one field less read per event) */
};

struct calls;

struct calls *calls_new(const struct spoor_reader *r, const struct calls_ops *ops, void *data);
void calls_free(struct calls *c);

/* Whether the class is one of the calls' events (decided once per class). */
bool calls_reads(struct calls *c, size_t class_index);
/* The function's address that one of them gives (false: none, as the _fast variant's exit). */
bool calls_event_addr(struct calls *c, const struct spoor_event *ev, uint64_t *addr);
/* One of them, from thread tid of process proc (in time order). 0 or -ENOMEM. */
int calls_event(struct calls *c, const struct spoor_event *ev, int64_t tid, uint64_t proc);
/* The end: held whole calls reported, open calls left CALLS_NO_EXIT. */
int calls_finish(struct calls *c);

/* How many of the calls' events calls_event took. */
uint64_t calls_events(const struct calls *c);

/* The pre-pass: run a calls over the same events (ops without callbacks), then hand its
 * count of calls open at the start of each thread to the real pass, before its first
 * event. 0 or -ENOMEM. */
int calls_seed(struct calls *c, const struct calls *prepass);

#endif
