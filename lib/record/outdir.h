/* SPDX-License-Identifier: MIT */
/* outdir.h: a recording's output directory, new for each recording so that two never mix
 * in one; an old trace is replaced only when asked, and only if it is a trace. */
#ifndef RECORD_OUTDIR_H
#define RECORD_OUTDIR_H

#include <stdbool.h>
#include <stddef.h>

/* A claimed output directory. */
struct outdir {
	bool made;    /* DIR was created here */
	char old[32]; /* with force: the old trace, moved into DIR/old until the recording
	               * starts ("": none) */
};

/* Make DIR (and its parents). A DIR that exists must be an empty directory or, with
 * force, a trace: a directory whose every file lies in a directory holding CTF metadata
 * (or below one) or is spoor view's cache of them, nothing but directories and regular
 * files; it is moved aside then, into
 * a hidden directory in DIR, until outdir_started or outdir_undo. Anything else is refused.
 * Returns 0 or -errno, err says why (-EEXIST: DIR is in the way, not empty or not a trace). */
int outdir_claim(const char *dir, bool force, struct outdir *o, char *err, size_t errlen);
/* The recording has started: the old trace moved aside is removed. */
void outdir_started(const char *dir, struct outdir *o);
/* The first of PREFIX, PREFIX-2, PREFIX-3, ... that mkdir creates, into buf: two
 * recordings started in the same second get directories of their own. */
int outdir_make_unique(const char *prefix, char *buf, size_t cap);
/* mkdir -p: PATH and its parents; existing ones are fine. Returns 0 or -errno. */
int outdir_mkdirs(const char *path);
/* Undo a claim (nothing was recorded): remove what was written in DIR, put the old trace
 * back, and remove DIR itself if it was made. */
void outdir_undo(const char *dir, struct outdir *o);

#endif
