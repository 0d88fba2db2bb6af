/* SPDX-License-Identifier: MIT */
/* tasks.c: each event's task, process and name (see tasks.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kvocab.h"
#include "model/threads.h"
#include "reader/reader.h"
#include "tasks.h"

#define TASKS_CPUS 4096 /* CPUs whose running task is followed */

/* A field of one of an event's scopes (index -1: none). */
struct place {
	int8_t scope;
	int index;
};

struct task_class {
	bool resolved;
	bool is_switch; /* its next task takes the CPU */
	/* a user-space event (a vtid): its own vpid and procname name its process, or the
	 * trace's env procname (spoor's user-space traces); the model never reads it */
	bool user;
	struct place tid, pid, comm;
	const char *procname;
	struct kclass_ref *ref; /* switches: where next_tid is */
};

struct sql_tasks {
	struct spoor_reader *r;
	struct threads *threads; /* NULL without the model */
	struct task_class *classes;
	size_t nclasses;
	int64_t pending_cpu, pending_tid; /* a switch's next task, for the next event */
	int64_t cur[TASKS_CPUS];          /* -1: unknown */
};

struct sql_tasks *sql_tasks_new(struct spoor_reader *r, bool model)
{
	struct sql_tasks *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->r = r;
	t->nclasses = spoor_reader_event_class_count(r);
	t->classes = calloc(t->nclasses + 1, sizeof(*t->classes));
	if (!t->classes || (model && !(t->threads = threads_new(r)))) {
		sql_tasks_free(t);
		return NULL;
	}
	t->pending_cpu = -1;
	for (size_t i = 0; i < TASKS_CPUS; i++)
		t->cur[i] = -1;
	return t;
}

void sql_tasks_free(struct sql_tasks *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nclasses; i++)
		free(t->classes[i].ref);
	free(t->classes);
	threads_free(t->threads);
	free(t);
}

/* The first of the names that one of the contexts has: the stream's event context, the
 * class's, or the packet's. */
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

/* The class's own fields: its tid is common_pid (ftrace's), a tid context (LTTng's) or a
 * vtid (a user-space trace's). */
static struct task_class *resolve(struct sql_tasks *t, size_t c)
{
	static const char *const tids[] = {"common_pid", "tid", "vtid"}, *const vpid = "vpid",
	                         *const procname = "procname";
	struct task_class *k = &t->classes[c];
	if (k->resolved)
		return k;
	const struct spoor_event_class *ec = spoor_reader_event_class(t->r, c);
	k->resolved = true;
	k->tid = context_field(ec, tids, 2);
	if (k->tid.index < 0 && (k->tid = context_field(ec, tids + 2, 1)).index >= 0) {
		k->user = true;
		k->pid = context_field(ec, &vpid, 1);
		k->comm = context_field(ec, &procname, 1);
		k->procname = spoor_reader_trace_env(t->r, ec->trace, "procname");
		return k;
	}
	struct kclass_ref ref;
	kvocab_kind(ec, KSC_UNDECIDED, &ref);
	if (ref.kind == KEV_SCHED_SWITCH && (k->ref = malloc(sizeof(*k->ref)))) {
		kvocab_resolve(ec, KSC_UNDECIDED, k->ref);
		k->is_switch = k->ref->idx[KS_NEXT_TID] >= 0;
	}
	return k;
}

bool sql_tasks_class_has_tid(struct sql_tasks *t, size_t class_index)
{
	return class_index < t->nclasses && resolve(t, class_index)->tid.index >= 0;
}

bool sql_tasks_reads(struct sql_tasks *t, size_t class_index)
{
	if (!t->threads || class_index >= t->nclasses)
		return false;
	const struct task_class *k = resolve(t, class_index);
	return k->is_switch || (!k->user && threads_names_tasks(t->threads, class_index));
}

void sql_tasks_event(struct sql_tasks *t, const struct spoor_event *ev)
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
	struct task_class *k = resolve(t, c);
	if (k->user)
		return;
	threads_update(t->threads, ev);
	int64_t cpu = reader_event_cpu(ev), next;
	if (k->is_switch && cpu >= 0 && cpu < TASKS_CPUS &&
	    kv_int(ev, k->ref, KS_NEXT_TID, &next)) {
		t->pending_cpu = cpu;
		t->pending_tid = next;
	}
}

bool sql_tasks_tid(struct sql_tasks *t, const struct spoor_event *ev, int64_t *tid)
{
	size_t c = reader_event_class_index(ev);
	if (c >= t->nclasses)
		return false;
	struct task_class *k = resolve(t, c);
	if (k->tid.index >= 0)
		return reader_field_int(ev, (enum spoor_scope) k->tid.scope, k->tid.index, tid);
	int64_t cpu = reader_event_cpu(ev);
	if (!t->threads || cpu < 0 || cpu >= TASKS_CPUS || t->cur[cpu] < 0)
		return false;
	*tid = t->cur[cpu];
	return true;
}

int64_t sql_tasks_pid(struct sql_tasks *t, const struct spoor_event *ev, int64_t tid)
{
	const struct task_class *k = resolve(t, reader_event_class_index(ev));
	int64_t pid;
	if (k->user)
		return k->pid.index >= 0 && reader_field_int(ev, (enum spoor_scope) k->pid.scope,
		                                             k->pid.index, &pid)
		           ? pid
		           : -1;
	return t->threads ? threads_pid(t->threads, tid) : -1;
}

const char *sql_tasks_comm(struct sql_tasks *t, const struct spoor_event *ev, int64_t tid,
                           size_t *len)
{
	const struct task_class *k = resolve(t, reader_event_class_index(ev));
	const char *s = NULL;
	if (k->user) {
		if (k->comm.index >= 0 && reader_field_str(ev, (enum spoor_scope) k->comm.scope,
		                                           k->comm.index, &s, len)) {
			const char *nul = memchr(s, '\0', *len);
			*len = nul ? (size_t) (nul - s) : *len;
			return s;
		}
		s = k->procname;
	} else if (t->threads) {
		s = threads_comm(t->threads, tid);
	}
	*len = s ? strlen(s) : 0;
	return s;
}

int sql_tasks_prepass(struct sql_tasks *t, struct sql_db *db, int64_t begin)
{
	struct spoor_reader *r;
	int rc;
	if (!t->threads || begin == INT64_MIN)
		return 0;
	if ((rc = sql_reader_open(db, &r)))
		return rc;
	bool *pass = calloc(t->nclasses + 1, sizeof(*pass));
	if (!pass) {
		sql_reader_close(db, r);
		return -ENOMEM;
	}
	bool any = false;
	for (size_t c = 0; c < t->nclasses; c++)
		any |= !(pass[c] = !sql_tasks_reads(t, c));
	if (!any) { /* user-space traces: their events name their own processes */
		free(pass);
		sql_reader_close(db, r);
		return 0;
	}
	spoor_reader_set_range(r, INT64_MIN, begin - 1);
	reader_pass_over(r, pass, t->nclasses, INT64_MIN, begin - 1);
	free(pass);
	const struct spoor_event *ev;
	for (unsigned n = 0; (rc = reader_next(r, &ev)) > 0;) {
		sql_tasks_event(t, ev);
		if (__builtin_expect(++n % 1024 == 0, 0) && sql_db_interrupted(db)) {
			rc = -EINTR; /* Ctrl-C: the pre-pass may read most of the trace */
			break;
		}
	}
	sql_reader_close(db, r);
	return rc;
}
