/* SPDX-License-Identifier: MIT */
/*
 * cache.h: a trace's timeline (states.h's spans, marks and event rates) in one file, built
 * once and mapped by `spoor view` (docs/view-cache.md).
 *
 * Where: one trace argument: TRACE/.spoor-view.cache (hidden: readers skip it); several:
 * FIRST/.spoor-view-HASH.cache (HASH of the sorted real paths). There, only a regular
 * file of ours that nobody else can write is used; another one, or a folder we cannot
 * write in (full, read-only...): $XDG_CACHE_HOME/spoor/view-HASH.cache (else
 * ~/.cache/spoor/). Stale when the fingerprint differs: every regular, non-hidden file
 * under the traces (relative path, size, mtime) and the format's version.
 *
 * Built in a child process (the reader maps the whole trace; the caller's memory stays
 * that of the file's pages it touches), written under no name (or a random one) and put
 * in place; its mode what every file of the trace allows. Opened with mmap and checked as
 * untrusted input: every offset, count and string against the file's size; a cache that
 * fails is built again.
 *
 * An open cache is read-only: queries (query.h) from several threads at once are safe,
 * and so is tl_cache_release beside them. Rows: threads by process, then tid, then CPUs,
 * then flame rows (a thread's function calls at one depth: flame.h) by process, tid, depth.
 */
#ifndef TIMELINE_CACHE_H
#define TIMELINE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "timeline/states.h"

struct tl_cache;
struct tl_cache_row {
	enum tl_row_kind kind;
	int64_t id, pid;       /* tid or CPU; pid -1: unknown (CPU rows) */
	const char *name;      /* "" when unknown */
	int64_t first, last;   /* relative ns: its first span's begin, last span's end */
	uint64_t spans, marks; /* how many the row holds */
	uint32_t depth;        /* TL_ROW_CALLS: its calls' depth (0: outermost) */
};

/* Find a fresh cache or build one. 0, or a negative error with *errmsg (malloc'd) saying
 * why (the trace can't be read, no place to write the cache...). */
int tl_cache_open(const char *const *paths, size_t npaths, struct tl_cache **out, char **errmsg);
/* The same, calling progress (when not NULL) with 0..1 while a cache is built. */
int tl_cache_open_progress(const char *const *paths, size_t npaths,
                           void (*progress)(void *data, double fraction), void *data,
                           struct tl_cache **out, char **errmsg);
/* The same in two steps, for a process that starts threads: tl_cache_start finds a fresh
 * cache (*out) or forks the builder (*job; call it before any other thread exists, as the
 * child runs the reader without exec); tl_cache_finish (from any one thread) relays the
 * progress, waits for the builder and opens what it built; tl_cache_cancel (from another
 * thread) stops the builder, and tl_cache_finish returns -ECANCELED. tl_cache_job_free
 * after tl_cache_finish returned, or instead of it (the builder is stopped). */
struct tl_cache_job;
int tl_cache_start(const char *const *paths, size_t npaths, struct tl_cache **out,
                   struct tl_cache_job **job, char **errmsg);
int tl_cache_finish(struct tl_cache_job *job, void (*progress)(void *data, double fraction),
                    void *data, struct tl_cache **out, char **errmsg);
void tl_cache_cancel(struct tl_cache_job *job);
void tl_cache_job_free(struct tl_cache_job *job);
/* A cache file as it is, without the staleness check (tools, tests). */
int tl_cache_open_file(const char *path, struct tl_cache **out, char **errmsg);
/* The same for the file open at fd (it stays the caller's), known as path. */
int tl_cache_open_fd(int fd, const char *path, struct tl_cache **out, char **errmsg);
/* A cache in memory (borrowed until tl_cache_close: the fuzzer). */
int tl_cache_open_bytes(const void *data, size_t size, struct tl_cache **out, char **errmsg);
void tl_cache_close(struct tl_cache *c);
/* Let go of the cache's pages this process has mapped (they stay in the page cache, and
 * come back at the next query that reads them): a server calls it between requests, so
 * its resident memory is that of one request, not of every part of the cache ever read. */
void tl_cache_release(struct tl_cache *c);

const char *tl_cache_path(const struct tl_cache *c); /* NULL for tl_cache_open_bytes */
uint64_t tl_cache_fingerprint(const struct tl_cache *c);
int64_t tl_cache_origin(const struct tl_cache *c);   /* absolute ns */
int64_t tl_cache_duration(const struct tl_cache *c); /* relative end */
size_t tl_cache_rows(const struct tl_cache *c);
const struct tl_cache_row *tl_cache_row(const struct tl_cache *c, size_t i);
/* every class of the reader's (dense, its numbering); user: a user-space event's */
size_t tl_cache_classes(const struct tl_cache *c);
const char *tl_cache_class_name(const struct tl_cache *c, size_t i);
bool tl_cache_class_user(const struct tl_cache *c, size_t i);
/* whether the class has events (rates), and how many */
uint64_t tl_cache_class_events(const struct tl_cache *c, size_t i);
size_t tl_cache_syscalls(const struct tl_cache *c);
const char *tl_cache_syscall_name(const struct tl_cache *c, uint32_t i); /* NULL past the end */
/* the functions of flame rows (TL_ROW_CALLS: a span's value indexes them) */
size_t tl_cache_functions(const struct tl_cache *c);
const char *tl_cache_function_name(const struct tl_cache *c, uint32_t i); /* NULL past the end */
/* The function of the calls at address addr of process proc (analysis/loadmap.h's) at
 * relative time t, as the flame rows name it; NULL when no call of the trace was there. */
const char *tl_cache_address_name(const struct tl_cache *c, uint64_t proc, uint64_t addr,
                                  int64_t t);
size_t tl_cache_damage(const struct tl_cache *c);
const char *tl_cache_damage_text(const struct tl_cache *c, size_t i);
int64_t tl_cache_damage_at(const struct tl_cache *c, size_t i);
uint64_t tl_cache_lost(const struct tl_cache *c);

/* ---- the places and the fingerprint (cache-place.c), for tests and the builder ---- */

/* The fingerprint of the traces' files now. 0 or a negative errno. */
int tl_cache_fingerprint_of(const char *const *paths, size_t npaths, uint64_t *fp);
/* The same, and the read and write permissions that every one of those files grants
 * (st_mode bits, 0666 when there is none). */
int tl_cache_facts_of(const char *const *paths, size_t npaths, uint64_t *fp, mode_t *mode);
/* The cache's path beside the traces and in the user's cache folder (malloc'd; the
 * second NULL when no folder is known). 0 or a negative errno. */
int tl_cache_places(const char *const *paths, size_t npaths, char **beside, char **user);

#endif
