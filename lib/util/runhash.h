/* SPDX-License-Identifier: MIT */
/*
 * runhash.h: home slots of 64-bit keys (tids, pids, packed pairs) in open-addressing tables
 * of cap slots, cap a power of two.
 *
 * fibhash: Fibonacci hashing, the product's top bits, which every key bit reaches (strided
 * or packed keys build no long probe chains).
 *
 * runhash: for tables that store their entries inline. The kernel hands out tids in order,
 * and tasks made near each other in time run near each other in time: runs of 16
 * consecutive keys keep neighbouring slots, so the live tasks of a trace with thousands of
 * threads share cache lines; the runs are spread by fibhash. The full runs make longer
 * clusters, so a look-up of an absent key walks further: fit for tables whose look-ups
 * mostly find (model/threads.c), not for maps probed with keys they lack.
 */
#ifndef UTIL_RUNHASH_H
#define UTIL_RUNHASH_H

#include <stddef.h>
#include <stdint.h>

#define RUNHASH_RUN 16

/* cap must be a power of two (any other would shift by 64 below). */
static inline size_t fibhash(uint64_t key, size_t cap)
{
	if (cap <= 1)
		return 0;
	unsigned bits = (unsigned) __builtin_ctzll(cap);
	return (size_t) ((key * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

static inline size_t runhash(uint64_t key, size_t cap)
{
	if (cap <= RUNHASH_RUN)
		return (size_t) key & (cap - 1);
	return fibhash(key / RUNHASH_RUN, cap / RUNHASH_RUN) * RUNHASH_RUN + key % RUNHASH_RUN;
}

#endif
