/* SPDX-License-Identifier: MIT */
/*
 * tasks.h: the task of each event, its process and name, for the tid, pid and comm columns.
 * An event's tid is its own field where its stream or class has one (common_pid, a tid or
 * vtid context), else the task the last sched_switch put on its CPU; pid and comm are
 * model/threads.h's answers for that tid, but for a user-space event (a vtid), which names
 * its own process (vpid, procname contexts; the trace's env procname). The model follows every
 * event it reads, those a query does not select too (sql_tasks_reads), and a query that starts at a
 * time reads the part before it first with the model alone (sql_tasks_prepass): the answers equal
 * those of a read of the whole trace.
 */
#ifndef SQL_TASKS_H
#define SQL_TASKS_H

#include <stdbool.h>
#include <stdint.h>

#include "sql-int.h"

struct sql_tasks;

/* model false: tids from the events' own fields only (no pid, no comm, no CPU's task). */
struct sql_tasks *sql_tasks_new(struct spoor_reader *r, bool model);
void sql_tasks_free(struct sql_tasks *t);
/* Whether the class's events have a tid of their own (no model needed for the tid). */
bool sql_tasks_class_has_tid(struct sql_tasks *t, size_t class_index);
/* Whether the model reads the class's events (a reader must not pass them over). */
bool sql_tasks_reads(struct sql_tasks *t, size_t class_index);
/* Learn from the event (every event the reader delivers, in time order), before its
 * columns are read; a switch's next task takes its CPU at the next event. */
void sql_tasks_event(struct sql_tasks *t, const struct spoor_event *ev);
/* The event's task, false when unknown. */
bool sql_tasks_tid(struct sql_tasks *t, const struct spoor_event *ev, int64_t *tid);
/* Its process (-1: unknown) and name (NULL: unknown; len bytes) */
int64_t sql_tasks_pid(struct sql_tasks *t, const struct spoor_event *ev, int64_t tid);
const char *sql_tasks_comm(struct sql_tasks *t, const struct spoor_event *ev, int64_t tid,
                           size_t *len);
/* Read the events before begin with the model alone (a reader of db's traces that passes
 * over every class the model does not read). 0 or a negative error. */
int sql_tasks_prepass(struct sql_tasks *t, struct sql_db *db, int64_t begin);

#endif
