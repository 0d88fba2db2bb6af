/* SPDX-License-Identifier: MIT */
/*
 * values.c: prints decoded field values the way babeltrace2's text sink does
 * (plugins/text/pretty/print.c), so both spoor formats share one value printer.
 *
 * babeltrace2 hides fields that its CTF source gives a meaning to (packet sizes, packet
 * timestamps, the events-discarded counter, the sequence number) and integers mapped to a
 * clock; a struct whose members are all hidden is hidden too.
 */
#include <stdio.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "values.h"

static const char *const packet_meanings[] = {"timestamp_begin",  "timestamp_end",
                                              "content_size",     "packet_size",
                                              "events_discarded", "packet_seq_num"};

static bool type_shown(const struct ctf_type *t, int depth);

/* Cached in the type: the answer depends on the type alone and types never change. */
bool fmt_type_shown(const struct ctf_type *t, int depth)
{
	if (!t->shown) {
		struct ctf_type *w = (struct ctf_type *) t;
		w->shown = type_shown(t, depth) ? 1 : -1;
	}
	return t->shown > 0;
}

static bool type_shown(const struct ctf_type *t, int depth)
{
	if (depth > 200)
		return false;
	switch (t->kind) {
	case CTF_INT: return !t->i.map_clock;
	case CTF_ENUM: return !t->e.container->i.map_clock;
	case CTF_ARRAY:
	case CTF_SEQUENCE: return fmt_type_shown(t->a.elem, depth + 1);
	case CTF_STRUCT:
	case CTF_VARIANT:
		if (!t->s.n)
			return true; /* babeltrace2 prints an empty struct as { } */
		for (unsigned i = 0; i < t->s.n; i++)
			if (fmt_type_shown(t->s.fields[i].type, depth + 1))
				return true;
		return false;
	default: return true;
	}
}

static bool member_shown(const struct ctf_type *st, unsigned i, bool packet_context_root)
{
	const struct ctf_field *f = &st->s.fields[i];

	if (packet_context_root && (f->type->kind == CTF_INT || f->type->kind == CTF_ENUM))
		for (unsigned k = 0; k < sizeof(packet_meanings) / sizeof(packet_meanings[0]); k++)
			if (!strcmp(f->name, packet_meanings[k]))
				return false;
	return fmt_type_shown(f->type, 0);
}

/* Cached per member: the per-event cost is one load. */
bool fmt_member_shown(const struct ctf_type *st, unsigned i, bool packet_context_root)
{
	struct ctf_field *f = (struct ctf_field *) &st->s.fields[i];
	signed char *c = &f->visible[packet_context_root];

	if (!*c)
		*c = member_shown(st, i, packet_context_root) ? 1 : -1;
	return *c > 0;
}

bool fmt_scope_shown(const struct ctf_type *st, bool packet_context_root)
{
	if (!st)
		return false;
	signed char *c = &((struct ctf_type *) st)->scope_shown[packet_context_root];
	if (!*c) {
		bool any = !st->s.n;
		for (unsigned i = 0; i < st->s.n && !any; i++)
			any = fmt_member_shown(st, i, packet_context_root);
		*c = any ? 1 : -1;
	}
	return *c > 0;
}

/* Bytes babeltrace2 escapes: control characters, DEL, \\ ' " and ?. */
static const unsigned char needs_escape[256] = {
    [0 ... 0x1f] = 1, ['\\'] = 1, ['\''] = 1, ['"'] = 1, ['?'] = 1, [0x7f] = 1,
};

#ifdef __SSE2__
/* The 16 bytes of x that babeltrace2 escapes, as a bit mask. */
static inline int escape_mask(__m128i x)
{
	const __m128i c1f = _mm_set1_epi8(0x1f);
	__m128i bad = _mm_cmpeq_epi8(_mm_max_epu8(x, c1f), c1f); /* x <= 0x1f */
	bad = _mm_or_si128(bad, _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
	bad = _mm_or_si128(bad, _mm_cmpeq_epi8(x, _mm_set1_epi8('\'')));
	bad = _mm_or_si128(bad, _mm_cmpeq_epi8(x, _mm_set1_epi8('"')));
	bad = _mm_or_si128(bad, _mm_cmpeq_epi8(x, _mm_set1_epi8('?')));
	bad = _mm_or_si128(bad, _mm_cmpeq_epi8(x, _mm_set1_epi8(0x7f)));
	return _mm_movemask_epi8(bad);
}

static inline uint64_t load8(const char *p)
{
	uint64_t x;
	memcpy(&x, p, 8);
	return x;
}
#endif

/* Whether none of s's n bytes is escaped: 16 at a time, never reading past them. */
static inline bool all_plain(const char *s, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	if (n >= 16) {
		for (; i + 16 <= n; i += 16)
			if (escape_mask(_mm_loadu_si128((const __m128i *) (const void *) (s + i))))
				return false;
		/* the rest within the last 16 bytes, read again in part */
		return i == n ||
		       !escape_mask(_mm_loadu_si128((const __m128i *) (const void *) (s + n - 16)));
	}
	if (n >= 8) /* two 8-byte loads that overlap */
		return !escape_mask(
		    _mm_set_epi64x((long long) load8(s + n - 8), (long long) load8(s)));
#endif
	while (i < n && !needs_escape[(unsigned char) s[i]])
		i++;
	return i == n;
}

int fmt_string(struct outbuf *o, const char *s, size_t n)
{
	if (all_plain(s, n)) { /* the common case: nothing to escape */
		if (outbuf_room(o, n + 2))
			return -1;
		outbuf_putc(o, '"');
		outbuf_put(o, s, n);
		outbuf_putc(o, '"');
		return 0;
	}
	/* Worst case: every byte becomes \xNN. */
	if (outbuf_room(o, 4 * n + 2))
		return -1;
	outbuf_putc(o, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char) s[i];
		switch (c) {
		case '\\': outbuf_lit(o, "\\\\"); continue;
		case '\'': outbuf_lit(o, "\\'"); continue;
		case '"': outbuf_lit(o, "\\\""); continue;
		case '?': outbuf_lit(o, "\\?"); continue;
		}
		if (c >= 0x20 && c != 0x7f) {
			outbuf_putc(o, (char) c);
			continue;
		}
		switch (c) {
		case '\a': outbuf_lit(o, "\\a"); break;
		case '\b': outbuf_lit(o, "\\b"); break;
		case 0x1b: outbuf_lit(o, "\\e"); break;
		case '\f': outbuf_lit(o, "\\f"); break;
		case '\n': outbuf_lit(o, "\\n"); break;
		case '\r': outbuf_lit(o, "\\r"); break;
		case '\t': outbuf_lit(o, "\\t"); break;
		case '\v': outbuf_lit(o, "\\v"); break;
		default: {
			static const char hex[] = "0123456789abcdef";
			char b[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
			outbuf_put(o, b, 4);
		}
		}
	}
	outbuf_putc(o, '"');
	return 0;
}

static void print_int(struct outbuf *o, const struct ctf_type *it, uint64_t u)
{
	unsigned len = it->i.size;

	switch (it->i.base) {
	case CTF_BASE_HEX:
		if (len < 64)
			u &= ((uint64_t) 1 << ((len + 3) & ~3u)) - 1;
		outbuf_lit(o, "0x");
		outbuf_hex(o, u);
		break;
	case CTF_BASE_OCT: {
		if (it->i.is_signed && len < 64) {
			unsigned rounded = ((len - 1) / 3 + 1) * 3;
			if (rounded < 64)
				u &= ((uint64_t) 1 << rounded) - 1;
		}
		char tmp[24];
		int i = 24;
		do {
			tmp[--i] = (char) ('0' + (u & 7));
			u >>= 3;
		} while (u);
		outbuf_putc(o, '0');
		outbuf_put(o, tmp + i, (size_t) (24 - i));
		break;
	}
	case CTF_BASE_BIN:
		outbuf_lit(o, "0b");
		for (unsigned b = len; b-- > 0;)
			outbuf_putc(o, (u >> b) & 1 ? '1' : '0');
		break;
	default:
		if (it->i.is_signed)
			outbuf_s64(o, (int64_t) u);
		else
			outbuf_u64(o, u);
	}
}

static int print_enum(struct outbuf *o, const struct ctf_type *t, const struct val *v)
{
	const struct ctf_type *it = t->e.container;
	unsigned at = 0, printed = 0;
	const char *label;

	if (outbuf_room(o, 2))
		return -1;
	outbuf_lit(o, "( ");
	while ((label = ctf_enum_next_label(t, v->u, &at))) {
		if (printed++ && outbuf_str(o, ", ", 2))
			return -1;
		if (fmt_string(o, label, strlen(label)))
			return -1;
	}
	if (!printed && outbuf_str(o, "<unknown>", 9))
		return -1;
	if (outbuf_room(o, 96))
		return -1;
	outbuf_lit(o, " : container = ");
	print_int(o, it, v->u);
	outbuf_lit(o, " )");
	return 0;
}

int fmt_value(struct outbuf *o, const struct ctf_type *t, const struct val_table *tab, uint32_t vi,
              int depth)
{
	const struct val *v = &tab->v[vi];

	if (depth > 200)
		return -1;
	switch (t->kind) {
	case CTF_INT:
		if (outbuf_room(o, 80))
			return -1;
		print_int(o, t, v->u);
		return 0;
	case CTF_ENUM: return print_enum(o, t, v);
	case CTF_FLOAT: {
		char tmp[40];
		int n = snprintf(tmp, sizeof(tmp), "%g", v->f);
		return outbuf_str(o, tmp, (size_t) n);
	}
	case CTF_STRING: return fmt_string(o, v->str, v->len);
	case CTF_STRUCT: return fmt_struct(o, t, tab, vi, false, depth);
	case CTF_VARIANT:
		if (outbuf_str(o, "{ ", 2) ||
		    fmt_value(o, t->s.fields[v->len].type, tab, tab->kids[v->kids], depth + 1))
			return -1;
		return outbuf_str(o, " }", 2);
	case CTF_ARRAY:
	case CTF_SEQUENCE:
		if (ctf_type_is_text_array(t))
			return fmt_string(o, v->str, v->len);
		if (outbuf_str(o, "[", 1))
			return -1;
		for (uint32_t i = 0; i < v->len; i++) {
			if (outbuf_room(o, 32))
				return -1;
			outbuf_put(o, i ? ", [" : " [", i ? 3 : 2);
			outbuf_u64(o, i);
			outbuf_lit(o, "] = ");
			if (fmt_value(o, t->a.elem, tab, tab->kids[v->kids + i], depth + 1))
				return -1;
		}
		return outbuf_str(o, " ]", 2);
	}
	return -1;
}

int fmt_struct(struct outbuf *o, const struct ctf_type *t, const struct val_table *tab, uint32_t vi,
               bool packet_context_root, int depth)
{
	const struct val *v = &tab->v[vi];
	unsigned printed = 0;

	if (outbuf_str(o, "{", 1))
		return -1;
	for (unsigned i = 0; i < t->s.n && i < v->len; i++) {
		const struct ctf_field *f = &t->s.fields[i];
		if (!fmt_member_shown(t, i, packet_context_root))
			continue;
		size_t n = f->shown_len;
		if (outbuf_room(o, n + 5))
			return -1;
		if (printed++)
			outbuf_lit(o, ", ");
		else
			outbuf_putc(o, ' ');
		outbuf_put(o, f->shown, n);
		outbuf_lit(o, " = ");
		if (fmt_value(o, f->type, tab, tab->kids[v->kids + i], depth + 1))
			return -1;
	}
	return outbuf_str(o, " }", 2);
}
