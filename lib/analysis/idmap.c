/* SPDX-License-Identifier: MIT */
/* idmap.c: growing the map (see idmap.h). */
#include <errno.h>
#include <stdlib.h>

#include "idmap.h"

static void put(const struct idmap *m, struct idmap_slot *tab, size_t cap, uint64_t key,
                uint32_t val)
{
	size_t i = idmap_hash(m, key, cap);
	while (tab[i].used)
		i = (i + 1) & (cap - 1);
	tab[i] = (struct idmap_slot){key, val, true};
}

int idmap_add(struct idmap *m, uint64_t key, uint32_t val)
{
	if (2 * (m->used + 1) > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64;
		struct idmap_slot *tab = calloc(cap, sizeof(*tab));
		if (!tab)
			return -ENOMEM;
		for (size_t i = 0; i < m->cap; i++)
			if (m->tab[i].used)
				put(m, tab, cap, m->tab[i].key, m->tab[i].val);
		free(m->tab);
		m->tab = tab;
		m->cap = cap;
	}
	put(m, m->tab, m->cap, key, val);
	m->used++;
	return 0;
}

void idmap_free(struct idmap *m)
{
	free(m->tab);
	*m = (struct idmap){.runs = m->runs};
}
