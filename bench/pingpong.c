/* SPDX-License-Identifier: MIT */
/*
 * pingpong.c: the workload of bench/kernel-record.sh. Two threads pass one byte back and
 * forth over a pair of pipes, N round trips (default 200000): every half trip wakes the
 * other thread and blocks the sender, so the kernel emits a steady stream of scheduler
 * events (sched_waking, sched_wakeup, sched_switch, ...) and the program itself does
 * almost nothing else.
 *
 *   pingpong [N]
 *
 * Output, one line on stdout:
 *   pingpong: round_trips=N wall_s=W cpu_s=C user_s=U sys_s=S
 * W being the wall time (CLOCK_MONOTONIC) from just before the second thread is created
 * to just after it is joined, and C = U + S the CPU time of the whole process, all its
 * threads (getrusage(RUSAGE_SELF)) at that point: a recorder's own CPU time is then its
 * measured total less this.
 *
 * Build: cc -O2 -pthread -o pingpong bench/pingpong.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int ping[2]; /* main thread -> peer */
static int pong[2]; /* peer -> main thread */
static long round_trips;

static void die(const char *what)
{
	fprintf(stderr, "pingpong: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void xwrite(int fd)
{
	char b = 'x';
	ssize_t r;

	while ((r = write(fd, &b, 1)) < 0 && errno == EINTR)
		;
	if (r != 1)
		die("write");
}

static void xread(int fd)
{
	char b;
	ssize_t r;

	while ((r = read(fd, &b, 1)) < 0 && errno == EINTR)
		;
	if (r != 1) {
		if (r == 0)
			errno = EPIPE;
		die("read");
	}
}

static void *peer(void *arg)
{
	(void) arg;
	for (long i = 0; i < round_trips; i++) {
		xread(ping[0]);
		xwrite(pong[1]);
	}
	return NULL;
}

static double seconds(const struct timeval *tv)
{
	return (double) tv->tv_sec + (double) tv->tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	pthread_t thread;
	char *end;
	int err;

	round_trips = 200000;
	if (argc > 2) {
		fprintf(stderr, "usage: pingpong [ROUND_TRIPS]\n");
		return 2;
	}
	if (argc == 2) {
		errno = 0;
		round_trips = strtol(argv[1], &end, 10);
		if (errno || end == argv[1] || *end || round_trips < 1) {
			fprintf(stderr, "pingpong: bad round-trip count '%s'\n", argv[1]);
			return 2;
		}
	}
	if (pipe(ping) < 0 || pipe(pong) < 0)
		die("pipe");

	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = pthread_create(&thread, NULL, peer, NULL);
	if (err) {
		errno = err;
		die("pthread_create");
	}
	for (long i = 0; i < round_trips; i++) {
		xwrite(ping[1]);
		xread(pong[0]);
	}
	err = pthread_join(thread, NULL);
	if (err) {
		errno = err;
		die("pthread_join");
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (getrusage(RUSAGE_SELF, &ru) < 0)
		die("getrusage");

	double wall = (double) (t1.tv_sec - t0.tv_sec) + (double) (t1.tv_nsec - t0.tv_nsec) / 1e9;
	double user = seconds(&ru.ru_utime), sys = seconds(&ru.ru_stime);
	printf("pingpong: round_trips=%ld wall_s=%.6f cpu_s=%.6f user_s=%.6f sys_s=%.6f\n",
	       round_trips, wall, user + sys, user, sys);
	return 0;
}
