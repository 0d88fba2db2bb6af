/* SPDX-License-Identifier: MIT */
/* vt-states.c: the thread_states table: each thread's spans of analysis/thread-states.h's
 * states, as the timeline (lib/timeline/states.h) and `spoor view` show them
 * (docs/sql.md). */
#include <stdio.h>
#include <stdlib.h>

#include "analysis/irq.h"
#include "timeline/states.h"
#include "vt-analyses.h"

enum { C_TID, C_PID, C_COMM, C_TS, C_DUR, C_STATE, C_DETAIL, C_COUNT };

static const struct vt_col cols[] = {
    [C_TID] = {"tid", VT_INT},        [C_PID] = {"pid", VT_INT}, [C_COMM] = {"comm", VT_TEXT},
    [C_TS] = {"ts", VT_INT},          [C_DUR] = {"dur", VT_INT}, [C_STATE] = {"state", VT_TEXT},
    [C_DETAIL] = {"detail", VT_TEXT},
};

struct src {
	struct vt_cursor *c;
	struct tl_states *st;
};

static void on_span(void *data, enum tl_row_kind kind, int64_t id, const struct tl_span *s)
{
	struct src *src = data;
	struct vt_cursor *c = src->c;
	if (kind != TL_ROW_THREAD)
		return;
	char num[24];
	const char *detail = NULL;
	if (s->state == TS_SYSCALL)
		detail = tl_states_syscall_name(src->st, s->value);
	else if (s->state == TS_IRQ)
		snprintf(num, sizeof(num), "%u", (unsigned) s->value), detail = num;
	else if (s->state == TS_SOFTIRQ)
		detail = irq_softirq_name(s->value);
	int64_t origin = tl_states_origin(src->st);
	struct vt_row *r = vt_row_new(c);
	vt_row_task(c, r, C_TID, C_PID, C_COMM, id);
	vt_row_int(r, C_TS, origin + s->begin);
	vt_row_int(r, C_DUR, s->end - s->begin);
	vt_row_text(r, C_STATE, thread_state_name((enum thread_state) s->state));
	vt_row_text(r, C_DETAIL, detail);
	vt_row_push(c);
}

static int start(struct vt_cursor *c, void **out)
{
	struct src *src = calloc(1, sizeof(*src));
	if (!src)
		return -ENOMEM;
	src->c = c;
	struct tl_callbacks cb = {.data = src, .span = on_span};
	int rc = tl_states_new(vt_engine(c), &cb, &src->st);
	if (rc) {
		free(src);
		return rc;
	}
	*out = src;
	return 0;
}

/* Every open span closes at the trace's end. */
static void finish(struct vt_cursor *c, void *data)
{
	struct src *src = data;
	(void) c;
	tl_states_finish(src->st);
}

static void free_src(void *data)
{
	struct src *src = data;
	tl_states_free(src->st);
	free(src);
}

const struct vt_table vt_thread_states = {
    .name = "thread_states",
    .cols = cols,
    .ncols = C_COUNT,
    .ts_col = C_TS,
    .tid_col = C_TID,
    .cpu_col = -1,
    .start = start,
    .finish = finish,
    .free = free_src,
};
