/* SPDX-License-Identifier: MIT */
/*
 * fuzz-timeline-cache.c: a timeline cache file as `spoor view` maps it (untrusted bytes,
 * lib/timeline/cache.c, query.c). The input is libFuzzer's heap copy of exactly its size
 * (8-aligned, as a mapping is), so AddressSanitizer sees any read past its end. Whatever
 * opens is queried whole: every row's spans and marks at a coarse and a fine zoom and at
 * extreme times, every class's rate, every string. Checks what query.h promises whatever
 * the bytes: rects in order within the range, at most 2 per pixel and 2 more, states
 * known.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/thread-states.h"
#include "timeline/cache.h"
#include "timeline/query.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz-timeline-cache: a query breaks a promise: %s\n", what);
		abort();
	}
}

static size_t touch(const char *s)
{
	return s ? strlen(s) : 0;
}

static void spans(const struct tl_cache *c, size_t row, int64_t t0, int64_t t1, uint32_t px)
{
	static struct tl_rect out[2 * 512 + 2 + 8];
	size_t max = 2 * (size_t) px + 2;
	size_t n = tl_query_spans(c, row, t0, t1, px, out, max + 8);
	check(n <= max, "at most 2 rects per pixel and 2 more");
	int64_t at = t0;
	for (size_t i = 0; i < n; i++) {
		check(out[i].begin >= at && out[i].end > out[i].begin && out[i].end <= t1,
		      "rects in order, within the range");
		check(out[i].state < TS_COUNT && out[i].spans >= 1, "rect state and count");
		at = out[i].end;
	}
}

static void marks(const struct tl_cache *c, size_t row, int64_t t0, int64_t t1, uint32_t px)
{
	static struct tl_markrect out[600];
	size_t n = tl_query_marks(c, row, t0, t1, px, out, 600);
	check(n <= (size_t) px + 1, "at most a mark per pixel");
	for (size_t i = 0; i < n; i++) {
		check(out[i].t >= t0 && out[i].t <= t1 && out[i].count >= 1,
		      "marks within the range");
		check(i == 0 || out[i].t > out[i - 1].t, "marks in order");
		check(out[i].class_index == UINT32_MAX || out[i].class_index < tl_cache_classes(c),
		      "a mark's class");
	}
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct tl_cache *c = NULL;
	char *err = NULL;
	/* a copy of the exact size, 8-aligned as an mmap is (libFuzzer's may be less) */
	unsigned char *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (tl_cache_open_bytes(copy, size, &c, &err)) {
		check(!c && err, "an error leaves a message and no cache");
		free(err);
		free(copy);
		return 0;
	}
	size_t sum = 0;
	for (size_t i = 0; i < tl_cache_rows(c); i++) {
		const struct tl_cache_row *r = tl_cache_row(c, i);
		sum += touch(r->name);
		int64_t t0 = r->first, t1 = r->last;
		if (t1 > t0) {
			spans(c, i, t0, t1, 512);
			spans(c, i, t0, t1, 3);
			spans(c, i, t0, t0 + (int64_t) (((uint64_t) t1 - (uint64_t) t0) / 2), 512);
		}
		spans(c, i, INT64_MIN, INT64_MAX, 512);
		spans(c, i, 0, 1, 512); /* below a ns a pixel */
		marks(c, i, r->first, r->last, 512);
		marks(c, i, INT64_MIN, INT64_MAX, 7);
	}
	static double rate[64];
	for (size_t k = 0; k < tl_cache_classes(c) && k < 256; k++) {
		sum += touch(tl_cache_class_name(c, k)) + tl_cache_class_user(c, k);
		tl_query_rate(c, k, 0, tl_cache_duration(c) / 2 + 1, 64, rate);
	}
	tl_query_rate(c, SIZE_MAX, INT64_MIN, INT64_MAX, 64, rate);
	for (uint32_t k = 0; k < tl_cache_syscalls(c); k++)
		sum += touch(tl_cache_syscall_name(c, k));
	for (uint32_t k = 0; k < tl_cache_functions(c); k++)
		sum += touch(tl_cache_function_name(c, k));
	/* the seeds' addresses (process 1: 0x1000, 0x2000), before, at and after their times */
	for (uint64_t a = 0x1000; a <= 0x3000; a += 0x1000)
		for (int64_t t = -1; t < 9; t += 4)
			sum += touch(tl_cache_address_name(c, 1, a, t));
	for (size_t k = 0; k < tl_cache_damage(c); k++)
		sum += touch(tl_cache_damage_text(c, k)) + (size_t) tl_cache_damage_at(c, k);
	if (getenv("SPOOR_FUZZ_VERBOSE"))
		fprintf(stderr, "%zu rows, %zu classes, origin %lld, duration %lld (%zu)\n",
		        tl_cache_rows(c), tl_cache_classes(c), (long long) tl_cache_origin(c),
		        (long long) tl_cache_duration(c), sum);
	tl_cache_close(c);
	free(copy);
	return 0;
}
