/* SPDX-License-Identifier: MIT */
/* outdir.h: a recording's output directory, new for each recording so that two never mix
 * in one; an old trace is replaced only when asked, and only if it is a trace. */
#ifndef RECORD_OUTDIR_H
#define RECORD_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

/* Make DIR (and its parents). A DIR that exists must be an empty directory or, with
 * force, a trace: a directory whose every file lies in a directory holding CTF metadata
 * (or below one), nothing but directories and regular files; it is emptied then. Anything
 * else is refused. *made: DIR was created here. Returns 0 or -errno, err says why. */
int outdir_claim(const char *dir, bool force, bool *made, char *err, size_t errlen);
/* The first of PREFIX, PREFIX-2, PREFIX-3, ... that mkdir creates, into buf: two
 * recordings started in the same second get directories of their own. */
int outdir_make_unique(const char *prefix, char *buf, size_t cap);
/* mkdir -p: PATH and its parents; existing ones are fine. Returns 0 or -errno. */
int outdir_mkdirs(const char *path);
/* Undo a claim: remove what was written in DIR, and DIR itself if it was made. */
void outdir_undo(const char *dir, bool made);

#endif
