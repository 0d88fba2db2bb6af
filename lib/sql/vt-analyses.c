/* SPDX-License-Identifier: MIT */
/* vt-analyses.c: the models' and analyses' tables (docs/sql.md). */
#include "sql-int.h"

int sql_analyses_register(struct sql_db *db, char **errmsg)
{
	(void) db;
	(void) errmsg;
	return 0; /* to be written: DESIGN20 */
}
