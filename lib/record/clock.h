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

#endif
