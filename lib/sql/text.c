/* SPDX-License-Identifier: MIT */
/* text.c: cells built as text, and fields as JSON (see text.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "util/fixed.h"
#include "util/json.h"
#include "util/outbuf.h"

#define JSON_DEPTH_MAX 32 /* deeper compounds (hostile metadata) come as null */

bool sql_text_room(struct sql_text *t, size_t n)
{
	if (t->failed)
		return false;
	if (t->len + n <= t->cap)
		return true;
	size_t cap = t->cap ? t->cap : 256;
	while (cap < t->len + n)
		cap *= 2;
	char *bigger = realloc(t->buf, cap);
	if (!bigger) {
		t->failed = true;
		return false;
	}
	t->buf = bigger;
	t->cap = cap;
	return true;
}

void sql_text_put(struct sql_text *t, const char *s, size_t n)
{
	if (sql_text_room(t, n)) {
		memcpy(t->buf + t->len, s, n);
		t->len += n;
	}
}

void sql_text_free(struct sql_text *t)
{
	free(t->buf);
	*t = (struct sql_text){0};
}

void sql_json_string(struct sql_text *t, const char *s, size_t n)
{
	if (!sql_text_room(t, 6 * n + 2))
		return;
	/* an outbuf over the room made: json_string_buf never needs to flush it */
	struct outbuf o = {.buf = t->buf + t->len, .cap = 6 * n + 2};
	json_string_buf(&o, s, n);
	t->len += o.len;
}

static void number(struct sql_text *t, const struct spoor_field *f)
{
	if (!sql_text_room(t, SHORTEST_MAX))
		return;
	char *p = t->buf + t->len;
	if (f->kind == SPOOR_FIELD_SIGNED)
		t->len += outbuf_fmt_s64(p, f->v.s);
	else if (f->kind == SPOOR_FIELD_UNSIGNED)
		t->len += outbuf_fmt_u64(p, f->v.u);
	else if (isfinite(f->v.f))
		t->len += fixed_shortest(p, f->v.f);
	else
		sql_text_put(t, "null", 4);
}

static void value(struct sql_text *t, const struct spoor_field *f, int depth)
{
	switch (f->kind) {
	case SPOOR_FIELD_SIGNED:
	case SPOOR_FIELD_UNSIGNED:
	case SPOOR_FIELD_FLOAT: number(t, f); return;
	case SPOOR_FIELD_STRING: sql_json_string(t, f->v.str.ptr, f->v.str.len); return;
	case SPOOR_FIELD_STRUCT:
	case SPOOR_FIELD_VARIANT:
	case SPOOR_FIELD_ARRAY: break;
	default: sql_text_put(t, "null", 4); return;
	}
	if (depth >= JSON_DEPTH_MAX) {
		sql_text_put(t, "null", 4);
		return;
	}
	bool array = f->kind == SPOOR_FIELD_ARRAY;
	sql_text_put(t, array ? "[" : "{", 1);
	for (uint32_t i = 0; i < f->count && !t->failed; i++) {
		struct spoor_field c;
		if (!spoor_field_child(f, i, &c))
			break;
		if (i)
			sql_text_put(t, ",", 1);
		if (!array) {
			sql_json_string(t, c.name ? c.name : "", c.name ? strlen(c.name) : 0);
			sql_text_put(t, ":", 1);
		}
		value(t, &c, depth + 1);
	}
	sql_text_put(t, array ? "]" : "}", 1);
}

void sql_json_field(struct sql_text *t, const struct spoor_field *f)
{
	value(t, f, 0);
}
