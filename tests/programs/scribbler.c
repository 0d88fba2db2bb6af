/* SPDX-License-Identifier: MIT */
/*
 * scribbler.c: a traced program gone bad. It emits events, then writes garbage over its own
 * ring buffer (found in /proc/self/maps), counters included, and exits: the consumer must
 * report the damage and go on, never crash or write out of bounds. `scribbler MS` waits MS
 * milliseconds before scribbling and after, so that a live session has taken part of the
 * packet in progress before the garbage, and reads the garbage while the program lives.
 */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* clang-format off */
SPOOR_EVENT(scribbler, ok, SPOOR_ARGS(uint64_t i), SPOOR_FIELDS(spoor_field_int(uint64_t, i, i)))
/* clang-format on */

int main(int argc, char **argv)
{
	char line[512];
	unsigned long lo, hi;

	for (uint64_t i = 0; i < 2000; i++)
		spoor_trace(scribbler, ok, i);
	long ms = argc > 1 ? atol(argv[1]) : 0;
	struct timespec nap = {ms / 1000, (ms % 1000) * 1000000};
	nanosleep(&nap, NULL);
	FILE *maps = fopen("/proc/self/maps", "r");
	if (!maps)
		return 1;
	srand(42);
	while (fgets(line, sizeof(line), maps)) {
		if (!strstr(line, "spoor-ring") || sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		unsigned char *p = (unsigned char *) lo;
		/* counters first (past magic and geometry), then the packets */
		for (size_t off = 40; off < hi - lo; off++)
			p[off] = (unsigned char) rand();
	}
	fclose(maps);
	nanosleep(&nap, NULL);
	return 0;
}
