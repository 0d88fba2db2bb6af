/* SPDX-License-Identifier: MIT */
/* graph-profile.h: `spoor graph --profile`'s output: ftrace's trace_stat/function table, or
 * JSON. */
#ifndef CMDS_GRAPH_PROFILE_H
#define CMDS_GRAPH_PROFILE_H

#include <stdbool.h>

#include "analysis/callprofile.h"

/* To stdout: 0, or a negative code when writing failed. */
int graph_profile_print(struct callprofile *p, enum callprofile_sort sort, bool json);

#endif
