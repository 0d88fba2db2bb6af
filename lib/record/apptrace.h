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
/* Overwrite mode: the latest packets of every ring and the committed part of the packets
 * in progress, read without stopping the producers, as a complete trace (metadata too) in
 * SNAPDIR/ust/pid/NAME/ (NAME: this trace's directory name). *recorded_packets: packets
 * written; *overwritten: the events committed before the first packet taken (and in
 * packets the producer reused while they were read), per stream, summed: with the events
 * the snapshot holds, what the program had committed. The streams carry the count in their
 * packets (events_discarded, events_overwritten), so readers report it. The session's own
 * streams are left as they were. Returns 0 or -errno (-EINVAL: discard mode), err says why. */
int apptrace_snapshot(struct apptrace *a, const char *snapdir, uint64_t *recorded_packets,
                      uint64_t *overwritten, char *err, size_t errlen);
/* Discard mode: end the chunk (every packet closed so far written, and the committed part
 * of the packets in progress, as packets of their own; their rest goes into the next
 * chunk, numbered on) and go on in NEWOUTDIR/ust/pid/NAME/ (NAME as before if it is free),
 * with the same UUID and the whole metadata again: every event lands in exactly one chunk,
 * and each chunk is a trace of its own. The chunk's files are written through open
 * descriptors, so the caller may rename the chunk away before this call and give the same
 * OUTDIR. Returns 0 or -errno (-EINVAL: overwrite mode); on failure the streams go on in
 * the chunk's files. err says why. */
int apptrace_rotate(struct apptrace *a, const char *newoutdir, struct record_totals *t, char *err,
                    size_t errlen);
/* For `spoor session list`: all the buffers, or the i-th (its thread in *tid, if not NULL).
 * overwritten: discard mode, events in packets lost; overwrite mode, the events committed
 * before the oldest packet the ring holds. */
struct apptrace_usage {
	unsigned buffers;
	uint64_t bytes_used, bytes_size, discarded, overwritten;
};
void apptrace_usage(const struct apptrace *a, struct apptrace_usage *u);
size_t apptrace_buffers(const struct apptrace *a);
void apptrace_buffer_usage(const struct apptrace *a, size_t i, int *tid, struct apptrace_usage *u);
/* The final drain (t NULL: none), the files closed, the buffers unmapped, a freed. */
void apptrace_close(struct apptrace *a, struct record_totals *t);

const char *apptrace_dir(const struct apptrace *a);
const uint8_t *apptrace_uuid(const struct apptrace *a); /* 16 bytes */

#endif
