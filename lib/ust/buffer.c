/* SPDX-License-Identifier: MIT */
/*
 * buffer.c: the emit path. Each thread writes into its own ring buffer (rb-abi.h), so a
 * reservation needs no atomic instruction and no lock: the thread is the only writer. A
 * signal handler that emits while its thread is inside an emit finds the thread busy and
 * counts its event as discarded, rather than corrupting the event in progress.
 *
 * The busy mark is also the event count: `busy` goes up by one on entering an emit and
 * by one on committing (down by one on a drop), so it is odd inside an emit and twice
 * the events committed outside. Packets record it when they open and close, so the
 * consumer can count the events of packets it never read at no cost per event.
 *
 * Events use LTTng's compact header (5-bit id, 27-bit timestamp) when the id is below 31
 * and less than 2^27 clock ticks passed since the thread's previous event, else the
 * extended one (32-bit id, 64-bit timestamp): the reader reconstructs full timestamps.
 * Everything after the packet context is byte-aligned (lib/ctf/meta-write.h, packed).
 * A thread's time never goes back in its stream, as readers require: an event stamped
 * before the previous one (a thread moved to a CPU whose TSC is a little behind) takes the
 * previous one's time.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "proto.h"
#include "rb/rb-abi.h"
#include "ust.h"

struct tbuf {
	unsigned gen; /* == ust.generation once set up in this process */
	struct rb_header *h;
	char *data;
	size_t map_size;
	uint64_t subbuf_size, nsub;
	uint64_t seq;   /* the packet in progress, or the next one */
	uint64_t off;   /* write offset in the packet */
	uint64_t clock; /* timestamp of the last event written: the reader's state */
	uint64_t pending_end;
	char *pkt; /* the packet in progress: no division per event */
	uint64_t discarded, pkt_seq;
	uint64_t busy; /* see above: changed by one instruction each time (busy_add) */
	uint32_t tid;
	bool open;
	char *scratch; /* payloads of events only probes want */
	size_t scratch_cap;
};

static __thread struct tbuf tb __attribute__((tls_model("initial-exec")));
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

static uint64_t tsc_or_ns(void)
{
	if (ust.clock_kind == CLOCK_KIND_TSC)
		return __rdtsc();
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static char *packet(const struct tbuf *b)
{
	return b->pkt;
}

/* One instruction, so a signal handler can't come between the read and the write. */
static inline void busy_add(struct tbuf *b, int64_t d)
{
	__asm__ volatile("addq %1, %0" : "+m"(b->busy) : "er"(d) : "memory");
}

/* The drop count, where a consumer reading a dead program's buffer finds it: published
 * again if a signal handler dropped an event of its own meanwhile. */
static void publish_drops(struct tbuf *b)
{
	uint64_t d;

	do {
		d = __atomic_load_n(&b->discarded, __ATOMIC_RELAXED);
		atomic_store_explicit(&b->h->discarded, d, memory_order_relaxed);
	} while (d != __atomic_load_n(&b->discarded, __ATOMIC_RELAXED));
}

/* An event dropped. A signal handler may drop one of its own in between (the thread is
 * busy): the count goes up in one instruction. */
__attribute__((cold, noinline)) static void count_drop(struct tbuf *b)
{
	__asm__ volatile("addq $1, %0" : "+m"(b->discarded) : : "memory");
	if (b->h)
		publish_drops(b);
}

__attribute__((cold, noinline)) static bool packet_open(struct tbuf *b, uint64_t ts)
{
	struct rb_header *h = b->h;

	/* Discard mode: the consumer has not taken the packet this one would overwrite. */
	if (ust.mode == RB_DISCARD &&
	    b->seq - atomic_load_explicit(&h->consumed, memory_order_acquire) >= b->nsub)
		return false;
	uint64_t idx = b->seq % b->nsub;
	/* Overwrite mode: the slot's closed packet is going; say so before touching it. */
	atomic_store_explicit(&h->sb[idx].seq, 0, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&h->sb[idx].events_begin, b->busy >> 1, memory_order_relaxed);
	if (b->seq == 0)
		atomic_store_explicit(&h->first_ts, ts, memory_order_relaxed);
	b->pkt = b->data + idx * b->subbuf_size;
	struct rb_packet_start ps = {
	    .magic = RB_PACKET_MAGIC,
	    .stream_instance_id = b->tid,
	    .timestamp_begin = ts,
	    .timestamp_end = ts,
	    .packet_size = b->subbuf_size * 8,
	    .packet_seq_num = b->pkt_seq++,
	    .events_discarded = b->discarded,
	    .vpid = (uint32_t) ust.pid,
	    .vtid = b->tid,
	};
	memcpy(ps.uuid, ust.uuid, 16);
	memcpy(packet(b), &ps, sizeof(ps));
	b->off = sizeof(ps);
	b->clock = ts;
	b->open = true;
	atomic_store_explicit(&h->open_seq, b->seq, memory_order_relaxed);
	atomic_store_explicit(&h->write_pos, b->off, memory_order_relaxed);
	atomic_store_explicit(&h->last_ts, ts, memory_order_relaxed);
	atomic_store_explicit(&h->open_valid, 1, memory_order_release);
	return true;
}

__attribute__((cold, noinline)) static void packet_close(struct tbuf *b)
{
	struct rb_header *h = b->h;
	struct rb_packet_start *ps = (struct rb_packet_start *) packet(b);
	uint64_t idx = b->seq % b->nsub;

	ps->timestamp_end = b->clock;
	ps->content_size = b->off * 8;
	/* A signal handler may drop an event meanwhile: the packet may miss it, the count
	 * published after it may not (the next packet, or a closing one, carries it). */
	ps->events_discarded = __atomic_load_n(&b->discarded, __ATOMIC_RELAXED);
	atomic_store_explicit(&h->open_valid, 0, memory_order_relaxed);
	publish_drops(b);
	atomic_store_explicit(&h->sb[idx].content_size, b->off, memory_order_relaxed);
	atomic_store_explicit(&h->sb[idx].events_end, b->busy >> 1, memory_order_relaxed);
	/* release: the packet's bytes are visible before its sequence number */
	atomic_store_explicit(&h->sb[idx].seq, b->seq + 1, memory_order_release);
	atomic_store_explicit(&h->produced, b->seq + 1, memory_order_release);
	b->seq++;
	b->open = false;
	/* seq_cst: the store of produced above must not pass the load of consumer_waiting,
	 * or a consumer going to sleep could miss this packet. Once per packet, not per event. */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&h->consumer_waiting, memory_order_relaxed) && ust.efd >= 0) {
		uint64_t one = 1;
		ssize_t n = write(ust.efd, &one, sizeof(one));
		(void) n;
	}
}

/* A thread's last packet is published when the thread ends. Signal handlers that emit
 * meanwhile find the thread busy, and their events are counted as dropped until the
 * buffer is gone. */
static void thread_exit(void *unused)
{
	struct tbuf *b = &tb;

	(void) unused;
	if (b->h && b->gen == ust.generation) {
		busy_add(b, 1);
		if (b->open)
			packet_close(b);
		struct rb_header *h = b->h;
		b->h = NULL;
		__asm__ volatile("" ::: "memory");
		munmap(h, b->map_size);
	}
	b->h = NULL;
	free(b->scratch);
	b->scratch = NULL;
	b->scratch_cap = 0;
}

static void make_exit_key(void)
{
	pthread_key_create(&exit_key, thread_exit);
}

/* tbuf_setup's work, with the thread's signals blocked. */
static bool tbuf_make(struct tbuf *b)
{
	char *scratch = b->scratch;
	size_t scratch_cap = b->scratch_cap;
	memset(b, 0, sizeof(*b));
	b->scratch = scratch; /* not the ring's: kept across a fork */
	b->scratch_cap = scratch_cap;
	b->gen = ust.generation;
	if (!ust.connected || !ust.num_subbufs || ust.num_subbufs > RB_MAX_SUBBUFS)
		return false;
	b->nsub = ust.num_subbufs;
	b->subbuf_size = ust.subbuf_size;
	uint64_t hdr = rb_header_bytes((uint32_t) b->nsub);
	b->map_size = hdr + b->nsub * b->subbuf_size;
	int fd = memfd_create("spoor-ring", MFD_CLOEXEC);
	if (fd < 0)
		return false;
	void *m = MAP_FAILED;
	if (ftruncate(fd, (off_t) b->map_size) == 0)
		m = mmap(NULL, b->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		close(fd);
		return false;
	}
	struct rb_header *h = m;
	h->magic = RB_MAGIC;
	h->header_size = (uint32_t) (sizeof(*h) + b->nsub * sizeof(h->sb[0]));
	h->abi_version = RB_ABI_VERSION;
	h->mode = ust.mode;
	h->subbuf_size = b->subbuf_size;
	h->num_subbufs = (uint32_t) b->nsub;
	b->tid = (uint32_t) gettid();
	h->tid = b->tid;
	h->data_offset = hdr;
	if (ust_send_buffer(fd, (int) b->tid, b->map_size)) {
		munmap(m, b->map_size);
		close(fd);
		return false;
	}
	close(fd);
	b->data = (char *) m + hdr;
	b->h = h;
	pthread_once(&exit_once, make_exit_key);
	pthread_setspecific(exit_key, b);
	return true;
}

/* A thread's first event: make its buffer and hand it to the session, with the thread's
 * signals blocked meanwhile (as LTTng-UST around its own set-up): a handler that emits
 * would find the buffer half made, or make a second one, through calls that are not
 * async-signal-safe (a mutex around the session's socket). Its signals wait, and their
 * handlers' events are recorded once the buffer is there. Once per thread. */
__attribute__((cold, noinline)) static bool tbuf_setup(struct tbuf *b)
{
	sigset_t all, old;
	bool ok;

	if (b->gen == ust.generation) /* made, or not to be made (no session) */
		return b->h != NULL;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	/* a handler may have made it between the test above and the mask */
	ok = b->gen == ust.generation ? b->h != NULL : tbuf_make(b);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}

static inline uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

/* Probes only (not recorded): the payload goes to a per-thread scratch area. */
static int reserve_scratch(const struct spoor_event_desc *ev, size_t size,
                           struct spoor_reservation *r)
{
	struct tbuf *b = &tb;

	if (size > b->scratch_cap) {
		char *bigger = realloc(b->scratch, size);
		if (!bigger)
			return 0;
		if (!b->scratch) { /* freed when the thread ends */
			pthread_once(&exit_once, make_exit_key);
			pthread_setspecific(exit_key, b);
		}
		b->scratch = bigger;
		b->scratch_cap = size;
	}
	r->payload = b->scratch;
	r->priv = NULL;
	r->ev = ev;
	r->size = size;
	r->probes = 1;
	return 1;
}

static int reserve_ring(const struct spoor_event_desc *ev, size_t size,
                        struct spoor_reservation *r);

int spoor_reserve(const struct spoor_event_desc *ev, size_t size, struct spoor_reservation *r)
{
	int enabled = __atomic_load_n(&ev->enabled, __ATOMIC_RELAXED);

	if (enabled & SPOOR_ENABLED_RECORD && reserve_ring(ev, size, r)) {
		r->ev = ev;
		r->size = size;
		r->probes = enabled & SPOOR_ENABLED_PROBES;
		return 1;
	}
	return enabled & SPOOR_ENABLED_PROBES ? reserve_scratch(ev, size, r) : 0;
}

static int reserve_ring(const struct spoor_event_desc *ev, size_t size, struct spoor_reservation *r)
{
	struct tbuf *b = &tb;

	if (__builtin_expect(b->gen != ust.generation || !b->h, 0) && !tbuf_setup(b))
		return 0;
	if (b->busy & 1) {
		/* a signal handler interrupted this thread's emit: drop */
		count_drop(b);
		return 0;
	}
	if (ust.paused)
		return 0;
	busy_add(b, 1); /* busy before anything else is touched */
	uint64_t ts = tsc_or_ns();
	if (ts < b->clock) /* time never goes back in a stream (see the top) */
		ts = b->clock;
	uint64_t al = ev->max_align ? ev->max_align : 1;
	uint32_t id = ev->id;
	/* Larger than an empty packet can hold: never fits. */
	if (sizeof(struct rb_packet_start) + 24 + al + size > b->subbuf_size)
		goto drop;
	for (int attempt = 0; attempt < 2; attempt++) {
		if (!b->open && !packet_open(b, ts))
			goto drop;
		uint64_t off = b->off, hdr_end, ext = 0;
		bool compact = id < 31 && ts - b->clock < ((uint64_t) 1 << 27);
		if (compact) {
			hdr_end = off + 4;
		} else {
			ext = off + 1; /* 5-bit id in a byte, then packed 32-bit id, 64-bit time */
			hdr_end = ext + 12;
		}
		uint64_t start = align_up(hdr_end, al), end = start + size;
		if (end > b->subbuf_size) {
			packet_close(b);
			continue;
		}
		char *p = packet(b);
		if (compact) {
			uint32_t w = id | (uint32_t) (ts & ((1u << 27) - 1)) << 5;
			memcpy(p + off, &w, 4);
		} else {
			uint32_t id32 = id;
			p[off] = 31;
			memcpy(p + ext, &id32, 4);
			memcpy(p + ext + 4, &ts, 8);
		}
		b->clock = ts;
		b->pending_end = end;
		r->payload = p + start;
		r->priv = b;
		return 1;
	}
drop:
	count_drop(b);
	busy_add(b, -1);
	return 0;
}

void spoor_commit(struct spoor_reservation *r)
{
	struct tbuf *b = r->priv;

	if (r->probes)
		ust_call_probes(r->ev, r->payload, r->size);
	if (!b)
		return;
	b->off = b->pending_end;
	atomic_store_explicit(&b->h->last_ts, b->clock, memory_order_relaxed);
	/* release: a consumer reading a dead program's last packet sees whole events */
	atomic_store_explicit(&b->h->write_pos, b->off, memory_order_release);
	busy_add(b, 1); /* committed: counted, and no longer busy */
}

void spoor_tracing_off(void)
{
	ust.paused = 1;
}

void spoor_tracing_on(void)
{
	ust.paused = 0;
}

static const struct spoor_field_desc printf_fields[] = {
    {"msg", SPOOR_FK_STRING, 1, 0, 10, 0, 1, 0, NULL, 0},
};
static struct spoor_event_desc printf_event = {
    sizeof(struct spoor_event_desc), 0, "spoor", "printf", printf_fields, 1, 0, 1, NULL,
};

void spoor_printf(const char *fmt, ...)
{
	char msg[512];
	struct spoor_reservation r;
	va_list ap;

	if (!__atomic_load_n(&printf_event.enabled, __ATOMIC_RELAXED))
		return;
	va_start(ap, fmt);
	int n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	size_t len = n < 0 ? 0 : (size_t) n >= sizeof(msg) ? sizeof(msg) - 1 : (size_t) n;
	msg[len] = '\0';
	if (spoor_reserve(&printf_event, len + 1, &r)) {
		memcpy(r.payload, msg, len + 1);
		spoor_commit(&r);
	}
}

__attribute__((constructor(200))) static void register_printf(void)
{
	struct spoor_event_desc *ev = &printf_event;
	spoor_register_events(&ev, 1);
}
