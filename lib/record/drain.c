/* SPDX-License-Identifier: MIT */
/*
 * drain.c: the consumer's side of one ring buffer (lib/rb/rb-abi.h): map it, take the
 * packets the producer closed, and at the end the packet it was writing. The buffer is
 * shared with a program that may be buggy, hostile or dead mid-write: every number read
 * from it is checked, and each packet is copied out before it is checked and written, so
 * the producer cannot change it between the check and the write.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drain.h"
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
	unsigned warnings;
	uint64_t discarded;          /* the largest events_discarded written so far */
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
	bool begin, end;
	uint64_t timestamp_begin, timestamp_end, events_discarded;
};

static void warn(struct rec_buffer *b, const char *what, unsigned long long n)
{
	/* A scribbling producer could flood the terminal: a few warnings per buffer. */
	if (b->warnings++ < 5)
		fprintf(stderr, "spoor record: warning: %s: %s (%llu)\n", b->path, what, n);
}

int rec_buffer_open(struct rec_buffer **out, int fd, const struct rec_buffer_geometry *g,
                    const char *path, char *err, size_t errlen)
{
	struct stat st;
	uint64_t hdr = rb_header_bytes(g->num_subbufs);
	uint64_t want = hdr + (uint64_t) g->num_subbufs * g->subbuf_size;

	*out = NULL;
	if (fstat(fd, &st) || (uint64_t) st.st_size != want) {
		snprintf(err, errlen, "size %lld, expected %llu", (long long) st.st_size,
		         (unsigned long long) want);
		return -EINVAL;
	}
	/* MAP_POPULATE: the consumer, not the traced thread, pays for allocating and zeroing
	 * the buffer's pages (measured: a third of an event's cost when the thread did). */
	void *m = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	if (m == MAP_FAILED) {
		snprintf(err, errlen, "mmap: %s", strerror(errno));
		return -errno;
	}
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
	b->live = g->live && !g->overwrite;
	b->out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (b->out_fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		rec_buffer_close(b, NULL);
		return -errno;
	}
	/* Producers ring the session's eventfd only while the consumer waits: always. */
	atomic_store_explicit(&h->consumer_waiting, 1, memory_order_seq_cst);
	*out = b;
	return 0;
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
	if (patch && patch->begin)
		ps.timestamp_begin = patch->timestamp_begin;
	if (patch && patch->end) { /* a packet in progress: the producer has not closed it */
		ps.timestamp_end = patch->timestamp_end;
		ps.events_discarded = patch->events_discarded;
	}
	if (b->live)
		ps.packet_seq_num = b->out_seq++;
	/* Written packets are trimmed to their content; sizes are in bits. */
	ps.content_size = bytes * 8;
	ps.packet_size = bytes * 8;
	memcpy(b->copy, &ps, sizeof(ps));
	size_t off = 0;
	while (off < bytes) {
		ssize_t w = write(b->out_fd, b->copy + off, bytes - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			warn(b, strerror(errno), bytes);
			t->damaged++;
			return -1;
		}
		off += (size_t) w;
	}
	t->packets++;
	t->bytes += bytes;
	if (ps.events_discarded > b->discarded)
		b->discarded = ps.events_discarded; /* cumulative per buffer: summed at close */
	b->last = ps;
	b->have_last = true;
	return 0;
}

static bool take_closed(struct rec_buffer *b, uint64_t n, struct record_totals *t)
{
	const struct rb_subbuf_state *st = &b->h->sb[n % b->nsub];

	if (atomic_load_explicit(&st->seq, memory_order_acquire) != n + 1) {
		warn(b, "packet not where it should be (overwritten or corrupt), skipped", n);
		t->damaged++;
		return false;
	}
	uint64_t bytes = atomic_load_explicit(&st->content_size, memory_order_relaxed);
	memcpy(b->copy, b->data + (n % b->nsub) * b->subbuf_size, b->subbuf_size);
	/* In overwrite mode the producer may have reused the slot during the copy. */
	if (atomic_load_explicit(&st->seq, memory_order_acquire) != n + 1) {
		warn(b, "packet overwritten while being read, skipped", n);
		return false;
	}
	struct patch p = {0};
	if (b->part_pos && b->part_seq == n) { /* its head went out in slices: the rest */
		uint64_t hs = sizeof(struct rb_packet_start), from = b->part_pos;
		b->part_pos = 0;
		if (bytes <= from || bytes > b->subbuf_size)
			return true;
		memmove(b->copy + hs, b->copy + from, bytes - from);
		bytes = hs + bytes - from;
		p = (struct patch){.begin = true, .timestamp_begin = b->part_ts};
	}
	emit_packet(b, bytes, &p, t);
	return true;
}

/* Events the producer dropped after its last packet (it found the ring full and never
 * opened another) are in no packet yet: an empty packet carries the final count, so that
 * readers see every loss. */
static void close_with_discarded(struct rec_buffer *b, struct record_totals *t)
{
	uint64_t lost = atomic_load_explicit(&b->h->discarded, memory_order_relaxed);

	if (!b->have_last || lost <= b->discarded)
		return;
	struct rb_packet_start ps = b->last;
	ps.timestamp_begin = ps.timestamp_end =
	    atomic_load_explicit(&b->h->last_ts, memory_order_relaxed);
	if (ps.timestamp_begin < b->last.timestamp_end)
		ps.timestamp_begin = ps.timestamp_end = b->last.timestamp_end;
	ps.packet_seq_num++;
	ps.events_discarded = lost;
	memcpy(b->copy, &ps, sizeof(ps));
	emit_packet(b, sizeof(ps), NULL, t);
}

/* The packet in progress (sub-buffer n), up to byte pos, from where the last slice ended. */
static void write_open(struct rec_buffer *b, uint64_t n, uint64_t pos, uint64_t end_ts,
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
	struct patch p = {
	    .begin = from != hs,
	    .timestamp_begin = b->part_ts,
	    .end = true,
	    .timestamp_end = end_ts,
	    .events_discarded = atomic_load_explicit(&b->h->discarded, memory_order_relaxed),
	};
	if (!emit_packet(b, hs + pos - from, &p, t) && b->live) {
		b->part_seq = n;
		b->part_pos = pos;
		b->part_ts = end_ts;
	}
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
		 * still holds (the open packet reuses the oldest slot). */
		if (!final)
			return;
		if (produced - first > b->nsub - 1)
			first = produced - (b->nsub - 1);
	} else if (produced - first > b->nsub) {
		/* A producer in discard mode never gets this far ahead: it lies. */
		warn(b, "producer ahead of the consumer by more than the ring", produced - first);
		t->damaged++;
		first = produced - b->nsub;
	}
	for (uint64_t n = first; n < produced; n++)
		take_closed(b, n, t);
	b->consumed = produced;
	atomic_store_explicit(&h->consumed, produced, memory_order_release);
	if (!final)
		return;
	/* The packet in progress, up to its last committed event. */
	if (!atomic_load_explicit(&h->open_valid, memory_order_acquire) ||
	    atomic_load_explicit(&h->open_seq, memory_order_relaxed) != produced) {
		close_with_discarded(b, t);
		return;
	}
	uint64_t bytes = atomic_load_explicit(&h->write_pos, memory_order_acquire);
	write_open(b, produced, bytes, atomic_load_explicit(&h->last_ts, memory_order_relaxed), t);
	close_with_discarded(b, t);
}

/* A producer rewrites a packet's header only when it closes it, and in discard mode reuses
 * its slot only once it is consumed: the committed bytes below the write position, read
 * with that position, stay as they are while they are copied. Three loads make a pair:
 * with the write position the same before and after, last_ts is the timestamp of the last
 * event below it or of the one being written next, a valid end for this slice and a valid
 * beginning for the next, which compact event headers then count from. */
void rec_buffer_flush_open(struct rec_buffer *b, struct record_totals *t)
{
	struct rb_header *h = b->h;

	if (!b->live || atomic_load_explicit(&h->produced, memory_order_acquire) != b->consumed ||
	    !atomic_load_explicit(&h->open_valid, memory_order_acquire) ||
	    atomic_load_explicit(&h->open_seq, memory_order_relaxed) != b->consumed)
		return;
	/* a thread emitting without pause moves on every few tens of ns: a few tries */
	for (int tries = 0; tries < 256; tries++) {
		uint64_t pos = atomic_load_explicit(&h->write_pos, memory_order_acquire);
		uint64_t ts = atomic_load_explicit(&h->last_ts, memory_order_acquire);
		if (atomic_load_explicit(&h->write_pos, memory_order_relaxed) == pos) {
			write_open(b, b->consumed, pos, ts, t);
			return;
		}
	}
}

void rec_buffer_close(struct rec_buffer *b, struct record_totals *t)
{
	if (!b)
		return;
	if (t)
		t->discarded += b->discarded;
	if (b->out_fd >= 0)
		close(b->out_fd);
	munmap(b->h, b->map_size);
	free(b->copy);
	free(b->path);
	free(b);
}
