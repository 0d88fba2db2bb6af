/* SPDX-License-Identifier: MIT */
/*
 * header-fast.h: the per-event fast path of LTTng's event headers, inline in the stream
 * reader's loop; decode_header (decode.c) does every other case and reports damage.
 */
#ifndef CTF_HEADER_FAST_H
#define CTF_HEADER_FAST_H

#include <stdbool.h>
#include <string.h>

#include "bits.h"
#include "decode.h"

/* CTF 1.8 section 8: an N-bit timestamp holds the clock's low bits; a value below the
 * current low bits means the clock wrapped once. The clock after timestamp x. */
static inline uint64_t clock_next(uint64_t clock, unsigned size, uint64_t x)
{
	if (size >= 64)
		return x;
	uint64_t mask = bits_mask(size);
	uint64_t next = (clock & ~mask) | x;
	if (x < (clock & mask))
		next += mask + 1;
	return next;
}

static inline void clock_update(uint64_t *clock, unsigned size, uint64_t x)
{
	*clock = clock_next(*clock, size, x);
}

/* Whether a stream's clock may move from clock to next: not backwards, and not past max
 * (its packet's timestamp_end, or the last value whose time in ns fits). One compare, as
 * clock <= max holds throughout a packet (stream.c: packet_open checks it). */
static inline bool clock_in_order(uint64_t clock, uint64_t next, uint64_t max)
{
	return next - clock <= max - clock;
}

/* A header read (the fast path here or decode_header): the clock moves on, the id and the
 * raw values are kept for decode_header_values. */
static inline void header_done(struct decoder *d, const struct plan *p, uint64_t id,
                               uint64_t event_id, uint64_t ext_id, unsigned ts_size, uint64_t ts)
{
	clock_update(d->clock, ts_size, ts);
	d->event_id = event_id;
	d->has_event_id = 1;
	d->hdr_plan = p;
	d->hdr_at = NULL;
	d->hdr_id = id;
	d->hdr_ext_id = ext_id;
	d->hdr_ts = ts;
}

/* The bits at bit offset off of p, within its first 8 bytes (readable), masked. */
static inline uint64_t load_field(const uint8_t *p, unsigned off, uint64_t mask)
{
	uint64_t w;

	memcpy(&w, p + off / 8, 8);
	return (w >> (off % 8)) & mask;
}

/* The fields of a little-endian LTTng header at fixed offsets (plan.h: hdr_fixed) whose
 * aligned start is at (8 bytes past its largest form readable): its id, extended id (0
 * when compact) and timestamp; true when extended. */
static inline bool header_fields_at(const struct plan *p, const uint8_t *at, uint64_t *id,
                                    uint64_t *ext_id, uint64_t *ts)
{
	*id = load_field(at, 0, p->hdr_id_mask);
	bool ext = *id == p->extended_tag;
	*ext_id = ext ? load_field(at, p->hdr_ext_id_off, p->hdr_ext_id_mask) : 0;
	*ts = load_field(at, p->hdr_ts_off[ext], p->hdr_ts_mask[ext]);
	return ext;
}

/* A little-endian LTTng header at fixed offsets (plan.h: hdr_fixed): a few loads, no
 * alignment steps. False when decode_header must do it (it then reports any damage). */
static inline bool decode_header_fast(struct decoder *d, const struct plan *p)
{
	struct bitsrc *s = d->src;
	uint32_t align = p->ops[0].align;
	uint64_t pos = (s->pos + align - 1) & ~(uint64_t) (align - 1), end = s->end_bits;

	/* the largest header and a load past its end must be in the mapping */
	if (pos > end || p->hdr_total[1] > end - pos ||
	    pos / 8 + p->hdr_total[1] / 8 + 8 > s->avail)
		return false;
	uint64_t id, ext_id, ts;
	bool ext = header_fields_at(p, s->base + pos / 8, &id, &ext_id, &ts);
	s->pos = pos + p->hdr_total[ext];
	header_done(d, p, id, ext ? ext_id : id, ext_id, p->hdr_ts_size[ext], ts);
	return true;
}

#endif
