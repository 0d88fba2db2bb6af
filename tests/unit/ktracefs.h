/* SPDX-License-Identifier: MIT */
/* ktracefs.h: what a unit test on the real tracefs needs first (root, tracefs, a writable
 * instances/), or why it skips. */
#ifndef SPOOR_TEST_KTRACEFS_H
#define SPOOR_TEST_KTRACEFS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kernel/instance.h"

/* 0 with tracefs's path in root, else the skip exit code (77) after saying why. */
static inline int ktracefs_require(char *root, size_t cap)
{
	char err[700];
	const char *why = err;
	if (geteuid() != 0)
		why = "kernel tracing needs root (run the tests as root)";
	else if (!kinstance_find_tracefs(root, cap, err, sizeof(err))) {
		snprintf(err, sizeof(err), "%s/instances", root);
		if (!access(err, W_OK))
			return 0;
		why = "tracefs's instances/ is not writable here";
	}
	printf("SKIP: %s\n", why);
	return 77;
}

/* The test's traces removed, unless it failed or SPOOR_TEST_KEEP is set. */
static inline void ktracefs_cleanup(const char *dir, bool failed)
{
	char cmd[600];
	if (failed || getenv("SPOOR_TEST_KEEP")) {
		printf("traces left in %s\n", dir);
		return;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("note: %s failed\n", cmd);
}

#endif
