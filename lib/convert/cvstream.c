/* SPDX-License-Identifier: MIT */
/*
 * cvstream.c: one stream of a spoor kernel trace written again in the LTTng layout: each
 * event with its timestamp, its event context's common_pid as tid, its payload field by field as
 * its class's new layout says (a field left out, a priority's value moved, a block request's
 * rwbs text as flags, the context's tid in the payload too); each input packet as one
 * output packet, with its bounds and the losses it counted, empty ones too. spoor's
 * statedump_process events become lttng_statedump_process_state ones, each dump (the
 * events of one timestamp) between an lttng_statedump_start and, after the recording's
 * block devices, an lttng_statedump_end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cv-int.h"
#include "cvfields.h"
#include "ctf/stream.h"
#include "kernel/kcpu.h"
#include "kernel/kpaths.h"
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

/* -k libc, as the recorder (kcpu.c): a libc_* event's paths wait in the stream's slot
 * (made at the first) for its thread's system call, which takes them (kpaths.h); the paths
 * it takes, or NULL. */
static const struct kpath_slot *pass_paths(struct kpath_slot **slot, const struct cv *c,
                                           const struct cv_class *k, const uint8_t *ev,
                                           const uint32_t *at, const uint32_t *size)
{
	int32_t tid;
	if (!c->out.ncontext || c->out.context[0].size != 4)
		return NULL;
	if (!*slot) {
		if (!(*slot = malloc(sizeof(**slot))))
			return NULL;
		(*slot)->fn = -1; /* none waits */
	}
	memcpy(&tid, ev + c->tid_at, 4); /* common_pid */
	if (k->path_call >= 0)
		return kpaths_take(*slot, k->path_call, tid);
	const char *s[2] = {"", ""};
	size_t len[2] = {0, 0};
	for (uint32_t i = 0, n = 0; i < k->nin && n < 2; i++)
		if (k->in[i].kind == SPOOR_FK_STRING) {
			s[n] = (const char *) ev + c->ctx_bytes + at[i];
			len[n++] = size[i] - 1; /* its NUL */
		}
	kpaths_capture(*slot, k->path_fn, tid, s, len);
	return NULL;
}

/* The event's payload in the class's new layout, after its context. */
static inline __attribute__((always_inline)) int reencode(struct kpacket *p, const struct cv *c,
                                                          const struct cv_class *k, uint64_t ts,
                                                          const uint8_t *ev, size_t len,
                                                          struct kpath_slot **slot)
{
	uint32_t at[CV_MAX_FIELDS], size[CV_MAX_FIELDS];
	if (!locate(c, k, ev, len, at, size))
		return -SPOOR_EDECODE;
	const struct kpath_slot *paths = NULL;
	if (k->path_fn >= 0 || k->path_call >= 0)
		paths = pass_paths(slot, c, k, ev, at, size);
	size_t tid = c->out.ncontext ? c->out.context[0].size : 0, body = tid;
	for (uint32_t i = 0; i < k->nout; i++)
		body += k->from[i] == CV_FROM_TID ? tid
		        : k->rwbs[i]              ? 4
		        : k->path[i] >= 0         ? (paths ? paths->len[k->path[i]] : 0) + 1u
		                                  : size[k->from[i]];
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
		if (k->path[i] >= 0) { /* the path, as a string: empty when none waited */
			n = paths ? paths->len[k->path[i]] : 0;
			memcpy(o, paths ? paths->s[k->path[i]] : "", n);
			o[n] = '\0';
			o += n + 1;
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

/* An integer field of an event located by locate(). */
static int64_t field_int(const struct cv_class *k, const uint8_t *pay, const uint32_t *at, int i)
{
	return int_at(pay + at[i], k->in[i].size, k->in[i].is_signed);
}

/* The task running: the event context's common_pid (0 without one). */
static int32_t running(const struct cv *c, const uint8_t *ev)
{
	int64_t tid = 0;
	if (c->out.ncontext)
		tid = int_at(ev + c->tid_at, c->out.context[0].size, c->out.context[0].is_signed);
	return (int32_t) tid;
}

/* A task_newtask's new task (its creator is the task running): noted in f's map, and, when
 * last, as the one its fork on this CPU follows. */
static void newtask(const struct cv *c, const struct cv_class *k, const uint8_t *ev, size_t len,
                    struct kfork_newtask *last, struct kfork *f)
{
	uint32_t at[CV_MAX_FIELDS], size[CV_MAX_FIELDS];
	struct kfork_newtask none;
	if (locate(c, k, ev, len, at, size)) {
		const uint8_t *pay = ev + c->ctx_bytes;
		kfork_newtask(last ? last : &none, f, running(c, ev),
		              (int32_t) field_int(k, pay, at, k->fork[0]),
		              (uint64_t) field_int(k, pay, at, k->fork[1]));
	}
}

/* A fork as LTTng's (kfork.h), its tgids from c->fork's map and the task_newtask before. */
static int fork_event(struct kpacket *p, struct cv *c, const struct cv_class *k, uint64_t ts,
                      const uint8_t *ev, size_t len, struct kfork_newtask *last)
{
	uint32_t at[CV_MAX_FIELDS], size[CV_MAX_FIELDS];
	if (!locate(c, k, ev, len, at, size))
		return -SPOOR_EDECODE;
	const uint8_t *pay = ev + c->ctx_bytes;
	struct kfork_task t[2];
	for (int i = 0; i < 2; i++) {
		int comm = k->fork[2 * i], tid = k->fork[2 * i + 1];
		t[i].comm = (const char *) pay + at[comm];
		t[i].len = size[comm]; /* a string's NUL, or an array's: kfork cuts there */
		t[i].tid = (int32_t) field_int(k, pay, at, tid);
	}
	if (kfork_emit(p, &c->out, k->id, ts, running(c, ev), last, &c->fork, &t[0], &t[1]))
		return p->werr ? p->werr : -SPOOR_ELIMIT;
	return 0;
}

/* spoor's dump event: what it says of a thread (no state: UNNAMED; kthreadd and its
 * children are the kernel's threads); its process noted for the forks. */
static int dump_thread(struct kpacket *p, struct cv *c, const struct cv_class *k, uint64_t ts,
                       const uint8_t *ev, size_t len)
{
	uint32_t at[CV_MAX_FIELDS], size[CV_MAX_FIELDS];
	if (!locate(c, k, ev, len, at, size))
		return -SPOOR_EDECODE;
	const uint8_t *pay = ev + c->ctx_bytes;
	int64_t v[3];
	for (int i = 0; i < 3; i++)
		v[i] = field_int(k, pay, at, k->dump[i]);
	struct proc_task t = {
	    .tid = (int) v[0], .pid = (int) v[1], .ppid = (int) v[2], .state = '?'};
	const struct spoor_field_desc *name = &k->in[k->dump[3]];
	size_t n = name->kind == SPOOR_FK_STRING ? size[k->dump[3]] - 1 : size[k->dump[3]];
	snprintf(t.comm, sizeof(t.comm), "%.*s", (int) n, (const char *) pay + at[k->dump[3]]);
	if (t.tid == 2 || t.ppid == 2)
		t.flags = PROC_PF_KTHREAD;
	ktgid_set(&c->fork.tgids, t.tid, t.pid);
	statedump_lttng_thread(p, &c->out, &c->dump, ts, &t);
	return 0;
}

static void end_dump(struct kpacket *p, const struct cv *c, uint64_t ts)
{
	if (c->partitions[0])
		statedump_lttng_block_devices(p, &c->out, &c->dump, ts, c->partitions);
	statedump_lttng_emit(p, &c->out, &c->dump, SDL_END, ts);
}

/* One stream being converted. */
struct cvs {
	struct ctf_stream s;
	/* the same file read packet by packet, headers and contexts only: the packet in hand
	 * is the one written (p), whose bounds and losses are its */
	struct ctf_stream pk;
	struct kpacket p;
	uint64_t discarded, dump_ts;
	bool in_dump;
	struct kfork_newtask last; /* its (CPU's) last task_newtask */
	struct kpath_slot *paths;  /* -k libc's paths waiting for their call (kpaths.h) */
};

static const char *stream_error(const struct ctf_stream *s, int rc)
{
	return s->error[0] ? s->error : spoor_strerror(rc);
}

/* The input's packet in hand begun in the output: where it begins, after the losses it
 * counts (before its first event, as the recorder counts them: kpacket_add_discarded). */
static void begin_packet(struct cvs *v)
{
	kpacket_begin_at(&v->p, v->pk.clock_min);
	if (v->pk.discarded != v->discarded) {
		kpacket_add_discarded(&v->p, v->pk.discarded - v->discarded);
		v->discarded = v->pk.discarded;
	}
}

/* The output's packet closed where the input's in hand ended, and the input's next
 * packets, empty ones too, written up to the one at byte `to` of the file, begun (past
 * the file's end: all of them). Each input packet is one output packet, so that a loss
 * lies between the same packets, bounded by the same times; one whose events outgrow
 * CV_PACKET_CAP in the new layout goes on in another packet (kpacket_begin_event). */
static int next_packets(struct cvs *v, uint64_t to, char *err, size_t errlen)
{
	while (v->pk.in_packet && v->pk.pkt_off != to) {
		struct ctf_packet_span sp;
		ctf_stream_packet_span(&v->pk, &sp);
		int rc = kpacket_flush_at(&v->p, sp.has_end ? v->pk.clock_max : 0);
		if (rc) {
			snprintf(err, errlen, "%s: %s", v->p.path, strerror(-rc));
			return rc;
		}
		rc = ctf_stream_next_packet(&v->pk);
		if (rc < 0) {
			snprintf(err, errlen, "%s", stream_error(&v->pk, rc));
			return rc;
		}
		if (rc)
			begin_packet(v);
	}
	if (to < v->pk.file_end && (!v->pk.in_packet || v->pk.pkt_off != to)) {
		snprintf(err, errlen, "%s: no packet begins at byte %llu", v->s.path,
		         (unsigned long long) to);
		return -SPOOR_EPACKET;
	}
	return 0;
}

/* Input stream i and its output in out_dir, at its first event: 1, 0 (no event), or < 0
 * with err set. */
static int open_one(struct cv *c, size_t i, struct cvs *v, const char *out_dir, char *err,
                    size_t errlen)
{
	const char *in_path = c->in->stream_paths[i], *base = strrchr(in_path, '/');
	char out_path[4300];
	snprintf(out_path, sizeof(out_path), "%s/%s", out_dir, base ? base + 1 : in_path);
	v->p.fd = -1;
	struct ctf_stream *bad = &v->s;
	int rc = ctf_stream_open(&v->s, c->in, in_path, i);
	if (!rc)
		rc = ctf_stream_open(bad = &v->pk, c->in, in_path, i);
	if (rc) {
		snprintf(err, errlen, "%s", stream_error(bad, rc));
		return rc;
	}
	if (v->s.sc != c->sc) {
		snprintf(err, errlen, "%s: a stream class spoor's kernel traces do not have",
		         in_path);
		return -SPOOR_EUNSUPPORTED;
	}
	/* streams told apart by their instance ids (a trace without them: by their files) */
	rc = kpacket_open(&v->p, out_path, c->uuid, v->s.has_instance_id ? v->s.instance_id : i,
	                  (uint32_t) (v->s.cpu < 0 ? 0 : v->s.cpu), CV_PACKET_CAP);
	if (rc) {
		snprintf(err, errlen, "%s: %s", out_path, strerror(-rc));
		return rc;
	}
	/* as the recorder writes it: every stream spans the trace, as LTTng's (an empty
	 * packet up to the input's first, when the input's stream begins later) */
	kpacket_begin_at(&v->p, c->begin);
	if (v->pk.in_packet && v->pk.clock_min > c->begin)
		rc = kpacket_flush_at(&v->p, v->pk.clock_min);
	if (rc) {
		snprintf(err, errlen, "%s: %s", out_path, strerror(-rc));
		return rc;
	}
	if (v->pk.in_packet)
		begin_packet(v);
	rc = ctf_stream_next(&v->s);
	if (rc < 0)
		snprintf(err, errlen, "%s", stream_error(&v->s, rc));
	return rc;
}

/* The stream's current event written again. 0, or < 0. */
static inline __attribute__((always_inline)) int
convert_one(struct cv *c, struct cvs *v, struct kconvert_totals *t, char *err, size_t errlen)
{
	struct ctf_stream *s = &v->s;
	struct kpacket *p = &v->p;
	const struct cv_class *k = s->ec->id < c->nids ? c->by_id[s->ec->id] : NULL;
	if (!k || s->src.pos % 8)
		return -SPOOR_EUNSUPPORTED;
	const uint8_t *ev = s->src.base + s->src.pos / 8;
	size_t len = (size_t) (s->src.end_bits / 8 - s->src.pos / 8);
	int rc;
	/* a dump's events share its time: the first other event ends it (in the packet of
	 * the dump's last event) */
	if (v->in_dump && (!k->is_dump || s->ts_cycles != v->dump_ts)) {
		end_dump(p, c, v->dump_ts);
		v->in_dump = false;
	}
	/* the event is in the input's next packet (or one after) */
	if (s->pkt_off != v->pk.pkt_off && (rc = next_packets(v, s->pkt_off, err, errlen)))
		return rc;
	if (k->is_dump) {
		if (!v->in_dump)
			statedump_lttng_emit(p, &c->out, &c->dump, SDL_START, s->ts_cycles);
		v->in_dump = true;
		v->dump_ts = s->ts_cycles;
		rc = dump_thread(p, c, k, s->ts_cycles, ev, len);
		t->threads += !rc;
	} else if (k->is_fork) {
		rc = fork_event(p, c, k, s->ts_cycles, ev, len, &v->last);
	} else {
		if (k->is_newtask)
			newtask(c, k, ev, len, &v->last, &c->fork);
		rc = reencode(p, c, k, s->ts_cycles, ev, len, &v->paths);
	}
	if (rc == -SPOOR_EDECODE)
		snprintf(err, errlen, "%s: event %s at byte %llu runs past its packet's content",
		         s->path, s->ec->name, (unsigned long long) (s->pkt_off + s->ev_start / 8));
	return rc;
}

/* The stream's end: its dump ended, its last losses, the stream spanning the trace
 * (kpacket_extend, as the recorder writes it), the file closed. */
static int close_one(struct cv *c, struct cvs *v, int rc, struct kconvert_totals *t, char *err,
                     size_t errlen)
{
	struct kpacket *p = &v->p;
	if (!rc) {
		if (v->in_dump)
			end_dump(p, c, v->dump_ts);
		rc = next_packets(v, UINT64_MAX, err, errlen);
		t->discarded += v->pk.discarded;
	}
	if (!rc)
		rc = kpacket_extend(p, c->end);
	char *path = p->path; /* for the message: kpacket_close frees it */
	p->path = NULL;
	int wrc = kpacket_close(p); /* its buffer too when the file could not be made */
	if (!rc && wrc) {
		rc = wrc;
		snprintf(err, errlen, "%s: %s", path ? path : "?", strerror(-wrc));
	}
	free(path);
	t->events += p->events_written;
	t->streams += !rc;
	free(v->paths);
	v->paths = NULL;
	ctf_stream_close(&v->s);
	ctf_stream_close(&v->pk);
	return rc;
}

/* The heap of streams with an event, earliest first (ties: in file order). */
static bool before(const struct cvs *v, size_t a, size_t b)
{
	uint64_t x = v[a].s.ts_cycles, y = v[b].s.ts_cycles;
	return x < y || (x == y && a < b);
}

static void sift_down(const struct cvs *v, size_t *h, size_t n, size_t i)
{
	for (size_t m; (m = 2 * i + 1) < n; i = m) {
		if (m + 1 < n && before(v, h[m + 1], h[m]))
			m++;
		if (!before(v, h[m], h[i]))
			break;
		size_t x = h[i];
		h[i] = h[m];
		h[m] = x;
	}
}

int cv_streams(struct cv *c, const char *out_dir, struct kconvert_totals *t, char *err,
               size_t errlen)
{
	size_t n = c->in->nstream_paths, nh = 0;
	struct cvs *v = calloc(n + 1, sizeof(*v));
	size_t *h = calloc(n + 1, sizeof(*h));
	int rc = v && h ? 0 : -ENOMEM;
	size_t opened = 0;
	for (; !rc && opened < n; opened++) {
		int more = open_one(c, opened, &v[opened], out_dir, err, errlen);
		if (more == 1)
			h[nh++] = opened;
		rc = more < 0 ? more : 0;
	}
	for (size_t i = nh; i-- > 0;)
		sift_down(v, h, nh, i);
	while (!rc && nh) {
		/* the earliest stream goes on while it stays before the next earliest: a
		 * compare per event, a sift per change of stream */
		size_t top = h[0], next = nh > 2 && before(v, h[2], h[1]) ? h[2] : h[1];
		struct cvs *s = &v[top];
		/* it goes on up to the next's time (at it too when it comes first in order) */
		uint64_t until = nh == 1 ? UINT64_MAX : v[next].s.ts_cycles;
		bool at_until = nh == 1 || top < next;
		int more;
		do {
			rc = convert_one(c, s, t, err, errlen);
			more = rc ? 0 : ctf_stream_next(&s->s);
		} while (more == 1 &&
		         (s->s.ts_cycles < until || (s->s.ts_cycles == until && at_until)));
		if (more < 0)
			rc = more;
		else if (more == 0)
			h[0] = h[--nh];
		sift_down(v, h, nh, 0);
	}
	if (rc < 0 && !err[0] && nh)
		snprintf(err, errlen, "%s",
		         v[h[0]].s.error[0] ? v[h[0]].s.error : spoor_strerror(rc));
	for (size_t i = 0; i < opened; i++) {
		int crc = close_one(c, &v[i], rc, t, err, errlen);
		rc = rc ? rc : crc;
	}
	free(v);
	free(h);
	return rc;
}
