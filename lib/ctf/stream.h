/* SPDX-License-Identifier: MIT */
/*
 * stream.h: walks one stream file packet by packet and event by event.
 *
 * The event header is decoded by ctf_stream_next(); the contexts and payload only on
 * demand (ctf_stream_decode), else skipped on the next call, without decoding when their
 * layout is fixed.
 */
#ifndef CTF_STREAM_H
#define CTF_STREAM_H

#include <stdbool.h>
#include <string.h>

#include "bits.h"
#include "decode.h"
#include "trace.h"
#include "util/mapfile.h"

struct ctf_stream {
	struct ctf_trace *trace;
	const char *path;
	size_t index;
	struct mapfile mf;
	/* the packet being read */
	uint64_t pkt_off;
	uint64_t pkt_bytes;
	uint64_t cut_bytes; /* the packet's declared size when the file ends inside it */
	struct bitsrc src;
	/* LTTng headers at fixed offsets (plan.h: hdr_fixed): the stream class's header plan,
	 * and the last position from which the largest header and an 8-byte load past it
	 * are within the packet's content (read_fast); NULL when the packet has no room */
	const struct plan *hdr_fast;
	uint64_t fast_limit;
	struct ctf_stream_class *sc;
	const struct stream_class_plans *scp;
	struct val_table pkt_table, ev_table;
	struct decoder dec;
	uint64_t clock;
	/* the packet's bounds on the clock: timestamp_begin (or where the clock stood), and
	 * timestamp_end or the last value whose ns fit in an int64_t; an event outside them,
	 * or before the one ahead of it, is damage (packet_open, next_slow) */
	uint64_t clock_min, clock_max;
	bool ns_at_1ghz; /* the clock counts ns: ts_ns is its value plus the origin's offset */
	int64_t cpu;
	uint64_t stream_id; /* stream class id */
	uint64_t instance_id;
	bool has_instance_id;
	uint64_t discarded_counter;                /* last events_discarded value seen */
	uint64_t discarded;                        /* total reported (wraps as the counter does) */
	bool lost_any;                             /* some packet said events were discarded */
	uint64_t overwritten_counter, overwritten; /* the same for events_overwritten */
	uint64_t seq_next;                         /* the packet_seq_num expected next */
	uint64_t packets_lost;                     /* gaps in packet_seq_num */
	uint64_t first_begin;          /* timestamp_begin of the first packet (cycles) */
	uint64_t prev_end;             /* timestamp_end of the last packet (cycles) */
	bool lost_range;               /* losses were found between... */
	uint64_t lost_begin, lost_end; /* ...these clock values (cycles) */
	uint64_t packets, bytes;
	uint64_t skipped_packets, skipped_bytes; /* of those, stepped over before a range */
	bool in_packet, done, damaged;
	char error[320];
	/* the current event */
	struct ctf_event_class *ec;
	const struct event_class_plans *ecp;
	uint64_t ts_cycles;
	int64_t ts_ns;
	int decoded;       /* last scope decoded (enum spoor_scope) */
	uint64_t ev_start; /* bit offset of the event in its packet */
	/* where the next event starts (fixed_end's answer), when the current one came by the
	 * fast path (take_event), is of a fixed size, ends on a byte within the content and
	 * nothing was decoded or stepped over since: ctf_stream_next's common case; UINT64_MAX
	 * otherwise */
	uint64_t next_at;
	/* events of classes passed over (ctf_event_class.pass_over) within [span_begin,
	 * span_end]: the first and last timestamps, so that a trace's span stays whole */
	int64_t span_begin, span_end;
	int64_t passed_first, passed_last;
	bool passed_any;
	/* where the current event's payload starts, byte-aligned, found at the first field
	 * read (ctf_stream_locate_payload); pay is NULL when its start depends on the data
	 * (its plan is ecp->payload, its room ctf_stream_pay_len) */
	bool pay_known;
	const uint8_t *pay;
	/* where the stream's packets end: the file's size, or a part's end (ctf_stream_open_at);
	 * last, so that the per-event fields above keep their places */
	uint64_t file_end;
};

/* Map the file and read its first packet header, to learn the stream class, the cpu and the
 * stream instance id. Errors name the file and offset in s->error. */
int ctf_stream_open(struct ctf_stream *s, struct ctf_trace *t, const char *path, size_t index);
/* The same for a part of the file: its packets from byte offset begin (a packet's start) to
 * end (a later packet's start, or past the file's end), read as if nothing else were there. */
int ctf_stream_open_at(struct ctf_stream *s, struct ctf_trace *t, const char *path, size_t index,
                       uint64_t begin, uint64_t end);
/* Where the packet in hand lies in the file and the times its context gives (ns from the
 * clock origin; has_end false without a timestamp_end, has_times false without a clock). */
struct ctf_packet_span {
	uint64_t offset, bytes;
	bool has_times, has_end;
	int64_t begin_ns, end_ns;
};
void ctf_stream_packet_span(const struct ctf_stream *s, struct ctf_packet_span *out);
/* Step to the next packet, reading only its header and context: 1 (one is in hand), 0 (no
 * more), or < 0 (damage, in s->error). For a stream whose events are not read. */
int ctf_stream_next_packet(struct ctf_stream *s);
void ctf_stream_close(struct ctf_stream *s);
/* A stream that ended at the end of its file, remapped if the file grew since (a live
 * trace, written a whole packet at a time): 1 when there is more to read. */
/* Step over every packet left, reading only their headers and contexts, so that the loss
 * counters stand as after the last one (for a stream just opened: reader.c). */
void ctf_stream_scan_to_end(struct ctf_stream *s);
/* Before the stream's first event is read: step over the packets whose timestamp_end is
 * before begin_ns, reading only their headers and contexts (losses count as if read). Their
 * events are not decoded, so damage inside them goes unseen; a packet without an end time,
 * or cut short by the file's end, stops the skipping. */
void ctf_stream_skip_before(struct ctf_stream *s, int64_t begin_ns);
int ctf_stream_grow(struct ctf_stream *s);
/* After an event id the metadata did not declare (-SPOOR_ENOEVENT): the stream stopped on
 * that event's header; once the id is declared (ctf_trace_graft), it can go on from it. */
void ctf_stream_undamage(struct ctf_stream *s);
/* Advance to the next event: 1 (event ready), 0 (end of stream), or < 0 (damage: the stream
 * is marked done and damaged, s->error says where). */
int ctf_stream_next(struct ctf_stream *s);
/* Decode the current event up to and including scope. 0 or < 0 (damage, as above). */
int ctf_stream_decode(struct ctf_stream *s, int scope);
/* A root-level integer or text field of a scope not decoded yet, read in place when the
 * layouts allow (decode_peek); false: decode the scope instead. */
bool ctf_stream_peek(const struct ctf_stream *s, int scope, int index, struct val *v);
/* The common case of ctf_stream_peek for an integer, inline: nothing decoded past the header,
 * the scope first after it, the member at a fixed offset. False: ask ctf_stream_peek_op. */
/* Where member index of scope starts, in the common case of the fast peeks below (nothing
 * decoded past the header, the scope first after it, the member at a fixed offset), with
 * decode_peek's checks in its order; NULL otherwise. */
static inline const struct op *ctf_stream_fast_member(const struct ctf_stream *s, int scope,
                                                      int index, uint64_t *at)
{
	if (!s->ec || s->damaged || s->decoded != SPOOR_SCOPE_EVENT_HEADER ||
	    scope < SPOOR_SCOPE_STREAM_EVENT_CONTEXT || scope > SPOOR_SCOPE_PAYLOAD ||
	    s->ecp->pre[scope] != 0)
		return NULL;
	const struct plan *p = s->ecp->scope[scope];
	if (!p || index < 0 || (uint32_t) index >= p->nmembers)
		return NULL;
	const struct op *root = &p->ops[0];
	uint64_t end = s->src.end_bits;
	uint64_t pos = (s->src.pos + root->align - 1) & ~(uint64_t) (root->align - 1);
	if (pos > end || root->min_bits > end - pos)
		return NULL;
	pos += p->members[index].bit;
	if (pos > end)
		return NULL;
	*at = pos;
	return &p->ops[p->members[index].op];
}

/* ctf_stream_peek of an integer in that common case, inline. False: ask ctf_stream_peek_op. */
static inline bool ctf_stream_peek_int_fast(const struct ctf_stream *s, int scope, int index,
                                            int64_t *v)
{
	uint64_t pos;
	const struct op *op = ctf_stream_fast_member(s, scope, index, &pos);
	if (!op || op->code != OP_INT || op->size > s->src.end_bits - pos)
		return false;
	uint64_t x = op->flags & OPF_BE ? bits_read_be(s->src.base, s->src.avail, pos, op->size)
	                                : bits_read_le(s->src.base, s->src.avail, pos, op->size);
	*v = op->flags & OPF_SIGNED ? bits_sign_extend(x, op->size) : (int64_t) x;
	return true;
}

/* The same for a text array (a char[N] member such as a task name). */
static inline bool ctf_stream_peek_text_fast(const struct ctf_stream *s, int scope, int index,
                                             const char **str, size_t *len)
{
	uint64_t pos;
	const struct op *op = ctf_stream_fast_member(s, scope, index, &pos);
	if (!op || op->code != OP_TEXT_ARRAY || op->arg > (s->src.end_bits - pos) / 8)
		return false;
	*str = (const char *) s->src.base + pos / 8;
	*len = strnlen(*str, op->arg);
	return true;
}
void ctf_stream_locate_payload(struct ctf_stream *s);

/* The bytes from the payload's start (pay, not NULL) to the end of the packet's content. */
static inline uint64_t ctf_stream_pay_len(const struct ctf_stream *s)
{
	return s->src.end_bits / 8 - (uint64_t) (s->pay - s->src.base);
}

/* Root member `index` of the current event's payload when it reads as plain loads (plan.h:
 * plan_member.fast) within the packet; false: ask the general peeks. */
static inline const struct plan_member *ctf_stream_payload_member(struct ctf_stream *s, int index,
                                                                  const uint8_t **at)
{
	if (!s->pay_known)
		ctf_stream_locate_payload(s);
	if (!s->pay || index < 0 || (uint32_t) index >= s->ecp->payload->nmembers)
		return NULL;
	const struct plan_member *m = &s->ecp->payload->members[index];
	uint64_t off = m->bit / 8, room = ctf_stream_pay_len(s);
	if (m->fast == PLAN_FAST_NONE || off > room || m->len > room - off)
		return NULL;
	*at = s->pay + off;
	return m;
}

/* An integer read as a plain load: len bytes (1, 2, 4 or 8) at at, signed when fast is
 * PLAN_FAST_SINT. */
static inline int64_t ctf_load_int(const uint8_t *at, unsigned fast, unsigned len)
{
	uint64_t x; /* little-endian host (plan.c checks) */
	switch (len) {
	case 1: x = *at; break;
	case 2: {
		uint16_t y;
		memcpy(&y, at, 2);
		x = y;
		break;
	}
	case 4: {
		uint32_t y;
		memcpy(&y, at, 4);
		x = y;
		break;
	}
	default: memcpy(&x, at, 8); break;
	}
	if (fast == PLAN_FAST_SINT && len < 8)
		return bits_sign_extend(x, len * 8);
	return (int64_t) x;
}

/* The value of integer member m (plan_member.fast UINT or SINT) of a payload at pay. */
static inline int64_t ctf_member_int(const uint8_t *pay, const struct plan_member *m)
{
	return ctf_load_int(pay + m->bit / 8, m->fast, m->len);
}

/* Where an integer member of a class's payload is, found once for the class
 * (ctf_event_class_place) and read per event as a plain load (ctf_stream_place_int). */
struct ctf_place {
	uint32_t off; /* bytes from the payload's start */
	uint8_t fast; /* PLAN_FAST_UINT or PLAN_FAST_SINT; PLAN_FAST_NONE: no place */
	uint8_t len;  /* bytes */
};

/* The place of payload member index of a class made ready (ctf_event_class_ready): false
 * (fast NONE) when it is not an integer read as a plain load. */
static inline bool ctf_event_class_place(const struct ctf_event_class *ec, int index,
                                         struct ctf_place *out)
{
	const struct event_class_plans *ep = ec->plan;
	const struct plan *p = ep ? ep->payload : NULL;
	*out = (struct ctf_place){0, PLAN_FAST_NONE, 0};
	if (!p || index < 0 || (uint32_t) index >= p->nmembers)
		return false;
	const struct plan_member *m = &p->members[index];
	if ((m->fast != PLAN_FAST_UINT && m->fast != PLAN_FAST_SINT) || m->bit / 8 > UINT32_MAX)
		return false;
	*out = (struct ctf_place){(uint32_t) (m->bit / 8), m->fast, (uint8_t) m->len};
	return true;
}

static inline bool ctf_stream_payload_int(struct ctf_stream *s, int index, int64_t *v)
{
	const uint8_t *at;
	const struct plan_member *m = ctf_stream_payload_member(s, index, &at);
	if (!m || m->fast == PLAN_FAST_TEXT)
		return false;
	*v = ctf_member_int(s->pay, m);
	return true;
}

/* The integer at place pl (of the current event's class) of its payload; false when the
 * payload is not where plain loads reach it, or the member runs past the packet. */
static inline bool ctf_stream_place_int(struct ctf_stream *s, struct ctf_place pl, int64_t *v)
{
	if (!s->pay_known)
		ctf_stream_locate_payload(s);
	if (!s->pay)
		return false;
	uint64_t room = ctf_stream_pay_len(s);
	if (pl.off > room || pl.len > room - pl.off)
		return false;
	*v = ctf_load_int(s->pay + pl.off, pl.fast, pl.len);
	return true;
}

/* Where a root member of a class's context or payload scope sits when that scope comes
 * first after the header and the member reads as plain loads (plan_member.fast) at a fixed
 * offset: found once per class (ctf_event_class_ctx_place), read per event with one bounds
 * check (ctf_stream_ctx_at). LTTng's vpid and procname contexts, for spoor stats. */
struct ctf_ctx_place {
	uint32_t align; /* the scope's, bits, a multiple of 8; 0: no place */
	uint32_t off;   /* bytes from the scope's aligned start */
	uint64_t need;  /* bits from there that must be in the packet: the member's end, and the
	                   scope's least size, as decode_peek asks */
	uint8_t fast;   /* enum plan_fast */
	uint32_t len;   /* bytes of an integer; a char array's length */
};

static inline bool ctf_event_class_ctx_place(const struct ctf_event_class *ec, int scope, int index,
                                             struct ctf_ctx_place *out)
{
	const struct event_class_plans *ep = ec->plan;
	*out = (struct ctf_ctx_place){0};
	if (!ep || scope < SPOOR_SCOPE_STREAM_EVENT_CONTEXT || scope > SPOOR_SCOPE_PAYLOAD ||
	    ep->pre[scope] != 0)
		return false;
	const struct plan *p = ep->scope[scope];
	if (!p || !p->nops || index < 0 || (uint32_t) index >= p->nmembers)
		return false;
	const struct plan_member *m = &p->members[index];
	uint32_t align = p->ops[0].align;
	if (m->fast == PLAN_FAST_NONE || !align || align % 8)
		return false;
	uint64_t end = m->bit + (uint64_t) m->len * 8;
	*out = (struct ctf_ctx_place){align, m->bit / 8,
	                              end > p->ops[0].min_bits ? end : p->ops[0].min_bits, m->fast,
	                              m->len};
	return true;
}

/* The bytes of the member at place pl in the current event (of the class pl was found
 * for), when nothing past its header was decoded or stepped over; NULL: ask the general
 * peeks (which report what is wrong). */
static inline const uint8_t *ctf_stream_ctx_at(const struct ctf_stream *s,
                                               const struct ctf_ctx_place *pl)
{
	if (s->decoded != SPOOR_SCOPE_EVENT_HEADER || s->damaged || !pl->align)
		return NULL;
	uint64_t pos = (s->src.pos + pl->align - 1) & ~(uint64_t) (pl->align - 1);
	uint64_t end = s->src.end_bits;
	if (pos > end || pl->need > end - pos)
		return NULL;
	return s->src.base + pos / 8 + pl->off;
}

/* Where scope starts in the current event (in bits, aligned to its root), when nothing past
 * the header was decoded or stepped over and the scopes before it have fixed layouts (the
 * steps decode_skip would take from the header's end); UINT64_MAX otherwise. */
static inline uint64_t ctf_stream_scope_start(const struct ctf_stream *s, int scope)
{
	const struct event_class_plans *ep = s->ecp;
	if (s->decoded != SPOOR_SCOPE_EVENT_HEADER || s->damaged ||
	    scope < SPOOR_SCOPE_STREAM_EVENT_CONTEXT || scope > SPOOR_SCOPE_PAYLOAD ||
	    ep->pre[scope] == PRE_VARIABLE || !ep->scope[scope] || !ep->scope[scope]->nops)
		return UINT64_MAX;
	uint64_t pos = s->src.pos;
	for (unsigned k = 0; k < ep->pre[scope]; k++)
		pos = ((pos + ep->skip[k].align - 1) & ~(uint64_t) (ep->skip[k].align - 1)) +
		      ep->skip[k].bits;
	uint64_t align = ep->scope[scope]->ops[0].align;
	return (pos + align - 1) & ~(align - 1);
}

/* The current event's payload when its layout is fixed and it lies whole within the
 * packet's content: every member with plan_member.fast then reads with plain loads at its
 * offset (ctf_member_int), with no check per member. NULL otherwise. */
static inline const uint8_t *ctf_stream_payload_whole(struct ctf_stream *s)
{
	if (!s->pay_known)
		ctf_stream_locate_payload(s);
	if (!s->pay || !s->ecp->payload->fixed ||
	    s->ecp->payload->fixed_bits > ctf_stream_pay_len(s) * 8)
		return NULL;
	return s->pay;
}

/* A char array of the payload, in place: its bytes and its declared length (the text ends
 * at the first NUL, if any). */
static inline bool ctf_stream_payload_chars(struct ctf_stream *s, int index, const char **str,
                                            size_t *size)
{
	const uint8_t *at;
	const struct plan_member *m = ctf_stream_payload_member(s, index, &at);
	if (!m || m->fast != PLAN_FAST_TEXT)
		return false;
	*str = (const char *) at;
	*size = m->len;
	return true;
}

static inline bool ctf_stream_payload_text(struct ctf_stream *s, int index, const char **str,
                                           size_t *len)
{
	if (!ctf_stream_payload_chars(s, index, str, len))
		return false;
	*len = strnlen(*str, *len);
	return true;
}

/* The same, also telling the field's operation (enum op_code: OP_INT, OP_STRING or
 * OP_TEXT_ARRAY). */
bool ctf_stream_peek_op(const struct ctf_stream *s, int scope, int index, struct val *v, int *code);

#endif
