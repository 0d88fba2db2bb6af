/* SPDX-License-Identifier: MIT */
/*
 * meta-write.c: TSDL text for spoor's user-space traces (the layout is in meta-write.h).
 *
 * Descriptors are checked before anything is written, so a descriptor the format cannot
 * carry is -EINVAL rather than metadata that one reader or another rejects later.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta-write.h"

/* ---- a growing text buffer; the first failure sticks ---- */

struct tbuf {
	bool packed; /* every field byte-aligned (spoor's own traces) */
	char *p;
	size_t len, cap;
	int err;
};

static bool tb_reserve(struct tbuf *b, size_t n)
{
	if (b->err)
		return false;
	if (b->len + n + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->len + n + 1) {
		if (cap > SIZE_MAX / 2) {
			b->err = -ENOMEM;
			return false;
		}
		cap *= 2;
	}
	char *bigger = realloc(b->p, cap);
	if (!bigger) {
		b->err = -ENOMEM;
		return false;
	}
	b->p = bigger;
	b->cap = cap;
	return true;
}

static void tb_put(struct tbuf *b, const char *s)
{
	size_t n = strlen(s);
	if (!tb_reserve(b, n))
		return;
	memcpy(b->p + b->len, s, n + 1);
	b->len += n;
}

static void tb_printf(struct tbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tb_printf(struct tbuf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->err = b->err ? b->err : -EINVAL;
		return;
	}
	if ((size_t) n < sizeof(small)) {
		tb_put(b, small);
		return;
	}
	if (!tb_reserve(b, (size_t) n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t) n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t) n;
}

/* A TSDL string literal: `"` and `\` escaped, and the control characters a literal
 * cannot hold raw (checked beforehand by text_ok()). */
static void tb_quoted(struct tbuf *b, const char *s)
{
	if (!tb_reserve(b, 2 * strlen(s) + 2))
		return;
	char *o = b->p + b->len;
	*o++ = '"';
	for (; *s; s++) {
		switch (*s) {
		case '"':
			*o++ = '\\';
			*o++ = '"';
			break;
		case '\\':
			*o++ = '\\';
			*o++ = '\\';
			break;
		case '\n':
			*o++ = '\\';
			*o++ = 'n';
			break;
		case '\t':
			*o++ = '\\';
			*o++ = 't';
			break;
		case '\r':
			*o++ = '\\';
			*o++ = 'r';
			break;
		default: *o++ = *s; break;
		}
	}
	*o++ = '"';
	*o = '\0';
	b->len = (size_t) (o - b->p);
}

static void tb_uuid(struct tbuf *b, const uint8_t u[16])
{
	tb_printf(b, "\"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\"",
	          u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
	          u[13], u[14], u[15]);
}

/* ---- checks ---- */

static bool is_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* A TSDL identifier. */
static bool ident_ok(const char *s)
{
	if (!s || !*s || (*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!is_ident_char(*s))
			return false;
	return true;
}

/* A field name: written after an underscore, so it may start with a digit. */
static bool field_name_ok(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!is_ident_char(*s))
			return false;
	return true;
}

/* Text for a string literal: control characters other than \n, \t and \r have no escape
 * that every reader decodes. */
static bool text_ok(const char *s)
{
	if (!s)
		return false;
	for (; *s; s++) {
		unsigned char c = (unsigned char) *s;
		if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f)
			return false;
	}
	return true;
}

static bool int_size_ok(unsigned size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

static unsigned base_of(const struct spoor_field_desc *f)
{
	return f->base ? f->base : 10;
}

/* An enum value fits its container. */
static bool enum_value_ok(int64_t v, unsigned bits, bool is_signed)
{
	if (bits == 64)
		return true;
	if (is_signed) {
		int64_t lim = (int64_t) 1 << (bits - 1);
		return v >= -lim && v < lim;
	}
	return (uint64_t) v < (uint64_t) 1 << bits;
}

static int check_field(const struct spoor_field_desc *f)
{
	if (!field_name_ok(f->name))
		return -EINVAL;
	unsigned base = base_of(f);
	if (base != 2 && base != 8 && base != 10 && base != 16)
		return -EINVAL;
	switch (f->kind) {
	case SPOOR_FK_INT: return int_size_ok(f->size) ? 0 : -EINVAL;
	case SPOOR_FK_FLOAT: return f->size == 4 || f->size == 8 ? 0 : -EINVAL;
	case SPOOR_FK_STRING: return 0;
	case SPOOR_FK_SEQUENCE:
		if (f->length_size && !int_size_ok(f->length_size))
			return -EINVAL;
		/* fall through */
	case SPOOR_FK_ARRAY:
		if (!int_size_ok(f->size) || (f->text && f->size != 1))
			return -EINVAL;
		return 0;
	case SPOOR_FK_ENUM:
		if (!int_size_ok(f->size) || !f->nentries || !f->entries)
			return -EINVAL;
		for (uint32_t i = 0; i < f->nentries; i++) {
			const struct spoor_enum_entry *e = &f->entries[i];
			bool ordered =
			    f->is_signed ? e->lo <= e->hi : (uint64_t) e->lo <= (uint64_t) e->hi;
			if (!e->label || !text_ok(e->label) || !ordered ||
			    !enum_value_ok(e->lo, 8u * f->size, f->is_signed) ||
			    !enum_value_ok(e->hi, 8u * f->size, f->is_signed))
				return -EINVAL;
		}
		return 0;
	default: return -EINVAL;
	}
}

static int str_ptr_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Every member name the payload struct will hold, as written, is distinct. */
static int check_member_names(const struct spoor_event_desc *ev)
{
	size_t n = 0, size = 0;

	for (uint32_t i = 0; i < ev->nfields; i++) {
		size_t len = strlen(ev->fields[i].name);
		n += ev->fields[i].kind == SPOOR_FK_SEQUENCE ? 2 : 1;
		size += 2 * (len + 10);
	}
	if (n < 2)
		return 0;
	char **names = malloc(n * sizeof(*names));
	char *store = malloc(size);
	int rc = 0;
	if (!names || !store) {
		rc = -ENOMEM;
		goto out;
	}
	char *o = store;
	size_t k = 0;
	for (uint32_t i = 0; i < ev->nfields; i++) {
		const struct spoor_field_desc *f = &ev->fields[i];
		names[k++] = o;
		o += sprintf(o, "_%s", f->name) + 1;
		if (f->kind == SPOOR_FK_SEQUENCE) {
			names[k++] = o;
			o += sprintf(o, "__%s_length", f->name) + 1;
		}
	}
	qsort(names, n, sizeof(*names), str_ptr_cmp);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(names[i - 1], names[i]))
			rc = -EINVAL;
out:
	free(names);
	free(store);
	return rc;
}

static int check_event(const struct spoor_event_desc *ev)
{
	if (!ev || !ev->provider || !ev->name || !text_ok(ev->provider) || !text_ok(ev->name) ||
	    (ev->nfields && !ev->fields))
		return -EINVAL;
	for (uint32_t i = 0; i < ev->nfields; i++) {
		int rc = check_field(&ev->fields[i]);
		if (rc)
			return rc;
	}
	return check_member_names(ev);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;
	return x < y ? -1 : x > y;
}

static int check_trace(const struct meta_trace *t, const struct spoor_event_desc *const *events,
                       size_t nevents)
{
	if (!ident_ok(t->clock.name) || !t->clock.freq ||
	    (t->clock.description && !text_ok(t->clock.description)) || (nevents && !events) ||
	    (t->nenv && !t->env))
		return -EINVAL;
	for (size_t i = 0; i < t->nenv; i++)
		if (!ident_ok(t->env[i].key) || (t->env[i].is_str && !text_ok(t->env[i].str)))
			return -EINVAL;
	for (size_t i = 0; t->packet_u32 && i < t->npacket_u32; i++)
		if (!ident_ok(t->packet_u32[i]))
			return -EINVAL;
	for (size_t i = 0; i < t->nevent_context; i++)
		if (!t->event_context || t->event_context[i].kind != SPOOR_FK_INT ||
		    check_field(&t->event_context[i]))
			return -EINVAL;
	for (size_t i = 0; i < nevents; i++) {
		int rc = check_event(events[i]);
		if (rc)
			return rc;
	}
	if (nevents < 2)
		return 0;
	uint32_t *ids = malloc(nevents * sizeof(*ids));
	int rc = 0;
	if (!ids)
		return -ENOMEM;
	for (size_t i = 0; i < nevents; i++)
		ids[i] = events[i]->id;
	qsort(ids, nevents, sizeof(*ids), u32_cmp);
	for (size_t i = 1; i < nevents; i++)
		if (ids[i - 1] == ids[i])
			rc = -EINVAL;
	free(ids);
	return rc;
}

/* ---- events ---- */

static void put_integer(struct tbuf *b, unsigned bytes, bool is_signed, unsigned base, bool be,
                        bool text)
{
	tb_printf(b, "integer { size = %u; align = %u; signed = %d; encoding = %s; base = %u;%s }",
	          8 * bytes, b->packed ? 8 : 8 * bytes, is_signed ? 1 : 0, text ? "UTF8" : "none",
	          base, be ? " byte_order = be;" : "");
}

static void put_field(struct tbuf *b, const struct spoor_field_desc *f)
{
	tb_put(b, "\t\t");
	switch (f->kind) {
	case SPOOR_FK_INT:
		put_integer(b, f->size, f->is_signed, base_of(f), f->big_endian, false);
		tb_printf(b, " _%s;\n", f->name);
		break;
	case SPOOR_FK_FLOAT:
		tb_printf(b, "floating_point { exp_dig = %u; mant_dig = %u; align = %u;%s } _%s;\n",
		          f->size == 4 ? 8u : 11u, f->size == 4 ? 24u : 53u,
		          b->packed ? 8u : 8u * f->size, f->big_endian ? " byte_order = be;" : "",
		          f->name);
		break;
	case SPOOR_FK_STRING: tb_printf(b, "string _%s;\n", f->name); break;
	case SPOOR_FK_ARRAY:
		put_integer(b, f->size, f->is_signed, base_of(f), f->big_endian, f->text);
		tb_printf(b, " _%s[%" PRIu32 "];\n", f->name, f->length);
		break;
	case SPOOR_FK_SEQUENCE:
		put_integer(b, f->length_size ? f->length_size : 4, false, 10, false, false);
		tb_printf(b, " __%s_length;\n\t\t", f->name);
		put_integer(b, f->size, f->is_signed, base_of(f), f->big_endian, f->text);
		tb_printf(b, " _%s[ __%s_length ];\n", f->name, f->name);
		break;
	case SPOOR_FK_ENUM:
		tb_put(b, "enum : ");
		put_integer(b, f->size, f->is_signed, base_of(f), f->big_endian, false);
		tb_put(b, " {\n");
		for (uint32_t i = 0; i < f->nentries; i++) {
			const struct spoor_enum_entry *e = &f->entries[i];
			tb_put(b, "\t\t\t");
			tb_quoted(b, e->label);
			if (f->is_signed)
				tb_printf(b, " = %" PRId64, e->lo);
			else
				tb_printf(b, " = %" PRIu64, (uint64_t) e->lo);
			if (e->hi != e->lo) {
				if (f->is_signed)
					tb_printf(b, " ... %" PRId64, e->hi);
				else
					tb_printf(b, " ... %" PRIu64, (uint64_t) e->hi);
			}
			tb_put(b, ",\n");
		}
		tb_printf(b, "\t\t} _%s;\n", f->name);
		break;
	}
}

static void put_event(struct tbuf *b, const struct spoor_event_desc *ev)
{
	size_t np = strlen(ev->provider), nn = strlen(ev->name);
	char *name = malloc(np + nn + 2);

	if (!name) {
		b->err = b->err ? b->err : -ENOMEM;
		return;
	}
	if (np) {
		memcpy(name, ev->provider, np);
		name[np++] = ':';
	}
	memcpy(name + np, ev->name, nn + 1);
	tb_put(b, "event {\n\tname = ");
	tb_quoted(b, name);
	free(name);
	tb_printf(b, ";\n\tid = %" PRIu32 ";\n\tstream_id = 0;\n\tfields := struct {\n", ev->id);
	for (uint32_t i = 0; i < ev->nfields; i++)
		put_field(b, &ev->fields[i]);
	tb_put(b, "\t};\n};\n\n");
}

static int finish(struct tbuf *b, char **text, size_t *len)
{
	if (!b->err && !tb_reserve(b, 0))
		b->err = -ENOMEM;
	if (b->err) {
		free(b->p);
		return b->err;
	}
	*text = b->p;
	if (len)
		*len = b->len;
	return 0;
}

int ctf_meta_write_event(const struct spoor_event_desc *ev, int packed, char **text, size_t *len)
{
	struct tbuf b = {.packed = packed != 0};
	int rc;

	if (!text)
		return -EINVAL;
	*text = NULL;
	if ((rc = check_event(ev)))
		return rc;
	put_event(&b, ev);
	return finish(&b, text, len);
}

/* ---- the whole metadata ---- */

int ctf_meta_write(const struct meta_trace *t, const struct spoor_event_desc *const *events,
                   size_t nevents, char **text, size_t *len)
{
	struct tbuf b = {0};

	b.packed = t && t->packed;
	int rc;

	if (!text)
		return -EINVAL;
	*text = NULL;
	if (!t)
		return -EINVAL;
	if ((rc = check_trace(t, events, nevents)))
		return rc;

	tb_put(&b,
	       "/* CTF 1.8 */\n\n"
	       "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
	       "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	       "typealias integer { size = 32; align = 32; signed = false; } := uint32_t;\n"
	       "typealias integer { size = 64; align = 64; signed = false; } := uint64_t;\n"
	       "typealias integer { size = 32; align = 8; signed = false; } := uint32_packed_t;\n\n"
	       "trace {\n"
	       "\tmajor = 1;\n"
	       "\tminor = 8;\n"
	       "\tuuid = ");
	tb_uuid(&b, t->uuid);
	tb_put(&b, ";\n"
	           "\tbyte_order = le;\n"
	           "\tpacket.header := struct {\n"
	           "\t\tuint32_t magic;\n"
	           "\t\tuint8_t  uuid[16];\n"
	           "\t\tuint32_t stream_id;\n"
	           "\t\tuint64_t stream_instance_id;\n"
	           "\t};\n"
	           "};\n\n");

	if (t->nenv) {
		tb_put(&b, "env {\n");
		for (size_t i = 0; i < t->nenv; i++) {
			const struct meta_env *e = &t->env[i];
			tb_printf(&b, "\t%s = ", e->key);
			if (e->is_str)
				tb_quoted(&b, e->str);
			else
				tb_printf(&b, "%" PRId64, e->num);
			tb_put(&b, ";\n");
		}
		tb_put(&b, "};\n\n");
	}

	const struct meta_clock *c = &t->clock;
	tb_printf(&b, "clock {\n\tname = \"%s\";\n\tuuid = ", c->name);
	tb_uuid(&b, c->uuid);
	tb_put(&b, ";\n");
	if (c->description) {
		tb_put(&b, "\tdescription = ");
		tb_quoted(&b, c->description);
		tb_put(&b, ";\n");
	}
	tb_printf(&b,
	          "\tfreq = %" PRIu64 ";\n"
	          "\toffset_s = %" PRId64 ";\n"
	          "\toffset = %" PRIu64 ";\n"
	          "\tprecision = 1;\n"
	          "\tabsolute = FALSE;\n"
	          "};\n\n",
	          c->freq, c->offset_s, c->offset);
	static const unsigned clock_sizes[] = {27, 32, 64};
	for (unsigned i = 0; i < 3; i++) {
		unsigned size = clock_sizes[i];
		tb_printf(&b,
		          "typealias integer {\n"
		          "\tsize = %u; align = %u; signed = false;\n"
		          "\tmap = clock.%s.value;\n"
		          "} := uint%u_clock_%s_t;\n\n",
		          size, size == 27 ? 1 : size, c->name, size, c->name);
	}
	if (b.packed)
		tb_printf(&b,
		          "typealias integer {\n"
		          "\tsize = 64; align = 8; signed = false;\n"
		          "\tmap = clock.%s.value;\n"
		          "} := uint64_clock_%s_packed_t;\n\n",
		          c->name, c->name);

	tb_printf(&b,
	          "stream {\n"
	          "\tid = 0;\n"
	          "\tpacket.context := struct {\n"
	          "\t\tuint64_clock_%s_t timestamp_begin;\n"
	          "\t\tuint64_clock_%s_t timestamp_end;\n"
	          "\t\tuint64_t content_size;\n"
	          "\t\tuint64_t packet_size;\n"
	          "\t\tuint64_t packet_seq_num;\n"
	          "\t\tuint64_t events_discarded;\n",
	          c->name, c->name);
	static const char *const user_u32[] = {"vpid", "vtid"};
	const char *const *u32 = t->packet_u32 ? t->packet_u32 : user_u32;
	size_t nu32 = t->packet_u32 ? t->npacket_u32 : 2;
	for (size_t i = 0; i < nu32; i++)
		tb_printf(&b, "\t\tuint32_t %s;\n", u32[i]);
	if (!t->packet_u32) /* spoor's own: which of the events discarded were overwritten */
		tb_put(&b, "\t\tuint64_t events_overwritten;\n");
	tb_put(&b, "\t};\n");
	tb_printf(&b,
	          "\tevent.header := struct {\n"
	          "\t\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
	          "\t\tvariant <id> {\n"
	          "\t\t\tstruct {\n"
	          "\t\t\t\tuint27_clock_%s_t timestamp;\n"
	          "\t\t\t} compact;\n"
	          "\t\t\tstruct {\n"
	          "\t\t\t\t%s id;\n"
	          "\t\t\t\tuint64_clock_%s%s_t timestamp;\n"
	          "\t\t\t} extended;\n"
	          "\t\t} v;\n"
	          "\t} align(8);\n",
	          c->name, b.packed ? "uint32_packed_t" : "uint32_t", c->name,
	          b.packed ? "_packed" : "");
	if (t->nevent_context) {
		tb_put(&b, "\tevent.context := struct {\n");
		for (size_t i = 0; i < t->nevent_context; i++)
			put_field(&b, &t->event_context[i]);
		tb_put(&b, "\t};\n");
	}
	tb_put(&b, "};\n\n");

	for (size_t i = 0; i < nevents; i++)
		put_event(&b, events[i]);
	return finish(&b, text, len);
}
