/* SPDX-License-Identifier: MIT */
/* kpacket.c: CTF packets of a kernel stream (layout in kpacket.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kpacket.h"
#include "util/writeall.h"

#define CTF_MAGIC 0xC1FC1FC1u

int kpacket_open(struct kpacket *p, const char *path, const uint8_t uuid[16], uint64_t instance_id,
                 uint32_t cpu_id, size_t cap)
{
	*p = (struct kpacket){.fd = -1, .instance_id = instance_id, .cpu_id = cpu_id, .cap = cap};
	memcpy(p->uuid, uuid, 16);
	p->path = strdup(path);
	p->buf = malloc(cap);
	if (!p->path || !p->buf)
		return -ENOMEM;
	p->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	return p->fd < 0 ? -errno : 0;
}

static void put64(uint8_t *at, uint64_t v)
{
	memcpy(at, &v, 8);
}

static void put32(uint8_t *at, uint32_t v)
{
	memcpy(at, &v, 4);
}

int kpacket_flush(struct kpacket *p)
{
	if (!p->len || p->werr)
		return p->werr;
	uint8_t *h = p->buf;
	put32(h, CTF_MAGIC);
	memcpy(h + 4, p->uuid, 16);
	put32(h + 20, 0);
	put64(h + 24, p->instance_id);
	put64(h + 32, p->ts_begin);
	put64(h + 40, p->last_ts);
	put64(h + 48, (uint64_t) p->len * 8);
	put64(h + 56, (uint64_t) p->len * 8);
	put64(h + 64, p->seq);
	put64(h + 72, p->discarded);
	put32(h + 80, p->cpu_id);
	p->werr = write_all(p->fd, p->buf, p->len);
	if (p->werr) {
		/* a full disk: drop the partial packet, so the file ends on a whole one */
		if (ftruncate(p->fd, (off_t) p->bytes))
			p->werr = p->werr ? p->werr : -errno;
	} else {
		if (!p->packets)
			p->first_ts = p->ts_begin;
		p->prev_begin = p->ts_begin;
		p->packets++;
		p->bytes += p->len;
		p->seq++;
		p->discarded_written = p->discarded;
		p->events_written += p->packet_events;
	}
	p->len = 0;
	p->packet_events = 0;
	return p->werr;
}

/* Where a packet after the stream's last event begins, its first event (or end) at limit
 * (kpacket_begin_at: with a step, never where the packet before began). */
static uint64_t next_begin(const struct kpacket *p, uint64_t limit)
{
	uint64_t b = p->last_ts;
	if (!p->step || !p->seq || b != p->prev_begin)
		return b;
	return limit - b < p->step ? limit : b + p->step;
}

/* With p->grow, room for one more event of body_max in the packet in progress: false when
 * not (it is written then, as without grow). */
static bool grow(struct kpacket *p, size_t body_max)
{
	size_t need = p->len + KPACKET_EVENT_HEADER_MAX + body_max, cap = p->cap;
	while (p->grow && cap < need && cap <= SIZE_MAX / 2)
		cap *= 2;
	uint8_t *bigger = cap >= need ? realloc(p->buf, cap) : NULL;
	if (!bigger)
		return false;
	p->buf = bigger;
	p->cap = cap;
	return true;
}

uint8_t *kpacket_begin_event(struct kpacket *p, uint32_t id, uint64_t ts, size_t body_max)
{
	if (p->werr || KPACKET_HEADER + KPACKET_EVENT_HEADER_MAX + body_max > p->cap)
		return NULL;
	if (p->len && p->len + KPACKET_EVENT_HEADER_MAX + body_max > p->cap && !grow(p, body_max) &&
	    kpacket_flush(p))
		return NULL;
	if (ts < p->last_ts)
		ts = p->last_ts;
	if (!p->len) {
		p->len = KPACKET_HEADER;
		p->ts_begin = p->last_ts > 0 ? next_begin(p, ts) : ts;
	}
	uint8_t *o = p->buf + p->len;
	/* the first event of a stream has nothing to extend, so it is always extended */
	bool compact = id < 31 && p->events && ts - p->last_ts < ((uint64_t) 1 << 27);
	if (compact) {
		put32(o, id | (uint32_t) (ts & ((1u << 27) - 1)) << 5);
		o += 4;
	} else {
		o[0] = 31;
		put32(o + 1, id);
		put64(o + 5, ts);
		o += 13;
	}
	p->pending = (size_t) (o - p->buf);
	p->pending_ts = ts;
	return o;
}

void kpacket_end_event(struct kpacket *p, size_t body_len)
{
	p->len = p->pending + body_len;
	p->last_ts = p->pending_ts;
	p->events++;
	p->packet_events++;
}

void kpacket_begin_at(struct kpacket *p, uint64_t ts)
{
	if (ts > p->last_ts)
		p->last_ts = ts; /* where the next packet begins */
}

int kpacket_flush_at(struct kpacket *p, uint64_t ts)
{
	if (!p->len && !p->werr) {
		p->len = KPACKET_HEADER;
		p->ts_begin = p->last_ts;
	}
	if (ts > p->last_ts)
		p->last_ts = ts;
	return kpacket_flush(p);
}

int kpacket_extend(struct kpacket *p, uint64_t ts)
{
	int rc = kpacket_flush(p);
	if (rc || ts <= p->last_ts)
		return rc;
	p->len = KPACKET_HEADER;
	p->ts_begin = next_begin(p, ts);
	p->last_ts = ts;
	return kpacket_flush(p);
}

void kpacket_add_discarded(struct kpacket *p, uint64_t n)
{
	kpacket_flush(p);
	p->discarded += n;
}

int kpacket_close(struct kpacket *p)
{
	int rc = 0;
	if (p->fd >= 0) {
		/* a loss after the last packet still needs a packet to carry it */
		if (!p->len && p->discarded != p->discarded_written) {
			p->len = KPACKET_HEADER;
			p->ts_begin = p->last_ts;
		}
		rc = kpacket_flush(p);
		if (close(p->fd) && !rc)
			rc = -errno;
	}
	free(p->buf);
	free(p->path);
	p->buf = NULL;
	p->path = NULL;
	p->fd = -1;
	return rc;
}
