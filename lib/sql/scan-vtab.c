/* SPDX-License-Identifier: MIT */
/* scan-vtab.c: the module methods of the tables that read events (see scan-vtab.h). */
#include <stdint.h>
#include <stdlib.h>

#include "scan-vtab.h"

int sql_scan_text_result(struct sql_scan_cursor *c, sqlite3_context *ctx)
{
	if (c->text.failed) {
		c->text.failed = false;
		return SQLITE_NOMEM;
	}
	sqlite3_result_text(ctx, c->text.buf, (int) c->text.len, SQLITE_TRANSIENT);
	return SQLITE_OK;
}

int sql_scan_x_best_index(sqlite3_vtab *base, sqlite3_index_info *info)
{
	return sql_scan_best_index(&((struct sql_scan_vtab *) base)->table, info);
}

int sql_scan_x_open(sqlite3_vtab *base, sqlite3_vtab_cursor **out)
{
	/* what interrupted an earlier statement is done (before this one's filter values) */
	sql_db_interrupt_clear(((struct sql_scan_vtab *) base)->db);
	struct sql_scan_cursor *c = calloc(1, sizeof(*c));
	if (!c)
		return SQLITE_NOMEM;
	c->last_class = SIZE_MAX;
	*out = &c->base;
	return SQLITE_OK;
}

int sql_scan_x_close(sqlite3_vtab_cursor *base)
{
	struct sql_scan_cursor *c = (struct sql_scan_cursor *) base;
	sql_scan_close(&c->scan);
	sql_text_free(&c->text);
	free(c);
	return SQLITE_OK;
}

int sql_scan_x_filter(sqlite3_vtab_cursor *base, int plan, const char *roles, int argc,
                      sqlite3_value **argv)
{
	struct sql_scan_cursor *c = (struct sql_scan_cursor *) base;
	struct sql_scan_vtab *vt = (struct sql_scan_vtab *) base->pVtab;
	return sql_scan_filter(&c->scan, vt->db, &vt->table, plan, roles, argc, argv,
	                       &vt->base.zErrMsg);
}

int sql_scan_x_next(sqlite3_vtab_cursor *base)
{
	return sql_scan_next(&((struct sql_scan_cursor *) base)->scan, &base->pVtab->zErrMsg);
}

int sql_scan_x_eof(sqlite3_vtab_cursor *base)
{
	return ((struct sql_scan_cursor *) base)->scan.eof;
}

int sql_scan_x_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid)
{
	*rowid = ((struct sql_scan_cursor *) base)->scan.rowid;
	return SQLITE_OK;
}
