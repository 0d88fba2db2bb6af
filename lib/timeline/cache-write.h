/* SPDX-License-Identifier: MIT */
/*
 * cache-write.h: writing a timeline cache file (cache-format.h) as the spans come, in any
 * order across rows: each row buffers at most one block (TLC_BLOCK spans, and one of
 * marks), written out when full. Memory: O(rows + classes + blocks), never O(spans).
 * The rates: events per class in at most TLC_RATE_BINS bins, whose width doubles (bins
 * merged in pairs) when an event comes past the last.
 */
#ifndef TIMELINE_CACHE_WRITE_H
#define TIMELINE_CACHE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timeline/states.h"

struct tl_cache_writer;

/* Writes to fd from its offset 0 (the header last, with pwrite); the coarser levels go to
 * temporary files in tmpdir (NULL: /tmp) until the end. 0 or -ENOMEM. */
int tl_cache_writer_new(int fd, const char *tmpdir, struct tl_cache_writer **out);
/* A row's next span (per row in time order). 0 or a negative errno. */
int tl_cache_writer_span(struct tl_cache_writer *w, enum tl_row_kind kind, int64_t id,
                         const struct tl_span *s);
/* A call on flame row n (the caller's number for a thread's depth, dense from 0) of
 * thread tid (per row in time order): value the function, state its flags (cache-format.h).
 * Its depth, once known, by tl_cache_writer_call_depth. */
int tl_cache_writer_call(struct tl_cache_writer *w, uint32_t n, int64_t tid,
                         const struct tl_span *s);
void tl_cache_writer_call_depth(struct tl_cache_writer *w, uint32_t n, uint32_t depth);
/* A user-space event on a thread's row (per thread in time order). */
int tl_cache_writer_mark(struct tl_cache_writer *w, int64_t tid, int64_t t, size_t class_index);
/* Any event, for the rates (t: relative ns, >= 0). */
int tl_cache_writer_event(struct tl_cache_writer *w, int64_t t, size_t class_index);
/* The tables, in any order before finish. Class indices are the reader's (dense). */
int tl_cache_writer_class(struct tl_cache_writer *w, size_t index, const char *name, bool user);
int tl_cache_writer_syscall(struct tl_cache_writer *w, const char *name);  /* in index order */
int tl_cache_writer_function(struct tl_cache_writer *w, const char *name); /* in index order */
/* A call's address and its function from relative time from on (cache-format.h's
 * tlc_address), in the section's order: by process, address, then from. */
int tl_cache_writer_address(struct tl_cache_writer *w, uint64_t proc, uint64_t addr, int64_t from,
                            uint32_t function);
int tl_cache_writer_damage(struct tl_cache_writer *w, int64_t at, const char *text);

struct tl_cache_meta {
	uint64_t fingerprint;
	int64_t origin, duration;
	uint64_t lost;
	/* each row's process and name (name NULL: none), asked once per row at the end (a
	 * flame row's: its thread's) */
	void (*row_info)(void *data, enum tl_row_kind kind, int64_t id, int64_t *pid,
	                 const char **name);
	void *data;
};
/* Write the last blocks, the tables and the header. 0 or a negative errno. */
int tl_cache_writer_finish(struct tl_cache_writer *w, const struct tl_cache_meta *m);
void tl_cache_writer_free(struct tl_cache_writer *w);

#endif
