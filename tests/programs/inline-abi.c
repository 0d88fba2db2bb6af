/* SPDX-License-Identifier: MIT */
/*
 * inline-abi.c: the program of tests/cli/record-inline.sh, built twice: as it is, and with
 * -DSPOOR_INLINE_ABI=1, as a program built against another version of the inline ABI
 * (tracepoint-types.h) would find the runtime's. `inline-abi N` emits, in its one thread:
 *   N abi:pair (x = i, y = 3i) and N abi:text (i, "t<i>"),
 *   N abi:pair (x = 1000000 + i) between spoor_tracing_off() and spoor_tracing_on(),
 *   N abi:pair (x = 2000000 + i) with a probe on the event,
 * and prints `reserves=R probed=P`: its calls to the out-of-line spoor_reserve (interposed
 * here) and the probe's calls.
 */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* clang-format off */
SPOOR_EVENT(abi, pair, SPOOR_ARGS(uint64_t x, uint64_t y),
	    SPOOR_FIELDS(spoor_field_int(uint64_t, x, x) spoor_field_int(uint64_t, y, y)))
SPOOR_EVENT(abi, text, SPOOR_ARGS(int i, const char *s),
	    SPOOR_FIELDS(spoor_field_int(int, i, i) spoor_field_string(s, s)))
/* clang-format on */

static unsigned long reserves, probed;

/* The runtime's, counted. */
int spoor_reserve(const struct spoor_event_desc *ev, size_t size, struct spoor_reservation *r)
{
	static int (*real)(const struct spoor_event_desc *, size_t, struct spoor_reservation *);

	if (!real)
		*(void **) &real = dlsym(RTLD_NEXT, "spoor_reserve");
	reserves++;
	return real(ev, size, r);
}

static void probe(void *data, const struct spoor_event_desc *ev, const void *payload, size_t size)
{
	(void) data, (void) ev, (void) payload, (void) size;
	probed++;
}

int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000;
	char s[32];

	for (uint64_t i = 0; i < n; i++) {
		spoor_trace(abi, pair, i, 3 * i);
		snprintf(s, sizeof(s), "t%llu", (unsigned long long) i);
		spoor_trace(abi, text, (int) i, s);
	}
	spoor_tracing_off();
	for (uint64_t i = 0; i < n; i++)
		spoor_trace(abi, pair, 1000000 + i, 0);
	spoor_tracing_on();
	spoor_probe_register(spoor_event_desc(abi, pair), probe, NULL);
	for (uint64_t i = 0; i < n; i++)
		spoor_trace(abi, pair, 2000000 + i, 0);
	spoor_probe_unregister(spoor_event_desc(abi, pair), probe, NULL);
	printf("reserves=%lu probed=%lu\n", reserves, probed);
	return 0;
}
