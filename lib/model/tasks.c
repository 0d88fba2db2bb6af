/* SPDX-License-Identifier: MIT */
/* tasks.c: each event's task, process and name (see tasks.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/reader.h" /* fields read in place */
#include "tasks.h"
#include "threads.h"

#define TASKS_CPUS 4096 /* CPUs whose running task is followed */

/* A field of one of an event's scopes (index -1: none). */
struct place {
	int8_t scope;
	int index;
};

struct task_class {
	bool resolved;
	bool user; /* its task is a vtid: its own contexts and trace name its process */
	struct place tid, pid, comm;
	int prev, next;       /* a sched_switch's payload: prev_tid and next_tid (-1: none) */
	const char *procname; /* user: the trace's env procname */
};

struct tasks {
	const struct spoor_reader *r;
	struct threads *threads; /* NULL without the model */
	struct task_class *classes;
	size_t nclasses;
	/* a switch's next task, which takes its CPU at the next event: the switch itself
	 * still ran in the task before it */
	int64_t pending_cpu, pending_tid;
	int64_t cur[TASKS_CPUS]; /* -1: unknown */
};

struct tasks *tasks_new(const struct spoor_reader *r, bool model)
{
	struct tasks *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->r = r;
	t->nclasses = spoor_reader_event_class_count(r);
	t->classes = calloc(t->nclasses + 1, sizeof(*t->classes));
	if (!t->classes || (model && !(t->threads = threads_new(r)))) {
		tasks_free(t);
		return NULL;
	}
	t->pending_cpu = -1;
	for (size_t i = 0; i < TASKS_CPUS; i++)
		t->cur[i] = -1;
	return t;
}

void tasks_free(struct tasks *t)
{
	if (!t)
		return;
	free(t->classes);
	threads_free(t->threads);
	free(t);
}

/* The first of the names that one of the contexts has: the stream's event context, the
 * class's, or the packet's (the analysis engine's order). */
static struct place context_field(const struct spoor_event_class *ec, const char *const *names,
                                  int n)
{
	static const enum spoor_scope scopes[] = {SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_PACKET_CONTEXT};
	struct place p = {0, -1};
	for (int i = 0; i < n; i++)
		for (int s = 0; s < 3; s++)
			if ((p.index = spoor_event_class_field_index(ec, scopes[s], names[i])) >=
			    0) {
				p.scope = (int8_t) scopes[s];
				return p;
			}
	return p;
}

/* A payload field: LTTng's name, else ftrace's. */
static int payload_field(const struct spoor_event_class *ec, const char *lttng, const char *ftrace)
{
	int i = spoor_event_class_field_index(ec, SPOOR_SCOPE_PAYLOAD, lttng);
	return i >= 0 ? i : spoor_event_class_field_index(ec, SPOOR_SCOPE_PAYLOAD, ftrace);
}

static struct task_class *resolve(struct tasks *t, size_t c)
{
	static const char *const tids[] = {"common_pid", "tid", "vtid"}, *const pid = "pid",
	                         *const vpid = "vpid", *const procname = "procname";
	struct task_class *k = &t->classes[c];
	if (k->resolved)
		return k;
	const struct spoor_event_class *ec = spoor_reader_event_class(t->r, c);
	k->resolved = true;
	k->prev = k->next = -1;
	k->tid = context_field(ec, tids, 2);
	k->comm = context_field(ec, &procname, 1);
	if (k->tid.index < 0 && (k->tid = context_field(ec, tids + 2, 1)).index >= 0) {
		k->user = true;
		k->pid = context_field(ec, &vpid, 1);
		k->procname = spoor_reader_trace_env(t->r, ec->trace, "procname");
		return k;
	}
	k->pid = context_field(ec, &pid, 1);
	if (!strcmp(spoor_event_class_name(ec), "sched_switch")) {
		k->prev = payload_field(ec, "prev_tid", "prev_pid");
		k->next = payload_field(ec, "next_tid", "next_pid");
	}
	return k;
}

bool tasks_class_has_tid(struct tasks *t, size_t class_index)
{
	if (class_index >= t->nclasses)
		return false;
	const struct task_class *k = resolve(t, class_index);
	return k->tid.index >= 0 || k->prev >= 0;
}

bool tasks_reads(struct tasks *t, size_t class_index)
{
	if (!t->threads || class_index >= t->nclasses)
		return false;
	const struct task_class *k = resolve(t, class_index);
	return k->next >= 0 || (!k->user && threads_names_tasks(t->threads, class_index));
}

void tasks_update(struct tasks *t, const struct spoor_event *ev)
{
	if (!t->threads)
		return;
	if (t->pending_cpu >= 0) {
		t->cur[t->pending_cpu] = t->pending_tid;
		t->pending_cpu = -1;
	}
	size_t c = reader_event_class_index(ev);
	if (c >= t->nclasses)
		return;
	const struct task_class *k = resolve(t, c);
	if (k->user)
		return;
	threads_update(t->threads, ev);
	int64_t cpu = reader_event_cpu(ev), next;
	if (k->next >= 0 && cpu >= 0 && cpu < TASKS_CPUS &&
	    reader_field_int(ev, SPOOR_SCOPE_PAYLOAD, k->next, &next)) {
		t->pending_cpu = cpu;
		t->pending_tid = next;
	}
}

bool tasks_tid_per_packet(struct tasks *t, size_t class_index)
{
	if (class_index >= t->nclasses)
		return false;
	const struct task_class *k = resolve(t, class_index);
	return k->tid.index >= 0 && k->tid.scope == SPOOR_SCOPE_PACKET_CONTEXT;
}

bool tasks_tid(struct tasks *t, const struct spoor_event *ev, int64_t *tid)
{
	size_t c = reader_event_class_index(ev);
	if (c >= t->nclasses)
		return false;
	const struct task_class *k = resolve(t, c);
	if (k->tid.index >= 0)
		return reader_field_int(ev, (enum spoor_scope) k->tid.scope, k->tid.index, tid);
	if (k->prev >= 0 && reader_field_int(ev, SPOOR_SCOPE_PAYLOAD, k->prev, tid))
		return true;
	int64_t cpu = reader_event_cpu(ev);
	if (!t->threads || cpu < 0 || cpu >= TASKS_CPUS || t->cur[cpu] < 0)
		return false;
	*tid = t->cur[cpu];
	return true;
}

int64_t tasks_pid(struct tasks *t, const struct spoor_event *ev, int64_t tid)
{
	size_t c = reader_event_class_index(ev);
	if (c >= t->nclasses)
		return -1;
	const struct task_class *k = resolve(t, c);
	int64_t pid;
	if (k->pid.index >= 0 &&
	    reader_field_int(ev, (enum spoor_scope) k->pid.scope, k->pid.index, &pid))
		return pid;
	return !k->user && t->threads && tid >= 0 ? threads_pid(t->threads, tid) : -1;
}

const char *tasks_comm(struct tasks *t, const struct spoor_event *ev, int64_t tid, size_t *len)
{
	size_t c = reader_event_class_index(ev);
	if (c >= t->nclasses)
		return NULL;
	const struct task_class *k = resolve(t, c);
	const char *s = NULL;
	if (k->comm.index >= 0 &&
	    reader_field_str(ev, (enum spoor_scope) k->comm.scope, k->comm.index, &s, len))
		return s;
	if (k->user)
		s = k->procname;
	else if (t->threads && tid >= 0)
		s = threads_comm(t->threads, tid);
	*len = s ? strlen(s) : 0;
	return s;
}

void tasks_read_dump_ahead(struct tasks *t)
{
	if (t->threads)
		threads_read_dump_ahead(t->threads);
}

void tasks_seed_dump(struct tasks *t, const struct threads *dump)
{
	if (t->threads)
		threads_seed_all(t->threads, dump);
}

int tasks_prepass(struct tasks *t, struct spoor_reader *r, int64_t begin, bool (*stop)(void *),
                  void *arg)
{
	if (!t->threads || begin == INT64_MIN)
		return 0;
	bool *pass = calloc(t->nclasses + 1, sizeof(*pass));
	if (!pass)
		return -ENOMEM;
	bool any = false;
	for (size_t c = 0; c < t->nclasses; c++)
		any |= !(pass[c] = !tasks_reads(t, c));
	int rc = 0;
	if (any) { /* (user-space traces: their events name their own processes) */
		spoor_reader_set_range(r, INT64_MIN, begin - 1);
		reader_pass_over(r, pass, t->nclasses, INT64_MIN, begin - 1);
		const struct spoor_event *ev;
		for (unsigned n = 0; (rc = reader_next(r, &ev)) > 0;) {
			tasks_update(t, ev);
			if (stop && __builtin_expect(++n % 1024 == 0, 0) && stop(arg)) {
				rc = -EINTR; /* Ctrl-C: the pre-pass may read most of the trace */
				break;
			}
		}
	}
	free(pass);
	return rc;
}
