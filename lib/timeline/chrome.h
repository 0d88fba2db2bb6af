/* SPDX-License-Identifier: MIT */
/*
 * chrome.h: `spoor export --format=chrome`: a trace as the Trace Event Format's JSON, which
 * Perfetto's UI and chrome://tracing load (docs/export.md). Streamed in one pass on the
 * analysis engine: each thread-state span (timeline/states.h) is written as its callback
 * delivers it, each instant and counter as its event comes; the memory held is per thread,
 * per CPU and per event class, never per event.
 *
 *   - thread states: complete events ("X", cat "state"), named by the state (the system
 *     call's name for a syscall span), on the thread's row under its process; CPU rows are
 *     threads of a pseudo-process "CPUs" (TL_CHROME_CPU_PID), their spans named by the
 *     thread that ran (or the state);
 *   - function calls (flame.h) as complete events ("X", cat "call"), named by the
 *     function, on a row of their own under the thread's process (thread
 *     TL_CHROME_CALLS_TID + tid, "NAME calls"): nested by their times, as Chrome's and
 *     Perfetto's flame charts draw them (a thread's states would cut across them);
 *   - events as instants ("i", thread scope) with their payload fields as args: the
 *     user-space events, or those whose names match the -e patterns;
 *   - counters ("C"): events per ms of each event class (pseudo-process "Event rate"),
 *     and how busy each CPU was per ms (%, on "CPUs");
 *   - lost events as global instants; process and thread names, and sort indices, as
 *     metadata ("M") at the end, when the names are known.
 * Times are µs relative to the trace's origin (tef.h); otherData has the origin in ns.
 */
#ifndef TIMELINE_CHROME_H
#define TIMELINE_CHROME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/engine.h"

/* Pseudo-processes, above any Linux pid (PID_MAX_LIMIT is 2^22): the CPU rows (CPU n is
 * thread TL_CHROME_CPU_PID + 1 + n) and the event rates. */
#define TL_CHROME_CPU_PID  0x40000000
#define TL_CHROME_RATE_PID 0x3fffffff
/* A thread's calls: thread TL_CHROME_CALLS_TID + tid of its process. */
#define TL_CHROME_CALLS_TID 0x20000000

struct tl_chrome_opts {
	/* shell wildcards: the events whose names match become instants; none: every
	 * user-space event (a trace whose env domain is "ust") */
	const char *const *events;
	size_t nevents;
	/* the time range (ns from the clock's origin): spans are clipped to it */
	bool has_begin, has_end;
	int64_t begin, end;
};

struct tl_chrome;

/* Hook the export to e (before an_engine_run); the JSON goes to fd. 0 or -errno. */
int tl_chrome_new(struct an_engine *e, int fd, const struct tl_chrome_opts *o,
                  struct tl_chrome **out);
/* After an_engine_run: the open spans, the names, the file's end. 0 or the output's
 * error (-errno); -ENOMEM when spans had to be left out. */
int tl_chrome_finish(struct tl_chrome *c);
/* How many trace events the file holds (after tl_chrome_finish). */
uint64_t tl_chrome_events(const struct tl_chrome *c);
void tl_chrome_free(struct tl_chrome *c);

#endif
