/* SPDX-License-Identifier: MIT */
/* sql-cli.h: what `spoor sql`'s files share (docs/sql.md, "The command"): the session
 * (the database, the output format), running statements, printing their results, the
 * prompt. */
#ifndef CMDS_SQL_CLI_H
#define CMDS_SQL_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "command.h"
#include "spoor/trace.h"
#include "sql/sql.h"

enum sql_format { SQL_TABLE, SQL_CSV, SQL_JSON };

struct sql_session {
	const struct command *cmd;
	struct sql_db *db;
	sqlite3 *h;
	enum sql_format format;
	FILE *out;
	const char *source;  /* what messages name the text by: a file, "query", "stdin" */
	unsigned first_line; /* the text's first line's number there (0 as 1) */
	unsigned results;    /* result sets printed so far: the next one is set apart */
};

/* sql-run.c: run text's statements in order, printing each one's rows. 0, or 1 after the
 * first failing statement's error (SOURCE:LINE: SQLite's message, the query's line with a
 * caret under the part it names) was said on stderr; the rest is not run. */
int sql_run(struct sql_session *s, const char *text);

/* sql-print.c: one statement's rows as s->format says. sql_print_begin returns NULL (no
 * printer needed) for a statement without columns, else a printer that sql_print_end frees
 * (after the last row, or after an error: what came is printed, JSON closed). */
struct sql_printer;
int sql_print_begin(struct sql_session *s, sqlite3_stmt *st, struct sql_printer **out);
int sql_print_row(struct sql_printer *p, sqlite3_stmt *st);
void sql_print_end(struct sql_printer *p);
/* "table", "csv", "json": 0, or -1 for another name */
int sql_format_parse(const char *name, enum sql_format *f);

/* sql-prompt.c: statements and commands line by line, until .quit or the end: from a
 * prompt (tty: libedit, history; errors said, the prompt goes on; 0), or from standard
 * input (0, or 1 at the first error, which ends them). */
int sql_lines(struct sql_session *s, bool tty);
/* sql-dot.c: a line starting with '.': .tables, .schema [TABLE], .format, .help. 1 for
 * .quit/.exit, else 0 (errors are said on stderr). */
int sql_dot_command(struct sql_session *s, const char *line);

/* sql-losses.c: the streams' losses the queries' readers saw (sql_losses_seen is the db's
 * sql_db_set_reader_done hook); sql_losses_warn says them (cmd NULL: not), a warning per
 * stream, and empties l. */
struct sql_losses {
	struct spoor_stream_info *worst; /* per stream: the info that saw the most lost */
	size_t n;
};
void sql_losses_seen(void *data, const struct spoor_reader *r);
void sql_losses_warn(const struct command *cmd, struct sql_losses *l);

#endif
