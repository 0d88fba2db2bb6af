/* SPDX-License-Identifier: MIT */
/*
 * scan.h: what the events table and the class tables share: a cursor that reads the traces
 * as a query asks (push-down, docs/sql.md "Push-down: what a query reads"), and the columns
 * every such table has.
 *
 * xBestIndex (sql_scan_best_index) takes the time range (ts =, <, <=, >, >=, BETWEEN), the
 * names (name =, IN), tids (=, IN) and a CPU (=) and orders (ORDER BY ts; GROUP BY,
 * DISTINCT or ORDER BY name); xFilter (sql_scan_filter) gives the range to the reader,
 * passes over the classes not asked for, and filters tids and CPUs before SQLite sees a row.
 */
#ifndef SQL_SCAN_H
#define SQL_SCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "sql-int.h"
#include "model/tasks.h"

/* The columns of the events table and of every class table, by meaning. */
enum sql_col {
	SQL_COL_TS,
	SQL_COL_TIME,
	SQL_COL_NAME,
	SQL_COL_CPU,
	SQL_COL_TID,
	SQL_COL_PID,
	SQL_COL_COMM,
	SQL_COL_STREAM,
	SQL_COL_TRACE,
	SQL_COL_OTHER, /* the table's own */
};

/* A table's layout: what each of its first ncols columns means. */
struct sql_scan_table {
	const enum sql_col *cols;
	int ncols;
	/* the classes the table reads (reader class indices), NULL: all */
	const size_t *classes;
	size_t nclasses;
	/* the names of those classes, sorted (strcmp), for a pass per name (GROUP BY name) */
	const char *const *names;
	size_t nnames;
	/* every stream has a clock: rows in the reader's order are in ts order */
	bool clocked;
	/* rows of a full scan, for the planner */
	double rows;
};

struct sql_scan {
	struct sql_db *db;
	const struct sql_scan_table *table;
	struct spoor_reader *r;
	const struct spoor_event *ev;
	bool eof;
	int64_t rowid;
	size_t nclasses;
	/* the query's push-down (sql_scan_filter) */
	int plan;
	bool has_range, empty;
	int64_t begin, end;
	bool *want;    /* classes asked for, per reader class; NULL: all */
	bool *in_pass; /* of those, the current pass's (a pass per name), or want */
	int64_t *tids;
	size_t ntids;
	bool has_cpu;
	int64_t cpu;
	size_t pass, npasses; /* a pass per name: the names in table->names, or want's */
	const char **pass_names;
	bool first_only;     /* DISTINCT name: the pass's first row will do */
	uint64_t *census;    /* PLAN_CENSUS: the events of each pass's name */
	uint64_t left;       /* PLAN_CENSUS: the rows the pass has yet to give */
	size_t pass_len;     /* PLAN_CENSUS: the length of the pass's name */
	bool pass_done;      /* first_only: the pass gave its row */
	bool check;          /* rows need a look before SQLite sees them (filters, model) */
	bool check_class;    /* the reader delivers classes not in the pass (model, unordered) */
	struct tasks *tasks; /* tid, pid, comm: NULL when no column asks */
	/* the current row's tid, once asked */
	bool tid_done, tid_known;
	int64_t tid;
};

/* Fill a table's names and clocked from its classes (NULL: all of the schema reader's);
 * 0 or -ENOMEM. The fini frees the names. */
int sql_scan_table_init(struct sql_scan_table *t, struct spoor_reader *schema,
                        const size_t *classes, size_t nclasses);
void sql_scan_table_fini(struct sql_scan_table *t);

int sql_scan_best_index(const struct sql_scan_table *t, sqlite3_index_info *info);
int sql_scan_filter(struct sql_scan *s, struct sql_db *db, const struct sql_scan_table *t, int plan,
                    const char *roles, int argc, sqlite3_value **argv, char **errmsg);
int sql_scan_next(struct sql_scan *s, char **errmsg);
void sql_scan_close(struct sql_scan *s);
/* The value of a common column for the current row (SQL_COL_OTHER: nothing). */
void sql_scan_column(struct sql_scan *s, sqlite3_context *ctx, enum sql_col col);

/* What lib/sql/scan*.c share: a class's name (the schema reader's); xFilter's arguments
 * into s (range, tids, CPU) and *named (the classes a name constraint names, made when
 * there is one). 0 or -ENOMEM. */
const char *sql_scan_class_name(const struct sql_scan *s, size_t c);
int sql_scan_take_args(struct sql_scan *s, const char *roles, int argc, sqlite3_value **argv,
                       bool **named);
/* qsort's and bsearch's order of int64_t (the tids, sorted once each has its place) */
int sql_scan_by_value(const void *a, const void *b);

#endif
