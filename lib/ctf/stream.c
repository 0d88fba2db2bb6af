/* SPDX-License-Identifier: MIT */
/*
 * stream.c: packets and events of one stream file (CTF 1.8 sections 5 and 6).
 *
 * Packet sizes and offsets come from untrusted data: each is checked against the file
 * before use, and damage ends this stream only, after every event before it was delivered.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "header-fast.h"
#include "spoor/spoor.h"
#include "stream.h"

#define CTF_PACKET_MAGIC 0xC1FC1FC1u
#ifndef PREFETCH_AHEAD
#define PREFETCH_AHEAD 512
#endif

#define NO_NEXT UINT64_MAX /* ctf_stream.next_at: none */

/* The event in hand is done with (stepped over or read to its end). */
static inline void drop_event(struct ctf_stream *s)
{
	s->ec = NULL;
	s->next_at = NO_NEXT;
}

static int mark_damaged(struct ctf_stream *s, int code, const char *what)
{
	snprintf(s->error, sizeof(s->error), "%s: offset %llu: %s", s->path,
	         (unsigned long long) (s->pkt_off + s->src.pos / 8), what);
	/* s->ec stays: the event in hand remains a valid view until the next call. */
	s->done = true;
	s->damaged = true;
	s->next_at = NO_NEXT;
	return code;
}

static int damage(struct ctf_stream *s, int code, const char *fmt, unsigned long long a,
                  unsigned long long b)
{
	char what[200];

	snprintf(what, sizeof(what), fmt, a, b);
	return mark_damaged(s, code, what);
}

static int decode_damage(struct ctf_stream *s, int rc)
{
	return mark_damaged(s, rc, s->dec.error ? s->dec.error : spoor_strerror(rc));
}

/* A root-level integer of a decoded scope. */
static uint64_t root_value(const struct val_table *t, uint32_t root, int ord)
{
	return t->v[t->kids[t->v[root].kids + (uint32_t) ord]].u;
}

static int check_uuid(struct ctf_stream *s, uint32_t root, int ord)
{
	const struct ctf_meta *m = &s->trace->meta;
	const struct val_table *t = &s->pkt_table;
	uint32_t vi = t->kids[t->v[root].kids + (uint32_t) ord];

	if (!m->has_uuid || t->v[vi].len != 16)
		return 0;
	for (unsigned i = 0; i < 16; i++)
		if (t->v[t->kids[t->v[vi].kids + i]].u != m->uuid[i])
			return mark_damaged(s, -SPOOR_EPACKET,
			                    "packet UUID differs from the trace UUID");
	return 0;
}

static int read_packet_header(struct ctf_stream *s)
{
	struct ctf_trace *t = s->trace;
	int rc = decode_scope(&s->dec, t->packet_header, PLAN_SCOPE_PACKET_HEADER);

	if (rc)
		return decode_damage(s, rc);
	uint32_t root = s->dec.scope_root[PLAN_SCOPE_PACKET_HEADER];
	const int *role = t->header_role;
	if (root != VAL_NONE && role[ROLE_MAGIC] >= 0) {
		uint64_t magic = root_value(&s->pkt_table, root, role[ROLE_MAGIC]);
		if (magic != CTF_PACKET_MAGIC) {
			s->src.pos = 0;
			return damage(s, -SPOOR_EMAGIC, "bad packet magic 0x%llx (expected 0x%llx)",
			              magic, CTF_PACKET_MAGIC);
		}
	}
	if (root != VAL_NONE && role[ROLE_UUID] >= 0 && (rc = check_uuid(s, root, role[ROLE_UUID])))
		return rc;
	struct ctf_stream_class *sc = NULL;
	if (root != VAL_NONE && role[ROLE_STREAM_ID] >= 0) {
		uint64_t id = root_value(&s->pkt_table, root, role[ROLE_STREAM_ID]);
		sc = ctf_meta_stream(&t->meta, id);
		if (!sc)
			return damage(s, -SPOOR_ENOSTREAM,
			              "packet names stream class %llu, which the metadata does not "
			              "declare (%llu classes)",
			              id, t->meta.nstreams);
	} else if (t->meta.nstreams == 1) {
		sc = t->meta.streams[0];
	} else {
		return mark_damaged(s, -SPOOR_ENOSTREAM, "packet header has no stream_id");
	}
	if (s->sc && sc != s->sc)
		return damage(s, -SPOOR_EPACKET,
		              "stream class changes from %llu to %llu mid-stream", s->sc->id,
		              sc->id);
	s->sc = sc;
	s->scp = sc->plan;
	s->ns_at_1ghz = sc->clock && s->scp->clock_freq == 1000000000;
	s->stream_id = sc->id;
	if (root != VAL_NONE && role[ROLE_STREAM_INSTANCE_ID] >= 0) {
		s->instance_id = root_value(&s->pkt_table, root, role[ROLE_STREAM_INSTANCE_ID]);
		s->has_instance_id = true;
	}
	return 0;
}

/* The counters are cumulative per stream; they may wrap at their width. */
static void count_discarded(struct ctf_stream *s, uint64_t counter)
{
	unsigned bits = s->scp->discarded_bits;
	uint64_t mask = bits >= 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << bits) - 1;

	uint64_t more = (counter - s->discarded_counter) & mask;
	s->discarded += more;
	s->lost_any |= more != 0;
	s->discarded_counter = counter;
}

/* What this packet says was lost since the stream's last packet: events (events_discarded,
 * and of them spoor's events_overwritten) and packets (a gap in packet_seq_num), and when:
 * from the last packet's end to this one's. Readers count from a stream's first packet. */
static void count_losses(struct ctf_stream *s, uint32_t root, const int *role)
{
	uint64_t events = s->discarded, packets = s->packets_lost, end = s->clock;

	if (role[ROLE_EVENTS_DISCARDED] >= 0)
		count_discarded(s, root_value(&s->pkt_table, root, role[ROLE_EVENTS_DISCARDED]));
	if (role[ROLE_EVENTS_OVERWRITTEN] >= 0) {
		uint64_t c = root_value(&s->pkt_table, root, role[ROLE_EVENTS_OVERWRITTEN]);
		s->overwritten += c - s->overwritten_counter;
		s->overwritten_counter = c;
	}
	if (role[ROLE_PACKET_SEQ_NUM] >= 0) {
		uint64_t seq = root_value(&s->pkt_table, root, role[ROLE_PACKET_SEQ_NUM]);
		if (s->packets && seq > s->seq_next)
			s->packets_lost += seq - s->seq_next;
		s->seq_next = seq + 1;
	}
	if (role[ROLE_TIMESTAMP_END] >= 0)
		end = root_value(&s->pkt_table, root, role[ROLE_TIMESTAMP_END]);
	if (events != s->discarded || packets != s->packets_lost) {
		if (!s->lost_range)
			s->lost_begin = s->packets ? s->prev_end : s->clock;
		s->lost_end = end;
		s->lost_range = true;
	}
	if (!s->packets)
		s->first_begin = s->clock;
	s->prev_end = end;
}

/* read_fast's bound for this packet: the largest header, and the 8-byte loads that read
 * it, stay within the content from any position up to fast_limit. */
static void set_fast_limit(struct ctf_stream *s)
{
	const struct plan *hp = s->scp->event_header;
	s->hdr_fast = NULL;
	if (!hp || !hp->hdr_fixed)
		return;
	uint64_t need = (uint64_t) hp->hdr_total[1] + 64, end = s->src.end_bits;
	if (end > (uint64_t) s->src.avail * 8)
		end = (uint64_t) s->src.avail * 8;
	if (end < need)
		return;
	s->fast_limit = end - need;
	s->hdr_fast = hp;
}

/* The last clock value whose time in ns from the origin fits in an int64_t (babeltrace2
 * rejects the others). */
static uint64_t clock_range_max(const struct ctf_stream *s)
{
	uint64_t room = (uint64_t) INT64_MAX - (uint64_t) s->scp->clock_offset_ns;
	/* and below 2^63 whatever the offset, so that an N-bit time moves the clock on without
	 * overflow (fast_header_in_order): 292 years at 1 GHz */
	if (!s->sc->clock || room > (uint64_t) INT64_MAX)
		room = INT64_MAX;
	if (!s->sc->clock || s->scp->clock_freq == 1000000000)
		return room;
	double c = (double) room * (double) s->scp->clock_freq / 1e9;
	return c >= 9223372036854775807.0 ? (uint64_t) INT64_MAX : (uint64_t) c;
}

/* The packet's times against the stream's (CTF 1.8 section 8: timestamp_begin and
 * timestamp_end bound its events): the bounds every event is checked against. */
static int packet_times(struct ctf_stream *s, uint32_t root, uint64_t was)
{
	const int *role = s->scp->role;
	bool has_end = root != VAL_NONE && role[ROLE_TIMESTAMP_END] >= 0;
	uint64_t end = has_end ? root_value(&s->pkt_table, root, role[ROLE_TIMESTAMP_END]) : 0;
	uint64_t begin = was, range = clock_range_max(s);

	if (root != VAL_NONE && role[ROLE_TIMESTAMP_BEGIN] >= 0)
		begin = root_value(&s->pkt_table, root, role[ROLE_TIMESTAMP_BEGIN]);
	s->src.pos = 0; /* damage here is the packet's */
	if (s->packets && begin < was)
		return damage(s, -SPOOR_EPACKET,
		              "packet timestamp_begin %llu is before the stream's previous time "
		              "%llu: time goes backwards",
		              begin, was);
	/* 0: a packet the tracer never closed (lttng-crash), its end unknown */
	has_end = has_end && end;
	if (has_end && end < begin)
		return damage(s, -SPOOR_EPACKET,
		              "packet timestamp_end %llu is before its timestamp_begin %llu", end,
		              begin);
	if (begin > range)
		return damage(s, -SPOOR_EPACKET,
		              "packet timestamp_begin %llu is past the clock's range (%llu)", begin,
		              range);
	s->clock = s->clock_min = begin;
	s->clock_max = has_end && end < range ? end : range;
	return 0;
}

static int packet_open(struct ctf_stream *s)
{
	if (s->pkt_off >= s->file_end) {
		s->done = true;
		return 0;
	}
	uint64_t left = s->file_end - s->pkt_off, was = s->clock;
	s->src = (struct bitsrc){s->mf.data + s->pkt_off, (size_t) left, 0, left * 8};
	val_table_reset(&s->pkt_table);
	s->dec.table = &s->pkt_table;
	int rc = read_packet_header(s);
	if (rc)
		return rc;
	const struct stream_class_plans *p = s->scp;
	if ((rc = decode_scope(&s->dec, p->packet_context, SPOOR_SCOPE_PACKET_CONTEXT)))
		return decode_damage(s, rc);
	uint32_t root = s->dec.scope_root[SPOOR_SCOPE_PACKET_CONTEXT];
	const int *role = p->role;
	uint64_t packet_bits = left * 8, content_bits;
	if (root != VAL_NONE && role[ROLE_PACKET_SIZE] >= 0)
		packet_bits = root_value(&s->pkt_table, root, role[ROLE_PACKET_SIZE]);
	content_bits = packet_bits;
	if (root != VAL_NONE && role[ROLE_CONTENT_SIZE] >= 0)
		content_bits = root_value(&s->pkt_table, root, role[ROLE_CONTENT_SIZE]);
	if (packet_bits == 0 || packet_bits % 8)
		return damage(s, -SPOOR_EPACKET, "invalid packet size %llu bits (%llu)",
		              packet_bits, packet_bits % 8);
	if (content_bits > packet_bits)
		return damage(s, -SPOOR_EPACKET,
		              "content size %llu bits exceeds packet size %llu bits", content_bits,
		              packet_bits);
	/* A file cut inside a packet (a tracer killed mid-write): read the events that are
	 * there, then report the cut. */
	s->cut_bytes = 0;
	if (packet_bits / 8 > left) {
		s->cut_bytes = packet_bits / 8;
		packet_bits = left * 8;
		if (content_bits > packet_bits)
			content_bits = packet_bits;
	}
	if (content_bits < s->src.pos)
		return damage(s, -SPOOR_EPACKET,
		              "content size %llu bits is smaller than the packet header and "
		              "context (%llu bits)",
		              content_bits, s->src.pos);
	s->src.end_bits = content_bits;
	set_fast_limit(s);
	s->pkt_bytes = packet_bits / 8;
	if (root != VAL_NONE && role[ROLE_CPU_ID] >= 0)
		s->cpu = (int64_t) root_value(&s->pkt_table, root, role[ROLE_CPU_ID]);
	uint64_t header_end = s->src.pos;
	if ((rc = packet_times(s, root, was)))
		return rc;
	s->src.pos = header_end;
	if (root != VAL_NONE)
		count_losses(s, root, role);
	s->packets++;
	s->bytes += s->pkt_bytes;
	s->in_packet = true;
	s->dec.table = &s->ev_table;
	return 0;
}

int ctf_stream_open(struct ctf_stream *s, struct ctf_trace *t, const char *path, size_t index)
{
	return ctf_stream_open_at(s, t, path, index, 0, UINT64_MAX);
}

int ctf_stream_open_at(struct ctf_stream *s, struct ctf_trace *t, const char *path, size_t index,
                       uint64_t begin, uint64_t end)
{
	memset(s, 0, sizeof(*s));
	s->trace = t;
	s->path = path;
	s->index = index;
	s->cpu = -1;
	s->span_begin = INT64_MIN;
	s->span_end = INT64_MAX;
	s->dec.src = &s->src;
	s->dec.clock = &s->clock;
	s->next_at = NO_NEXT;
	int rc = mapfile_open(&s->mf, path);
	if (rc) {
		snprintf(s->error, sizeof(s->error), "%s: %s", path, spoor_strerror(rc));
		s->done = s->damaged = true;
		return rc;
	}
	s->file_end = end < s->mf.size ? end : s->mf.size;
	s->pkt_off = begin;
	rc = packet_open(s);
	return rc < 0 ? rc : 0;
}

int ctf_stream_next_packet(struct ctf_stream *s)
{
	if (!s->in_packet || s->done || s->damaged)
		return s->damaged ? -SPOOR_EPACKET : 0;
	s->in_packet = false;
	s->pkt_off += s->pkt_bytes;
	int rc = packet_open(s);
	return rc < 0 ? rc : s->in_packet;
}

void ctf_stream_scan_to_end(struct ctf_stream *s)
{
	while (ctf_stream_next_packet(s) > 0)
		;
}

void ctf_stream_packet_span(const struct ctf_stream *s, struct ctf_packet_span *out)
{
	bool clocked = s->sc && s->sc->clock;
	out->offset = s->pkt_off;
	out->bytes = s->pkt_bytes;
	out->has_times = clocked;
	out->has_end = clocked && s->clock_max < clock_range_max(s);
	out->begin_ns = clocked ? ctf_clock_ns(s->scp, s->clock_min) : 0;
	out->end_ns = out->has_end ? ctf_clock_ns(s->scp, s->clock_max) : 0;
}

void ctf_stream_skip_before(struct ctf_stream *s, int64_t begin_ns)
{
	while (s->in_packet && !s->ec && !s->done && !s->damaged && !s->cut_bytes && s->sc->clock &&
	       s->clock_max < clock_range_max(s) && ctf_clock_ns(s->scp, s->clock_max) < begin_ns) {
		s->skipped_packets++;
		s->skipped_bytes += s->pkt_bytes;
		s->in_packet = false;
		s->pkt_off += s->pkt_bytes;
		if (packet_open(s))
			break;
	}
}

int ctf_stream_grow(struct ctf_stream *s)
{
	if (!s->done || s->damaged || s->in_packet || s->ec)
		return 0;
	struct mapfile bigger;
	if (mapfile_open(&bigger, s->path))
		return 0;
	if (bigger.size <= s->mf.size) {
		mapfile_close(&bigger);
		return 0;
	}
	mapfile_close(&s->mf);
	s->mf = bigger;
	s->file_end = bigger.size;
	s->done = false; /* packet_open goes on at pkt_off, the end of the last packet */
	s->next_at = NO_NEXT;
	return 1;
}

void ctf_stream_undamage(struct ctf_stream *s)
{
	s->done = s->damaged = false;
	s->next_at = NO_NEXT;
	s->error[0] = '\0';
}

void ctf_stream_close(struct ctf_stream *s)
{
	mapfile_close(&s->mf);
	val_table_free(&s->pkt_table);
	val_table_free(&s->ev_table);
}

static const struct plan *scope_plan(const struct ctf_stream *s, int scope)
{
	return scope >= SPOOR_SCOPE_STREAM_EVENT_CONTEXT && scope <= SPOOR_SCOPE_PAYLOAD
	           ? s->ecp->scope[scope]
	           : NULL;
}

int ctf_stream_decode(struct ctf_stream *s, int scope)
{
	if (!s->ec)
		return -SPOOR_EDECODE;
	if (s->damaged && s->decoded < scope)
		return -SPOOR_EDECODE; /* reported once already */
	s->next_at = NO_NEXT; /* the next event comes by next_slow, which checks this one */
	int rc = decode_header_values(&s->dec);
	if (rc)
		return decode_damage(s, rc);
	while (s->decoded < scope) {
		int next = s->decoded + 1;
		rc = decode_scope(&s->dec, scope_plan(s, next), next);
		if (rc)
			return decode_damage(s, rc);
		s->decoded = next;
	}
	return 0;
}

/* Where scope starts, if every scope between the last decoded and it has a fixed layout
 * (what decode_skip would step over); UINT64_MAX otherwise. */
static uint64_t scope_start(const struct ctf_stream *s, int scope)
{
	uint64_t pos = s->src.pos;

	for (int next = s->decoded + 1; next < scope; next++) {
		const struct plan *p = s->ecp->scope[next];
		if (!p)
			continue;
		if (!p->fixed)
			return UINT64_MAX;
		pos =
		    ((pos + p->fixed_align - 1) & ~(uint64_t) (p->fixed_align - 1)) + p->fixed_bits;
	}
	return pos;
}

bool ctf_stream_peek_op(const struct ctf_stream *s, int scope, int index, struct val *v, int *code)
{
	if (!s->ec || s->damaged || s->decoded >= scope ||
	    scope < SPOOR_SCOPE_STREAM_EVENT_CONTEXT || scope > SPOOR_SCOPE_PAYLOAD)
		return false;
	const struct event_class_plans *ep = s->ecp;
	const struct plan *p = ep->scope[scope];
	if (!p)
		return false;
	uint64_t start;
	if (s->decoded == SPOOR_SCOPE_EVENT_HEADER && ep->pre[scope] != PRE_VARIABLE) {
		start = s->src.pos;
		for (unsigned k = 0; k < ep->pre[scope]; k++)
			start = ((start + ep->skip[k].align - 1) &
			         ~(uint64_t) (ep->skip[k].align - 1)) +
			        ep->skip[k].bits;
	} else if ((start = scope_start(s, scope)) == UINT64_MAX) {
		return false;
	}
	return decode_peek_member(&s->dec, p, start, index, v, code);
}

void ctf_stream_locate_payload(struct ctf_stream *s)
{
	s->pay_known = true;
	s->pay = NULL;
	if (!s->ec || s->damaged || s->decoded != SPOOR_SCOPE_EVENT_HEADER)
		return;
	const struct event_class_plans *ep = s->ecp;
	uint64_t pos = s->src.pos;
	/* contexts of whole bytes before it (LTTng's vpid, vtid, procname): one add */
	if (ep->pay_at != PAY_AT_NONE && !(pos % 8)) {
		pos += (uint64_t) ep->pay_at * 8;
		if (pos <= s->src.end_bits)
			s->pay = s->src.base + pos / 8;
		return;
	}
	const struct plan *p = ep->scope[SPOOR_SCOPE_PAYLOAD];
	if (!p || !p->nops || ep->pre[SPOOR_SCOPE_PAYLOAD] == PRE_VARIABLE)
		return;
	for (unsigned k = 0; k < ep->pre[SPOOR_SCOPE_PAYLOAD]; k++)
		pos = ((pos + ep->skip[k].align - 1) & ~(uint64_t) (ep->skip[k].align - 1)) +
		      ep->skip[k].bits;
	pos = (pos + p->ops[0].align - 1) & ~(uint64_t) (p->ops[0].align - 1);
	if (pos % 8 || pos > s->src.end_bits)
		return;
	s->pay = s->src.base + pos / 8;
}

bool ctf_stream_peek(const struct ctf_stream *s, int scope, int index, struct val *v)
{
	int code;
	return ctf_stream_peek_op(s, scope, index, v, &code);
}

/* The rest of an event from bit *pos after its header, when the scopes before its payload
 * have fixed layouts and the payload a variable one with a skip program: stepped over
 * (decode_skip_payload). False when that does not apply or the data does not fit: decode_skip
 * then steps over each scope and reports why. */
static bool skip_rest(struct ctf_stream *s, const struct event_class_plans *ep, uint64_t *pos)
{
	unsigned pre = ep->pre[SPOOR_SCOPE_PAYLOAD];
	uint64_t at = *pos;

	if (ep->fixed || pre == PRE_VARIABLE)
		return false;
	for (unsigned k = 0; k < pre; k++)
		at = ((at + ep->skip[k].align - 1) & ~(uint64_t) (ep->skip[k].align - 1)) +
		     ep->skip[k].bits;
	if (at > s->src.end_bits || !decode_skip_payload(&s->dec, ep->payload, &at))
		return false;
	*pos = at;
	return true;
}

/* finish_event scope by scope, reporting any damage. */
static __attribute__((noinline)) int finish_scopes(struct ctf_stream *s)
{
	while (s->decoded < SPOOR_SCOPE_PAYLOAD) {
		int next = s->decoded + 1;
		int rc;
		if (s->ecp->keep & (1u << next)) {
			/* kept: decoded, and it may itself refer to the header's lazy values */
			rc = decode_header_values(&s->dec);
			if (!rc)
				rc = decode_scope(&s->dec, scope_plan(s, next), next);
		} else {
			rc = decode_skip(&s->dec, scope_plan(s, next), next);
		}
		if (rc)
			return decode_damage(s, rc);
		s->decoded = next;
	}
	drop_event(s);
	/* An event must take some room, or a crafted packet could loop forever. */
	if (s->src.pos == s->ev_start)
		return mark_damaged(s, -SPOOR_EDECODE, "event of zero size");
	return 0;
}

static int finish_event(struct ctf_stream *s)
{
	uint64_t pos = s->src.pos;

	/* nothing read past the header of a payload of variable layout: the common case */
	if (s->decoded == SPOOR_SCOPE_EVENT_HEADER && skip_rest(s, s->ecp, &pos) &&
	    pos != s->ev_start) {
		s->src.pos = pos;
		drop_event(s);
		return 0;
	}
	return finish_scopes(s);
}

/* Where the event in hand ends, in the common case of finish_event: nothing decoded past
 * the header and every later scope of a fixed layout. False when finish_event must step
 * over it (and report any damage). */
static inline bool fixed_end(const struct ctf_stream *s, uint64_t *end)
{
	const struct event_class_plans *ep = s->ecp;

	if (!ep->fixed || s->decoded != SPOOR_SCOPE_EVENT_HEADER)
		return false;
	uint64_t pos = s->src.pos;
	if (ep->byte_skip && !(pos % 8))
		pos += ep->skip_bits;
	else
		for (unsigned k = 0; k < ep->nskip; k++)
			pos =
			    ((pos + ep->skip[k].align - 1) & ~(uint64_t) (ep->skip[k].align - 1)) +
			    ep->skip[k].bits;
	if (pos > s->src.end_bits || pos == s->ev_start)
		return false;
	*end = pos;
	return true;
}

/* fixed_end, then the event is stepped over. */
static inline bool skip_fixed(struct ctf_stream *s)
{
	uint64_t pos;
	if (!fixed_end(s, &pos))
		return false;
	s->src.pos = pos;
	drop_event(s);
	return true;
}

/* The span of a run of events passed over, first and last ns (in time order within a
 * stream), all within the span's bounds (pass_run runs only when it has none). */
static void passed_run(struct ctf_stream *s, int64_t first, int64_t last)
{
	if (!s->passed_any) {
		s->passed_first = first;
		s->passed_last = last;
		s->passed_any = true;
		return;
	}
	if (first < s->passed_first)
		s->passed_first = first;
	if (last > s->passed_last)
		s->passed_last = last;
}

/* An event nobody reads: only its time counts, for the span. */
static inline void pass_over(struct ctf_stream *s)
{
	int64_t ts = s->ts_ns;

	if (ts >= s->span_begin && ts <= s->span_end)
		passed_run(s, ts, ts);
}

/* An event passed over, read by itself: its time counts for the span; the next events of
 * its class are stepped over in read_fast when its size allows (pass_skip). */
static int pass_fixed(struct ctf_stream *s)
{
	const struct event_class_plans *ep = s->ecp;
	struct ctf_stream_class *sc = s->sc;
	uint64_t id = s->dec.event_id;

	pass_over(s);
	if (sc->pass_skip && ep->byte_skip && s->dec.has_event_id && id < sc->by_id_len &&
	    s->span_begin == INT64_MIN && s->span_end == INT64_MAX)
		sc->pass_skip[id] = ep->skip_bits + 1;
	return skip_fixed(s) ? 0 : finish_event(s);
}

/* The current clock value in ns from the origin (0 without a clock). */
static inline int64_t clock_now_ns(const struct ctf_stream *s)
{
	if (s->ns_at_1ghz) /* the common case, without the look-ups of ctf_clock_ns */
		return (int64_t) ((uint64_t) s->scp->clock_offset_ns + s->clock);
	return s->sc->clock ? ctf_clock_ns(s->scp, s->clock) : 0;
}

/* Where an LTTng header at fixed offsets (plan.h: hdr_fixed) keeps its fields: the plan's,
 * or constants for LTTng's compact and large headers (hdr_compact, hdr_large), in copies
 * of the fast path where the compiler folds them. [0] compact, [1] extended; offsets and
 * sizes in bits. */
struct hdr_layout {
	uint64_t align, id_mask, ext_tag, ext_id_mask, ts_mask[2];
	unsigned ext_id_off, ts_off[2], total[2], ts_size[2];
};

static const struct hdr_layout lttng_compact = {
    .align = 8,
    .id_mask = 0x1f,
    .ext_tag = 31,
    .ext_id_mask = 0xffffffff,
    .ts_mask = {0x7ffffff, ~(uint64_t) 0},
    .ext_id_off = 8,
    .ts_off = {5, 40},
    .total = {32, 104},
    .ts_size = {27, 64},
};

static const struct hdr_layout lttng_large = {
    .align = 8,
    .id_mask = 0xffff,
    .ext_tag = 65535,
    .ext_id_mask = 0xffffffff,
    .ts_mask = {0xffffffff, ~(uint64_t) 0},
    .ext_id_off = 16,
    .ts_off = {16, 48},
    .total = {48, 112},
    .ts_size = {32, 64},
};

static inline __attribute__((always_inline)) struct hdr_layout layout_of(const struct plan *p)
{
	return (struct hdr_layout){
	    .align = p->ops[0].align,
	    .id_mask = p->hdr_id_mask,
	    .ext_tag = p->extended_tag,
	    .ext_id_mask = p->hdr_ext_id_mask,
	    .ts_mask = {p->hdr_ts_mask[0], p->hdr_ts_mask[1]},
	    .ext_id_off = p->hdr_ext_id_off,
	    .ts_off = {p->hdr_ts_off[0], p->hdr_ts_off[1]},
	    .total = {p->hdr_total[0], p->hdr_total[1]},
	    .ts_size = {p->hdr_ts_size[0], p->hdr_ts_size[1]},
	};
}

/* One LTTng header at fixed offsets, from bit pos, far enough from the packet's end
 * (fast_limit): its fields, the clock after its timestamp and where it ends. False when pos
 * is too close to the end, or a 64-bit time goes backwards (an N-bit one cannot): the
 * general path then reads it, and reports any damage. The two forms are apart, so that with
 * constants each folds to a few loads. */
struct fast_header {
	uint64_t start, at_pos, end, id, ext_id, eid, clock;
	const uint8_t *at;
};

static inline __attribute__((always_inline)) bool fast_header(const struct ctf_stream *s,
                                                              const struct hdr_layout *L,
                                                              uint64_t pos, struct fast_header *h)
{
	h->start = pos;
	h->at_pos = (pos + L->align - 1) & ~(L->align - 1);
	if (h->at_pos > s->fast_limit)
		return false;
	h->at = s->src.base + h->at_pos / 8;
	h->id = load_field(h->at, 0, L->id_mask);
	if (h->id == L->ext_tag) {
		h->ext_id = h->eid = load_field(h->at, L->ext_id_off, L->ext_id_mask);
		h->end = h->at_pos + L->total[1];
		h->clock = clock_next(s->clock, L->ts_size[1],
		                      load_field(h->at, L->ts_off[1], L->ts_mask[1]));
		return h->clock >= s->clock;
	}
	h->ext_id = 0;
	h->eid = h->id;
	h->end = h->at_pos + L->total[0];
	h->clock =
	    clock_next(s->clock, L->ts_size[0], load_field(h->at, L->ts_off[0], L->ts_mask[0]));
	return L->ts_size[0] < 64 || h->clock >= s->clock;
}

/* fast_header, and the time within the packet's end (clock_max < 2^63: an N-bit time
 * moves the clock on without overflow): the fast paths' only check of the time. */
static inline __attribute__((always_inline)) bool fast_header_in_order(const struct ctf_stream *s,
                                                                       const struct hdr_layout *L,
                                                                       uint64_t pos,
                                                                       struct fast_header *h)
{
	return fast_header(s, L, pos, h) && h->clock <= s->clock_max;
}

/* The event of header h becomes the current one (its class ready). */
static inline __attribute__((always_inline)) void
take_event(struct ctf_stream *s, const struct fast_header *h, struct ctf_event_class *ec)
{
	__builtin_prefetch(h->at + PREFETCH_AHEAD);
	s->src.pos = h->end;
	val_table_reset(&s->ev_table);
	/* the header's values for decode_header_values are read again from its bytes */
	s->clock = h->clock;
	s->dec.event_id = h->eid;
	s->dec.has_event_id = 1;
	s->dec.hdr_plan = s->hdr_fast;
	s->dec.hdr_at = h->at;
	s->ec = ec;
	s->ecp = ec->plan;
	s->decoded = SPOOR_SCOPE_EVENT_HEADER;
	s->ts_cycles = s->clock;
	s->ts_ns = clock_now_ns(s);
	s->ev_start = h->start;
	/* where the payload starts, at once when right after the header on a byte boundary
	 * (ctf_stream_locate_payload does the rest at the first read); the header ends
	 * within the content (fast_limit), and on a byte for LTTng's compact header */
	const struct event_class_plans *ep = ec->plan;
	/* fixed_end's answer now, for ctf_stream_next's common case */
	uint64_t next = h->end + ep->skip_bits;
	s->next_at =
	    ep->fixed && ep->byte_skip && !(h->end % 8) && next <= s->src.end_bits ? next : NO_NEXT;
	s->pay_known = ep->pay_direct && !(h->end % 8);
	if (s->pay_known) {
		s->pay = s->src.base + h->end / 8;
	}
}

/* An event passed over whose payload has a variable layout, from bit *pos after its header:
 * stepped over with the payload's skip program when the scopes before it are fixed. */
static bool skip_variable(struct ctf_stream *s, const struct ctf_event_class *ec, uint64_t *pos)
{
	uint64_t at = *pos;

	if (s->span_begin != INT64_MIN || s->span_end != INT64_MAX ||
	    !skip_rest(s, ec->plan, &at) || at == *pos)
		return false;
	*pos = at;
	return true;
}

/* Events of classes passed over whose rest is a known number of bytes (pass_skip), from
 * the stream's position on (read_fast found the first), stepped over; then the next event
 * is read as read_fast does. The header is read again here so that read_fast's stays in
 * registers. */
static inline __attribute__((always_inline)) bool pass_run_in(struct ctf_stream *s,
                                                              const struct hdr_layout *L)
{
	struct ctf_stream_class *sc = s->sc;
	int64_t first = 0;
	bool passed = false, read = false;
	struct fast_header hh, *h = &hh;

	if (!fast_header_in_order(s, L, s->src.pos, h))
		return false;
	for (;;) {
		uint32_t skip = h->eid < sc->by_id_len ? sc->pass_skip[h->eid] : 0;
		uint64_t next = h->end;
		if (!skip) {
			struct ctf_event_class *ec =
			    h->eid < sc->by_id_len ? sc->by_id[h->eid] : NULL;
			if (ec && ec->plan && ec->pass_over && skip_variable(s, ec, &next))
				goto passed;
			read = ec && ec->plan;
			break;
		}
		next += skip - 1;
		if (next % 8 || next > s->src.end_bits)
			break;
	passed:
		s->clock = h->clock;
		if (!passed) /* times only grow in a stream: the run's first and last count */
			first = clock_now_ns(s);
		passed = true;
		s->src.pos = next;
		if (!fast_header_in_order(s, L, next, h))
			break;
	}
	if (passed) {
		s->ts_cycles = s->clock;
		s->ts_ns = clock_now_ns(s);
		passed_run(s, first, s->ts_ns);
	}
	if (read)
		take_event(s, h, sc->by_id[h->eid]);
	return read;
}

static __attribute__((noinline)) bool pass_run(struct ctf_stream *s)
{
	if (s->hdr_fast->hdr_compact)
		return pass_run_in(s, &lttng_compact);
	if (s->hdr_fast->hdr_large)
		return pass_run_in(s, &lttng_large);
	struct hdr_layout L = layout_of(s->hdr_fast);
	return pass_run_in(s, &L);
}

/* The common case of the loop below: an LTTng header at fixed offsets at bit pos (the
 * previous event's end), far enough from the packet's end, naming a ready class of the
 * stream's dense table: read, true. Runs of events passed over go to pass_run. False when
 * the general path must read the next event (which may be at the packet's end after a run);
 * unless a run was passed, the stream is then as it was (the previous event current). */
static inline __attribute__((always_inline)) bool
read_fast_in(struct ctf_stream *s, const struct hdr_layout *L, uint64_t pos)
{
	struct fast_header h;
	const struct ctf_stream_class *sc = s->sc;

	if (!fast_header_in_order(s, L, pos, &h) || h.eid >= sc->by_id_len)
		return false;
	if (sc->pass_skip && sc->pass_skip[h.eid]) {
		s->src.pos = pos;
		drop_event(s);
		return pass_run(s);
	}
	struct ctf_event_class *ec = sc->by_id[h.eid];
	if (!ec || !ec->plan) /* a class met for the first time is made ready there */
		return false;
	take_event(s, &h, ec);
	return true;
}

static inline __attribute__((always_inline)) bool read_fast(struct ctf_stream *s, uint64_t pos)
{
	if (s->hdr_fast->hdr_compact)
		return read_fast_in(s, &lttng_compact, pos);
	if (s->hdr_fast->hdr_large)
		return read_fast_in(s, &lttng_large, pos);
	struct hdr_layout L = layout_of(s->hdr_fast);
	return read_fast_in(s, &L, pos);
}

/* The first event of a class: its metadata is parsed now, and may be bad (damage). */
static __attribute__((noinline, cold)) int
class_not_ready(struct ctf_stream *s, struct ctf_event_class *ec, uint64_t start)
{
	int rc = ctf_event_class_ready(ec);

	if (!rc)
		return 0;
	s->src.pos = start;
	snprintf(s->error, sizeof(s->error), "%s",
	         ec->error_msg ? ec->error_msg : spoor_strerror(rc));
	s->done = s->damaged = true;
	return rc;
}

/* An event whose header at start moved the stream's clock from was to out of order. */
static __attribute__((noinline, cold)) int time_damage(struct ctf_stream *s, uint64_t start,
                                                       uint64_t was)
{
	uint64_t t = s->clock;

	s->clock = was;
	s->src.pos = start;
	s->dec.hdr_plan = NULL;
	if (t < s->clock_min)
		return damage(s, -SPOOR_EPACKET,
		              "event time %llu is before its packet's timestamp_begin %llu", t,
		              s->clock_min);
	if (t < was)
		return damage(s, -SPOOR_EPACKET,
		              "event time %llu is before the previous event's %llu: time goes "
		              "backwards",
		              t, was);
	if (s->clock_max == clock_range_max(s))
		return damage(s, -SPOOR_EPACKET, "event time %llu is past the clock's range (%llu)",
		              t, s->clock_max);
	return damage(s, -SPOOR_EPACKET, "event time %llu is after its packet's timestamp_end %llu",
	              t, s->clock_max);
}

/* Everything but ctf_stream_next's common case. */
static __attribute__((noinline)) int next_slow(struct ctf_stream *s)
{
	int rc;

	/* none until take_event sets it again (every step over an event in the loop below
	 * clears it: drop_event) */
	s->next_at = NO_NEXT;
	if (s->done) {
		drop_event(s);
		return 0;
	}
	if (s->ec && !skip_fixed(s) && (rc = finish_event(s)))
		return rc;
	for (;;) {
		if (s->done)
			return 0;
		if (!s->in_packet) {
			if ((rc = packet_open(s)))
				return rc;
			continue;
		}
		if (s->src.pos >= s->src.end_bits) {
			if (s->cut_bytes) {
				s->src.pos = 0; /* the packet's offset */
				return damage(
				    s, -SPOOR_ETRUNCATED,
				    "the file ends inside a packet (%llu of its %llu bytes "
				    "are there)",
				    s->pkt_bytes, s->cut_bytes);
			}
			s->in_packet = false;
			s->pkt_off += s->pkt_bytes;
			continue;
		}
		if (s->hdr_fast) {
			uint64_t before = s->src.pos;
			if (read_fast(s, s->src.pos)) { /* the payload found too (take_event) */
				if (!s->ec->pass_over)
					return 1;
				pass_fixed(s);
				continue;
			}
			if (s->src.pos != before)
				continue; /* it stepped over some: the packet may have ended */
		}
		uint64_t start = s->src.pos, was = s->clock;
		val_table_reset(&s->ev_table);
		s->dec.has_event_id = 0;
		const struct plan *hp = s->scp->event_header;
		if (!(hp && hp->hdr_fixed && decode_header_fast(&s->dec, hp)) &&
		    (rc = decode_header(&s->dec, hp)))
			return decode_damage(s, rc);
		/* first: an undeclared id may be declared later (live), its time not */
		if (!clock_in_order(was, s->clock, s->clock_max))
			return time_damage(s, start, was);
		uint64_t id = s->dec.has_event_id ? s->dec.event_id : 0;
		const struct ctf_stream_class *sc = s->sc;
		struct ctf_event_class *ec =
		    id < sc->by_id_len ? sc->by_id[id] : ctf_stream_event(sc, id);
		if (!ec && !s->dec.has_event_id && sc->nevents == 1)
			ec = sc->events[0];
		if (!ec) {
			s->src.pos = start;
			s->dec.hdr_plan = NULL;
			return damage(s, -SPOOR_ENOEVENT,
			              "event id %llu is not declared in stream class %llu", id,
			              sc->id);
		}
		if (!ec->plan && (rc = class_not_ready(s, ec, start)))
			return rc;
		s->ec = ec; /* next_at stays none: its end is found by next_slow */
		s->ecp = ec->plan;
		s->decoded = SPOOR_SCOPE_EVENT_HEADER;
		s->ts_cycles = s->clock;
		s->ts_ns = clock_now_ns(s);
		s->ev_start = start;
		if (!ec->pass_over) {
			s->pay_known = false;
			return 1;
		}
		if ((rc = pass_fixed(s)))
			return rc;
	}
}

int ctf_stream_next(struct ctf_stream *s)
{
	/* The common case, kept small: the event in hand was of a fixed size, the next one
	 * reads on the fast path and someone reads it. */
	uint64_t pos = s->next_at;
	if (pos < s->src.end_bits && read_fast(s, pos)) {
		if (!s->ec->pass_over)
			return 1;
		int rc = pass_fixed(s);
		if (rc)
			return rc;
	}
	return next_slow(s);
}
