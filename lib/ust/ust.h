/* SPDX-License-Identifier: MIT */
/* ust.h: state shared by the files of the in-process tracer runtime (libspoor-ust). */
#ifndef UST_UST_H
#define UST_UST_H

#include <stdbool.h>
#include <stdint.h>

#include "ipc/proto.h"
#include "spoor/tracepoint.h"

/* An event's `enabled` word: SPOOR_ENABLED_RECORD, SPOOR_ENABLED_PROBES, in bits 8..23
 * the slots that record it (bit 8 + s), so the emit path finds its first slot in the word it
 * loads anyway, and in bits 24..30 the inline ABI's version while the inline path may
 * write the event: one slot records it, no probe, and its id fits the compact header
 * (tracepoint-types.h). */
#define UST_SLOT_SHIFT  8
#define UST_SLOT_BITS   (((1u << PROTO_MAX_SLOTS) - 1) << UST_SLOT_SHIFT)
#define UST_RECORD_BITS (SPOOR_ENABLED_RECORD | UST_SLOT_BITS)
#define UST_INLINE_BITS (0x7fu << SPOOR_ENABLED_INLINE_SHIFT)

/* Change an event's `enabled` word: the bits of `clear` to those of `set`, the inline
 * version with them. Its writers (sessions, probes) each hold their own lock. */
static inline void ust_enabled_change(struct spoor_event_desc *ev, int clear, int set)
{
	int old = __atomic_load_n(&ev->enabled, __ATOMIC_RELAXED), want;

	do {
		want = (old & ~clear & ~(int) UST_INLINE_BITS) | set;
		int slots = want & (int) UST_SLOT_BITS;
		if (slots && !(slots & (slots - 1)) && !(want & SPOOR_ENABLED_PROBES) &&
		    ev->id < 31)
			want |= SPOOR_INLINE_ABI_VERSION << SPOOR_ENABLED_INLINE_SHIFT;
	} while (old != want && !__atomic_compare_exchange_n(&ev->enabled, &old, want, false,
	                                                     __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
}

/* A slot's generation, read by every emit out of line: a thread's ring for slot s is current
 * while its generation equals ust_slot_gen[s]. Live slots have even generations (never
 * reused within a process), a free slot UST_GEN_FREE, and a thread whose ring could not be
 * made for a generation records gen | 1, so that it does not try again for every event.
 * (The inline path reads the ring's `room` instead, which a slot's end sets stopped.) */
#define UST_GEN_FREE 1u
#define UST_HIDDEN   __attribute__((visibility("hidden"))) /* one instruction to reach */
extern UST_HIDDEN unsigned ust_slot_gen[PROTO_MAX_SLOTS];
extern UST_HIDDEN int ust_pid;

/* What a thread's ring of a slot is made with. */
struct ust_ring_cfg {
	unsigned gen;
	uint32_t mode, num_subbufs, clock_kind;
	uint64_t subbuf_size;
	uint8_t uuid[16];
	int efd; /* the server's doorbell: a number that stays valid for the process's life */
};

/* The runtime's one lock (session.c): its connections, slots and descriptors, and the list
 * of rings by slot (buffer.c). */
void ust_lock(void);
void ust_unlock(void);
/* Slot s's settings if it is live: 0, else -1. */
int ust_slot_cfg(unsigned s, struct ust_ring_cfg *c);
/* Hand a thread's ring of slot s (generation gen) to its server, lock held: 0, or -1 (the
 * slot has gone or changed meanwhile, or the server did not take it). */
int ust_send_buffer(unsigned s, unsigned gen, int memfd, int tid, uint64_t size);
/* buffer.c, lock held: slot s has ended: the memory of every thread's ring of it goes back
 * now (each thread unmaps its ring later, when it next makes one or ends). */
void ust_rings_drop(unsigned s);
/* In a forked child, lock held: the list of rings is the parent's; forget it. */
void ust_rings_forget(void);
void ust_call_probes(const struct spoor_event_desc *ev, const void *payload, size_t size);

#endif
