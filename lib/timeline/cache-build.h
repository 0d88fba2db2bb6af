/* SPDX-License-Identifier: MIT */
/* cache-build.h: a trace's timeline cache written by one pass of the analysis engine. */
#ifndef TIMELINE_CACHE_BUILD_H
#define TIMELINE_CACHE_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Read the traces and write their cache to fd (cache-format.h), with fingerprint fp, its
 * temporary files in tmpdir. progress (when not NULL) hears 0..1 as the pass goes. 0, or
 * a negative error with *errmsg (malloc'd) and *writing true when writing failed (not
 * reading: another place may do). Memory: the reader's maps, O(rows + classes) besides. */
int tl_cache_build(const char *const *paths, size_t npaths, int fd, const char *tmpdir, uint64_t fp,
                   void (*progress)(void *data, double fraction), void *data, char **errmsg,
                   bool *writing);

#endif
