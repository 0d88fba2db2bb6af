/* SPDX-License-Identifier: MIT */
/*
 * plan.h: decoding plans. Each scope's type tree is compiled once into a flat array of
 * operations; decoding an event runs the array, never the type tree. Field references
 * (sequence lengths, variant tags) are resolved to positions at compile time.
 */
#ifndef CTF_PLAN_H
#define CTF_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/trace.h"
#include "types.h"

enum op_code {
	OP_INT,
	OP_FLOAT32,
	OP_FLOAT64,
	OP_STRING,
	OP_STRUCT,     /* arg: member count; members follow in order */
	OP_ARRAY,      /* arg: length; the element's ops follow */
	OP_SEQUENCE,   /* arg: ref index of the length; the element's ops follow */
	OP_TEXT_ARRAY, /* arg: length in bytes; decoded as a string */
	OP_TEXT_SEQ,   /* arg: ref index of the length */
	OP_VARIANT,    /* arg: variant table index */
};

enum op_flag {
	OPF_SIGNED = 1,
	OPF_BE = 2,
	OPF_CLOCK = 4,    /* updates the stream's clock (N-bit wrap-around) */
	OPF_EVENT_ID = 8, /* sets the event class id (event header) */
	OPF_FLAT = 16,    /* a struct whose members are all scalars: decoded in one loop */
};

struct op {
	uint8_t code;
	uint8_t flags;
	uint16_t size;  /* bits, for OP_INT and floats */
	uint32_t align; /* bits */
	uint32_t next;  /* index of the op after this one's subtree */
	uint32_t arg;
	uint32_t min_bits; /* smallest encoding of one instance: bounds array lengths early */
	const struct ctf_type *type;
};

/* Where a referenced field's value lives once decoded. */
struct ref {
	int8_t scope;      /* enum spoor_scope, or -1: relative to the enclosing structs */
	uint8_t up;        /* relative: how many enclosing structs to climb */
	uint8_t depth;     /* length of chain */
	uint8_t is_signed; /* the target integer's signedness */
	uint16_t chain[8]; /* member ordinals from there down */
};

struct variant_range {
	int64_t lo, hi;
	uint32_t option;
};

struct variant_table {
	uint32_t ref;
	bool tag_signed;
	struct variant_range *ranges;
	uint32_t nranges;
	uint32_t *option_ops; /* op index of each option */
	uint32_t noptions;
};

/* A step of a skip program: how to step over members of a variable-layout scope without
 * keeping their values (decode_skip); runs of fixed-size members are one step. Lengths come
 * from earlier members' values, kept by slot (the member's ordinal). */
enum skip_kind {
	SKIP_BITS,     /* align, then bits */
	SKIP_INT,      /* align, read size bits (flags: OPF_SIGNED, OPF_BE) into its slot */
	SKIP_STRING,   /* align, then up to and including a NUL byte */
	SKIP_SEQ,      /* align, then slot's value times size bits */
	SKIP_TEXT_SEQ, /* align, then slot's value bytes */
};

#define PLAN_SKIP_SLOTS 64 /* root members a skip program handles */

struct skip_op {
	uint8_t kind;
	uint8_t flags;
	uint16_t size;
	uint16_t slot;
	uint32_t align;
	uint32_t bits;
};

/* Where a root member starts in a skip program: off bits after step's aligned start. */
struct skip_member {
	uint32_t step;
	uint32_t off;
	uint32_t op; /* the member's operation */
};

struct plan_member {
	uint32_t op;
	uint32_t bit;
	/* Read in place from a byte-aligned scope (ctf_stream_payload_int/_text): a
	 * little-endian integer of 1, 2, 4 or 8 bytes at a byte offset, or a char array */
	uint8_t fast; /* enum plan_fast */
	uint32_t len; /* PLAN_FAST_INT: bytes; PLAN_FAST_TEXT: the array's length */
};

enum plan_fast { PLAN_FAST_NONE, PLAN_FAST_UINT, PLAN_FAST_SINT, PLAN_FAST_TEXT };

/* A variable layout of the commonest shape (LTTng's payloads with one string or one
 * sequence), in whole bytes: members at fixed offsets from the root's aligned start (the head,
 * which holds any length), one member of data-dependent size, then members at fixed offsets
 * right after it (the tail: one step of the skip program). decode_skip and decode_peek_skip
 * step over it in straight-line code, with the skip program's answers. */
struct plan_one_var {
	uint8_t kind;      /* enum skip_kind: SKIP_STRING, SKIP_SEQ or SKIP_TEXT_SEQ */
	uint8_t len_bytes; /* the length: 1, 2, 4 or 8 little-endian bytes */
	bool len_signed;
	uint32_t len_byte;   /* where the length sits in the head */
	uint32_t root_align; /* bits, a multiple of 8 */
	uint32_t var_bit;    /* where the variable member starts, aligned: a multiple of 8 */
	uint32_t elem_bits;  /* SKIP_SEQ: one element's, a multiple of 8; SKIP_TEXT_SEQ: 8 */
	uint32_t nmembers;   /* the root's: values_fit */
	uint64_t max_len;    /* a longer length fails, as the decode would (before an overflow) */
	uint32_t tail_bits;
	uint32_t first_tail;            /* the tail's first member; nmembers when it has none */
	const struct plan_member *tail; /* its members, bit from its start */
};

/* One scope's compiled plan. */
struct plan {
	struct op *ops;
	uint32_t nops;
	struct ref *refs;
	uint32_t nrefs;
	struct variant_table *variants;
	uint32_t nvariants;
	/* Fixed layout: when set, the scope always takes fixed_bits after aligning to
	 * fixed_align, so a reader can skip it without decoding. */
	bool fixed;
	uint32_t fixed_align;
	uint64_t fixed_bits;
	/* Variable layout whose root is a struct of scalars, strings, and arrays and
	 * sequences of packed scalars with lengths among the earlier members: the steps that
	 * step over it (NULL otherwise). */
	struct skip_op *skip;
	uint32_t nskip;
	struct skip_member *skip_members; /* one per root member */
	bool has_one_var;                 /* the skip program's layout is of one_var's shape */
	struct plan_one_var one_var;
	/* The root struct's leading members whose start does not depend on the data: op index
	 * and bit offset from the scope's start aligned to ops[0].align, so one field can be
	 * read without decoding the scope (decode_peek). All members when fixed is set. */
	struct plan_member *members;
	uint32_t nmembers;
	/* LTTng's compact and large event headers, recognised at compile time and decoded
	 * without the interpreter: ops 1 (id), 2 (variant), 3-4 (compact), 5-7 (extended). */
	bool lttng_header;
	uint64_t extended_tag;
	/* Little-endian LTTng header, byte-aligned, whose members need no more alignment than
	 * the whole: then every member sits at a fixed offset from the aligned start, each
	 * within one 64-bit load. [0] compact, [1] extended; offsets and sizes in bits. */
	bool hdr_fixed;
	uint16_t hdr_ts_off[2], hdr_total[2], hdr_ext_id_off;
	uint8_t hdr_ts_size[2];
	uint64_t hdr_id_mask, hdr_ext_id_mask, hdr_ts_mask[2];
	/* hdr_fixed with LTTng's compact header exactly (5-bit id, 27-bit or 32-bit id and
	 * 64-bit timestamp): the stream reader has a copy of its fast path with these
	 * offsets as constants */
	bool hdr_compact;
	/* hdr_fixed with LTTng's large header exactly (16-bit id, 32-bit timestamp; 32-bit id
	 * and 64-bit timestamp), which LTTng-UST writes: another such copy */
	bool hdr_large;
};

/* The types of every scope an event of a stream class may carry, for path resolution. */
struct plan_scopes {
	const struct ctf_type *type[SPOOR_SCOPE_COUNT + 1]; /* + trace packet header */
};
#define PLAN_SCOPE_PACKET_HEADER SPOOR_SCOPE_COUNT

/* Compile type (a struct, or NULL for an empty scope) of scope `scope`. Builds into the
 * arena. Returns 0 or -SPOOR_EMETA_SEMANTIC with a message in err. */
int plan_compile(struct arena *a, const struct ctf_meta *m, const struct plan_scopes *scopes,
                 int scope, struct plan **out, char *err, size_t errlen);

#endif
