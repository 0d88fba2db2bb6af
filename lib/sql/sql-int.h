/* SPDX-License-Identifier: MIT */
/* sql-int.h: what lib/sql's files share: the database, readers opened for cursors, and
 * each table module's registration. */
#ifndef SQL_SQL_INT_H
#define SQL_SQL_INT_H

#include <signal.h>
#include <stdbool.h>

#include "spoor/trace.h"
#include "sql.h"

struct threads;

struct sql_db {
	sqlite3 *h;
	char **paths;
	size_t npaths;
	/* opened once, for the schema: the classes, their fields, the traces */
	struct spoor_reader *schema;
	/* LTTng's state dump read ahead once (sql_db_dump), for every cursor's task model */
	struct threads *dump;
	bool dump_read;
	struct sql_io io;
	/* the stream files found damaged so far, each counted and warned of once */
	char **damaged;
	size_t ndamaged;
	sql_warn_fn warn;
	void *warn_data;
	sql_reader_done_fn reader_done; /* sql_db_set_reader_done */
	void *reader_done_data;
	char refused[160];                 /* guard.c: why it last refused a statement */
	volatile sig_atomic_t interrupted; /* sql_db_interrupt, until a cursor starts */
};

/* Whether sql_db_interrupt was called since the last sql_db_interrupt_clear: a cursor that
 * runs long without handing SQLite a row stops (SQLITE_INTERRUPT) when it is. */
bool sql_db_interrupted(const struct sql_db *db);
/* At a cursor's start: an interrupt of an earlier statement is no longer pending. */
void sql_db_interrupt_clear(struct sql_db *db);

/* What LTTng's state dump says of the threads (model/threads.h's threads_read_dump), read
 * at the first call: NULL when the traces have none. */
const struct threads *sql_db_dump(struct sql_db *db);

/* A reader of the db's traces for one cursor, its damage reported through the db's warn
 * (each damaged stream once per db). -SPOOR_ECHANGED when its traces or classes are no
 * longer those of the schema (a class or a trace added since sql_db_open). Close it with
 * sql_reader_close, which adds its I/O to the db's. */
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
