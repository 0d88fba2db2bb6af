/* SPDX-License-Identifier: MIT */
/* cache-int.h: an open cache as cache.c checked it, for the queries (query.c). */
#ifndef TIMELINE_CACHE_INT_H
#define TIMELINE_CACHE_INT_H

#include "timeline/cache-format.h"
#include "timeline/cache.h"

struct tl_cache {
	char *path;               /* NULL: bytes borrowed (tl_cache_open_bytes) */
	const unsigned char *map; /* the whole file */
	size_t size;
	const struct tlc_header *h;
	const char *strings;
	const struct tlc_row *drows;
	struct tl_cache_row *rows; /* drows as the API gives them */
	const struct tlc_block *span_index, *mark_index;
	const struct tlc_class *classes;
	const uint32_t *rates; /* rated classes x h->rate_bins */
	const uint32_t *syscalls;
	const uint32_t *functions;
	const struct tlc_address *addresses;
	const struct tlc_damage *damage;
};

/* The arrays of a block the open checked (its offset and count within the file). */
static inline const uint32_t *tlc_deltas(const struct tl_cache *c, const struct tlc_block *b)
{
	return (const uint32_t *) (c->map + b->offset);
}
static inline const uint32_t *tlc_values(const struct tl_cache *c, const struct tlc_block *b)
{
	return (const uint32_t *) (c->map + b->offset + (b->level ? 8 : 4) * (uint64_t) b->count);
}
static inline const uint8_t *tlc_states(const struct tl_cache *c, const struct tlc_block *b)
{
	return c->map + b->offset + (b->level ? 16 : 8) * (uint64_t) b->count;
}
/* Levels above 0: begins in full, and the spans of the block up to and with each entry. */
static inline const int64_t *tlc_begins(const struct tl_cache *c, const struct tlc_block *b)
{
	return (const int64_t *) (c->map + b->offset);
}
static inline const uint32_t *tlc_spans(const struct tl_cache *c, const struct tlc_block *b)
{
	return (const uint32_t *) (c->map + b->offset + 12 * (uint64_t) b->count);
}
static inline const int64_t *tlc_mark_times(const struct tl_cache *c, const struct tlc_block *b)
{
	return (const int64_t *) (c->map + b->offset);
}
static inline const uint32_t *tlc_mark_classes(const struct tl_cache *c, const struct tlc_block *b)
{
	return (const uint32_t *) (c->map + b->offset + 8 * (uint64_t) b->count);
}

#endif
