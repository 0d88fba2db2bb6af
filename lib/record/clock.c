/* SPDX-License-Identifier: MIT */
/*
 * clock.c: calibrates the TSC against CLOCK_MONOTONIC_RAW (frequency) and CLOCK_REALTIME
 * (origin), so that CTF readers turn cycles into wall-clock time. The TSC is used only when
 * /proc/cpuinfo says it is constant and nonstop (then all CPUs tick alike, in every state).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "clock.h"
#include "ctf/meta-write.h"
#include "ctf/trace.h"
#include "ipc/proto.h"

static bool tsc_usable(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	bool constant = false, nonstop = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5)) {
			constant = strstr(line, " constant_tsc") != NULL;
			nonstop = strstr(line, " nonstop_tsc") != NULL;
			break;
		}
	fclose(f);
	return constant && nonstop;
}

static uint64_t ns_of(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* A (tsc, ns) pair read as close together as possible: the tightest of a few tries. */
static void pair(clockid_t id, uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	*tsc = *ns = 0;

	for (int i = 0; i < 16; i++) {
		uint64_t a = __rdtsc(), t = ns_of(id), b = __rdtsc();
		if (b - a < best) {
			best = b - a;
			*tsc = a + (b - a) / 2;
			*ns = t;
		}
	}
}

static void set_origin(struct rec_clock *c, uint64_t value, uint64_t real_ns)
{
	/* real_ns = origin_ns + value * 1e9 / freq */
	__int128 origin = (__int128) real_ns - (__int128) value * 1000000000 / (__int128) c->freq;
	int64_t s = (int64_t) (origin / 1000000000);
	int64_t rem = (int64_t) (origin % 1000000000);
	if (rem < 0) {
		rem += 1000000000;
		s--;
	}
	c->offset_s = s;
	c->offset = (uint64_t) ((__int128) rem * c->freq / 1000000000);
}

void rec_clock_calibrate(struct rec_clock *c)
{
	if (!tsc_usable()) {
		c->kind = CLOCK_KIND_MONOTONIC;
		c->freq = 1000000000;
		set_origin(c, ns_of(CLOCK_MONOTONIC), ns_of(CLOCK_REALTIME));
		return;
	}
	uint64_t t0, n0, t1, n1;
	pair(CLOCK_MONOTONIC_RAW, &t0, &n0);
	struct timespec nap = {0, 50 * 1000000};
	while (nanosleep(&nap, &nap))
		;
	pair(CLOCK_MONOTONIC_RAW, &t1, &n1);
	c->kind = CLOCK_KIND_TSC;
	c->freq = (uint64_t) ((__int128) (t1 - t0) * 1000000000 / (n1 - n0));
	/* kHz precision is all 50 ms can give; round so that metadata reads cleanly */
	c->freq = (c->freq + 500) / 1000 * 1000;
	uint64_t tr, nr;
	pair(CLOCK_REALTIME, &tr, &nr);
	set_origin(c, tr, nr);
}

uint64_t rec_clock_now(const struct rec_clock *c)
{
	return c->kind == CLOCK_KIND_TSC ? __rdtsc() : ns_of(CLOCK_MONOTONIC);
}

int64_t rec_clock_now_ns(const struct rec_clock *c)
{
	return c->offset_s * 1000000000 + (int64_t) ctf_cycles_to_ns(c->freq, c->offset) +
	       (int64_t) ctf_cycles_to_ns(c->freq, rec_clock_now(c));
}

const char *rec_clock_kernel_name(const struct rec_clock *c)
{
	return c->kind == CLOCK_KIND_TSC ? "x86-tsc" : "mono";
}

void rec_clock_meta(const struct rec_clock *c, struct meta_clock *m)
{
	bool tsc = c->kind == CLOCK_KIND_TSC;
	*m = (struct meta_clock){tsc ? "tsc" : "monotonic",
	                         tsc ? "TSC, constant and nonstop" : "CLOCK_MONOTONIC",
	                         {0},
	                         c->freq,
	                         c->offset_s,
	                         c->offset};
}
