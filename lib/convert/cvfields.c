/* SPDX-License-Identifier: MIT */
/* cvfields.c: a spoor kernel class's fields and their bytes (see cvfields.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cvfields.h"

/* An integer as meta-write writes one: 1, 2, 4 or 8 bytes, byte-aligned (packed). */
static int int_of(const struct ctf_type *t, struct spoor_field_desc *d)
{
	unsigned bits = t->i.size;
	if (t->kind != CTF_INT || t->align != 8 ||
	    (bits != 8 && bits != 16 && bits != 32 && bits != 64))
		return -1;
	d->size = (uint8_t) (bits / 8);
	d->is_signed = t->i.is_signed;
	d->base = (uint8_t) t->i.base;
	d->big_endian = t->i.bo == CTF_BO_BE;
	return 0;
}

static int enum_of(const struct ctf_type *t, struct spoor_field_desc *d,
                   struct spoor_enum_entry **entries, size_t *nentries)
{
	if (!t->e.container || int_of(t->e.container, d) || !t->e.n)
		return -1;
	struct spoor_enum_entry *v = realloc(*entries, (*nentries + t->e.n) * sizeof(*v));
	if (!v)
		return -1;
	*entries = v;
	for (unsigned i = 0; i < t->e.n; i++)
		v[*nentries + i] = (struct spoor_enum_entry){
		    t->e.entries[i].label, t->e.entries[i].lo, t->e.entries[i].hi};
	d->nentries = t->e.n;
	/* an offset for now: the array may move as it grows (cv_fields sets the pointers) */
	d->entries = (const struct spoor_enum_entry *) (uintptr_t) *nentries;
	*nentries += t->e.n;
	return 0;
}

/* One member (and, for a sequence, the length member before it). */
static int field_of(const struct ctf_field *m, const struct ctf_field *prev,
                    struct spoor_field_desc *d, struct spoor_enum_entry **entries, size_t *nentries)
{
	const struct ctf_type *t = m->type;
	char want[300];
	*d = (struct spoor_field_desc){.name = m->shown};
	switch (t->kind) {
	case CTF_INT: d->kind = SPOOR_FK_INT; return int_of(t, d);
	case CTF_ENUM: d->kind = SPOOR_FK_ENUM; return enum_of(t, d, entries, nentries);
	case CTF_FLOAT:
		d->kind = SPOOR_FK_FLOAT;
		d->size = t->f.mant_dig == 24 ? 4 : t->f.mant_dig == 53 ? 8 : 0;
		d->big_endian = t->f.bo == CTF_BO_BE;
		return d->size && t->align == 8 ? 0 : -1;
	case CTF_STRING: d->kind = SPOOR_FK_STRING; return 0;
	case CTF_ARRAY:
	case CTF_SEQUENCE:
		d->kind = t->kind == CTF_ARRAY ? SPOOR_FK_ARRAY : SPOOR_FK_SEQUENCE;
		if (!t->a.elem || int_of(t->a.elem, d) || t->a.len > UINT32_MAX)
			return -1;
		d->text = t->a.elem->i.text;
		d->length = (uint32_t) t->a.len;
		if (t->kind == CTF_ARRAY)
			return 0;
		/* meta-write: `__NAME_length` (a uint32), then `_NAME[ __NAME_length ]` */
		snprintf(want, sizeof(want), "__%s_length", m->shown);
		return prev && !strcmp(prev->name, want) && t->a.path.text &&
		               !strcmp(t->a.path.text, want) && prev->type->kind == CTF_INT &&
		               prev->type->i.size == 32 && !prev->type->i.is_signed &&
		               prev->type->align == 8
		           ? 0
		           : -1;
	default: return -1;
	}
}

int cv_fields(const struct ctf_type *t, struct spoor_field_desc **out, uint32_t *n,
              struct spoor_enum_entry **entries, char *err, size_t errlen)
{
	*out = NULL;
	*n = 0;
	*entries = NULL;
	if (!t)
		return 0;
	if (t->kind != CTF_STRUCT) {
		snprintf(err, errlen, "a payload that is not a structure");
		return -1;
	}
	size_t nentries = 0;
	struct spoor_field_desc *v = calloc(t->s.n ? t->s.n : 1, sizeof(*v));
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (unsigned i = 0; i < t->s.n; i++) {
		const struct ctf_field *m = &t->s.fields[i], *next = i + 1 < t->s.n ? m + 1 : NULL;
		char len_name[300];
		if (next && next->type->kind == CTF_SEQUENCE) {
			snprintf(len_name, sizeof(len_name), "__%s_length", next->shown);
			if (!strcmp(m->name, len_name))
				continue; /* the sequence's length: part of it */
		}
		if (field_of(m, i ? m - 1 : NULL, &v[*n], entries, &nentries)) {
			snprintf(err, errlen, "field %s: a type spoor's kernel traces do not have",
			         m->name);
			free(v);
			free(*entries);
			*entries = NULL;
			return -1;
		}
		(*n)++;
	}
	for (uint32_t i = 0; i < *n; i++)
		if (v[i].kind == SPOOR_FK_ENUM)
			v[i].entries = *entries + (uintptr_t) v[i].entries;
	*out = v;
	return 0;
}

long cv_extents(const struct spoor_field_desc *f, uint32_t n, const uint8_t *p, size_t len,
                uint32_t *at, uint32_t *size)
{
	size_t off = 0;
	for (uint32_t i = 0; i < n; i++) {
		size_t bytes;
		switch (f[i].kind) {
		case SPOOR_FK_STRING: {
			const uint8_t *nul = off < len ? memchr(p + off, 0, len - off) : NULL;
			if (!nul)
				return -1;
			bytes = (size_t) (nul - (p + off)) + 1;
			break;
		}
		case SPOOR_FK_ARRAY: bytes = (size_t) f[i].length * f[i].size; break;
		case SPOOR_FK_SEQUENCE: {
			uint32_t count;
			if (len - off < 4)
				return -1;
			memcpy(&count, p + off, 4);
			bytes = 4 + (size_t) count * f[i].size;
			break;
		}
		default: bytes = f[i].size; break;
		}
		if (bytes > len - off)
			return -1;
		at[i] = (uint32_t) off;
		size[i] = (uint32_t) bytes;
		off += bytes;
	}
	return (long) off;
}
