/* SPDX-License-Identifier: MIT */
/*
 * sql-print.c: a statement's rows as a table (aligned columns, as the other commands print
 * theirs), CSV (RFC 4180's quoting) or JSON (an array of objects), docs/sql.md "The
 * command". A table's widths come from batches of rows, so a result of millions of rows
 * needs the memory of one batch, not of the result.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql-cli.h"
#include "util/fixed.h"
#include "util/grow.h"
#include "util/json.h"
#include "util/outbuf.h"

#define TABLE_BATCH 1000 /* rows whose widths are measured before they are printed */

struct cell {
	size_t off, len; /* in the batch's text */
	size_t width;    /* characters shown */
	bool num;        /* right-aligned */
};

struct sql_printer {
	struct sql_session *s;
	FILE *out;
	int ncol;
	size_t rows;
	char **names; /* JSON: the keys, made unique, as `"key": ` (`, "key": ` after the first) */
	/* table: the batch, ncol cells a row, the header row first */
	char *text;
	size_t text_len, text_cap;
	struct cell *cells;
	size_t ncells, cells_cap;
	size_t *width;
	bool *right;
	bool laid_out; /* the header is out: alignment and widths are set */
};

int sql_format_parse(const char *name, enum sql_format *f)
{
	static const char *const names[] = {
	    [SQL_TABLE] = "table", [SQL_CSV] = "csv", [SQL_JSON] = "json"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*f = (enum sql_format) i;
			return 0;
		}
	return -1;
}

/* x in the fewest digits that read back as x, always with a '.' or an exponent so that it
 * reads as a REAL; NULL for infinities (JSON has none; SQLite makes NaN a NULL). */
static const char *real_text(char *buf, double x)
{
	if (!isfinite(x))
		return NULL;
	size_t n = fixed_shortest(buf, x);
	if (!strpbrk(buf, ".e"))
		memcpy(buf + n, ".0", 3);
	return buf;
}

/* The text of column i as the table and CSV show it, *len bytes (not for NULLs or blobs) */
static const char *value_text(sqlite3_stmt *st, int i, char *buf, size_t cap, size_t *len)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_FLOAT: {
		double x = sqlite3_column_double(st, i);
		const char *t = real_text(buf, x);
		if (!t)
			t = x > 0 ? "Inf" : "-Inf";
		*len = strlen(t);
		return t;
	}
	case SQLITE_INTEGER:
		/* by hand: sqlite3_column_text would convert the value in place, allocating */
		*len = outbuf_fmt_s64(buf, sqlite3_column_int64(st, i));
		return buf;
	default: {
		const char *t = (const char *) sqlite3_column_text(st, i);
		*len = (size_t) sqlite3_column_bytes(st, i);
		return t ? t : "";
	}
	}
}

/* A blob as SQL's literal X'0A1B' (malloc'd, *len bytes): bytes shown as they are could
 * be anything. */
static char *blob_literal(sqlite3_stmt *st, int i, size_t *len)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *b = sqlite3_column_blob(st, i);
	size_t n = (size_t) sqlite3_column_bytes(st, i);
	char *s = malloc(2 * n + 4), *p = s;

	if (!s)
		return NULL;
	*p++ = 'X';
	*p++ = '\'';
	for (size_t k = 0; k < n; k++) {
		*p++ = hex[b[k] >> 4];
		*p++ = hex[b[k] & 15];
	}
	*p++ = '\'';
	*p = '\0';
	*len = (size_t) (p - s);
	return s;
}

/* ---- table ---- */

static int add_text(struct sql_printer *p, const char *s, size_t n)
{
	if (p->text_len + n > p->text_cap) {
		size_t cap = p->text_cap ? p->text_cap : 4096;
		while (cap < p->text_len + n)
			cap *= 2;
		char *t = realloc(p->text, cap);
		if (!t)
			return -ENOMEM;
		p->text = t;
		p->text_cap = cap;
	}
	memcpy(p->text + p->text_len, s, n);
	p->text_len += n;
	return 0;
}

/* A cell of s: control characters escaped (a newline would break the rows), its width in
 * characters (UTF-8 sequences count one). */
static int add_cell(struct sql_printer *p, const char *s, size_t n, bool num)
{
	struct cell c = {.off = p->text_len, .num = num};
	static const char hex[] = "0123456789abcdef";

	if (grow_one(&p->cells, p->ncells, &p->cells_cap, sizeof(*p->cells), 256))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char) s[i];
		char esc[4] = {'\\', 0, 0, 0};
		size_t k = 2;
		if (ch >= 0x20 && ch != 0x7f) {
			size_t run = i;
			while (run < n && (unsigned char) s[run] >= 0x20 && s[run] != 0x7f) {
				c.width += ((unsigned char) s[run] & 0xC0) != 0x80;
				run++;
			}
			if (add_text(p, s + i, run - i))
				return -ENOMEM;
			i = run - 1;
			continue;
		}
		if (ch == '\n')
			esc[1] = 'n';
		else if (ch == '\t')
			esc[1] = 't';
		else if (ch == '\r')
			esc[1] = 'r';
		else {
			esc[1] = 'x';
			esc[2] = hex[ch >> 4];
			esc[3] = hex[ch & 15];
			k = 4;
		}
		if (add_text(p, esc, k))
			return -ENOMEM;
		c.width += k;
	}
	c.len = p->text_len - c.off;
	p->cells[p->ncells++] = c;
	return 0;
}

static void pad(FILE *out, size_t n)
{
	static const char spaces[] = "                                                ";
	for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		fputs(spaces, out);
	fwrite(spaces, 1, n, out);
}

/* The batch out: on the first, the columns' alignment (right when every value is a number
 * or NULL) and widths; later batches only widen them. */
static void table_flush(struct sql_printer *p)
{
	for (size_t k = 0; k < p->ncells; k++) {
		struct cell *c = &p->cells[k];
		size_t col = k % (size_t) p->ncol;
		if (c->width > p->width[col])
			p->width[col] = c->width;
		if (!p->laid_out && k >= (size_t) p->ncol && !c->num)
			p->right[col] = false;
	}
	p->laid_out = true;
	for (size_t k = 0; k < p->ncells; k++) {
		const struct cell *c = &p->cells[k];
		size_t col = k % (size_t) p->ncol;
		bool last = col + 1 == (size_t) p->ncol;
		size_t gap = p->width[col] - c->width;
		if (col)
			fputs("  ", p->out);
		if (p->right[col])
			pad(p->out, gap);
		fwrite(p->text + c->off, 1, c->len, p->out);
		if (!p->right[col] && !last)
			pad(p->out, gap);
		if (last)
			fputc('\n', p->out);
	}
	p->ncells = 0;
	p->text_len = 0;
}

static int table_row(struct sql_printer *p, sqlite3_stmt *st)
{
	char buf[40];
	for (int i = 0; i < p->ncol; i++) {
		size_t len = 0;
		int type = sqlite3_column_type(st, i), rc;
		if (type == SQLITE_NULL)
			rc = add_cell(p, "NULL", 4, true);
		else if (type == SQLITE_BLOB) {
			char *x = blob_literal(st, i, &len);
			rc = x ? add_cell(p, x, len, false) : -ENOMEM;
			free(x);
		} else {
			const char *t = value_text(st, i, buf, sizeof(buf), &len);
			rc = add_cell(p, t, len, type != SQLITE_TEXT);
		}
		if (rc)
			return rc;
	}
	if (p->rows % TABLE_BATCH == TABLE_BATCH - 1)
		table_flush(p);
	return 0;
}

/* ---- CSV ---- */

/* RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled;
 * the empty string is quoted too, so that it differs from NULL (an empty field). */
static void csv_field(FILE *out, const char *s, size_t n)
{
	static const bool special[256] = {[','] = 1, ['"'] = 1, ['\n'] = 1, ['\r'] = 1};
	size_t k = 0;
	while (k < n && !special[(unsigned char) s[k]])
		k++;
	if (n && k == n) {
		fwrite(s, 1, n, out);
		return;
	}
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			fputc('"', out);
		fputc(s[i], out);
	}
	fputc('"', out);
}

static void csv_row(struct sql_printer *p, sqlite3_stmt *st)
{
	char buf[40];
	for (int i = 0; i < p->ncol; i++) {
		size_t len = 0;
		int type = sqlite3_column_type(st, i);
		if (i)
			fputc(',', p->out);
		if (type == SQLITE_BLOB) {
			char *x = blob_literal(st, i, &len);
			if (x)
				fwrite(x, 1, len, p->out);
			free(x);
		} else if (type != SQLITE_NULL) {
			const char *t = value_text(st, i, buf, sizeof(buf), &len);
			if (type == SQLITE_TEXT)
				csv_field(p->out, t, len);
			else /* a number: nothing to quote */
				fwrite(t, 1, len, p->out);
		}
	}
	fputc('\n', p->out);
}

/* ---- JSON ---- */

/* The keys: the columns' names, a repeated one made unique with ":2", ":3"... (a JSON
 * object's keys are read as a map: the second would hide the first). */
static int json_names(struct sql_printer *p, sqlite3_stmt *st)
{
	if (!(p->names = calloc((size_t) p->ncol, sizeof(*p->names))))
		return -ENOMEM;
	for (int i = 0; i < p->ncol; i++) {
		const char *name = sqlite3_column_name(st, i);
		name = name ? name : "";
		for (unsigned n = 1;; n++) {
			free(p->names[i]);
			p->names[i] = NULL;
			if ((n == 1 ? !(p->names[i] = strdup(name))
			            : asprintf(&p->names[i], "%s:%u", name, n) < 0))
				return -ENOMEM;
			int j;
			for (j = 0; j < i && strcmp(p->names[j], p->names[i]); j++)
				;
			if (j == i)
				break;
		}
	}
	/* then each as the row's text before its value, escaped once: `"name": ` */
	for (int i = 0; i < p->ncol; i++) {
		char *lit = NULL;
		size_t len;
		FILE *f = open_memstream(&lit, &len);
		if (!f)
			return -ENOMEM;
		fputs(i ? ", " : "", f);
		json_string(f, p->names[i]);
		fputs(": ", f);
		if (fclose(f))
			return -ENOMEM;
		free(p->names[i]);
		p->names[i] = lit;
	}
	return 0;
}

static void json_row(struct sql_printer *p, sqlite3_stmt *st)
{
	char buf[40];
	fputs(p->rows ? ",\n{" : "\n{", p->out);
	for (int i = 0; i < p->ncol; i++) {
		fputs(p->names[i], p->out);
		int type = sqlite3_column_type(st, i);
		const char *t = NULL;
		switch (type) {
		case SQLITE_INTEGER:
			fwrite(buf, 1, outbuf_fmt_s64(buf, sqlite3_column_int64(st, i)), p->out);
			break;
		case SQLITE_FLOAT:
			t = real_text(buf, sqlite3_column_double(st, i));
			fputs(t ? t : "null", p->out);
			break;
		case SQLITE_TEXT:
			t = (const char *) sqlite3_column_text(st, i);
			json_string_n(p->out, t, (size_t) sqlite3_column_bytes(st, i));
			break;
		case SQLITE_BLOB: {
			size_t len;
			char *x = blob_literal(st, i, &len);
			json_string(p->out, x ? x : "");
			free(x);
			break;
		}
		default: fputs("null", p->out);
		}
	}
	fputc('}', p->out);
}

/* ---- the statement ---- */

int sql_print_begin(struct sql_session *s, sqlite3_stmt *st, struct sql_printer **out)
{
	int ncol = sqlite3_column_count(st);
	struct sql_printer *p;

	*out = NULL;
	if (!ncol)
		return 0;
	if (!(p = calloc(1, sizeof(*p))))
		return -ENOMEM;
	p->s = s;
	p->out = s->out;
	p->ncol = ncol;
	*out = p;
	/* result sets after the first are set apart by an empty line (JSON's need nothing) */
	if (s->results++ && s->format != SQL_JSON)
		fputc('\n', p->out);
	switch (s->format) {
	case SQL_TABLE:
		if (!(p->width = calloc((size_t) ncol, sizeof(*p->width))) ||
		    !(p->right = calloc((size_t) ncol, sizeof(*p->right))))
			return -ENOMEM;
		for (int i = 0; i < ncol; i++) {
			const char *name = sqlite3_column_name(st, i);
			p->right[i] = true;
			if (add_cell(p, name ? name : "", name ? strlen(name) : 0, false))
				return -ENOMEM;
		}
		return 0;
	case SQL_CSV:
		for (int i = 0; i < ncol; i++) {
			const char *name = sqlite3_column_name(st, i);
			if (i)
				fputc(',', p->out);
			csv_field(p->out, name ? name : "", name ? strlen(name) : 0);
		}
		fputc('\n', p->out);
		return 0;
	case SQL_JSON: fputc('[', p->out); return json_names(p, st);
	}
	return 0;
}

int sql_print_row(struct sql_printer *p, sqlite3_stmt *st)
{
	int rc = 0;
	switch (p->s->format) {
	case SQL_TABLE: rc = table_row(p, st); break;
	case SQL_CSV: csv_row(p, st); break;
	case SQL_JSON: json_row(p, st); break;
	}
	p->rows++;
	return rc;
}

void sql_print_end(struct sql_printer *p)
{
	if (!p)
		return;
	if (p->s->format == SQL_TABLE && p->width && p->right)
		table_flush(p);
	if (p->s->format == SQL_JSON)
		fputs(p->rows ? "\n]\n" : "]\n", p->out);
	if (p->names)
		for (int i = 0; i < p->ncol; i++)
			free(p->names[i]);
	free(p->names);
	free(p->text);
	free(p->cells);
	free(p->width);
	free(p->right);
	free(p);
}
