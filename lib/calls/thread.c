/* SPDX-License-Identifier: MIT */
/* thread.c: each thread's shadow stack of calls in flight, mapped on its first call (mmap is
 * async-signal-safe, so a signal handler's first call can make it) and unmapped when the
 * thread ends. */
#include <pthread.h>
#include <sys/mman.h>

#include "calls.h"

__thread struct calls_thread *calls_self __attribute__((tls_model("initial-exec")));
static pthread_key_t key;
static int have_key = -1; /* 0 once the key exists */

static size_t bytes(void)
{
	return sizeof(struct calls_thread) + CALLS_FRAMES * sizeof(struct calls_frame);
}

/* The thread ends: its start routine has returned, so nothing of its is in flight that a
 * return trampoline still needs. Later calls (other keys' destructors) go unrecorded. */
static void thread_end(void *p)
{
	calls_self = CALLS_ENDED;
	munmap(p, bytes());
}

struct calls_thread *calls_thread_make(void)
{
	struct calls_thread *t =
	    mmap(NULL, bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED) {
		calls_self = CALLS_ENDED;
		return NULL;
	}
	calls_self = t;
	if (have_key == 0)
		pthread_setspecific(key, t);
	return t;
}

__attribute__((constructor(101))) static void make_key(void)
{
	have_key = pthread_key_create(&key, thread_end);
}
