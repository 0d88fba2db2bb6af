/* SPDX-License-Identifier: MIT */
/* arena.c: bump allocator in 64 KiB blocks; one free for everything. */
#include <stdlib.h>
#include <string.h>

#include "arena.h"

#define ARENA_BLOCK (64 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t size;
	_Alignas(16) unsigned char data[];
};

/* Memory as it is: for what is written over at once. */
static void *arena_take(struct arena *a, size_t size)
{
	size = (size + 15) & ~(size_t) 15;
	if (a->limit && a->total + size > a->limit)
		return NULL;
	if (!a->head || a->used + size > a->head->size) {
		size_t bsize = size > ARENA_BLOCK ? size : ARENA_BLOCK;
		struct arena_block *b = malloc(sizeof(*b) + bsize);

		if (!b)
			return NULL;
		b->next = a->head;
		b->size = bsize;
		a->head = b;
		a->used = 0;
	}
	void *p = a->head->data + a->used;
	a->used += size;
	a->total += size;
	return p;
}

void *arena_alloc(struct arena *a, size_t size)
{
	size = (size + 15) & ~(size_t) 15;
	void *p = arena_take(a, size);

	if (p)
		memset(p, 0, size);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_take(a, n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

void arena_free_all(struct arena *a)
{
	struct arena_block *b = a->head;

	while (b) {
		struct arena_block *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->used = a->total = 0;
}
