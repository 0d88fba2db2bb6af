/* SPDX-License-Identifier: MIT */
/* clock.h: the session's clock: the TSC where it is constant and nonstop, else
 * CLOCK_MONOTONIC; with the offset that places its values on the epoch. */
#ifndef RECORD_CLOCK_H
#define RECORD_CLOCK_H

#include <stdint.h>

struct rec_clock {
	uint32_t kind; /* enum proto_clock */
	uint64_t freq; /* Hz */
	int64_t offset_s;
	uint64_t offset; /* cycles, < freq */
};

void rec_clock_calibrate(struct rec_clock *c);
/* The clock's value now, as the tracer reads it. */
uint64_t rec_clock_now(const struct rec_clock *c);
/* Now, in the readers' units: ns from the clock's origin (lib/ctf/trace.h ctf_clock_ns). */
int64_t rec_clock_now_ns(const struct rec_clock *c);
/* The kernel trace_clock that counts the same: x86-tsc or mono. */
const char *rec_clock_kernel_name(const struct rec_clock *c);
/* Its CTF description, the same in every trace of a session so readers merge them. */
struct meta_clock;
void rec_clock_meta(const struct rec_clock *c, struct meta_clock *m);

#endif
