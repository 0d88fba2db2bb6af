/* SPDX-License-Identifier: MIT */
/*
 * tsdl-scan.c: a kernel trace's metadata declares over a thousand event blocks, of which
 * tsdl_parse_lazy reads only the name, the ids and where the scopes are. Reading those
 * straight from the text, by the lexer's rules (its character classes, comments, strings and
 * numbers), costs a few instructions a byte instead of a token's worth. Only the forms LTTng
 * writes are read; on anything else the scan gives up and the parser reads the block token
 * by token, as it did before: that path is the reference, and the one that reports errors.
 *
 * The text ends with a NUL (at end), which no read here takes for what it looks for: most
 * reads need no bound check.
 */
#include <string.h>

#include "bytes16.h"
#include "tsdl-lex.h"
#include "tsdl-scan.h"

/* A position in the text, with the lexer's line and column for it. */
struct raw {
	const char *p, *end;
	unsigned line;
	const char *mark; /* a position on p's line, and its column */
	unsigned mark_col;
};

static unsigned column(const struct raw *r)
{
	return r->mark_col + (unsigned) (r->p - r->mark);
}

static struct tsdl_place place(const struct raw *r)
{
	return (struct tsdl_place){r->p, r->line, column(r)};
}

static bool is_alnum(char c)
{
	return tsdl_cclass[(unsigned char) c] & (TSDL_C_ALPHA | TSDL_C_DIGIT);
}

static bool read_char(struct raw *r, char c)
{
	if (*r->p != c)
		return false;
	r->p++;
	return true;
}

/* Step over the newline at r->p. */
static void new_line(struct raw *r)
{
	r->p++;
	r->line++;
	r->mark = r->p;
	r->mark_col = 1;
}

/* Forward to q, counting lines (comments: short, and rare in event blocks). */
static void move_to(struct raw *r, const char *q)
{
	while (r->p < q) {
		if (*r->p == '\n')
			new_line(r);
		else
			r->p++;
	}
}

/* A NUL or a '/' at r->p, as skip_space_and_comments reads them: 1 when stepped over, 0 when
 * not a blank (the end of the text, or a '/' that starts no comment), -1 for an unterminated
 * comment. Apart, so that skip_blank stays small. */
static __attribute__((noinline)) int skip_odd_blank(struct raw *r)
{
	if (*r->p == '\0')
		return r->p == r->end ? 0 : (r->p++, 1); /* a NUL in the text: a blank */
	if (r->end - r->p < 2)
		return 0;
	if (r->p[1] == '*') {
		const char *close = memmem(r->p + 2, (size_t) (r->end - r->p - 2), "*/", 2);
		if (!close)
			return -1;
		move_to(r, close + 2);
		return 1;
	}
	if (r->p[1] == '/') {
		const char *nl = memchr(r->p, '\n', (size_t) (r->end - r->p));
		move_to(r, nl ? nl : r->end);
		return 1;
	}
	return 0;
}

/* What a byte is to skip_blank. */
enum { BLANK_NONE, BLANK_SPACE, BLANK_NEWLINE, BLANK_ODD };
static const unsigned char blank_kind[256] = {
    [' '] = BLANK_SPACE,  ['\t'] = BLANK_SPACE,   ['\r'] = BLANK_SPACE, ['\v'] = BLANK_SPACE,
    ['\f'] = BLANK_SPACE, ['\n'] = BLANK_NEWLINE, ['\0'] = BLANK_ODD,   ['/'] = BLANK_ODD,
};

/* Blanks and comments, as the lexer steps over them. False: an unterminated comment. */
static inline bool skip_blank(struct raw *r)
{
	for (;;) {
		switch (blank_kind[(unsigned char) *r->p]) {
		case BLANK_NONE: return true;
		case BLANK_SPACE: r->p++; break;
		case BLANK_NEWLINE: new_line(r); break;
		default: {
			int rc = skip_odd_blank(r);
			if (rc <= 0)
				return rc == 0;
		}
		}
	}
}

/* Blanks, then the punctuation c: inline for the common `c` and ` c`. */
static inline bool read_char_after_blank(struct raw *r, char c)
{
	if (r->p[0] == c || (r->p[0] == ' ' && r->p[1] == c)) {
		r->p += r->p[0] == c ? 1 : 2;
		return true;
	}
	return skip_blank(r) && read_char(r, c);
}

/* The word w (of n letters) as a whole identifier: not followed by a letter, digit or '_'. */
static bool read_word(struct raw *r, const char *w, size_t n)
{
	if ((size_t) (r->end - r->p) < n || memcmp(r->p, w, n) || is_alnum(r->p[n]))
		return false;
	r->p += n;
	return true;
}

#define READ_WORD(r, w) read_word((r), (w), sizeof(w) - 1)

enum key {
	KEY_OTHER,
	KEY_NAME,
	KEY_ID,
	KEY_STREAM_ID,
	KEY_LOGLEVEL,
	KEY_EMF_URI,
	KEY_FIELDS,
	KEY_CONTEXT
};

/* The name of an attribute the parser reads in an event block. Only `model.emf.uri` is a
 * path, read with no blank or comment inside; any other name, or one followed by something
 * else than blanks then '=' or ':=' (a path), is not read. */
static enum key read_key(struct raw *r)
{
	switch (*r->p) {
	case 'n': return READ_WORD(r, "name") ? KEY_NAME : KEY_OTHER;
	case 'i': return READ_WORD(r, "id") ? KEY_ID : KEY_OTHER;
	case 's': return READ_WORD(r, "stream_id") ? KEY_STREAM_ID : KEY_OTHER;
	case 'f': return READ_WORD(r, "fields") ? KEY_FIELDS : KEY_OTHER;
	case 'c': return READ_WORD(r, "context") ? KEY_CONTEXT : KEY_OTHER;
	case 'l': return READ_WORD(r, "loglevel") ? KEY_LOGLEVEL : KEY_OTHER;
	case 'm': return READ_WORD(r, "model.emf.uri") ? KEY_EMF_URI : KEY_OTHER;
	default: return KEY_OTHER;
	}
}

/* The bytes that end a plain string: its quote, or what makes it not plain (or the end). */
static const unsigned char string_stop[256] = {['"'] = 1, ['\\'] = 1, ['\n'] = 1, ['\0'] = 1};

/* From q, the first byte that ends a plain string. Names are tens of bytes: 16 at a time
 * while they are in the text, then one at a time up to the NUL at end at the latest. */
static const char *find_string_stop(const char *q, const char *end)
{
	for (; end - q >= 16; q += 16) {
		bytes16 v = bytes16_load(q);
		unsigned i =
		    bytes16_first((bytes16) ((v == '"') | (v == '\\') | (v == '\n') | (v == 0)));
		if (i < 16)
			return q + i;
	}
	while (!string_stop[(unsigned char) *q])
		q++;
	return q;
}

/* A "..." string, its contents kept as they are: none with a backslash (an escape to decode),
 * a newline (an error) or a NUL. */
static bool read_plain_string(struct raw *r, const char **text, size_t *len)
{
	if (*r->p != '"')
		return false;
	const char *q = find_string_stop(r->p + 1, r->end);
	if (*q != '"')
		return false;
	*text = r->p + 1;
	*len = (size_t) (q - *text);
	r->p = q + 1;
	return true;
}

/* A decimal integer below 10^18 (so also a positive int64_t), as lex_number reads it: "0" or
 * no leading zero (octal), and no letter, digit or '_' after it (a suffix, an error). */
static bool read_small_uint(struct raw *r, uint64_t *v)
{
	const char *start = r->p;
	uint64_t x = 0;

	while ((tsdl_cclass[(unsigned char) *r->p] & TSDL_C_DIGIT) && r->p - start < 18)
		x = x * 10 + (uint64_t) (*r->p++ - '0');
	if (r->p == start || (*start == '0' && r->p - start > 1) || is_alnum(*r->p))
		return false;
	*v = x;
	return true;
}

/* The value of `key = value`. */
static bool read_value(struct raw *r, enum key key, struct tsdl_event_scan *ev)
{
	uint64_t u;

	switch (key) {
	case KEY_NAME: return read_plain_string(r, &ev->name, &ev->name_len);
	case KEY_EMF_URI: return read_plain_string(r, &ev->emf_uri, &ev->emf_uri_len);
	case KEY_ID: return read_small_uint(r, &ev->id);
	case KEY_STREAM_ID: return (ev->has_stream_id = read_small_uint(r, &ev->stream_id));
	case KEY_LOGLEVEL:
		if (!read_small_uint(r, &u))
			return false;
		ev->loglevel = (int64_t) u;
		return (ev->has_loglevel = true);
	default: return false;
	}
}

/* `:= struct {...}` up to the ';' after it, stepped over as the parser's defer_scope does;
 * kw gets the place of `struct`. A scope given twice is not read: the parser checks the
 * first one then. */
static bool read_scope(struct raw *r, struct tsdl_place *kw)
{
	struct tsdl_lexer lx;

	if (kw->at || !read_char(r, ':') || !read_char(r, '=') || !skip_blank(r))
		return false;
	struct tsdl_place at = place(r);
	if (!READ_WORD(r, "struct") || !skip_blank(r) || *r->p != '{')
		return false;
	tsdl_lex_init(&lx, r->p, (size_t) (r->end - r->p));
	lx.line = r->line;
	lx.col = column(r);
	if (tsdl_lex_skip_to_semicolon(&lx))
		return false; /* the parser reads it now, to report the error */
	r->p = r->mark = lx.pos;
	r->line = lx.line;
	r->mark_col = lx.col;
	*kw = at;
	return true;
}

/* `key = value;` or `key := struct {...};` */
static bool read_attr(struct raw *r, struct tsdl_event_scan *ev)
{
	enum key key = read_key(r);
	bool ok;

	if (key == KEY_OTHER)
		return false;
	if (key == KEY_FIELDS || key == KEY_CONTEXT)
		ok = skip_blank(r) && read_scope(r, key == KEY_FIELDS ? &ev->fields : &ev->context);
	else
		ok = read_char_after_blank(r, '=') && skip_blank(r) && read_value(r, key, ev);
	return ok && read_char_after_blank(r, ';');
}

/* After the closing brace of the block: the ';' and an `event` keyword after it, when they are
 * there. */
static void read_block_end(struct raw *r, struct tsdl_event_scan *ev)
{
	r->p++;
	if (!skip_blank(r) || *r->p != ';')
		return;
	ev->semicolon = place(r);
	r->p++;
	if (!skip_blank(r))
		return;
	struct tsdl_place kw = place(r);
	if (READ_WORD(r, "event"))
		ev->next_event = kw;
}

int tsdl_scan_event(const char *at, const char *end, unsigned line, unsigned col,
                    struct tsdl_event_scan *ev)
{
	struct raw r = {at, end, line, at, col};

	*ev = (struct tsdl_event_scan){0};
	if (!read_char_after_blank(&r, '{') || !skip_blank(&r))
		return -1;
	ev->first = place(&r);
	while (*r.p != '}') {
		if (!read_attr(&r, ev) || !skip_blank(&r))
			return -1;
	}
	ev->close = place(&r);
	read_block_end(&r, ev);
	return 0;
}
