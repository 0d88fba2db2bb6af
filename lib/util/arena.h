/* SPDX-License-Identifier: MIT */
/* arena.h: bump allocation for objects that all die together (a trace's metadata model). */
#ifndef UTIL_ARENA_H
#define UTIL_ARENA_H

#include <stddef.h>

struct arena_block;
struct arena {
	struct arena_block *head;
	size_t used;  /* bytes used in head */
	size_t total; /* bytes handed out, for the limit */
	size_t limit; /* 0: none */
};

/* Zeroed memory, 16-byte aligned, or NULL (out of memory or over the limit). */
void *arena_alloc(struct arena *a, size_t size);
/* The n bytes at s (NULs included) and a NUL after them. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
void arena_free_all(struct arena *a);

#endif
