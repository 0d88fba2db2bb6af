/* SPDX-License-Identifier: MIT */
/*
 * events.c: parses the EVENTS text of lib/ipc/proto.h into descriptors, with every count,
 * size and name checked: a traced program is not trusted to send sane metadata.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"

#define MAX_EVENTS  65536
#define MAX_FIELDS  1024
#define MAX_ENTRIES 65536
#define MAX_NAME    128
#define MAX_LINE    4096

/* Descriptors made by the heap (from a program's text or from a binary's file): every
 * string and array is its own allocation. */
void event_desc_free(struct spoor_event_desc *d)
{
	if (!d)
		return;
	for (uint32_t f = 0; d->fields && f < d->nfields; f++) {
		const struct spoor_field_desc *fd = &d->fields[f];
		for (uint32_t e = 0; fd->entries && e < fd->nentries; e++)
			free((char *) fd->entries[e].label);
		free((void *) fd->entries);
		free((char *) fd->name);
	}
	free((void *) d->fields);
	free((char *) d->provider);
	free((char *) d->name);
	free(d);
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > MAX_NAME)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char) *s) && *s != '_')
			return false;
	return true;
}

struct cursor {
	const char *p, *end;
	unsigned line;
};

/* The next line as a NUL-terminated copy in buf; false at the end. */
static bool next_line(struct cursor *c, char *buf, size_t cap, bool *too_long)
{
	if (c->p >= c->end)
		return false;
	const char *nl = memchr(c->p, '\n', (size_t) (c->end - c->p));
	size_t n = nl ? (size_t) (nl - c->p) : (size_t) (c->end - c->p);
	*too_long = n >= cap;
	if (!*too_long) {
		memcpy(buf, c->p, n);
		buf[n] = '\0';
	}
	c->p += n + (nl ? 1 : 0);
	c->line++;
	return true;
}

static bool int_size_ok(unsigned size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

bool event_field_valid(const struct spoor_field_desc *f)
{
	bool int_size = int_size_ok(f->size);
	switch (f->kind) {
	case SPOOR_FK_INT:
	case SPOOR_FK_ENUM: return int_size && (f->base == 10 || f->base == 16);
	case SPOOR_FK_FLOAT: return f->size == 4 || f->size == 8;
	case SPOOR_FK_STRING: return true;
	case SPOOR_FK_ARRAY: return int_size && f->length <= (1u << 20);
	case SPOOR_FK_SEQUENCE: return int_size && (!f->length_size || int_size_ok(f->length_size));
	default: return false;
	}
}

static int parse_event(struct cursor *c, const char *head, struct spoor_event_desc **out, char *err,
                       size_t errlen)
{
	char prov[MAX_LINE], name[MAX_LINE], line[MAX_LINE];
	unsigned id, align, nfields;
	bool too_long;

	if (sscanf(head, "event %u %4095s %4095s %u %u", &id, prov, name, &align, &nfields) != 5 ||
	    !valid_name(prov) || !valid_name(name) || nfields > MAX_FIELDS || id > (1u << 30) ||
	    (align != 1 && align != 2 && align != 4 && align != 8)) {
		snprintf(err, errlen, "line %u: invalid event line", c->line);
		return -1;
	}
	struct spoor_event_desc *d = calloc(1, sizeof(*d));
	struct spoor_field_desc *fields = calloc(nfields + 1, sizeof(*fields));
	if (!d || !fields) {
		free(d);
		free(fields);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	d->struct_size = sizeof(*d);
	d->provider = strdup(prov);
	d->name = strdup(name);
	d->id = id;
	d->max_align = align;
	d->fields = fields;
	for (uint32_t f = 0; f < nfields; f++) {
		struct spoor_field_desc *fd = &fields[f];
		unsigned kind, size, sig, base, be, text, length, nent, lsize = 0;
		int end = 0, more = 0;
		d->nfields = f + 1;
		if (!next_line(c, line, sizeof(line), &too_long) || too_long ||
		    sscanf(line, "field %4095s %u %u %u %u %u %u %u %u%n", name, &kind, &size, &sig,
		           &base, &be, &text, &length, &nent, &end) != 9 ||
		    (line[end] &&
		     (sscanf(line + end, " %u%n", &lsize, &more) != 1 || line[end + more])) ||
		    !valid_name(name) || nent > MAX_ENTRIES || sig > 1 || be > 1 || text > 1 ||
		    lsize > 8) {
			snprintf(err, errlen, "line %u: invalid field line", c->line);
			goto fail;
		}
		*fd = (struct spoor_field_desc){
		    strdup(name),   (uint8_t) kind, (uint8_t) size, (uint8_t) sig, (uint8_t) base,
		    (uint8_t) be,   (uint8_t) text, length,         NULL,          0,
		    (uint8_t) lsize};
		if (kind > 255 || size > 255 || base > 255 || !event_field_valid(fd) ||
		    (nent && kind != SPOOR_FK_ENUM) || (lsize && kind != SPOOR_FK_SEQUENCE)) {
			snprintf(err, errlen, "line %u: invalid field '%s'", c->line, name);
			goto fail;
		}
		if (!nent)
			continue;
		struct spoor_enum_entry *en = calloc(nent, sizeof(*en));
		fd->entries = en;
		if (!en)
			goto fail;
		for (uint32_t e = 0; e < nent; e++) {
			long long lo, hi;
			int used = 0;
			fd->nentries = e + 1;
			if (!next_line(c, line, sizeof(line), &too_long) || too_long ||
			    sscanf(line, "enum %lld %lld %n", &lo, &hi, &used) != 2 || !used ||
			    lo > hi) {
				snprintf(err, errlen, "line %u: invalid enum line", c->line);
				goto fail;
			}
			en[e] = (struct spoor_enum_entry){strdup(line + used), lo, hi};
		}
	}
	*out = d;
	return 0;
fail:
	event_desc_free(d);
	return -1;
}

int rec_events_parse(struct rec_events *e, const char *text, size_t len, char *err, size_t errlen)
{
	struct cursor c = {text, text + len, 0};
	char line[MAX_LINE];
	size_t first = e->n;
	bool too_long;

	while (next_line(&c, line, sizeof(line), &too_long)) {
		if (!too_long && !line[0])
			continue;
		struct spoor_event_desc *d;
		if (too_long || strncmp(line, "event ", 6)) {
			snprintf(err, errlen, "line %u: expected an event line", c.line);
			goto fail;
		}
		if (e->n >= MAX_EVENTS) {
			snprintf(err, errlen, "more than %d events", MAX_EVENTS);
			goto fail;
		}
		if (parse_event(&c, line, &d, err, errlen))
			goto fail;
		for (size_t k = 0; k < e->n; k++)
			if (e->evs[k]->id == d->id) {
				snprintf(err, errlen, "event id %u sent twice", d->id);
				event_desc_free(d);
				goto fail;
			}
		if (e->n == e->cap) {
			size_t cap = e->cap ? 2 * e->cap : 64;
			struct spoor_event_desc **bigger = realloc(e->evs, cap * sizeof(*bigger));
			if (!bigger) {
				event_desc_free(d);
				goto fail;
			}
			e->evs = bigger;
			e->cap = cap;
		}
		e->evs[e->n++] = d;
	}
	return 0;
fail:
	while (e->n > first)
		event_desc_free(e->evs[--e->n]);
	return -1;
}

void rec_events_free(struct rec_events *e)
{
	for (size_t i = 0; i < e->n; i++)
		event_desc_free(e->evs[i]);
	free(e->evs);
	e->evs = NULL;
	e->n = e->cap = 0;
}
