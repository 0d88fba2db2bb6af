/* SPDX-License-Identifier: MIT */
/*
 * dl-late.c: `dl-late PROVIDER.so MS`: emits its own events, waits MS milliseconds (a live
 * session reads its trace meanwhile), then dlopen()s a provider, whose events are declared
 * only then, and emits from both: a live reader must take in the grown metadata.
 */
#define SPOOR_CREATE_PROBES
#include <dlfcn.h>
#include <spoor/tracepoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* clang-format off */
SPOOR_EVENT(late, mark, SPOOR_ARGS(uint32_t i), SPOOR_FIELDS(spoor_field_int(uint32_t, i, i)))
/* clang-format on */

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	long ms = atol(argv[2]);
	struct timespec nap = {ms / 1000, (ms % 1000) * 1000000};
	spoor_trace(late, mark, 0);
	nanosleep(&nap, NULL);
	void *h = dlopen(argv[1], RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	void (*run)(int) = (void (*)(int)) dlsym(h, "plugin_run");
	if (!run)
		return 1;
	for (int i = 1; i <= 3; i++) {
		run(i);
		spoor_trace(late, mark, (uint32_t) i);
	}
	nanosleep(&nap, NULL);
	return 0;
}
