/* SPDX-License-Identifier: MIT */
/*
 * plan.c: compiles a scope's type tree into the flat operation array of plan.h.
 *
 * Field references follow CTF 1.8 section 7.3.2: an absolute path names its scope
 * (trace.packet.header, stream.packet.context, stream.event.header, stream.event.context,
 * event.context, event.fields); a relative one is looked up among the fields declared
 * before it in the enclosing structs, innermost first, then in the earlier scopes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "decode.h"
#include "plan.h"
#include "spoor/spoor.h"
#include "tsdl-parse.h"

#define MAX_OPS (1u << 20)

struct compiler {
	struct arena *a;
	const struct ctf_meta *m;
	const struct plan_scopes *scopes;
	int scope;
	struct op *ops;
	uint32_t nops, cap_ops;
	struct ref *refs;
	uint32_t nrefs, cap_refs;
	struct variant_table *vars;
	uint32_t nvars, cap_vars;
	struct {
		const struct ctf_type *t;
		unsigned cur;
	} stack[2 * TSDL_MAX_DEPTH + 2];
	int sp;
	int depth;
	char *err;
	size_t errlen;
};

static int fail(struct compiler *c, const char *fmt, const char *arg)
{
	snprintf(c->err, c->errlen, fmt, arg);
	return -SPOOR_EMETA_SEMANTIC;
}

static int grow(void **arr, uint32_t *cap, uint32_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	uint32_t ncap = *cap ? *cap * 2 : 16;
	void *bigger = realloc(*arr, ncap * elem);
	if (!bigger)
		return -1;
	*arr = bigger;
	*cap = ncap;
	return 0;
}

static uint32_t new_op(struct compiler *c, const struct ctf_type *t, uint8_t code)
{
	if (c->nops >= MAX_OPS || grow((void **) &c->ops, &c->cap_ops, c->nops, sizeof(struct op)))
		return UINT32_MAX;
	c->ops[c->nops] = (struct op){.code = code, .align = t->align ? t->align : 1, .type = t};
	return c->nops++;
}

/* Scope prefixes of absolute paths, longest first. */
static const struct {
	const char *prefix;
	int scope;
} scope_prefixes[] = {
    {"trace.packet.header.", PLAN_SCOPE_PACKET_HEADER},
    {"stream.packet.context.", SPOOR_SCOPE_PACKET_CONTEXT},
    {"stream.event.header.", SPOOR_SCOPE_EVENT_HEADER},
    {"stream.event.context.", SPOOR_SCOPE_STREAM_EVENT_CONTEXT},
    {"event.context.", SPOOR_SCOPE_EVENT_CONTEXT},
    {"event.fields.", SPOOR_SCOPE_PAYLOAD},
};

/* Follow names through nested structs from type t; fills r->chain from position `at`. */
static int follow(struct compiler *c, const struct ctf_type *t, const char *rest, struct ref *r,
                  unsigned at, const struct ctf_type **target)
{
	char name[256];

	while (*rest) {
		const char *dot = strchr(rest, '.');
		size_t n = dot ? (size_t) (dot - rest) : strlen(rest);
		if (n >= sizeof(name) || at >= 8 || t->kind != CTF_STRUCT)
			return -1;
		memcpy(name, rest, n);
		name[n] = '\0';
		int i = ctf_struct_find(t, name, t->s.n);
		if (i < 0)
			return -1;
		r->chain[at++] = (uint16_t) i;
		t = t->s.fields[i].type;
		rest = dot ? dot + 1 : rest + n;
	}
	r->depth = (uint8_t) at;
	*target = t;
	return 0;
}

static int resolve(struct compiler *c, const char *path, uint32_t *out,
                   const struct ctf_type **target)
{
	struct ref r = {.scope = -1};
	int found = 0;

	for (unsigned i = 0; i < sizeof(scope_prefixes) / sizeof(scope_prefixes[0]) && !found;
	     i++) {
		size_t n = strlen(scope_prefixes[i].prefix);
		if (strncmp(path, scope_prefixes[i].prefix, n))
			continue;
		const struct ctf_type *root = c->scopes->type[scope_prefixes[i].scope];
		r.scope = (int8_t) scope_prefixes[i].scope;
		if (!root || follow(c, root, path + n, &r, 0, target))
			return fail(c, "cannot resolve field path '%s'", path);
		found = 1;
	}
	if (!found) {
		/* Relative: the first name among earlier fields of the enclosing structs. */
		char first[256];
		const char *dot = strchr(path, '.');
		size_t n = dot ? (size_t) (dot - path) : strlen(path);
		if (n >= sizeof(first))
			return fail(c, "field path too long: '%s'", path);
		memcpy(first, path, n);
		first[n] = '\0';
		for (int k = c->sp - 1; k >= 0 && !found; k--) {
			int i = ctf_struct_find(c->stack[k].t, first, c->stack[k].cur);
			if (i < 0)
				continue;
			r.up = (uint8_t) (c->sp - 1 - k);
			r.chain[0] = (uint16_t) i;
			if (follow(c, c->stack[k].t->s.fields[i].type, dot ? dot + 1 : "", &r, 1,
			           target))
				return fail(c, "cannot resolve field path '%s'", path);
			found = 1;
		}
		/* Then the scopes decoded before this one, nearest first. */
		static const int earlier[] = {
		    SPOOR_SCOPE_EVENT_CONTEXT, SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
		    SPOOR_SCOPE_EVENT_HEADER, SPOOR_SCOPE_PACKET_CONTEXT, PLAN_SCOPE_PACKET_HEADER};
		for (unsigned e = 0; e < 5 && !found; e++) {
			const struct ctf_type *root = c->scopes->type[earlier[e]];
			if (earlier[e] == c->scope || !root)
				continue;
			r = (struct ref){.scope = (int8_t) earlier[e]};
			if (!follow(c, root, path, &r, 0, target))
				found = 1;
		}
		if (!found)
			return fail(c, "cannot resolve field path '%s'", path);
	}
	if ((*target)->kind != CTF_INT && (*target)->kind != CTF_ENUM)
		return fail(c, "field '%s' is used as a length or tag but is not an integer", path);
	const struct ctf_type *it = (*target)->kind == CTF_ENUM ? (*target)->e.container : *target;
	r.is_signed = it->i.is_signed;
	if (grow((void **) &c->refs, &c->cap_refs, c->nrefs, sizeof(r)))
		return -1;
	c->refs[c->nrefs] = r;
	*out = c->nrefs++;
	return 0;
}

static int emit(struct compiler *c, const struct ctf_type *t, const char *name);

static int emit_int(struct compiler *c, const struct ctf_type *t, const struct ctf_type *it,
                    const char *name)
{
	uint32_t i = new_op(c, t, OP_INT);
	if (i == UINT32_MAX)
		return -1;
	struct op *op = &c->ops[i];
	op->size = (uint16_t) it->i.size;
	op->min_bits = it->i.size;
	op->flags =
	    (it->i.is_signed ? OPF_SIGNED : 0) | (ctf_bo(c->m, it->i.bo) == CTF_BO_BE ? OPF_BE : 0);
	/* The packet context's timestamps are handled by the stream reader: timestamp_end must
	 * not move the clock that the next events are reconstructed from. */
	if (it->i.map_clock && c->scope != SPOOR_SCOPE_PACKET_CONTEXT)
		op->flags |= OPF_CLOCK;
	if (c->scope == SPOOR_SCOPE_EVENT_HEADER && name && !strcmp(name, "id"))
		op->flags |= OPF_EVENT_ID;
	op->next = c->nops;
	return 0;
}

static bool label_matches(const char *option, const char *label)
{
	return !strcmp(option, label) || (option[0] == '_' && !strcmp(option + 1, label));
}

static int emit_variant(struct compiler *c, const struct ctf_type *t)
{
	const struct ctf_type *tag;
	uint32_t ref;

	if (!t->tag.text)
		return fail(c, "variant without a tag%s", "");
	if (resolve(c, t->tag.text, &ref, &tag))
		return -SPOOR_EMETA_SEMANTIC;
	if (tag->kind != CTF_ENUM)
		return fail(c, "variant tag '%s' is not an enum", t->tag.text);
	uint32_t i = new_op(c, t, OP_VARIANT);
	if (i == UINT32_MAX || grow((void **) &c->vars, &c->cap_vars, c->nvars, sizeof(*c->vars)))
		return -1;
	struct variant_table *vt = &c->vars[c->nvars];
	memset(vt, 0, sizeof(*vt));
	vt->ref = ref;
	vt->tag_signed = tag->e.container->i.is_signed;
	vt->ranges = arena_alloc(c->a, (tag->e.n + 1) * sizeof(*vt->ranges));
	vt->option_ops = arena_alloc(c->a, (t->s.n + 1) * sizeof(*vt->option_ops));
	if (!vt->ranges || !vt->option_ops)
		return -1;
	for (unsigned e = 0; e < tag->e.n; e++)
		for (unsigned o = 0; o < t->s.n; o++)
			if (label_matches(t->s.fields[o].name, tag->e.entries[e].label)) {
				vt->ranges[vt->nranges++] = (struct variant_range){
				    tag->e.entries[e].lo, tag->e.entries[e].hi, o};
				break;
			}
	vt->noptions = t->s.n;
	c->ops[i].arg = c->nvars++;
	uint32_t min = UINT32_MAX;
	for (unsigned o = 0; o < t->s.n; o++) {
		c->vars[c->ops[i].arg].option_ops[o] = c->nops;
		uint32_t at = c->nops;
		if (emit(c, t->s.fields[o].type, t->s.fields[o].name))
			return -1;
		if (c->ops[at].min_bits < min)
			min = c->ops[at].min_bits;
	}
	c->ops[i].min_bits = min == UINT32_MAX ? 0 : min;
	c->ops[i].next = c->nops;
	return 0;
}

static int emit_type(struct compiler *c, const struct ctf_type *t, const char *name);

/* Depth-limited: typedefs can nest arrays beyond what the parser's scopes count. */
static int emit(struct compiler *c, const struct ctf_type *t, const char *name)
{
	if (++c->depth > 2 * TSDL_MAX_DEPTH)
		return fail(c, "types nested too deeply%s", "");
	int rc = emit_type(c, t, name);
	c->depth--;
	return rc;
}

static int emit_type(struct compiler *c, const struct ctf_type *t, const char *name)
{
	uint32_t i, ref;
	const struct ctf_type *target;

	switch (t->kind) {
	case CTF_INT: return emit_int(c, t, t, name);
	case CTF_ENUM: return emit_int(c, t, t->e.container, name);
	case CTF_FLOAT:
		i = new_op(c, t, t->f.mant_dig == 24 ? OP_FLOAT32 : OP_FLOAT64);
		if (i == UINT32_MAX)
			return -1;
		c->ops[i].size = (uint16_t) (t->f.exp_dig + t->f.mant_dig);
		c->ops[i].min_bits = c->ops[i].size;
		c->ops[i].flags = ctf_bo(c->m, t->f.bo) == CTF_BO_BE ? OPF_BE : 0;
		c->ops[i].next = c->nops;
		return 0;
	case CTF_STRING:
		i = new_op(c, t, OP_STRING);
		if (i == UINT32_MAX)
			return -1;
		c->ops[i].min_bits = 8;
		c->ops[i].next = c->nops;
		return 0;
	case CTF_STRUCT: {
		i = new_op(c, t, OP_STRUCT);
		if (i == UINT32_MAX || c->sp >= 2 * TSDL_MAX_DEPTH + 1)
			return -1;
		c->ops[i].arg = t->s.n;
		c->stack[c->sp].t = t;
		c->sp++;
		uint64_t min = 0;
		for (unsigned f = 0; f < t->s.n; f++) {
			c->stack[c->sp - 1].cur = f;
			uint32_t at = c->nops;
			if (emit(c, t->s.fields[f].type, t->s.fields[f].name))
				return -1;
			min += c->ops[at].min_bits;
		}
		c->sp--;
		c->ops[i].min_bits = min > UINT32_MAX ? UINT32_MAX : (uint32_t) min;
		bool flat = true;
		for (uint32_t m = i + 1; m < c->nops && flat; m = c->ops[m].next) {
			uint8_t code = c->ops[m].code;
			flat = code == OP_INT || code == OP_FLOAT32 || code == OP_FLOAT64 ||
			       code == OP_STRING || code == OP_TEXT_ARRAY;
		}
		if (flat)
			c->ops[i].flags |= OPF_FLAT;
		c->ops[i].next = c->nops;
		return 0;
	}
	case CTF_ARRAY:
	case CTF_SEQUENCE: {
		bool text = ctf_type_is_text_array(t);
		bool seq = t->kind == CTF_SEQUENCE;
		if (seq && resolve(c, t->a.path.text, &ref, &target))
			return -SPOOR_EMETA_SEMANTIC;
		if (!seq && t->a.len > UINT32_MAX)
			return fail(c, "array length too large in '%s'", name ? name : "?");
		i = new_op(c, t,
		           text ? (seq ? OP_TEXT_SEQ : OP_TEXT_ARRAY)
		                : (seq ? OP_SEQUENCE : OP_ARRAY));
		if (i == UINT32_MAX)
			return -1;
		c->ops[i].arg = seq ? ref : (uint32_t) t->a.len;
		if (!text && emit(c, t->a.elem, NULL))
			return -1;
		uint64_t elem_min = text ? 8 : c->ops[i + 1].min_bits;
		uint64_t min = seq ? 0 : elem_min * t->a.len;
		c->ops[i].min_bits = min > UINT32_MAX ? UINT32_MAX : (uint32_t) min;
		c->ops[i].next = c->nops;
		return 0;
	}
	case CTF_VARIANT: return emit_variant(c, t);
	}
	return -1;
}

/* A root member at bit pos, with how to read it in place when that is plain loads. */
static struct plan_member fast_member(const struct op *op, uint32_t i, uint64_t pos)
{
	struct plan_member m = {i, (uint32_t) pos, PLAN_FAST_NONE, 0};
	if (pos % 8 || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		return m;
	if (op->code == OP_INT && !(op->flags & OPF_BE) &&
	    (op->size == 8 || op->size == 16 || op->size == 32 || op->size == 64)) {
		m.fast = op->flags & OPF_SIGNED ? PLAN_FAST_SINT : PLAN_FAST_UINT;
		m.len = op->size / 8;
	} else if (op->code == OP_TEXT_ARRAY) {
		m.fast = PLAN_FAST_TEXT;
		m.len = op->arg;
	}
	return m;
}

/* A layout is fixed when nothing in it has a data-dependent size and no member needs more
 * alignment than the whole: then it always spans the same bits from an aligned start. Until
 * the first member that breaks that, the root's members start at fixed offsets. */
static int compute_fixed(struct arena *a, struct plan *p)
{
	uint64_t pos = 0;
	uint32_t root_align = p->nops ? p->ops[0].align : 1;
	bool root_struct = p->nops && p->ops[0].code == OP_STRUCT;
	uint32_t member = 1; /* op index of the root's next member */

	p->fixed = false;
	p->nmembers = 0;
	p->members = arena_alloc(a, ((root_struct ? p->ops[0].arg : 0) + 1) * sizeof(*p->members));
	if (!p->members)
		return -1;
	for (uint32_t i = 0; i < p->nops; i++) {
		const struct op *op = &p->ops[i];
		if (op->align > root_align || (op->flags & (OPF_CLOCK | OPF_EVENT_ID)))
			return 0;
		pos = (pos + op->align - 1) & ~(uint64_t) (op->align - 1);
		if (root_struct && i == member && pos <= UINT32_MAX) {
			p->members[p->nmembers++] = fast_member(op, i, pos);
			member = op->next;
		}
		switch (op->code) {
		case OP_INT:
		case OP_FLOAT32:
		case OP_FLOAT64: pos += op->size; break;
		case OP_TEXT_ARRAY: pos += (uint64_t) op->arg * 8; break;
		case OP_STRUCT: break;
		case OP_ARRAY:
			if (op->arg == 0) {
				i = op->next - 1;
				break;
			}
			/* Only arrays of plain scalars, whose elements pack without gaps. */
			if (op->next != i + 2 || p->ops[i + 1].code != OP_INT ||
			    p->ops[i + 1].size % p->ops[i + 1].align)
				return 0;
			pos += (uint64_t) op->arg * p->ops[i + 1].size;
			i++;
			break;
		default: return 0;
		}
	}
	p->fixed = true;
	p->fixed_align = root_align;
	p->fixed_bits = pos;
	return 0;
}

/* A packed array element: a scalar whose elements follow each other without padding. */
static bool packed_elem(const struct op *elem)
{
	return (elem->code == OP_INT || elem->code == OP_FLOAT32 || elem->code == OP_FLOAT64) &&
	       !(elem->flags & (OPF_CLOCK | OPF_EVENT_ID)) && elem->size % elem->align == 0;
}

/* The skip program of a variable layout (plan.h), when its shape allows one. */
static int compile_skip(struct arena *a, struct plan *p)
{
	const struct op *ops = p->ops;
	bool used[PLAN_SKIP_SLOTS] = {false}; /* members that are lengths */

	if (p->fixed || !p->nops || ops[0].code != OP_STRUCT || ops[0].arg > PLAN_SKIP_SLOTS)
		return 0;
	uint32_t nm = ops[0].arg, i = 1;
	for (uint32_t m = 0; m < nm; m++, i = ops[i].next) {
		if (ops[i].code != OP_SEQUENCE && ops[i].code != OP_TEXT_SEQ)
			continue;
		const struct ref *r = &p->refs[ops[i].arg];
		/* a length among this struct's earlier integers */
		if (r->scope >= 0 || r->up != 0 || r->depth != 1 || r->chain[0] >= m)
			return 0;
		used[r->chain[0]] = true;
	}
	struct skip_op *v = arena_alloc(a, (nm + 1) * sizeof(*v));
	struct skip_member *mem = arena_alloc(a, (nm + 1) * sizeof(*mem));
	if (!v || !mem)
		return -1;
	uint32_t n = 0;
	v[n++] = (struct skip_op){.kind = SKIP_BITS, .align = ops[0].align};
	i = 1;
	for (uint32_t m = 0; m < nm; m++, i = ops[i].next) {
		const struct op *op = &ops[i], *elem = &ops[i + 1];
		struct skip_op k = {.align = op->align, .slot = (uint16_t) m};
		uint64_t bits = 0;
		if (op->flags & (OPF_CLOCK | OPF_EVENT_ID))
			return 0;
		switch (op->code) {
		case OP_INT:
			k.kind = used[m] ? SKIP_INT : SKIP_BITS;
			k.size = op->size;
			k.flags = op->flags;
			bits = op->size;
			break;
		case OP_FLOAT32:
		case OP_FLOAT64: bits = op->size; break;
		case OP_TEXT_ARRAY: bits = (uint64_t) op->arg * 8; break;
		case OP_STRING: k.kind = SKIP_STRING; break;
		case OP_ARRAY:
			if (op->next != i + 2 || !packed_elem(elem))
				return 0;
			bits = (uint64_t) op->arg * elem->size;
			if (elem->align > k.align)
				k.align = elem->align;
			break;
		case OP_SEQUENCE:
		case OP_TEXT_SEQ:
			k.slot = p->refs[op->arg].chain[0];
			k.kind = op->code == OP_SEQUENCE ? SKIP_SEQ : SKIP_TEXT_SEQ;
			if (op->code == OP_SEQUENCE) {
				if (op->next != i + 2 || !packed_elem(elem))
					return 0;
				k.size = elem->size;
				if (elem->align > k.align)
					k.align = elem->align;
			}
			break;
		default: return 0;
		}
		if (bits > UINT32_MAX)
			return 0;
		k.bits = (uint32_t) bits;
		struct skip_op *last = &v[n - 1];
		/* a fixed-size member after a run of them: the padding between is known */
		if (k.kind == SKIP_BITS && last->kind == SKIP_BITS && k.align <= last->align) {
			uint64_t at = (last->bits + k.align - 1) & ~(uint64_t) (k.align - 1);
			if (at + k.bits <= UINT32_MAX) {
				mem[m] = (struct skip_member){n - 1, (uint32_t) at, i};
				last->bits = (uint32_t) (at + k.bits);
				continue;
			}
		}
		mem[m] = (struct skip_member){n, 0, i};
		v[n++] = k;
	}
	/* the slots an integer step fills must be the lengths' (checked by `used`) */
	for (uint32_t k = 0; k < n; k++)
		if ((v[k].kind == SKIP_SEQ || v[k].kind == SKIP_TEXT_SEQ) &&
		    v[mem[v[k].slot].step].kind != SKIP_INT)
			return 0;
	p->skip = v;
	p->nskip = n;
	p->skip_members = mem;
	return 0;
}

static bool variable_step(const struct skip_op *o)
{
	return o->kind == SKIP_STRING || o->kind == SKIP_SEQ || o->kind == SKIP_TEXT_SEQ;
}

/* The one step of data-dependent size of a skip program, when there is exactly one and at most
 * one fixed step (the tail) after it; UINT32_MAX otherwise. */
static uint32_t lone_variable_step(const struct plan *p)
{
	uint32_t var = UINT32_MAX;

	for (uint32_t k = 0; k < p->nskip; k++) {
		if (!variable_step(&p->skip[k]))
			continue;
		if (var != UINT32_MAX)
			return UINT32_MAX;
		var = k;
	}
	if (var == UINT32_MAX || p->nskip - var > 2 ||
	    (p->nskip - var == 2 && p->skip[var + 1].kind != SKIP_BITS))
		return UINT32_MAX;
	return var;
}

/* A length read as plain little-endian bytes. */
static bool plain_length(const struct skip_op *o, uint64_t bit)
{
	bool le = !(o->flags & OPF_BE) || o->size == 8;
	return bit % 8 == 0 && le &&
	       (o->size == 8 || o->size == 16 || o->size == 32 || o->size == 64);
}

/* The members of a plan_one_var's tail (step tail of the skip program), from first on, into
 * t, each with how to read it in place; false when one is elsewhere. */
static bool one_var_tail_members(const struct plan *p, uint32_t tail, uint32_t first,
                                 struct plan_member *t)
{
	for (uint32_t m = first; m < p->ops[0].arg; m++) {
		const struct skip_member *sm = &p->skip_members[m];
		if (sm->step != tail)
			return false;
		t[m - first] = fast_member(&p->ops[sm->op], sm->op, sm->off);
	}
	return true;
}

/* A skip program of plan_one_var's shape (plan.h), described as one: the steps before the
 * variable one at fixed offsets (none aligns more than the root, whose start is aligned),
 * everything in whole bytes. -1: out of memory. */
static int compile_one_var(struct arena *a, struct plan *p)
{
	uint32_t var = p->skip ? lone_variable_step(p) : UINT32_MAX;

	if (var == UINT32_MAX || p->ops[0].align % 8 || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		return 0;
	const struct skip_op *v = p->skip, *o = &v[var];
	struct plan_one_var g = {.kind = o->kind, .root_align = p->ops[0].align};
	uint32_t len_step = o->kind == SKIP_STRING ? UINT32_MAX : p->skip_members[o->slot].step;
	uint64_t pos = 0;
	for (uint32_t k = 0; k <= var; k++) {
		if (v[k].align > g.root_align)
			return 0;
		pos = (pos + v[k].align - 1) & ~(uint64_t) (v[k].align - 1);
		if (k == len_step) {
			if (k >= var || v[k].kind != SKIP_INT || !plain_length(&v[k], pos))
				return 0;
			g.len_byte = (uint32_t) (pos / 8);
			g.len_bytes = (uint8_t) (v[k].size / 8);
			g.len_signed = v[k].flags & OPF_SIGNED;
		}
		if (k < var)
			pos += v[k].bits;
		if (pos > UINT32_MAX)
			return 0;
	}
	g.var_bit = (uint32_t) pos;
	g.nmembers = p->ops[0].arg;
	/* skip_walk's limits: values for a sequence, the data left for text (len * 8 fits) */
	g.elem_bits = o->kind == SKIP_SEQ ? o->size : 8;
	g.max_len = o->kind == SKIP_SEQ ? DECODE_MAX_VALS : UINT64_MAX / 8;
	if (g.var_bit % 8 || g.elem_bits % 8)
		return 0;
	/* the variable member is its step's only one; the tail starts where it ends, on a byte */
	g.first_tail = g.nmembers;
	for (uint32_t m = 0; m < g.nmembers; m++)
		if (p->skip_members[m].step == var)
			g.first_tail = m + 1;
	if (var + 1 < p->nskip) {
		if (v[var + 1].align > 8)
			return 0;
		g.tail_bits = v[var + 1].bits;
	}
	struct plan_member *tail = arena_alloc(a, (g.nmembers - g.first_tail + 1) * sizeof(*tail));
	if (!tail)
		return -1;
	if (!one_var_tail_members(p, var + 1, g.first_tail, tail))
		return 0;
	g.tail = tail;
	p->one_var = g;
	p->has_one_var = true;
	return 0;
}

/* struct { enum id; variant <id> { struct { ts } compact; struct { id; ts } extended; } v; } */
static void detect_lttng_header(struct plan *p)
{
	const struct op *o = p->ops;

	if (p->nops != 8 || o[0].code != OP_STRUCT || o[0].arg != 2 || o[1].code != OP_INT ||
	    !(o[1].flags & OPF_EVENT_ID) || o[1].size > 32 || o[2].code != OP_VARIANT ||
	    o[3].code != OP_STRUCT || o[3].arg != 1 || o[4].code != OP_INT ||
	    !(o[4].flags & OPF_CLOCK) || o[5].code != OP_STRUCT || o[5].arg != 2 ||
	    o[6].code != OP_INT || !(o[6].flags & OPF_EVENT_ID) || o[7].code != OP_INT ||
	    !(o[7].flags & OPF_CLOCK))
		return;
	/* decode_lttng_header reads them as unsigned, with no other role */
	if ((o[1].flags | o[6].flags) & (OPF_SIGNED | OPF_CLOCK) ||
	    (o[4].flags | o[7].flags) & (OPF_SIGNED | OPF_EVENT_ID))
		return;
	/* and in one byte order */
	if ((o[1].flags ^ o[4].flags) & OPF_BE || (o[1].flags ^ o[6].flags) & OPF_BE ||
	    (o[1].flags ^ o[7].flags) & OPF_BE)
		return;
	const struct variant_table *vt = &p->variants[o[2].arg];
	const struct ref *r = &p->refs[vt->ref];
	uint64_t ext = ((uint64_t) 1 << o[1].size) - 1;
	if (r->scope >= 0 || r->up != 0 || r->depth != 1 || r->chain[0] != 0 || vt->noptions != 2 ||
	    vt->option_ops[0] != 3 || vt->option_ops[1] != 5 || vt->nranges != 2)
		return;
	/* compact for 0 .. ext-1, extended for ext exactly */
	for (uint32_t k = 0; k < 2; k++) {
		const struct variant_range *vr = &vt->ranges[k];
		bool ok = vr->option == 0 ? vr->lo == 0 && (uint64_t) vr->hi == ext - 1
		                          : (uint64_t) vr->lo == ext && (uint64_t) vr->hi == ext;
		if (!ok)
			return;
	}
	p->lttng_header = true;
	p->extended_tag = ext;
	if (o[1].flags & OPF_BE)
		return;
	for (int k = 1; k < 8; k++)
		if (o[k].align > o[0].align)
			return;
	/* the offsets lttng_header reaches from an aligned start */
	uint32_t id_end = o[1].size;
	uint32_t c = (id_end + o[3].align - 1) & ~(o[3].align - 1);
	c = (c + o[4].align - 1) & ~(o[4].align - 1);
	p->hdr_ts_off[0] = (uint16_t) c;
	p->hdr_total[0] = (uint16_t) (c + o[4].size);
	uint32_t e = (id_end + o[5].align - 1) & ~(o[5].align - 1);
	e = (e + o[6].align - 1) & ~(o[6].align - 1);
	p->hdr_ext_id_off = (uint16_t) e;
	e = (e + o[6].size + o[7].align - 1) & ~(o[7].align - 1);
	p->hdr_ts_off[1] = (uint16_t) e;
	p->hdr_total[1] = (uint16_t) (e + o[7].size);
	/* each field within one 64-bit load from its first byte (the start is byte-aligned) */
	if (o[0].align % 8 || o[1].size > 57 || p->hdr_ts_off[0] % 8 + o[4].size > 64 ||
	    p->hdr_ext_id_off % 8 + o[6].size > 64 || p->hdr_ts_off[1] % 8 + o[7].size > 64)
		return;
	p->hdr_ts_size[0] = (uint8_t) o[4].size;
	p->hdr_ts_size[1] = (uint8_t) o[7].size;
	p->hdr_id_mask = bits_mask(o[1].size);
	p->hdr_ext_id_mask = bits_mask(o[6].size);
	p->hdr_ts_mask[0] = bits_mask(o[4].size);
	p->hdr_ts_mask[1] = bits_mask(o[7].size);
	p->hdr_fixed = true;
	p->hdr_compact = o[0].align == 8 && o[1].size == 5 && ext == 31 && o[4].size == 27 &&
	                 p->hdr_ts_off[0] == 5 && p->hdr_total[0] == 32 && o[6].size == 32 &&
	                 p->hdr_ext_id_off == 8 && o[7].size == 64 && p->hdr_ts_off[1] == 40 &&
	                 p->hdr_total[1] == 104;
	p->hdr_large = o[0].align == 8 && o[1].size == 16 && ext == 65535 && o[4].size == 32 &&
	               p->hdr_ts_off[0] == 16 && p->hdr_total[0] == 48 && o[6].size == 32 &&
	               p->hdr_ext_id_off == 16 && o[7].size == 64 && p->hdr_ts_off[1] == 48 &&
	               p->hdr_total[1] == 112;
}

int plan_compile(struct arena *a, const struct ctf_meta *m, const struct plan_scopes *scopes,
                 int scope, struct plan **out, char *err, size_t errlen)
{
	struct compiler c = {
	    .a = a, .m = m, .scopes = scopes, .scope = scope, .err = err, .errlen = errlen};
	struct plan *p = arena_alloc(a, sizeof(*p));
	int rc = 0;

	if (!p)
		return -SPOOR_ELIMIT;
	const struct ctf_type *t = scopes->type[scope];
	if (t && emit(&c, t, NULL)) {
		if (!err[0])
			snprintf(err, errlen, "metadata too large to compile");
		rc = -SPOOR_EMETA_SEMANTIC;
		goto out;
	}
	p->nops = c.nops;
	p->nrefs = c.nrefs;
	p->nvariants = c.nvars;
	p->ops = arena_alloc(a, (c.nops + 1) * sizeof(*p->ops));
	p->refs = arena_alloc(a, (c.nrefs + 1) * sizeof(*p->refs));
	p->variants = arena_alloc(a, (c.nvars + 1) * sizeof(*p->variants));
	if (!p->ops || !p->refs || !p->variants) {
		rc = -SPOOR_ELIMIT;
		goto out;
	}
	if (c.nops)
		memcpy(p->ops, c.ops, c.nops * sizeof(*p->ops));
	if (c.nrefs)
		memcpy(p->refs, c.refs, c.nrefs * sizeof(*p->refs));
	if (c.nvars)
		memcpy(p->variants, c.vars, c.nvars * sizeof(*p->variants));
	if (compute_fixed(a, p) || compile_skip(a, p) || compile_one_var(a, p)) {
		rc = -SPOOR_ELIMIT;
		goto out;
	}
	if (scope == SPOOR_SCOPE_EVENT_HEADER)
		detect_lttng_header(p);
	*out = p;
out:
	free(c.ops);
	free(c.refs);
	free(c.vars);
	return rc;
}
