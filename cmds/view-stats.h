/* SPDX-License-Identifier: MIT */
/* view-stats.h: spoor view's range statistics: the sched, irq and syscalls commands' text. */
#ifndef CMDS_VIEW_STATS_H
#define CMDS_VIEW_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/engine.h"

extern const char *const view_stats_names[];
extern const size_t view_stats_count;

struct view_stats_traces {
	const char *const *paths;
	size_t npaths;
};

/* What `spoor NAME --begin --end [--tid]... TRACE...` prints on stdout for
 * view_stats_names[which] (data: struct view_stats_traces); when the command would fail,
 * its message instead. 0; -ECANCELED when gone(ctx) (asked every few ms) said to stop; or a
 * negative error (out of memory). */
int view_stats(void *data, size_t which, const struct an_filter *f, bool (*gone)(void *ctx),
               void *ctx, FILE *out);

#endif
