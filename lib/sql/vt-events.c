/* SPDX-License-Identifier: MIT */
/* vt-events.c: the events table, every event of the traces (docs/sql.md "events"): the
 * columns every event has, and its payload as JSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/reader.h"
#include "scan-vtab.h"

static const enum sql_col columns[] = {
    SQL_COL_TS,  SQL_COL_TIME, SQL_COL_NAME,   SQL_COL_CPU,   SQL_COL_TID,
    SQL_COL_PID, SQL_COL_COMM, SQL_COL_STREAM, SQL_COL_TRACE, SQL_COL_OTHER,
};
#define COL_PAYLOAD 9

static const char schema[] = "CREATE TABLE x(ts INTEGER, time TEXT, name TEXT, cpu INTEGER, "
                             "tid INTEGER, pid INTEGER, comm TEXT, stream INTEGER, "
                             "trace TEXT, payload TEXT)";

static int events_connect(sqlite3 *h, void *aux, int argc, const char *const *argv,
                          sqlite3_vtab **out, char **errmsg)
{
	(void) argc;
	(void) argv;
	struct sql_db *db = aux;
	struct sql_scan_vtab *vt = sqlite3_malloc(sizeof(*vt));
	int rc;
	if (!vt)
		return SQLITE_NOMEM;
	memset(vt, 0, sizeof(*vt));
	vt->db = db;
	vt->table.cols = columns;
	vt->table.ncols = (int) (sizeof(columns) / sizeof(columns[0]));
	vt->table.rows = 1e6;
	if (sql_scan_table_init(&vt->table, db->schema, NULL, 0)) {
		sqlite3_free(vt);
		return SQLITE_NOMEM;
	}
	if ((rc = sqlite3_declare_vtab(h, schema)) != SQLITE_OK) {
		*errmsg = sqlite3_mprintf("%s", sqlite3_errmsg(h));
		sql_scan_table_fini(&vt->table);
		sqlite3_free(vt);
		return rc;
	}
	*out = &vt->base;
	return SQLITE_OK;
}

static int events_disconnect(sqlite3_vtab *base)
{
	struct sql_scan_vtab *vt = (struct sql_scan_vtab *) base;
	sql_scan_table_fini(&vt->table);
	sqlite3_free(vt);
	return SQLITE_OK;
}

/* The fields of one scope into the JSON object; a context's, but for names the payload
 * has. */
static void scope_json(struct sql_text *t, const struct spoor_event *ev, enum spoor_scope scope,
                       const struct ctf_type *payload, bool *first)
{
	struct spoor_field f;
	for (int i = 0; spoor_event_field_at(ev, scope, i, &f); i++) {
		if (scope != SPOOR_SCOPE_PAYLOAD && payload && f.name &&
		    ctf_struct_find(payload, f.name, payload->s.n) >= 0)
			continue;
		if (!*first)
			sql_text_put(t, ",", 1);
		*first = false;
		sql_json_string(t, f.name ? f.name : "", f.name ? strlen(f.name) : 0);
		sql_text_put(t, ":", 1);
		sql_json_field(t, &f);
	}
}

/* The payload's fields, then the contexts' whose names the payload does not use. */
static void payload_json(struct sql_text *t, const struct spoor_event *ev)
{
	const struct ctf_type *payload = reader_scope_type(ev, SPOOR_SCOPE_PAYLOAD);
	bool first = true;
	t->len = 0;
	sql_text_put(t, "{", 1);
	scope_json(t, ev, SPOOR_SCOPE_PAYLOAD, payload, &first);
	scope_json(t, ev, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, payload, &first);
	scope_json(t, ev, SPOOR_SCOPE_EVENT_CONTEXT, payload, &first);
	sql_text_put(t, "}", 1);
}

static int events_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	struct sql_scan_cursor *c = (struct sql_scan_cursor *) base;
	if (col != COL_PAYLOAD) {
		sql_scan_column(&c->scan, ctx, columns[col]);
		return SQLITE_OK;
	}
	const struct val_table *tab;
	uint32_t root;
	if (reader_scope_values(c->scan.ev, SPOOR_SCOPE_PAYLOAD, &tab, &root) < 0)
		return SQLITE_OK; /* damaged: NULL (the reader warned) */
	payload_json(&c->text, c->scan.ev);
	return sql_scan_text_result(c, ctx);
}

/* Not events_connect itself: SQLite makes a module whose xCreate is its xConnect an
 * eponymous table too, and `spoor_events` would be a second name for `events`. */
static int events_create(sqlite3 *h, void *aux, int argc, const char *const *argv,
                         sqlite3_vtab **out, char **errmsg)
{
	return events_connect(h, aux, argc, argv, out, errmsg);
}

static const sqlite3_module events_module = {
    .iVersion = 0,
    .xCreate = events_create,
    .xConnect = events_connect,
    .xBestIndex = sql_scan_x_best_index,
    .xDisconnect = events_disconnect,
    .xDestroy = events_disconnect,
    .xOpen = sql_scan_x_open,
    .xClose = sql_scan_x_close,
    .xFilter = sql_scan_x_filter,
    .xNext = sql_scan_x_next,
    .xEof = sql_scan_x_eof,
    .xColumn = events_column,
    .xRowid = sql_scan_x_rowid,
};

int sql_events_register(struct sql_db *db, char **errmsg)
{
	char *why = NULL;
	if (sqlite3_create_module(db->h, "spoor_events", &events_module, db) != SQLITE_OK ||
	    sqlite3_exec(db->h, "CREATE VIRTUAL TABLE temp.events USING spoor_events", NULL, NULL,
	                 &why) != SQLITE_OK) {
		*errmsg = strdup(why ? why : sqlite3_errmsg(db->h));
		sqlite3_free(why);
		return -ENOMEM;
	}
	return 0;
}
