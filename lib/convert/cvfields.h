/* SPDX-License-Identifier: MIT */
/*
 * cvfields.h: the payload of a spoor kernel trace's event class, as the field descriptors
 * it was written from (lib/ctf/meta-write.h: packed, every field byte-aligned; a sequence's
 * `__NAME_length` member and the sequence are one SPOOR_FK_SEQUENCE), and where each field
 * lies in an event's bytes. A type meta-write does not write is refused: the trace is not
 * spoor's, or was altered.
 */
#ifndef CONVERT_CVFIELDS_H
#define CONVERT_CVFIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "ctf/types.h"
#include "spoor/tracepoint-types.h"

/* The members of struct t (NULL: none) as descriptors (*out malloc'd, names and enum
 * labels pointing into the trace's metadata; enum entries malloc'd into *entries). 0, or
 * -1 with err naming the member. */
int cv_fields(const struct ctf_type *t, struct spoor_field_desc **out, uint32_t *n,
              struct spoor_enum_entry **entries, char *err, size_t errlen);

/* Where fields f[0..n) lie in the len bytes at p: at[i] and size[i] in bytes. The bytes
 * they take in all, or -1 when they run past len (a damaged event). */
long cv_extents(const struct spoor_field_desc *f, uint32_t n, const uint8_t *p, size_t len,
                uint32_t *at, uint32_t *size);

#endif
