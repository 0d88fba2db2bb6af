/* SPDX-License-Identifier: MIT */
/*
 * lossadvice.h: what buffer would have kept the events a tracer lost, for `spoor record`'s
 * summary and the readers' warnings alike: the buffer it had (when known) plus room for
 * what was lost, rounded up to a power of two (what `spoor record -b` takes). What was lost
 * is the lost events at the bytes per event of those kept when that is known (the
 * recorder), else what the stream wrote per second over the time the losses took (a
 * reader, which counts bytes and times, not events, per stream).
 */
#ifndef UTIL_LOSSADVICE_H
#define UTIL_LOSSADVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct loss_seen {
	uint64_t ring;          /* the buffer used, bytes; 0: unknown */
	const char *option;     /* the recorder's: "-b", "--kernel-buffer"; NULL: a reader */
	const char *per;        /* what has a buffer of its own: "thread", "CPU", "stream" */
	uint64_t lost;          /* events */
	double bytes_per_event; /* of the events kept (headers included); 0: unknown */
	double bytes_per_s;     /* what the stream wrote; 0: unknown */
	uint64_t window_ns;     /* the time the losses took */
};

/* The buffer that would have kept them (bytes, a power of two), or 0: nothing to go by. */
uint64_t loss_buffer(const struct loss_seen *l);

/* "a buffer of 32m per thread (spoor record -b 32m) would have kept them, at the 20.0 bytes
 * per event seen" into buf; without the buffer used, "about 16m more buffer per stream
 * would have kept them, at the 12.3 MB/s this stream wrote" (the basis: bytes per event
 * when known, else bytes per second); "" when there is nothing to go by. */
void loss_advice_text(char *buf, size_t n, const struct loss_seen *l);

#endif
