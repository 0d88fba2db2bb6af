/* SPDX-License-Identifier: MIT */
/* tp-lex.c: a tracepoint template as C tokens (tp-lex.h). */
#include "tp-lex.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/grow.h"

struct lexer {
	const char *s;
	size_t len, at;
	uint32_t line, col;
	struct tp_error *err;
};

static int fail(struct lexer *l, uint32_t line, uint32_t col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(l->err->msg, sizeof(l->err->msg), fmt, ap);
	va_end(ap);
	l->err->line = line;
	l->err->col = col;
	return -EINVAL;
}

static int peek(const struct lexer *l, size_t ahead)
{
	return l->at + ahead < l->len ? (unsigned char) l->s[l->at + ahead] : -1;
}

static void step(struct lexer *l)
{
	if (l->s[l->at++] == '\n') {
		l->line++;
		l->col = 1;
	} else {
		l->col++;
	}
}

static bool is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* A comment at l->at, stepped over: 1, or 0 when there is none, or -EINVAL unterminated. */
static int comment(struct lexer *l)
{
	if (peek(l, 0) != '/')
		return 0;
	if (peek(l, 1) == '/') {
		while (l->at < l->len && l->s[l->at] != '\n')
			step(l);
		return 1;
	}
	if (peek(l, 1) != '*')
		return 0;
	uint32_t line = l->line, col = l->col;
	step(l);
	step(l);
	while (!(peek(l, 0) == '*' && peek(l, 1) == '/')) {
		if (l->at >= l->len)
			return fail(l, line, col, "unterminated comment");
		step(l);
	}
	step(l);
	step(l);
	return 1;
}

/* A string or character literal, from its opening quote. */
static int literal(struct lexer *l, char quote)
{
	uint32_t line = l->line, col = l->col;
	step(l);
	for (;;) {
		int c = peek(l, 0);
		if (c < 0 || c == '\n')
			return fail(l, line, col, "unterminated %s literal",
			            quote == '"' ? "string" : "character");
		step(l);
		if (c == quote)
			return 0;
		if (c == '\\' && l->at < l->len)
			step(l);
	}
}

/* A preprocessor line, from its '#' to the end of the line: backslash-newlines continue it,
 * and a comment in it may span lines. */
static int directive(struct lexer *l)
{
	for (;;) {
		int c = peek(l, 0);
		if (c < 0 || c == '\n')
			return 0;
		int rc = comment(l);
		if (rc < 0)
			return rc;
		if (rc)
			continue;
		if (c == '"' || c == '\'') {
			if ((rc = literal(l, (char) c)))
				return rc;
			continue;
		}
		if (c == '\\' && peek(l, 1) == '\n')
			step(l);
		else if (c == '\\' && peek(l, 1) == '\r' && peek(l, 2) == '\n')
			step(l), step(l);
		step(l);
	}
}

/* A pp-number: a digit (or a dot and a digit), then digits, letters, dots, and signs after
 * an exponent's letter. */
static void number(struct lexer *l)
{
	int prev = 0;
	for (;;) {
		int c = peek(l, 0);
		bool sign = (c == '+' || c == '-') &&
		            (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P');
		if (!is_ident(c) && c != '.' && !sign)
			return;
		prev = c;
		step(l);
	}
}

static int next_token(struct lexer *l, struct tp_tok *t, bool line_start)
{
	int c = peek(l, 0);
	int rc = 0;

	if (c == '#' && line_start) {
		t->kind = TP_DIRECTIVE;
		rc = directive(l);
	} else if (is_ident_start(c)) {
		t->kind = TP_IDENT;
		while (is_ident(peek(l, 0)))
			step(l);
	} else if ((c >= '0' && c <= '9') || (c == '.' && peek(l, 1) >= '0' && peek(l, 1) <= '9')) {
		t->kind = TP_NUMBER;
		number(l);
	} else if (c == '"' || c == '\'') {
		t->kind = c == '"' ? TP_STRING : TP_CHAR;
		rc = literal(l, (char) c);
	} else if (c > ' ' && c < 127 && c != '\\' && c != '`' && c != '@' && c != '$') {
		t->kind = TP_PUNCT;
		step(l);
	} else {
		return fail(l, l->line, l->col, "unexpected byte 0x%02x (not C)", (unsigned) c);
	}
	return rc;
}

int tp_lex(const char *text, size_t len, struct tp_tokens *out, struct tp_error *err)
{
	struct lexer l = {text, len, 0, 1, 1, err};
	struct tp_tok *tok = NULL;
	size_t n = 0, cap = 0;
	bool space = false, line_start = true;
	int rc = 0;

	out->tok = NULL;
	out->n = 0;
	if (len > TP_MAX_TEXT)
		return fail(&l, 1, 1, "template larger than %u MiB", TP_MAX_TEXT >> 20);
	for (;;) {
		int c = peek(&l, 0);
		if (c == '\n') {
			line_start = space = true;
			step(&l);
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			space = true;
			step(&l);
			continue;
		}
		if (c == '\\' &&
		    (peek(&l, 1) == '\n' || (peek(&l, 1) == '\r' && peek(&l, 2) == '\n'))) {
			/* a line continued: the same line as far as directives go */
			while (l.s[l.at] != '\n')
				step(&l);
			step(&l);
			space = true;
			continue;
		}
		if ((rc = comment(&l)) < 0)
			goto out;
		if (rc) {
			space = true;
			continue;
		}
		if ((rc = grow_one(&tok, n, &cap, sizeof(*tok), 256)))
			goto out;
		struct tp_tok *t = &tok[n];
		*t = (struct tp_tok){TP_EOF, space, (uint32_t) l.at, 0, l.line, l.col};
		if (c < 0) {
			out->tok = tok;
			out->n = n;
			return 0;
		}
		if ((rc = next_token(&l, t, line_start)))
			goto out;
		t->len = (uint32_t) (l.at - t->off);
		n++;
		space = line_start = false;
	}
out:
	free(tok);
	return rc;
}

void tp_tokens_free(struct tp_tokens *t)
{
	free(t->tok);
	t->tok = NULL;
	t->n = 0;
}
