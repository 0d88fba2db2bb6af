/* SPDX-License-Identifier: MIT */
/*
 * vt-engine.h: the engine-driven cursor of the models' and analyses' tables (docs/sql.md):
 * SQLite pulls rows one at a time while the analysis engine pushes them from its hooks. A
 * pushed row that passes the cursor's constraints goes into a small queue and pauses the
 * pass after the current event (an_engine_pause); the cursor hands the queue out, then
 * resumes the pass. So memory is the analysis's (threads, open items) and the queue, never
 * O(events).
 *
 * Push-down: ts (=, <, <=, >, >=, BETWEEN), tid (=) and cpu (=) constraints drop rows at the
 * push; SQLite checks them again (omit is never set), so a pushed constraint never changes
 * a row. The pass reads from the trace's start for its state, to the trace's end.
 */
#ifndef SQL_VT_ENGINE_H
#define SQL_VT_ENGINE_H

#include "analysis/engine.h"
#include "sql-int.h"

#define VT_MAX_COLS 12
#define VT_TEXT_MAX 256 /* a row's text, all columns together */

enum vt_type { VT_INT, VT_TEXT };

struct vt_col {
	const char *name;
	enum vt_type type;
};

struct vt_cursor;

/* One table: its columns and where its rows come from. */
struct vt_table {
	const char *name;
	const struct vt_col *cols;
	int ncols;
	int ts_col, tid_col, cpu_col; /* the columns constraints are pushed on; -1: none */
	/* Before the pass: hook what makes the rows to the engine (vt_engine(c)); the source's
	 * state in *src. 0 or a negative error. */
	int (*start)(struct vt_cursor *c, void **src);
	/* After the pass: push the rows that close at the trace's end. */
	void (*finish)(struct vt_cursor *c, void *src);
	/* The earliest ts of the rows still to come but for items not begun yet (INT64_MAX:
	 * none), or NULL: past a ts constraint's end, once this is past it too, no row that
	 * passes can still come and the pass ends there. */
	int64_t (*open_since)(void *src);
	void (*free)(void *src);
};

struct vt_row {
	int64_t v[VT_MAX_COLS];
	uint16_t off[VT_MAX_COLS]; /* VT_TEXT: where its text starts in text */
	uint32_t nulls;            /* bit per column */
	uint16_t used;             /* bytes of text used */
	char text[VT_TEXT_MAX];
};

/* Register the module of table t and make the table (temp."name"). */
int vt_engine_register(struct sql_db *db, const struct vt_table *t, char **errmsg);

struct an_engine *vt_engine(struct vt_cursor *c);

/* A new row of the cursor's table, every column NULL; fill it, then vt_row_push. */
struct vt_row *vt_row_new(struct vt_cursor *c);
void vt_row_int(struct vt_row *r, int col, int64_t v);
void vt_row_text(struct vt_row *r, int col, const char *s); /* NULL: NULL */
/* pid and comm of task tid as the trace says them now (a tid the trace never gave a
 * process is its own process, as in the analyses); tid < 0: all three NULL. */
void vt_row_task(struct vt_cursor *c, struct vt_row *r, int tid_col, int pid_col, int comm_col,
                 int64_t tid);
/* The row is complete: kept when it passes the pushed constraints (the pass then pauses). */
void vt_row_push(struct vt_cursor *c);

#endif
