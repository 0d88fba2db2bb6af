/* SPDX-License-Identifier: MIT */
/*
 * thread-states.h: THE list of thread states, what a thread (or a CPU) is doing at each
 * moment: the timeline's rows (lib/timeline/states.h), the view's JSON, the Chrome export,
 * and SQL's thread_states table. The names and their order are an API: the numbers are the
 * cache's and the JSON's codes, so new states go at the end. docs/thread-states.md.
 *
 * TS(ENUM, "name", "what it means")
 */
#ifndef ANALYSIS_THREAD_STATES_H
#define ANALYSIS_THREAD_STATES_H

#include <stdbool.h>
#include <stddef.h>

#define THREAD_STATES(TS)                                                                          \
	TS(TS_UNKNOWN, "unknown", "nothing known (before its first event, or after lost events)")  \
	TS(TS_USER, "user", "running in user space")                                               \
	TS(TS_SYSCALL, "syscall", "running in a system call (value: the call's name index)")       \
	TS(TS_IRQ, "irq", "running an interrupt handler (value: the IRQ number)")                  \
	TS(TS_SOFTIRQ, "softirq", "running a softirq (value: the vector)")                         \
	TS(TS_WAIT_CPU, "wait_cpu", "runnable: preempted or woken, waiting for a CPU")             \
	TS(TS_BLOCKED, "blocked", "asleep (switched out in S, D, ...) until woken")                \
	TS(TS_RUNNING, "running",                                                                  \
	   "on a CPU, user or kernel unknown (the trace has no system call events)")               \
	TS(TS_IDLE, "idle", "CPU rows only: the idle task")

enum thread_state {
#define TS_ENUM(e, name, what) e,
	THREAD_STATES(TS_ENUM)
#undef TS_ENUM
	    TS_COUNT
};

/* "user", ...; NULL for a number outside the list. */
static inline const char *thread_state_text(enum thread_state s, bool label)
{
	static const char *const text[][2] = {
#define TS_TEXT(e, name, what) {name, what},
	    THREAD_STATES(TS_TEXT)
#undef TS_TEXT
	};
	return (unsigned) s < TS_COUNT ? text[s][label] : NULL;
}

static inline const char *thread_state_name(enum thread_state s)
{
	return thread_state_text(s, false);
}

/* What the state means, in a sentence (the view's legend, the SQL table's comment). */
static inline const char *thread_state_label(enum thread_state s)
{
	return thread_state_text(s, true);
}

#endif
