/* SPDX-License-Identifier: MIT */
/* db.c: the database of one `spoor sql` (or Python trace): the traces' paths, a reader
 * for the schema, a reader per cursor, their I/O summed; the tables made, then guarded. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/threads.h"
#include "reader/reader.h"
#include "sql-int.h"

static char *dup_message(const char *what, const char *why)
{
	char *m = NULL;
	if (asprintf(&m, "%s%s%s", what, why ? ": " : "", why ? why : "") < 0)
		return NULL;
	return m;
}

/* Whether stream file path[0, len) was counted damaged already. */
static bool known_damaged(const struct sql_db *db, const char *path, size_t len)
{
	for (size_t i = 0; i < db->ndamaged; i++)
		if (strlen(db->damaged[i]) == len && !memcmp(db->damaged[i], path, len))
			return true;
	return false;
}

/* Count stream file path[0, len) as damaged, once per db: false when it already was. */
static bool add_damaged(struct sql_db *db, const char *path, size_t len)
{
	if (known_damaged(db, path, len))
		return false;
	char **d = realloc(db->damaged, (db->ndamaged + 1) * sizeof(*d));
	if (!d)
		return true;
	db->damaged = d;
	if ((d[db->ndamaged] = strndup(path, len)))
		db->ndamaged++;
	return true;
}

static void reader_warn(void *data, const char *message)
{
	struct sql_db *db = data;
	/* damage is "PATH: ...": said and counted once, by the first reader that met it */
	const char *colon = strstr(message, ": ");
	if (colon && !add_damaged(db, message, (size_t) (colon - message)))
		return;
	if (db->warn)
		db->warn(db->warn_data, message);
	else
		fprintf(stderr, "warning: %s\n", message);
}

/* Whether reader r has the schema's traces and classes, at the same indices (the tables'
 * columns and the cursors' arrays follow the schema's). */
static bool same_as_schema(const struct spoor_reader *schema, const struct spoor_reader *r)
{
	size_t n = spoor_reader_event_class_count(r);
	if (spoor_reader_trace_count(r) != spoor_reader_trace_count(schema) ||
	    n != spoor_reader_event_class_count(schema))
		return false;
	for (size_t c = 0; c < n; c++) {
		const struct spoor_event_class *a = spoor_reader_event_class(schema, c),
		                               *b = spoor_reader_event_class(r, c);
		if (a->trace != b->trace || a->sc->id != b->sc->id ||
		    spoor_event_class_id(a) != spoor_event_class_id(b) ||
		    strcmp(spoor_event_class_name(a), spoor_event_class_name(b)))
			return false;
	}
	return true;
}

int sql_reader_open(struct sql_db *db, struct spoor_reader **out)
{
	int rc = spoor_reader_open((const char *const *) db->paths, db->npaths, out, NULL);
	if (rc)
		return rc;
	/* a live trace's metadata grows, a folder gains a trace: the schema no longer fits */
	if (!same_as_schema(db->schema, *out)) {
		spoor_reader_close(*out);
		*out = NULL;
		return -SPOOR_ECHANGED;
	}
	spoor_reader_set_warn(*out, reader_warn, db);
	return 0;
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
		if (si.damaged)
			add_damaged(db, si.path, strlen(si.path));
	}
	if (db->reader_done)
		db->reader_done(db->reader_done_data, r);
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
	threads_free(db->dump); /* (it knows the schema's reader) */
	spoor_reader_close(db->schema);
	for (size_t i = 0; i < db->ndamaged; i++)
		free(db->damaged[i]);
	free(db->damaged);
	for (size_t i = 0; i < db->npaths; i++)
		free(db->paths[i]);
	free(db->paths);
	free(db);
}

const struct threads *sql_db_dump(struct sql_db *db)
{
	if (!db->dump_read) {
		db->dump = threads_read_dump(db->schema);
		db->dump_read = true;
	}
	return db->dump;
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

void sql_db_set_reader_done(struct sql_db *db, sql_reader_done_fn fn, void *data)
{
	db->reader_done = fn;
	db->reader_done_data = data;
}

unsigned sql_db_damaged(const struct sql_db *db)
{
	return (unsigned) db->ndamaged;
}

void sql_db_interrupt(struct sql_db *db)
{
	db->interrupted = 1;
	sqlite3_interrupt(db->h);
}

bool sql_db_interrupted(const struct sql_db *db)
{
	return db->interrupted;
}

void sql_db_interrupt_clear(struct sql_db *db)
{
	db->interrupted = 0;
}
