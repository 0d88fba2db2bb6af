/* SPDX-License-Identifier: MIT */
/* vt-sched.c: the sched_slices table: each interval of a task on a CPU that `spoor sched`
 * counts in its CPU time (docs/sql.md). */
#include "analysis/sched.h"
#include "vt-analyses.h"

enum { C_CPU, C_TID, C_PID, C_COMM, C_TS, C_DUR, C_END_STATE, C_WAKEUP_TS, C_COUNT };

static const struct vt_col cols[] = {
    [C_CPU] = {"cpu", VT_INT},
    [C_TID] = {"tid", VT_INT},
    [C_PID] = {"pid", VT_INT},
    [C_COMM] = {"comm", VT_TEXT},
    [C_TS] = {"ts", VT_INT},
    [C_DUR] = {"dur", VT_INT},
    [C_END_STATE] = {"end_state", VT_TEXT},
    [C_WAKEUP_TS] = {"wakeup_ts", VT_INT},
};

static void on_slice(void *data, const struct sched_slice *s)
{
	struct vt_cursor *c = data;
	struct vt_row *r = vt_row_new(c);
	vt_row_int(r, C_CPU, s->cpu);
	vt_row_task(c, r, C_TID, C_PID, C_COMM, s->tid);
	vt_row_int(r, C_TS, s->ts);
	vt_row_int(r, C_DUR, s->dur);
	vt_row_text(r, C_END_STATE, s->end_state);
	if (s->wake >= 0)
		vt_row_int(r, C_WAKEUP_TS, s->wake);
	vt_row_push(c);
}

static int start(struct vt_cursor *c, void **src)
{
	struct sched_analysis *a = sched_analysis_new(vt_engine(c), 0);
	if (!a)
		return -ENOMEM;
	sched_analysis_on_slice(a, on_slice, c);
	*src = a;
	return 0;
}

/* What runs at the end runs to it. */
static void finish(struct vt_cursor *c, void *src)
{
	(void) c;
	sched_analysis_finish(src);
}

static int64_t open_since(void *src)
{
	return sched_analysis_open_since(src);
}

static void free_src(void *src)
{
	sched_analysis_free(src);
}

const struct vt_table vt_sched_slices = {
    .name = "sched_slices",
    .cols = cols,
    .ncols = C_COUNT,
    .ts_col = C_TS,
    .tid_col = C_TID,
    .cpu_col = C_CPU,
    .start = start,
    .finish = finish,
    .open_since = open_since,
    .free = free_src,
};
