/* SPDX-License-Identifier: MIT */
/* grow.h: an array that doubles as it fills. */
#ifndef UTIL_GROW_H
#define UTIL_GROW_H

#include <errno.h>
#include <stdlib.h>

/* Make *arr (n used of *cap, elements of elem bytes) hold one more: first elements at
 * first, then twice as many. 0, or -ENOMEM with *arr untouched. */
static inline int grow_one(void *arr, size_t n, size_t *cap, size_t elem, size_t first)
{
	if (n < *cap)
		return 0;
	size_t c = *cap ? *cap * 2 : first;
	void *bigger = realloc(*(void **) arr, c * elem);
	if (!bigger)
		return -ENOMEM;
	*(void **) arr = bigger;
	*cap = c;
	return 0;
}

#endif
