/* SPDX-License-Identifier: MIT */
/* tp-parse.c: a tracepoint template's entries (tp-parse.h). */
#include "tp-parse.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

/* More than any LTTng-UST macro takes: TP_ARGS has at most 10 pairs there. */
#define MAX_ARGS 64

/* Tokens [first, end). */
struct span {
	size_t first, end;
};

/* NAME ( ARG, ARG... ): commas split arguments outside inner parentheses, as in C. */
struct call {
	size_t name, close; /* the tokens of its name and its ')' */
	size_t nargs;
	struct span arg[MAX_ARGS];
};

struct parser {
	const char *s;
	const struct tp_tok *tok;
	size_t n; /* tokens before the TP_EOF */
	struct tp_template *t;
	struct tp_error *err;
};

static int fail_at(struct parser *p, size_t at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
	p->err->line = p->tok[at].line;
	p->err->col = p->tok[at].col;
	return -EINVAL;
}

/* A token's text, for messages: at most 40 bytes of it. */
#define TOK_FMT       "%.*s"
#define TOK_ARG(p, i) (int) ((p)->tok[i].len < 40 ? (p)->tok[i].len : 40), (p)->s + (p)->tok[i].off

static bool tok_is(const struct parser *p, size_t i, const char *word)
{
	const struct tp_tok *t = &p->tok[i];
	return t->kind == TP_IDENT && strlen(word) == t->len &&
	       !memcmp(p->s + t->off, word, t->len);
}

/* LTTng-UST 2.13 spells each macro of its earlier API again with LTTNG_UST_ in front. */
static bool name_is(const struct parser *p, size_t i, const char *word)
{
	const struct tp_tok *t = &p->tok[i];
	return tok_is(p, i, word) || (t->kind == TP_IDENT && t->len == 10 + strlen(word) &&
	                              !memcmp(p->s + t->off, "LTTNG_UST_", 10) &&
	                              !memcmp(p->s + t->off + 10, word, t->len - 10));
}

/* The call starting at token `at`. */
static int parse_call(struct parser *p, size_t at, struct call *c)
{
	if (p->tok[at].kind != TP_IDENT || !tp_is_punct(p->s, &p->tok[at + 1], '('))
		return fail_at(p, at, "expected a macro call NAME(...), found '" TOK_FMT "'",
		               TOK_ARG(p, at));
	c->name = at;
	c->nargs = 0;
	size_t start = at + 2;
	unsigned depth = 0;
	for (size_t i = at + 2;; i++) {
		const struct tp_tok *t = &p->tok[i];
		if (t->kind == TP_EOF)
			return fail_at(p, at + 1, "this '(' of " TOK_FMT " is never closed",
			               TOK_ARG(p, at));
		if (t->kind == TP_DIRECTIVE)
			return fail_at(p, i, "a preprocessor line inside " TOK_FMT "(...)",
			               TOK_ARG(p, at));
		if (tp_is_punct(p->s, t, '(')) {
			depth++;
		} else if (depth && tp_is_punct(p->s, t, ')')) {
			depth--;
		} else if (!depth && (tp_is_punct(p->s, t, ',') || tp_is_punct(p->s, t, ')'))) {
			if (c->nargs == MAX_ARGS)
				return fail_at(p, at, "more than %d arguments to " TOK_FMT,
				               MAX_ARGS, TOK_ARG(p, at));
			c->arg[c->nargs++] = (struct span){start, i};
			start = i + 1;
			if (tp_is_punct(p->s, t, ')')) {
				c->close = i;
				return 0;
			}
		}
	}
}

/* The span holds exactly one call, to a macro named `word` (either spelling). */
static int parse_call_of(struct parser *p, struct span sp, const char *word, struct call *c)
{
	if (sp.first == sp.end || !name_is(p, sp.first, word))
		return fail_at(p, sp.first, "expected %s(...)", word);
	int rc = parse_call(p, sp.first, c);
	if (!rc && c->close + 1 != sp.end)
		return fail_at(p, c->close + 1, "unexpected '" TOK_FMT "' after %s(...)",
		               TOK_ARG(p, c->close + 1), word);
	return rc;
}

static int check_nargs(struct parser *p, const struct call *c, size_t want, const char *which)
{
	if (c->nargs == want && (want != 1 || c->arg[0].first < c->arg[0].end))
		return 0;
	return fail_at(p, c->name, TOK_FMT " takes %zu argument%s (%s), not %zu",
	               TOK_ARG(p, c->name), want, want == 1 ? "" : "s", which,
	               c->nargs == 1 && c->arg[0].first == c->arg[0].end ? 0 : c->nargs);
}

/* The span's tokens as C text: one space where the template had space or a comment. */
static const char *span_text(struct parser *p, struct span sp, const char *what)
{
	size_t size = 1;
	for (size_t i = sp.first; i < sp.end; i++)
		size += p->tok[i].len + 1;
	if (sp.first == sp.end) {
		fail_at(p, sp.first, "expected %s, found nothing", what);
		return NULL;
	}
	char *text = arena_alloc(&p->t->arena, size), *o = text;
	if (!text) {
		fail_at(p, sp.first, "out of memory");
		return NULL;
	}
	for (size_t i = sp.first; i < sp.end; i++) {
		if (i > sp.first && p->tok[i].space_before)
			*o++ = ' ';
		memcpy(o, p->s + p->tok[i].off, p->tok[i].len);
		o += p->tok[i].len;
	}
	*o = '\0';
	return text;
}

/* A name: one identifier (it becomes part of C identifiers). */
static const char *span_name(struct parser *p, struct span sp, const char *what)
{
	if (sp.first == sp.end || sp.end - sp.first > 1 || p->tok[sp.first].kind != TP_IDENT) {
		fail_at(p, sp.first, "expected %s (an identifier)", what);
		return NULL;
	}
	return span_text(p, sp, what);
}

/* "int, x, char *, s" -> "int x, char * s": every other comma goes, with one space left. */
static void pair_up(char *list)
{
	unsigned depth = 0, commas = 0;
	char *o = list;
	for (const char *c = list; *c; c++) {
		if (*c == '"' || *c == '\'') { /* a literal in a type (an attribute's): as it is */
			char q = *c;
			*o++ = *c;
			while (c[1] && c[1] != q) {
				if (c[1] == '\\' && c[2])
					*o++ = *++c;
				*o++ = *++c;
			}
			if (c[1])
				*o++ = *++c;
			continue;
		}
		if (*c == '(')
			depth++;
		else if (*c == ')' && depth)
			depth--;
		if (*c == ',' && !depth && commas++ % 2 == 0) {
			*o++ = ' ';
			if (c[1] == ' ')
				c++;
			continue;
		}
		*o++ = *c;
	}
	*o = '\0';
}

/* TP_ARGS(type, name, ...) as a C parameter list. */
static const char *parse_args(struct parser *p, struct span sp)
{
	struct call c;
	if (parse_call_of(p, sp, "TP_ARGS", &c))
		return NULL;
	struct span all = {c.arg[0].first, c.close};
	if ((c.nargs == 1 && all.first == all.end) ||
	    (c.nargs == 1 && all.end - all.first == 1 && tok_is(p, all.first, "void")))
		return "void";
	if (c.nargs % 2) {
		fail_at(p, c.name, "TP_ARGS takes a type and a name for each argument: %zu given",
		        c.nargs);
		return NULL;
	}
	for (size_t i = 0; i < c.nargs; i += 2)
		if (!span_text(p, c.arg[i], "an argument's type") ||
		    !span_name(p, c.arg[i + 1], "an argument's name"))
			return NULL;
	char *list = (char *) span_text(p, all, "arguments");
	if (list)
		pair_up(list);
	return list;
}

static int add_field(struct parser *p, struct tp_fields *f, size_t *cap, const struct call *c,
                     const struct tp_field_macro *m)
{
	const struct span *a = c->arg;
	struct tp_field x = {
	    m, NULL, NULL, NULL, NULL, NULL, NULL, NULL, p->tok[c->name].line, p->tok[c->name].col};
	static const char *const which[] = {
	    [TP_SHAPE_SCALAR] = "type, name, expression",
	    [TP_SHAPE_STRING] = "name, expression",
	    [TP_SHAPE_ARRAY] = "type, name, expression, length",
	    [TP_SHAPE_SEQUENCE] = "type, name, expression, length type, length expression",
	    [TP_SHAPE_ENUM] = "provider, enum, type, name, expression",
	    [TP_SHAPE_UNUSED] = "expression",
	};
	int rc = check_nargs(p, c, tp_shape_nargs(m->shape), which[m->shape]);
	if (rc)
		return rc;
	switch (m->shape) {
	case TP_SHAPE_SCALAR:
	case TP_SHAPE_ARRAY:
	case TP_SHAPE_SEQUENCE:
		x.type = span_text(p, a[0], "a type");
		x.name = x.type ? span_name(p, a[1], "the field's name") : NULL;
		x.expr = x.name ? span_text(p, a[2], "an expression") : NULL;
		if (x.expr && m->shape == TP_SHAPE_ARRAY)
			x.len_expr = span_text(p, a[3], "the array's length");
		if (x.expr && m->shape == TP_SHAPE_SEQUENCE) {
			x.len_type = span_text(p, a[3], "the length's type");
			x.len_expr = x.len_type ? span_text(p, a[4], "the length") : NULL;
		}
		if (!x.expr || (m->shape != TP_SHAPE_SCALAR && !x.len_expr))
			return -EINVAL;
		break;
	case TP_SHAPE_STRING:
		x.name = span_name(p, a[0], "the field's name");
		if (!x.name || !(x.expr = span_text(p, a[1], "an expression")))
			return -EINVAL;
		break;
	case TP_SHAPE_ENUM:
		x.enum_provider = span_name(p, a[0], "the enum's provider");
		x.enum_name = x.enum_provider ? span_name(p, a[1], "the enum's name") : NULL;
		x.type = x.enum_name ? span_text(p, a[2], "the enum's integer type") : NULL;
		x.name = x.type ? span_name(p, a[3], "the field's name") : NULL;
		if (!x.name || !(x.expr = span_text(p, a[4], "an expression")))
			return -EINVAL;
		break;
	default:
		if (!(x.expr = span_text(p, a[0], "an expression")))
			return -EINVAL;
		break;
	}
	for (size_t i = 0; m->spoor && i < f->n; i++)
		if (f->v[i].macro->spoor && !strcmp(f->v[i].name, x.name))
			return fail_at(p,
			               a[m->shape == TP_SHAPE_STRING ? 0
			                 : m->shape == TP_SHAPE_ENUM ? 3
			                                             : 1]
			                   .first,
			               "a second field named '%s' in the event", x.name);
	if (grow_one(&f->v, f->n, cap, sizeof(*f->v), 8))
		return -ENOMEM;
	f->v[f->n++] = x;
	return 0;
}

/* The sequence of calls in a span (TP_FIELDS' and TP_ENUM_VALUES' one argument), each
 * handed to fn. */
static int each_call(struct parser *p, struct span sp,
                     int (*fn)(struct parser *p, const struct call *c, void *arg), void *arg)
{
	struct call c;
	for (size_t i = sp.first; i < sp.end; i = c.close + 1) {
		int rc = parse_call(p, i, &c);
		if (!rc)
			rc = fn(p, &c, arg);
		if (rc)
			return rc;
	}
	return 0;
}

/* WORD(CALL CALL ...), TP_FIELDS' or TP_ENUM_VALUES': each call handed to fn; *at the
 * token of WORD. */
static int parse_list(struct parser *p, struct span sp, const char *word, const char *what,
                      int (*fn)(struct parser *p, const struct call *c, void *arg), void *arg,
                      size_t *at)
{
	struct call c;
	int rc = parse_call_of(p, sp, word, &c);
	if (rc)
		return rc;
	*at = c.name;
	if (c.nargs != 1)
		return fail_at(p, c.arg[1].first - 1,
		               "%s takes its %s one after another, without commas", word, what);
	return each_call(p, c.arg[0], fn, arg);
}

struct fields_arg {
	struct tp_fields *f;
	size_t cap;
};

static int field_call(struct parser *p, const struct call *c, void *arg)
{
	struct fields_arg *fa = arg;
	const struct tp_tok *t = &p->tok[c->name];
	const struct tp_field_macro *m = tp_field_macro(p->s + t->off, t->len);
	if (!m)
		return fail_at(p, c->name,
		               "'" TOK_FMT "' is not one of LTTng-UST's field macros (ctf_integer, "
		               "ctf_string, ...)",
		               TOK_ARG(p, c->name));
	return add_field(p, fa->f, &fa->cap, c, m);
}

static int parse_fields(struct parser *p, struct span sp, struct tp_fields *f)
{
	struct fields_arg fa = {f, 0};
	size_t at;
	return parse_list(p, sp, "TP_FIELDS", "field macros", field_call, &fa, &at);
}

struct enum_arg {
	struct tp_item *it;
	size_t cap;
	const char *base; /* the last value given, or NULL: an auto value counts on from it */
	unsigned long long k;
};

static int enum_call(struct parser *p, const struct call *c, void *arg)
{
	struct enum_arg *ea = arg;
	const struct tp_tok *t = &p->tok[c->name];
	struct tp_enum_entry e = {NULL, NULL, NULL};
	const char *what;
	size_t wlen;
	int rc;
	char *text;
	if (t->kind != TP_IDENT || !tp_field_suffix(p->s + t->off, t->len, &what, &wlen))
		wlen = 0;
	if (wlen == 10 && !memcmp(what, "enum_value", 10)) {
		if ((rc = check_nargs(p, c, 2, "label, value")))
			return rc;
		e.lo = e.hi = span_text(p, c->arg[1], "a value");
		ea->base = e.hi;
		ea->k = 0;
	} else if (wlen == 10 && !memcmp(what, "enum_range", 10)) {
		if ((rc = check_nargs(p, c, 3, "label, first value, last value")))
			return rc;
		e.lo = span_text(p, c->arg[1], "a value");
		e.hi = e.lo ? span_text(p, c->arg[2], "a value") : NULL;
		ea->base = e.hi;
		ea->k = 0;
	} else if (wlen == 9 && !memcmp(what, "enum_auto", 9)) {
		if ((rc = check_nargs(p, c, 1, "label")))
			return rc;
		/* CTF's rule: the value after the entry before's last, 0 for the first */
		if (!(text = arena_alloc(&p->t->arena, (ea->base ? strlen(ea->base) : 0) + 32)))
			return -ENOMEM;
		if (ea->base)
			sprintf(text, "(%s) + %llu", ea->base, ++ea->k);
		else
			sprintf(text, "%llu", ea->k++);
		e.lo = e.hi = text;
	} else {
		return fail_at(p, c->name,
		               "'" TOK_FMT
		               "' is not an enum entry (ctf_enum_value, ctf_enum_range, "
		               "ctf_enum_auto)",
		               TOK_ARG(p, c->name));
	}
	if (!e.lo || !e.hi || !(e.label = span_text(p, c->arg[0], "a label")))
		return -EINVAL;
	if (grow_one(&ea->it->entries, ea->it->nentries, &ea->cap, sizeof(e), 8))
		return -ENOMEM;
	ea->it->entries[ea->it->nentries++] = e;
	return 0;
}

static int parse_enum_values(struct parser *p, struct span sp, struct tp_item *it)
{
	struct enum_arg ea = {it, 0, NULL, 0};
	size_t at;
	int rc = parse_list(p, sp, "TP_ENUM_VALUES", "entries", enum_call, &ea, &at);
	if (!rc && !it->nentries)
		return fail_at(p, at, "an enum without entries");
	return rc;
}

static struct tp_item *new_item(struct parser *p, uint8_t kind, size_t at)
{
	struct tp_template *t = p->t;
	if (grow_one(&t->items, t->n, &t->cap, sizeof(*t->items), 16))
		return NULL;
	struct tp_item *it = &t->items[t->n++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->line = p->tok[at].line;
	it->col = p->tok[at].col;
	return it;
}

/* An instance's class, as its 2 names: resolved once the whole template is read. */
struct pending {
	size_t item;
	const char *provider, *name;
	size_t at;
};

static int parse_entry(struct parser *p, const struct call *c, struct pending *inst)
{
	const struct span *a = c->arg;
	bool instance = name_is(p, c->name, "TRACEPOINT_EVENT_INSTANCE");
	struct tp_item *it;
	int rc;

	inst->item = SIZE_MAX;
	if (name_is(p, c->name, "TRACEPOINT_EVENT") ||
	    name_is(p, c->name, "TRACEPOINT_EVENT_CLASS")) {
		bool cls = name_is(p, c->name, "TRACEPOINT_EVENT_CLASS");
		if ((rc = check_nargs(p, c, 4, "provider, name, TP_ARGS(...), TP_FIELDS(...)")))
			return rc;
		if (!(it = new_item(p, cls ? TP_ITEM_CLASS : TP_ITEM_EVENT, c->name)))
			return -ENOMEM;
		it->fields_owned = 1;
		if (!(it->provider = span_name(p, a[0], "the provider's name")) ||
		    !(it->name =
		          span_name(p, a[1], cls ? "the class's name" : "the event's name")) ||
		    !(it->args = parse_args(p, a[2])))
			return -EINVAL;
		return parse_fields(p, a[3], &it->fields);
	}
	if (instance) {
		/* the earlier API's (provider, class, name, args); 2.13's names the class's
		 * provider too */
		bool v213 = tok_is(p, c->name, "LTTNG_UST_TRACEPOINT_EVENT_INSTANCE");
		if ((rc = check_nargs(p, c, v213 ? 5 : 4,
		                      v213 ? "class provider, class, provider, name, TP_ARGS(...)"
		                           : "provider, class, name, TP_ARGS(...)")))
			return rc;
		if (!(it = new_item(p, TP_ITEM_EVENT, c->name)))
			return -ENOMEM;
		inst->item = p->t->n - 1;
		inst->at = c->name;
		if (!(inst->provider = span_name(p, a[0], "the class's provider")) ||
		    !(inst->name = span_name(p, a[1], "the class's name")) ||
		    !(it->provider =
		          v213 ? span_name(p, a[2], "the provider's name") : inst->provider) ||
		    !(it->name = span_name(p, a[v213 ? 3 : 2], "the event's name")) ||
		    !(it->args = parse_args(p, a[v213 ? 4 : 3])))
			return -EINVAL;
		return 0;
	}
	if (name_is(p, c->name, "TRACEPOINT_ENUM")) {
		if ((rc = check_nargs(p, c, 3, "provider, name, TP_ENUM_VALUES(...)")))
			return rc;
		if (!(it = new_item(p, TP_ITEM_ENUM, c->name)))
			return -ENOMEM;
		if (!(it->provider = span_name(p, a[0], "the provider's name")) ||
		    !(it->name = span_name(p, a[1], "the enum's name")))
			return -EINVAL;
		return parse_enum_values(p, a[2], it);
	}
	/* spoor has no log levels, nor EMF models: taken and checked, but not used */
	if (name_is(p, c->name, "TRACEPOINT_LOGLEVEL") ||
	    name_is(p, c->name, "TRACEPOINT_MODEL_EMF_URI")) {
		if ((rc = check_nargs(p, c, 3,
		                      name_is(p, c->name, "TRACEPOINT_LOGLEVEL")
		                          ? "provider, event, level"
		                          : "provider, event, URI")))
			return rc;
		if (!span_name(p, a[0], "the provider's name") ||
		    !span_name(p, a[1], "the event's name") || !span_text(p, a[2], "a value"))
			return -EINVAL;
		return 0;
	}
	return fail_at(p, c->name,
	               "'" TOK_FMT "' is not a template entry (TRACEPOINT_EVENT, "
	               "TRACEPOINT_EVENT_CLASS, TRACEPOINT_EVENT_INSTANCE, TRACEPOINT_ENUM, "
	               "TRACEPOINT_LOGLEVEL)",
	               TOK_ARG(p, c->name));
}

/* The preprocessor lines kept in the header (lttng-gen-tp keeps #include; a line of
 * another '#' is a comment to it). */
static bool kept_directive(const char *text, size_t len)
{
	static const char *const kept[] = {
	    "include", "include_next", "define", "undef", "if",      "ifdef",  "ifndef",
	    "elif",    "else",         "endif",  "error", "warning", "pragma",
	};
	size_t i = 1, n;
	while (i < len && (text[i] == ' ' || text[i] == '\t'))
		i++;
	for (n = 0;
	     i + n < len && ((text[i + n] >= 'a' && text[i + n] <= 'z') || text[i + n] == '_');)
		n++;
	for (size_t k = 0; k < sizeof(kept) / sizeof(kept[0]); k++)
		if (strlen(kept[k]) == n && !memcmp(text + i, kept[k], n))
			return true;
	return false;
}

static const struct tp_item *find_item(const struct tp_template *t, uint8_t kind,
                                       const char *provider, const char *name, size_t before)
{
	for (size_t i = 0; i < before; i++)
		if (t->items[i].kind == kind && !strcmp(t->items[i].provider, provider) &&
		    !strcmp(t->items[i].name, name))
			return &t->items[i];
	return NULL;
}

static int fail_item(struct parser *p, const struct tp_item *it, const char *fmt, const char *a,
                     const char *b)
{
	snprintf(p->err->msg, sizeof(p->err->msg), fmt, a, b);
	p->err->line = it->line;
	p->err->col = it->col;
	return -EINVAL;
}

/* Names given twice, instances' classes, fields' enums. */
static int resolve(struct parser *p, const struct pending *inst, size_t ninst)
{
	struct tp_template *t = p->t;
	size_t events = 0;

	for (size_t i = 0; i < ninst; i++) {
		const struct tp_item *cls =
		    find_item(t, TP_ITEM_CLASS, inst[i].provider, inst[i].name, t->n);
		if (!cls)
			return fail_at(p, inst[i].at,
			               "no TRACEPOINT_EVENT_CLASS(%s, %s, ...) in the template",
			               inst[i].provider, inst[i].name);
		t->items[inst[i].item].fields = cls->fields;
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct tp_item *it = &t->items[i];
		static const char *const what[] = {[TP_ITEM_EVENT] = "event",
		                                   [TP_ITEM_CLASS] = "event class",
		                                   [TP_ITEM_ENUM] = "enum"};
		if (it->kind == TP_ITEM_DIRECTIVE)
			continue;
		events += it->kind == TP_ITEM_EVENT;
		if (find_item(t, it->kind, it->provider, it->name, i)) {
			char name[200];
			snprintf(name, sizeof(name), "%s:%s", it->provider, it->name);
			return fail_item(p, it, "a second %s %s", what[it->kind], name);
		}
		for (size_t f = 0; it->fields_owned && f < it->fields.n; f++) {
			const struct tp_field *x = &it->fields.v[f];
			if (x->macro->shape == TP_SHAPE_ENUM && x->macro->spoor &&
			    !find_item(t, TP_ITEM_ENUM, x->enum_provider, x->enum_name, t->n)) {
				snprintf(p->err->msg, sizeof(p->err->msg),
				         "no TRACEPOINT_ENUM(%s, %s, ...) in the template",
				         x->enum_provider, x->enum_name);
				p->err->line = x->line;
				p->err->col = x->col;
				return -EINVAL;
			}
		}
	}
	if (!events)
		return fail_at(p, p->n,
		               "no events in the template (TRACEPOINT_EVENT or "
		               "TRACEPOINT_EVENT_INSTANCE)");
	return 0;
}

int tp_parse(const char *text, size_t len, struct tp_template *t, struct tp_error *err)
{
	struct tp_tokens toks;
	struct pending *inst = NULL;
	size_t ninst = 0, inst_cap = 0;

	memset(t, 0, sizeof(*t));
	t->arena.limit = 16 * (size_t) TP_MAX_TEXT;
	int rc = tp_lex(text, len, &toks, err);
	if (rc)
		return rc;
	struct parser p = {text, toks.tok, toks.n, t, err};
	for (size_t i = 0; i < toks.n && !rc;) {
		const struct tp_tok *tk = &toks.tok[i];
		if (tk->kind == TP_DIRECTIVE) {
			if (kept_directive(text + tk->off, tk->len)) {
				struct tp_item *it = new_item(&p, TP_ITEM_DIRECTIVE, i);
				if (!it ||
				    !(it->text = arena_strndup(&t->arena, text + tk->off, tk->len)))
					rc = -ENOMEM;
			}
			i++;
			continue;
		}
		if (tp_is_punct(text, tk, ';')) {
			i++;
			continue;
		}
		struct call c;
		struct pending pe;
		if (tk->kind != TP_IDENT || !tp_is_punct(text, &toks.tok[i + 1], '(')) {
			rc = fail_at(&p, i,
			             "expected a template entry such as TRACEPOINT_EVENT(...), "
			             "found '" TOK_FMT "'",
			             TOK_ARG(&p, i));
			break;
		}
		if ((rc = parse_call(&p, i, &c)) || (rc = parse_entry(&p, &c, &pe)))
			break;
		if (pe.item != SIZE_MAX) {
			if ((rc = grow_one(&inst, ninst, &inst_cap, sizeof(*inst), 8)))
				break;
			inst[ninst++] = pe;
		}
		i = c.close + 1;
	}
	if (!rc)
		rc = resolve(&p, inst, ninst);
	if (rc == -ENOMEM)
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	free(inst);
	tp_tokens_free(&toks);
	return rc;
}

void tp_template_free(struct tp_template *t)
{
	for (size_t i = 0; i < t->n; i++) {
		if (t->items[i].fields_owned)
			free(t->items[i].fields.v);
		free(t->items[i].entries);
	}
	free(t->items);
	arena_free_all(&t->arena);
	memset(t, 0, sizeof(*t));
}
