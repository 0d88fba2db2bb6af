/* SPDX-License-Identifier: MIT */
/* test-fixed.c: fixed_format against printf's "%.*f", byte for byte; fixed_shortest. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/fixed.h"

static unsigned long long failures;

static void same(double x, unsigned d)
{
	char got[FIXED_MAX], want[FIXED_MAX];
	size_t n = fixed_format(got, x, d);
	snprintf(want, sizeof(want), "%.*f", (int) d, x);
	if ((n != strlen(got) || strcmp(got, want)) && failures++ < 10)
		CHECK_STRN(got, n, want);
}

/* a random 64-bit value (xorshift; the same every run) */
static uint64_t next_random(void)
{
	static uint64_t s = 0x9e3779b97f4a7c15ull;
	s ^= s << 13;
	s ^= s >> 7;
	s ^= s << 17;
	return s;
}

int main(void)
{
	static const double edges[] = {0,      -0.0,     0.5,       1.5,          2.5,     0.0005,
	                               0.0015, 0.0045,   1.0625,    0.125,        0.375,   999.9995,
	                               1e-300, 4.9e-324, 0x1p52,    0x1p53 - 1,   0x1p53,  1e20,
	                               -1e-9,  -0.0004,  -0.0005,   123.456,      1.0 / 3, 2.0 / 3,
	                               NAN,    INFINITY, -INFINITY, 9.9999999995, 0.9995,  1e15};
	CHECK_CTX("edges");
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		for (unsigned d = 0; d <= 10; d++) {
			same(edges[i], d);
			same(-edges[i], d);
		}
	CHECK_CTX("ns as ms, us and s (what the tables print)");
	for (int i = 0; i < 300000; i++) {
		int64_t ns = (int64_t) (next_random() >> (next_random() % 64));
		same((double) ns / 1e6, 3);
		same((double) ns / 1e3, 3);
		same((double) ns / 1e9, 6);
	}
	CHECK_CTX("ties: k / 2^j at every scale");
	for (int j = 1; j <= 24; j++)
		for (int k = -4000; k <= 4000; k++)
			for (unsigned d = 0; d <= 4; d++)
				same(ldexp(k, -j), d);
	CHECK_CTX("random bit patterns");
	for (int i = 0; i < 300000; i++) {
		uint64_t bits = next_random();
		double x;
		memcpy(&x, &bits, sizeof(x));
		same(x, (unsigned) (next_random() % 10));
		same(ldexp((double) (next_random() >> 11), -(int) (next_random() % 80)),
		     (unsigned) (next_random() % 10));
	}
	CHECK(failures == 0);
	CHECK_CTX("fixed_shortest: the fewest digits that read back");
	char b[SHORTEST_MAX];
	CHECK_STRN(b, fixed_shortest(b, 0.1), "0.1");
	CHECK_STRN(b, fixed_shortest(b, 0.9975), "0.9975");
	CHECK_STRN(b, fixed_shortest(b, 1.0 / 3), "0.3333333333333333"); /* 16 */
	CHECK_STRN(b, fixed_shortest(b, 0.1 + 0.2), "0.30000000000000004");
	CHECK_STRN(b, fixed_shortest(b, -1e300), "-1e+300");
	for (int i = 0; i < 100000; i++) {
		uint64_t bits = next_random();
		double x;
		memcpy(&x, &bits, sizeof(x));
		if (isfinite(x) && (fixed_shortest(b, x), strtod(b, NULL) != x))
			failures++;
	}
	CHECK(failures == 0);
	return check_done();
}
