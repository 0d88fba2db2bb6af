/* SPDX-License-Identifier: MIT */
/*
 * calls.c: the user-space workload of bench/script-peers.sh. A loop of N rounds (default
 * 500000) calls four small functions at different rates: alpha every round, bravo every
 * 2nd, charlie every 4th, delta every 8th (1.875 N calls in all), so that a handler counting
 * calls by function name has a known answer: alpha N, bravo N/2, charlie N/4, delta N/8.
 *
 *   calls [N]
 *
 * Built two ways from this one file:
 *   - for uftrace: cc -O2 -pg -o calls-pg bench/calls.c; uftrace records an entry and an
 *     exit record per call (mcount and its return hook), the function named by address;
 *   - for spoor: cc -O2 -DSPOOR_EVENTS -I include -o calls-spoor bench/calls.c
 *     -lspoor-ust: each call emits calls:enter at its start and calls:exit at its end,
 *     both with the function's name as a string field `fn`: the same two records per
 *     call as uftrace, the name carried in the event.
 * Output, one line on stdout: `calls: rounds=N sum=S` (S keeps the work from being
 * optimized away).
 */
#include <stdio.h>
#include <stdlib.h>

#ifdef SPOOR_EVENTS
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>
/* clang-format off */
SPOOR_EVENT(calls, enter, SPOOR_ARGS(const char *fn), SPOOR_FIELDS(spoor_field_string(fn, fn)))
SPOOR_EVENT(calls, exit, SPOOR_ARGS(const char *fn), SPOOR_FIELDS(spoor_field_string(fn, fn)))
/* clang-format on */
#define ENTER(fn) spoor_trace(calls, enter, fn)
#define EXIT(fn)  spoor_trace(calls, exit, fn)
#else
#define ENTER(fn) ((void) 0)
#define EXIT(fn)  ((void) 0)
#endif

static volatile unsigned long sink;

#define LEAF(name, k)                                                                              \
	__attribute__((noinline)) static void name(unsigned long i)                                \
	{                                                                                          \
		ENTER(#name);                                                                      \
		sink += i * (k);                                                                   \
		EXIT(#name);                                                                       \
	}

LEAF(alpha, 3)
LEAF(bravo, 5)
LEAF(charlie, 7)
LEAF(delta, 11)

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 500000;

	for (unsigned long i = 0; i < n; i++) {
		alpha(i);
		if (i % 2 == 0)
			bravo(i);
		if (i % 4 == 0)
			charlie(i);
		if (i % 8 == 0)
			delta(i);
	}
	printf("calls: rounds=%lu sum=%lu\n", n, (unsigned long) sink);
	return 0;
}
