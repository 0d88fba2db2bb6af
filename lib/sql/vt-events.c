/* SPDX-License-Identifier: MIT */
/* vt-events.c: the events table (every event) (docs/sql.md). */
#include "sql-int.h"

int sql_events_register(struct sql_db *db, char **errmsg)
{
	(void) db;
	(void) errmsg;
	return 0; /* to be written: DESIGN20 */
}
