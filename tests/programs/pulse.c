/* SPDX-License-Identifier: MIT */
/*
 * pulse.c: a slow, steady event source for live sessions: `pulse COUNT INTERVAL_MS` emits
 * pulse:tick(i) COUNT times, INTERVAL_MS apart, each followed by a getppid system call,
 * so that a watcher sees single events long before any sub-buffer fills.
 */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* clang-format off */
SPOOR_EVENT(pulse, tick, SPOOR_ARGS(uint32_t i), SPOOR_FIELDS(spoor_field_int(uint32_t, i, i)))
/* clang-format on */

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned) atoi(argv[1]) : 10;
	long ms = argc > 2 ? atol(argv[2]) : 100;
	struct timespec nap = {ms / 1000, (ms % 1000) * 1000000};

	for (uint32_t i = 0; i < n; i++) {
		spoor_trace(pulse, tick, i);
		syscall(SYS_getppid);
		nanosleep(&nap, NULL);
	}
	return 0;
}
