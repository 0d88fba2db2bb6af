/* SPDX-License-Identifier: MIT */
/*
 * tsdl-parse.c: recursive-descent parser for CTF 1.8 TSDL (spec section 7), covering what
 * LTTng, barectf and babeltrace write: trace/env/clock/stream/event/callsite blocks,
 * typealias and typedef, integer, floating_point, string, enum, struct, variant, arrays and
 * sequences. Types are built directly (no AST): the model in types.h is the result.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/spoor.h"
#include "tsdl-lex.h"
#include "tsdl-parse.h"
#include "tsdl-scan.h"

enum ns { NS_ALIAS, NS_STRUCT, NS_VARIANT, NS_ENUM };

struct tsdl_alias {
	const char *name;
	enum ns ns;
	unsigned depth;
	struct ctf_type *type;
};

struct event_key {
	const struct ctf_stream_class *sc;
	uint64_t id;
};

struct parser {
	struct tsdl_lexer lx;
	struct tsdl_token tok, ahead;
	int has_ahead;
	struct ctf_meta *m;
	struct arena *a;
	struct tsdl_alias *aliases;
	unsigned naliases, cap_aliases;
	unsigned depth;   /* alias scopes: struct bodies */
	unsigned nesting; /* type specifiers inside each other, for TSDL_MAX_DEPTH */
	struct tsdl_error *err;
	int failed;
	int code;
	int bo_set;
	bool lazy; /* event scopes `struct {...}` are stepped over (tsdl_parse_lazy) */
	/* the whole text (parse_text): the line of the top-level declaration being read, and
	 * whether the text was read to its end (finish's errors are not a cut) */
	bool top, whole;
	unsigned decl_line;
	bool scan; /* lazy, and event blocks read by tsdl_scan_event when it can */
	/* (stream class, event id) pairs seen: a hash set, so that duplicate ids are found
	 * in linear time (a kernel trace declares over a thousand events) */
	struct event_key *ids;
	size_t nids, cap_ids;
};

/* ---- errors and tokens ---- */

/* Whether the lexer's error in text is a comment or string left open inside a declaration
 * (not between two, where a missing end is the error): lexed again from the start. */
static bool open_inside_declaration(const struct tsdl_lexer *at)
{
	struct tsdl_lexer lx;
	struct tsdl_token t, last = {0};
	long depth = 0;

	if (strncmp(at->error, "unterminated", 12))
		return false;
	tsdl_lex_init(&lx, at->src, (size_t) (at->end - at->src));
	while ((t = tsdl_lex_next(&lx)).kind != TOK_EOF && t.kind != TOK_ERROR) {
		depth += tsdl_tok_is(&t, "{") - tsdl_tok_is(&t, "}");
		last = t;
	}
	return last.kind != TOK_EOF && (depth || !tsdl_tok_is(&last, ";"));
}

/* Whether the text stops at the token in hand, inside a declaration: that token is the end,
 * or nothing but blanks and comments follow it and it is not the ';' that closes one, or it
 * is a comment or string the end cut. */
static bool cut_here(const struct parser *p)
{
	const struct tsdl_token *t = &p->tok;

	if (!p->top || p->whole)
		return false;
	if (t->kind == TOK_EOF)
		return true;
	if (t->kind == TOK_ERROR)
		return open_inside_declaration(&p->lx);
	if (tsdl_tok_is(t, ";"))
		return false;
	struct tsdl_lexer lx = p->lx;
	lx.pos = t->start + t->len;
	return tsdl_lex_next(&lx).kind == TOK_EOF;
}

static int fail_at(struct parser *p, unsigned line, unsigned col, int code, const char *fmt, ...)
{
	if (!p->failed) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
		va_end(ap);
		p->err->line = line;
		p->err->col = col;
		p->failed = 1;
		p->code = code;
		if (cut_here(p)) { /* what went wrong is only that the text stops: say where */
			struct tsdl_lexer end = p->lx;
			tsdl_lex_jump(&end, end.end);
			snprintf(p->err->msg, sizeof(p->err->msg),
			         "the metadata ends early, inside the declaration that begins at "
			         "line %u",
			         p->decl_line);
			p->err->line = end.line;
			p->err->col = end.col;
			p->code = -SPOOR_EMETA_SYNTAX;
		}
	}
	return -1;
}

#define syntax(p, ...) fail_at((p), (p)->tok.line, (p)->tok.col, -SPOOR_EMETA_SYNTAX, __VA_ARGS__)
#define semantic(p, ...)                                                                           \
	fail_at((p), (p)->tok.line, (p)->tok.col, -SPOOR_EMETA_SEMANTIC, __VA_ARGS__)

static int next(struct parser *p)
{
	if (p->has_ahead) {
		p->tok = p->ahead;
		p->has_ahead = 0;
	} else {
		p->tok = tsdl_lex_next(&p->lx);
	}
	if (p->tok.kind == TOK_ERROR)
		return fail_at(p, p->tok.line, p->tok.col, -SPOOR_EMETA_SYNTAX, "%s", p->lx.error);
	return 0;
}

static const struct tsdl_token *peek(struct parser *p)
{
	if (!p->has_ahead) {
		p->ahead = tsdl_lex_next(&p->lx);
		p->has_ahead = 1;
	}
	return &p->ahead;
}

static int is(struct parser *p, const char *s)
{
	return tsdl_tok_is(&p->tok, s);
}

static int expect(struct parser *p, const char *s)
{
	if (!is(p, s))
		return syntax(p, "expected '%s' before '%.*s'", s, (int) p->tok.len, p->tok.start);
	return next(p);
}

static char *tok_dup(struct parser *p)
{
	return arena_strndup(p->a, p->tok.start, p->tok.len);
}

/* A string literal with its escapes decoded. */
static char *string_dup(struct parser *p)
{
	char *out = arena_alloc(p->a, p->tok.len + 1), *o = out;
	const char *s = p->tok.start, *end = s + p->tok.len;

	if (!out)
		return NULL;
	while (s < end) {
		if (*s == '\\' && s + 1 < end) {
			s++;
			switch (*s) {
			case 'n': *o++ = '\n'; break;
			case 't': *o++ = '\t'; break;
			case 'r': *o++ = '\r'; break;
			case '0': *o++ = '\0'; break;
			default: *o++ = *s; break;
			}
			s++;
		} else {
			*o++ = *s++;
		}
	}
	*o = '\0';
	return out;
}

static void *grow(struct parser *p, void *arr, unsigned *cap, unsigned n, size_t elem)
{
	if (n < *cap)
		return arr;
	unsigned ncap = *cap ? *cap * 2 : 8;
	void *bigger = arena_alloc(p->a, ncap * elem);
	if (!bigger) {
		semantic(p, "out of memory (metadata too large)");
		return NULL;
	}
	if (arr)
		memcpy(bigger, arr, *cap * elem);
	*cap = ncap;
	return bigger;
}

/* ---- scopes of type names ---- */

static int alias_add(struct parser *p, enum ns ns, const char *name, struct ctf_type *t)
{
	struct tsdl_alias *arr = grow(p, p->aliases, &p->cap_aliases, p->naliases, sizeof(*arr));
	if (!arr)
		return -1;
	p->aliases = arr;
	arr[p->naliases++] = (struct tsdl_alias){name, ns, p->depth, t};
	return 0;
}

static struct ctf_type *alias_find(struct parser *p, enum ns ns, const char *name)
{
	for (unsigned i = p->naliases; i-- > 0;)
		if (p->aliases[i].ns == ns && !strcmp(p->aliases[i].name, name))
			return p->aliases[i].type;
	return NULL;
}

static int scope_enter(struct parser *p)
{
	p->depth++;
	return 0;
}

static void scope_leave(struct parser *p)
{
	while (p->naliases && p->aliases[p->naliases - 1].depth == p->depth)
		p->naliases--;
	p->depth--;
}

/* ---- values ---- */

struct value {
	enum { V_INT, V_STRING, V_PATH, V_TYPE } kind;
	int64_t i;
	bool negative;
	const char *s; /* string or path text */
	struct ctf_type *type;
	unsigned line, col;
	const char *at, *end; /* its text, up to the ';' after it (parse_attr) */
};

static int parse_type_spec(struct parser *p, struct ctf_type **out, const char **decl_name);

/* IDENT ( '.' IDENT )* as one dotted string. */
static int parse_path(struct parser *p, const char **out)
{
	char buf[512];
	size_t n = 0;

	for (;;) {
		if (p->tok.kind != TOK_IDENT)
			return syntax(p, "expected a name");
		if (n + p->tok.len + 2 > sizeof(buf))
			return syntax(p, "name too long");
		memcpy(buf + n, p->tok.start, p->tok.len);
		n += p->tok.len;
		if (next(p))
			return -1;
		if (!is(p, "."))
			break;
		buf[n++] = '.';
		if (next(p))
			return -1;
	}
	*out = arena_strndup(p->a, buf, n);
	return *out ? 0 : semantic(p, "out of memory");
}

static int parse_int_literal(struct parser *p, int64_t *v, bool *neg)
{
	*neg = false;
	if (is(p, "-") || is(p, "+")) {
		*neg = is(p, "-");
		if (next(p))
			return -1;
	}
	if (p->tok.kind != TOK_INT)
		return syntax(p, "expected an integer");
	uint64_t u = p->tok.ival;
	if (*neg && u > (uint64_t) INT64_MAX + 1)
		return semantic(p, "integer constant out of range");
	*v = *neg ? (int64_t) (0 - u) : (int64_t) u;
	return next(p);
}

/* The right side of `key = value` or `key := type`. */
static int parse_value(struct parser *p, bool is_type, struct value *v)
{
	v->line = p->tok.line;
	v->col = p->tok.col;
	v->at = p->tok.start - (p->tok.kind == TOK_STRING); /* a string's token starts inside */
	if (is_type) {
		v->kind = V_TYPE;
		const char *unused = NULL;
		return parse_type_spec(p, &v->type, &unused);
	}
	if (p->tok.kind == TOK_INT || is(p, "-") || is(p, "+")) {
		v->kind = V_INT;
		return parse_int_literal(p, &v->i, &v->negative);
	}
	if (p->tok.kind == TOK_STRING) {
		v->kind = V_STRING;
		v->s = string_dup(p);
		return v->s ? next(p) : semantic(p, "out of memory");
	}
	if (p->tok.kind == TOK_IDENT) {
		v->kind = V_PATH;
		return parse_path(p, &v->s);
	}
	return syntax(p, "unexpected '%.*s' as a value", (int) p->tok.len, p->tok.start);
}

static int value_uint(struct parser *p, const struct value *v, uint64_t max, uint64_t *out)
{
	if (v->kind != V_INT || v->negative || (uint64_t) v->i > max)
		return fail_at(p, v->line, v->col, -SPOOR_EMETA_SEMANTIC,
		               "expected an unsigned integer up to %llu", (unsigned long long) max);
	*out = (uint64_t) v->i;
	return 0;
}

static int value_bool(struct parser *p, const struct value *v, bool *out)
{
	if (v->kind == V_INT && (v->i == 0 || v->i == 1)) {
		*out = v->i;
		return 0;
	}
	if (v->kind == V_PATH && (!strcasecmp(v->s, "true") || !strcasecmp(v->s, "false"))) {
		*out = !strcasecmp(v->s, "true");
		return 0;
	}
	return fail_at(p, v->line, v->col, -SPOOR_EMETA_SEMANTIC, "expected true or false");
}

static int value_text(struct parser *p, const struct value *v, const char **out)
{
	if (v->kind != V_STRING && v->kind != V_PATH)
		return fail_at(p, v->line, v->col, -SPOOR_EMETA_SEMANTIC, "expected a name");
	*out = v->s;
	return 0;
}

static int value_byte_order(struct parser *p, const struct value *v, enum ctf_byte_order *bo)
{
	const char *s = v->kind == V_PATH || v->kind == V_STRING ? v->s : "";

	if (!strcmp(s, "native"))
		*bo = CTF_BO_NATIVE;
	else if (!strcmp(s, "le") || !strcmp(s, "little_endian") || !strcmp(s, "little"))
		*bo = CTF_BO_LE;
	else if (!strcmp(s, "be") || !strcmp(s, "network") || !strcmp(s, "big_endian") ||
	         !strcmp(s, "big"))
		*bo = CTF_BO_BE;
	else
		return fail_at(p, v->line, v->col, -SPOOR_EMETA_SEMANTIC,
		               "byte_order must be le, be, network or native");
	return 0;
}

static int value_uuid(struct parser *p, const struct value *v, uint8_t uuid[16])
{
	const char *s = v->kind == V_STRING ? v->s : "";
	unsigned n = 0;

	for (; *s && n < 32; s++) {
		if (*s == '-')
			continue;
		int d = (*s >= '0' && *s <= '9')   ? *s - '0'
		        : (*s >= 'a' && *s <= 'f') ? *s - 'a' + 10
		        : (*s >= 'A' && *s <= 'F') ? *s - 'A' + 10
		                                   : -1;
		if (d < 0)
			break;
		if (n % 2 == 0)
			uuid[n / 2] = (uint8_t) (d << 4);
		else
			uuid[n / 2] |= (uint8_t) d;
		n++;
	}
	if (n != 32 || *s)
		return fail_at(p, v->line, v->col, -SPOOR_EMETA_SEMANTIC, "invalid UUID");
	return 0;
}

/* The `key =` or `key :=` of an attribute, left on the '=' or ':='. 1 at the closing brace. */
static int parse_attr_key(struct parser *p, const char **key, bool *is_type)
{
	if (is(p, "}"))
		return 1;
	if (parse_path(p, key))
		return -1;
	*is_type = is(p, ":=");
	if (!*is_type && !is(p, "="))
		return syntax(p, "expected '=' or ':=' after '%s'", *key);
	return 0;
}

/* One `key = value;` or `key := type;` inside braces. Returns 1 at the closing brace. */
static int parse_attr(struct parser *p, const char **key, struct value *v)
{
	bool is_type;
	int rc = parse_attr_key(p, key, &is_type);

	if (rc)
		return rc;
	if (next(p) || parse_value(p, is_type, v))
		return -1;
	v->end = p->tok.start;
	return expect(p, ";");
}

/* A value that may differ in a trace sharing the model (ctf_var), noted where it is. */
static int note_var(struct parser *p, enum ctf_var_kind kind, unsigned index, const char *key,
                    const struct value *v)
{
	const char *text = p->lx.src, *after = v->end + 1;
	if (memchr(v->at, '\n', (size_t) (v->end - v->at)))
		return 0; /* lines after it would move: it stays part of the text compared */
	struct ctf_var *arr = grow(p, p->m->vars, &p->m->cap_vars, p->m->nvars, sizeof(*arr));
	if (!arr)
		return -1;
	p->m->vars = arr;
	while (after < p->lx.end && (*after == ' ' || *after == '\t' || *after == '\r'))
		after++;
	arr[p->m->nvars++] = (struct ctf_var){
	    .off = (uint32_t) (v->at - text),
	    .len = (uint32_t) (v->end - v->at),
	    .line = v->line,
	    .col = v->col,
	    .kind = (uint8_t) kind,
	    .line_ends = after == p->lx.end || *after == '\n',
	    .index = index,
	    .key = key,
	};
	return 0;
}

/* ---- types ---- */

static unsigned default_align(unsigned size)
{
	return size % 8 ? 1 : 8;
}

/* A kernel trace's fields spell a handful of integer bodies thousands of times, each costing
 * a dozen tokens: a body is parsed once per trace and its type copied after. Only bodies
 * without strings, comments or braces are kept, so that the first '}' ends them. */
#define INT_MEMO_MAX 64

/* The memo of the body whose '{' is the current token, or NULL; *close: its first '}'. */
static const struct ctf_int_memo *int_memo_find(struct parser *p, const char **close)
{
	const char *open = p->tok.start, *end = p->lx.end;
	/* the bodies kept point into m->text, which lives as long as m (an eager parse reads
	 * its caller's text) */
	bool kept_text = p->lx.src == p->m->text;
	*close = p->has_ahead || !kept_text ? NULL : memchr(open, '}', (size_t) (end - open));
	if (!*close)
		return NULL;
	size_t len = (size_t) (*close + 1 - open);
	for (unsigned i = 0; i < p->m->nint_memo; i++) {
		const struct ctf_int_memo *e = &p->m->int_memo[i];
		if (e->len == len && !memcmp(e->body, open, len))
			return e;
	}
	return NULL;
}

/* Keep the body from open to close, just parsed into t, when it is plain. */
static void int_memo_add(struct parser *p, const char *open, const char *close,
                         const struct ctf_type *t)
{
	struct ctf_meta *m = p->m;
	for (const char *c = open + 1; c < close; c++)
		if (strchr("\"'/{", *c))
			return;
	if (!m->int_memo && !(m->int_memo = arena_alloc(p->a, INT_MEMO_MAX * sizeof(*m->int_memo))))
		return;
	if (m->nint_memo < INT_MEMO_MAX)
		m->int_memo[m->nint_memo++] =
		    (struct ctf_int_memo){open, (size_t) (close + 1 - open), *t};
}

static int parse_integer(struct parser *p, struct ctf_type **out)
{
	struct ctf_type *t = ctf_type_new(p->a, CTF_INT);
	unsigned align = 0;
	const char *key, *open = p->tok.start, *close;
	struct value v;
	uint64_t u = 0;
	int rc;

	if (!t)
		return -1;
	if (!is(p, "{"))
		return expect(p, "{"); /* the error */
	const struct ctf_int_memo *memo = int_memo_find(p, &close);
	if (memo) {
		*t = memo->type;
		*out = t;
		tsdl_lex_jump(&p->lx, close + 1);
		return next(p);
	}
	if (next(p))
		return -1;
	t->i.base = CTF_BASE_DEC;
	while ((rc = parse_attr(p, &key, &v)) == 0) {
		if (!strcmp(key, "size")) {
			if (value_uint(p, &v, 64, &u))
				return -1;
			if (!u)
				return fail_at(p, v.line, v.col, -SPOOR_EMETA_SEMANTIC,
				               "integer size must be 1 to 64");
			t->i.size = (unsigned) u;
		} else if (!strcmp(key, "align")) {
			if (value_uint(p, &v, 1u << 16, &u))
				return -1;
			if (!u || (u & (u - 1)))
				return fail_at(p, v.line, v.col, -SPOOR_EMETA_SEMANTIC,
				               "align must be a power of two");
			align = (unsigned) u;
		} else if (!strcmp(key, "signed")) {
			if (value_bool(p, &v, &t->i.is_signed))
				return -1;
		} else if (!strcmp(key, "byte_order")) {
			if (value_byte_order(p, &v, &t->i.bo))
				return -1;
		} else if (!strcmp(key, "base")) {
			const char *s = v.kind == V_PATH ? v.s : "";
			if (v.kind == V_INT && (v.i == 2 || v.i == 8 || v.i == 10 || v.i == 16))
				t->i.base = (enum ctf_base) v.i;
			else if ((s[0] && strchr("diu", s[0]) && !s[1]) || !strcmp(s, "decimal") ||
			         !strcmp(s, "dec"))
				t->i.base = CTF_BASE_DEC;
			else if (!strcmp(s, "hexadecimal") || !strcmp(s, "hex") ||
			         !strcmp(s, "x") || !strcmp(s, "X") || !strcmp(s, "p"))
				t->i.base = CTF_BASE_HEX;
			else if (!strcmp(s, "octal") || !strcmp(s, "oct") || !strcmp(s, "o"))
				t->i.base = CTF_BASE_OCT;
			else if (!strcmp(s, "binary") || !strcmp(s, "b"))
				t->i.base = CTF_BASE_BIN;
			else
				return fail_at(p, v.line, v.col, -SPOOR_EMETA_SEMANTIC,
				               "invalid base");
		} else if (!strcmp(key, "encoding")) {
			const char *s = v.kind == V_PATH || v.kind == V_STRING ? v.s : "";
			t->i.text = !strcasecmp(s, "UTF8") || !strcasecmp(s, "ASCII");
		} else if (!strcmp(key, "map")) {
			/* map = clock.NAME.value */
			const char *s = v.kind == V_PATH ? v.s : "";
			const char *dot = strrchr(s, '.');
			if (strncmp(s, "clock.", 6) || !dot || dot <= s + 6 ||
			    strcmp(dot, ".value"))
				return fail_at(p, v.line, v.col, -SPOOR_EMETA_SEMANTIC,
				               "map must be clock.NAME.value");
			t->i.map_clock = arena_strndup(p->a, s + 6, (size_t) (dot - s - 6));
		}
		/* Unknown attributes are ignored, as babeltrace does. */
	}
	if (rc < 0)
		return -1;
	if (!t->i.size)
		return semantic(p, "integer without a size");
	t->align = align ? align : default_align(t->i.size);
	*out = t;
	if (close && p->tok.start == close)
		int_memo_add(p, open, close, t);
	return next(p);
}

static int parse_float(struct parser *p, struct ctf_type **out)
{
	struct ctf_type *t = ctf_type_new(p->a, CTF_FLOAT);
	unsigned align = 0;
	const char *key;
	struct value v;
	uint64_t u = 0;
	int rc;

	if (!t || expect(p, "{"))
		return -1;
	while ((rc = parse_attr(p, &key, &v)) == 0) {
		if (!strcmp(key, "exp_dig") || !strcmp(key, "mant_dig")) {
			if (value_uint(p, &v, 64, &u))
				return -1;
			*(key[0] == 'e' ? &t->f.exp_dig : &t->f.mant_dig) = (unsigned) u;
		} else if (!strcmp(key, "align")) {
			if (value_uint(p, &v, 1u << 16, &u) || !u || (u & (u - 1)))
				return fail_at(p, v.line, v.col, -SPOOR_EMETA_SEMANTIC,
				               "align must be a power of two");
			align = (unsigned) u;
		} else if (!strcmp(key, "byte_order")) {
			if (value_byte_order(p, &v, &t->f.bo))
				return -1;
		}
	}
	if (rc < 0)
		return -1;
	unsigned size = t->f.exp_dig + t->f.mant_dig;
	if (!((t->f.exp_dig == 8 && t->f.mant_dig == 24) ||
	      (t->f.exp_dig == 11 && t->f.mant_dig == 53)))
		return semantic(p, "only 32- and 64-bit IEEE 754 floating point is supported");
	t->align = align ? align : default_align(size);
	*out = t;
	return next(p);
}

static int parse_string(struct parser *p, struct ctf_type **out)
{
	struct ctf_type *t = ctf_type_new(p->a, CTF_STRING);
	const char *key;
	struct value v;
	int rc;

	if (!t)
		return semantic(p, "out of memory");
	t->align = 8;
	*out = t;
	if (!is(p, "{"))
		return 0;
	if (next(p))
		return -1;
	while ((rc = parse_attr(p, &key, &v)) == 0)
		;
	return rc < 0 ? -1 : next(p);
}

static int parse_struct_body(struct parser *p, struct ctf_type *t);

static int parse_struct(struct parser *p, struct ctf_type **out)
{
	const char *name = NULL;
	struct ctf_type *t = NULL;
	bool defined = false;
	unsigned line = p->tok.line, col = p->tok.col;

	if (p->tok.kind == TOK_IDENT) {
		name = tok_dup(p);
		if (next(p))
			return -1;
	}
	if (is(p, "{")) {
		t = ctf_type_new(p->a, CTF_STRUCT);
		if (!t || parse_struct_body(p, t))
			return -1;
		defined = true;
	} else if (name) {
		t = alias_find(p, NS_STRUCT, name);
		if (!t)
			return fail_at(p, line, col, -SPOOR_EMETA_SEMANTIC, "unknown struct '%s'",
			               name);
	} else {
		return syntax(p, "expected a struct name or body");
	}
	if (is(p, "align")) {
		uint64_t align;
		int64_t v;
		bool neg;
		if (next(p) || expect(p, "(") || parse_int_literal(p, &v, &neg))
			return -1;
		align = (uint64_t) v;
		if (neg || !align || (align & (align - 1)) || align > (1u << 16))
			return semantic(p, "align must be a power of two");
		if (expect(p, ")"))
			return -1;
		if (align > t->align) {
			/* A new type: the named struct keeps its own alignment. */
			struct ctf_type *copy = ctf_type_new(p->a, CTF_STRUCT);
			if (!copy)
				return -1;
			*copy = *t;
			copy->align = (unsigned) align;
			t = copy;
		}
	}
	/* `struct name {...} align(N)` names the aligned struct. */
	if (defined && name && alias_add(p, NS_STRUCT, name, t))
		return -1;
	*out = t;
	return 0;
}

static int parse_variant(struct parser *p, struct ctf_type **out)
{
	const char *name = NULL, *tag = NULL;
	struct ctf_type *t;
	unsigned line = p->tok.line, col = p->tok.col;

	if (p->tok.kind == TOK_IDENT) {
		name = tok_dup(p);
		if (next(p))
			return -1;
	}
	if (is(p, "<")) {
		if (next(p) || parse_path(p, &tag) || expect(p, ">"))
			return -1;
	}
	if (is(p, "{")) {
		t = ctf_type_new(p->a, CTF_VARIANT);
		if (!t || parse_struct_body(p, t))
			return -1;
		t->align = 1;
		if (name && alias_add(p, NS_VARIANT, name, t))
			return -1;
	} else if (name) {
		t = alias_find(p, NS_VARIANT, name);
		if (!t)
			return fail_at(p, line, col, -SPOOR_EMETA_SEMANTIC, "unknown variant '%s'",
			               name);
	} else {
		return syntax(p, "expected a variant name or body");
	}
	if (tag) {
		struct ctf_type *copy = ctf_type_new(p->a, CTF_VARIANT);
		if (!copy)
			return -1;
		*copy = *t;
		copy->tag.text = tag;
		t = copy;
	}
	*out = t;
	return 0;
}

static int parse_enum(struct parser *p, struct ctf_type **out)
{
	const char *name = NULL;
	struct ctf_type *container = NULL, *t;
	unsigned cap = 0;
	unsigned line = p->tok.line, col = p->tok.col;

	if (p->tok.kind == TOK_IDENT) {
		name = tok_dup(p);
		if (next(p))
			return -1;
	}
	if (is(p, ":")) {
		const char *unused = NULL;
		if (next(p) || parse_type_spec(p, &container, &unused))
			return -1;
	}
	if (!is(p, "{")) {
		if (!name)
			return syntax(p, "expected an enum body");
		t = alias_find(p, NS_ENUM, name);
		if (!t)
			return fail_at(p, line, col, -SPOOR_EMETA_SEMANTIC, "unknown enum '%s'",
			               name);
		*out = t;
		return 0;
	}
	if (!container) {
		container = alias_find(p, NS_ALIAS, "int");
		if (!container)
			return semantic(p, "enum without a container type and no 'int' typealias");
	}
	if (container->kind != CTF_INT)
		return semantic(p, "enum container must be an integer");
	t = ctf_type_new(p->a, CTF_ENUM);
	if (!t || next(p))
		return -1;
	t->e.container = container;
	t->align = container->align;
	int64_t nextval = 0;
	while (!is(p, "}")) {
		struct ctf_enum_entry e;
		if (p->tok.kind != TOK_IDENT && p->tok.kind != TOK_STRING)
			return syntax(p, "expected an enumerator label");
		e.label = p->tok.kind == TOK_STRING ? string_dup(p) : tok_dup(p);
		if (!e.label || next(p))
			return -1;
		e.lo = e.hi = nextval;
		if (is(p, "=")) {
			bool neg;
			if (next(p) || parse_int_literal(p, &e.lo, &neg))
				return -1;
			e.hi = e.lo;
			if (is(p, "...")) {
				if (next(p) || parse_int_literal(p, &e.hi, &neg))
					return -1;
			}
		}
		nextval = (int64_t) ((uint64_t) e.hi + 1); /* wraps after INT64_MAX, as unsigned */
		struct ctf_enum_entry *arr = grow(p, t->e.entries, &cap, t->e.n, sizeof(e));
		if (!arr)
			return -1;
		if (t->e.n >= TSDL_MAX_FIELDS)
			return semantic(p, "too many enumerators");
		t->e.entries = arr;
		arr[t->e.n++] = e;
		if (is(p, ",")) {
			if (next(p))
				return -1;
		} else if (!is(p, "}")) {
			return syntax(p, "expected ',' or '}' in enum");
		}
	}
	if (!t->e.n)
		return semantic(p, "an enum needs at least one entry");
	if (ctf_enum_group(p->a, t))
		return semantic(p, "out of memory (metadata too large)");
	if (next(p))
		return -1;
	if (name && alias_add(p, NS_ENUM, name, t))
		return -1;
	*out = t;
	return 0;
}

/*
 * A type: a keyword type, or a name made of one or more words ("unsigned long"). When
 * decl_name is not NULL, a last word followed by a declarator end is the declarator itself
 * (`uint32_t magic;`), returned there.
 */
static int parse_type_spec(struct parser *p, struct ctf_type **out, const char **decl_name)
{
	int rc;

	if (++p->nesting > TSDL_MAX_DEPTH) {
		p->nesting--;
		return semantic(p, "types nested more than %d deep", TSDL_MAX_DEPTH);
	}
	if (is(p, "integer"))
		rc = next(p) || parse_integer(p, out);
	else if (is(p, "floating_point"))
		rc = next(p) || parse_float(p, out);
	else if (is(p, "string"))
		rc = next(p) || parse_string(p, out);
	else if (is(p, "struct"))
		rc = next(p) || parse_struct(p, out);
	else if (is(p, "variant"))
		rc = next(p) || parse_variant(p, out);
	else if (is(p, "enum"))
		rc = next(p) || parse_enum(p, out);
	else if (p->tok.kind == TOK_IDENT) {
		char name[256];
		size_t n = 0;
		unsigned line = p->tok.line, col = p->tok.col;
		rc = 0;
		while (p->tok.kind == TOK_IDENT) {
			/* Stop before the declarator: the last word before ; [ , := or : */
			if (decl_name && n) {
				const struct tsdl_token *la = peek(p);
				if (la->kind != TOK_IDENT) {
					*decl_name = tok_dup(p);
					rc = next(p);
					break;
				}
			}
			if (n + p->tok.len + 2 > sizeof(name)) {
				rc = syntax(p, "type name too long");
				break;
			}
			if (n)
				name[n++] = ' ';
			memcpy(name + n, p->tok.start, p->tok.len);
			n += p->tok.len;
			if ((rc = next(p)))
				break;
		}
		if (!rc) {
			name[n] = '\0';
			*out = alias_find(p, NS_ALIAS, name);
			if (!*out)
				rc = fail_at(p, line, col, -SPOOR_EMETA_SEMANTIC,
				             "unknown type '%s'", name);
		}
	} else {
		rc = syntax(p, "expected a type, found '%.*s'", (int) p->tok.len, p->tok.start);
	}
	p->nesting--;
	return rc ? -1 : 0;
}

/* `NAME [len]...`, wrapping base into arrays or sequences, outermost dimension first. */
static int parse_declarator(struct parser *p, struct ctf_type *base, const char **name,
                            struct ctf_type **out)
{
	struct {
		bool is_seq;
		uint64_t len;
		const char *path;
	} dims[8];
	unsigned ndims = 0;

	if (!*name) {
		if (p->tok.kind != TOK_IDENT)
			return syntax(p, "expected a field name");
		*name = tok_dup(p);
		if (next(p))
			return -1;
	}
	while (is(p, "[")) {
		if (ndims == 8)
			return semantic(p, "too many array dimensions");
		if (next(p))
			return -1;
		if (p->tok.kind == TOK_INT) {
			dims[ndims].is_seq = false;
			dims[ndims].len = p->tok.ival;
			if (next(p))
				return -1;
		} else {
			dims[ndims].is_seq = true;
			if (parse_path(p, &dims[ndims].path))
				return -1;
		}
		ndims++;
		if (expect(p, "]"))
			return -1;
	}
	struct ctf_type *t = base;
	for (unsigned i = ndims; i-- > 0;) {
		struct ctf_type *arr =
		    ctf_type_new(p->a, dims[i].is_seq ? CTF_SEQUENCE : CTF_ARRAY);
		if (!arr)
			return semantic(p, "out of memory");
		arr->a.elem = t;
		arr->a.len = dims[i].len;
		arr->a.path.text = dims[i].path;
		arr->align = t->align;
		t = arr;
	}
	*out = t;
	return 0;
}

static int parse_typealias(struct parser *p)
{
	struct ctf_type *t;
	const char *unused = NULL;

	if (parse_type_spec(p, &t, &unused) || expect(p, ":="))
		return -1;
	char name[256];
	size_t n = 0;
	while (p->tok.kind == TOK_IDENT) {
		if (n + p->tok.len + 2 > sizeof(name))
			return syntax(p, "alias name too long");
		if (n)
			name[n++] = ' ';
		memcpy(name + n, p->tok.start, p->tok.len);
		n += p->tok.len;
		if (next(p))
			return -1;
	}
	if (!n)
		return syntax(p, "expected the alias name after ':='");
	const char *alias = arena_strndup(p->a, name, n);
	return alias_add(p, NS_ALIAS, alias, t) || expect(p, ";");
}

static int parse_typedef(struct parser *p)
{
	struct ctf_type *base, *t;
	const char *name = NULL;

	if (parse_type_spec(p, &base, &name))
		return -1;
	for (;;) {
		if (parse_declarator(p, base, &name, &t) || alias_add(p, NS_ALIAS, name, t))
			return -1;
		name = NULL;
		if (!is(p, ","))
			break;
		if (next(p))
			return -1;
	}
	return expect(p, ";");
}

static char *shown_name(struct parser *p, const char *name)
{
	return (char *) (name[0] == '_' ? name + 1 : name);
	(void) p;
}

static int add_field(struct parser *p, struct ctf_type *st, unsigned *cap, const char *name,
                     struct ctf_type *t)
{
	if (st->s.n >= TSDL_MAX_FIELDS)
		return semantic(p, "too many fields");
	struct ctf_field *arr = grow(p, st->s.fields, cap, st->s.n, sizeof(*arr));
	if (!arr)
		return -1;
	st->s.fields = arr;
	const char *shown = shown_name(p, name);
	arr[st->s.n++] = (struct ctf_field){name, shown, t, (unsigned) strlen(shown), {0, 0}};
	if (st->kind == CTF_STRUCT && t->align > st->align)
		st->align = t->align;
	return 0;
}

/* '{' (field | typealias | typedef | type definition)* '}' for structs and variants. */
static int parse_struct_body(struct parser *p, struct ctf_type *st)
{
	unsigned cap = 0;

	st->align = 1;
	if (expect(p, "{") || scope_enter(p))
		return -1;
	while (!is(p, "}")) {
		if (p->tok.kind == TOK_EOF)
			return syntax(p, "unexpected end of metadata inside a struct");
		if (is(p, "typealias")) {
			if (next(p) || parse_typealias(p))
				return -1;
			continue;
		}
		if (is(p, "typedef")) {
			if (next(p) || parse_typedef(p))
				return -1;
			continue;
		}
		struct ctf_type *base, *t;
		const char *name = NULL;
		if (parse_type_spec(p, &base, &name))
			return -1;
		if (is(p, ";") && !name) {
			if (next(p)) /* a bare type definition */
				return -1;
			continue;
		}
		for (;;) {
			if (parse_declarator(p, base, &name, &t) || add_field(p, st, &cap, name, t))
				return -1;
			name = NULL;
			if (!is(p, ","))
				break;
			if (next(p))
				return -1;
		}
		if (expect(p, ";"))
			return -1;
	}
	scope_leave(p);
	return next(p);
}

/* ---- blocks ---- */

static int check_scope_type(struct parser *p, const struct value *v)
{
	if (v->type->kind != CTF_STRUCT)
		return fail_at(p, v->line, v->col, -SPOOR_EMETA_SEMANTIC,
		               "a scope must be a struct");
	return 0;
}

static int parse_trace_block(struct parser *p)
{
	const char *key;
	struct value v;
	uint64_t u = 0;
	int rc;

	while ((rc = parse_attr(p, &key, &v)) == 0) {
		if (!strcmp(key, "major") || !strcmp(key, "minor")) {
			if (value_uint(p, &v, 255, &u))
				return -1;
			*(key[1] == 'a' ? &p->m->major : &p->m->minor) = (unsigned) u;
		} else if (!strcmp(key, "uuid")) {
			if (value_uuid(p, &v, p->m->uuid) ||
			    note_var(p, CTF_VAR_TRACE_UUID, 0, key, &v))
				return -1;
			p->m->has_uuid = true;
		} else if (!strcmp(key, "byte_order")) {
			if (value_byte_order(p, &v, &p->m->bo))
				return -1;
			if (p->m->bo == CTF_BO_NATIVE)
				return fail_at(p, v.line, v.col, -SPOOR_EMETA_SEMANTIC,
				               "the trace byte_order cannot be native");
			p->bo_set = 1;
		} else if (!strcmp(key, "packet.header")) {
			if (v.kind != V_TYPE || check_scope_type(p, &v))
				return -1;
			p->m->packet_header = v.type;
		}
	}
	if (rc < 0)
		return -1;
	if (p->m->major && p->m->major != 1)
		return semantic(p, "CTF %u.%u is not supported (1.8 is)", p->m->major, p->m->minor);
	return next(p);
}

static int env_value(struct parser *p, struct ctf_env_entry *e, const struct value *v)
{
	e->is_string = v->kind == V_STRING || v->kind == V_PATH;
	e->value = 0;
	if (v->kind == V_INT) {
		char buf[24];
		snprintf(buf, sizeof(buf), "%lld", (long long) v->i);
		e->value = v->i;
		e->text = arena_strdup(p->a, buf);
	} else if (e->is_string) {
		e->text = v->s;
	} else {
		return fail_at(p, v->line, v->col, -SPOOR_EMETA_SEMANTIC, "invalid env value");
	}
	return e->text ? 0 : semantic(p, "out of memory");
}

static int parse_env_block(struct parser *p)
{
	const char *key;
	struct value v;
	int rc;

	while ((rc = parse_attr(p, &key, &v)) == 0) {
		struct ctf_env_entry *arr =
		    grow(p, p->m->env, &p->m->cap_env, p->m->nenv, sizeof(*arr));
		if (!arr)
			return -1;
		p->m->env = arr;
		struct ctf_env_entry *e = &arr[p->m->nenv++];
		e->key = key;
		if (env_value(p, e, &v) || note_var(p, CTF_VAR_ENV, p->m->nenv - 1, key, &v))
			return -1;
	}
	return rc < 0 ? -1 : next(p);
}

/* One attribute of a clock: 0, 1 when it is one a trace sharing the model may change
 * (ctf_var), -1 on error. */
static int clock_attr(struct parser *p, struct ctf_clock *c, const char *key, const struct value *v)
{
	uint64_t u = 0;

	if (!strcmp(key, "name"))
		return value_text(p, v, &c->name);
	if (!strcmp(key, "description"))
		return value_text(p, v, &c->description);
	if (!strcmp(key, "uuid")) {
		if (value_uuid(p, v, c->uuid))
			return -1;
		c->has_uuid = true;
		return 1;
	}
	if (!strcmp(key, "freq")) {
		if (value_uint(p, v, UINT64_MAX, &c->freq))
			return -1;
		if (!c->freq)
			return fail_at(p, v->line, v->col, -SPOOR_EMETA_SEMANTIC,
			               "clock frequency cannot be 0");
	} else if (!strcmp(key, "offset_s")) {
		if (v->kind != V_INT)
			return fail_at(p, v->line, v->col, -SPOOR_EMETA_SEMANTIC,
			               "offset_s must be an integer");
		c->offset_s = v->i;
		return 1;
	} else if (!strcmp(key, "offset")) {
		return value_uint(p, v, UINT64_MAX, &c->offset) ? -1 : 1;
	} else if (!strcmp(key, "precision")) {
		if (value_uint(p, v, UINT64_MAX, &u))
			return -1;
		c->precision = u;
	} else if (!strcmp(key, "absolute")) {
		return value_bool(p, v, &c->absolute);
	}
	return 0;
}

static int parse_clock_block(struct parser *p)
{
	struct ctf_clock *c = arena_alloc(p->a, sizeof(*c));
	const char *key;
	struct value v;
	int rc;

	if (!c)
		return semantic(p, "out of memory");
	c->freq = 1000000000;
	while ((rc = parse_attr(p, &key, &v)) == 0) {
		int var = clock_attr(p, c, key, &v);
		if (var < 0 || (var && note_var(p, CTF_VAR_CLOCK, p->m->nclocks, key, &v)))
			return -1;
	}
	if (rc < 0)
		return -1;
	if (!c->name)
		return semantic(p, "clock without a name");
	struct ctf_clock **arr =
	    grow(p, p->m->clocks, &p->m->cap_clocks, p->m->nclocks, sizeof(*arr));
	if (!arr)
		return -1;
	p->m->clocks = arr;
	arr[p->m->nclocks++] = c;
	return next(p);
}

static int parse_stream_block(struct parser *p)
{
	struct ctf_stream_class *sc = arena_alloc(p->a, sizeof(*sc));
	const char *key;
	struct value v;
	int rc;

	if (!sc)
		return semantic(p, "out of memory");
	while ((rc = parse_attr(p, &key, &v)) == 0) {
		if (!strcmp(key, "id")) {
			if (value_uint(p, &v, UINT64_MAX, &sc->id))
				return -1;
			sc->has_id = true;
		} else if (!strcmp(key, "event.header") || !strcmp(key, "event.context") ||
		           !strcmp(key, "packet.context")) {
			if (v.kind != V_TYPE || check_scope_type(p, &v))
				return -1;
			if (!strcmp(key, "event.header"))
				sc->event_header = v.type;
			else if (!strcmp(key, "event.context"))
				sc->event_context = v.type;
			else
				sc->packet_context = v.type;
		}
	}
	if (rc < 0)
		return -1;
	if (ctf_meta_stream(p->m, sc->id))
		return semantic(p, "stream id %llu declared twice", (unsigned long long) sc->id);
	struct ctf_stream_class **arr =
	    grow(p, p->m->streams, &p->m->cap_streams, p->m->nstreams, sizeof(*arr));
	if (!arr)
		return -1;
	p->m->streams = arr;
	arr[p->m->nstreams++] = sc;
	return next(p);
}

static int add_event(struct parser *p, struct ctf_stream_class *sc, struct ctf_event_class *ec)
{
	struct ctf_event_class **arr =
	    grow(p, sc->events, &sc->cap_events, sc->nevents, sizeof(*arr));
	if (!arr)
		return -1;
	sc->events = arr;
	arr[sc->nevents++] = ec;
	return 0;
}

static size_t event_slot(const struct ctf_stream_class *sc, uint64_t id, size_t cap)
{
	uint64_t h = (id ^ (uint64_t) (uintptr_t) sc) * 0x9E3779B97F4A7C15ull;
	return (size_t) (h >> 20) & (cap - 1);
}

/* Record (sc, id): 0, 1 when already there, -1 when out of memory. */
static int add_event_id(struct parser *p, const struct ctf_stream_class *sc, uint64_t id)
{
	if (2 * (p->nids + 1) > p->cap_ids) {
		size_t cap = p->cap_ids ? 2 * p->cap_ids : 1024;
		struct event_key *t = calloc(cap, sizeof(*t));
		if (!t)
			return -1;
		for (size_t i = 0; i < p->cap_ids; i++) {
			if (!p->ids[i].sc)
				continue;
			size_t j = event_slot(p->ids[i].sc, p->ids[i].id, cap);
			while (t[j].sc)
				j = (j + 1) & (cap - 1);
			t[j] = p->ids[i];
		}
		free(p->ids);
		p->ids = t;
		p->cap_ids = cap;
	}
	size_t i = event_slot(sc, id, p->cap_ids);
	for (; p->ids[i].sc; i = (i + 1) & (p->cap_ids - 1))
		if (p->ids[i].sc == sc && p->ids[i].id == id)
			return 1;
	p->ids[i] = (struct event_key){sc, id};
	p->nids++;
	return 0;
}

/* ---- event scopes parsed on first need ---- */

/* A deferred scope: the type at d, then the ';' ending its attribute (not read past). */
static int parse_deferred_scope(struct ctf_meta *m, const struct ctf_deferred *d,
                                struct ctf_type **out, struct tsdl_error *err)
{
	struct parser p = {0};
	const char *unused = NULL;

	p.m = m;
	p.a = &m->arena;
	p.err = err;
	/* the names declared before it; cap = count: a name added inside is added to a copy */
	p.aliases = m->aliases;
	p.naliases = p.cap_aliases = d->naliases;
	tsdl_lex_init(&p.lx, m->text, m->text_len);
	p.lx.pos = m->text + d->off;
	p.lx.line = d->line;
	p.lx.col = d->col;
	if (next(&p) || parse_type_spec(&p, out, &unused) || (!is(&p, ";") && expect(&p, ";")))
		return p.code ? p.code : -SPOOR_EMETA_SYNTAX;
	return 0;
}

int tsdl_parse_deferred(struct ctf_meta *m, struct ctf_event_class *ec, struct tsdl_error *err)
{
	struct ctf_deferred *d[2] = {&ec->lazy_context, &ec->lazy_fields};
	struct ctf_type **to[2] = {&ec->context, &ec->fields};
	/* in text order, so that the first error is the one an eager parse reports */
	int first = d[1]->line && (!d[0]->line || d[1]->off < d[0]->off);

	memset(err, 0, sizeof(*err));
	for (int k = 0; k < 2; k++) {
		int i = k ^ first;
		struct ctf_type *t;
		if (!d[i]->line)
			continue;
		int rc = parse_deferred_scope(m, d[i], &t, err);
		if (rc)
			return rc;
		*to[i] = t;
		d[i]->line = 0;
	}
	return 0;
}

/* Lazy mode, on the ':=' of an event's context or fields: step over `struct {...}` to the
 * ';', recording where it starts in d. False (nothing done) for any other type: a named one
 * would declare its name for the blocks after it. */
static bool defer_scope(struct parser *p, struct ctf_deferred *d)
{
	struct tsdl_lexer lx = p->lx;
	struct tsdl_token kw = tsdl_lex_next(&lx);
	struct tsdl_token brace = tsdl_lex_next(&lx);

	if (!p->lazy || p->has_ahead || !tsdl_tok_is(&kw, "struct") || !tsdl_tok_is(&brace, "{"))
		return false;
	lx.pos = brace.start; /* the scan counts the braces from this one */
	lx.line = brace.line;
	lx.col = brace.col;
	if (tsdl_lex_skip_to_semicolon(&lx))
		return false; /* parsed now, to report the error */
	*d = (struct ctf_deferred){(uint32_t) (kw.start - lx.src), kw.line, kw.col, p->naliases};
	p->lx = lx;
	return true;
}

static struct ctf_deferred *deferred_slot(struct ctf_event_class *ec, const char *key)
{
	if (!strcmp(key, "fields"))
		return &ec->lazy_fields;
	return !strcmp(key, "context") ? &ec->lazy_context : NULL;
}

/* A scope declared twice: the last one counts, but an eager parse would have checked the
 * first one too. */
static int check_deferred(struct parser *p, struct ctf_deferred *d)
{
	struct ctf_type *unused;

	p->m->aliases = p->aliases; /* the names so far (tsdl_parse sets the final ones) */
	int rc = parse_deferred_scope(p->m, d, &unused, p->err);

	d->line = 0;
	if (rc) {
		p->failed = 1;
		p->code = rc;
		return -1;
	}
	return 0;
}

/* The attributes of an event block, token by token, up to its closing brace. */
static int parse_event_attrs(struct parser *p, struct ctf_event_class *ec, bool *has_stream)
{
	const char *key;
	bool is_type;
	struct value v;
	int rc;

	while ((rc = parse_attr_key(p, &key, &is_type)) == 0) {
		struct ctf_deferred *d = is_type ? deferred_slot(ec, key) : NULL;
		if (d && d->line && check_deferred(p, d))
			return -1;
		if (d && defer_scope(p, d)) {
			if (next(p) || expect(p, ";"))
				return -1;
			continue;
		}
		if (next(p) || parse_value(p, is_type, &v) || expect(p, ";"))
			return -1;
		if (!strcmp(key, "name")) {
			if (value_text(p, &v, &ec->name))
				return -1;
		} else if (!strcmp(key, "id")) {
			if (value_uint(p, &v, UINT64_MAX, &ec->id))
				return -1;
		} else if (!strcmp(key, "stream_id")) {
			if (value_uint(p, &v, UINT64_MAX, &ec->stream_id))
				return -1;
			*has_stream = true;
		} else if (!strcmp(key, "loglevel")) {
			if (v.kind != V_INT)
				return fail_at(p, v.line, v.col, -SPOOR_EMETA_SEMANTIC,
				               "loglevel must be an integer");
			ec->has_loglevel = true;
			ec->loglevel = v.i;
		} else if (!strcmp(key, "model.emf.uri")) {
			if (value_text(p, &v, &ec->emf_uri))
				return -1;
		} else if (!strcmp(key, "context") || !strcmp(key, "fields")) {
			if (v.kind != V_TYPE || check_scope_type(p, &v))
				return -1;
			*(key[0] == 'c' ? &ec->context : &ec->fields) = v.type;
		}
	}
	return rc < 0 ? -1 : 0;
}

/* At the closing brace of an event block: the class checked and added to its stream. line
 * and col: the block's first token, where errors about the whole block point. */
static int add_event_class(struct parser *p, struct ctf_event_class *ec, bool has_stream,
                           unsigned line, unsigned col)
{
	if (!ec->name)
		return fail_at(p, line, col, -SPOOR_EMETA_SEMANTIC, "event without a name");
	ec->name_len = strlen(ec->name);
	struct ctf_stream_class *sc = ctf_meta_stream(p->m, has_stream ? ec->stream_id : 0);
	if (!sc && !has_stream && p->m->nstreams == 1)
		sc = p->m->streams[0];
	if (!sc && !has_stream && p->m->nstreams == 0) {
		/* No stream block: an implicit stream class 0. */
		sc = arena_alloc(p->a, sizeof(*sc));
		p->m->streams = arena_alloc(p->a, sizeof(*p->m->streams) * 4);
		if (!sc || !p->m->streams)
			return semantic(p, "out of memory");
		p->m->cap_streams = 4;
		p->m->streams[p->m->nstreams++] = sc;
	}
	if (!sc)
		return fail_at(p, line, col, -SPOOR_EMETA_SEMANTIC,
		               "event '%s' names stream %llu, which is not declared", ec->name,
		               (unsigned long long) ec->stream_id);
	ec->stream_id = sc->id;
	int rc = add_event_id(p, sc, ec->id);
	if (rc < 0)
		return semantic(p, "out of memory");
	if (rc)
		return fail_at(p, line, col, -SPOOR_EMETA_SEMANTIC,
		               "event id %llu declared twice in stream %llu",
		               (unsigned long long) ec->id, (unsigned long long) sc->id);
	return add_event(p, sc, ec);
}

static int parse_event_block(struct parser *p)
{
	struct ctf_event_class *ec = arena_alloc(p->a, sizeof(*ec));
	bool has_stream = false;

	if (!ec)
		return semantic(p, "out of memory");
	unsigned line = p->tok.line, col = p->tok.col;
	if (parse_event_attrs(p, ec, &has_stream) || add_event_class(p, ec, has_stream, line, col))
		return -1;
	return next(p);
}

/* The parser on the token of n bytes at `at`, as the lexer would have read it. */
static void token_at(struct parser *p, enum tsdl_tok kind, const struct tsdl_place *at, size_t n)
{
	p->tok = (struct tsdl_token){kind, at->at, n, 0, at->line, at->col};
	p->lx.pos = at->at + n;
	p->lx.line = at->line;
	p->lx.col = at->col + (unsigned) n;
}

static struct ctf_deferred deferred_at(const struct parser *p, const struct tsdl_place *kw)
{
	if (!kw->at)
		return (struct ctf_deferred){0};
	return (struct ctf_deferred){(uint32_t) (kw->at - p->lx.src), kw->line, kw->col,
	                             p->naliases};
}

/* The class an event block describes, from what tsdl_scan_event read. NULL when out of
 * memory: the token path finds it again and reports it. */
static struct ctf_event_class *scanned_class(struct parser *p, const struct tsdl_event_scan *ev)
{
	struct ctf_event_class *ec = arena_alloc(p->a, sizeof(*ec));
	const char *name = ev->name ? arena_strndup(p->a, ev->name, ev->name_len) : NULL;
	const char *uri = ev->emf_uri ? arena_strndup(p->a, ev->emf_uri, ev->emf_uri_len) : NULL;

	if (!ec || (ev->name && !name) || (ev->emf_uri && !uri))
		return NULL;
	ec->name = name;
	ec->emf_uri = uri;
	ec->id = ev->id;
	ec->stream_id = ev->stream_id;
	ec->has_loglevel = ev->has_loglevel;
	ec->loglevel = ev->loglevel;
	ec->lazy_fields = deferred_at(p, &ev->fields);
	ec->lazy_context = deferred_at(p, &ev->context);
	return ec;
}

/* Lazy mode, on an `event` keyword: whole `event {...};` blocks read from the raw text
 * (tsdl-scan.c), with the checks of parse_event_block, as long as they follow each other,
 * and the parser left on the token after them. 0 when the scanner does not know all of the
 * first block (the parser is on its `event` keyword, for the token path to read it), 1 when
 * done, -1 on error. */
static int scan_event_blocks(struct parser *p)
{
	struct tsdl_event_scan ev;
	struct ctf_event_class *ec;

	if (!p->scan || p->has_ahead || !is(p, "event"))
		return 0;
	for (;;) {
		p->decl_line = p->tok.line; /* "event", for an error as the parser gives it */
		if (tsdl_scan_event(p->lx.pos, p->lx.end, p->lx.line, p->lx.col, &ev) ||
		    !(ec = scanned_class(p, &ev)))
			return 0;
		token_at(p, TOK_PUNCT, &ev.close, 1); /* as parse_event_attrs leaves the parser */
		if (add_event_class(p, ec, ev.has_stream_id, ev.first.line, ev.first.col))
			return -1;
		if (!ev.semicolon.at)
			return next(p) || expect(p, ";") ? -1 : 1;
		if (!ev.next_event.at) {
			token_at(p, TOK_PUNCT, &ev.semicolon, 1);
			return expect(p, ";") ? -1 : 1;
		}
		token_at(p, TOK_IDENT, &ev.next_event, 5);
	}
}

static int skip_block(struct parser *p)
{
	const char *key;
	struct value v;
	int rc;

	while ((rc = parse_attr(p, &key, &v)) == 0)
		;
	return rc < 0 ? -1 : next(p);
}

static int parse_top(struct parser *p)
{
	static const struct {
		const char *kw;
		int (*fn)(struct parser *);
	} blocks[] = {
	    {"trace", parse_trace_block}, {"env", parse_env_block},
	    {"clock", parse_clock_block}, {"stream", parse_stream_block},
	    {"event", parse_event_block}, {"callsite", skip_block},
	};

	while (p->tok.kind != TOK_EOF) {
		p->decl_line = p->tok.line;
		int rc = scan_event_blocks(p);
		if (rc < 0)
			return -1;
		if (rc)
			continue;
		p->decl_line = p->tok.line;
		if (is(p, "typealias")) {
			if (next(p) || parse_typealias(p))
				return -1;
			continue;
		}
		if (is(p, "typedef")) {
			if (next(p) || parse_typedef(p))
				return -1;
			continue;
		}
		unsigned i;
		for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++)
			if (is(p, blocks[i].kw) && tsdl_tok_is(peek(p), "{"))
				break;
		if (i < sizeof(blocks) / sizeof(blocks[0])) {
			if (next(p) || next(p) || blocks[i].fn(p) || expect(p, ";"))
				return -1;
			continue;
		}
		/* A named type definition: struct x {...}; enum y : t {...}; */
		struct ctf_type *t;
		const char *unused = NULL;
		if (parse_type_spec(p, &t, &unused) || expect(p, ";"))
			return -1;
	}
	return 0;
}

/* After parsing: dense event id tables and each stream class's default clock. */
static const char *find_clock(const struct ctf_type *t, unsigned depth)
{
	if (!t || depth > TSDL_MAX_DEPTH)
		return NULL;
	switch (t->kind) {
	case CTF_INT: return t->i.map_clock;
	case CTF_ENUM: return t->e.container->i.map_clock;
	case CTF_STRUCT:
	case CTF_VARIANT:
		for (unsigned i = 0; i < t->s.n; i++) {
			const char *c = find_clock(t->s.fields[i].type, depth + 1);
			if (c)
				return c;
		}
		return NULL;
	default: return NULL;
	}
}

static int finish(struct parser *p)
{
	struct ctf_meta *m = p->m;

	if (!p->bo_set)
		return semantic(p, "the trace block does not set byte_order");
	for (unsigned s = 0; s < m->nstreams; s++) {
		struct ctf_stream_class *sc = m->streams[s];
		if (ctf_stream_index_ids(p->a, sc))
			return semantic(p, "out of memory");
		const char *clock = find_clock(sc->event_header, 0);
		if (!clock)
			clock = find_clock(sc->packet_context, 0);
		if (clock) {
			sc->clock = ctf_meta_clock(m, clock);
			if (!sc->clock)
				return semantic(
				    p, "a field maps to clock '%s', which is not declared", clock);
		}
	}
	return 0;
}

enum parse_mode { EAGER, LAZY, LAZY_TOKENS };

static int parse_text(const char *text, size_t len, struct ctf_meta *m, struct tsdl_error *err,
                      enum parse_mode mode)
{
	bool lazy = mode != EAGER;
	struct parser p = {0};

	memset(err, 0, sizeof(*err));
	if (len > TSDL_MAX_TEXT) {
		snprintf(err->msg, sizeof(err->msg), "metadata larger than %u bytes",
		         TSDL_MAX_TEXT);
		return -SPOOR_ELIMIT;
	}
	p.m = m;
	p.a = &m->arena;
	p.a->limit = TSDL_MAX_ARENA;
	p.err = err;
	p.lazy = lazy;
	p.scan = mode == LAZY;
	m->bo = CTF_BO_LE;
	if (lazy) {
		/* deferred scopes are parsed from a copy that lives as long as m; it ends with a
		 * NUL, as tsdl_scan_event needs */
		char *copy = arena_strndup(p.a, text, len);
		if (!copy) {
			snprintf(err->msg, sizeof(err->msg), "out of memory (metadata too large)");
			return -SPOOR_ELIMIT;
		}
		m->text = text = copy;
		m->text_len = len;
	}
	tsdl_lex_init(&p.lx, text, len);
	p.top = true;
	int rc = 0;
	if (next(&p) || parse_top(&p) || ((p.whole = true), finish(&p)))
		rc = p.code ? p.code : -SPOOR_EMETA_SYNTAX;
	m->aliases = p.aliases;
	free(p.ids);
	return rc;
}

int tsdl_parse(const char *text, size_t len, struct ctf_meta *m, struct tsdl_error *err)
{
	return parse_text(text, len, m, err, EAGER);
}

int tsdl_parse_lazy(const char *text, size_t len, struct ctf_meta *m, struct tsdl_error *err)
{
	return parse_text(text, len, m, err, LAZY);
}

int tsdl_parse_lazy_tokens(const char *text, size_t len, struct ctf_meta *m, struct tsdl_error *err)
{
	return parse_text(text, len, m, err, LAZY_TOKENS);
}

int tsdl_parse_var(struct ctf_meta *m, const struct ctf_var *var, const char *text, size_t len,
                   size_t at, size_t *end)
{
	struct parser p = {0};
	struct tsdl_error err;
	struct value v;

	p.m = m;
	p.a = &m->arena;
	p.err = &err;
	tsdl_lex_init(&p.lx, text, len);
	p.lx.pos = text + at;
	p.lx.line = var->line;
	p.lx.col = var->col;
	if (next(&p) || parse_value(&p, false, &v) || !is(&p, ";"))
		return -1;
	*end = (size_t) (p.tok.start - text);
	switch (var->kind) {
	case CTF_VAR_TRACE_UUID: return value_uuid(&p, &v, m->uuid);
	case CTF_VAR_CLOCK:
		return var->index < m->nclocks &&
		               clock_attr(&p, m->clocks[var->index], var->key, &v) == 1
		           ? 0
		           : -1;
	case CTF_VAR_ENV: return var->index < m->nenv ? env_value(&p, &m->env[var->index], &v) : -1;
	default: return -1;
	}
}

void ctf_meta_free(struct ctf_meta *m)
{
	if (m)
		arena_free_all(&m->arena);
}
