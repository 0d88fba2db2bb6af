/* SPDX-License-Identifier: MIT */
/* calls-regs.c: a function's vector arguments and result through -pg's hooks
 * (tests/cli/record-calls-regs.sh), built with -mavx and each -pg flavour: vsum takes eight
 * 256-bit vectors (%ymm0-7) and returns one (%ymm0). Its entry is its thread's first traced
 * call and its exit comes while tracing is paused, so both go through the hooks' general
 * path (mcount.c), where calls-clobber.so, preloaded, wipes every vector register. Prints
 * "vectors: ok" when every lane came through, else the lanes and exit status 1. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

typedef double v4 __attribute__((vector_size(32)));

#define PLAIN __attribute__((no_instrument_function))

static void (*tracing)(void); /* spoor_tracing_off, then spoor_tracing_on */

__attribute__((noinline)) static v4 vsum(v4 a, v4 b, v4 c, v4 d, v4 e, v4 f, v4 g, v4 h)
{
	v4 s = a + 2 * b + 4 * c + 8 * d + 16 * e + 32 * f + 64 * g + 128 * h;
	if (tracing)
		tracing(); /* off: the exit's event cannot take the inline path */
	return s;
}

PLAIN static void *first(void *arg)
{
	v4 *out = arg;
	v4 x = {1, 1000, 1000000, 1000000000};
	*out = vsum(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7);
	tracing = (void (*)(void)) dlsym(RTLD_DEFAULT, "spoor_tracing_on");
	if (tracing)
		tracing();
	return NULL;
}

PLAIN int main(void)
{
	tracing = (void (*)(void)) dlsym(RTLD_DEFAULT, "spoor_tracing_off");
	v4 got;
	pthread_t t;
	if (pthread_create(&t, NULL, first, &got) || pthread_join(t, NULL))
		return 2;
	int bad = 0;
	for (int i = 0; i < 4; i++) {
		double x = i == 0 ? 1 : i == 1 ? 1000 : i == 2 ? 1000000 : 1000000000;
		double want = 255 * x + (2 + 8 + 24 + 64 + 160 + 384 + 896); /* sum k 2^k */
		if (got[i] != want) {
			printf("lane %d: %.17g, not %.17g\n", i, got[i], want);
			bad = 1;
		}
	}
	if (!bad)
		printf("vectors: ok\n");
	return bad;
}
