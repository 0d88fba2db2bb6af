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
/* Warnings go to log (log.h; kept, not copied), not to stderr. */
struct rec_log;
void rec_buffer_set_log(struct rec_buffer *b, const struct rec_log *log);
void rec_buffer_close(struct rec_buffer *b, struct record_totals *t);

#endif
