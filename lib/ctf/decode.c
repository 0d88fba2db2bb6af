/* SPDX-License-Identifier: MIT */
/*
 * decode.c: the per-event hot path. Runs a plan's operations over the packet bytes; every
 * read is bounds-checked against the packet's content end, every length against the bits
 * left, so corrupt data ends in an error, never in a read out of bounds or a huge loop.
 */
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "decode.h"
#include "header-fast.h"
#include "spoor/spoor.h"

struct run {
	struct decoder *d;
	const struct plan *p;
	uint32_t stack[DECODE_MAX_DEPTH];
	int sp;
};

static int error(struct decoder *d, int code, const char *msg)
{
	d->error = msg;
	return code;
}

static int grow_vals_slow(struct val_table *t, uint32_t need)
{
	if ((uint64_t) t->n + need > DECODE_MAX_VALS)
		return -1;
	uint32_t cap = t->cap ? t->cap : 256;
	while (cap < t->n + need)
		cap *= 2;
	struct val *v = realloc(t->v, cap * sizeof(*v));
	if (!v)
		return -1;
	t->v = v;
	t->cap = cap;
	return 0;
}

static int grow_kids_slow(struct val_table *t, uint32_t need)
{
	if ((uint64_t) t->nk + need > DECODE_MAX_VALS)
		return -1;
	uint32_t cap = t->kcap ? t->kcap : 256;
	while (cap < t->nk + need)
		cap *= 2;
	uint32_t *k = realloc(t->kids, cap * sizeof(*k));
	if (!k)
		return -1;
	t->kids = k;
	t->kcap = cap;
	return 0;
}

/* Tables are warm after the first events: the common case is one compare. */
static inline int grow_vals(struct val_table *t, uint32_t need)
{
	return t->n + need <= t->cap ? 0 : grow_vals_slow(t, need);
}

static inline int grow_kids(struct val_table *t, uint32_t need)
{
	return t->nk + need <= t->kcap ? 0 : grow_kids_slow(t, need);
}

void val_table_free(struct val_table *t)
{
	free(t->v);
	free(t->kids);
	memset(t, 0, sizeof(*t));
}

static inline int align_to(struct decoder *d, uint32_t align)
{
	struct bitsrc *s = d->src;
	uint64_t pos = (s->pos + align - 1) & ~(uint64_t) (align - 1);

	if (pos > s->end_bits)
		return error(d, -SPOOR_ETRUNCATED,
		             "alignment padding runs past the packet content");
	s->pos = pos;
	return 0;
}

/* The value of a length or tag field, found through a compiled reference. */
static int lookup(struct run *r, uint32_t ref_index, int64_t *out)
{
	struct decoder *d = r->d;
	const struct ref *ref = &r->p->refs[ref_index];
	const struct val_table *t;
	uint32_t vi;

	if (ref->scope < 0) {
		if (ref->up >= r->sp)
			return error(d, -SPOOR_EDECODE, "field reference outside its struct");
		t = d->table;
		vi = r->stack[r->sp - 1 - ref->up];
	} else {
		t = d->scope_table[ref->scope];
		vi = d->scope_root[ref->scope];
		if (!t)
			return error(d, -SPOOR_EDECODE, "field reference to an absent scope");
	}
	for (unsigned c = 0; c < ref->depth && vi != VAL_NONE; c++) {
		if (vi >= t->n || ref->chain[c] >= t->v[vi].len)
			return error(d, -SPOOR_EDECODE, "field reference does not resolve");
		vi = t->kids[t->v[vi].kids + ref->chain[c]];
	}
	if (vi == VAL_NONE || vi >= t->n)
		return error(d, -SPOOR_EDECODE, "field reference to a field not decoded yet");
	*out = ref->is_signed ? t->v[vi].s : (int64_t) t->v[vi].u;
	return 0;
}

static int run_op(struct run *r, uint32_t i, uint32_t *out);

static int run_elements(struct run *r, uint32_t i, uint64_t len, uint32_t vi)
{
	struct decoder *d = r->d;
	struct val_table *t = d->table;
	const struct op *elem = &r->p->ops[i + 1];

	/* Every element takes at least min_bits: a corrupt length fails here, not later. */
	if (len > DECODE_MAX_VALS ||
	    (elem->min_bits && len * elem->min_bits > d->src->end_bits - d->src->pos))
		return error(d, -SPOOR_ETRUNCATED, "array or sequence longer than the data left");
	if (grow_kids(t, (uint32_t) len))
		return error(d, -SPOOR_ELIMIT, "event too large");
	uint32_t kids = t->nk;
	t->nk += (uint32_t) len;
	t->v[vi].kids = kids;
	t->v[vi].len = (uint32_t) len;
	for (uint32_t k = 0; k < len; k++) {
		uint32_t child;
		int rc = run_op(r, i + 1, &child);
		if (rc)
			return rc;
		t->kids[kids + k] = child;
	}
	return 0;
}

static int run_text(struct run *r, uint64_t len, struct val *v)
{
	struct bitsrc *s = r->d->src;

	if (len > (s->end_bits - s->pos) / 8)
		return error(r->d, -SPOOR_ETRUNCATED, "text array longer than the data left");
	const char *p = (const char *) s->base + s->pos / 8;
	v->str = p;
	v->len = (uint32_t) strnlen(p, (size_t) len);
	v->kids = 0;
	s->pos += len * 8;
	return 0;
}

static int run_variant(struct run *r, uint32_t i, uint32_t vi)
{
	struct decoder *d = r->d;
	const struct variant_table *vt = &r->p->variants[r->p->ops[i].arg];
	int64_t tag;
	int rc = lookup(r, vt->ref, &tag);

	if (rc)
		return rc;
	for (uint32_t k = 0; k < vt->nranges; k++) {
		const struct variant_range *vr = &vt->ranges[k];
		bool in = vt->tag_signed ? tag >= vr->lo && tag <= vr->hi
		                         : (uint64_t) tag >= (uint64_t) vr->lo &&
		                               (uint64_t) tag <= (uint64_t) vr->hi;
		if (!in)
			continue;
		struct val_table *t = d->table;
		if (grow_kids(t, 1))
			return error(d, -SPOOR_ELIMIT, "event too large");
		uint32_t kids = t->nk++, child;
		t->v[vi].kids = kids;
		t->v[vi].len = vr->option;
		if ((rc = run_op(r, vt->option_ops[vr->option], &child)))
			return rc;
		t->kids[kids] = child;
		return 0;
	}
	return error(d, -SPOOR_EDECODE, "variant tag selects no option");
}

static int run_struct(struct run *r, uint32_t i, uint32_t vi)
{
	struct decoder *d = r->d;
	struct val_table *t = d->table;
	const struct op *op = &r->p->ops[i];

	if (r->sp >= DECODE_MAX_DEPTH)
		return error(d, -SPOOR_ELIMIT, "structs nested too deeply");
	if (grow_kids(t, op->arg))
		return error(d, -SPOOR_ELIMIT, "event too large");
	uint32_t kids = t->nk;
	t->nk += op->arg;
	for (uint32_t k = 0; k < op->arg; k++)
		t->kids[kids + k] = VAL_NONE;
	t->v[vi].kids = kids;
	t->v[vi].len = op->arg;
	r->stack[r->sp++] = vi;
	uint32_t member = i + 1;
	for (uint32_t k = 0; k < op->arg; k++) {
		uint32_t child;
		int rc = run_op(r, member, &child);
		if (rc)
			return rc;
		t->kids[kids + k] = child;
		member = r->p->ops[member].next;
	}
	r->sp--;
	return 0;
}

/* op's bits at pos, in its byte order; the caller checked that they fit. */
static inline uint64_t read_bits(const struct bitsrc *s, const struct op *op, uint64_t pos)
{
	return op->flags & OPF_BE ? bits_read_be(s->base, s->avail, pos, op->size)
	                          : bits_read_le(s->base, s->avail, pos, op->size);
}

static inline __attribute__((always_inline)) int run_int(struct decoder *d, const struct op *op,
                                                         struct val *v)
{
	struct bitsrc *s = d->src;

	if (op->size > s->end_bits - s->pos)
		return error(d, -SPOOR_ETRUNCATED, "integer runs past the packet content");
	uint64_t x = read_bits(s, op, s->pos);
	s->pos += op->size;
	if (op->flags & OPF_SIGNED)
		v->s = bits_sign_extend(x, op->size);
	else
		v->u = x;
	if (op->flags & OPF_CLOCK)
		clock_update(d->clock, op->size, x);
	if (op->flags & OPF_EVENT_ID) {
		d->event_id = x;
		d->has_event_id = 1;
	}
	return 0;
}

/* Scalars: no recursion, no allocation; v is already reserved. */
static inline int run_scalar(struct run *r, const struct op *op, struct val *v)
{
	struct decoder *d = r->d;
	struct bitsrc *s = d->src;

	switch (op->code) {
	case OP_INT: return run_int(d, op, v);
	case OP_FLOAT32:
	case OP_FLOAT64: {
		if (op->size > s->end_bits - s->pos)
			return error(d, -SPOOR_ETRUNCATED, "float runs past the packet content");
		uint64_t x = read_bits(s, op, s->pos);
		s->pos += op->size;
		if (op->code == OP_FLOAT32) {
			uint32_t x32 = (uint32_t) x;
			float f;
			memcpy(&f, &x32, 4);
			v->f = f;
		} else {
			memcpy(&v->f, &x, 8);
		}
		return 0;
	}
	case OP_STRING: {
		const char *p = (const char *) s->base + s->pos / 8;
		size_t left = (size_t) ((s->end_bits - s->pos) / 8);
		const char *nul = memchr(p, 0, left);
		if (!nul)
			return error(d, -SPOOR_ETRUNCATED, "string without its terminating NUL");
		v->str = p;
		v->len = (uint32_t) (nul - p);
		s->pos += (uint64_t) (nul - p + 1) * 8;
		return 0;
	}
	case OP_TEXT_ARRAY: return run_text(r, op->arg, v);
	}
	return error(d, -SPOOR_EDECODE, "bad plan");
}

/* A struct of scalars, the shape of most events: one reservation, one tight loop. */
static int run_flat_struct(struct run *r, uint32_t i, uint32_t vi)
{
	struct decoder *d = r->d;
	struct val_table *t = d->table;
	const struct op *ops = r->p->ops;
	uint32_t n = ops[i].arg;

	if (grow_vals(t, n) || grow_kids(t, n))
		return error(d, -SPOOR_ELIMIT, "event too large");
	uint32_t kids = t->nk;
	t->nk += n;
	t->v[vi].kids = kids;
	t->v[vi].len = n;
	const struct op *op = &ops[i + 1];
	for (uint32_t k = 0; k < n; k++, op++) {
		int rc;
		if (op->align > 1 && (rc = align_to(d, op->align)))
			return rc;
		uint32_t child = t->n++;
		t->kids[kids + k] = child;
		if ((rc = run_scalar(r, op, &t->v[child])))
			return rc;
	}
	return 0;
}

static int run_op(struct run *r, uint32_t i, uint32_t *out)
{
	struct decoder *d = r->d;
	struct val_table *t = d->table;
	const struct op *op = &r->p->ops[i];
	int64_t len;
	int rc;

	if (op->align > 1 && (rc = align_to(d, op->align)))
		return rc;
	if (grow_vals(t, 1))
		return error(d, -SPOOR_ELIMIT, "event too large");
	uint32_t vi = t->n++;
	struct val *v = &t->v[vi];
	*out = vi;
	switch (op->code) {
	case OP_STRUCT:
		if (op->flags & OPF_FLAT)
			return run_flat_struct(r, i, vi);
		return run_struct(r, i, vi);
	case OP_ARRAY: return run_elements(r, i, op->arg, vi);
	case OP_SEQUENCE:
		if ((rc = lookup(r, op->arg, &len)))
			return rc;
		if (len < 0)
			return error(d, -SPOOR_EDECODE, "negative sequence length");
		return run_elements(r, i, (uint64_t) len, vi);
	case OP_TEXT_SEQ:
		if ((rc = lookup(r, op->arg, &len)))
			return rc;
		return run_text(r, (uint64_t) len, v);
	case OP_VARIANT: return run_variant(r, i, vi);
	default: return run_scalar(r, op, v);
	}
}

static inline uint64_t align_up(uint64_t pos, uint32_t align)
{
	return (pos + align - 1) & ~(uint64_t) (align - 1);
}

/* An unsigned header integer at its alignment, from *pos: run_int's checks and read, without
 * the flag tests (the caller knows what each header field is; be is a constant). */
static inline __attribute__((always_inline)) int header_int(struct decoder *d, const struct op *op,
                                                            bool be, uint64_t *pos, uint64_t *x)
{
	const struct bitsrc *s = d->src;
	uint64_t at = align_up(*pos, op->align);

	if (at > s->end_bits)
		return error(d, -SPOOR_ETRUNCATED,
		             "alignment padding runs past the packet content");
	if (op->size > s->end_bits - at)
		return error(d, -SPOOR_ETRUNCATED, "integer runs past the packet content");
	*x = be ? bits_read_be(s->base, s->avail, at, op->size)
	        : bits_read_le(s->base, s->avail, at, op->size);
	*pos = at + op->size;
	return 0;
}

/* LTTng's event header (see detect_lttng_header) in straight-line code: the id, then the
 * compact timestamp or the extended id and timestamp. Only the clock, the event id and the
 * raw fields are kept; the values the interpreter would leave are made on demand
 * (decode_header_values), as most events never look at them. On error, s->pos is where the
 * interpreter would have stopped, so damage reports name the same offset. */
static inline __attribute__((always_inline)) int lttng_header(struct decoder *d,
                                                              const struct plan *p, bool be)
{
	const struct op *o = p->ops;
	struct bitsrc *s = d->src;
	uint64_t id, ext_id = 0, ts, pos = s->pos;
	int rc;

	if (o[0].align > 1) {
		pos = align_up(pos, o[0].align);
		if (pos > s->end_bits)
			return error(d, -SPOOR_ETRUNCATED,
			             "alignment padding runs past the packet content");
		s->pos = pos;
	}
	if ((rc = header_int(d, &o[1], be, &pos, &id)))
		return rc;
	s->pos = pos;
	bool ext = id == p->extended_tag;
	const struct op *ts_op = &o[ext ? 7 : 4];
	pos = align_up(pos, o[ext ? 5 : 3].align);
	if (pos > s->end_bits)
		return error(d, -SPOOR_ETRUNCATED,
		             "alignment padding runs past the packet content");
	s->pos = pos;
	if (ext) {
		if ((rc = header_int(d, &o[6], be, &pos, &ext_id)))
			return rc;
		s->pos = pos;
	}
	if ((rc = header_int(d, ts_op, be, &pos, &ts)))
		return rc;
	s->pos = pos;
	header_done(d, p, id, ext ? ext_id : id, ext_id, ts_op->size, ts);
	return 0;
}

int decode_header_values(struct decoder *d)
{
	const struct plan *p = d->hdr_plan;
	struct val_table *t = d->table;

	if (!p)
		return 0;
	d->hdr_plan = NULL;
	if (d->hdr_at) { /* the values are still in the bytes */
		header_fields_at(p, d->hdr_at, &d->hdr_id, &d->hdr_ext_id, &d->hdr_ts);
		d->hdr_at = NULL;
	}
	if (grow_vals(t, 6) || grow_kids(t, 5))
		return error(d, -SPOOR_ELIMIT, "event too large");
	/* struct {id, v}; v = variant {option}; option = struct {members} */
	bool ext = d->hdr_id == p->extended_tag;
	uint32_t vi = t->n, k = t->nk, members = ext ? 2 : 1;
	struct val *v = &t->v[vi];
	v[0] = (struct val){.kids = k, .len = 2};
	v[1] = (struct val){.u = d->hdr_id};
	v[2] = (struct val){.kids = k + 2, .len = ext};
	v[3] = (struct val){.kids = k + 3, .len = members};
	v[4] = (struct val){.u = ext ? d->hdr_ext_id : d->hdr_ts};
	v[5] = (struct val){.u = d->hdr_ts};
	uint32_t *kids = &t->kids[k];
	kids[0] = vi + 1;
	kids[1] = vi + 2;
	kids[2] = vi + 3;
	kids[3] = vi + 4;
	kids[4] = vi + 5;
	t->n += 4 + members;
	t->nk += 3 + members;
	d->scope_table[SPOOR_SCOPE_EVENT_HEADER] = t;
	d->scope_root[SPOOR_SCOPE_EVENT_HEADER] = vi;
	return 0;
}

/* One copy per byte order (detect_lttng_header checks that they all share one). */
static int decode_lttng_header(struct decoder *d, const struct plan *p)
{
	return p->ops[1].flags & OPF_BE ? lttng_header(d, p, true) : lttng_header(d, p, false);
}

int decode_header(struct decoder *d, const struct plan *p)
{
	d->hdr_plan = NULL;
	if (p && p->lttng_header)
		return decode_lttng_header(d, p);
	return decode_scope(d, p, SPOOR_SCOPE_EVENT_HEADER);
}

int decode_scope(struct decoder *d, const struct plan *p, int scope)
{
	if (p && p->lttng_header) {
		int rc = decode_lttng_header(d, p);
		return rc ? rc : decode_header_values(d);
	}
	struct run r;

	d->scope_table[scope] = d->table;
	if (!p || !p->nops) {
		d->scope_root[scope] = VAL_NONE;
		return 0;
	}
	r.d = d;
	r.p = p;
	r.sp = 0;
	d->scope_root[scope] = d->table->n; /* the root's index, known before it is decoded */
	uint32_t root;
	return run_op(&r, 0, &root);
}

/* What a decode adds to the value table for a root of nmembers and elems sequence elements
 * stays within its limit (skip_walk's last check). */
static inline bool values_fit(const struct decoder *d, uint64_t nmembers, uint64_t elems)
{
	const struct val_table *t = d->table;
	return (uint64_t) t->n + t->nk + 2 * (elems + nmembers) + 32 <= DECODE_MAX_VALS;
}

/* Walk a skip program from *at_end to the scope's end, left there; where member `want`
 * starts goes to *at. False when a decode could fail here (bounds, lengths, the value
 * limit) or the data is damaged: the caller then decodes, which reports exactly what it
 * always did. */
static bool skip_walk(const struct decoder *d, const struct plan *p, uint64_t *at_end,
                      const struct skip_member *want, uint64_t *at)
{
	const struct bitsrc *s = d->src;
	int64_t slot[PLAN_SKIP_SLOTS];
	uint64_t pos = *at_end, end = s->end_bits, elems = 0;

	for (uint32_t k = 0; k < p->nskip; k++) {
		const struct skip_op *o = &p->skip[k];
		pos = align_up(pos, o->align);
		if (pos > end)
			return false;
		if (want && k == want->step)
			*at = pos + want->off;
		uint64_t left = end - pos;
		int64_t len;
		switch (o->kind) {
		case SKIP_BITS:
			if (o->bits > left)
				return false;
			pos += o->bits;
			break;
		case SKIP_INT: {
			if (o->size > left)
				return false;
			uint64_t x = o->flags & OPF_BE
			                 ? bits_read_be(s->base, s->avail, pos, o->size)
			                 : bits_read_le(s->base, s->avail, pos, o->size);
			slot[o->slot] =
			    o->flags & OPF_SIGNED ? bits_sign_extend(x, o->size) : (int64_t) x;
			pos += o->size;
			break;
		}
		case SKIP_STRING: {
			const char *str = (const char *) s->base + pos / 8;
			const char *nul = memchr(str, 0, (size_t) (left / 8));
			if (!nul)
				return false;
			pos += (uint64_t) (nul - str + 1) * 8;
			break;
		}
		case SKIP_SEQ:
			len = slot[o->slot];
			if (len < 0 || len > DECODE_MAX_VALS || (uint64_t) len * o->size > left)
				return false;
			elems += (uint64_t) len;
			pos += (uint64_t) len * o->size;
			break;
		case SKIP_TEXT_SEQ:
			len = slot[o->slot];
			if (len < 0 || (uint64_t) len > left / 8)
				return false;
			pos += (uint64_t) len * 8;
			break;
		default: return false;
		}
	}
	if (!values_fit(d, p->ops[0].arg, elems))
		return false;
	*at_end = pos;
	return true;
}

/* A little-endian unsigned integer of 1, 2, 4 or 8 bytes at p (plan_one_var's lengths and
 * plan_member's PLAN_FAST_UINT/SINT; the host is little-endian, plan.c checks). */
static inline uint64_t load_le(const uint8_t *p, unsigned bytes)
{
	uint64_t x;
	uint32_t x32;
	uint16_t x16;

	switch (bytes) {
	case 1: return *p;
	case 2: memcpy(&x16, p, 2); return x16;
	case 4: memcpy(&x32, p, 4); return x32;
	default: memcpy(&x, p, 8); return x;
	}
}

/* The length of a plan_one_var's sequence in the head at bit head (within the content), as
 * unsigned: a negative one is above any limit. */
static inline uint64_t one_var_length(const struct bitsrc *s, const struct plan_one_var *g,
                                      uint64_t head)
{
	uint64_t x = load_le(s->base + head / 8 + g->len_byte, g->len_bytes);
	return g->len_signed ? (uint64_t) bits_sign_extend(x, g->len_bytes * 8u) : x;
}

/* The bits of a plan_one_var's variable member at pos, left bits before the content's end,
 * and the sequence elements it holds: false when a decode would fail on it (skip_walk's
 * checks for its step). string: g->kind is SKIP_STRING. */
static inline __attribute__((always_inline)) bool
one_var_bits(const struct bitsrc *s, const struct plan_one_var *g, bool string, uint64_t head,
             uint64_t pos, uint64_t left, uint64_t *bits, uint64_t *elems)
{
	if (string) {
		const char *str = (const char *) s->base + pos / 8;
		const char *nul = memchr(str, 0, (size_t) (left / 8));
		if (!nul)
			return false;
		*bits = (uint64_t) (nul - str + 1) * 8;
		return true;
	}
	uint64_t len = one_var_length(s, g, head);
	*bits = len * g->elem_bits;
	*elems = g->kind == SKIP_SEQ ? len : 0;
	return len <= g->max_len && *bits <= left;
}

/* skip_walk over a plan_one_var layout from start, in straight-line code, with the same
 * answer: false when a decode could fail, else where the tail starts (*tail). */
static inline __attribute__((always_inline)) bool one_var_tail(const struct decoder *d,
                                                               const struct plan_one_var *g,
                                                               bool string, uint64_t start,
                                                               uint64_t *tail)
{
	const struct bitsrc *s = d->src;
	uint64_t end = s->end_bits, head = align_up(start, g->root_align), bits, elems = 0;

	/* the head's bits and the variable member's alignment, in one */
	if (head > end || g->var_bit > end - head)
		return false;
	uint64_t pos = head + g->var_bit;
	if (!one_var_bits(s, g, string, head, pos, end - pos, &bits, &elems))
		return false;
	pos += bits; /* on a byte, where the tail starts */
	if (g->tail_bits > end - pos || !values_fit(d, g->nmembers, elems))
		return false;
	*tail = pos;
	return true;
}

/* A layout with a skip program stepped over from *pos by running it: false as skip_walk. */
static __attribute__((noinline)) bool skip_by_walk(const struct decoder *d, const struct plan *p,
                                                   uint64_t *pos)
{
	uint64_t unused;
	return skip_walk(d, p, pos, NULL, &unused);
}

/* A plan_one_var layout stepped over from *pos: false as skip_walk. One copy per kind of
 * variable member (below), so that a sequence's makes no call and needs no stack frame. */
static inline __attribute__((always_inline)) bool
one_var_skip(const struct decoder *d, const struct plan *p, bool string, uint64_t *pos)
{
	uint64_t tail;

	if (!one_var_tail(d, &p->one_var, string, *pos, &tail))
		return false;
	*pos = tail + p->one_var.tail_bits;
	return true;
}

static __attribute__((noinline)) bool one_var_skip_string(const struct decoder *d,
                                                          const struct plan *p, uint64_t *pos)
{
	return one_var_skip(d, p, true, pos);
}

static __attribute__((noinline)) bool one_var_skip_seq(const struct decoder *d,
                                                       const struct plan *p, uint64_t *pos)
{
	return one_var_skip(d, p, false, pos);
}

/* A variable layout with a skip program stepped over from *pos: false as skip_walk. */
static inline bool skip_layout(const struct decoder *d, const struct plan *p, uint64_t *pos)
{
	if (!p->has_one_var)
		return skip_by_walk(d, p, pos);
	return p->one_var.kind == SKIP_STRING ? one_var_skip_string(d, p, pos)
	                                      : one_var_skip_seq(d, p, pos);
}

bool decode_skip_payload(struct decoder *d, const struct plan *p, uint64_t *pos)
{
	return p && p->skip && skip_layout(d, p, pos);
}

int decode_skip(struct decoder *d, const struct plan *p, int scope)
{
	if (p && p->fixed) {
		struct bitsrc *s = d->src;
		int rc = align_to(d, p->fixed_align);
		if (rc)
			return rc;
		if (p->fixed_bits > s->end_bits - s->pos)
			return error(d, -SPOOR_ETRUNCATED, "event runs past the packet content");
		s->pos += p->fixed_bits;
		d->scope_root[scope] = VAL_NONE;
		return 0;
	}
	/* Only the payload: a later scope may refer to an earlier one's values. */
	if (scope == SPOOR_SCOPE_PAYLOAD && p && p->skip && skip_layout(d, p, &d->src->pos)) {
		d->scope_root[scope] = VAL_NONE;
		return 0;
	}
	int rc = p && p->nops ? decode_header_values(d) : 0; /* it may refer to the header */
	return rc ? rc : decode_scope(d, p, scope);
}

/* The value of a scalar or text member starting at pos, as the interpreter would store it;
 * false when it does not fit (or is of another kind). */
static bool read_member(const struct bitsrc *s, const struct op *op, uint64_t pos, struct val *v)
{
	if (pos > s->end_bits)
		return false;
	uint64_t left = s->end_bits - pos;
	const char *text = (const char *) s->base + pos / 8;
	switch (op->code) {
	case OP_INT:
		if (op->size > left)
			return false;
		v->u = read_bits(s, op, pos);
		if (op->flags & OPF_SIGNED)
			v->s = bits_sign_extend(v->u, op->size);
		return true;
	case OP_TEXT_ARRAY:
		if (op->arg > left / 8)
			return false;
		v->str = text;
		v->len = (uint32_t) strnlen(text, op->arg);
		return true;
	case OP_STRING: {
		const char *nul = memchr(text, 0, (size_t) (left / 8));
		if (!nul)
			return false;
		v->str = text;
		v->len = (uint32_t) (nul - text);
		return true;
	}
	}
	return false;
}

bool decode_peek(const struct bitsrc *s, const struct plan *p, uint64_t start, int member,
                 struct val *v, int *code)
{
	if (member < 0 || (uint32_t) member >= p->nmembers)
		return false;
	const struct op *op = &p->ops[p->members[member].op];
	uint64_t pos = ((start + p->ops[0].align - 1) & ~(uint64_t) (p->ops[0].align - 1));
	/* what a decode would reject first: a scope that cannot fit */
	if (pos > s->end_bits || p->ops[0].min_bits > s->end_bits - pos)
		return false;
	*code = op->code;
	return read_member(s, op, pos + p->members[member].bit, v);
}

/* Member `member` of a plan_one_var's tail, or NULL. */
static inline const struct plan_member *one_var_member(const struct plan *p, int member)
{
	const struct plan_one_var *g = &p->one_var;

	if (!p->has_one_var || member < 0 || (uint32_t) member < g->first_tail ||
	    (uint32_t) member >= g->nmembers)
		return NULL;
	return &g->tail[(uint32_t) member - g->first_tail];
}

/* decode_peek_skip of root member m, found by running the skip program. */
static __attribute__((noinline)) bool peek_by_walk(const struct decoder *d, const struct plan *p,
                                                   uint64_t start, const struct skip_member *m,
                                                   struct val *v, int *code)
{
	uint64_t pos = start, at = UINT64_MAX;

	if (!skip_walk(d, p, &pos, m, &at))
		return false;
	const struct op *op = &p->ops[m->op];
	*code = op->code;
	return read_member(d->src, op, at, v);
}

/* decode_peek_skip of member m of a plan_one_var's tail (one_var_member), from start: one
 * copy per kind of variable member, as one_var_skip. Plain integers in line, the rest by
 * read_member. */
static inline __attribute__((always_inline)) bool
one_var_peek(const struct decoder *d, const struct plan *p, bool string, uint64_t start,
             const struct plan_member *m, struct val *v, int *code)
{
	const struct plan_one_var *g = &p->one_var;
	uint64_t tail;

	if (!one_var_tail(d, g, string, start, &tail))
		return false;
	*code = p->ops[m->op].code;
	/* the member is in the tail, within the content (one_var_tail checked) */
	const uint8_t *at = d->src->base + (tail + m->bit) / 8;
	switch (m->fast) {
	case PLAN_FAST_UINT: v->u = load_le(at, m->len); return true;
	case PLAN_FAST_SINT: v->s = bits_sign_extend(load_le(at, m->len), m->len * 8); return true;
	}
	return read_member(d->src, &p->ops[m->op], tail + m->bit, v);
}

static __attribute__((noinline)) bool one_var_peek_string(const struct decoder *d,
                                                          const struct plan *p, uint64_t start,
                                                          const struct plan_member *m,
                                                          struct val *v, int *code)
{
	return one_var_peek(d, p, true, start, m, v, code);
}

static __attribute__((noinline)) bool one_var_peek_seq(const struct decoder *d,
                                                       const struct plan *p, uint64_t start,
                                                       const struct plan_member *m, struct val *v,
                                                       int *code)
{
	return one_var_peek(d, p, false, start, m, v, code);
}

/* decode_peek_skip of member m of a plan_one_var's tail, by the kind of its variable member. */
static inline bool one_var_peek_member(const struct decoder *d, const struct plan *p,
                                       uint64_t start, const struct plan_member *m, struct val *v,
                                       int *code)
{
	return p->one_var.kind == SKIP_STRING ? one_var_peek_string(d, p, start, m, v, code)
	                                      : one_var_peek_seq(d, p, start, m, v, code);
}

bool decode_peek_skip(const struct decoder *d, const struct plan *p, uint64_t start, int member,
                      struct val *v, int *code)
{
	const struct plan_member *m = one_var_member(p, member);

	if (m)
		return one_var_peek_member(d, p, start, m, v, code);
	if (!p->skip || member < 0 || (uint32_t) member >= p->ops[0].arg)
		return false;
	return peek_by_walk(d, p, start, &p->skip_members[member], v, code);
}

/* decode_peek_member past a plan_one_var's tail: out of line, so that the tail's way there
 * needs no stack frame. */
static __attribute__((noinline)) bool peek_any(const struct decoder *d, const struct plan *p,
                                               uint64_t start, int member, struct val *v, int *code)
{
	return decode_peek(d->src, p, start, member, v, code) ||
	       decode_peek_skip(d, p, start, member, v, code);
}

bool decode_peek_member(const struct decoder *d, const struct plan *p, uint64_t start, int member,
                        struct val *v, int *code)
{
	/* a plan_one_var's tail comes after the members at fixed offsets: straight there */
	const struct plan_member *m = one_var_member(p, member);

	if (m)
		return one_var_peek_member(d, p, start, m, v, code);
	return peek_any(d, p, start, member, v, code);
}
