/* SPDX-License-Identifier: MIT */
/*
 * functions-fib.c: bench/functions.sh's call-heavy workload, built with each kind of hook.
 *
 *   functions-fib fib N     fib(N) recursively: 2 fib(N+1) - 1 calls of fib
 *   functions-fib rdtsc N   N rdtsc instructions back to back: what one costs here
 *
 * Prints `calls=C ns=T` (rdtsc: `rdtsc=N ns=T`), T the calling thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID) around the work: the cost in the traced thread, steadier on a
 * busy machine than wall time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

static long long now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

__attribute__((noipa)) long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((no_instrument_function)) static long fib_plain(int n)
{
	long a = 0, b = 1;
	for (int i = 0; i < n; i++) {
		long c = a + b;
		a = b;
		b = c;
	}
	return a;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return fprintf(stderr, "usage: functions-fib fib|rdtsc N\n"), 2;
	int n = atoi(argv[2]);
	long long t0 = now();
	if (!strcmp(argv[1], "rdtsc")) {
		unsigned long long s = 0;
		for (int i = 0; i < n; i++)
			s += __rdtsc();
		long long t = now() - t0;
		printf("rdtsc=%d ns=%lld sum=%llu\n", n, t, s & 1);
		return 0;
	}
	long r = fib(n);
	long long t = now() - t0;
	printf("calls=%ld ns=%lld result=%ld\n", 2 * fib_plain(n + 1) - 1, t, r);
	return 0;
}
