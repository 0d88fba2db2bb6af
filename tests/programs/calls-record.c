/* SPDX-License-Identifier: MIT */
/* calls-record.c: a program of known call trees for `spoor record --calls`
 * (tests/cli/record-calls.sh), built with each kind of hook. Its first argument picks one:
 *   tree      main > top(3) > mid x3 > leaf x2
 *   threads   two threads, each worker > top(2) ...
 *   dlopen L  lib_entry() of library L (opened, called, closed)
 *   longjmp   main > jumper > deeper > deepest, which longjmps back into jumper; then leaf
 *   signal    main > top(1), then raise(SIGUSR1): on_signal > leaf nested in signaller
 *   sleep     main > sleeper (sleeps 20 ms: the kernel switches the thread out)
 *   tail      main > tailer, which ends in a tail call of leaf (built so with any -O)
 *   burst N   main > top(3) N times (10N calls at once: a small buffer loses some),
 *             sleeper (the recorder empties the buffer meanwhile), leaf
 */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((noinline))

static volatile int sink;
static jmp_buf env;

NOINLINE static int leaf(int x)
{
	sink += x;
	return x + 1;
}

NOINLINE static int mid(int x)
{
	return leaf(x) + leaf(x + 1);
}

NOINLINE static int top(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += mid(i);
	return s;
}

NOINLINE static void *worker(void *arg)
{
	(void) arg;
	top(2);
	return NULL;
}

NOINLINE static void deepest(void)
{
	longjmp(env, 1);
}

NOINLINE static void deeper(void)
{
	deepest();
	sink++;
}

NOINLINE static void jumper(void)
{
	if (!setjmp(env))
		deeper();
	leaf(7);
}

NOINLINE static void on_signal(int sig)
{
	leaf(sig);
}

NOINLINE static void signaller(void)
{
	raise(SIGUSR1);
}

NOINLINE static void sleeper(void)
{
	struct timespec ts = {0, 20 * 1000 * 1000};
	nanosleep(&ts, NULL);
}

__attribute__((noinline, optimize("optimize-sibling-calls"))) static int tailer(int x)
{
	sink += x;
	return leaf(x);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "tree";
	if (!strcmp(what, "tree")) {
		top(3);
	} else if (!strcmp(what, "threads")) {
		pthread_t t[2];
		for (int i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, worker, NULL);
		for (int i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	} else if (!strcmp(what, "dlopen") && argc > 2) {
		void *h = dlopen(argv[2], RTLD_NOW);
		int (*entry)(int) = h ? (int (*)(int)) dlsym(h, "lib_entry") : NULL;
		if (!entry) {
			fprintf(stderr, "calls-record: %s\n", dlerror());
			return 1;
		}
		entry(2);
		dlclose(h);
	} else if (!strcmp(what, "longjmp")) {
		jumper();
	} else if (!strcmp(what, "signal")) {
		signal(SIGUSR1, on_signal);
		top(1);
		signaller();
	} else if (!strcmp(what, "sleep")) {
		sleeper();
	} else if (!strcmp(what, "tail")) {
		sink += tailer(3);
	} else if (!strcmp(what, "burst") && argc > 2) {
		for (int i = atoi(argv[2]); i > 0; i--)
			top(3);
		sleeper();
		leaf(0);
	} else {
		fprintf(stderr, "calls-record: unknown case %s\n", what);
		return 2;
	}
	return 0;
}
