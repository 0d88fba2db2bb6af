/* SPDX-License-Identifier: MIT */
/*
 * sql.h: SQL over traces (docs/sql.md): an in-memory SQLite database whose tables are
 * virtual tables that read the traces as a query asks (no import step): `events`, one table
 * per event class named exactly as the class, and the models' and analyses' tables
 * (threads, sched_slices, thread_states, irqs, syscalls, disk_requests). The traces are
 * read-only, and a query reaches them and nothing else: ATTACH, extension loading and
 * writes to files are refused (guard.c).
 */
#ifndef SQL_SQL_H
#define SQL_SQL_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

struct sql_db;

/* Open the traces (spoor_reader_open's paths) and make their tables. 0, or a negative
 * error with *errmsg (malloc'd, caller frees) saying why. */
int sql_db_open(const char *const *paths, size_t npaths, struct sql_db **out, char **errmsg);
void sql_db_close(struct sql_db *db);
/* The database: prepare and step statements on it (one thread at a time). */
sqlite3 *sql_db_handle(struct sql_db *db);

/* What the queries so far have read, summed over every reader they opened: bytes of packets
 * read, and of those, bytes of packets stepped over without decoding (push-down); events: the
 * rows the events and class tables gave SQLite. */
struct sql_io {
	uint64_t bytes, skipped_bytes, packets, skipped_packets, events;
};
void sql_db_io(const struct sql_db *db, struct sql_io *io);

/* Stop the statements running now (SQLITE_INTERRUPT), including a table's pass that has
 * no row to give yet; a statement started afterwards runs. Async-signal-safe: call it from
 * a SIGINT handler or another thread. */
void sql_db_interrupt(struct sql_db *db);

/* Damage met while reading (the reader's one-line messages), in order: the caller shows
 * them, each damaged stream once. Streams damaged so far (each stream file once, however
 * many queries read it). */
typedef void (*sql_warn_fn)(void *data, const char *message);
void sql_db_set_warn(struct sql_db *db, sql_warn_fn fn, void *data);
unsigned sql_db_damaged(const struct sql_db *db);

/* Called with each reader the queries opened as it closes, for what its streams' infos
 * say (the command's warnings about lost events: spoor_reader_stream_info). */
struct spoor_reader;
typedef void (*sql_reader_done_fn)(void *data, const struct spoor_reader *r);
void sql_db_set_reader_done(struct sql_db *db, sql_reader_done_fn fn, void *data);

/* Why the guard refused the statement that just failed with SQLITE_AUTH ("ATTACH: ..."), for
 * the message after SQLite's "not authorized"; NULL when it refused nothing. */
const char *sql_db_refusal(const struct sql_db *db);

#endif
