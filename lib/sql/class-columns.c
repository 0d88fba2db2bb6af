/* SPDX-License-Identifier: MIT */
/* class-columns.c: a class table's columns, the union of its classes' fields (see
 * class-columns.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "class-columns.h"
#include "reader/reader.h"
#include "util/grow.h"

static const struct ctf_type *scope_type(struct spoor_reader *schema, size_t c,
                                         enum spoor_scope scope)
{
	const struct spoor_event_class *ec = spoor_reader_event_class(schema, c);
	const struct ctf_type *t = reader_class_scope_type(ec->sc, ec->ec, scope);
	return t && t->kind == CTF_STRUCT ? t : NULL;
}

static enum col_kind kind_of(const struct ctf_type *t)
{
	switch (t->kind) {
	case CTF_INT:
	case CTF_ENUM: return COL_INT;
	case CTF_FLOAT: return COL_REAL;
	case CTF_STRING: return COL_TEXT;
	default: return ctf_type_is_text_array(t) ? COL_TEXT : COL_JSON;
	}
}

const char *class_column_type(enum col_kind kind)
{
	return kind == COL_INT ? "INTEGER" : kind == COL_REAL ? "REAL" : "TEXT";
}

/* Whether a column (or a fixed name) is called name, ignoring case as SQLite does. */
static bool taken(const struct class_columns *cc, const char *const *fixed, size_t nfixed,
                  const char *name)
{
	for (size_t i = 0; i < nfixed; i++)
		if (!sqlite3_stricmp(fixed[i], name))
			return true;
	for (size_t i = 0; i < cc->ncols; i++)
		if (cc->cols[i].name && !sqlite3_stricmp(cc->cols[i].name, name))
			return true;
	return false;
}

static const char *prefix_of(enum spoor_scope scope)
{
	return scope == SPOOR_SCOPE_PAYLOAD                ? "payload."
	       : scope == SPOOR_SCOPE_STREAM_EVENT_CONTEXT ? "context."
	                                                   : "event_context.";
}

/* The column's name: its field's, else with its scope in front, else numbered. */
static char *name_for(const struct class_columns *cc, const char *const *fixed, size_t nfixed,
                      const struct class_column *col)
{
	char *name = strdup(col->field);
	for (unsigned n = 1; name && taken(cc, fixed, nfixed, name); n++) {
		free(name);
		if (asprintf(&name, n == 1 ? "%s%s" : "%s%s#%u", prefix_of(col->scope), col->field,
		             n) < 0)
			name = NULL;
	}
	return name;
}

/* The fields of one scope of every class, each (name) once, as columns without names. */
static int gather(struct class_columns *cc, struct spoor_reader *schema, const size_t *classes,
                  size_t nclasses, enum spoor_scope scope)
{
	for (size_t i = 0; i < nclasses; i++) {
		const struct ctf_type *t = scope_type(schema, classes[i], scope);
		for (unsigned f = 0; t && f < t->s.n; f++) {
			const char *field = t->s.fields[f].shown;
			size_t j = 0;
			while (j < cc->ncols &&
			       (cc->cols[j].scope != scope || strcmp(cc->cols[j].field, field)))
				j++;
			if (j < cc->ncols)
				continue;
			if (grow_one(&cc->cols, cc->ncols, &cc->cap, sizeof(*cc->cols), 16))
				return -ENOMEM;
			cc->cols[cc->ncols++] = (struct class_column){
			    .scope = scope, .field = field, .kind = kind_of(t->s.fields[f].type)};
		}
	}
	return 0;
}

/* Names by priority: payload, stream's context, class's context; then the contexts first. */
static int name_all(struct class_columns *cc, const char *const *fixed, size_t nfixed)
{
	static const enum spoor_scope by_priority[] = {
	    SPOOR_SCOPE_PAYLOAD, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, SPOOR_SCOPE_EVENT_CONTEXT};
	for (int p = 0; p < 3; p++)
		for (size_t j = 0; j < cc->ncols; j++)
			if (cc->cols[j].scope == by_priority[p] &&
			    !(cc->cols[j].name = name_for(cc, fixed, nfixed, &cc->cols[j])))
				return -ENOMEM;
	return 0;
}

static void places(struct class_columns *cc, struct spoor_reader *schema, const size_t *classes)
{
	for (size_t i = 0; i < cc->nclasses; i++)
		for (size_t j = 0; j < cc->ncols; j++) {
			const struct class_column *col = &cc->cols[j];
			const struct ctf_type *t = scope_type(schema, classes[i], col->scope);
			int f = t ? ctf_struct_find(t, col->field, t->s.n) : -1;
			cc->places[i * cc->ncols + j] = (struct class_place){
			    .scope = (int8_t) col->scope,
			    .kind = (uint8_t) (f >= 0 ? kind_of(t->s.fields[f].type) : COL_JSON),
			    .index = f};
		}
}

int class_columns_build(struct class_columns *cc, struct spoor_reader *schema,
                        const size_t *classes, size_t nclasses, const char *const *fixed,
                        size_t nfixed)
{
	*cc = (struct class_columns){.nclasses = nclasses};
	int rc;
	if ((rc = gather(cc, schema, classes, nclasses, SPOOR_SCOPE_STREAM_EVENT_CONTEXT)) ||
	    (rc = gather(cc, schema, classes, nclasses, SPOOR_SCOPE_EVENT_CONTEXT)) ||
	    (rc = gather(cc, schema, classes, nclasses, SPOOR_SCOPE_PAYLOAD)) ||
	    (rc = name_all(cc, fixed, nfixed)))
		goto fail;
	if (!(cc->places = calloc(nclasses * cc->ncols + 1, sizeof(*cc->places)))) {
		rc = -ENOMEM;
		goto fail;
	}
	places(cc, schema, classes);
	return 0;
fail:
	class_columns_free(cc);
	return rc;
}

void class_columns_free(struct class_columns *cc)
{
	for (size_t j = 0; j < cc->ncols; j++)
		free(cc->cols[j].name);
	free(cc->cols);
	free(cc->places);
	*cc = (struct class_columns){0};
}
