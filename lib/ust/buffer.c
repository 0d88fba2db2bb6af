/* SPDX-License-Identifier: MIT */
/*
 * buffer.c: the emit path. Each thread writes into its own ring buffer (rb-abi.h) of each
 * session slot, so a reservation needs no atomic instruction and no lock: the thread is the
 * only writer. An event is reserved in the ring of its first slot (the lowest bit of the
 * slot mask in its `enabled` word, ust.h), and spoor_commit copies it into the rings of
 * its other slots, with the same timestamp; each ring counts its own drops. A
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
 *
 * Most events never come here: the call site's inline path (tracepoint.h) writes them
 * itself, by the same rules, in the ring whose head (struct spoor_ring_fast) this file
 * keeps ready for it: `room` is the packet's size only while a packet is open, the clock is
 * the TSC and the ring is its slot's, so that anything else (a new packet, another clock, a
 * session's end, a forked child's inherited ring) comes out of line.
 */
#include <errno.h>
#include <fcntl.h>
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

#include "prefault.h"
#include "rb/rb-abi.h"
#include "ust.h"

/* One thread's ring of one slot. Its head is what the inline path reads and writes
 * (tracepoint-types.h): the busy mark, the packet's offset, room and clock. */
struct tbuf {
	struct spoor_ring_fast f;
	unsigned gen; /* == ust_slot_gen[slot] while current (ust.h) */
	uint32_t tid;
	struct rb_header *h;
	char *data;
	uint64_t subbuf_size, nsub;
	uint64_t seq; /* the packet in progress, or the next one */
	uint64_t pending_end;
	uint64_t discarded, pkt_seq;
	size_t map_size;
	uint32_t mode, clock_kind;
	int efd;
	bool open;
	uint8_t uuid[16];
	struct tbuf *next, **pprev; /* in rings[slot], with the lock; pprev NULL: not */
};

/* The inline ABI's numbers, which the runtime shares with programs built before. */
_Static_assert(PROTO_MAX_SLOTS == SPOOR_MAX_SLOTS, "slots: the inline ABI's count");
_Static_assert(offsetof(struct rb_header, last_ts) == offsetof(struct rb_header, write_pos) + 8,
               "spoor_ring_fast.pub: write_pos, then last_ts");

/* spoor_ring_fast.room: while the ring is current (not stopped), its owner opens and closes
 * it per packet; once stopped, by any thread, it stays stopped. */
#define ROOM_STOPPED 1 /* no event fits: its header alone takes 4 bytes */

static void room_open(struct tbuf *b)
{
	uint64_t closed = 0;

	if (b->clock_kind == CLOCK_KIND_TSC) /* the inline path writes the TSC */
		__atomic_compare_exchange_n(&b->f.room, &closed, b->subbuf_size, false,
		                            __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

static void room_close(struct tbuf *b)
{
	uint64_t open = b->subbuf_size;

	__atomic_compare_exchange_n(&b->f.room, &open, 0, false, __ATOMIC_RELAXED,
	                            __ATOMIC_RELAXED);
}

/* The ring is no longer its slot's: its thread's next event comes out of line (and finds
 * the generation changed). Lock held, from any thread. */
static void room_stop(struct tbuf *b)
{
	__atomic_store_n(&b->f.room, ROOM_STOPPED, __ATOMIC_RELAXED);
}

/* A thread's state: its rings (in one mapping made at its first recorded event; by slot in
 * spoor__thread_rings), and the scratch area of events only probes want. */
struct tstate {
	struct tbuf *bufs;
	char *scratch;
	size_t scratch_cap;
	bool hooked, ended;
};

/* Exported: the inline path finds the thread's ring of a slot here, and whether tracing is
 * paused (spoor_tracing_off()). */
__thread struct spoor_thread_rings spoor__thread_rings __attribute__((tls_model("initial-exec")));
int32_t spoor__paused;
static __thread struct tstate tl __attribute__((tls_model("initial-exec")));
/* Every thread's ring of each slot, so that a slot's memory goes back as soon as its session
 * ends, while the rings' owners are busy elsewhere (ust_rings_drop). Guarded by the lock. */
static struct tbuf *rings[PROTO_MAX_SLOTS];
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

static inline uint64_t now(const struct tbuf *b)
{
	if (b->clock_kind == CLOCK_KIND_TSC)
		return __rdtsc();
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static char *packet(const struct tbuf *b)
{
	return b->f.pkt;
}

/* One instruction, so a signal handler can't come between the read and the write. */
static inline void busy_add(struct tbuf *b, int64_t d)
{
	__asm__ volatile("addq %1, %0" : "+m"(b->f.busy) : "er"(d) : "memory");
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
	if (b->mode == RB_DISCARD &&
	    b->seq - atomic_load_explicit(&h->consumed, memory_order_acquire) >= b->nsub)
		return false;
	uint64_t idx = b->seq % b->nsub;
	/* Overwrite mode: the slot's closed packet is going; say so before touching it. */
	atomic_store_explicit(&h->sb[idx].seq, 0, memory_order_relaxed);
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&h->sb[idx].events_begin, b->f.busy >> 1, memory_order_relaxed);
	if (b->seq == 0)
		atomic_store_explicit(&h->first_ts, ts, memory_order_relaxed);
	b->f.pkt = b->data + idx * b->subbuf_size;
	struct rb_packet_start ps = {
	    .magic = RB_PACKET_MAGIC,
	    .stream_instance_id = b->tid,
	    .timestamp_begin = ts,
	    .timestamp_end = ts,
	    .packet_size = b->subbuf_size * 8,
	    .packet_seq_num = b->pkt_seq++,
	    .events_discarded = b->discarded,
	    .vpid = (uint32_t) ust_pid,
	    .vtid = b->tid,
	};
	memcpy(ps.uuid, b->uuid, 16);
	memcpy(packet(b), &ps, sizeof(ps));
	b->f.off = sizeof(ps);
	b->f.clock = ts;
	b->open = true;
	room_open(b);
	atomic_store_explicit(&h->open_seq, b->seq, memory_order_relaxed);
	atomic_store_explicit(&h->write_pos, b->f.off, memory_order_relaxed);
	atomic_store_explicit(&h->last_ts, ts, memory_order_relaxed);
	atomic_store_explicit(&h->open_valid, 1, memory_order_release);
	return true;
}

__attribute__((cold, noinline)) static void packet_close(struct tbuf *b)
{
	struct rb_header *h = b->h;
	struct rb_packet_start *ps = (struct rb_packet_start *) packet(b);
	uint64_t idx = b->seq % b->nsub;

	ps->timestamp_end = b->f.clock;
	ps->content_size = b->f.off * 8;
	/* A signal handler may drop an event meanwhile: the packet may miss it, the count
	 * published after it may not (the next packet, or a closing one, carries it). */
	ps->events_discarded = __atomic_load_n(&b->discarded, __ATOMIC_RELAXED);
	atomic_store_explicit(&h->open_valid, 0, memory_order_relaxed);
	publish_drops(b);
	atomic_store_explicit(&h->sb[idx].content_size, b->f.off, memory_order_relaxed);
	atomic_store_explicit(&h->sb[idx].events_end, b->f.busy >> 1, memory_order_relaxed);
	/* release: the packet's bytes are visible before its sequence number */
	atomic_store_explicit(&h->sb[idx].seq, b->seq + 1, memory_order_release);
	atomic_store_explicit(&h->produced, b->seq + 1, memory_order_release);
	b->seq++;
	b->open = false;
	room_close(b);
	/* seq_cst: the store of produced above must not pass the load of consumer_waiting,
	 * or a consumer going to sleep could miss this packet. Once per packet, not per event. */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&h->consumer_waiting, memory_order_relaxed) && b->efd >= 0) {
		uint64_t one = 1;
		ssize_t n = write(b->efd, &one, sizeof(one));
		(void) n;
	}
}

static void ring_unlist(struct tbuf *b)
{
	if (b->pprev) {
		*b->pprev = b->next;
		if (b->next)
			b->next->pprev = b->pprev;
		b->pprev = NULL;
	}
}

void ust_rings_drop(unsigned s)
{
	for (struct tbuf *b = rings[s], *next; b; b = next) {
		next = b->next;
		room_stop(b);
		/* the pages go; the owner may still write a little (an event in progress), into
		 * new zero pages, until it unmaps the ring */
		ust_prefault_stop(b->h);
		madvise(b->h, b->map_size, MADV_REMOVE);
		b->pprev = NULL;
	}
	rings[s] = NULL;
}

void ust_rings_forget(void)
{
	for (unsigned s = 0; s < PROTO_MAX_SLOTS; s++) {
		for (struct tbuf *b = rings[s]; b; b = b->next) {
			room_stop(b); /* the parent's ring, shared: not for the inline path */
			b->pprev = NULL;
		}
		rings[s] = NULL;
	}
}

/* A ring's mapping goes; its owner thread is not inside an emit on it. */
static void ring_release(struct tbuf *b)
{
	struct rb_header *h = b->h;

	ust_lock();
	ring_unlist(b);
	ust_unlock();
	b->h = NULL;
	__asm__ volatile("" ::: "memory");
	if (h)
		ust_prefault_unmap(h, b->map_size);
}

/* A thread's last packets are published when the thread ends. Its signals stay blocked
 * from here on (glibc blocks them a little later anyway): a handler's event could no longer
 * be recorded or counted once the ring is gone, so another thread takes the signal. */
static void thread_exit(void *unused)
{
	struct tstate *t = &tl;
	sigset_t all;

	(void) unused;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	t->ended = true;
	for (unsigned s = 0; t->bufs && s < PROTO_MAX_SLOTS; s++) {
		struct tbuf *b = &t->bufs[s];
		if (!b->h)
			continue;
		busy_add(b, 1);
		if (b->open && b->gen == __atomic_load_n(&ust_slot_gen[s], __ATOMIC_RELAXED))
			packet_close(b);
		ring_release(b);
	}
	for (unsigned s = 0; s < PROTO_MAX_SLOTS; s++)
		spoor__thread_rings.slot[s] = NULL;
	__asm__ volatile("" ::: "memory");
	if (t->bufs)
		munmap(t->bufs, PROTO_MAX_SLOTS * sizeof(struct tbuf));
	t->bufs = NULL;
	free(t->scratch);
	t->scratch = NULL;
	t->scratch_cap = 0;
}

static void make_exit_key(void)
{
	pthread_key_create(&exit_key, thread_exit);
}

static void hook_exit(struct tstate *t)
{
	if (!t->hooked) {
		pthread_once(&exit_once, make_exit_key);
		pthread_setspecific(exit_key, t);
		t->hooked = true;
	}
}

/* Make b the thread's ring of slot s (generation c->gen) and hand it to the session. */
static bool tbuf_make(struct tbuf *b, const struct ust_ring_cfg *c, unsigned s)
{
	memset(b, 0, sizeof(*b));
	b->gen = c->gen | 1; /* failed, until made */
	b->nsub = c->num_subbufs;
	b->subbuf_size = c->subbuf_size;
	b->mode = c->mode;
	b->clock_kind = c->clock_kind;
	b->efd = c->efd;
	memcpy(b->uuid, c->uuid, 16);
	uint64_t hdr = rb_header_bytes((uint32_t) b->nsub);
	b->map_size = hdr + b->nsub * b->subbuf_size;
	int fd = memfd_create("spoor-ring", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return false;
	void *m = MAP_FAILED;
	/* Sealed: the reader (maybe a root daemon) refuses a ring that could shrink under it.
	 * Its pages are allocated by the program, never by the reader: by the runtime's
	 * helper thread, from the ring's start, while this thread writes (prefault.c). */
	if (ftruncate(fd, (off_t) b->map_size) == 0 &&
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0)
		m = mmap(NULL, b->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		close(fd);
		return false;
	}
	struct rb_header *h = m;
	h->magic = RB_MAGIC;
	h->header_size = (uint32_t) (sizeof(*h) + b->nsub * sizeof(h->sb[0]));
	h->abi_version = RB_ABI_VERSION;
	h->mode = b->mode;
	h->subbuf_size = b->subbuf_size;
	h->num_subbufs = (uint32_t) b->nsub;
	b->tid = (uint32_t) gettid();
	h->tid = b->tid;
	h->data_offset = hdr;
	ust_lock();
	bool sent = !ust_send_buffer(s, c->gen, fd, (int) b->tid, b->map_size);
	if (sent) {
		b->data = (char *) m + hdr;
		b->h = h;
		b->f.pub = (uint64_t *) &h->write_pos;
		b->gen = c->gen;
		b->next = rings[s];
		b->pprev = &rings[s];
		if (b->next)
			b->next->pprev = &b->next;
		rings[s] = b;
		/* with the lock: a session that ends now empties the ring after this */
		ust_prefault_start(m, b->map_size);
	}
	ust_unlock();
	close(fd);
	if (!sent)
		munmap(m, b->map_size);
	return sent;
}

/* The thread's ring of slot s, made if need be; NULL if there is none to write into. */
static struct tbuf *tbuf_get(unsigned s)
{
	struct tstate *t = &tl;
	struct ust_ring_cfg c;

	if (t->ended)
		return NULL;
	unsigned gen = __atomic_load_n(&ust_slot_gen[s], __ATOMIC_ACQUIRE);
	struct tbuf *b = (struct tbuf *) spoor__thread_rings.slot[s];
	if (b && b->gen == gen) /* a signal handler made it before the mask */
		return b;
	if (b && (b->gen == (gen | 1) || (b->f.busy & 1)))
		return NULL; /* could not be made; or the ring of an emit this handler cut into */
	if (gen == UST_GEN_FREE || ust_slot_cfg(s, &c) || c.gen != gen)
		return NULL;
	if (!t->bufs) {
		void *m = mmap(NULL, PROTO_MAX_SLOTS * sizeof(struct tbuf), PROT_READ | PROT_WRITE,
		               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			return NULL;
		t->bufs = m;
		hook_exit(t);
	}
	/* Rings of slots gone (a session ended, a forked child's inherited ones) go now. */
	for (unsigned i = 0; i < PROTO_MAX_SLOTS; i++) {
		struct tbuf *o = &t->bufs[i];
		if (o->h && o->gen != __atomic_load_n(&ust_slot_gen[i], __ATOMIC_RELAXED) &&
		    !(o->f.busy & 1))
			ring_release(o);
	}
	b = &t->bufs[s];
	if (b->h) /* still in use by the emit this handler interrupted */
		return NULL;
	spoor__thread_rings.slot[s] = &b->f;
	return tbuf_make(b, &c, s) ? b : NULL;
}

/* A thread's first event of a slot: make its ring and hand it to the session, with the
 * thread's signals blocked meanwhile (as LTTng-UST around its own set-up): a handler that
 * emits would find the ring half made, or make a second one, through calls that are not
 * async-signal-safe (a mutex around the session's socket). Its signals wait, and their
 * handlers' events are recorded once the ring is there. Once per thread and slot. */
__attribute__((cold, noinline)) static struct tbuf *tbuf_setup(unsigned s)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	struct tbuf *b = tbuf_get(s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return b;
}

static inline struct tbuf *tbuf_of(unsigned long s)
{
	struct tbuf *b = (struct tbuf *) spoor__thread_rings.slot[s];

	if (__builtin_expect(!b || b->gen != __atomic_load_n(&ust_slot_gen[s], __ATOMIC_RELAXED),
	                     0))
		return tbuf_setup(s);
	return b;
}

static inline uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

/* Probes only (not recorded): the payload goes to a per-thread scratch area. */
static int reserve_scratch(const struct spoor_event_desc *ev, size_t size,
                           struct spoor_reservation *r)
{
	struct tstate *t = &tl;

	if (size > t->scratch_cap) {
		char *bigger = realloc(t->scratch, size);
		if (!bigger)
			return 0;
		hook_exit(t); /* freed when the thread ends */
		t->scratch = bigger;
		t->scratch_cap = size;
	}
	r->payload = t->scratch;
	r->priv = NULL;
	r->ev = ev;
	r->size = size;
	r->probes = SPOOR_ENABLED_PROBES;
	return 1;
}

/* Room for an event of `size` bytes stamped ts in b's packet, its header written, at
 * *payload; the thread is marked busy. false: dropped (not counted yet). */
static inline __attribute__((always_inline)) bool ring_place(struct tbuf *b,
                                                             const struct spoor_event_desc *ev,
                                                             size_t size, uint64_t ts,
                                                             char **payload)
{
	if (ts < b->f.clock) /* time never goes back in a stream (see the top) */
		ts = b->f.clock;
	uint64_t al = ev->max_align ? ev->max_align : 1;
	uint32_t id = ev->id;
	/* Larger than an empty packet can hold: never fits. */
	if (sizeof(struct rb_packet_start) + 24 + al + size > b->subbuf_size)
		return false;
	for (int attempt = 0; attempt < 2; attempt++) {
		if (!b->open && !packet_open(b, ts))
			return false;
		uint64_t off = b->f.off, hdr_end, ext = 0;
		bool compact = id < 31 && ts - b->f.clock < ((uint64_t) 1 << 27);
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
		b->f.clock = ts;
		b->pending_end = end;
		*payload = p + start;
		return true;
	}
	return false;
}

static inline void ring_commit(struct tbuf *b)
{
	b->f.off = b->pending_end;
	atomic_store_explicit(&b->h->last_ts, b->f.clock, memory_order_relaxed);
	/* release: a consumer reading a dead program's last packet sees whole events */
	atomic_store_explicit(&b->h->write_pos, b->f.off, memory_order_release);
	busy_add(b, 1); /* committed: counted, and no longer busy */
}

/* Reserve in the ring of slot s. */
static inline __attribute__((always_inline)) int reserve_in(unsigned long s,
                                                            const struct spoor_event_desc *ev,
                                                            size_t size,
                                                            struct spoor_reservation *r)
{
	struct tbuf *b = tbuf_of(s);

	if (!b)
		return 0;
	if (b->f.busy & 1) {
		/* a signal handler interrupted this thread's emit: drop */
		count_drop(b);
		return 0;
	}
	if (__atomic_load_n(&spoor__paused, __ATOMIC_RELAXED))
		return 0;
	busy_add(b, 1); /* busy before anything else is touched */
	if (!ring_place(b, ev, size, now(b), &r->payload)) {
		count_drop(b);
		busy_add(b, -1);
		return 0;
	}
	r->priv = b;
	return 1;
}

static inline unsigned long first_slot(int enabled)
{
	return (unsigned) __builtin_ctz((unsigned) enabled >> UST_SLOT_SHIFT);
}

/* The reservation's probes: SPOOR_ENABLED_PROBES and the slots after the first, which
 * spoor_commit copies the event into (bits 8..23, as in `enabled`), and
 * SPOOR_ENABLED_RECORD, which spoor_commit does not look at; not the inline version. */
static inline int later_slots(int enabled)
{
	return enabled & (enabled - (1 << UST_SLOT_SHIFT)) & ~(int) UST_INLINE_BITS;
}

/* The event's first slot dropped it: the next one takes the lead. */
__attribute__((cold, noinline)) static int reserve_next(const struct spoor_event_desc *ev,
                                                        size_t size, struct spoor_reservation *r,
                                                        int enabled)
{
	while ((enabled = later_slots(enabled)) & (int) UST_SLOT_BITS) {
		if (reserve_in(first_slot(enabled), ev, size, r)) {
			r->ev = ev;
			r->size = size;
			r->probes = later_slots(enabled);
			return 1;
		}
	}
	return enabled & SPOOR_ENABLED_PROBES ? reserve_scratch(ev, size, r) : 0;
}

int spoor_reserve(const struct spoor_event_desc *ev, size_t size, struct spoor_reservation *r)
{
	int enabled = __atomic_load_n(&ev->enabled, __ATOMIC_RELAXED);

	if (enabled & SPOOR_ENABLED_RECORD) {
		if (__builtin_expect(reserve_in(first_slot(enabled), ev, size, r), 1)) {
			r->ev = ev;
			r->size = size;
			r->probes = later_slots(enabled);
			return 1;
		}
		return reserve_next(ev, size, r, enabled);
	}
	return enabled & SPOOR_ENABLED_PROBES ? reserve_scratch(ev, size, r) : 0;
}

/* The event again in the ring of slot s, stamped as in the first one. */
static void copy_into(unsigned s, const struct spoor_reservation *r, const struct tbuf *first)
{
	struct tbuf *b = tbuf_of(s);

	if (!b)
		return;
	if (b->f.busy & 1) {
		count_drop(b);
		return;
	}
	busy_add(b, 1);
	char *p;
	uint64_t ts = b->clock_kind == first->clock_kind ? first->f.clock : now(b);
	if (!ring_place(b, r->ev, r->size, ts, &p)) {
		count_drop(b);
		busy_add(b, -1);
		return;
	}
	memcpy(p, r->payload, r->size);
	ring_commit(b);
}

/* Probes to call, or slots to copy into. */
__attribute__((cold, noinline)) static void commit_more(struct spoor_reservation *r)
{
	struct tbuf *b = r->priv;

	if (r->probes & SPOOR_ENABLED_PROBES)
		ust_call_probes(r->ev, r->payload, r->size);
	if (!b)
		return;
	/* copies first: the payload stays in a ring nobody else writes into */
	if (!__atomic_load_n(&spoor__paused, __ATOMIC_RELAXED))
		for (int m = r->probes & (int) UST_SLOT_BITS; m; m &= m - 1)
			copy_into(first_slot(m), r, b);
	ring_commit(b);
}

void spoor_commit(struct spoor_reservation *r)
{
	if (__builtin_expect(r->probes & ~SPOOR_ENABLED_RECORD, 0)) {
		commit_more(r);
		return;
	}
	ring_commit(r->priv);
}

void spoor_tracing_off(void)
{
	__atomic_store_n(&spoor__paused, 1, __ATOMIC_RELAXED);
}

void spoor_tracing_on(void)
{
	__atomic_store_n(&spoor__paused, 0, __ATOMIC_RELAXED);
}

static const struct spoor_field_desc printf_fields[] = {
    {"msg", SPOOR_FK_STRING, 1, 0, 10, 0, 1, 0, NULL, 0, 0},
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
