/* SPDX-License-Identifier: MIT */
/*
 * elf-events.c: decodes the spoor_events section of an ELF file into event descriptors.
 *
 * SPOOR_EVENT (tracepoint.h) puts one struct spoor_event_desc per event in that section,
 * back to back (aligned 8), each starting with its struct_size; its pointers lead to the
 * field descriptors, their names and their enum entries elsewhere in the file. A pointer is
 * what the loader would put there (elf-image.h). The file is untrusted: each descriptor is
 * checked as lib/record/events.c checks the ones a traced program sends, and a budget bounds
 * what the file can make us allocate, since many descriptors may point at the same data.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-events.h"
#include "record/events.h"
#include "elf-image.h"
#include "spoor/spoor.h"
#include "util/mapfile.h"

#define MAX_EVENTS  65536
#define MAX_FIELDS  1024
#define MAX_ENTRIES 65536
#define MAX_NAME    128
#define MAX_LABEL   256
#define MAX_STRUCT  4096       /* a descriptor's struct_size, for some growth */
#define MAX_ITEMS   (1 << 20)  /* events + fields + enum entries, in all */
#define MAX_TEXT    (16 << 20) /* bytes of names and labels, in all */

/* The x86-64 (LP64) layout of tracepoint-types.h's structs, in bytes: the file's, which is
 * also this build's on LP64 hosts (checked below). */
enum {
	EV_STRUCT_SIZE = 0,
	EV_PROVIDER = 8,
	EV_NAME = 16,
	EV_FIELDS = 24,
	EV_NFIELDS = 32,
	EV_MAX_ALIGN = 40,
	EV_MIN_SIZE = 44, /* through max_align: what every version has */
	FD_NAME = 0,
	FD_KIND = 8,
	FD_SIZE = 9,
	FD_SIGNED = 10,
	FD_BASE = 11,
	FD_BIG_ENDIAN = 12,
	FD_TEXT = 13,
	FD_LENGTH = 16,
	FD_ENTRIES = 24,
	FD_NENTRIES = 32,
	FD_LENGTH_SIZE = 36, /* in what older versions left as tail padding: 0 there */
	FD_STRIDE = 40,
	EN_LABEL = 0,
	EN_LO = 8,
	EN_HI = 16,
	EN_STRIDE = 24,
};

#if UINTPTR_MAX == UINT64_MAX
_Static_assert(offsetof(struct spoor_event_desc, provider) == EV_PROVIDER &&
                   offsetof(struct spoor_event_desc, fields) == EV_FIELDS &&
                   offsetof(struct spoor_event_desc, nfields) == EV_NFIELDS &&
                   offsetof(struct spoor_event_desc, max_align) == EV_MAX_ALIGN,
               "tracepoint-types.h changed: update the event layout here");
_Static_assert(offsetof(struct spoor_field_desc, text) == FD_TEXT &&
                   offsetof(struct spoor_field_desc, length) == FD_LENGTH &&
                   offsetof(struct spoor_field_desc, entries) == FD_ENTRIES &&
                   offsetof(struct spoor_field_desc, nentries) == FD_NENTRIES &&
                   offsetof(struct spoor_field_desc, length_size) == FD_LENGTH_SIZE &&
                   sizeof(struct spoor_field_desc) == FD_STRIDE,
               "tracepoint-types.h changed: update the field layout here");
_Static_assert(offsetof(struct spoor_enum_entry, hi) == EN_HI &&
                   sizeof(struct spoor_enum_entry) == EN_STRIDE,
               "tracepoint-types.h changed: update the enum entry layout here");
#endif

struct ctx {
	struct elf_image im;
	struct elf_events *out;
	size_t cap;          /* of out->evs */
	size_t items, text;  /* the budget spent */
	char ev[96], fd[96]; /* what is being read, for messages */
};

static int fail(struct ctx *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct ctx *c, int code, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->out->err, sizeof(c->out->err), "%s%s%s: %s", c->ev, c->fd[0] ? ", " : "", c->fd,
	         msg);
	return code;
}

/* The image's message, in the context of the descriptor being read. */
static int image_fail(struct ctx *c, int code, const char *what)
{
	return fail(c, code, "%s: %s", what, c->im.err);
}

static bool valid_name(const char *s)
{
	size_t n = strlen(s);
	if (!n || n > MAX_NAME)
		return false;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && *s != '_')
			return false;
	return true;
}

/* A label is printed as is: no control characters. */
static bool valid_label(const char *s)
{
	for (; *s; s++)
		if ((unsigned char) *s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/* What the metadata writer can describe, and flags that are booleans. */
static bool valid_field(const struct spoor_field_desc *f)
{
	return f->is_signed <= 1 && f->big_endian <= 1 && f->text <= 1 &&
	       (!f->text || f->size == 1) && event_field_valid(f);
}

static int spend(struct ctx *c, size_t items, size_t text)
{
	if (items > MAX_ITEMS - c->items || text > MAX_TEXT - c->text)
		return fail(c, -SPOOR_ELIMIT,
		            "the descriptors exceed %d items or %d bytes of names in all",
		            MAX_ITEMS, MAX_TEXT);
	c->items += items;
	c->text += text;
	return 0;
}

/* A copy of the string the pointer at slot (file bytes at stored) leads to. */
static int copy_string(struct ctx *c, uint64_t slot, const unsigned char *stored, bool name,
                       const char *what, const char **out)
{
	uint64_t at = elf_image_pointer(&c->im, slot, stored);
	const char *s;
	int rc;

	if (!at)
		return fail(c, -SPOOR_EDECODE, "%s: a NULL pointer", what);
	if ((rc = elf_image_string(&c->im, at, name ? MAX_NAME : MAX_LABEL, &s)))
		return image_fail(c, rc, what);
	if (name ? !valid_name(s) : !valid_label(s))
		return fail(c, -SPOOR_EDECODE, "%s: %s", what,
		            name ? "not an identifier" : "holds control characters");
	size_t n = strlen(s) + 1;
	char *copy = malloc(n);
	if ((rc = spend(c, 0, n)) || !copy) {
		free(copy);
		return rc ? rc : fail(c, -ENOMEM, "out of memory");
	}
	*out = memcpy(copy, s, n);
	return 0;
}

static int read_entries(struct ctx *c, const unsigned char *p, uint64_t vaddr,
                        struct spoor_field_desc *fd)
{
	uint32_t n = (uint32_t) elf_rd(p + FD_NENTRIES, 4);
	uint64_t at = elf_image_pointer(&c->im, vaddr + FD_ENTRIES, p + FD_ENTRIES);
	const unsigned char *e;
	int rc;

	if (!n || n > MAX_ENTRIES)
		return fail(c, n ? -SPOOR_ELIMIT : -SPOOR_EDECODE,
		            "an enum with %" PRIu32 " entries", n);
	if (!at)
		return fail(c, -SPOOR_EDECODE, "enum entries: a NULL pointer");
	if ((rc = elf_image_map(&c->im, at, (uint64_t) n * EN_STRIDE, &e)))
		return image_fail(c, rc, "enum entries");
	if ((rc = spend(c, n, 0)))
		return rc;
	struct spoor_enum_entry *en = calloc(n, sizeof(*en));
	if (!en)
		return fail(c, -ENOMEM, "out of memory");
	fd->entries = en;
	fd->nentries = n;
	for (uint32_t k = 0; k < n; k++, e += EN_STRIDE) {
		en[k].lo = (int64_t) elf_rd(e + EN_LO, 8);
		en[k].hi = (int64_t) elf_rd(e + EN_HI, 8);
		bool ordered = fd->is_signed ? en[k].lo <= en[k].hi
		                             : (uint64_t) en[k].lo <= (uint64_t) en[k].hi;
		if (!ordered)
			return fail(c, -SPOOR_EDECODE, "enum entry %" PRIu32 ": lo > hi", k);
		rc = copy_string(c, at + (uint64_t) k * EN_STRIDE + EN_LABEL, e + EN_LABEL, false,
		                 "enum label", &en[k].label);
		if (rc)
			return rc;
	}
	return 0;
}

static int read_field(struct ctx *c, const unsigned char *p, uint64_t vaddr,
                      struct spoor_field_desc *fd)
{
	int rc = copy_string(c, vaddr + FD_NAME, p + FD_NAME, true, "name", &fd->name);
	if (rc)
		return rc;
	snprintf(c->fd, sizeof(c->fd), "field %s", fd->name);
	fd->kind = p[FD_KIND];
	fd->size = p[FD_SIZE];
	fd->is_signed = p[FD_SIGNED];
	fd->base = p[FD_BASE];
	fd->big_endian = p[FD_BIG_ENDIAN];
	fd->text = p[FD_TEXT];
	fd->length = (uint32_t) elf_rd(p + FD_LENGTH, 4);
	fd->length_size = p[FD_LENGTH_SIZE];
	if (!valid_field(fd))
		return fail(
		    c, -SPOOR_EDECODE,
		    "not a field spoor can describe (kind %u, size %u, base %u, length %" PRIu32
		    ")",
		    fd->kind, fd->size, fd->base, fd->length);
	if (fd->kind == SPOOR_FK_ENUM)
		return read_entries(c, p, vaddr, fd);
	if (elf_rd(p + FD_NENTRIES, 4))
		return fail(c, -SPOOR_EDECODE, "enum entries on a field that is not an enum");
	return 0;
}

void elf_event_free(struct spoor_event_desc *d)
{
	event_desc_free(d);
}

/* The descriptor whose file bytes are p (at least EV_MIN_SIZE) at address vaddr. */
static int read_event(struct ctx *c, const unsigned char *p, uint64_t vaddr,
                      struct spoor_event_desc *d)
{
	uint32_t nfields = (uint32_t) elf_rd(p + EV_NFIELDS, 4);
	uint32_t align = (uint32_t) elf_rd(p + EV_MAX_ALIGN, 4);
	const unsigned char *f;
	int rc;

	if ((rc = copy_string(c, vaddr + EV_PROVIDER, p + EV_PROVIDER, true, "provider",
	                      &d->provider)) ||
	    (rc = copy_string(c, vaddr + EV_NAME, p + EV_NAME, true, "name", &d->name)))
		return rc;
	snprintf(c->ev, sizeof(c->ev), "event %s:%s", d->provider, d->name);
	d->max_align = align;
	if (align != 1 && align != 2 && align != 4 && align != 8)
		return fail(c, -SPOOR_EDECODE, "payload alignment %" PRIu32, align);
	if (nfields > MAX_FIELDS)
		return fail(c, -SPOOR_ELIMIT, "%" PRIu32 " fields (at most %d)", nfields,
		            MAX_FIELDS);
	if ((rc = spend(c, 1 + nfields, 0)))
		return rc;
	struct spoor_field_desc *fields = calloc(nfields + 1, sizeof(*fields));
	if (!fields)
		return fail(c, -ENOMEM, "out of memory");
	d->fields = fields;
	d->nfields = nfields;
	if (!nfields)
		return 0;
	uint64_t at = elf_image_pointer(&c->im, vaddr + EV_FIELDS, p + EV_FIELDS);
	if (!at)
		return fail(c, -SPOOR_EDECODE, "fields: a NULL pointer");
	if ((rc = elf_image_map(&c->im, at, (uint64_t) nfields * FD_STRIDE, &f)))
		return image_fail(c, rc, "fields");
	for (uint32_t k = 0; k < nfields; k++, f += FD_STRIDE) {
		snprintf(c->fd, sizeof(c->fd), "field %" PRIu32, k);
		if ((rc = read_field(c, f, at + (uint64_t) k * FD_STRIDE, &fields[k])))
			return rc;
	}
	c->fd[0] = '\0';
	return 0;
}

static int append(struct ctx *c, struct spoor_event_desc *d)
{
	struct elf_events *ev = c->out;
	if (ev->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct spoor_event_desc **evs = realloc(ev->evs, cap * sizeof(*evs));
		if (!evs)
			return fail(c, -ENOMEM, "out of memory");
		ev->evs = evs;
		c->cap = cap;
	}
	ev->evs[ev->n++] = d;
	return 0;
}

/* The descriptors, back to back: each one's struct_size says where the next one starts
 * (the struct only grows at its end), once it is known to be a size a descriptor can have. */
static int read_section(struct ctx *c, const struct elf_section *sec)
{
	const unsigned char *base = c->im.data + sec->off;
	uint64_t o = 0;
	int rc;

	while (o < sec->size) {
		snprintf(c->ev, sizeof(c->ev), "spoor_events offset %" PRIu64, o);
		c->fd[0] = '\0';
		uint64_t left = sec->size - o;
		if (left < 4)
			return fail(c, -ENOEXEC, "the section ends inside a descriptor");
		uint32_t size = (uint32_t) elf_rd(base + o + EV_STRUCT_SIZE, 4);
		if (size < EV_MIN_SIZE || size % 8 || size > MAX_STRUCT)
			return fail(c, -ENOEXEC,
			            "struct_size %" PRIu32 " is not a descriptor's size", size);
		if (size > left)
			return fail(c, -ENOEXEC, "the section ends inside a descriptor");
		if (c->out->n >= MAX_EVENTS)
			return fail(c, -SPOOR_ELIMIT, "more than %d events", MAX_EVENTS);
		struct spoor_event_desc *d = calloc(1, sizeof(*d));
		if (!d)
			return fail(c, -ENOMEM, "out of memory");
		d->struct_size = sizeof(*d);
		if ((rc = read_event(c, base + o, sec->addr + o, d)) || (rc = append(c, d))) {
			elf_event_free(d);
			return rc;
		}
		o += size;
	}
	return 0;
}

int elf_events_read(struct elf_events *ev, const unsigned char *data, size_t size)
{
	struct ctx c = {.out = ev};
	struct elf_section sec;

	*ev = (struct elf_events){0};
	int rc = elf_image_open(&c.im, data, size);
	if (!rc && (rc = elf_image_section(&c.im, "spoor_events", &sec)) == 1)
		rc = read_section(&c, &sec);
	if (rc < 0) {
		if (!ev->err[0])
			snprintf(ev->err, sizeof(ev->err), "%s", c.im.err);
		elf_events_free(ev); /* keeps the message */
	}
	elf_image_close(&c.im);
	return rc < 0 ? rc : 0;
}

int elf_events_read_file(struct elf_events *ev, const char *path)
{
	struct mapfile mf;
	int rc = mapfile_open(&mf, path);

	if (rc) {
		*ev = (struct elf_events){0};
		snprintf(ev->err, sizeof(ev->err), "%s",
		         rc == -EINVAL ? "not a regular file" : spoor_strerror(rc));
		return rc;
	}
	rc = elf_events_read(ev, mf.data, mf.size);
	mapfile_close(&mf);
	return rc;
}

void elf_events_free(struct elf_events *ev)
{
	for (size_t i = 0; i < ev->n; i++)
		elf_event_free(ev->evs[i]);
	free(ev->evs);
	ev->evs = NULL;
	ev->n = 0;
}
