/* SPDX-License-Identifier: MIT */
/* guard.c: a query reaches the traces and nothing else (docs/sql.md, "Safety"). */
#include "sql-int.h"

int sql_guard(struct sql_db *db, char **errmsg)
{
	(void) errmsg;
	/* no extension loading, by the C API or SQL's load_extension() */
	sqlite3_db_config(db->h, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *) 0);
	sqlite3_limit(db->h, SQLITE_LIMIT_ATTACHED, 0);
	return 0; /* to be completed: the authorizer (DESIGN20) */
}
