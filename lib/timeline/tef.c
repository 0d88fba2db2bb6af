/* SPDX-License-Identifier: MIT */
/* tef.c: the Trace Event Format's JSON, a piece at a time (see tef.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spoor/trace.h"
#include "tef.h"
#include "util/fixed.h"
#include "util/json.h"

/* Room for a member's comma, a short literal key and a number. */
#define MEMBER_MAX 96

int tef_open(struct tef *t, int fd)
{
	*t = (struct tef){0};
	int rc = outbuf_init(&t->o, fd, 1 << 20);
	if (rc)
		return rc;
	outbuf_lit(&t->o, "{\"traceEvents\":[\n");
	return 0;
}

void tef_free(struct tef *t)
{
	outbuf_fini(&t->o);
}

/* `,"key":` (the comma only after a member), with room for a number after it; false when
 * the output failed. */
static bool member(struct tef *t, const char *key)
{
	size_t n = strlen(key);
	if (outbuf_room(&t->o, n + MEMBER_MAX))
		return false;
	if (t->open)
		outbuf_putc(&t->o, ',');
	t->open = true;
	outbuf_putc(&t->o, '"');
	outbuf_put(&t->o, key, n);
	outbuf_lit(&t->o, "\":");
	return true;
}

/* v / 10^decimals: the integer part, then the decimals without trailing zeros. */
static void put_decimal(struct outbuf *o, int64_t v, unsigned decimals)
{
	uint64_t u = (uint64_t) v, scale = outbuf_pow10[decimals];
	if (v < 0) {
		outbuf_putc(o, '-');
		u = 0 - u;
	}
	outbuf_u64(o, u / scale);
	uint64_t frac = u % scale;
	if (!frac)
		return;
	while (frac % 10 == 0) {
		frac /= 10;
		decimals--;
	}
	outbuf_putc(o, '.');
	outbuf_u64_pad(o, frac, (int) decimals);
}

bool tef_event(struct tef *t, char ph, int64_t pid, int64_t tid, int64_t ts)
{
	if (outbuf_room(&t->o, 128))
		return false;
	if (t->events++)
		outbuf_lit(&t->o, ",\n");
	outbuf_lit(&t->o, "{\"ph\":\"");
	outbuf_putc(&t->o, ph);
	outbuf_lit(&t->o, "\",\"pid\":");
	outbuf_s64(&t->o, pid);
	outbuf_lit(&t->o, ",\"tid\":");
	outbuf_s64(&t->o, tid);
	outbuf_lit(&t->o, ",\"ts\":");
	put_decimal(&t->o, ts, 3);
	t->open = true;
	return true;
}

void tef_str(struct tef *t, const char *key, const char *s, size_t n)
{
	if (member(t, key))
		json_string_buf(&t->o, s, n);
}

void tef_int(struct tef *t, const char *key, int64_t v)
{
	if (member(t, key))
		outbuf_s64(&t->o, v);
}

void tef_us(struct tef *t, const char *key, int64_t ns)
{
	tef_decimal(t, key, ns, 3);
}

void tef_decimal(struct tef *t, const char *key, int64_t v, unsigned decimals)
{
	if (member(t, key))
		put_decimal(&t->o, v, decimals);
}

void tef_object(struct tef *t, const char *key)
{
	if (member(t, key))
		outbuf_putc(&t->o, '{');
	t->open = false;
}

void tef_close(struct tef *t)
{
	if (!outbuf_room(&t->o, 1))
		outbuf_putc(&t->o, '}');
	t->open = true;
}

/* A float as JSON allows it: shortest form that reads back the same; NaN and infinities,
 * which JSON lacks, as strings. */
static void put_float(struct outbuf *o, double x)
{
	char buf[40];
	int n;
	if (isnan(x) || isinf(x))
		n = snprintf(buf, sizeof(buf), "\"%s\"", isnan(x) ? "nan" : x < 0 ? "-inf" : "inf");
	else
		n = (int) fixed_shortest(buf, x);
	outbuf_put(o, buf, (size_t) n);
}

/* f's value (no key). */
static void value(struct tef *t, const struct spoor_field *f)
{
	struct outbuf *o = &t->o;
	struct spoor_field kid;
	if (outbuf_room(o, 48))
		return;
	switch (f->kind) {
	case SPOOR_FIELD_SIGNED:
	case SPOOR_FIELD_UNSIGNED:
		if (f->label)
			json_string_buf(o, f->label, strlen(f->label));
		else if (f->kind == SPOOR_FIELD_SIGNED)
			outbuf_s64(o, f->v.s);
		else
			outbuf_u64(o, f->v.u);
		break;
	case SPOOR_FIELD_FLOAT: put_float(o, f->v.f); break;
	case SPOOR_FIELD_STRING: json_string_buf(o, f->v.str.ptr, f->v.str.len); break;
	case SPOOR_FIELD_STRUCT:
		outbuf_putc(o, '{');
		t->open = false;
		for (uint32_t i = 0; i < f->count && spoor_field_child(f, i, &kid); i++)
			tef_field(t, kid.name ? kid.name : "", kid.name ? strlen(kid.name) : 0,
			          &kid);
		tef_close(t);
		break;
	case SPOOR_FIELD_ARRAY:
		outbuf_putc(o, '[');
		for (uint32_t i = 0; i < f->count && spoor_field_child(f, i, &kid); i++) {
			if (i && !outbuf_room(o, 1))
				outbuf_putc(o, ',');
			value(t, &kid);
		}
		if (!outbuf_room(o, 1))
			outbuf_putc(o, ']');
		break;
	case SPOOR_FIELD_VARIANT:
		if (spoor_field_child(f, 0, &kid))
			value(t, &kid);
		else
			outbuf_lit(o, "null"); /* no option selected */
		break;
	default: outbuf_lit(o, "null"); break;
	}
}

void tef_field(struct tef *t, const char *key, size_t keylen, const struct spoor_field *f)
{
	if (outbuf_room(&t->o, 2))
		return;
	if (t->open)
		outbuf_putc(&t->o, ',');
	if (json_string_buf(&t->o, key, keylen) || outbuf_room(&t->o, 1))
		return;
	outbuf_putc(&t->o, ':');
	value(t, f);
	t->open = true;
}

int tef_finish(struct tef *t, void (*other)(struct tef *t, void *data), void *data)
{
	/* after the events: Perfetto reads displayTimeUnit only at a file's start (where,
	 * before 2022, it took "ns" for the unit of ts); chrome://tracing shows ns with it */
	if (!outbuf_room(&t->o, 64))
		outbuf_lit(&t->o, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{");
	t->open = false;
	if (other)
		other(t, data);
	if (!outbuf_room(&t->o, 4))
		outbuf_lit(&t->o, "}}\n");
	return outbuf_flush(&t->o);
}
