/* SPDX-License-Identifier: MIT */
/*
 * ring-pages.c: who allocates a thread's ring (lib/ust/prefault.c). `ring-pages N`, run
 * under `spoor record`: a thread emits one event, the minor page faults of that first event
 * counted (getrusage RUSAGE_THREAD: they include a MAP_POPULATE's); then waits (at most
 * 30 s) until every page of its ring (the mapping named memfd:spoor-ring in
 * /proc/self/maps) is resident (mincore), and emits N more events, their faults counted
 * too. Prints
 *   pages P first-faults F resident R later-faults L
 * P the ring's pages, R those resident before the N events.
 */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* clang-format off */
SPOOR_EVENT(ringpages, tick, SPOOR_ARGS(uint64_t i), SPOOR_FIELDS(spoor_field_int(uint64_t, i, i)))
/* clang-format on */

static long n_events;

static long faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_minflt;
}

/* The ring's mapping: the thread's only one (one session). */
static int find_ring(char **start, size_t *len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (strstr(line, "memfd:spoor-ring") && sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			*start = (char *) lo;
			*len = hi - lo;
			found++;
		}
	}
	if (f)
		fclose(f);
	return found == 1 ? 0 : -1;
}

static size_t resident(char *start, size_t pages)
{
	unsigned char *vec = malloc(pages);
	size_t r = 0;

	if (vec && !mincore(start, pages * (size_t) sysconf(_SC_PAGESIZE), vec))
		for (size_t i = 0; i < pages; i++)
			r += vec[i] & 1;
	free(vec);
	return r;
}

static void *run(void *unused)
{
	char *ring;
	size_t len, pages, r = 0;

	(void) unused;
	long f0 = faults();
	spoor_trace(ringpages, tick, 0);
	long first = faults() - f0;
	if (find_ring(&ring, &len)) {
		fprintf(stderr, "ring-pages: no single memfd:spoor-ring mapping\n");
		exit(1);
	}
	pages = len / (size_t) sysconf(_SC_PAGESIZE);
	for (int waited = 0; waited < 3000 && (r = resident(ring, pages)) < pages; waited++)
		nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
	f0 = faults();
	for (long i = 1; i <= n_events; i++)
		spoor_trace(ringpages, tick, (uint64_t) i);
	long later = faults() - f0;
	printf("pages %zu first-faults %ld resident %zu later-faults %ld\n", pages, first, r,
	       later);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;

	n_events = argc > 1 ? atol(argv[1]) : 0;
	if (pthread_create(&th, NULL, run, NULL))
		return 1;
	pthread_join(th, NULL);
	return 0;
}
