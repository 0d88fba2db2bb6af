/* SPDX-License-Identifier: MIT */
/*
 * states.h: the timeline's state machine on the analysis engine: what each thread and each
 * CPU was doing over time (analysis/thread-states.h), as closed spans streamed to
 * callbacks, for the view's cache and the Chrome export (docs/thread-states.md).
 *
 * A thread row starts at the thread's first sighting and ends at its exit (or the trace's
 * end). On a CPU a thread is in user space, or in a system call between its entry and exit
 * (`running` when the trace has no system call events); interrupts and softirqs nest over
 * it (on the thread's row and on its CPU's). Off a CPU it is waiting for one or blocked,
 * as `spoor sched` sees it (sched.h's state changes). Lost events make the CPU's thread and
 * the CPU row unknown until the next switch. So per thread, user + syscall + irq + softirq
 * + running is sched's CPU time, wait_cpu its wait and blocked its blocked time (but for
 * the blocked time of a thread run without a wake-up in the trace, which sched leaves out).
 *
 * Times are ns relative to the origin: the span's begin (an_span), whose absolute time
 * tl_states_origin gives.
 */
#ifndef TIMELINE_STATES_H
#define TIMELINE_STATES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/engine.h"
#include "analysis/thread-states.h"

/* TL_ROW_CALLS: a thread's function calls at one depth (flame.h; not states.c's) */
enum tl_row_kind { TL_ROW_THREAD, TL_ROW_CPU, TL_ROW_CALLS };

struct tl_span {            /* [begin, end) of one row in one state */
	int64_t begin, end; /* relative ns */
	uint8_t state;      /* enum thread_state */
	/* syscall: index into tl_states_syscall_name(); irq: irq number; softirq: vector;
	 * CPU rows in user/syscall/running: the tid */
	uint32_t value;
};

struct tl_callbacks {
	void *data;
	/* a closed span of a row; per row in time order and contiguous (end = next begin),
	 * not in time order across rows */
	void (*span)(void *data, enum tl_row_kind kind, int64_t id /* tid or cpu */,
	             const struct tl_span *s);
	/* a user-space event (a trace whose env domain is "ust", spoor's or LTTng's) on its
	 * thread (NULL: not asked) */
	void (*mark)(void *data, int64_t tid, int64_t t, size_t class_index);
	/* every event (for rates): its class, its relative time; NULL: not asked (costs a
	 * hook on every class) */
	void (*event)(void *data, int64_t t, size_t class_index);
};

struct tl_states;

/* Hooks itself (and a sched analysis of its own) to the engine, before an_engine_run.
 * 0 or -ENOMEM. */
int tl_states_new(struct an_engine *e, const struct tl_callbacks *cb, struct tl_states **out);
/* After an_engine_run: close every open span at the span's end (once). */
void tl_states_finish(struct tl_states *st);
void tl_states_free(struct tl_states *st);
/* Absolute ns (from the clock's origin) of relative 0; 0 before any event. */
int64_t tl_states_origin(const struct tl_states *st);
/* The system calls' names, numbered as the spans' values. */
const char *tl_states_syscall_name(const struct tl_states *st, uint32_t index);
size_t tl_states_syscall_count(const struct tl_states *st);
/* Out of memory at some point: some spans are missing. */
bool tl_states_oom(const struct tl_states *st);
/* thread names come from the engine (an_engine_want_threads, which tl_states_new asks
 * for): an_task_comm / an_task_pid at the end */

#endif
