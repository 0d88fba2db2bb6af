/* SPDX-License-Identifier: MIT */
/*
 * sql-run.c: the statements of a text (-c, --file, standard input, a prompt's entry) run in
 * order, each one's rows printed; the first error stops them, said as SQLite says it with
 * the query's line and a caret under the part SQLite names (sqlite3_error_offset).
 */
#include <stdlib.h>
#include <string.h>

#include "sql-cli.h"

#define CONTEXT 60 /* characters of a long line shown either side of the caret */

static int is_cont(char c)
{
	return ((unsigned char) c & 0xC0) == 0x80;
}

/* "  LINE\n  ^\n": the line of text holding byte off, cut to CONTEXT characters either side
 * of it, and a caret under it (tabs kept, so that it lines up). */
static void show_caret(FILE *out, const char *text, size_t off)
{
	size_t len = strlen(text);
	if (off > len)
		off = len;
	size_t begin = off, end = off;
	while (begin && text[begin - 1] != '\n')
		begin--;
	while (end < len && text[end] != '\n')
		end++;
	size_t from = begin, to = end, n = 0;
	for (size_t i = off; i > begin && n < CONTEXT; i--)
		if (!is_cont(text[i - 1]) && ++n == CONTEXT)
			from = i - 1;
	n = 0;
	for (size_t i = off; i < end; i++)
		if (!is_cont(text[i]) && ++n > CONTEXT) {
			to = i;
			break;
		}
	while (from > begin && is_cont(text[from]))
		from--;
	const char *lead = from > begin ? "..." : "";
	fprintf(out, "  %s%.*s%s\n  %s", lead, (int) (to - from), text + from,
	        to < end ? "..." : "", *lead ? "   " : "");
	for (size_t i = from; i < off; i++)
		if (text[i] == '\t')
			fputc('\t', out);
		else if (!is_cont(text[i]))
			fputc(' ', out);
	fputs("^\n", out);
}

static unsigned line_of(const struct sql_session *s, const char *text, size_t off)
{
	unsigned line = s->first_line ? s->first_line : 1;
	for (size_t i = 0; i < off && text[i]; i++)
		line += text[i] == '\n';
	return line;
}

/* The error of the statement at text[stmt..]: SOURCE:LINE: message, and the caret when
 * SQLite names a place (an offset into the statement). 1. */
static int report(struct sql_session *s, const char *text, size_t stmt, const char *message,
                  int code, int offset)
{
	size_t at = offset >= 0 ? stmt + (size_t) offset : stmt;
	/* the statement's first line when SQLite names no place: past space and comments */
	while (offset < 0 && text[at]) {
		if (strchr(" \t\r\n", text[at]))
			at++;
		else if (!strncmp(text + at, "--", 2))
			at += strcspn(text + at, "\n");
		else
			break;
	}
	const char *why = code == SQLITE_AUTH ? sql_db_refusal(s->db) : NULL;
	fflush(s->out);
	fprintf(stderr, "spoor %s: %s:%u: %s%s%s\n", s->cmd->name, s->source, line_of(s, text, at),
	        message, why ? ": " : "", why ? why : "");
	if (offset >= 0)
		show_caret(stderr, text, at);
	return 1;
}

/* Step st to its end, printing its rows. SQLITE_DONE or the error. */
static int run_statement(struct sql_session *s, sqlite3_stmt *st)
{
	struct sql_printer *p;
	int rc;

	if (sql_print_begin(s, st, &p)) {
		sql_print_end(p);
		return SQLITE_NOMEM;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (p && sql_print_row(p, st)) {
			rc = SQLITE_NOMEM;
			break;
		}
	sql_print_end(p);
	return rc;
}

int sql_run(struct sql_session *s, const char *text)
{
	size_t at = 0, len = strlen(text);

	while (at < len) {
		sqlite3_stmt *st = NULL;
		const char *tail = NULL;
		int rc = sqlite3_prepare_v2(s->h, text + at, (int) (len - at), &st, &tail);
		if (rc != SQLITE_OK)
			return report(s, text, at, sqlite3_errmsg(s->h),
			              sqlite3_extended_errcode(s->h) & 0xff,
			              sqlite3_error_offset(s->h));
		size_t next = tail ? (size_t) (tail - text) : len;
		if (st) {
			rc = run_statement(s, st);
			if (rc != SQLITE_DONE) {
				char *msg = strdup(rc == SQLITE_NOMEM ? "out of memory"
				                                      : sqlite3_errmsg(s->h));
				int offset = sqlite3_error_offset(s->h),
				    code = sqlite3_errcode(s->h);
				sqlite3_finalize(st);
				report(s, text, at, msg ? msg : "out of memory", code, offset);
				free(msg);
				return 1;
			}
			sqlite3_finalize(st);
		}
		if (next <= at)
			break;
		at = next;
	}
	return 0;
}
