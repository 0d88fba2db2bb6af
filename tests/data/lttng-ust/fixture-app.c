/*
 * Fixture generator for spoor's CTF reader tests.
 *
 * Usage: fixture-app [ITERATIONS [THREADS]]   (defaults: 200 2)
 *
 * Every thread runs the same loop and, for each iteration i, emits one
 * event of each spoor_fixture event type.  All payload values are a pure
 * function of i (not of the thread), so the per-thread event sequences are
 * identical apart from the vtid context.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixture-tp.h"

static unsigned long iterations = 200;

static const char *const str_table[] = {
    "hello",     "with \"quotes\"",           "back\\slash", "tab\there",
    "new\nline", "caf\xc3\xa9 \xe2\x82\xac", /* "café €" in UTF-8 */
    "",          "all: \" \\ \t \n \xc3\xa9",
};
#define N_STR (sizeof(str_table) / sizeof(str_table[0]))

static const double float_table[] = {
    1.5, -0.25, 3.14159, 0.0, 100.125, -2.5e-3, 1e10, 123456.789,
};
#define N_FLOAT (sizeof(float_table) / sizeof(float_table[0]))

static const int senum_table[] = {
    0, 1, -1, -50, 12, 17, 22, 5, 1000000, -5, 30, -100, -10, 19, 25,
};
#define N_SENUM (sizeof(senum_table) / sizeof(senum_table[0]))

static const uint8_t uenum_table[] = {0, 1, 127, 128, 200, 201, 250, 255};
#define N_UENUM (sizeof(uenum_table) / sizeof(uenum_table[0]))

/* 8-byte text arrays: full (no NUL), NUL-padded, and with escapes/UTF-8. */
static const char text8_table[3][8] = {
    {'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'},
    {'a', 'b', 0, 0, 0, 0, 0, 0},
    {'t', '\t', '"', '\\', '\xc3', '\xa9', '\n', 0},
};

static void emit_integers(uint64_t i)
{
	switch (i % 5) {
	case 0:
		tracepoint(spoor_fixture, integers, INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN, 0, 0,
		           0, 0);
		break;
	case 1:
		tracepoint(spoor_fixture, integers, INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX,
		           UINT8_MAX, UINT16_MAX, UINT32_MAX, UINT64_MAX);
		break;
	case 2:
		tracepoint(spoor_fixture, integers, (int8_t) (-1 - (int) (i % 100)),
		           (int16_t) (-1 - (int) (i * 37 % 30000)),
		           (int32_t) (-1 - (int64_t) (i * 100003 % 2000000000)),
		           -1 - (int64_t) (i * 1000000007ULL), (uint8_t) i, (uint16_t) (i * 3),
		           (uint32_t) (i * 100003), i * 1000000007ULL);
		break;
	case 3:
		tracepoint(spoor_fixture, integers, (int8_t) (i % 100), (int16_t) (i % 30000),
		           (int32_t) (i * 1000 % 2000000000), (int64_t) i * 1000000000LL,
		           (uint8_t) (128 + i % 128), (uint16_t) (32768 + i % 1000),
		           (uint32_t) (2147483648U + i % 1000000), 9223372036854775808ULL + i);
		break;
	default: tracepoint(spoor_fixture, integers, -1, -1, -1, -1, 1, 1, 1, 1); break;
	}
}

static void emit_hex_network(uint64_t i)
{
	int64_t s;
	uint64_t u;

	if (i % 7 == 3) {
		s = -1;
		u = UINT64_MAX;
	} else if (i % 7 == 5) {
		s = INT64_MIN;
		u = 0;
	} else {
		s = (i % 2) ? -(int64_t) i * 7919 : (int64_t) i * 7919;
		u = i * 0x0123456789ABCDEFULL;
	}
	tracepoint(spoor_fixture, hex_network, s, u);
}

static void emit_floats(uint64_t i)
{
	float f = (float) float_table[i % N_FLOAT];
	double d = float_table[(i + 3) % N_FLOAT] + (double) i * 0.5;

	tracepoint(spoor_fixture, floats, f, d);
}

static void emit_strings(uint64_t i)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "iter %" PRIu64, i);
	tracepoint(spoor_fixture, strings, str_table[i % N_STR], buf);
}

static void emit_arrays(uint64_t i)
{
	int32_t a32[4] = {
	    (int32_t) i,
	    -(int32_t) i,
	    INT32_MIN + (int32_t) (i % 1000),
	    INT32_MAX - (int32_t) (i % 1000),
	};
	uint8_t a8[3] = {
	    (uint8_t) i,
	    (uint8_t) (i * 7),
	    (uint8_t) (255 - (i & 0xff)),
	};
	/* network byte order elements, displayed as i and 0xDEADBEEF ^ i */
	uint32_t anet[2] = {htobe32((uint32_t) i), htobe32(0xDEADBEEFU ^ (uint32_t) i)};

	tracepoint(spoor_fixture, arrays, a32, a8, anet, text8_table[i % 3]);
}

static void emit_sequences(uint64_t i)
{
	int16_t s16[4] = {(int16_t) - (int) (i % 1000), (int16_t) (i % 1000), INT16_MIN, INT16_MAX};
	uint64_t u64[3] = {UINT64_MAX, i, 0};
	const char *text = str_table[i % N_STR];

	/* lengths cycle through 0..4 and 0..3; text length 0 for "" */
	tracepoint(spoor_fixture, sequences, s16, (unsigned int) (i % 5), u64,
	           (unsigned int) ((i + 2) % 4), text, (unsigned int) strlen(text));
}

static void emit_enums(uint64_t i)
{
	tracepoint(spoor_fixture, enums, senum_table[i % N_SENUM], uenum_table[i % N_UENUM]);
}

static void emit_bench(uint64_t i)
{
	char s[17];

	tracepoint(spoor_fixture, two_ints, i, i == 1 ? UINT64_MAX : i * 0x9E3779B97F4A7C15ULL);
	/* exactly 16 characters */
	snprintf(s, sizeof(s), "abcdefghij%06u", (unsigned) (i % 1000000));
	tracepoint(spoor_fixture, ints_string, (int) i, -7 * (int) i, s);
}

static void *worker(void *arg)
{
	uint64_t i;

	(void) arg;
	for (i = 0; i < iterations; i++) {
		emit_integers(i);
		emit_hex_network(i);
		emit_floats(i);
		emit_strings(i);
		emit_arrays(i);
		emit_sequences(i);
		emit_enums(i);
		emit_bench(i);
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
		fprintf(stderr, "fixture-app: invalid %s: '%s'\n", what, s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long nthreads = 2, t;
	pthread_t *tids;
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
		fprintf(stderr, "fixture-app: thread count must be 1..1024\n");
		return 2;
	}

	tids = calloc(nthreads, sizeof(*tids));
	if (!tids) {
		perror("calloc");
		return 1;
	}
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
	return 0;
}
