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

/* Within a line: identifiers, numbers, punctuation and string literals hold no newline. */
static inline void advance_in_line(struct tsdl_lexer *lx, size_t n)
{
	lx->pos += n;
	lx->col += (unsigned) n;
}

/* The C locale's classes in one table look-up per character (no locale calls). */
enum { C_SPACE = 1, C_ALPHA = 2, C_DIGIT = 4, C_PUNCT = 8 };
static const unsigned char cclass[256] = {
    ['\0'] = C_SPACE, /* NULs between text are skipped like blanks */
    [' '] = C_SPACE,  ['\t' ... '\r'] = C_SPACE, ['a' ... 'z'] = C_ALPHA, ['A' ... 'Z'] = C_ALPHA,
    ['_'] = C_ALPHA,  ['0' ... '9'] = C_DIGIT,   ['{'] = C_PUNCT,         ['}'] = C_PUNCT,
    ['['] = C_PUNCT,  [']'] = C_PUNCT,           ['('] = C_PUNCT,         [')'] = C_PUNCT,
    [';'] = C_PUNCT,  [','] = C_PUNCT,           ['='] = C_PUNCT,         [':'] = C_PUNCT,
    ['<'] = C_PUNCT,  ['>'] = C_PUNCT,           ['.'] = C_PUNCT,         ['-'] = C_PUNCT,
    ['+'] = C_PUNCT,  ['*'] = C_PUNCT,
};

static inline int is_digit(unsigned char c)
{
	return cclass[c] & C_DIGIT;
}

static inline int is_alnum(unsigned char c)
{
	return cclass[c] & (C_ALPHA | C_DIGIT);
}

static int skip_space_and_comments(struct tsdl_lexer *lx)
{
	for (;;) {
		while (lx->pos < lx->end && (cclass[(unsigned char) *lx->pos] & C_SPACE)) {
			if (*lx->pos == '\n') {
				lx->line++;
				lx->col = 1;
			} else {
				lx->col++;
			}
			lx->pos++;
		}
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
		if (is_digit((unsigned char) *p))
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
	if (p < lx->end && is_alnum((unsigned char) *p)) { /* '_' included */
		lx->error = "invalid character in number";
		return -1;
	}
	t->kind = TOK_INT;
	t->ival = v;
	t->len = (size_t) (p - lx->pos);
	advance_in_line(lx, t->len);
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
	advance_in_line(lx, (size_t) (p + 1 - lx->pos));
	return 0;
}

/* The characters that matter to tsdl_lex_skip_to_semicolon: one look-up per byte. */
static const unsigned char raw_special[256] = {
    ['\n'] = 1, ['"'] = 1, ['\''] = 1, ['/'] = 1, ['{'] = 1, ['}'] = 1, [';'] = 1,
};

int tsdl_lex_skip_to_semicolon(struct tsdl_lexer *lx)
{
	const char *p = lx->pos, *end = lx->end, *last_nl = NULL;
	unsigned lines = 0;
	size_t depth = 0;

	for (;; p++) {
		while (p < end && !raw_special[(unsigned char) *p])
			p++;
		if (p >= end)
			return -1;
		char c = *p;
		if (c == '\n') {
			lines++;
			last_nl = p;
		} else if (c == '{') {
			depth++;
		} else if (c == '}') {
			if (!depth)
				return -1;
			depth--;
		} else if (c == ';') {
			if (!depth)
				break;
		} else if (c == '"' || c == '\'') { /* as lex_string: no newline, even escaped */
			const char *q = p + 1;
			while (q < end && *q != c) {
				if (*q == '\\' && q + 1 < end)
					q++;
				if (*q == '\n')
					return -1;
				q++;
			}
			if (q >= end)
				return -1;
			p = q;
		} else if (p + 1 < end && p[1] == '*') { /* as skip_space_and_comments */
			const char *q = p + 2;
			while (q + 1 < end && !(q[0] == '*' && q[1] == '/')) {
				if (*q == '\n') {
					lines++;
					last_nl = q;
				}
				q++;
			}
			if (q + 1 >= end)
				return -1;
			p = q + 1;
		} else if (p + 1 < end && p[1] == '/') {
			while (p + 1 < end && p[1] != '\n')
				p++;
		}
	}
	lx->col = last_nl ? (unsigned) (p - last_nl) : lx->col + (unsigned) (p - lx->pos);
	lx->line += lines;
	lx->pos = p;
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
	if (cclass[(unsigned char) c] & C_ALPHA) { /* letters and '_' */
		const char *p = lx->pos;
		while (p < lx->end && is_alnum((unsigned char) *p))
			p++;
		t.kind = TOK_IDENT;
		t.len = (size_t) (p - lx->pos);
		advance_in_line(lx, t.len);
	} else if (is_digit((unsigned char) c)) {
		rc = lex_number(lx, &t);
	} else if (c == '"' || c == '\'') {
		rc = lex_string(lx, &t, c);
	} else if (lx->end - lx->pos >= 3 && !strncmp(lx->pos, "...", 3)) {
		t.kind = TOK_PUNCT;
		t.len = 3;
		advance_in_line(lx, 3);
	} else if (lx->end - lx->pos >= 2 && !strncmp(lx->pos, ":=", 2)) {
		t.kind = TOK_PUNCT;
		t.len = 2;
		advance_in_line(lx, 2);
	} else if (cclass[(unsigned char) c] & C_PUNCT) {
		t.kind = TOK_PUNCT;
		t.len = 1;
		advance_in_line(lx, 1);
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
