/* SPDX-License-Identifier: MIT */
/*
 * ust-emit-common.h: the timing harness shared by bench/ust-emit-spoor.c and
 * bench/ust-emit-lttng.c (bench/ust-emit.sh builds and runs them), so that both tracers
 * run exactly the same loops. The including file defines, before including this:
 *
 *   UST_EMIT_TRACER              "spoor" or "lttng"
 *   UST_EMIT_INTS(a, b)          emit shape A: two uint64_t
 *   UST_EMIT_STR(a, b, s)        emit shape B: two int and a string
 *
 *   ust-emit-TRACER MODE THREADS N
 *
 * MODE: `ints` (shape A), `str` (shape B: the 16-character string below), `empty`
 * (the same loop without a tracepoint), or `start` (below). THREADS threads (all created with
 * pthread_create, none is the main thread) wait on a barrier, then each runs N iterations of its
 * loop, timed with clock_gettime(CLOCK_MONOTONIC) around the loop alone; a thread's first event
 * (buffer set-up) is therefore inside the timing, as it would be in a real program.
 * Every loop iteration holds a compiler barrier, so that the empty loop is not optimised
 * away and the tracepoint's enabled flag is loaded at every iteration, as it would be in
 * a loop that does real work.
 *
 * Output, one line on stdout:
 *   RESULT tracer=T mode=M threads=K n=N ns=NS_0,NS_1,... cpu=CPU_0,CPU_1,...
 * NS_i being thread i's loop time (CLOCK_MONOTONIC) divided by N (ns per event, or per
 * iteration), CPU_i the same with the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), which
 * leaves out the time the thread was runnable but not running (a busy machine).
 *
 * `start`: what a thread pays at its start. N short-lived threads, one after the other
 * (each joined before the next starts), each emits one event of shape A and ends. Timed:
 * that first event (the thread's buffer set up: all a thread's start costs the tracer),
 * wall clock and the thread's CPU time, and the thread's whole life, pthread_create to
 * pthread_join (its end included). One line, medians over the N threads, in microseconds:
 *   RESULT tracer=T mode=start n=N first_us=W first_cpu_us=C life_us=L
 */
#ifndef UST_EMIT_COMMON_H
#define UST_EMIT_COMMON_H

#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define UST_EMIT_MAX_THREADS 64

enum ust_emit_mode { MODE_EMPTY, MODE_INTS, MODE_STR, MODE_START };

struct ust_emit_thread {
	pthread_t th;
	int id;
	double ns_per_iter;  /* wall: CLOCK_MONOTONIC */
	double cpu_per_iter; /* the thread's CPU time: CLOCK_THREAD_CPUTIME_ID */
};

static enum ust_emit_mode ust_emit_mode;
static uint64_t ust_emit_n;
static pthread_barrier_t ust_emit_barrier;
/* Exactly 16 characters; not const, and laundered below, so strlen() is not folded. */
static char ust_emit_string[17] = "spoor-ust-emit16";

#define UST_EMIT_BARRIER() __asm__ volatile("" ::: "memory")

static uint64_t ust_emit_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* Both clocks, the thread's CPU clock inside the wall-clock interval. */
#define UST_EMIT_START()                                                                           \
	do {                                                                                       \
		t0 = ust_emit_clock_ns(CLOCK_MONOTONIC);                                           \
		c0 = ust_emit_clock_ns(CLOCK_THREAD_CPUTIME_ID);                                   \
	} while (0)
#define UST_EMIT_STOP()                                                                            \
	do {                                                                                       \
		c1 = ust_emit_clock_ns(CLOCK_THREAD_CPUTIME_ID);                                   \
		t1 = ust_emit_clock_ns(CLOCK_MONOTONIC);                                           \
	} while (0)

static void *ust_emit_worker(void *arg)
{
	struct ust_emit_thread *t = arg;
	const uint64_t n = ust_emit_n;
	const uint64_t id = (uint64_t) t->id;
	const char *s = ust_emit_string;
	uint64_t t0, t1, c0, c1;

	__asm__ volatile("" : "+r"(s)); /* the compiler cannot know what s points to */
	pthread_barrier_wait(&ust_emit_barrier);
	switch (ust_emit_mode) {
	case MODE_EMPTY:
		UST_EMIT_START();
		for (uint64_t i = 0; i < n; i++) {
			UST_EMIT_BARRIER();
		}
		UST_EMIT_STOP();
		break;
	case MODE_INTS:
		UST_EMIT_START();
		for (uint64_t i = 0; i < n; i++) {
			UST_EMIT_BARRIER();
			UST_EMIT_INTS(i, id);
		}
		UST_EMIT_STOP();
		break;
	default:
		UST_EMIT_START();
		for (uint64_t i = 0; i < n; i++) {
			UST_EMIT_BARRIER();
			UST_EMIT_STR((int) i, (int) id, s);
		}
		UST_EMIT_STOP();
		break;
	}
	t->ns_per_iter = (double) (t1 - t0) / (double) n;
	t->cpu_per_iter = (double) (c1 - c0) / (double) n;
	return NULL;
}

/* MODE_START: one thread's first event. */
struct ust_emit_start {
	double first_us, first_cpu_us;
};

static void *ust_emit_one(void *arg)
{
	struct ust_emit_start *o = arg;
	uint64_t t0 = ust_emit_clock_ns(CLOCK_MONOTONIC);
	uint64_t c0 = ust_emit_clock_ns(CLOCK_THREAD_CPUTIME_ID);

	UST_EMIT_INTS(1, 2);
	o->first_cpu_us = (double) (ust_emit_clock_ns(CLOCK_THREAD_CPUTIME_ID) - c0) / 1e3;
	o->first_us = (double) (ust_emit_clock_ns(CLOCK_MONOTONIC) - t0) / 1e3;
	return NULL;
}

static int ust_emit_cmp(const void *a, const void *b)
{
	double x = *(const double *) a, y = *(const double *) b;
	return (x > y) - (x < y);
}

static double ust_emit_median(double *v, uint64_t n)
{
	qsort(v, n, sizeof(*v), ust_emit_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int ust_emit_starts(const char *prog)
{
	uint64_t n = ust_emit_n;
	double *first = malloc(3 * n * sizeof(double));

	if (!first)
		return 1;
	double *cpu = first + n, *life = cpu + n;
	for (uint64_t i = 0; i < n; i++) {
		struct ust_emit_start o;
		pthread_t th;
		uint64_t t0 = ust_emit_clock_ns(CLOCK_MONOTONIC);
		if (pthread_create(&th, NULL, ust_emit_one, &o)) {
			fprintf(stderr, "%s: pthread_create failed\n", prog);
			return 1;
		}
		pthread_join(th, NULL);
		life[i] = (double) (ust_emit_clock_ns(CLOCK_MONOTONIC) - t0) / 1e3;
		first[i] = o.first_us;
		cpu[i] = o.first_cpu_us;
	}
	printf("RESULT tracer=%s mode=start n=%" PRIu64 " first_us=%.1f first_cpu_us=%.1f "
	       "life_us=%.1f\n",
	       UST_EMIT_TRACER, n, ust_emit_median(first, n), ust_emit_median(cpu, n),
	       ust_emit_median(life, n));
	free(first);
	return 0;
}

int main(int argc, char **argv)
{
	struct ust_emit_thread t[UST_EMIT_MAX_THREADS];
	int threads;

	if (argc != 4) {
		fprintf(stderr, "usage: %s ints|str|empty|start THREADS N\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "ints"))
		ust_emit_mode = MODE_INTS;
	else if (!strcmp(argv[1], "str"))
		ust_emit_mode = MODE_STR;
	else if (!strcmp(argv[1], "empty"))
		ust_emit_mode = MODE_EMPTY;
	else if (!strcmp(argv[1], "start"))
		ust_emit_mode = MODE_START;
	else {
		fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], argv[1]);
		return 2;
	}
	threads = atoi(argv[2]);
	ust_emit_n = strtoull(argv[3], NULL, 10);
	if (threads < 1 || threads > UST_EMIT_MAX_THREADS || !ust_emit_n) {
		fprintf(stderr, "%s: bad THREADS or N\n", argv[0]);
		return 2;
	}
	if (ust_emit_mode == MODE_START)
		return ust_emit_starts(argv[0]);
	pthread_barrier_init(&ust_emit_barrier, NULL, (unsigned) threads);
	for (int i = 0; i < threads; i++) {
		t[i].id = i;
		if (pthread_create(&t[i].th, NULL, ust_emit_worker, &t[i])) {
			fprintf(stderr, "%s: pthread_create failed\n", argv[0]);
			return 1;
		}
	}
	for (int i = 0; i < threads; i++)
		pthread_join(t[i].th, NULL);
	printf("RESULT tracer=%s mode=%s threads=%d n=%" PRIu64 " ns=", UST_EMIT_TRACER, argv[1],
	       threads, ust_emit_n);
	for (int i = 0; i < threads; i++)
		printf("%s%.3f", i ? "," : "", t[i].ns_per_iter);
	printf(" cpu=");
	for (int i = 0; i < threads; i++)
		printf("%s%.3f", i ? "," : "", t[i].cpu_per_iter);
	printf("\n");
	return 0;
}

#endif
