/* SPDX-License-Identifier: MIT */
/*
 * tsdl-lex.c: splits TSDL text into tokens, skipping C comments, tracking line and column
 * so that syntax errors point at the spot (CTF 1.8 section 7: the grammar is C-like).
 */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "bytes16.h"
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
const unsigned char tsdl_cclass[256] = {
    ['\0'] = TSDL_C_SPACE, /* NULs between text are skipped like blanks */
    [' '] = TSDL_C_SPACE,         ['\t' ... '\r'] = TSDL_C_SPACE, ['a' ... 'z'] = TSDL_C_ALPHA,
    ['A' ... 'Z'] = TSDL_C_ALPHA, ['_'] = TSDL_C_ALPHA,           ['0' ... '9'] = TSDL_C_DIGIT,
    ['{'] = TSDL_C_PUNCT,         ['}'] = TSDL_C_PUNCT,           ['['] = TSDL_C_PUNCT,
    [']'] = TSDL_C_PUNCT,         ['('] = TSDL_C_PUNCT,           [')'] = TSDL_C_PUNCT,
    [';'] = TSDL_C_PUNCT,         [','] = TSDL_C_PUNCT,           ['='] = TSDL_C_PUNCT,
    [':'] = TSDL_C_PUNCT,         ['<'] = TSDL_C_PUNCT,           ['>'] = TSDL_C_PUNCT,
    ['.'] = TSDL_C_PUNCT,         ['-'] = TSDL_C_PUNCT,           ['+'] = TSDL_C_PUNCT,
    ['*'] = TSDL_C_PUNCT,
};

static inline int is_digit(unsigned char c)
{
	return tsdl_cclass[c] & TSDL_C_DIGIT;
}

static inline int is_alnum(unsigned char c)
{
	return tsdl_cclass[c] & (TSDL_C_ALPHA | TSDL_C_DIGIT);
}

static int skip_space_and_comments(struct tsdl_lexer *lx)
{
	for (;;) {
		while (lx->pos < lx->end &&
		       (tsdl_cclass[(unsigned char) *lx->pos] & TSDL_C_SPACE)) {
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

/*
 * tsdl_lex_skip_to_semicolon walks event scopes: most of a kernel trace's metadata. Inside
 * braces only { } " ' / matter (lines are counted afterwards), so they are looked for 16
 * bytes at a time (bytes16.h), and the braces of a chunk counted from the bits of its
 * matches.
 */
/* Characters that matter out of braces (where a ';' ends the scan). */
static const unsigned char out_of_braces[256] = {
    ['"'] = 1, ['\''] = 1, ['/'] = 1, ['{'] = 1, ['}'] = 1, [';'] = 1,
};

static const char *find_out_of_braces(const char *p, const char *end)
{
	while (p < end && !out_of_braces[(unsigned char) *p])
		p++;
	return p;
}

/* One of { } " ' / at q, inside braces: depth counted, true to stop there (a quote or a '/',
 * or the brace that closes the outermost one). */
static inline bool brace_stop(const char *q, size_t *depth)
{
	if (*q == '{') {
		++*depth;
		return false;
	}
	return *q != '}' || !--*depth;
}

/* From p inside braces (*depth > 0): the '}' that closes the outermost brace (*depth left 0),
 * or the first " ' / (left to the caller), or end. */
static const char *match_braces(const char *p, const char *end, size_t *depth)
{
	const uint64_t low_bits = 0x0101010101010101ull;

	for (; end - p >= 16; p += 16) {
		bytes16 v = bytes16_load(p);
		bytes16 hit =
		    (bytes16) ((v == '{') | (v == '}') | (v == '"') | (v == '\'') | (v == '/'));
		for (int half = 0; half < 2; half++) {
			/* one bit a match, the lowest first */
			for (uint64_t m = bytes16_half(hit, half) & low_bits; m; m &= m - 1) {
				const char *q = p + 8 * half + __builtin_ctzll(m) / 8;
				if (brace_stop(q, depth))
					return q;
			}
		}
	}
	for (; p < end; p++)
		if ((*p == '{' || *p == '}' || *p == '"' || *p == '\'' || *p == '/') &&
		    brace_stop(p, depth))
			return p;
	return p;
}

/* The sum of the 8 bytes of w. */
static inline unsigned byte_sum(uint64_t w)
{
	const uint64_t low_bytes = 0x00ff00ff00ff00ffull;

	w = (w & low_bytes) + ((w >> 8) & low_bytes);
	return (unsigned) ((w * 0x0001000100010001ull) >> 48);
}

static size_t count_newlines(const char *p, const char *end)
{
	static const bytes16 lane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
	const char *start = p;
	size_t n = 0, chunks = (size_t) (end - p) / 16;

	while (chunks) {
		size_t k = chunks < 255 ? chunks : 255; /* a byte lane counts up to 255 */
		bytes16 count = {0};
		chunks -= k;
		for (; k; k--, p += 16)
			count -= (bytes16) (bytes16_load(p) == '\n'); /* true is -1 */
		n += byte_sum(bytes16_half(count, 0)) + byte_sum(bytes16_half(count, 1));
	}
	if (p < end && end - start >= 16) {
		/* the last 16 bytes, less those counted already */
		unsigned char counted = (unsigned char) (16 - (end - p));
		bytes16 nl =
		    (bytes16) (bytes16_load(end - 16) == '\n') & (bytes16) (lane >= counted) & 1;
		return n + byte_sum(bytes16_half(nl, 0)) + byte_sum(bytes16_half(nl, 1));
	}
	for (; p < end; p++)
		n += *p == '\n';
	return n;
}

/* From the opening quote at p, the closing one, as lex_string reads it (no newline, even
 * escaped); NULL when there is none. */
static const char *string_end(const char *p, const char *end)
{
	char quote = *p;

	for (p++; p < end && *p != quote; p++) {
		if (*p == '\\' && p + 1 < end)
			p++;
		if (*p == '\n')
			return NULL;
	}
	return p < end ? p : NULL;
}

/* From the '/' at p, the last character of the comment it starts (p itself when it starts
 * none), as skip_space_and_comments reads it; NULL for an unterminated comment. */
static const char *comment_end(const char *p, const char *end)
{
	if (p + 1 < end && p[1] == '*') {
		for (const char *q = p + 2; q + 1 < end; q++)
			if (q[0] == '*' && q[1] == '/')
				return q + 1;
		return NULL;
	}
	if (p + 1 < end && p[1] == '/') {
		const char *nl = memchr(p, '\n', (size_t) (end - p));
		return (nl ? nl : end) - 1;
	}
	return p;
}

void tsdl_lex_jump(struct tsdl_lexer *lx, const char *p)
{
	size_t lines = count_newlines(lx->pos, p);

	if (lines) {
		const char *last_nl = memrchr(lx->pos, '\n', (size_t) (p - lx->pos));
		lx->line += (unsigned) lines;
		lx->col = (unsigned) (p - last_nl);
	} else {
		lx->col += (unsigned) (p - lx->pos);
	}
	lx->pos = p;
}

int tsdl_lex_skip_to_semicolon(struct tsdl_lexer *lx)
{
	const char *p = lx->pos, *end = lx->end;
	size_t depth = 0;

	for (;; p++) {
		if (depth) {
			p = match_braces(p, end, &depth);
			if (p >= end)
				return -1;
			if (!depth)
				continue; /* p: the closing brace */
		} else {
			p = find_out_of_braces(p, end);
			if (p >= end || *p == '}')
				return -1;
			if (*p == '{') {
				depth++;
				continue;
			}
			if (*p == ';') {
				tsdl_lex_jump(lx, p);
				return 0;
			}
		}
		p = *p == '/' ? comment_end(p, end) : string_end(p, end);
		if (!p)
			return -1;
	}
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
	if (tsdl_cclass[(unsigned char) c] & TSDL_C_ALPHA) { /* letters and '_' */
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
	} else if (tsdl_cclass[(unsigned char) c] & TSDL_C_PUNCT) {
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
