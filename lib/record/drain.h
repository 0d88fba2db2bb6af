/* SPDX-License-Identifier: MIT */
/* drain.h: the consumer's side of one ring buffer (see drain.c). */
#ifndef RECORD_DRAIN_H
#define RECORD_DRAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "record.h"

struct rec_buffer;

/* What the session told the programs; a buffer that says otherwise is refused. */
struct rec_buffer_geometry {
	uint64_t subbuf_size;
	uint32_t num_subbufs;
	bool overwrite;
	bool live; /* rec_buffer_flush_open is used (discard mode only) */
};

/* Map the memfd `fd` (not taken) and create the stream file `path`. */
int rec_buffer_open(struct rec_buffer **out, int fd, const struct rec_buffer_geometry *g,
                    const char *path, char *err, size_t errlen);
/* Write the packets closed since the last call; with final, also the one in progress
 * (the producer is gone) and, in overwrite mode, the latest packets the ring holds. */
void rec_buffer_drain(struct rec_buffer *b, bool final, struct record_totals *t);
/* Live sessions: write what the producer committed to its packet in progress since the
 * last call, as a packet of its own, so a reader sees events before the packet fills. */
void rec_buffer_flush_open(struct rec_buffer *b, struct record_totals *t);
/* Overwrite mode: the final drain's packets (the latest the ring holds, the committed part
 * of the one in progress) written to the new file `path`, while the producer goes on, by a
 * reader of its own: b is left as it was. t gets the snapshot's packets and losses (its
 * overwritten: the events committed before the first packet taken, and in packets the
 * producer reused while they were read). Returns 0 or -errno, err says why. */
int rec_buffer_snapshot(const struct rec_buffer *b, const char *path, struct record_totals *t,
                        char *err, size_t errlen);
/* Rotation, discard mode: every event committed so far written, the packet in progress up
 * to its last committed event, as a packet of its own (its rest follows as another, with
 * the next sequence number)... */
void rec_buffer_end_chunk(struct rec_buffer *b, struct record_totals *t);
/* ...then the stream goes on in a new file (created; on failure b keeps its file). */
int rec_buffer_switch_file(struct rec_buffer *b, const char *path, char *err, size_t errlen);
/* What `spoor session list` shows of a buffer, in bytes and events. */
struct rec_buffer_usage {
	uint64_t used, size;
	uint64_t discarded;   /* dropped by the producer so far */
	uint64_t overwritten; /* overwrite mode: committed before the oldest packet held */
};
void rec_buffer_usage(const struct rec_buffer *b, struct rec_buffer_usage *u);
/* Warnings go to log (log.h; kept, not copied), not to stderr. */
struct rec_log;
void rec_buffer_set_log(struct rec_buffer *b, const struct rec_log *log);
void rec_buffer_close(struct rec_buffer *b, struct record_totals *t);

#endif
