/* SPDX-License-Identifier: MIT */
/*
 * cache-file.h: the timeline cache's files (docs/view-cache.md): which one we may map (a
 * regular file of ours that nobody else can write: mapped, so changed under us it would
 * be believed, cut short it would crash us), and a new one written under no name, or a
 * random one, then put in place.
 */
#ifndef TIMELINE_CACHE_FILE_H
#define TIMELINE_CACHE_FILE_H

#include <stdint.h>
#include <sys/types.h>

#include "timeline/cache.h"

/* The cache at path if we may trust it and it is of fingerprint fp: 0 and *out; else
 * -ENOENT (none there), -ESTALE (ours, but stale or not valid: build it again there) or
 * -EPERM (a link, not a regular file, someone else's or writable by others: leave it). */
int tlc_file_fresh(const char *path, uint64_t fp, struct tl_cache **out);

struct tlc_temp {
	int fd;
	char *name; /* NULL: O_TMPFILE, no name until placed */
};
/* A new file in dir, mode (less the umask): 0 or a negative errno. */
int tlc_temp_new(const char *dir, mode_t mode, struct tlc_temp *t);
/* Give it the name final (replacing what is there); t is dropped. 0 or a negative errno. */
int tlc_temp_place(struct tlc_temp *t, const char *final);
/* Close it and remove its name, if any. */
void tlc_temp_drop(struct tlc_temp *t);

#endif
