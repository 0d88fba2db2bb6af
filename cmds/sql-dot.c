/* SPDX-License-Identifier: MIT */
/* sql-dot.c: the prompt's own commands, `.tables`, `.schema [TABLE]`, `.format`, `.help`,
 * `.quit` (docs/sql.md, "The command"), answered with queries the guard allows. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sql-cli.h"

/* every table and view but SQLite's own, as the schemas have them */
static const char tables_query[] =
    "SELECT name FROM pragma_table_list WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
    "AND type IN ('table', 'view', 'virtual') ORDER BY name";

static const char help[] =
    "Statements end with ';' and may span lines. Commands:\n"
    "  .tables            the tables\n"
    "  .schema [TABLE]    the tables' columns and types (TABLE's alone)\n"
    "  .format [FORMAT]   show or set the output format: table, csv, json\n"
    "  .help              this\n"
    "  .quit              leave (so does Ctrl-D)\n"
    "The tables and their columns: docs/sql.md. Up and down arrows go through the\n"
    "history, kept between sessions.\n";

/* name as SQL writes it: as it is when it is a plain identifier, else quoted */
static char *sql_name(const char *name)
{
	bool plain = (isalpha((unsigned char) name[0]) || name[0] == '_') &&
	             !sqlite3_keyword_check(name, (int) strlen(name));
	for (const char *p = name; plain && *p; p++)
		plain = isalnum((unsigned char) *p) || *p == '_';
	return sqlite3_mprintf(plain ? "%s" : "\"%w\"", name);
}

static int failed(struct sql_session *s, sqlite3_stmt *st)
{
	fprintf(stderr, "spoor %s: %s\n", s->cmd->name, sqlite3_errmsg(s->h));
	sqlite3_finalize(st);
	return 0;
}

/* TABLE's columns: one line, "name(col TYPE, ...)", or one column a line (long). */
static int schema_of(struct sql_session *s, const char *table, bool lng)
{
	sqlite3_stmt *st;
	char *name = sql_name(table);
	int n = 0, rc;

	if (sqlite3_prepare_v2(s->h,
	                       "SELECT name, type FROM pragma_table_xinfo(?1) WHERE hidden = 0", -1,
	                       &st, NULL) != SQLITE_OK) {
		sqlite3_free(name);
		return failed(s, NULL);
	}
	sqlite3_bind_text(st, 1, table, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *col = sql_name((const char *) sqlite3_column_text(st, 0));
		const char *type = (const char *) sqlite3_column_text(st, 1);
		if (!n++)
			fprintf(s->out, lng ? "CREATE TABLE %s (\n" : "%s(", name);
		fprintf(s->out, lng ? "%s  %s%s%s" : "%s%s%s%s", n > 1 ? (lng ? ",\n" : ", ") : "",
		        col, type && *type ? " " : "", type ? type : "");
		sqlite3_free(col);
	}
	sqlite3_free(name);
	if (rc != SQLITE_DONE)
		return failed(s, st);
	if (n)
		fputs(lng ? "\n);\n" : ")\n", s->out);
	else
		fprintf(stderr, "spoor %s: no table %s\n", s->cmd->name, table);
	sqlite3_finalize(st);
	return 0;
}

/* .tables (names: the names, one a line) or .schema (every table's columns, a line each) */
static int each_table(struct sql_session *s, bool names)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->h, tables_query, -1, &st, NULL) != SQLITE_OK)
		return failed(s, NULL);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *t = (const char *) sqlite3_column_text(st, 0);
		if (names) {
			char *q = sql_name(t);
			fprintf(s->out, "%s\n", q);
			sqlite3_free(q);
		} else
			schema_of(s, t, false);
	}
	if (rc != SQLITE_DONE)
		return failed(s, st);
	sqlite3_finalize(st);
	return 0;
}

/* The argument after the command word: leading space skipped, an unquoted or "quoted"
 * word (the quotes removed, "" as one quote); NULL when there is none. */
static char *argument(const char *p)
{
	while (isspace((unsigned char) *p))
		p++;
	if (!*p)
		return NULL;
	char *out = malloc(strlen(p) + 1), *o = out;
	if (!out)
		return NULL;
	if (*p == '"') {
		for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
			if (*p == '"')
				p++;
			*o++ = *p;
		}
	} else
		while (*p && !isspace((unsigned char) *p))
			*o++ = *p++;
	*o = '\0';
	return out;
}

int sql_dot_command(struct sql_session *s, const char *line)
{
	static const char *const formats[] = {"table", "csv", "json"};
	size_t n = strcspn(line, " \t");
	char *arg = argument(line + n);
	int rc = 0;

#define IS(word) (n == strlen(word) && !strncmp(line, word, n))
	if (IS(".quit") || IS(".exit"))
		rc = 1;
	else if (IS(".tables"))
		each_table(s, true);
	else if (IS(".schema"))
		arg ? schema_of(s, arg, true) : each_table(s, false);
	else if (IS(".format") || IS(".mode")) {
		if (!arg)
			fprintf(s->out, "%s\n", formats[s->format]);
		else if (sql_format_parse(arg, &s->format))
			fprintf(stderr, "spoor %s: unknown format '%s' (table, csv or json)\n",
			        s->cmd->name, arg);
	} else if (IS(".help"))
		fputs(help, s->out);
	else
		fprintf(stderr, "spoor %s: unknown command %.*s (.help lists them)\n", s->cmd->name,
		        (int) n, line);
#undef IS
	free(arg);
	fflush(s->out);
	return rc;
}
