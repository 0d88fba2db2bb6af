/* SPDX-License-Identifier: MIT */
/*
 * hello.c: an instrumented program for the README's demo and the tests.
 *
 *   hello [ITERATIONS [THREADS [MODE]]]
 *
 * Each thread emits ITERATIONS rounds of hello:request, hello:tick and hello:sample, with
 * values derived from the thread number and the round, so tests can check them.
 * MODE, for the tests: `fork` (a child process also emits, as thread number 100), `exec`
 * (a child execs `hello 3 1`), `kill` (SIGKILL itself once done), `slow` (1 ms per round),
 * `pause` (tracing off for the middle third of the rounds), `signal` (a 20 kHz timer signal
 * whose handler emits too; the number of handler emits is printed).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hello-tp.h"

static long iterations = 10;
static int slow, pause_middle;
/* handlers run on any thread, two at once on two CPUs: counted with an atomic add */
static long in_handler_emits;

static void on_timer(int sig)
{
	(void) sig;
	long n = __atomic_fetch_add(&in_handler_emits, 1, __ATOMIC_RELAXED);
	spoor_trace(hello, tick, 999, (uint64_t) n);
}

static void *worker(void *arg)
{
	int id = (int) (long) arg;
	char path[64];
	uint16_t hist[8];

	for (long i = 0; i < iterations; i++) {
		if (pause_middle && id == 0 && i == iterations / 3)
			spoor_tracing_off();
		if (pause_middle && id == 0 && i == 2 * iterations / 3)
			spoor_tracing_on();
		snprintf(path, sizeof(path), "/srv/%d/%ld", id, i);
		spoor_trace(hello, request, 3 + id, path, (size_t) i * 4096);
		spoor_trace(hello, tick, (uint64_t) id, (uint64_t) i);
		if (spoor_enabled(hello, sample)) {
			for (int k = 0; k < 8; k++)
				hist[k] = (uint16_t) (i * 8 + k);
			spoor_trace(hello, sample, id, (double) i / 4, hist, (uint32_t) (i % 9),
			            "abcd", (int) (i % 4));
		}
		if (slow)
			usleep(1000);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = 1;
	const char *mode = argc > 3 ? argv[3] : "";

	if (argc > 1)
		iterations = atol(argv[1]);
	if (argc > 2)
		threads = atoi(argv[2]);
	if (threads < 1 || threads > 64 || iterations < 0) {
		fprintf(stderr, "usage: hello [ITERATIONS [THREADS (1-64)]]\n");
		return 2;
	}
	slow = !strcmp(mode, "slow");
	pause_middle = !strcmp(mode, "pause");
	if (!strcmp(mode, "signal")) {
		struct sigaction sa = {.sa_handler = on_timer, .sa_flags = SA_RESTART};
		struct itimerval it = {{0, 50}, {0, 50}};
		sigaction(SIGPROF, &sa, NULL);
		setitimer(ITIMER_PROF, &it, NULL);
	}
	spoor_printf("hello starts: %ld iterations, %d threads", iterations, threads);
	pthread_t t[64];
	for (int i = 1; i < threads; i++)
		pthread_create(&t[i], NULL, worker, (void *) (long) i);
	worker((void *) 0);
	for (int i = 1; i < threads; i++)
		pthread_join(t[i], NULL);
	if (!strcmp(mode, "fork") || !strcmp(mode, "exec")) {
		pid_t child = fork();
		if (child == 0) {
			if (!strcmp(mode, "exec")) {
				execl("/proc/self/exe", argv[0], "3", "1", (char *) NULL);
				_exit(127);
			}
			worker((void *) 100);
			_exit(0);
		}
		int status;
		waitpid(child, &status, 0);
	}
	if (!strcmp(mode, "signal")) {
		struct itimerval off = {{0, 0}, {0, 0}};
		setitimer(ITIMER_PROF, &off, NULL);
		printf("handler emits: %ld\n",
		       __atomic_load_n(&in_handler_emits, __ATOMIC_RELAXED));
	}
	spoor_printf("hello done");
	if (!strcmp(mode, "kill"))
		raise(SIGKILL);
	return 0;
}
