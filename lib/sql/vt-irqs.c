/* SPDX-License-Identifier: MIT */
/* vt-irqs.c: the irqs table: each handler run `spoor irq` counts (docs/sql.md). */
#include "analysis/irq.h"
#include "vt-analyses.h"

enum { C_CPU, C_IRQ, C_NAME, C_SOFT, C_TS, C_DUR, C_TID, C_COUNT };

static const struct vt_col cols[] = {
    [C_CPU] = {"cpu", VT_INT},   [C_IRQ] = {"irq", VT_INT}, [C_NAME] = {"name", VT_TEXT},
    [C_SOFT] = {"soft", VT_INT}, [C_TS] = {"ts", VT_INT},   [C_DUR] = {"dur", VT_INT},
    [C_TID] = {"tid", VT_INT},
};

static void on_run(void *data, const struct irq_run *run)
{
	struct vt_cursor *c = data;
	struct vt_row *r = vt_row_new(c);
	vt_row_int(r, C_CPU, run->cpu);
	vt_row_int(r, C_IRQ, run->irq);
	vt_row_text(r, C_NAME, run->name[0] ? run->name : NULL);
	vt_row_int(r, C_SOFT, run->soft);
	vt_row_int(r, C_TS, run->ts);
	vt_row_int(r, C_DUR, run->dur);
	if (run->tid >= 0)
		vt_row_int(r, C_TID, run->tid);
	vt_row_push(c);
}

static int start(struct vt_cursor *c, void **src)
{
	struct irq_analysis *a = irq_analysis_new(vt_engine(c));
	if (!a)
		return -ENOMEM;
	irq_analysis_on_run(a, on_run, c);
	*src = a;
	return 0;
}

static int64_t open_since(void *src)
{
	return irq_analysis_open_since(src);
}

static void free_src(void *src)
{
	irq_analysis_free(src);
}

const struct vt_table vt_irqs = {
    .name = "irqs",
    .cols = cols,
    .ncols = C_COUNT,
    .ts_col = C_TS,
    .tid_col = C_TID,
    .cpu_col = C_CPU,
    .start = start,
    .open_since = open_since,
    .free = free_src,
};
