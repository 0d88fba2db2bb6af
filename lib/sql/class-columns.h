/* SPDX-License-Identifier: MIT */
/*
 * class-columns.h: the columns of a class table (docs/sql.md "A table per event class"):
 * the union of the context and payload fields of every class of that name, in every trace,
 * named so that no two collide (SQLite's names ignore case):
 *   - a payload field takes its name (as babeltrace2 shows it: one leading underscore
 *     dropped), unless a column before it has that name (ts, time, cpu, ...): then
 *     "payload.NAME";
 *   - then the stream's event context's fields ("context.NAME" when taken), then the
 *     class's own context's ("event_context.NAME");
 *   - still taken: "#2", "#3", ... after it.
 * Columns come in the order contexts, then payload. A field of one name and scope is one
 * column across classes (NULL in the rows of a class without it); its declared type is the
 * first class's: INTEGER (integers, enumerations: their integer), REAL, TEXT (strings,
 * char arrays), or TEXT holding JSON (structures, arrays, variants).
 */
#ifndef SQL_CLASS_COLUMNS_H
#define SQL_CLASS_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/trace.h"

enum col_kind { COL_INT, COL_REAL, COL_TEXT, COL_JSON };

struct class_column {
	char *name;
	enum spoor_scope scope;
	const char *field; /* as shown (the schema reader's: it lives as long as the db) */
	enum col_kind kind;
};

/* Where a column's field is in one class's events. */
struct class_place {
	int8_t scope;
	uint8_t kind;  /* enum col_kind: the class's own field's */
	int32_t index; /* -1: the class lacks the field */
};

struct class_columns {
	struct class_column *cols;
	size_t ncols, cap;
	size_t nclasses;
	struct class_place *places; /* [class i * ncols + column j] */
};

/* The columns of the classes (schema reader indices) after the fixed ones (names taken
 * first). 0 or -ENOMEM. */
int class_columns_build(struct class_columns *cc, struct spoor_reader *schema,
                        const size_t *classes, size_t nclasses, const char *const *fixed,
                        size_t nfixed);
void class_columns_free(struct class_columns *cc);
/* The declared SQL type of a kind. */
const char *class_column_type(enum col_kind kind);

#endif
