/* SPDX-License-Identifier: MIT */
/*
 * graph.h: ftrace's function_graph layout (kernel/trace/trace_functions_graph.c) for the
 * calls analysis/calls.h rebuilds:
 *
 *   # tracer: function_graph
 *   #
 *   #  TASK/PID         DURATION                  FUNCTION CALLS
 *   #   |    |           |   |                     |   |   |   |
 *      prog-42      |               |  main() {
 *      prog-42      |   0.541 us    |    leaf();
 *      prog-42      | + 12.020 us   |  }
 *
 * A call whose exit comes right after its entry (no line between) is one line, `leaf();`,
 * with its duration; else `func() {` ... `}`, the duration on the `}` line. ftrace's marks
 * before a duration: + over 10 us, ! over 100 us, # over 1 ms, * over 10 ms, @ over
 * 100 ms, $ over 1 s. A `}` whose entry was not shown names its function, `} / * func * /`
 * (without the spaces: C comments do not nest); one ended by a longjmp (unwound) says so,
 * without a duration, and so does one whose exit was probably lost (exit lost). Other events
 * of a thread that made calls are comments at the call's depth, `/ * name: field=value
 * ... * /`, as ftrace shows trace_printk; a line of another thread than the line before
 * starts with ftrace's context-switch marker. As in ftrace, "the next line" is the next
 * line printed, whatever its thread: a leaf whose thread is interrupted by another's line
 * shows as `{` and `}`. Where a buffer lost events, ftrace's `[LOST n EVENTS]` line.
 */
#ifndef FORMAT_GRAPH_H
#define FORMAT_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/calls.h"
#include "spoor/trace.h"

struct graph_opts {
	bool cpu;           /* the CPU column, ftrace's ` 0) ` */
	uint32_t max_depth; /* calls at this depth or deeper are not shown; 0: all */
	/* a code address's name at a time (the load map's) */
	const char *(*name)(void *data, uint64_t proc, uint64_t addr, int64_t ts);
	void *name_data;
};

struct graph;

struct graph *graph_new(int fd, const struct graph_opts *opts);
/* Flushes what is held, then frees. The flush's result: 0 or a negative code. */
int graph_free(struct graph *g);

/* Which thread (and its name, CPU) the next calls and comment are of: before each event. */
void graph_thread(struct graph *g, int64_t tid, const char *comm, size_t comm_len, int64_t cpu);
/* Whether the thread made calls (its other events are comments). */
bool graph_knows(struct graph *g, int64_t tid);

/* calls_ops callbacks (data: the graph). */
void graph_enter(void *g, const struct calls_span *s);
void graph_leave(void *g, const struct calls_span *s);
/* Another event of the current thread, as a comment. */
void graph_comment(struct graph *g, const struct spoor_event *ev);
/* Before the current thread's next line: its buffer lost n events (GRAPH_LOST_UNKNOWN: an
 * unknown number), ftrace's `CPU:N [LOST n EVENTS]` (trace.c's print_trace_line); a
 * buffer of the thread's own (cpu < 0, spoor's user-space streams) is named by the thread,
 * `comm-tid [LOST n EVENTS]`. */
#define GRAPH_LOST_UNKNOWN UINT64_MAX
void graph_lost(struct graph *g, int64_t cpu, uint64_t n);

/* The first write error (negative), or 0; lines printed so far. */
int graph_error(const struct graph *g);
uint64_t graph_lines(const struct graph *g);

#endif
