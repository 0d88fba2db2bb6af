/* SPDX-License-Identifier: MIT */
/* ksynth.c: events of spoor's own kernel classes, from values (see ksynth.h). */
#include <stdbool.h>
#include <string.h>

#include "ksynth.h"

static size_t length_bytes(const struct spoor_field_desc *f)
{
	return f->length_size ? f->length_size : 4;
}

static size_t size_of(const struct spoor_field_desc *f, const union ksynth_val *v)
{
	switch (f->kind) {
	case SPOOR_FK_INT: return f->size;
	case SPOOR_FK_ARRAY: return f->text && f->size == 1 ? f->length : SIZE_MAX;
	case SPOOR_FK_STRING: return (v->s ? strlen(v->s) : 0) + 1;
	case SPOOR_FK_SEQUENCE:
		return f->text || f->length_size > 8
		           ? SIZE_MAX
		           : length_bytes(f) + (size_t) v->seq.n * f->size;
	default: return SIZE_MAX;
	}
}

int ksynth_emit(struct kpacket *p, const struct kclasses *cs, uint32_t id, uint64_t ts, int32_t tid,
                const union ksynth_val *v)
{
	if (id >= cs->n)
		return -1;
	const struct spoor_event_desc *d = &cs->v[id].desc;
	size_t body = 0;
	for (size_t i = 0; i < cs->ncontext; i++)
		body += cs->context[i].size;
	for (uint32_t i = 0; i < d->nfields; i++) {
		size_t n = size_of(&d->fields[i], &v[i]);
		if (n == SIZE_MAX)
			return -1;
		body += n;
	}
	uint8_t *o = kpacket_begin_event(p, id, ts, body);
	if (!o)
		return -1;
	for (size_t i = 0; i < cs->ncontext; i++) {
		const struct spoor_field_desc *f = &cs->context[i];
		/* common_pid, or the LTTng layout's tid */
		bool is_tid = !strcmp(f->name, "common_pid") || !strcmp(f->name, "tid");
		int64_t x = is_tid ? tid : 0;
		memcpy(o, &x, f->size); /* little-endian: the low bytes */
		o += f->size;
	}
	for (uint32_t i = 0; i < d->nfields; i++) {
		const struct spoor_field_desc *f = &d->fields[i];
		const char *s = v[i].s ? v[i].s : "";
		size_t n = size_of(f, &v[i]);
		if (f->kind == SPOOR_FK_INT) {
			memcpy(o, &v[i].i, n);
		} else if (f->kind == SPOOR_FK_STRING) {
			memcpy(o, s, n);
		} else if (f->kind == SPOOR_FK_SEQUENCE) {
			uint64_t count = v[i].seq.n;
			memcpy(o, &count, length_bytes(f)); /* little-endian: the low bytes */
			memcpy(o + length_bytes(f), v[i].seq.v, n - length_bytes(f));
		} else {
			size_t len = strnlen(s, n - 1); /* a C string: its NUL kept */
			memcpy(o, s, len);
			memset(o + len, 0, n - len);
		}
		o += n;
	}
	kpacket_end_event(p, body);
	return 0;
}
