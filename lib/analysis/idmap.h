/* SPDX-License-Identifier: MIT */
/*
 * idmap.h: a map from 64-bit keys (a tid, or two small numbers packed) to 32-bit values
 * (indices into the caller's dense arrays): open addressing, linear probing, grows at half
 * full, so a look-up is O(1) whatever the trace's size.
 *
 * A map of tids made with `runs` keeps runs of 16 consecutive keys in neighbouring slots
 * (util/runhash.h): the threads a trace makes one after the other share cache lines. For
 * maps whose look-ups mostly find their key (a miss walks the whole run).
 */
#ifndef ANALYSIS_IDMAP_H
#define ANALYSIS_IDMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/runhash.h"

struct idmap_slot {
	uint64_t key;
	uint32_t val;
	bool used;
};

struct idmap {
	struct idmap_slot *tab;
	size_t cap, used; /* cap: 0 or a power of two */
	bool runs;        /* runhash, not fibhash */
};

static inline size_t idmap_hash(const struct idmap *m, uint64_t key, size_t cap)
{
	return m->runs ? runhash(key, cap) : fibhash(key, cap); /* util/runhash.h */
}

/* The value of key, or NULL. */
static inline uint32_t *idmap_find(const struct idmap *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = idmap_hash(m, key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->tab[i].used)
			return NULL;
		if (m->tab[i].key == key)
			return &m->tab[i].val;
	}
}

/* Add key with val (key must be absent). 0 or -ENOMEM. */
int idmap_add(struct idmap *m, uint64_t key, uint32_t val);
void idmap_free(struct idmap *m);

#endif
