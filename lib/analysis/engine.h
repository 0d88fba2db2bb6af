/* SPDX-License-Identifier: MIT */
/*
 * engine.h: what every analysis shares (LTTV's hooks by event id and its state): one pass
 * over the trace in time order, hooks by kind of kernel event (kvocab.h) resolved once per
 * event class, and the state model the hooks can ask about:
 *   - the task running on each CPU (sched_switch; common_pid or a tid context where the
 *     trace has one). Where an event's common_pid or tid context shows another task than
 *     the last switch put there (a switch missing from the trace: some kernels leave out
 *     switches from the idle task), the engine follows the events: it infers the switch
 *     at the other task's first event and tells the analyses (an_engine_on_inferred). A
 *     trace without those fields shows the task only in a switch's prev_tid, which the
 *     engine reads when an analysis hears of inferred switches,
 *   - thread names and pids from the trace (model/threads.h: state dump, fork, exec,
 *     rename),
 *   - events the tracer lost, per stream, reported to a callback as they are found.
 * Hooks see only events in the time range; the state follows every event. The times hooks
 * see (and an_span) never go back and stay within 2^62 ns (146 years) of the clock's
 * origin: an event of a damaged stream whose time goes back counts at the latest time seen.
 */
#ifndef ANALYSIS_ENGINE_H
#define ANALYSIS_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kvocab.h"
#include "spoor/trace.h"

/* The filters every analysis takes (its command's options). */
struct an_filter {
	bool has_begin, has_end;
	int64_t begin, end; /* ns from the clock origin */
	const int64_t *pids, *tids, *cpus;
	size_t npids, ntids, ncpus;
	const char *const *comms; /* process names, shell wildcards */
	size_t ncomms;
};

struct an_event {
	const struct spoor_event *ev;
	const struct kclass_ref *cls;
	size_t class_index; /* the reader's, of the event's class */
	enum kev kind;
	int64_t ts;  /* ns from the clock origin */
	int64_t cpu; /* -1: unknown */
	int64_t tid; /* the task the event happened in, -1: unknown */
	/* KEV_SCHED_SWITCH: its KS_NEXT_TID, read once for every hook (has_next_tid false when
	 * the event lacks it) */
	bool has_next_tid;
	int64_t next_tid;
};

typedef void (*an_hook_fn)(void *data, const struct an_event *e);
/* count events lost on a stream (its CPU, or -1), found at the event at ts (a time as the
 * hooks see them: an_event.ts). Only kernel-side streams: the losses of a user-space
 * trace's streams (env domain "ust") say nothing of what ran on the CPUs, and are only
 * counted (an_events_lost). */
typedef void (*an_lost_fn)(void *data, int64_t cpu, uint64_t count, int64_t ts);
/* A switch the trace does not hold but its events show: on cpu, at ts (the time of the
 * event of `next` that shows it, as the hooks see it, before that event's hooks), the task
 * the last switch or event put there (prev) gave way to next. */
typedef void (*an_inferred_fn)(void *data, int64_t cpu, int64_t ts, int64_t prev, int64_t next);

struct an_engine;

int an_engine_new(struct spoor_reader *r, const struct an_filter *f, struct an_engine **out);
void an_engine_free(struct an_engine *e);
/* Several hooks may watch one kind; they run in the order added. */
int an_engine_on(struct an_engine *e, enum kev kind, an_hook_fn fn, void *data);
/* A hook for every event whose name matches a shell wildcard (any event, user space too:
 * e->kind may be KEV_NONE). Resolved against the classes once, here. */
int an_engine_on_name(struct an_engine *e, const char *pattern, an_hook_fn fn, void *data);
/* A hook for every event of one class (spoor_event_class_index's numbering). Added while a
 * pass is paused (an_engine_run_until), it sees the class's later events, provided the
 * class was read at all: a class no hook read when the pass began is stepped over inside
 * the reader (outside live mode) for the rest of it. */
int an_engine_on_class(struct an_engine *e, size_t class_index, an_hook_fn fn, void *data);
/* End the pass after the current event (a script's spoor.stop()). */
void an_engine_stop(struct an_engine *e);
/* Pause the pass after the current event (its hooks and the state's update done): the
 * running an_engine_run returns 1, and the next call goes on with the next event (a SQL
 * cursor that pulls the rows the hooks push). The loop's own stop test: it costs nothing
 * per event. An an_engine_stop wins over it. */
void an_engine_pause(struct an_engine *e);
/* Several analyses may watch losses; -ENOSPC past 16. */
int an_engine_on_lost(struct an_engine *e, an_lost_fn fn, void *data);
/* Several analyses may hear of inferred switches; -ENOSPC past 16. Those outside the time
 * range are not reported, but the state follows them. */
int an_engine_on_inferred(struct an_engine *e, an_inferred_fn fn, void *data);
/* The task on each CPU from every event that shows it, so that a missing switch is inferred
 * at the first event of the task that runs: the classes no hook reads are then read too,
 * where the trace gives each event its task (the engine steps over them otherwise). Call it
 * before the pass. */
void an_engine_want_tasks(struct an_engine *e);
/* Thread names and pids (an_task_comm, an_task_pid) cost a decode of every fork, exec,
 * rename and sched_switch: the engine keeps them only for an analysis that asks (and
 * always for task filters and plug-ins). */
void an_engine_want_threads(struct an_engine *e);
/* LTTng's state dump comes some time into the trace: read it first (a reader of its own, up
 * to lttng_statedump_end), so that the threads that run before it have their process and
 * name from their first event on (as the task filters do; SQL's pid and comm columns). */
void an_engine_read_dump_first(struct an_engine *e);
/* Read the whole trace. 0, or a negative error (damage is counted, see spoor_reader); 1
 * when a hook paused the pass (an_engine_pause). */
int an_engine_run(struct an_engine *e);
/* Live traces (spoor_reader_open_live): after each spoor_reader_live_refresh, take in the
 * classes and streams found, then an_engine_run again: it goes on where it stopped. Hooks
 * by name apply to the new classes; fn (one, for a script's bindings) hears of the class
 * numbers [first, end) before their events come. */
int an_engine_refresh(struct an_engine *e);
/* an_engine_run that returns 1 once CLOCK_MONOTONIC passes deadline (ns), with events
 * left for the next call: a live session's watcher must not keep its recorder waiting. */
int an_engine_run_until(struct an_engine *e, int64_t deadline);
typedef int (*an_classes_fn)(void *data, size_t first, size_t end);
void an_engine_on_classes(struct an_engine *e, an_classes_fn fn, void *data);

/* ---- state, for hooks and reports ---- */
int64_t an_cpu_task(const struct an_engine *e, int64_t cpu);      /* -1: unknown */
const char *an_task_comm(const struct an_engine *e, int64_t tid); /* NULL: unknown */
int64_t an_task_pid(const struct an_engine *e, int64_t tid);      /* -1: unknown */
/* The pid the trace has given the thread so far, -1 when it has not (an_task_pid then
 * answers the tid). */
int64_t an_task_pid_said(const struct an_engine *e, int64_t tid);
/* The filters: a task passes when no task filter is given or it matches one. */
bool an_task_selected(const struct an_engine *e, int64_t tid);
/* A task filter is given (--pid, --tid, --comm); by name (--comm): a task's selection may
 * change with its name. */
bool an_selects_tasks(const struct an_engine *e);
bool an_selects_by_name(const struct an_engine *e);
/* The same for a task whose pid and name are known otherwise (comm NULL: unknown), e.g.
 * as they were when it exited (its tid may be another task's since). */
bool an_task_matches(const struct an_engine *e, int64_t tid, int64_t pid, const char *comm);
bool an_cpu_selected(const struct an_engine *e, int64_t cpu);
/* Whether any task or CPU filter is set: without one, every task and CPU is selected. */
bool an_selects(const struct an_engine *e);
/* Whether a filter names threads (--tid, --comm), not only processes or CPUs. */
bool an_selects_threads(const struct an_engine *e);
/* Whether the trace has event classes of this kind at all (for "record -k X" hints). */
bool an_trace_has(const struct an_engine *e, enum kev kind);
/* Whether the pass met an event of this kind (in the time range or not), provided some
 * hook reads the kind: a trace may declare events it holds none of. */
bool an_trace_saw(const struct an_engine *e, enum kev kind);
/* Declared events of no kind whose names look like kind's family (kvocab_lookalike),
 * each name once: the first max in names, their count returned. */
size_t an_lookalikes(const struct an_engine *e, enum kev kind, const char **names, size_t max);
/* The span the figures cover: the time range clipped to the trace (ns). */
void an_span(const struct an_engine *e, int64_t *begin, int64_t *end);
uint64_t an_events_lost(const struct an_engine *e);
/* Switches inferred in the time range (an_engine_on_inferred), on every CPU. */
uint64_t an_switches_inferred(const struct an_engine *e);
const struct spoor_reader *an_reader(const struct an_engine *e);

#endif
