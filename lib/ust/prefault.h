/* SPDX-License-Identifier: MIT */
/* prefault.h: a ring's pages allocated off the thread that writes it (prefault.c). */
#ifndef UST_PREFAULT_H
#define UST_PREFAULT_H

#include <stddef.h>

/* Allocate the pages of the mapping [base, base + len), from its start, on the runtime's
 * helper thread, while the caller goes on. Quietly nothing if that cannot be (the caller's
 * writes then fault the pages in). */
void ust_prefault_start(void *base, size_t len);
/* No more of the mapping at base: returns once the helper has left it, so that its pages
 * may be given back. */
void ust_prefault_stop(void *base);
/* Unmap [base, base + len): now, or by the helper once it has left it. */
void ust_prefault_unmap(void *base, size_t len);

#endif
