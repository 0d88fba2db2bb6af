/* SPDX-License-Identifier: MIT */
/*
 * kmeta.h: a kernel trace's CTF metadata: written whole when a trace (the first chunk, a
 * later one, a snapshot) begins, and grown by one event block for each event enabled while
 * tracing runs, before its first record can be written.
 */
#ifndef KERNEL_KMETA_H
#define KERNEL_KMETA_H

#include <stddef.h>
#include <stdint.h>

#include "kclass.h"

struct rec_clock;

/* DIR/metadata with every class of cs. With meta_fd, the file stays open there for
 * kmeta_append (the chunk's directory may be renamed meanwhile); else it is closed. */
int kmeta_write(const char *dir, const struct kclasses *cs, const uint8_t uuid[16],
                const struct rec_clock *clock, int *meta_fd, char *err, size_t errlen);
/* Declare one more class at the end of the open metadata. */
int kmeta_append(int meta_fd, const struct kclass *c, char *err, size_t errlen);

#endif
