/* SPDX-License-Identifier: MIT */
/* vt-threads.c: the threads table: every thread the traces show, with its process and
 * name as the traces end (model/threads.h through the engine) and the times of the first
 * and last events that show it (docs/sql.md). */
#include <stdlib.h>

#include "analysis/idmap.h"
#include "util/grow.h"
#include "vt-analyses.h"

enum { C_TID, C_PID, C_COMM, C_FIRST_TS, C_LAST_TS, C_COUNT };

static const struct vt_col cols[] = {
    [C_TID] = {"tid", VT_INT},         [C_PID] = {"pid", VT_INT},
    [C_COMM] = {"comm", VT_TEXT},      [C_FIRST_TS] = {"first_ts", VT_INT},
    [C_LAST_TS] = {"last_ts", VT_INT},
};

struct seen {
	int64_t tid, first, last;
};

struct src {
	struct seen *v;
	size_t n, cap;
	struct idmap by_tid;
	bool oom;
};

static void sight(struct src *s, int64_t tid, int64_t ts)
{
	if (tid < 0)
		return;
	uint32_t *i = idmap_find(&s->by_tid, (uint64_t) tid);
	if (i) {
		s->v[*i].last = ts; /* the hooks' times never go back */
		return;
	}
	if (grow_one(&s->v, s->n, &s->cap, sizeof(*s->v), 256) ||
	    idmap_add(&s->by_tid, (uint64_t) tid, (uint32_t) s->n)) {
		s->oom = true;
		return;
	}
	s->v[s->n++] = (struct seen){tid, ts, ts};
}

/* Any event: the task it happened in, and the one its payload names, if any. */
static void on_event(void *data, const struct an_event *ev)
{
	static const int8_t named[KEV_COUNT] = {
	    [KEV_SCHED_WAKEUP] = KS_TID + 1,       [KEV_SCHED_WAKING] = KS_TID + 1,
	    [KEV_PROCESS_FORK] = KS_CHILD_TID + 1, [KEV_PROCESS_EXEC] = KS_EXEC_TID + 1,
	    [KEV_PROCESS_EXIT] = KS_EXIT_TID + 1,  [KEV_TASK_RENAME] = KS_RENAME_TID + 1,
	    [KEV_STATEDUMP] = KS_DUMP_TID + 1,
	};
	struct src *s = data;
	int64_t tid;
	if (ev->kind != KEV_STATEDUMP) /* the dumping task is spoor's or LTTng's */
		sight(s, ev->tid, ev->ts);
	if (ev->kind == KEV_SCHED_SWITCH) {
		if (kv_int(ev->ev, ev->cls, KS_PREV_TID, &tid))
			sight(s, tid, ev->ts);
		if (ev->has_next_tid)
			sight(s, ev->next_tid, ev->ts);
	} else if (named[ev->kind] && kv_int(ev->ev, ev->cls, named[ev->kind] - 1, &tid))
		sight(s, tid, ev->ts);
}

static int start(struct vt_cursor *c, void **out)
{
	struct src *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->by_tid.runs = true;
	int rc = an_engine_on_name(vt_engine(c), "*", on_event, s);
	if (rc) {
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

/* The rows, at the end: each thread's process and name as the traces end. */
static void finish(struct vt_cursor *c, void *data)
{
	struct src *s = data;
	for (size_t i = 0; i < s->n; i++) {
		struct vt_row *r = vt_row_new(c);
		vt_row_task(c, r, C_TID, C_PID, C_COMM, s->v[i].tid);
		vt_row_int(r, C_FIRST_TS, s->v[i].first);
		vt_row_int(r, C_LAST_TS, s->v[i].last);
		vt_row_push(c);
	}
}

static void free_src(void *data)
{
	struct src *s = data;
	idmap_free(&s->by_tid);
	free(s->v);
	free(s);
}

const struct vt_table vt_threads = {
    .name = "threads",
    .cols = cols,
    .ncols = C_COUNT,
    .ts_col = -1,
    .tid_col = C_TID,
    .cpu_col = -1,
    .start = start,
    .finish = finish,
    .free = free_src,
};
