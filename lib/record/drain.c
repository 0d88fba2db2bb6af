/* SPDX-License-Identifier: MIT */
/*
 * drain.c: the consumer's side of one ring buffer (lib/rb/rb-abi.h): map it, take the
 * packets the producer closed, and at the end the packet it was writing. The buffer is
 * shared with a program that may be buggy, hostile or dead mid-write: every number read
 * from it is checked, and each packet is copied out before it is checked and written, so
 * the producer cannot change it between the check and the write.
 *
 * Losses: a written packet's events_discarded is the producer's count of events it dropped
 * plus the events of the packets this buffer lost (overwritten by the flight recorder, or
 * skipped), found from the per-packet event counts (rb-abi.h); events_overwritten is the
 * second part alone. Both are cumulative, as CTF 1.8 wants, and the packets carry the ring's
 * sequence numbers, so babeltrace2 reports the lost packets and events. A stream that lost
 * events before its first written packet starts with an empty packet at the thread's first
 * event: a reader counts losses from one packet to the next, never before the first.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drain.h"
#include "log.h"
#include "rb/rb-abi.h"

struct rec_buffer {
	struct rb_header *h;
	size_t map_size;
	uint64_t subbuf_size, nsub;
	const char *data;
	bool overwrite;
	uint64_t consumed; /* our own count: the shared one is only a hint to the producer */
	int out_fd;
	char *path;
	char *copy; /* one sub-buffer */
	const struct rec_log *log;
	bool borrowed; /* a snapshot's reader: the ring is read, never told what was taken */
	unsigned warnings;
	bool write_failed;           /* a write failed: the stream ends at its last whole packet */
	uint64_t dropped;            /* the producer's discard count, as last written */
	uint64_t overwritten;        /* events of packets not written, so far */
	uint64_t next_seq;           /* the ring's first packet not yet accounted for... */
	uint64_t next_events;        /* ...and the events committed before it */
	bool counts_bad;             /* the producer's event counts lied once: no more counting */
	uint64_t per_packet;         /* the most events a packet can hold (4 bytes each) */
	uint64_t seq_shift;          /* 1 once a leading empty packet is written */
	struct rb_packet_start last; /* the last packet written, to make a closing one */
	bool have_last;
	/* Live sessions write the packet in progress in slices, each a packet of its own
	 * (rec_buffer_flush_open), and number the packets they write themselves. */
	bool live;
	uint64_t out_seq;  /* packet_seq_num of the next packet written */
	uint64_t part_seq; /* the sub-buffer partly written... */
	uint64_t part_pos; /* ...up to this byte (0: none) */
	uint64_t part_ts;  /* the timestamp_end of its last slice */
};

/* What a packet written from a sub-buffer says instead of its header. */
struct patch {
	uint64_t seq; /* the ring's sequence number of the packet */
	bool begin, end;
	uint64_t timestamp_begin, timestamp_end, events_discarded;
};

static void warn(struct rec_buffer *b, const char *what, unsigned long long n)
{
	/* A scribbling producer could flood the terminal: a few warnings per buffer. */
	if (b->warnings++ < 5)
		rec_log_warn(b->log, "%s: %s (%llu)", b->path, what, n);
}

/* Map the pages of m that its program has allocated, at once (a reader that faults them in
 * one by one as it reads can lose the race with a fast producer over a small flight
 * recorder), and not its holes: reading a hole of a memfd allocates a page, for the
 * reader, and a sparse memfd must cost the reader nothing. */
static void map_allocated(char *m, uint64_t len)
{
	size_t page = (size_t) sysconf(_SC_PAGESIZE), n = (size_t) ((len + page - 1) / page);
	unsigned char *vec = malloc(n);

	if (vec && !mincore(m, len, vec)) {
		for (size_t i = 0, j; i < n; i = j + 1) {
			for (j = i; j < n && (vec[j] & 1); j++)
				;
			if (j > i)
				madvise(m + i * page, (j - i) * page, MADV_POPULATE_READ);
		}
	}
	free(vec);
}

int rec_buffer_open(struct rec_buffer **out, int fd, const struct rec_buffer_geometry *g,
                    const char *path, char *err, size_t errlen)
{
	struct stat st;
	uint64_t hdr = rb_header_bytes(g->num_subbufs);
	uint64_t want = hdr + (uint64_t) g->num_subbufs * g->subbuf_size;

	*out = NULL;
	/* Mapped by a more privileged reader: a ring its program could still shrink would
	 * turn the reader's next access into a SIGBUS. */
	int seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || !(seals & F_SEAL_SHRINK)) {
		snprintf(err, errlen, "not a memfd sealed against shrinking (F_SEAL_SHRINK)");
		return -EINVAL;
	}
	if (fstat(fd, &st) || (uint64_t) st.st_size != want) {
		snprintf(err, errlen, "size %lld, expected %llu", (long long) st.st_size,
		         (unsigned long long) want);
		return -EINVAL;
	}
	/* No MAP_POPULATE: the program allocates its ring's pages (lib/ust/buffer.c). */
	void *m = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		snprintf(err, errlen, "mmap: %s", strerror(errno));
		return -errno;
	}
	map_allocated(m, want);
	struct rb_header *h = m;
	/* The geometry must be the one the session gave: never take it from the buffer. */
	if (h->magic != RB_MAGIC || h->abi_version != RB_ABI_VERSION ||
	    h->subbuf_size != g->subbuf_size || h->num_subbufs != g->num_subbufs ||
	    h->data_offset != hdr || h->mode != (g->overwrite ? RB_OVERWRITE : RB_DISCARD)) {
		munmap(m, want);
		snprintf(err, errlen, "bad ring buffer header");
		return -EINVAL;
	}
	struct rec_buffer *b = calloc(1, sizeof(*b));
	if (!b || !(b->copy = malloc(g->subbuf_size)) || !(b->path = strdup(path))) {
		if (b)
			free(b->copy);
		free(b);
		munmap(m, want);
		return -ENOMEM;
	}
	b->h = h;
	b->map_size = want;
	b->subbuf_size = g->subbuf_size;
	b->nsub = g->num_subbufs;
	b->data = (const char *) m + hdr;
	b->overwrite = g->overwrite;
	b->per_packet = (g->subbuf_size - sizeof(struct rb_packet_start)) / 4;
	b->live = g->live && !g->overwrite;
	/* never over an earlier stream: the caller picks another name on EEXIST */
	b->out_fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (b->out_fd < 0) {
		int rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		rec_buffer_close(b, NULL);
		return rc;
	}
	/* Producers ring the session's eventfd only while the consumer waits: always. */
	atomic_store_explicit(&h->consumer_waiting, 1, memory_order_seq_cst);
	*out = b;
	return 0;
}

static uint64_t lost_total(const struct rec_buffer *b)
{
	uint64_t sum;
	return __builtin_add_overflow(b->dropped, b->overwritten, &sum) ? UINT64_MAX : sum;
}

/* A write that fails (disk full) ends the stream at its last whole packet: the partial one
 * is cut off, and nothing more is written to it, so readers take it whole. */
static bool write_all(struct rec_buffer *b, const char *p, uint64_t bytes, struct record_totals *t)
{
	size_t off = 0;
	while (off < bytes && !b->write_failed) {
		ssize_t w = write(b->out_fd, p + off, bytes - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int err = w < 0 ? errno : ENOSPC;
			warn(b, strerror(err), bytes);
			if (!t->write_error)
				t->write_error = -err;
			off_t end = lseek(b->out_fd, 0, SEEK_CUR) - (off_t) off;
			if (off &&
			    (ftruncate(b->out_fd, end) || lseek(b->out_fd, end, SEEK_SET) < 0))
				warn(b, "cannot cut off the partial packet", off);
			b->write_failed = true;
		} else {
			off += (size_t) w;
		}
	}
	if (b->write_failed)
		t->unwritten++;
	return !b->write_failed;
}

/* An empty packet first, at the thread's first event, with nothing lost yet: the events
 * lost before the first written packet are then counted between the two (readers count
 * from a stream's first packet on), and the packets lost by the gap in sequence numbers. */
static void lead_packet(struct rec_buffer *b, const struct rb_packet_start *first,
                        struct record_totals *t)
{
	struct rb_packet_start ps = *first;
	uint64_t ts = atomic_load_explicit(&b->h->first_ts, memory_order_relaxed);

	if (!ts || ts > first->timestamp_begin) /* not written, or not true */
		ts = first->timestamp_begin;
	ps.timestamp_begin = ps.timestamp_end = ts;
	ps.content_size = ps.packet_size = sizeof(ps) * 8;
	ps.packet_seq_num = 0;
	ps.events_discarded = ps.events_overwritten = 0;
	if (b->live)
		b->out_seq++;
	else
		b->seq_shift = 1;
	if (write_all(b, (const char *) &ps, sizeof(ps), t)) {
		t->packets++;
		t->bytes += sizeof(ps);
	}
}

/* Ring packet n is about to be written, and the producer says it committed events_begin
 * events before it: those not in the packets written so far were lost with the packets in
 * between. The counts come from the program's memory: each is checked against what those
 * packets could hold, and one that is not true stops the counting for this buffer. */
static void count_lost_packets(struct rec_buffer *b, uint64_t n, uint64_t events_begin,
                               struct record_totals *t)
{
	uint64_t lost = events_begin - b->next_events, most;

	if (b->counts_bad)
		return;
	if (n < b->next_seq || events_begin < b->next_events ||
	    __builtin_mul_overflow(n - b->next_seq, b->per_packet, &most) || lost > most) {
		warn(b, "event counts not possible, overwritten events no longer counted", n);
		t->damaged++;
		b->counts_bad = true;
		return;
	}
	b->overwritten += lost;
	b->next_seq = n;
	b->next_events = events_begin;
}

/* ...and the packet was closed with events_end events committed, in `bytes`. */
static void count_closed(struct rec_buffer *b, uint64_t n, uint64_t events_end, uint64_t bytes,
                         struct record_totals *t)
{
	if (b->counts_bad)
		return;
	if (events_end < b->next_events || events_end - b->next_events > b->per_packet) {
		warn(b,
		     "event count of a packet not possible, overwritten events no longer counted",
		     n);
		t->damaged++;
		b->counts_bad = true;
		return;
	}
	if (bytes <= b->subbuf_size) {
		t->counted_events += events_end - b->next_events;
		t->counted_bytes += bytes;
	}
	b->next_seq = n + 1;
	b->next_events = events_end;
}

/* Check the copied packet of `bytes` content bytes, trim it to its content, write it. */
static int emit_packet(struct rec_buffer *b, uint64_t bytes, const struct patch *patch,
                       struct record_totals *t)
{
	struct rb_packet_start ps;

	if (bytes < sizeof(ps) || bytes > b->subbuf_size) {
		warn(b, "packet size out of bounds, packet skipped", bytes);
		t->damaged++;
		return -1;
	}
	memcpy(&ps, b->copy, sizeof(ps));
	if (ps.magic != RB_PACKET_MAGIC) {
		warn(b, "bad packet magic, packet skipped", ps.magic);
		t->damaged++;
		return -1;
	}
	if (patch->begin)
		ps.timestamp_begin = patch->timestamp_begin;
	if (patch->end) { /* a packet in progress: the producer has not closed it */
		ps.timestamp_end = patch->timestamp_end;
		ps.events_discarded = patch->events_discarded;
	}
	if (ps.events_discarded < b->dropped) {
		warn(b, "discarded-events count went backwards", ps.events_discarded);
		t->damaged++;
		ps.events_discarded = b->dropped;
	}
	b->dropped = ps.events_discarded;
	if (!b->have_last && (patch->seq || b->dropped || b->overwritten))
		lead_packet(b, &ps, t);
	ps.packet_seq_num = b->live ? b->out_seq++ : patch->seq + b->seq_shift;
	ps.events_overwritten = b->overwritten;
	ps.events_discarded = lost_total(b);
	/* Written packets are trimmed to their content; sizes are in bits. */
	ps.content_size = bytes * 8;
	ps.packet_size = bytes * 8;
	memcpy(b->copy, &ps, sizeof(ps));
	if (!write_all(b, b->copy, bytes, t))
		return -1;
	t->packets++;
	t->bytes += bytes;
	b->last = ps;
	b->have_last = true;
	return 0;
}

/* Where the rest of a packet whose head went out in slices begins: at its first event
 * (at `ev`, `avail` bytes) when its header (meta-write.h: LTTng's compact header, or the
 * extended one, packed) says so within [the last slice's end, end], else at the last
 * slice's end. So two packets of a stream rarely begin at the same time (a slice of one
 * event ends where it begins): babeltrace2, merging a stream's files from several chunks,
 * orders packets by their beginnings. Once per slice, not per event. */
static uint64_t rest_begin(const struct rec_buffer *b, const char *ev, uint64_t avail, uint64_t end)
{
	uint64_t ts, after = b->part_ts;
	uint32_t w, mask = (1u << 27) - 1;

	if (avail < 4)
		return after;
	memcpy(&w, ev, 4);
	if ((w & 31) != 31) {
		ts = (after & ~(uint64_t) mask) | (w >> 5);
		if (ts < after)
			ts += (uint64_t) mask + 1;
	} else if (avail >= 13) {
		memcpy(&ts, ev + 5, 8);
	} else {
		return after;
	}
	return ts >= after && ts <= end ? ts : after;
}

static bool take_closed(struct rec_buffer *b, uint64_t n, struct record_totals *t)
{
	const struct rb_subbuf_state *st = &b->h->sb[n % b->nsub];
	uint64_t seq = atomic_load_explicit(&st->seq, memory_order_acquire);

	if (seq != n + 1) {
		/* A flight recorder's final drain while the program still runs (--duration,
		 * Ctrl-C): the producer is reusing the slot, or has closed a later packet there.
		 * Not damage: its events are counted as overwritten with the next packet taken. */
		if (b->overwrite && (seq == 0 || seq > n + 1))
			return false;
		warn(b, "packet not where it should be (overwritten or corrupt), skipped", n);
		t->damaged++;
		return false;
	}
	uint64_t bytes = atomic_load_explicit(&st->content_size, memory_order_relaxed);
	uint64_t ev_begin = atomic_load_explicit(&st->events_begin, memory_order_relaxed);
	uint64_t ev_end = atomic_load_explicit(&st->events_end, memory_order_relaxed);
	memcpy(b->copy, b->data + (n % b->nsub) * b->subbuf_size, b->subbuf_size);
	/* In overwrite mode the producer may have reused the slot during the copy (it marks
	 * the slot first): the packet's events count as overwritten. */
	atomic_thread_fence(memory_order_acquire);
	if (atomic_load_explicit(&st->seq, memory_order_relaxed) != n + 1) {
		if (!b->overwrite)
			warn(b, "packet overwritten while being read, skipped", n);
		return false;
	}
	count_lost_packets(b, n, ev_begin, t);
	count_closed(b, n, ev_end, bytes, t);
	struct patch p = {.seq = n};
	if (b->part_pos && b->part_seq == n) { /* its head went out in slices: the rest */
		uint64_t hs = sizeof(struct rb_packet_start), from = b->part_pos;
		b->part_pos = 0;
		if (bytes <= from || bytes > b->subbuf_size) {
			if (!b->live) /* no rest: its number goes to the next packet */
				b->seq_shift--;
			return true;
		}
		memmove(b->copy + hs, b->copy + from, bytes - from);
		bytes = hs + bytes - from;
		p.begin = true;
		uint64_t end;
		memcpy(&end, b->copy + offsetof(struct rb_packet_start, timestamp_end), 8);
		p.timestamp_begin = rest_begin(b, b->copy + hs, bytes - hs, end);
	}
	emit_packet(b, bytes, &p, t);
	return true;
}

/* Events the producer dropped after its last packet (it found the ring full and never
 * opened another) are in no packet yet: an empty packet carries the final count, so that
 * readers see every loss. */
static void close_with_discarded(struct rec_buffer *b, struct record_totals *t)
{
	uint64_t dropped = atomic_load_explicit(&b->h->discarded, memory_order_relaxed);

	if (!b->have_last || dropped <= b->dropped)
		return;
	struct rb_packet_start ps = b->last;
	ps.timestamp_begin = ps.timestamp_end =
	    atomic_load_explicit(&b->h->last_ts, memory_order_relaxed);
	if (ps.timestamp_begin < b->last.timestamp_end)
		ps.timestamp_begin = ps.timestamp_end = b->last.timestamp_end;
	ps.events_discarded = dropped;
	memcpy(b->copy, &ps, sizeof(ps));
	/* its sequence number follows the last one's: no packet lost in between */
	struct patch p = {.seq = b->last.packet_seq_num + 1 - b->seq_shift};
	emit_packet(b, sizeof(ps), &p, t);
}

/* The packet in progress (sub-buffer n), up to byte pos, from where the last slice ended;
 * with slice, the rest will follow as a packet of its own (live flushes, rotation). */
static void write_open(struct rec_buffer *b, uint64_t n, uint64_t pos, uint64_t end_ts, bool slice,
                       struct record_totals *t)
{
	uint64_t hs = sizeof(struct rb_packet_start);
	uint64_t from = b->part_pos && b->part_seq == n ? b->part_pos : hs;

	if (pos <= from)
		return; /* nothing committed since */
	if (pos > b->subbuf_size) {
		warn(b, "write position out of bounds", pos);
		t->damaged++;
		return;
	}
	const char *sub = b->data + (n % b->nsub) * b->subbuf_size;
	memcpy(b->copy, sub, hs);
	memcpy(b->copy + hs, sub + from, pos - from);
	if (b->overwrite) {
		/* A flight recorder read while the program runs (a snapshot, a final drain
		 * before the program ends): the bytes below pos stay as they are while the
		 * packet is open or closed in its slot; the producer marks the slot before it
		 * reuses it, and says it opened a later packet before that. */
		atomic_thread_fence(memory_order_acquire);
		if (atomic_load_explicit(&b->h->open_seq, memory_order_relaxed) != n &&
		    atomic_load_explicit(&b->h->sb[n % b->nsub].seq, memory_order_relaxed) != n + 1)
			return;
	}
	count_lost_packets(
	    b, n, atomic_load_explicit(&b->h->sb[n % b->nsub].events_begin, memory_order_relaxed),
	    t);
	struct patch p = {
	    .seq = n,
	    .begin = from != hs,
	    .timestamp_begin = from != hs ? rest_begin(b, b->copy + hs, pos - from, end_ts) : 0,
	    .end = true,
	    .timestamp_end = end_ts,
	    .events_discarded = atomic_load_explicit(&b->h->discarded, memory_order_relaxed),
	};
	if (!emit_packet(b, hs + pos - from, &p, t) && slice) {
		b->part_seq = n;
		b->part_pos = pos;
		b->part_ts = end_ts;
		if (!b->live) /* numbered from the ring's: the rest and those after move by one */
			b->seq_shift++;
	}
}

/* The write position of the packet in progress and a timestamp that ends it; false if the
 * producer kept moving. Three loads make a pair: with the write position the same before
 * and after, last_ts is the timestamp of the last event below it or of the one being
 * written next, a valid end for a slice and a valid beginning for the next, which compact
 * event headers then count from. */
static bool committed_pos(const struct rb_header *h, uint64_t *pos, uint64_t *ts)
{
	/* a thread emitting without pause moves on every few tens of ns: a few tries */
	for (int tries = 0; tries < 256; tries++) {
		*pos = atomic_load_explicit(&h->write_pos, memory_order_acquire);
		*ts = atomic_load_explicit(&h->last_ts, memory_order_acquire);
		if (atomic_load_explicit(&h->write_pos, memory_order_relaxed) == *pos)
			return true;
	}
	return false;
}

void rec_buffer_drain(struct rec_buffer *b, bool final, struct record_totals *t)
{
	struct rb_header *h = b->h;
	uint64_t produced = atomic_load_explicit(&h->produced, memory_order_acquire);

	if (produced < b->consumed) {
		warn(b, "produced count went backwards", produced);
		t->damaged++;
		b->consumed = produced;
	}
	uint64_t first = b->consumed;
	if (b->overwrite) {
		/* The flight recorder is read once, at the end: the latest packets the ring
		 * still holds (an open packet reuses the oldest slot). */
		if (!final)
			return;
		bool open = atomic_load_explicit(&h->open_valid, memory_order_acquire) &&
		            atomic_load_explicit(&h->open_seq, memory_order_relaxed) == produced;
		uint64_t keep = open ? b->nsub - 1 : b->nsub;
		if (produced - first > keep)
			first = produced - keep;
	} else if (produced - first > b->nsub) {
		/* A producer in discard mode never gets this far ahead: it lies. */
		warn(b, "producer ahead of the consumer by more than the ring", produced - first);
		t->damaged++;
		first = produced - b->nsub;
	}
	for (uint64_t n = first; n < produced; n++)
		take_closed(b, n, t);
	b->consumed = produced;
	if (!b->borrowed)
		atomic_store_explicit(&h->consumed, produced, memory_order_release);
	if (!final)
		return;
	/* The packet in progress, up to its last committed event. */
	if (!atomic_load_explicit(&h->open_valid, memory_order_acquire) ||
	    atomic_load_explicit(&h->open_seq, memory_order_relaxed) != produced) {
		close_with_discarded(b, t);
		return;
	}
	uint64_t bytes, ts;
	/* still moving after the tries: its last pair stands, a later end is still an end */
	(void) committed_pos(h, &bytes, &ts);
	write_open(b, produced, bytes, ts, false, t);
	close_with_discarded(b, t);
}

/* A producer rewrites a packet's header only when it closes it, and in discard mode reuses
 * its slot only once it is consumed: the committed bytes below the write position, read
 * with that position, stay as they are while they are copied (committed_pos). True when
 * the committed part is out, or there is none; false when a packet closed since the last
 * drain, or the producer kept moving. */
static bool flush_open(struct rec_buffer *b, struct record_totals *t)
{
	struct rb_header *h = b->h;
	uint64_t pos, ts;

	if (atomic_load_explicit(&h->produced, memory_order_acquire) != b->consumed)
		return false; /* a packet closed since the drain: drain again first */
	if (!atomic_load_explicit(&h->open_valid, memory_order_acquire) ||
	    atomic_load_explicit(&h->open_seq, memory_order_relaxed) != b->consumed)
		return true; /* none in progress */
	if (!committed_pos(h, &pos, &ts))
		return false;
	write_open(b, b->consumed, pos, ts, true, t);
	return true;
}

void rec_buffer_flush_open(struct rec_buffer *b, struct record_totals *t)
{
	if (b->live)
		flush_open(b, t);
}

/* A second reader of the same ring with a state of its own, as if nothing had been read:
 * the flight recorder's final drain, into another file, while the producer goes on. */
int rec_buffer_snapshot(const struct rec_buffer *b, const char *path, struct record_totals *t,
                        char *err, size_t errlen)
{
	if (!b->overwrite) {
		snprintf(err, errlen, "%s: not a flight recorder (overwrite mode)", b->path);
		return -EINVAL;
	}
	struct rec_buffer *s = malloc(sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	*s = (struct rec_buffer){.h = b->h,
	                         .subbuf_size = b->subbuf_size,
	                         .nsub = b->nsub,
	                         .data = b->data,
	                         .overwrite = true,
	                         .per_packet = b->per_packet,
	                         .log = b->log,
	                         .borrowed = true,
	                         .copy = malloc(b->subbuf_size),
	                         .path = strdup(path)};
	s->out_fd =
	    s->copy && s->path ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
	if (s->out_fd < 0) {
		int rc = s->copy && s->path ? -errno : -ENOMEM;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		rec_buffer_close(s, NULL);
		return rc;
	}
	rec_buffer_drain(s, true, t);
	int rc = s->write_failed ? (t->write_error ? t->write_error : -EIO) : 0;
	if (rc)
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
	rec_buffer_close(s, t);
	return rc;
}

void rec_buffer_end_chunk(struct rec_buffer *b, struct record_totals *t)
{
	if (b->overwrite)
		return;
	/* a packet closed between the drain and the flush is taken by the next drain */
	for (int tries = 0; tries < 16; tries++) {
		rec_buffer_drain(b, false, t);
		if (flush_open(b, t))
			return;
	}
}

int rec_buffer_switch_file(struct rec_buffer *b, const char *path, char *err, size_t errlen)
{
	char *p = strdup(path);
	int fd = p ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;

	if (fd < 0) {
		int rc = p ? -errno : -ENOMEM;
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		free(p);
		return rc;
	}
	if (b->out_fd >= 0)
		close(b->out_fd);
	b->out_fd = fd;
	free(b->path);
	b->path = p;
	b->write_failed = false; /* a new file: a stream cut short by a full disk goes on */
	return 0;
}

void rec_buffer_usage(const struct rec_buffer *b, struct rec_buffer_usage *u)
{
	const struct rb_header *h = b->h;
	uint64_t produced = atomic_load_explicit(&h->produced, memory_order_acquire);
	bool open = atomic_load_explicit(&h->open_valid, memory_order_acquire) &&
	            atomic_load_explicit(&h->open_seq, memory_order_relaxed) == produced;
	uint64_t pos = open ? atomic_load_explicit(&h->write_pos, memory_order_relaxed) : 0;
	uint64_t keep = open ? b->nsub - 1 : b->nsub, full;

	u->size = b->nsub * b->subbuf_size;
	u->overwritten = b->overwritten;
	if (b->overwrite) {
		full = produced < keep ? produced : keep;
		/* the events committed before the oldest packet the ring still holds */
		uint64_t oldest = produced - full;
		const struct rb_subbuf_state *st = &h->sb[oldest % b->nsub];
		if (full && atomic_load_explicit(&st->seq, memory_order_acquire) == oldest + 1)
			u->overwritten =
			    atomic_load_explicit(&st->events_begin, memory_order_relaxed);
	} else {
		full = produced - b->consumed < keep ? produced - b->consumed : keep;
	}
	u->used = full * b->subbuf_size + (pos < b->subbuf_size ? pos : b->subbuf_size);
	uint64_t dropped = atomic_load_explicit(&h->discarded, memory_order_relaxed);
	u->discarded = dropped > b->dropped ? dropped : b->dropped;
}

void rec_buffer_set_log(struct rec_buffer *b, const struct rec_log *log)
{
	b->log = log;
}

void rec_buffer_close(struct rec_buffer *b, struct record_totals *t)
{
	if (!b)
		return;
	if (t) {
		t->discarded += b->dropped;
		t->overwritten += b->overwritten;
		if (lost_total(b) > t->worst_lost)
			t->worst_lost = lost_total(b);
	}
	if (b->out_fd >= 0)
		close(b->out_fd);
	if (!b->borrowed)
		munmap(b->h, b->map_size);
	free(b->copy);
	free(b->path);
	free(b);
}
