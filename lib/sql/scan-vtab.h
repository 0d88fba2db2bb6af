/* SPDX-License-Identifier: MIT */
/* scan-vtab.h: the sqlite3_module methods the events table and the class tables share
 * (all but connecting and the columns): their tables and cursors start with these. */
#ifndef SQL_SCAN_VTAB_H
#define SQL_SCAN_VTAB_H

#include "scan.h"
#include "text.h"

struct sql_scan_vtab {
	sqlite3_vtab base;
	struct sql_db *db;
	struct sql_scan_table table;
};

struct sql_scan_cursor {
	sqlite3_vtab_cursor base;
	struct sql_scan scan;
	struct sql_text text; /* a cell built as text (JSON) */
	/* the current event's class and its place among the table's classes */
	size_t last_class, last_slot;
};

/* Text built in c->text as the cell's value. */
int sql_scan_text_result(struct sql_scan_cursor *c, sqlite3_context *ctx);

int sql_scan_x_best_index(sqlite3_vtab *base, sqlite3_index_info *info);
int sql_scan_x_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out);
int sql_scan_x_close(sqlite3_vtab_cursor *base);
int sql_scan_x_filter(sqlite3_vtab_cursor *base, int plan, const char *roles, int argc,
                      sqlite3_value **argv);
int sql_scan_x_next(sqlite3_vtab_cursor *base);
int sql_scan_x_eof(sqlite3_vtab_cursor *base);
int sql_scan_x_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid);

#endif
