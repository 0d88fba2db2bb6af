/* SPDX-License-Identifier: MIT */
/*
 * exit-signal.c: a signal handler that emits while its thread ends. `exit-signal ROUNDS`:
 * in each round a thread emits exitsig:work, and as the last thing it does (a thread key's
 * destructor, which runs after the tracer's: its key is made later) sends the process
 * SIGUSR1, whose handler emits exitsig:handler. The main thread blocks SIGUSR1 until it
 * has joined the thread, so the ending thread takes the signal if it lets it in, else the
 * main thread does once the thread is gone. Prints how many times the handler emitted:
 * every event, the handler's too, is recorded or counted as discarded.
 */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* clang-format off */
SPOOR_EVENT(exitsig, work, SPOOR_ARGS(uint32_t round), SPOOR_FIELDS(spoor_field_int(uint32_t, round, round)))
SPOOR_EVENT(exitsig, handler, SPOOR_ARGS(uint32_t n), SPOOR_FIELDS(spoor_field_int(uint32_t, n, n)))
/* clang-format on */

static pthread_key_t last_key;
static unsigned handled; /* atomic: a handler may run on any thread */

static void on_usr1(int sig)
{
	(void) sig;
	spoor_trace(exitsig, handler, __atomic_load_n(&handled, __ATOMIC_RELAXED));
	__atomic_fetch_add(&handled, 1, __ATOMIC_RELAXED);
}

static void last_act(void *unused)
{
	(void) unused;
	kill(getpid(), SIGUSR1);
}

static void *worker(void *arg)
{
	sigset_t usr1;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
	spoor_trace(exitsig, work, (uint32_t) (long) arg);
	pthread_setspecific(last_key, arg ? arg : (void *) 1);
	return NULL;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 4;
	struct sigaction sa = {.sa_handler = on_usr1, .sa_flags = SA_RESTART};
	sigset_t usr1;

	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	/* the tracer's thread key first (made at a thread's first event), then this one */
	spoor_trace(exitsig, work, 0);
	pthread_key_create(&last_key, last_act);
	for (long i = 1; i <= rounds; i++) {
		pthread_t t;
		pthread_sigmask(SIG_BLOCK, &usr1, NULL);
		if (pthread_create(&t, NULL, worker, (void *) i))
			return 1;
		pthread_join(t, NULL);
		pthread_sigmask(SIG_UNBLOCK, &usr1, NULL); /* a signal still pending is taken here */
	}
	printf("handler emits: %u\n", __atomic_load_n(&handled, __ATOMIC_RELAXED));
	return 0;
}
