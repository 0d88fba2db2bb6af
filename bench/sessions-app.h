/* SPDX-License-Identifier: MIT */
/*
 * sessions-app.h: the programs of bench/sessions.sh, shared by bench/sessions-app-spoor.c
 * and bench/sessions-app-lttng.c so that both tracers run the same code (the events are
 * bench/ust-emit.sh's shape A, ust_emit:ints, from the same provider files). The including
 * file defines UST_EMIT_TRACER ("spoor" or "lttng") and UST_EMIT_INTS(a, b).
 *
 *   sessions-app-TRACER start
 *       prints "MAIN T" (T: CLOCK_MONOTONIC in ns at main's first line), emits one event
 *       and exits: the start-up measure (bench/startup-time.c runs it).
 *   sessions-app-TRACER paced PERIOD_US STATUSFILE
 *       writes "ready" to STATUSFILE, then emits an event every PERIOD_US microseconds
 *       (absolute CLOCK_MONOTONIC steps) with a = CLOCK_REALTIME in ns at the emit and b =
 *       its number, until SIGTERM: the time from a session's start to its first recorded
 *       event is the first recorded a minus the time the start command was run.
 *   sessions-app-TRACER fill THREADS N STATUSFILE
 *       THREADS threads (thread i pinned to CPU i modulo the CPUs, so per-CPU rings fill
 *       evenly too) each emit N events (a = the event's number, b = the thread), then it
 *       writes "filled" to STATUSFILE and waits for SIGTERM: the rings of a flight
 *       recorder, full, for the snapshot measure.
 */
#ifndef SESSIONS_APP_H
#define SESSIONS_APP_H

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t sessions_app_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static volatile sig_atomic_t sessions_app_stop;

static void sessions_app_on_term(int sig)
{
	(void) sig;
	sessions_app_stop = 1;
}

static int sessions_app_status(const char *file, const char *what)
{
	FILE *f = fopen(file, "w");

	if (!f || fprintf(f, "%s\n", what) < 0 || fclose(f)) {
		fprintf(stderr, "sessions-app: %s: %s\n", file, strerror(errno));
		return -1;
	}
	return 0;
}

static uint64_t sessions_app_n;

static void *sessions_app_filler(void *arg)
{
	const uint64_t id = (uint64_t) (uintptr_t) arg;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((int) (id % (uint64_t) (ncpu > 0 ? ncpu : 1)), &set);
	sched_setaffinity(0, sizeof(set), &set); /* best effort */
	for (uint64_t i = 0; i < sessions_app_n; i++)
		UST_EMIT_INTS(i, id);
	return NULL;
}

int main(int argc, char **argv)
{
	const uint64_t main_ns = sessions_app_ns(CLOCK_MONOTONIC);
	struct sigaction sa = {.sa_handler = sessions_app_on_term};

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (argc == 2 && !strcmp(argv[1], "start")) {
		printf("MAIN %" PRIu64 "\n", main_ns);
		UST_EMIT_INTS(main_ns, 0);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "paced")) {
		uint64_t period = strtoull(argv[2], NULL, 10) * 1000u, wake, i = 0;

		if (!period || sessions_app_status(argv[3], "ready"))
			return 2;
		wake = sessions_app_ns(CLOCK_MONOTONIC);
		while (!sessions_app_stop) {
			UST_EMIT_INTS(sessions_app_ns(CLOCK_REALTIME), i++);
			wake += period;
			struct timespec ts = {(time_t) (wake / 1000000000u),
			                      (long) (wake % 1000000000u)};
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "fill")) {
		int threads = atoi(argv[2]);
		pthread_t th[64];

		sessions_app_n = strtoull(argv[3], NULL, 10);
		if (threads < 1 || threads > 64 || !sessions_app_n)
			return 2;
		for (int i = 0; i < threads; i++)
			if (pthread_create(&th[i], NULL, sessions_app_filler,
			                   (void *) (uintptr_t) i))
				return 1;
		for (int i = 0; i < threads; i++)
			pthread_join(th[i], NULL);
		if (sessions_app_status(argv[4], "filled"))
			return 1;
		while (!sessions_app_stop) /* not pause(): a SIGTERM before it would be missed */
			usleep(100000);
		return 0;
	}
	fprintf(stderr,
	        "usage: %s start | paced PERIOD_US STATUSFILE | fill THREADS N STATUSFILE\n",
	        argv[0]);
	return 2;
}

#endif
