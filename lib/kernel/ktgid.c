/* SPDX-License-Identifier: MIT */
/* ktgid.c: threads' processes, tid -> tgid (see ktgid.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "ktgid.h"
#include "procwalk.h"
#include "util/runhash.h"

#define MAX_LINKS 64 /* a chain of threads making threads; longer (a loop in bad input) stops */

void ktgid_init(struct ktgid *m, const char *proc_root)
{
	*m = (struct ktgid){.proc_root = proc_root};
}

void ktgid_free(struct ktgid *m)
{
	free(m->v);
	*m = (struct ktgid){0};
}

static struct ktgid_slot *slot_of(const struct ktgid *m, int32_t tid)
{
	size_t i = fibhash((uint32_t) tid, m->cap);
	while (m->v[i].tid && m->v[i].tid != tid)
		i = (i + 1) & (m->cap - 1);
	return &m->v[i];
}

/* Room for one more at a load of at most a half. */
static int reserve(struct ktgid *m)
{
	if (2 * (m->n + 1) <= m->cap)
		return 0;
	struct ktgid old = *m;
	m->cap = old.cap ? 2 * old.cap : 1024;
	m->v = calloc(m->cap, sizeof(*m->v));
	if (!m->v) {
		*m = old; /* full: the new fact is dropped (a look-up falls back) */
		return -1;
	}
	for (size_t i = 0; i < old.cap; i++)
		if (old.v[i].tid)
			*slot_of(m, old.v[i].tid) = old.v[i];
	free(old.v);
	return 0;
}

/* tid's slot, made when new (NULL: tid 0, each CPU's idle task, is never made by a fork;
 * or no room: the fact is dropped, a look-up falls back). */
static struct ktgid_slot *put(struct ktgid *m, int32_t tid)
{
	if (tid <= 0 || reserve(m))
		return NULL;
	struct ktgid_slot *s = slot_of(m, tid);
	if (!s->tid) {
		*s = (struct ktgid_slot){.tid = tid};
		m->n++;
	}
	return s;
}

void ktgid_set(struct ktgid *m, int32_t tid, int32_t tgid)
{
	struct ktgid_slot *s = tgid > 0 ? put(m, tid) : NULL;
	if (s)
		s->val = tgid;
}

void ktgid_new_task(struct ktgid *m, int32_t tid, int32_t creator, uint64_t clone_flags)
{
	bool thread = clone_flags & KTGID_CLONE_THREAD;
	struct ktgid_slot *s = !thread || (creator > 0 && creator != tid) ? put(m, tid) : NULL;
	if (s) /* a tid met again: a new task, whose namespace is not known yet */
		*s = (struct ktgid_slot){tid, thread ? -creator : tid, 0};
}

void ktgid_set_ns(struct ktgid *m, int32_t tid, uint32_t pid_ns)
{
	struct ktgid_slot *s = pid_ns ? put(m, tid) : NULL;
	if (s)
		s->pid_ns = pid_ns;
}

uint32_t ktgid_ns(const struct ktgid *m, int32_t tid)
{
	const struct ktgid_slot *s = m->cap && tid > 0 ? slot_of(m, tid) : NULL;
	return s && s->tid ? s->pid_ns : 0;
}

/* From the machine's /proc, or 0. */
static int32_t from_proc(const struct ktgid *m, int32_t tid)
{
	char dir[600];
	struct proc_status st;
	if (!m->proc_root)
		return 0;
	snprintf(dir, sizeof(dir), "%s/%d", m->proc_root, (int) tid);
	return proc_status(dir, &st) == 0 && st.nstgid[0] > 0 ? st.nstgid[0] : 0;
}

int32_t ktgid_get(const struct ktgid *m, int32_t tid)
{
	for (int links = 0; links < MAX_LINKS && m->cap && tid > 0; links++) {
		const struct ktgid_slot *s = slot_of(m, tid);
		if (!s->tid || !s->val)
			break;
		if (s->val > 0)
			return s->val;
		tid = -s->val;
	}
	int32_t p = tid > 0 ? from_proc(m, tid) : 0;
	return p ? p : tid;
}
