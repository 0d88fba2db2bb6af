/* SPDX-License-Identifier: MIT */
/*
 * prefault.c: a thread's ring allocated by another thread. A 64 MiB ring is 16,384 pages
 * to allocate and zero (about 22 ms of CPU); made by the thread itself at its first event,
 * that is a pause at its start, or a page fault every few hundred events. Here one helper
 * thread of the program, started at the first ring and then asleep while it has nothing to
 * do, allocates the rings' pages with MADV_POPULATE_WRITE (which writes nothing: the
 * pages' contents stay the writer's), a chunk at a time from each ring's start, the rings
 * in turn: the sub-buffers a thread writes first are there first. A thread that outruns
 * the helper faults the page in itself, as any memory. The pages are the program's, so
 * that a reader never allocates them (lib/record/drain.c maps only allocated pages).
 *
 * The helper takes none of the program's signals and no lock but its own; a ring is
 * emptied only after ust_prefault_stop, which waits for the chunk in hand, and unmapped
 * through ust_prefault_unmap, which leaves it to the helper if it is in the ring (a
 * thread's end does not wait).
 * Without MADV_POPULATE_WRITE (Linux before 5.14) it stops trying.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "prefault.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define MAX_JOBS 32
#define CHUNK    ((size_t) 256 << 10) /* about 0.1 ms of work: how long a stop may wait */

struct job {
	char *base; /* NULL: a free entry */
	size_t len, done;
	bool busy;  /* the helper is in [base + done, + CHUNK) */
	bool unmap; /* its owner is done with it: the helper unmaps it after the chunk */
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER, left = PTHREAD_COND_INITIALIZER;
static struct job jobs[MAX_JOBS];
static bool helper_started; /* in this process (a forked child has none) */
static bool unsupported;

/* The next chunk to allocate: the ring after the one served last, in turn. Lock held. */
static struct job *next_job(unsigned *turn)
{
	for (unsigned k = 0; k < MAX_JOBS; k++) {
		struct job *j = &jobs[(*turn + k) % MAX_JOBS];
		if (j->base) {
			*turn = (*turn + k + 1) % MAX_JOBS;
			return j;
		}
	}
	return NULL;
}

static void *helper_main(void *unused)
{
	unsigned turn = 0;

	(void) unused;
	prctl(PR_SET_NAME, "spoor-ust-fault"); /* here: not a system call of the ring's thread */
	pthread_mutex_lock(&mu);
	for (;;) {
		struct job *j = next_job(&turn);
		if (!j) {
			pthread_cond_wait(&work, &mu);
			continue;
		}
		size_t n = j->len - j->done < CHUNK ? j->len - j->done : CHUNK;
		char *p = j->base + j->done;
		j->busy = true;
		pthread_mutex_unlock(&mu);
		int rc = madvise(p, n, MADV_POPULATE_WRITE), err = errno;
		pthread_mutex_lock(&mu);
		j->busy = false;
		j->done += n;
		if (rc && err == EINVAL)
			unsupported = true;
		struct job gone = *j;
		/* done, not possible (no memory: the writer's own faults will say so), or its
		 * owner done with it */
		if (rc || j->done >= j->len || j->unmap)
			j->base = NULL;
		if (unsupported)
			memset(jobs, 0, sizeof(jobs));
		pthread_cond_broadcast(&left);
		if (gone.unmap) {
			pthread_mutex_unlock(&mu);
			munmap(gone.base, gone.len);
			pthread_mutex_lock(&mu);
		}
	}
	return NULL;
}

/* A forked child has no helper, and the lock may have been held by a thread it lacks. */
static void after_fork_in_child(void)
{
	pthread_mutex_init(&mu, NULL);
	pthread_cond_init(&work, NULL);
	pthread_cond_init(&left, NULL);
	memset(jobs, 0, sizeof(jobs));
	helper_started = false;
}

/* At load, in the thread that loads the library: pthread_atfork allocates, and the first
 * allocation of a thread makes it a malloc arena (about 0.1 ms), which a ring's thread
 * should not pay at its first event. */
__attribute__((constructor)) static void watch_fork(void)
{
	pthread_atfork(NULL, NULL, after_fork_in_child);
}

/* The helper, started in this process if need be. Lock held. */
static bool helper_running(void)
{
	if (helper_started)
		return true;
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t th;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* the program's signals are not for it */
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 << 10);
	bool ok = !pthread_create(&th, &attr, helper_main, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	helper_started = ok;
	return ok;
}

void ust_prefault_start(void *base, size_t len)
{
	pthread_mutex_lock(&mu);
	if (!unsupported && helper_running()) {
		for (unsigned k = 0; k < MAX_JOBS; k++) {
			if (!jobs[k].base) {
				jobs[k] = (struct job){base, len, 0, false, false};
				pthread_cond_signal(&work);
				break;
			}
		}
	}
	pthread_mutex_unlock(&mu);
}

void ust_prefault_unmap(void *base, size_t len)
{
	pthread_mutex_lock(&mu);
	for (unsigned k = 0; k < MAX_JOBS; k++) {
		struct job *j = &jobs[k];
		if (j->base == base) {
			if (j->busy) {
				j->unmap = true;
				base = NULL;
			} else {
				j->base = NULL;
			}
		}
	}
	pthread_mutex_unlock(&mu);
	if (base)
		munmap(base, len);
}

void ust_prefault_stop(void *base)
{
	pthread_mutex_lock(&mu);
	for (unsigned k = 0; k < MAX_JOBS; k++) {
		struct job *j = &jobs[k];
		if (j->base == base) {
			while (j->busy)
				pthread_cond_wait(&left, &mu);
			j->base = NULL;
		}
	}
	pthread_mutex_unlock(&mu);
}
