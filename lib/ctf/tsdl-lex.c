/* SPDX-License-Identifier: MIT */
/*
 * tsdl-lex.c: splits TSDL text into tokens, skipping C comments, tracking line and column
 * so that syntax errors point at the spot (CTF 1.8 section 7: the grammar is C-like).
 */
#include <ctype.h>
#include <string.h>

#include "tsdl-lex.h"

void tsdl_lex_init(struct tsdl_lexer *lx, const char *src, size_t len)
{
	lx->src = lx->pos = src;
	lx->end = src + len;
	lx->line = 1;
	lx->col = 1;
	lx->error = NULL;
}

static void advance(struct tsdl_lexer *lx, size_t n)
{
	while (n-- && lx->pos < lx->end) {
		if (*lx->pos == '\n') {
			lx->line++;
			lx->col = 1;
		} else {
			lx->col++;
		}
		lx->pos++;
	}
}

static int skip_space_and_comments(struct tsdl_lexer *lx)
{
	for (;;) {
		while (lx->pos < lx->end && (isspace((unsigned char) *lx->pos) || *lx->pos == '\0'))
			advance(lx, 1);
		if (lx->end - lx->pos >= 2 && lx->pos[0] == '/' && lx->pos[1] == '*') {
			const char *close = NULL;
			for (const char *p = lx->pos + 2; p + 1 < lx->end; p++)
				if (p[0] == '*' && p[1] == '/') {
					close = p;
					break;
				}
			if (!close) {
				lx->error = "unterminated comment";
				return -1;
			}
			advance(lx, (size_t) (close + 2 - lx->pos));
		} else if (lx->end - lx->pos >= 2 && lx->pos[0] == '/' && lx->pos[1] == '/') {
			while (lx->pos < lx->end && *lx->pos != '\n')
				advance(lx, 1);
		} else {
			return 0;
		}
	}
}

static int lex_number(struct tsdl_lexer *lx, struct tsdl_token *t)
{
	const char *p = lx->pos;
	uint64_t v = 0;
	unsigned base = 10;

	if (p + 1 < lx->end && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0') {
		base = 8;
	}
	const char *digits = p;
	for (; p < lx->end; p++) {
		int d;
		if (isdigit((unsigned char) *p))
			d = *p - '0';
		else if (base == 16 && isxdigit((unsigned char) *p))
			d = tolower((unsigned char) *p) - 'a' + 10;
		else
			break;
		if (d >= (int) base) {
			lx->error = "invalid digit in number";
			return -1;
		}
		if (v > (UINT64_MAX - (uint64_t) d) / base) {
			lx->error = "integer constant too large";
			return -1;
		}
		v = v * base + (uint64_t) d;
	}
	if (base == 16 && p == digits) {
		lx->error = "invalid hexadecimal constant";
		return -1;
	}
	/* C integer suffixes (U, L, UL, ULL) are allowed and ignored. */
	while (p < lx->end && (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L'))
		p++;
	if (p < lx->end && (isalnum((unsigned char) *p) || *p == '_')) {
		lx->error = "invalid character in number";
		return -1;
	}
	t->kind = TOK_INT;
	t->ival = v;
	t->len = (size_t) (p - lx->pos);
	advance(lx, t->len);
	return 0;
}

static int lex_string(struct tsdl_lexer *lx, struct tsdl_token *t, char quote)
{
	const char *p = lx->pos + 1;

	while (p < lx->end && *p != quote) {
		if (*p == '\\' && p + 1 < lx->end)
			p++;
		if (*p == '\n') {
			lx->error = "newline in string literal";
			return -1;
		}
		p++;
	}
	if (p >= lx->end) {
		lx->error = "unterminated string literal";
		return -1;
	}
	t->kind = TOK_STRING;
	t->start = lx->pos + 1;
	t->len = (size_t) (p - lx->pos - 1);
	advance(lx, (size_t) (p + 1 - lx->pos));
	return 0;
}

struct tsdl_token tsdl_lex_next(struct tsdl_lexer *lx)
{
	struct tsdl_token t = {0};

	if (skip_space_and_comments(lx)) {
		t.kind = TOK_ERROR;
		t.line = lx->line;
		t.col = lx->col;
		return t;
	}
	t.line = lx->line;
	t.col = lx->col;
	t.start = lx->pos;
	if (lx->pos >= lx->end) {
		t.kind = TOK_EOF;
		return t;
	}
	char c = *lx->pos;
	int rc = 0;
	if (isalpha((unsigned char) c) || c == '_') {
		const char *p = lx->pos;
		while (p < lx->end && (isalnum((unsigned char) *p) || *p == '_'))
			p++;
		t.kind = TOK_IDENT;
		t.len = (size_t) (p - lx->pos);
		advance(lx, t.len);
	} else if (isdigit((unsigned char) c)) {
		rc = lex_number(lx, &t);
	} else if (c == '"' || c == '\'') {
		rc = lex_string(lx, &t, c);
	} else if (lx->end - lx->pos >= 3 && !strncmp(lx->pos, "...", 3)) {
		t.kind = TOK_PUNCT;
		t.len = 3;
		advance(lx, 3);
	} else if (lx->end - lx->pos >= 2 && !strncmp(lx->pos, ":=", 2)) {
		t.kind = TOK_PUNCT;
		t.len = 2;
		advance(lx, 2);
	} else if (strchr("{}[]();,=:<>.-+*", c)) {
		t.kind = TOK_PUNCT;
		t.len = 1;
		advance(lx, 1);
	} else {
		lx->error = "unexpected character";
		rc = -1;
	}
	if (rc) {
		t.kind = TOK_ERROR;
		t.line = lx->line;
		t.col = lx->col;
	}
	return t;
}

int tsdl_tok_is(const struct tsdl_token *t, const char *s)
{
	size_t n = strlen(s);
	return (t->kind == TOK_PUNCT || t->kind == TOK_IDENT) && t->len == n &&
	       !memcmp(t->start, s, n);
}
