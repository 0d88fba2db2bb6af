/* SPDX-License-Identifier: MIT */
/*
 * apptrace.h: one traced process's trace for one session, as spoor record and the session
 * daemon write it: the directory OUTDIR/ust/pid/PROCNAME-PID[-k]/, the trace UUID, the
 * metadata (written at the first registration, appended at the next), and one stream file
 * per thread's ring buffer (drain.h). The message handling stays with the caller.
 */
#ifndef RECORD_APPTRACE_H
#define RECORD_APPTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "drain.h"
#include "log.h"
#include "record.h"

struct apptrace;

struct apptrace_id {
	int pid;
	const char *procname; /* as the program said it (untrusted: made safe for a path) */
	const uint8_t *uuid;  /* 16 bytes; NULL: a new random one (apptrace_uuid) */
};

/* Make OUTDIR/ust/pid/PROCNAME-PID/ (PROCNAME-PID-k when a process connects again: a
 * forked child before its exec, a reloaded runtime). Returns 0 or -errno, err says why
 * (-EEXIST: a thousand directories of that name). */
int apptrace_open(struct apptrace **out, const char *outdir, const struct apptrace_id *id,
                  const struct rec_clock *clock, const struct rec_buffer_geometry *g, char *err,
                  size_t errlen);
/* Warnings from now on go to log (copied), not stderr. */
void apptrace_set_log(struct apptrace *a, const struct rec_log *log);
/* Event descriptors (proto.h's EVENTS text, untrusted): the first call writes the metadata,
 * later ones (dlopen) append their event blocks. Returns 0; -EPROTO, the descriptors are
 * refused or cannot be described; -errno, the metadata could not be written (the trace's
 * write error, counted in the totals at the next drain); err says why. */
int apptrace_events(struct apptrace *a, const char *text, size_t len, char *err, size_t errlen);
/* A thread's ring buffer (the memfd is not taken): its stream file stream_TID. Returns 0;
 * -EINVAL, this buffer is refused (the program goes on without it); other -errno, it could
 * not be kept. err says why. */
int apptrace_add_buffer(struct apptrace *a, int memfd, int tid, char *err, size_t errlen);
/* The packets closed since the last call; with final, the packets in progress too (and in
 * overwrite mode the latest packets the rings hold). */
void apptrace_drain(struct apptrace *a, bool final, struct record_totals *t);
/* Live: what the producers committed to their packets in progress (drain.h). */
void apptrace_flush_open(struct apptrace *a, struct record_totals *t);
/* The final drain, the files closed, the buffers unmapped, a freed (NULL: nothing). */
void apptrace_close(struct apptrace *a, struct record_totals *t);

const char *apptrace_dir(const struct apptrace *a);
const uint8_t *apptrace_uuid(const struct apptrace *a); /* 16 bytes */

#endif
