/* SPDX-License-Identifier: MIT */
/*
 * callprofile.h: ftrace's function profile (trace_stat/function*) over the calls of
 * analysis/calls.h: per function, its calls (hits), their total time, average and sample
 * variance s^2 (Welford's, as ftrace's (n * sum(x^2) - sum(x)^2) / (n * (n - 1))), and self
 * time (the total less the calls made from it). Only whole calls count: those without an
 * entry, an exit, or ended by a longjmp have no duration, and are counted apart
 * (`partial`). A function is its name: the same one in several processes is one row.
 */
#ifndef ANALYSIS_CALLPROFILE_H
#define ANALYSIS_CALLPROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "calls.h"
#include "loadmap.h"
#include "welford.h"

struct callprofile_row {
	const char *name; /* valid as long as the profile */
	uint64_t hits, partial;
	int64_t total, self; /* ns */
	struct welford w;    /* the durations, ns */
};

enum callprofile_sort { CP_TOTAL, CP_HITS, CP_AVG, CP_SELF, CP_NAME };

struct callprofile;

struct callprofile *callprofile_new(struct loadmap *lm);
void callprofile_free(struct callprofile *p);
/* calls_ops.leave (data: the profile). */
void callprofile_leave(void *p, const struct calls_span *s);
/* 0, or -ENOMEM from a leave before. */
int callprofile_error(const struct callprofile *p);
/* The rows, merged by name and sorted (largest first; names A to Z), in *rows (the
 * profile's); their count. */
size_t callprofile_rows(struct callprofile *p, enum callprofile_sort sort,
                        const struct callprofile_row **rows);

#endif
