/* SPDX-License-Identifier: MIT */
/*
 * tp-fields.h: LTTng-UST's field macros (ctf_* and lttng_ust_field_*) and the spoor field
 * macro each one becomes (include/spoor/tracepoint.h). One row per macro: its arguments'
 * shape, and a pattern for spoor's macro, so that a kind spoor learns is one row changed.
 */
#ifndef GENTP_TP_FIELDS_H
#define GENTP_TP_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

/* What a macro's arguments are, in order. */
enum tp_shape {
	TP_SHAPE_SCALAR,   /* type, name, expr */
	TP_SHAPE_STRING,   /* name, expr */
	TP_SHAPE_ARRAY,    /* type, name, expr, length */
	TP_SHAPE_SEQUENCE, /* type, name, expr, length type, length expr */
	TP_SHAPE_ENUM,     /* provider, enum, type, name, expr */
	TP_SHAPE_UNUSED,   /* expr */
};

struct tp_field_macro {
	const char *name; /* after "ctf_" or "lttng_ust_field_" */
	unsigned char shape;
	/* spoor's macro, its arguments written T (type), N (name), E (expr), L (length expr),
	 * Y (the length's type), P (the enum's entries); NULL: nothing written (LTTng writes
	 * _nowrite fields to no trace: they are there for filters) */
	const char *spoor;
};

/* A field macro's name without its API's prefix (ctf_ or lttng_ust_field_): false when it
 * has neither. */
bool tp_field_suffix(const char *name, size_t len, const char **suffix, size_t *slen);
/* The row of a field macro by its full name (either prefix), or NULL. */
const struct tp_field_macro *tp_field_macro(const char *name, size_t len);
/* The number of arguments of a shape. */
unsigned tp_shape_nargs(unsigned shape);

#endif
