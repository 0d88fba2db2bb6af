/* SPDX-License-Identifier: MIT */
/* test-outbuf.c: the formatters' hand-written number printing against printf. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "util/outbuf.h"

static void check_printed(uint64_t v)
{
	char buf[64], ref[32];
	struct outbuf o = {.buf = buf, .cap = sizeof(buf)};

	outbuf_u64(&o, v);
	snprintf(ref, sizeof(ref), "%" PRIu64, v);
	CHECK_STRN(buf, o.len, ref);
}

/* A time as spoor dump prints it, through printf: the sign, then |ns|'s seconds and
 * nanoseconds (INT64_MIN's magnitude computed without overflow). */
static void check_time(int64_t ns)
{
	char buf[OUTBUF_TIME_MAX + 8], ref[48];
	uint64_t v = ns < 0 ? 0 - (uint64_t) ns : (uint64_t) ns;

	snprintf(ref, sizeof(ref), "%s%" PRIu64 ".%09" PRIu64, ns < 0 ? "-" : "", v / 1000000000,
	         v % 1000000000);
	CHECK_STRN(buf, outbuf_fmt_time(buf, ns), ref);
}

int main(void)
{
	static const uint64_t edges[] = {0,
	                                 1,
	                                 9,
	                                 10,
	                                 11,
	                                 99,
	                                 100,
	                                 101,
	                                 999,
	                                 1000,
	                                 9999,
	                                 10000,
	                                 123456789,
	                                 999999999999ull,
	                                 1000000000000ull,
	                                 9999999999999999999ull,
	                                 10000000000000000000ull,
	                                 UINT64_MAX};
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		check_printed(edges[i]);
	/* every power of ten and its neighbours */
	for (uint64_t p = 1; p <= 1000000000000000000ull; p *= 10) {
		check_printed(p - 1);
		check_printed(p);
		check_printed(p + 1);
	}
	srand(1);
	for (int i = 0; i < 2000; i++) {
		uint64_t v =
		    ((uint64_t) rand() << 33) ^ ((uint64_t) rand() << 2) ^ (uint64_t) rand();
		check_printed(v >> (rand() % 64));
	}
	char buf[64];
	struct outbuf o = {.buf = buf, .cap = sizeof(buf)};
	outbuf_s64(&o, INT64_MIN);
	CHECK_STRN(buf, o.len, "-9223372036854775808");
	o.len = 0;
	outbuf_u64_pad(&o, 42, 9);
	CHECK_STRN(buf, o.len, "000000042");
	/* every width, on the 32-bit path (up to 9) and the 64-bit one: v's last digits */
	for (int w = 1; w <= 20; w++) {
		static const uint64_t pads[] = {
		    0, 7, 42, 999999999, 1000000000, 1234567890123ull, UINT64_MAX};
		for (size_t i = 0; i < sizeof(pads) / sizeof(pads[0]); i++) {
			char ref[32];
			snprintf(ref, sizeof(ref), "%020" PRIu64, pads[i]);
			o.len = 0;
			outbuf_u64_pad(&o, pads[i], w);
			CHECK_CTX("%" PRIu64 " in %d digits", pads[i], w);
			CHECK_STRN(buf, o.len, ref + 20 - w);
		}
	}
	CHECK_CTX("%s", "");
	o.len = 0;
	outbuf_hex(&o, 0xDEADBEEFull);
	CHECK_STRN(buf, o.len, "DEADBEEF");
	/* times: both sides of the origin and of a second, and the extremes */
	static const int64_t times[] = {
	    0,           1,           -1,        999999999, -999999999,           1000000000,
	    -1000000000, -1500000000, INT64_MAX, INT64_MIN, 1700000000123456789ll};
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
		check_time(times[i]);
	o.len = 0;
	outbuf_time(&o, -500000000);
	CHECK_STRN(buf, o.len, "-0.500000000"); /* not 0.-500000000 as printf's / and % give */
	o.len = 0;
	outbuf_time(&o, INT64_MIN);
	CHECK_STRN(buf, o.len, "-9223372036.854775808");
	CHECK(o.len == OUTBUF_TIME_MAX);
	for (int i = 0; i < 2000; i++) { /* both signs, all magnitudes */
		uint64_t v =
		    ((uint64_t) rand() << 33) ^ ((uint64_t) rand() << 2) ^ (uint64_t) rand();
		check_time((int64_t) v >> (rand() % 64));
	}
	return check_done();
}
