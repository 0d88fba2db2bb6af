/* SPDX-License-Identifier: MIT */
/*
 * threads.h: thread names and process ids as the trace tells them, kept current event by
 * event, so that a name shown for an event is the name the thread had then (never what
 * the machine reading the trace knows). It learns from:
 *   statedump_process (spoor) / lttng_statedump_process_state (LTTng): tid, pid, ppid, name
 *   sched_process_fork: the child gets the parent's name (child_comm)
 *   task_newtask: the new task's process: its creator's (common_pid) for a thread
 *     (clone_flags has CLONE_THREAD), else its own (ftrace's fork event has no tgid)
 *   sched_process_exec: the thread takes the new program's name (basename of filename)
 *   task_rename: newcomm
 *   sched_switch: prev_comm/prev_pid and next_comm/next_pid (LTTng: prev_tid, next_tid)
 *   user-space events: vtid/vpid contexts with the trace's procname
 */
#ifndef MODEL_THREADS_H
#define MODEL_THREADS_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/trace.h"

#define THREAD_COMM_MAX 16

struct threads;

struct threads *threads_new(const struct spoor_reader *r);
void threads_free(struct threads *t);
/* Learn from one event (any event: those that say nothing about names cost one lookup).
 * False: events of its class never name a thread, so a caller may skip that class. */
bool threads_update(struct threads *t, const struct spoor_event *ev);
/* Whether events of this class (reader class index) can name a task: those the model reads. */
bool threads_names_tasks(struct threads *t, size_t class_index);
/* What a state dump read ahead says of a thread (tid, pid, name of len bytes), for the
 * events before the dump: kept unless the model knows better by then. */
void threads_seed(struct threads *t, int64_t tid, int64_t pid, const char *name, size_t len);
/* LTTng's state dump comes some time into the trace: a thread that runs before it has no
 * process until then. Read the dump ahead, with a reader of its own on the same traces, up
 * to each trace's lttng_statedump_end (a few thousand events in; at most 2^20 events), and
 * seed what it says (threads_seed): the threads have their process and name from their
 * first event on. Nothing for a live reader, nor for traces without lttng_statedump_end
 * (spoor's own dump comes first anyway). */
void threads_read_dump_ahead(struct threads *t);
/* The same in two steps, for a dump read once and seeded many times: what the dump of r's
 * traces says, as a model of its own (NULL: nothing to say), then each of its threads
 * seeded into t (from NULL: nothing). */
struct threads *threads_read_dump(const struct spoor_reader *r);
void threads_seed_all(struct threads *t, const struct threads *from);
/* The thread's name, or NULL when the trace has not named it. */
const char *threads_comm(const struct threads *t, int64_t tid);
/* Its process id, or -1. */
int64_t threads_pid(const struct threads *t, int64_t tid);

#endif
