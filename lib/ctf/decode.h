/* SPDX-License-Identifier: MIT */
/*
 * decode.h: runs a plan over packet bytes, producing a table of values.
 *
 * Values are stored flat: a scalar is one `struct val`; a struct, array or variant is one
 * `struct val` whose members' value indices sit in the `kids` table, so any member is one
 * look-up away. Tables are reused from event to event: no allocation once warm.
 */
#ifndef CTF_DECODE_H
#define CTF_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "plan.h"

#define VAL_NONE         UINT32_MAX
#define DECODE_MAX_VALS  (1u << 22) /* per table: bounds what one event may expand to */
#define DECODE_MAX_DEPTH 100        /* struct nesting, above what plans allow */

struct val {
	union {
		uint64_t u;
		int64_t s;
		double f;
		const char *str;
	};
	uint32_t kids; /* compound: offset in the kids table */
	uint32_t len;  /* string bytes, member/element count, or the variant's option */
};

struct val_table {
	struct val *v;
	uint32_t n, cap;
	uint32_t *kids;
	uint32_t nk, kcap;
};

/* Where the bits are: base[0..avail) is readable, decoding stays below end_bits. */
struct bitsrc {
	const uint8_t *base;
	size_t avail;
	uint64_t pos, end_bits;
};

struct decoder {
	struct bitsrc *src;
	struct val_table *table; /* where this scope's values go */
	struct val_table *scope_table[SPOOR_SCOPE_COUNT + 1];
	uint32_t scope_root[SPOOR_SCOPE_COUNT + 1];
	uint64_t *clock; /* the stream's current clock value */
	uint64_t event_id;
	int has_event_id;
	const char *error; /* static message on failure */
	/* an event header read without its values (decode_header): they come on demand */
	const struct plan *hdr_plan;
	uint64_t hdr_id, hdr_ext_id, hdr_ts;
	/* instead of the three above, from the stream reader's fast path: a header at fixed
	 * offsets (plan.h: hdr_fixed) whose values are read from its bytes on demand */
	const uint8_t *hdr_at;
};

/* Decode one scope with its plan, appending to d->table; sets scope_root[scope].
 * Returns 0, or -SPOOR_ETRUNCATED / -SPOOR_EDECODE / -SPOOR_ELIMIT with d->error set. */
int decode_scope(struct decoder *d, const struct plan *p, int scope);
/* Decode an event header: the clock and event id always, the values (scope_root) at once or,
 * for LTTng's headers, only once decode_header_values asks for them (decode_header_fast,
 * header-fast.h, is the common case of it). */
int decode_header(struct decoder *d, const struct plan *p);
/* Make the values of a header read by decode_header, if not made yet: before anything else
 * reads or appends to the event's value table. */
int decode_header_values(struct decoder *d);
/* Advance over a scope without keeping values (uses the fixed layout when there is one). */
int decode_skip(struct decoder *d, const struct plan *p, int scope);
/* A payload of a variable layout stepped over with its skip program, from *pos (aligned
 * there) to its end; false when it has none or the data does not fit (decode_skip then
 * reports why). */
bool decode_skip_payload(struct decoder *d, const struct plan *p, uint64_t *pos);
/* One member of the root struct of scope plan p, starting at bit start, read in place when
 * its offset is fixed (plan_member) and it is an integer or text: false otherwise, or when a
 * decode of the scope would fail before it. v is what decode_scope would store, code the
 * member's operation (enum op_code). */
bool decode_peek(const struct bitsrc *s, const struct plan *p, uint64_t start, int member,
                 struct val *v, int *code);
/* The same for any member of a scope with a skip program (plan.h), found by walking it over
 * the whole scope: false unless a decode of the scope would succeed. */
bool decode_peek_skip(const struct decoder *d, const struct plan *p, uint64_t start, int member,
                      struct val *v, int *code);
/* Either of them: a member read in place, or false. */
bool decode_peek_member(const struct decoder *d, const struct plan *p, uint64_t start, int member,
                        struct val *v, int *code);
static inline void val_table_reset(struct val_table *t)
{
	t->n = 0;
	t->nk = 0;
}
void val_table_free(struct val_table *t);

#endif
