/* SPDX-License-Identifier: MIT */
/* vt-syscalls.c: the syscalls table: each completed system call `spoor syscalls` counts
 * (docs/sql.md). */
#include <stdlib.h>

#include "analysis/syscalls.h"
#include "vt-analyses.h"

enum { C_TID, C_PID, C_COMM, C_NAME, C_TS, C_DUR, C_RET, C_COUNT };

static const struct vt_col cols[] = {
    [C_TID] = {"tid", VT_INT},    [C_PID] = {"pid", VT_INT}, [C_COMM] = {"comm", VT_TEXT},
    [C_NAME] = {"name", VT_TEXT}, [C_TS] = {"ts", VT_INT},   [C_DUR] = {"dur", VT_INT},
    [C_RET] = {"ret", VT_INT},
};

static void on_call(void *data, const struct sc_done *d)
{
	struct vt_cursor *c = data;
	struct vt_row *r = vt_row_new(c);
	vt_row_task(c, r, C_TID, C_PID, C_COMM, d->tid);
	vt_row_text(r, C_NAME, d->name);
	vt_row_int(r, C_TS, d->ts);
	vt_row_int(r, C_DUR, d->dur);
	if (d->has_ret)
		vt_row_int(r, C_RET, d->ret);
	vt_row_push(c);
}

static int start(struct vt_cursor *c, void **src)
{
	struct sc_analysis *a = sc_analysis_new(vt_engine(c), NULL);
	if (!a)
		return -ENOMEM;
	sc_analysis_on_call(a, on_call, c);
	*src = a;
	return 0;
}

static int64_t open_since(void *src)
{
	return sc_analysis_open_since(src);
}

static void free_src(void *src)
{
	sc_analysis_free(src);
}

const struct vt_table vt_syscalls = {
    .name = "syscalls",
    .cols = cols,
    .ncols = C_COUNT,
    .ts_col = C_TS,
    .tid_col = C_TID,
    .cpu_col = -1,
    .start = start,
    .open_since = open_since,
    .free = free_src,
};
