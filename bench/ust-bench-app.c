/*
 * LTTng-UST load generator for the reader benchmark (bench/make-ust-trace.sh).
 *
 * Usage: ust-bench-app [ITERATIONS [THREADS]]   (defaults: 1000 2)
 *
 * It uses the spoor_fixture tracepoint provider of tests/data/lttng-ust/
 * (make-ust-trace.sh builds it through that directory's record.sh, with this
 * file in place of fixture-app.c).  Every thread runs the same loop; for each
 * iteration i it emits
 *
 *   spoor_fixture:two_ints      (2 x uint64)
 *   spoor_fixture:ints_string   (2 x int + a 16-character string)
 *
 * and, when i % 8 == 7, one more event, in turn: integers, floats, strings,
 * enums.  A thread therefore emits exactly 2 * ITERATIONS + ITERATIONS / 8
 * events (about 47% two_ints, 47% ints_string, 6% others).
 *
 * SPOOR_BENCH_RATE=N (environment) paces every thread to at most N events
 * per second, so that the consumer daemon keeps up and no event is
 * discarded; 0 or unset means no pacing.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fixture-tp.h"

static unsigned long iterations = 1000;
static double rate; /* events per second per thread, 0: unpaced */

static const char *const str_table[] = {
    "hello",     "with \"quotes\"",  "back\\slash",
    "tab\there", "new\nline",        "caf\xc3\xa9 \xe2\x82\xac",
    "",          "all: \" \\ \t \n",
};
#define N_STR (sizeof(str_table) / sizeof(str_table[0]))

static const double float_table[] = {
    1.5, -0.25, 3.14159, 0.0, 100.125, -2.5e-3, 1e10, 123456.789,
};
#define N_FLOAT (sizeof(float_table) / sizeof(float_table[0]))

static const int senum_table[] = {0, 1, -1, -50, 12, 17, 22, 5, 1000000};
#define N_SENUM (sizeof(senum_table) / sizeof(senum_table[0]))

static const uint8_t uenum_table[] = {0, 1, 127, 128, 200, 201, 255};
#define N_UENUM (sizeof(uenum_table) / sizeof(uenum_table[0]))

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static void emit_extra(uint64_t i)
{
	uint64_t k = i / 8;
	char buf[32];

	switch (k % 4) {
	case 0:
		tracepoint(spoor_fixture, integers, (int8_t) - (int) (k % 100),
		           (int16_t) (k % 30000), (int32_t) - (int64_t) (k % 2000000000),
		           (int64_t) k * -1000000007LL, (uint8_t) k, (uint16_t) (k * 3),
		           (uint32_t) (k * 100003), k * 1000000007ULL);
		break;
	case 1:
		tracepoint(spoor_fixture, floats, (float) float_table[k % N_FLOAT],
		           float_table[(k + 3) % N_FLOAT] + (double) k * 0.5);
		break;
	case 2:
		snprintf(buf, sizeof(buf), "iter %" PRIu64, i);
		tracepoint(spoor_fixture, strings, str_table[k % N_STR], buf);
		break;
	default:
		tracepoint(spoor_fixture, enums, senum_table[k % N_SENUM],
		           uenum_table[k % N_UENUM]);
		break;
	}
}

static void *worker(void *arg)
{
	double start = now();
	uint64_t i, emitted = 0;
	char s[17];

	(void) arg;
	for (i = 0; i < iterations; i++) {
		tracepoint(spoor_fixture, two_ints, i, i * 0x9E3779B97F4A7C15ULL);
		/* exactly 16 characters */
		snprintf(s, sizeof(s), "abcdefghij%06u", (unsigned) (i % 1000000));
		tracepoint(spoor_fixture, ints_string, (int) i, -7 * (int) i, s);
		emitted += 2;
		if (i % 8 == 7) {
			emit_extra(i);
			emitted++;
		}
		if (rate > 0 && i % 512 == 511) {
			double ahead = (double) emitted / rate - (now() - start);

			if (ahead > 0) {
				struct timespec ts = {
				    .tv_sec = (time_t) ahead,
				    .tv_nsec = (long) ((ahead - (double) (time_t) ahead) * 1e9),
				};
				nanosleep(&ts, NULL);
			}
		}
	}
	return NULL;
}

static unsigned long parse_ulong(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *s == '\0' || *end != '\0') {
		fprintf(stderr, "ust-bench-app: invalid %s: '%s'\n", what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long nthreads = 2, t;
	const char *r = getenv("SPOOR_BENCH_RATE");
	pthread_t *tids;
	double t0;
	int ret;

	if (argc > 3) {
		fprintf(stderr, "usage: %s [ITERATIONS [THREADS]]\n", argv[0]);
		return 2;
	}
	if (argc > 1)
		iterations = parse_ulong(argv[1], "iteration count");
	if (argc > 2)
		nthreads = parse_ulong(argv[2], "thread count");
	if (nthreads < 1 || nthreads > 1024) {
		fprintf(stderr, "ust-bench-app: thread count must be 1..1024\n");
		return 2;
	}
	if (r && *r)
		rate = (double) parse_ulong(r, "SPOOR_BENCH_RATE");

	tids = calloc(nthreads, sizeof(*tids));
	if (!tids) {
		perror("calloc");
		return 1;
	}
	t0 = now();
	for (t = 0; t < nthreads; t++) {
		ret = pthread_create(&tids[t], NULL, worker, NULL);
		if (ret) {
			fprintf(stderr, "pthread_create: %s\n", strerror(ret));
			return 1;
		}
	}
	for (t = 0; t < nthreads; t++)
		pthread_join(tids[t], NULL);
	free(tids);
	fprintf(stderr, "ust-bench-app: %lu thread(s) x %lu events in %.2f s\n", nthreads,
	        2 * iterations + iterations / 8, now() - t0);
	return 0;
}
