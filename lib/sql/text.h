/* SPDX-License-Identifier: MIT */
/* text.h: a text built in memory for one cell (a JSON payload, a compound field), reused
 * from row to row; and an event's field as JSON. */
#ifndef SQL_TEXT_H
#define SQL_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "spoor/trace.h"

struct sql_text {
	char *buf;
	size_t len, cap;
	bool failed; /* out of memory: the text is incomplete */
};

/* Room for n more bytes at buf + len (false: out of memory, failed set). */
bool sql_text_room(struct sql_text *t, size_t n);
void sql_text_put(struct sql_text *t, const char *s, size_t n);
void sql_text_free(struct sql_text *t);

/* The field's value as JSON: integers (enumerations too) as numbers, floats as numbers
 * (null when not finite), strings as strings, structures as objects, arrays as arrays, a
 * variant as an object of its one chosen option. */
void sql_json_field(struct sql_text *t, const struct spoor_field *f);
/* A JSON string literal of n bytes (valid UTF-8 whatever they hold: util/json.h). */
void sql_json_string(struct sql_text *t, const char *s, size_t n);

#endif
