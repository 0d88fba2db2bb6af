/* SPDX-License-Identifier: MIT */
/*
 * guard.c: a query reaches the traces and nothing else (docs/sql.md, "Safety"). The
 * database is in memory; the authorizer refuses what would reach a file or load code
 * (ATTACH, which VACUUM uses too, load_extension(), fts3_tokenizer(), the PRAGMAs that set
 * things or name files) and what would change the trace tables; the user's own TEMP tables,
 * views, indexes and triggers are allowed, in memory.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sql-int.h"

/* The longest string or blob a value may be: a query cannot make SQLite allocate gigabytes
 * with zeroblob(1e9) or a runaway group_concat. */
#define MAX_VALUE_BYTES (256 << 20)
#define MAX_SQL_BYTES   (16 << 20)

/* PRAGMAs that only say something, allowed with no argument */
static const char read_pragmas[] =
    "analysis_limit application_id auto_vacuum automatic_index busy_timeout "
    "cache_size cache_spill case_sensitive_like cell_size_check checkpoint_fullfsync "
    "collation_list compile_options count_changes data_version database_list "
    "default_cache_size defer_foreign_keys empty_result_callbacks encoding "
    "foreign_keys freelist_count full_column_names fullfsync function_list "
    "hard_heap_limit ignore_check_constraints journal_mode journal_size_limit "
    "legacy_alter_table locking_mode max_page_count mmap_size module_list page_count "
    "page_size pragma_list query_only read_uncommitted recursive_triggers "
    "reverse_unordered_selects schema_version secure_delete short_column_names "
    "soft_heap_limit synchronous temp_store threads trusted_schema user_version "
    "wal_autocheckpoint writable_schema ";
/* PRAGMAs whose argument names a table or index (or a count of errors): they read */
static const char name_pragmas[] =
    "foreign_key_check foreign_key_list index_info index_list index_xinfo "
    "integrity_check quick_check table_info table_list table_xinfo ";
/* Functions that reach files or load code: SQLite's (load_extension; fts3_tokenizer,
 * whose two-argument form, compiled in by Debian, takes a pointer to code) and the sqlite3
 * shell's, should a build ever register them. */
static const char file_functions[] = "load_extension fts3_tokenizer readfile writefile edit fsdir ";

/* name is one of list's words (each followed by a space), in any case */
static bool listed(const char *list, const char *name)
{
	size_t n = name ? strlen(name) : 0;
	for (const char *w = list; n && *w; w = strchr(w, ' ') + 1)
		if (!strncasecmp(w, name, n) && w[n] == ' ')
			return true;
	return false;
}

__attribute__((format(printf, 2, 3))) static int refuse(struct sql_db *db, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(db->refused, sizeof(db->refused), fmt, ap);
	va_end(ap);
	return SQLITE_DENY;
}

static int authorize(void *data, int action, const char *a, const char *b, const char *schema,
                     const char *trigger)
{
	struct sql_db *db = data;
	(void) trigger;

	switch (action) {
	case SQLITE_SELECT:
	case SQLITE_READ:
	case SQLITE_RECURSIVE:
	case SQLITE_TRANSACTION:
	case SQLITE_SAVEPOINT:
	case SQLITE_ANALYZE: /* its statistics table is then made where it analyzes (below) */
	case SQLITE_REINDEX: return SQLITE_OK;
	case SQLITE_ATTACH:
	case SQLITE_DETACH:
		return refuse(db, "ATTACH and DETACH are refused (VACUUM too, which attaches its "
		                  "output): a query reaches the traces and nothing else");
	case SQLITE_FUNCTION:
		if (listed(file_functions, b))
			return refuse(db, "%s() is refused: it reaches files or loads code", b);
		return SQLITE_OK;
	case SQLITE_PRAGMA:
		if (listed(name_pragmas, a) || (listed(read_pragmas, a) && !b))
			return SQLITE_OK;
		return refuse(db,
		              "PRAGMA %s%s is refused: only the PRAGMAs that read, without "
		              "setting anything, are allowed",
		              a ? a : "", b ? " with a value" : "");
	case SQLITE_CREATE_VTABLE:
	case SQLITE_DROP_VTABLE:
		return refuse(db, "the virtual tables are the traces': none is made or dropped");
	case SQLITE_ALTER_TABLE:
		return refuse(db, "ALTER TABLE is refused: make a new TEMP table instead");
	/* the user's own objects: TEMP ones, in memory */
	case SQLITE_CREATE_TEMP_INDEX:
	case SQLITE_CREATE_TEMP_TABLE:
	case SQLITE_CREATE_TEMP_TRIGGER:
	case SQLITE_CREATE_TEMP_VIEW:
	case SQLITE_DROP_TEMP_INDEX:
	case SQLITE_DROP_TEMP_TABLE:
	case SQLITE_DROP_TEMP_TRIGGER:
	case SQLITE_DROP_TEMP_VIEW: return SQLITE_OK;
	/* Rows: of the user's TEMP tables. The trace tables refuse writes themselves; main has
	 * no table but its schema, which only SQLite writes (DEFENSIVE), as it does when it
	 * connects an eponymous virtual table (json_each, pragma_table_info, ...). */
	case SQLITE_INSERT:
	case SQLITE_UPDATE:
	case SQLITE_DELETE: return SQLITE_OK;
	/* CREATE TABLE temp.x, and ANALYZE temp's sqlite_stat1: TEMP objects named so */
	case SQLITE_CREATE_INDEX:
	case SQLITE_CREATE_TABLE:
	case SQLITE_CREATE_TRIGGER:
	case SQLITE_CREATE_VIEW:
	case SQLITE_DROP_INDEX:
	case SQLITE_DROP_TABLE:
	case SQLITE_DROP_TRIGGER:
	case SQLITE_DROP_VIEW:
		if (schema && !strcasecmp(schema, "temp"))
			return SQLITE_OK;
		if (action == SQLITE_CREATE_TABLE && a && !strcasecmp(a, "sqlite_stat1"))
			return refuse(db, "ANALYZE would write main's statistics: ANALYZE temp "
			                  "(or a TEMP table) instead");
		break;
	default: break; /* any action newer than this list */
	}
	return refuse(db, "only TEMP tables, views, indexes and triggers can be made or "
	                  "changed (CREATE TEMP TABLE ...)");
}

int sql_guard_memory(struct sql_db *db, char **errmsg)
{
	char *why = NULL;
	/* temporary tables, indexes and sorts in memory: Debian's SQLite would otherwise put
	 * big ones in files under /var/tmp. Before any table: a change of temp_store drops the
	 * temp schema, where the trace tables are. */
	if (sqlite3_exec(db->h, "PRAGMA temp_store = MEMORY", NULL, NULL, &why) == SQLITE_OK)
		return 0;
	if (errmsg)
		*errmsg = why ? strdup(why) : NULL;
	sqlite3_free(why);
	return -EINVAL;
}

int sql_guard(struct sql_db *db, char **errmsg)
{
	static const int off[] = {SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION,
	                          SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER,
	                          SQLITE_DBCONFIG_TRUSTED_SCHEMA, SQLITE_DBCONFIG_WRITABLE_SCHEMA};
	(void) errmsg;
	for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++)
		sqlite3_db_config(db->h, off[i], 0, (int *) 0);
	/* no writes to the schema tables, the database's pages (sqlite_dbpage) or the like */
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *) 0);
	sqlite3_limit(db->h, SQLITE_LIMIT_ATTACHED, 0);
	sqlite3_limit(db->h, SQLITE_LIMIT_LENGTH, MAX_VALUE_BYTES);
	sqlite3_limit(db->h, SQLITE_LIMIT_SQL_LENGTH, MAX_SQL_BYTES);
	sqlite3_set_authorizer(db->h, authorize, db);
	return 0;
}

const char *sql_db_refusal(const struct sql_db *db)
{
	return db->refused[0] ? db->refused : NULL;
}
