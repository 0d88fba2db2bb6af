/* SPDX-License-Identifier: MIT */
/*
 * watch-emit.h: the rate-limited event source of bench/watch.sh, shared by
 * bench/watch-emit-spoor.c and bench/watch-emit-lttng.c so that both tracers run the same
 * loop (the events are bench/ust-emit.sh's shape A, from the same provider files). The
 * including file defines UST_EMIT_TRACER ("spoor" or "lttng") and UST_EMIT_INTS(a, b).
 *
 *   watch-emit-TRACER RATE DURATION_MS RESULT_FILE
 *
 * One thread (the main one) emits ust_emit:ints events with a = the event's number and
 * b = a % 8 (the field the handlers count by):
 *
 *   RATE > 0   exactly RATE x DURATION_MS / 1000 events, paced by CLOCK_MONOTONIC: every
 *              50 us (clock_nanosleep to an absolute time) the events due by then are
 *              emitted, so the offered rate is RATE events/s on average, in bursts of
 *              RATE / 20000 events (200 at 4 M/s);
 *   RATE = 0   flat out, for DURATION_MS (the clock read every 1024 events).
 *
 * Then it appends one line to RESULT_FILE (not stdout: spoor watch's script prints there):
 *
 *   RESULT tracer=T rate=R emitted=N wall_ns=W cpu_ns=C end_realtime_ns=E
 *
 * W being the emitting loop's time (CLOCK_MONOTONIC), C the thread's CPU time in it, and E
 * the CLOCK_REALTIME at its end (bench/watch.sh's "lag": from E to the handler's end).
 */
#ifndef WATCH_EMIT_H
#define WATCH_EMIT_H

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WATCH_EMIT_STEP_NS 50000u /* the pacing period of a fixed rate */

static uint64_t watch_emit_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

int main(int argc, char **argv)
{
	uint64_t rate, ms, i = 0, t0, t1, c0, c1, end;
	char *tail;
	FILE *f;

	if (argc != 4) {
		fprintf(stderr, "usage: %s RATE DURATION_MS RESULT_FILE\n", argv[0]);
		return 2;
	}
	errno = 0;
	rate = strtoull(argv[1], &tail, 10);
	if (errno || *tail || !*argv[1])
		goto bad;
	ms = strtoull(argv[2], &tail, 10);
	if (errno || *tail || !*argv[2] || !ms)
		goto bad;

	t0 = watch_emit_ns(CLOCK_MONOTONIC);
	c0 = watch_emit_ns(CLOCK_THREAD_CPUTIME_ID);
	if (rate) {
		const uint64_t n = rate * ms / 1000;
		const double ns_per_event = 1e9 / (double) rate;
		uint64_t wake = t0;

		while (i < n) {
			uint64_t now = watch_emit_ns(CLOCK_MONOTONIC);
			uint64_t due = (uint64_t) ((double) (now - t0) / ns_per_event) + 1;

			if (due > n)
				due = n;
			for (; i < due; i++)
				UST_EMIT_INTS(i, i % 8);
			if (i >= n)
				break;
			/* the next step, or later if this one came late */
			wake += WATCH_EMIT_STEP_NS;
			if (wake < now)
				wake = now + WATCH_EMIT_STEP_NS;
			struct timespec ts = {(time_t) (wake / 1000000000u),
			                      (long) (wake % 1000000000u)};
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
				;
		}
	} else {
		const uint64_t stop = t0 + ms * 1000000u;

		do {
			for (uint64_t k = 0; k < 1024; k++, i++)
				UST_EMIT_INTS(i, i % 8);
		} while (watch_emit_ns(CLOCK_MONOTONIC) < stop);
	}
	c1 = watch_emit_ns(CLOCK_THREAD_CPUTIME_ID);
	t1 = watch_emit_ns(CLOCK_MONOTONIC);
	end = watch_emit_ns(CLOCK_REALTIME);

	if (!(f = fopen(argv[3], "a"))) {
		fprintf(stderr, "%s: %s: %s\n", argv[0], argv[3], strerror(errno));
		return 1;
	}
	fprintf(f,
	        "RESULT tracer=%s rate=%" PRIu64 " emitted=%" PRIu64 " wall_ns=%" PRIu64
	        " cpu_ns=%" PRIu64 " end_realtime_ns=%" PRIu64 "\n",
	        UST_EMIT_TRACER, rate, i, t1 - t0, c1 - c0, end);
	return fclose(f) ? 1 : 0;
bad:
	fprintf(stderr, "%s: bad RATE or DURATION_MS\n", argv[0]);
	return 2;
}

#endif
