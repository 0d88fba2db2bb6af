/* SPDX-License-Identifier: MIT */
/*
 * tasks.h: the task each event happened in, its process and its name (SQL's tid, pid and
 * comm columns, Python's ev.tid, ev.pid, ev.comm). What the event says of itself comes
 * first, then what the trace said before it:
 *   tid:  the event's own field (common_pid: ftrace's; a tid context: LTTng's; a vtid: a
 *         user-space trace's); a sched_switch's prev_tid (the task it switches out, also
 *         at a CPU's first switch); else the task the CPU's last switch put there;
 *   pid:  a pid context (vpid for a user-space event), else model/threads.h's;
 *   comm: a procname context, else a user-space event's trace's env procname, else
 *         model/threads.h's.
 * A user-space event's vtid and vpid are its namespace's: the kernel's model never answers
 * for them, and never reads those events. A time range read alone gives the answers of a
 * whole read when the part before it was learnt first (tasks_prepass). LTTng's state dump,
 * read ahead (tasks_read_dump_ahead), names the threads that ran before it, as in the
 * analyses.
 */
#ifndef MODEL_TASKS_H
#define MODEL_TASKS_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/trace.h"

struct tasks;
struct threads;

/* model false: tids from the events' own fields only (no pid, no comm, no CPU's task). */
struct tasks *tasks_new(const struct spoor_reader *r, bool model);
void tasks_free(struct tasks *t);
/* Whether the class's events name their task themselves (no model needed for the tid). */
bool tasks_class_has_tid(struct tasks *t, size_t class_index);
/* Whether the model reads the class's events (a reader must not pass them over). */
bool tasks_reads(struct tasks *t, size_t class_index);
/* Learn from the event: every event the reader delivers, in time order, before asking
 * the three questions of it. */
void tasks_update(struct tasks *t, const struct spoor_event *ev);
/* The event's task, false when unknown. */
bool tasks_tid(struct tasks *t, const struct spoor_event *ev, int64_t *tid);
/* Whether the class's events take their tid from the packet context (spoor's per-thread
 * streams): the same for every event of a packet, so a reader of many may keep it. */
bool tasks_tid_per_packet(struct tasks *t, size_t class_index);
/* Its process, -1 when unknown. */
int64_t tasks_pid(struct tasks *t, const struct spoor_event *ev, int64_t tid);
/* Its task's name (len bytes), NULL when unknown. */
const char *tasks_comm(struct tasks *t, const struct spoor_event *ev, int64_t tid, size_t *len);
/* Seed the model with LTTng's state dump, read ahead (model/threads.h): before
 * tasks_prepass and the first tasks_update. tasks_seed_dump: a dump read before
 * (threads_read_dump), for readers of the same traces. */
void tasks_read_dump_ahead(struct tasks *t);
void tasks_seed_dump(struct tasks *t, const struct threads *dump);
/* Learn the events before begin from r, a fresh reader of the same traces, passing over
 * every class the model does not read. stop (NULL: never), asked every 1024 events, ends
 * it with -EINTR. 0 or a negative error. */
int tasks_prepass(struct tasks *t, struct spoor_reader *r, int64_t begin, bool (*stop)(void *),
                  void *arg);

#endif
