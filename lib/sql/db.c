/* SPDX-License-Identifier: MIT */
/* db.c: the database of one `spoor sql` (or Python trace): the traces' paths, a reader
 * for the schema, a reader per cursor, their I/O summed; the tables made, then guarded. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql-int.h"

static char *dup_message(const char *what, const char *why)
{
	char *m = NULL;
	if (asprintf(&m, "%s%s%s", what, why ? ": " : "", why ? why : "") < 0)
		return NULL;
	return m;
}

static void reader_warn(void *data, const char *message)
{
	struct sql_db *db = data;
	if (db->warn)
		db->warn(db->warn_data, message);
	else
		fprintf(stderr, "warning: %s\n", message);
}

int sql_reader_open(struct sql_db *db, struct spoor_reader **out)
{
	int rc = spoor_reader_open((const char *const *) db->paths, db->npaths, out, NULL);
	if (!rc)
		spoor_reader_set_warn(*out, reader_warn, db);
	return rc;
}

void sql_reader_close(struct sql_db *db, struct spoor_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0, n = spoor_reader_stream_count(r); i < n; i++) {
		struct spoor_stream_info si;
		spoor_reader_stream_info(r, i, &si);
		db->io.bytes += si.bytes;
		db->io.packets += si.packets;
		db->io.skipped_bytes += si.skipped_bytes;
		db->io.skipped_packets += si.skipped_packets;
	}
	db->damaged += spoor_reader_damaged(r);
	spoor_reader_close(r);
}

int sql_db_open(const char *const *paths, size_t npaths, struct sql_db **out, char **errmsg)
{
	struct sql_db *db = calloc(1, sizeof(*db));
	char *why = NULL;
	int rc = -ENOMEM;

	*out = NULL;
	if (errmsg)
		*errmsg = NULL;
	if (!db || !(db->paths = calloc(npaths + 1, sizeof(*db->paths))))
		goto fail;
	for (; db->npaths < npaths; db->npaths++)
		if (!(db->paths[db->npaths] = strdup(paths[db->npaths])))
			goto fail;
	if ((rc = spoor_reader_open(paths, npaths, &db->schema, &why)))
		goto fail;
	spoor_reader_set_warn(db->schema, reader_warn, db);
	/* a private in-memory database: nothing of it is a file. One thread at a time (sql.h):
	 * no mutex, which Debian's serialized SQLite takes in every sqlite3_column_* call */
	if (sqlite3_open_v2(":memory:", &db->h,
	                    SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX,
	                    NULL) != SQLITE_OK) {
		why = strdup(db->h ? sqlite3_errmsg(db->h) : "out of memory");
		rc = -ENOMEM;
		goto fail;
	}
	if ((rc = sql_guard_memory(db, &why)) || (rc = sql_events_register(db, &why)) ||
	    (rc = sql_classes_register(db, &why)) || (rc = sql_analyses_register(db, &why)) ||
	    (rc = sql_guard(db, &why)))
		goto fail;
	*out = db;
	return 0;
fail:
	if (errmsg)
		*errmsg = why ? why : dup_message("cannot open the traces", spoor_strerror(rc));
	else
		free(why);
	sql_db_close(db);
	return rc;
}

void sql_db_close(struct sql_db *db)
{
	if (!db)
		return;
	sqlite3_close_v2(db->h);
	spoor_reader_close(db->schema);
	for (size_t i = 0; i < db->npaths; i++)
		free(db->paths[i]);
	free(db->paths);
	free(db);
}

sqlite3 *sql_db_handle(struct sql_db *db)
{
	return db->h;
}

void sql_db_io(const struct sql_db *db, struct sql_io *io)
{
	*io = db->io;
}

void sql_db_set_warn(struct sql_db *db, sql_warn_fn fn, void *data)
{
	db->warn = fn;
	db->warn_data = data;
}

unsigned sql_db_damaged(const struct sql_db *db)
{
	return db->damaged;
}
