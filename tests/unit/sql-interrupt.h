/* SPDX-License-Identifier: MIT */
/* sql-interrupt.h: an SQL function, interrupt_now(), that interrupts its database and gives
 * -5 (a tid no trace has): as a constraint's value it is computed as the cursor starts, as
 * if Ctrl-C came then, for the tests of sql_db_interrupt. */
#ifndef TESTS_SQL_INTERRUPT_H
#define TESTS_SQL_INTERRUPT_H

#include <sqlite3.h>

#include "sql/sql.h"

static void interrupt_now(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void) argc;
	(void) argv;
	sql_db_interrupt(sqlite3_user_data(ctx));
	sqlite3_result_int(ctx, -5);
}

static inline void add_interrupt_now(struct sql_db *db)
{
	sqlite3_create_function(sql_db_handle(db), "interrupt_now", 0, SQLITE_UTF8, db,
	                        interrupt_now, NULL, NULL);
}

#endif
