/* SPDX-License-Identifier: MIT */
/* sql-int.h: what lib/sql's files share: the database, readers opened for cursors, and
 * each table module's registration. */
#ifndef SQL_SQL_INT_H
#define SQL_SQL_INT_H

#include <stdbool.h>

#include "spoor/trace.h"
#include "sql.h"

struct sql_db {
	sqlite3 *h;
	char **paths;
	size_t npaths;
	/* opened once, for the schema: the classes, their fields, the traces */
	struct spoor_reader *schema;
	struct sql_io io;
	unsigned damaged;
	sql_warn_fn warn;
	void *warn_data;
	char refused[160]; /* guard.c: why it last refused a statement */
};

/* A reader of the db's traces for one cursor, its damage reported through the db's warn.
 * Close it with sql_reader_close, which adds its I/O to the db's. */
int sql_reader_open(struct sql_db *db, struct spoor_reader **out);
void sql_reader_close(struct sql_db *db, struct spoor_reader *r);

/* The table modules: each makes its tables in db->h (0 or a negative error, *errmsg set). */
int sql_events_register(struct sql_db *db, char **errmsg);   /* vt-events.c: events */
int sql_classes_register(struct sql_db *db, char **errmsg);  /* vt-classes.c: a table per class */
int sql_analyses_register(struct sql_db *db, char **errmsg); /* vt-analyses.c: models, analyses */
/* guard.c: the authorizer and limits, set last (the tables are made before it) */
int sql_guard(struct sql_db *db, char **errmsg);
/* guard.c: temporary tables in memory, set first (setting it drops the temp schema's tables) */
int sql_guard_memory(struct sql_db *db, char **errmsg);

#endif
