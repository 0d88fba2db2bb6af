/* SPDX-License-Identifier: MIT */
/*
 * tp-parse.h: a tracepoint template (lttng-gen-tp's .tp syntax: LTTng-UST's
 * TRACEPOINT_EVENT, _CLASS, _INSTANCE, TRACEPOINT_ENUM, TRACEPOINT_LOGLEVEL, in either API's
 * spelling, and preprocessor lines) read into the entries tp-emit.h writes as spoor events.
 * Arguments that are C (types, expressions) are kept as their tokens' text; names must be
 * identifiers. Every mistake is an error with its line and column, found before anything
 * is written.
 */
#ifndef GENTP_TP_PARSE_H
#define GENTP_TP_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "gentp/tp-fields.h"
#include "gentp/tp-lex.h"
#include "util/arena.h"

struct tp_field {
	const struct tp_field_macro *macro;
	/* the arguments the shape has (tp-fields.h), else NULL */
	const char *type, *name, *expr, *len_type, *len_expr;
	const char *enum_provider, *enum_name; /* TP_SHAPE_ENUM */
	uint32_t line, col;
};

struct tp_fields {
	struct tp_field *v;
	size_t n;
};

struct tp_enum_entry {
	const char *label, *lo, *hi; /* C text: a string literal, constant expressions */
};

enum tp_item_kind {
	TP_ITEM_DIRECTIVE, /* a preprocessor line, kept */
	TP_ITEM_EVENT,     /* TRACEPOINT_EVENT, or an instance with its class's fields */
	TP_ITEM_CLASS,
	TP_ITEM_ENUM,
};

struct tp_item {
	uint8_t kind; /* enum tp_item_kind */
	uint32_t line, col;
	const char *text;              /* a directive */
	const char *provider, *name;   /* an event, class or enum */
	const char *args;              /* an event or class: its C parameter list ("void": none) */
	struct tp_fields fields;       /* an event or class (an instance's point at its class's) */
	int fields_owned;              /* fields.v is this item's to free */
	struct tp_enum_entry *entries; /* an enum */
	size_t nentries;
};

struct tp_template {
	struct arena arena;    /* every string */
	struct tp_item *items; /* in the template's order */
	size_t n, cap;
};

/* 0, or -EINVAL with *err said, or -ENOMEM. Free *t with tp_template_free either way. */
int tp_parse(const char *text, size_t len, struct tp_template *t, struct tp_error *err);
void tp_template_free(struct tp_template *t);

#endif
