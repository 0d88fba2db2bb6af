/* SPDX-License-Identifier: MIT */
/*
 * vt-classes.c: a table per event class (docs/sql.md "A table per event class"), named
 * exactly as the class: the columns every event has, then the class's fields as typed
 * columns (class-columns.h), over every class of that name in every trace.
 *
 * Table names: SQLite's ignore case, so of two classes whose names differ only in case the
 * second (in byte order) is "NAME#2" (then #3, ...); so is a class named as another table
 * (events, threads, ...). A name SQLite reserves (sqlite_...) gets a '_' in front.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "class-columns.h"
#include "reader/reader.h"
#include "scan-vtab.h"

static const enum sql_col fixed_cols[] = {SQL_COL_TS,  SQL_COL_TIME, SQL_COL_CPU,    SQL_COL_TID,
                                          SQL_COL_PID, SQL_COL_COMM, SQL_COL_STREAM, SQL_COL_TRACE};
static const char *const fixed_names[] = {"ts",  "time", "cpu",    "tid",
                                          "pid", "comm", "stream", "trace"};
static const char *const fixed_types[] = {"INTEGER", "TEXT", "INTEGER", "INTEGER",
                                          "INTEGER", "TEXT", "INTEGER", "TEXT"};
#define NFIXED 8

/* The other tables' names (events.c, vt-analyses): a class of one of these names is
 * numbered. */
static const char *const reserved[] = {"events", "threads",  "sched_slices", "thread_states",
                                       "irqs",   "syscalls", "disk_requests"};

struct class_table {
	char *table;     /* its SQL name */
	size_t *classes; /* the schema reader's classes of that name */
	size_t nclasses;
};

struct class_tables {
	struct sql_db *db;
	struct class_table *t;
	size_t n;
};

struct class_vtab {
	struct sql_scan_vtab v; /* first: the shared methods take it */
	const struct class_table *ct;
	struct class_columns cols;
};

static int fail_connect(struct class_vtab *vt, char **errmsg, const char *why)
{
	*errmsg = sqlite3_mprintf("%s", why);
	sql_scan_table_fini(&vt->v.table);
	class_columns_free(&vt->cols);
	sqlite3_free(vt);
	return SQLITE_ERROR;
}

static int class_connect(sqlite3 *h, void *aux, int argc, const char *const *argv,
                         sqlite3_vtab **out, char **errmsg)
{
	struct class_tables *all = aux;
	size_t i = argc > 3 ? strtoul(argv[3], NULL, 10) : SIZE_MAX;
	if (i >= all->n) {
		*errmsg = sqlite3_mprintf("spoor_class: no such table");
		return SQLITE_ERROR;
	}
	struct class_vtab *vt = sqlite3_malloc(sizeof(*vt));
	if (!vt)
		return SQLITE_NOMEM;
	memset(vt, 0, sizeof(*vt));
	vt->v.db = all->db;
	vt->ct = &all->t[i];
	vt->v.table.cols = fixed_cols;
	vt->v.table.ncols = NFIXED;
	vt->v.table.rows = 1e5;
	if (sql_scan_table_init(&vt->v.table, all->db->schema, vt->ct->classes, vt->ct->nclasses) ||
	    class_columns_build(&vt->cols, all->db->schema, vt->ct->classes, vt->ct->nclasses,
	                        fixed_names, NFIXED))
		return fail_connect(vt, errmsg, "out of memory");
	sqlite3_str *s = sqlite3_str_new(h);
	sqlite3_str_appendall(s, "CREATE TABLE x(");
	for (int c = 0; c < NFIXED; c++)
		sqlite3_str_appendf(s, "%s%s %s", c ? ", " : "", fixed_names[c], fixed_types[c]);
	for (size_t c = 0; c < vt->cols.ncols; c++)
		sqlite3_str_appendf(s, ", \"%w\" %s", vt->cols.cols[c].name,
		                    class_column_type(vt->cols.cols[c].kind));
	sqlite3_str_appendall(s, ")");
	char *schema = sqlite3_str_finish(s);
	int rc = schema ? sqlite3_declare_vtab(h, schema) : SQLITE_NOMEM;
	sqlite3_free(schema);
	if (rc != SQLITE_OK)
		return fail_connect(vt, errmsg, sqlite3_errmsg(h));
	*out = &vt->v.base;
	return SQLITE_OK;
}

static int class_disconnect(sqlite3_vtab *base)
{
	struct class_vtab *vt = (struct class_vtab *) base;
	sql_scan_table_fini(&vt->v.table);
	class_columns_free(&vt->cols);
	sqlite3_free(vt);
	return SQLITE_OK;
}

/* A field's value as its kind's SQL value (NULL when absent or damaged). */
static int field_value(struct sql_scan_cursor *c, sqlite3_context *ctx, const struct class_place *p)
{
	const struct spoor_event *ev = c->scan.ev;
	enum spoor_scope scope = (enum spoor_scope) p->scope;
	struct spoor_field f;
	int64_t v;
	const char *s;
	size_t len;
	switch (p->kind) {
	case COL_INT:
		if (reader_field_int(ev, scope, p->index, &v))
			sqlite3_result_int64(ctx, v);
		return SQLITE_OK;
	case COL_TEXT: /* (the reader's text stops at a char array's first NUL) */
		if (reader_field_str(ev, scope, p->index, &s, &len))
			sqlite3_result_text(ctx, s, (int) len, SQLITE_TRANSIENT);
		return SQLITE_OK;
	case COL_REAL:
		if (spoor_event_field_at(ev, scope, p->index, &f) && f.kind == SPOOR_FIELD_FLOAT)
			sqlite3_result_double(ctx, f.v.f);
		return SQLITE_OK;
	default:
		if (!spoor_event_field_at(ev, scope, p->index, &f))
			return SQLITE_OK;
		c->text.len = 0;
		sql_json_field(&c->text, &f);
		return sql_scan_text_result(c, ctx);
	}
}

static int class_column(sqlite3_vtab_cursor *base, sqlite3_context *ctx, int col)
{
	struct sql_scan_cursor *c = (struct sql_scan_cursor *) base;
	struct class_vtab *vt = (struct class_vtab *) base->pVtab;
	if (col < NFIXED) {
		sql_scan_column(&c->scan, ctx, fixed_cols[col]);
		return SQLITE_OK;
	}
	size_t ci = reader_event_class_index(c->scan.ev);
	if (ci != c->last_class) {
		size_t i = 0;
		while (i < vt->ct->nclasses && vt->ct->classes[i] != ci)
			i++;
		if (i == vt->ct->nclasses)
			return SQLITE_OK; /* not one of the table's (cannot happen) */
		c->last_class = ci;
		c->last_slot = i;
	}
	const struct class_place *p =
	    &vt->cols.places[c->last_slot * vt->cols.ncols + (size_t) col - NFIXED];
	return p->index < 0 ? SQLITE_OK : field_value(c, ctx, p);
}

static const sqlite3_module class_module = {
    .iVersion = 0,
    .xCreate = class_connect,
    .xConnect = class_connect,
    .xBestIndex = sql_scan_x_best_index,
    .xDisconnect = class_disconnect,
    .xDestroy = class_disconnect,
    .xOpen = sql_scan_x_open,
    .xClose = sql_scan_x_close,
    .xFilter = sql_scan_x_filter,
    .xNext = sql_scan_x_next,
    .xEof = sql_scan_x_eof,
    .xColumn = class_column,
    .xRowid = sql_scan_x_rowid,
};

static void free_tables(void *p)
{
	struct class_tables *all = p;
	for (size_t i = 0; all && i < all->n; i++) {
		free(all->t[i].table);
		free(all->t[i].classes);
	}
	if (all)
		free(all->t);
	free(all);
}

static struct spoor_reader *sort_reader; /* qsort has no context argument */

static int by_name(const void *a, const void *b)
{
	size_t x = *(const size_t *) a, y = *(const size_t *) b;
	int d = strcmp(spoor_event_class_name(spoor_reader_event_class(sort_reader, x)),
	               spoor_event_class_name(spoor_reader_event_class(sort_reader, y)));
	return d ? d : (x > y) - (x < y);
}

/* Whether a table before t (or another module's) is called name, ignoring case. */
static bool name_taken(const struct class_tables *all, size_t t, const char *name)
{
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (!sqlite3_stricmp(reserved[i], name))
			return true;
	for (size_t i = 0; i < t; i++)
		if (!sqlite3_stricmp(all->t[i].table, name))
			return true;
	return false;
}

static char *table_name(const struct class_tables *all, size_t t, const char *name)
{
	const char *front = sqlite3_strnicmp(name, "sqlite_", 7) ? "" : "_";
	char *s = sqlite3_mprintf("%s%s", front, name);
	for (unsigned n = 2; s && name_taken(all, t, s); n++) {
		sqlite3_free(s);
		s = sqlite3_mprintf("%s%s#%u", front, name, n);
	}
	char *out = s ? strdup(s) : NULL;
	sqlite3_free(s);
	return out;
}

/* The classes grouped by name, in byte order of the names; each group's table name. */
static int group(struct class_tables *all, struct spoor_reader *schema)
{
	size_t n = spoor_reader_event_class_count(schema);
	size_t *order = malloc((n + 1) * sizeof(*order));
	if (!order || !(all->t = calloc(n + 1, sizeof(*all->t)))) {
		free(order);
		return -ENOMEM;
	}
	for (size_t c = 0; c < n; c++)
		order[c] = c;
	sort_reader = schema;
	qsort(order, n, sizeof(*order), by_name);
	for (size_t c = 0; c < n;) {
		const char *name =
		    spoor_event_class_name(spoor_reader_event_class(schema, order[c]));
		size_t end = c + 1;
		while (end < n && !strcmp(name, spoor_event_class_name(
		                                    spoor_reader_event_class(schema, order[end]))))
			end++;
		struct class_table *t = &all->t[all->n];
		if (!(t->classes = malloc((end - c) * sizeof(*t->classes))) ||
		    !(t->table = table_name(all, all->n, name))) {
			free(order);
			return -ENOMEM;
		}
		memcpy(t->classes, order + c, (end - c) * sizeof(*t->classes));
		t->nclasses = end - c;
		all->n++;
		c = end;
	}
	free(order);
	return 0;
}

int sql_classes_register(struct sql_db *db, char **errmsg)
{
	struct class_tables *all = calloc(1, sizeof(*all));
	char *why = NULL;
	if (!all || group(all, db->schema)) {
		free_tables(all);
		*errmsg = strdup("out of memory");
		return -ENOMEM;
	}
	all->db = db;
	if (sqlite3_create_module_v2(db->h, "spoor_class", &class_module, all, free_tables) !=
	    SQLITE_OK) {
		*errmsg = strdup(sqlite3_errmsg(db->h));
		return -ENOMEM;
	}
	for (size_t i = 0; i < all->n; i++) {
		char *sql =
		    sqlite3_mprintf("CREATE VIRTUAL TABLE temp.\"%w\" USING spoor_class(%llu)",
		                    all->t[i].table, (unsigned long long) i);
		int rc = sql ? sqlite3_exec(db->h, sql, NULL, NULL, &why) : SQLITE_NOMEM;
		sqlite3_free(sql);
		if (rc != SQLITE_OK) {
			*errmsg = strdup(why ? why : "out of memory");
			sqlite3_free(why);
			return -ENOMEM;
		}
	}
	return 0;
}
