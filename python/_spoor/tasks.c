/* SPDX-License-Identifier: MIT */
/*
 * tasks.c: the task each event happened in (ev.tid, ev.pid, ev.comm): a tid context where
 * the trace has one (common_pid, tid, vtid: the analysis engine's order), else the task
 * the CPU's last sched_switch put there; names and pids from model/threads.
 */
#include <stdlib.h>

#include "model/threads.h"
#include "reader/reader.h"
#include "spoorpy.h"

#define MAX_CPUS 4096

/* A context field (-1: none). */
struct ctx_field {
	int8_t scope;
	int idx;
};

struct class_task {
	bool resolved;
	struct ctx_field tid, pid, comm; /* LTTng-UST's vtid, vpid and procname too */
	/* a sched_switch's prev_tid and next_tid (payload; ftrace's prev_pid, next_pid), -1:
	 * not a switch */
	int prev_tid, next_tid;
};

struct spy_tasks {
	const struct spoor_reader *r;
	struct threads *threads;
	struct class_task *classes;
	size_t nclasses;
	int64_t on_cpu[MAX_CPUS]; /* -1: unknown */
};

struct spy_tasks *spy_tasks_new(const struct spoor_reader *r)
{
	struct spy_tasks *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->r = r;
	t->nclasses = spoor_reader_event_class_count(r);
	t->classes = calloc(t->nclasses + 1, sizeof(*t->classes));
	t->threads = threads_new(r);
	if (!t->classes || !t->threads) {
		spy_tasks_free(t);
		return NULL;
	}
	for (size_t c = 0; c < MAX_CPUS; c++)
		t->on_cpu[c] = -1;
	return t;
}

void spy_tasks_free(struct spy_tasks *t)
{
	if (!t)
		return;
	threads_free(t->threads);
	free(t->classes);
	free(t);
}

/* The first of names found in a context (stream event context, event context, packet
 * context: the analysis engine's order). */
static void find_context(const struct spoor_event_class *ec, const char *const *names,
                         struct ctx_field *out)
{
	static const enum spoor_scope scopes[] = {SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_PACKET_CONTEXT};
	out->idx = -1;
	for (int n = 0; names[n] && out->idx < 0; n++)
		for (int s = 0; s < 3 && out->idx < 0; s++)
			if ((out->idx = spoor_event_class_field_index(ec, scopes[s], names[n])) >=
			    0)
				out->scope = (int8_t) scopes[s];
}

static int payload_index(const struct spoor_event_class *ec, const char *a, const char *b)
{
	int i = spoor_event_class_field_index(ec, SPOOR_SCOPE_PAYLOAD, a);
	return i >= 0 ? i : spoor_event_class_field_index(ec, SPOOR_SCOPE_PAYLOAD, b);
}

static struct class_task *class_of(struct spy_tasks *t, size_t ci)
{
	if (ci >= t->nclasses)
		return NULL;
	struct class_task *c = &t->classes[ci];
	if (c->resolved)
		return c;
	c->resolved = true;
	c->next_tid = -1;
	const struct spoor_event_class *ec = spoor_reader_event_class(t->r, ci);
	static const char *const tids[] = {"common_pid", "tid", "vtid", NULL};
	static const char *const pids[] = {"pid", "vpid", NULL};
	static const char *const comms[] = {"procname", NULL};
	find_context(ec, tids, &c->tid);
	find_context(ec, pids, &c->pid);
	find_context(ec, comms, &c->comm);
	c->prev_tid = -1;
	if (!strcmp(spoor_event_class_name(ec), "sched_switch")) {
		c->prev_tid = payload_index(ec, "prev_tid", "prev_pid");
		c->next_tid = payload_index(ec, "next_tid", "next_pid");
	}
	return c;
}

bool spy_tasks_reads(struct spy_tasks *t, size_t ci)
{
	const struct class_task *c = class_of(t, ci);
	return threads_names_tasks(t->threads, ci) || (c && c->next_tid >= 0);
}

void spy_tasks_update(struct spy_tasks *t, const struct spoor_event *ev)
{
	threads_update(t->threads, ev);
	const struct class_task *c = class_of(t, reader_event_class_index(ev));
	int64_t cpu = reader_event_cpu(ev), tid;
	if (c && c->next_tid >= 0 && cpu >= 0 && cpu < MAX_CPUS &&
	    reader_field_int(ev, SPOOR_SCOPE_PAYLOAD, c->next_tid, &tid))
		t->on_cpu[cpu] = tid;
}

int64_t spy_tasks_tid(struct spy_tasks *t, const struct spoor_event *ev)
{
	const struct class_task *c = class_of(t, reader_event_class_index(ev));
	int64_t tid, cpu = reader_event_cpu(ev);
	if (c && c->tid.idx >= 0)
		return reader_field_int(ev, c->tid.scope, c->tid.idx, &tid) ? tid : -1;
	/* a switch happens in the task it switches out */
	if (c && c->prev_tid >= 0 && reader_field_int(ev, SPOOR_SCOPE_PAYLOAD, c->prev_tid, &tid))
		return tid;
	return cpu >= 0 && cpu < MAX_CPUS ? t->on_cpu[cpu] : -1;
}

int64_t spy_tasks_pid(struct spy_tasks *t, const struct spoor_event *ev, int64_t tid)
{
	const struct class_task *c = class_of(t, reader_event_class_index(ev));
	int64_t pid;
	if (c && c->pid.idx >= 0 && reader_field_int(ev, c->pid.scope, c->pid.idx, &pid))
		return pid;
	return tid < 0 ? -1 : threads_pid(t->threads, tid);
}

const char *spy_tasks_comm(struct spy_tasks *t, const struct spoor_event *ev, int64_t tid,
                           size_t *len)
{
	const struct class_task *c = class_of(t, reader_event_class_index(ev));
	const char *s;
	if (c && c->comm.idx >= 0 && reader_field_str(ev, c->comm.scope, c->comm.idx, &s, len))
		return s;
	s = tid < 0 ? NULL : threads_comm(t->threads, tid);
	*len = s ? strlen(s) : 0;
	return s;
}
