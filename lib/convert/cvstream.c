/* SPDX-License-Identifier: MIT */
/*
 * cvstream.c: one stream of a spoor kernel trace written again in the LTTng layout: each
 * event with its timestamp, its event context's common_pid as tid, its payload field by field as
 * its class's new layout says (a field left out, a priority's value moved, a block request's
 * rwbs text as flags, the context's tid in the payload too); the losses the packets
 * counted, between the same events. spoor's statedump_process events become
 * lttng_statedump_process_state ones, each dump (the events of one timestamp) between an
 * lttng_statedump_start and, after the recording's block devices, an lttng_statedump_end.
 */
#include <stdio.h>
#include <string.h>

#include "cv-int.h"
#include "cvfields.h"
#include "ctf/stream.h"
#include "kernel/kcpu.h"
#include "kernel/ksynth.h"
#include "kernel/procwalk.h"
#include "spoor/spoor.h"
#include "vocab/rwbs.h"

static int64_t int_at(const uint8_t *p, unsigned size, bool is_signed)
{
	uint64_t u = 0;
	memcpy(&u, p, size); /* little-endian */
	if (is_signed && size < 8 && (u >> (size * 8 - 1)) & 1)
		u |= ~(uint64_t) 0 << (size * 8);
	return (int64_t) u;
}

/* Where the event's payload fields lie, after its context; false when they run past its
 * packet's content. */
static bool locate(const struct cv *c, const struct cv_class *k, const uint8_t *ev, size_t len,
                   uint32_t *at, uint32_t *size)
{
	return len >= c->ctx_bytes &&
	       cv_extents(k->in, k->nin, ev + c->ctx_bytes, len - c->ctx_bytes, at, size) >= 0;
}

/* The event's payload in the class's new layout, after its context. */
static int reencode(struct kpacket *p, const struct cv *c, const struct cv_class *k, uint64_t ts,
                    const uint8_t *ev, size_t len)
{
	uint32_t at[CV_MAX_FIELDS], size[CV_MAX_FIELDS];
	if (!locate(c, k, ev, len, at, size))
		return -SPOOR_EDECODE;
	size_t tid = c->out.ncontext ? c->out.context[0].size : 0, body = tid;
	for (uint32_t i = 0; i < k->nout; i++)
		body += k->from[i] == CV_FROM_TID ? tid : k->rwbs[i] ? 4 : size[k->from[i]];
	uint8_t *o = kpacket_begin_event(p, k->id, ts, body);
	if (!o)
		return p->werr ? p->werr : -SPOOR_ELIMIT;
	memcpy(o, ev + c->tid_at, tid); /* common_pid, as tid */
	o += tid;
	const uint8_t *pay = ev + c->ctx_bytes;
	for (uint32_t i = 0; i < k->nout; i++) {
		if (k->from[i] == CV_FROM_TID) {
			memcpy(o, ev + c->tid_at, tid);
			o += tid;
			continue;
		}
		const struct spoor_field_desc *f = &k->in[k->from[i]];
		uint32_t n = size[k->from[i]];
		if (k->rwbs[i]) {
			uint32_t v = vocab_rwbs_flags((const char *) pay + at[k->from[i]], n);
			memcpy(o, &v, 4);
			o += 4;
			continue;
		}
		if (k->delta[i] && f->kind == SPOOR_FK_INT && !f->big_endian) {
			int64_t v = int_at(pay + at[k->from[i]], n, f->is_signed) + k->delta[i];
			memcpy(o, &v, n);
		} else {
			memcpy(o, pay + at[k->from[i]], n);
		}
		o += n;
	}
	kpacket_end_event(p, body);
	return 0;
}

/* spoor's dump event: what it says of a thread (no state: UNNAMED; kthreadd and its
 * children are the kernel's threads). */
static int dump_thread(struct kpacket *p, const struct cv *c, const struct cv_class *k, uint64_t ts,
                       const uint8_t *ev, size_t len)
{
	uint32_t at[CV_MAX_FIELDS], size[CV_MAX_FIELDS];
	if (!locate(c, k, ev, len, at, size))
		return -SPOOR_EDECODE;
	const uint8_t *pay = ev + c->ctx_bytes;
	int64_t v[3];
	for (int i = 0; i < 3; i++)
		v[i] = int_at(pay + at[k->dump[i]], k->in[k->dump[i]].size,
		              k->in[k->dump[i]].is_signed);
	struct proc_task t = {
	    .tid = (int) v[0], .pid = (int) v[1], .ppid = (int) v[2], .state = '?'};
	const struct spoor_field_desc *name = &k->in[k->dump[3]];
	size_t n = name->kind == SPOOR_FK_STRING ? size[k->dump[3]] - 1 : size[k->dump[3]];
	snprintf(t.comm, sizeof(t.comm), "%.*s", (int) n, (const char *) pay + at[k->dump[3]]);
	if (t.tid == 2 || t.ppid == 2)
		t.flags = PROC_PF_KTHREAD;
	statedump_lttng_thread(p, &c->out, &c->dump, ts, &t);
	return 0;
}

static void end_dump(struct kpacket *p, const struct cv *c, uint64_t ts)
{
	if (c->partitions[0])
		statedump_lttng_block_devices(p, &c->out, &c->dump, ts, c->partitions);
	statedump_lttng_emit(p, &c->out, &c->dump, SDL_END, ts);
}

int cv_stream(struct cv *c, size_t index, const char *out_path, struct kconvert_totals *t,
              char *err, size_t errlen)
{
	const char *in_path = c->in->stream_paths[index];
	struct ctf_stream s;
	struct kpacket p = {.fd = -1};
	int rc = ctf_stream_open(&s, c->in, in_path, index);
	if (rc) {
		snprintf(err, errlen, "%s", s.error[0] ? s.error : spoor_strerror(rc));
		ctf_stream_close(&s);
		return rc;
	}
	if (s.sc != c->sc) {
		snprintf(err, errlen, "%s: a stream class spoor's kernel traces do not have",
		         in_path);
		ctf_stream_close(&s);
		return -SPOOR_EUNSUPPORTED;
	}
	/* streams told apart by their instance ids (a trace without them: by their files) */
	rc = kpacket_open(&p, out_path, c->uuid, s.has_instance_id ? s.instance_id : index,
	                  (uint32_t) (s.cpu < 0 ? 0 : s.cpu), KCPU_PACKET_CAP);
	if (rc)
		snprintf(err, errlen, "%s: %s", out_path, strerror(-rc));
	uint64_t discarded = 0, dump_ts = 0;
	bool in_dump = false, dump_only = true;
	while (!rc && (rc = ctf_stream_next(&s)) == 1) {
		rc = 0;
		if (s.discarded != discarded) { /* lost before this packet */
			kpacket_add_discarded(&p, s.discarded - discarded);
			discarded = s.discarded;
		}
		const struct cv_class *k = s.ec->id < c->nids ? c->by_id[s.ec->id] : NULL;
		if (!k || s.src.pos % 8) {
			rc = -SPOOR_EUNSUPPORTED;
			break;
		}
		const uint8_t *ev = s.src.base + s.src.pos / 8;
		size_t len = (size_t) (s.src.end_bits / 8 - s.src.pos / 8);
		/* a dump's events share its time: the first other event ends it */
		if (in_dump && (!k->is_dump || s.ts_cycles != dump_ts)) {
			end_dump(&p, c, dump_ts);
			in_dump = false;
		}
		dump_only = dump_only && k->is_dump;
		if (k->is_dump) {
			if (!in_dump)
				statedump_lttng_emit(&p, &c->out, &c->dump, SDL_START, s.ts_cycles);
			in_dump = true;
			dump_ts = s.ts_cycles;
			rc = dump_thread(&p, c, k, s.ts_cycles, ev, len);
			t->threads += !rc;
		} else {
			rc = reencode(&p, c, k, s.ts_cycles, ev, len);
		}
		if (rc == -SPOOR_EDECODE)
			snprintf(
			    err, errlen, "%s: event %s at byte %llu runs past its packet's content",
			    in_path, s.ec->name, (unsigned long long) (s.pkt_off + s.ev_start / 8));
	}
	if (rc < 0 && !err[0])
		snprintf(err, errlen, "%s", s.error[0] ? s.error : spoor_strerror(rc));
	if (!rc) {
		if (in_dump)
			end_dump(&p, c, dump_ts);
		if (s.discarded != discarded)
			kpacket_add_discarded(&p, s.discarded - discarded);
		t->discarded += s.discarded;
		/* as the recorder writes it: the dump's stream spans the trace (kpacket_extend) */
		if (dump_only && p.events)
			rc = kpacket_extend(&p, c->end);
	}
	int wrc = p.fd >= 0 ? kpacket_close(&p) : 0;
	if (!rc && wrc) {
		rc = wrc;
		snprintf(err, errlen, "%s: %s", out_path, strerror(-wrc));
	}
	t->events += p.events_written;
	t->streams += !rc;
	ctf_stream_close(&s);
	return rc;
}
