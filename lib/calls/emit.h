/* SPDX-License-Identifier: MIT */
/* emit.h: the hooks' events, an entry's or an exit's {addr, call_site}, one per hook. */
#ifndef CALLS_EMIT_H
#define CALLS_EMIT_H

#include <string.h>

#include "calls-tp.h"
#include "calls.h"

/* The event another way than calls_emit's (out of line, or recorded by another slot's
 * session first), or dropped and counted, or not recorded. */
void calls_emit_slow(struct spoor_event_desc *ev, uint64_t addr, uint64_t site) CALLS_HIDDEN;

/* The `enabled` word of an event that slot 0 records first (the lowest bit of the slot
 * mask: the ring it is reserved in), by the inline path of this build. */
#define CALLS_SLOT0_MASK (0xffu << SPOOR_ENABLED_INLINE_SHIFT | 1u << 8)
#define CALLS_SLOT0      ((uint32_t) SPOOR_INLINE_ABI << SPOOR_ENABLED_INLINE_SHIFT | 1u << 8)

/* spoor_trace's inline path, with the ring of slot 0 (spoor record's session, the one
 * slot a program it starts has) loaded at once instead of after the `enabled` word, whose
 * slot mask it would come from: the ring's loads no longer wait for that word's (3 ns per
 * call less, bench/functions.sh), and the word is loaded once, not twice. */
static inline __attribute__((always_inline)) int calls_emit_inline(struct spoor_event_desc *ev,
                                                                   uint64_t addr, uint64_t site)
{
	struct spoor__inline in;
	char *p;
	uint32_t en = (uint32_t) __atomic_load_n(&ev->enabled, __ATOMIC_RELAXED);
	struct spoor_ring_fast *b = spoor__thread_rings.slot[0];
	if (__builtin_expect((en & CALLS_SLOT0_MASK) != CALLS_SLOT0 ||
	                         !spoor__inline_reserve_ring(b, ev, 16, &in, &p),
	                     0))
		return 0;
	/* the packet's bytes of the events 25 calls on, mapped fresh (never in a cache): asked
	 * for now, they are there by then (1.4 ns per call less); a prefetch never faults */
	__builtin_prefetch(p + 1024, 1);
	memcpy(p, &addr, 8);
	memcpy(p + 8, &site, 8);
	spoor__inline_commit(&in);
	return 1;
}

/* The event, the inline way when it can (calls_emit_inline: 1), else calls_emit_slow's. */
static inline __attribute__((always_inline)) void calls_emit(struct spoor_event_desc *ev,
                                                             uint64_t addr, uint64_t site)
{
	if (__builtin_expect(!calls_emit_inline(ev, addr, site), 0))
		calls_emit_slow(ev, addr, site);
}

#endif
