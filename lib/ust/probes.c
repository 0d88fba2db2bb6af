/* SPDX-License-Identifier: MIT */
/*
 * probes.c: callbacks on events (the kernel's register_trace_X/unregister_trace_X).
 *
 * Callers read an event's probe array inside a read-side section counted per epoch (two
 * counters, as in SRCU). A writer publishes a new array, flips the epoch twice, each time
 * waiting until no reader is left in the epoch it left: every reader that could still hold
 * the old array has then left it, so the array can be freed and the unregistered callback is no
 * longer running anywhere. Sequentially consistent operations throughout: this path is taken only
 * by events with probes, never by plain recording.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "ust.h"

struct probe {
	spoor_probe_fn fn;
	void *data;
};

struct probe_array {
	size_t n;
	struct probe p[];
};

static pthread_mutex_t writer = PTHREAD_MUTEX_INITIALIZER;
static unsigned epoch;
static unsigned long readers[2];

void ust_call_probes(const struct spoor_event_desc *ev, const void *payload, size_t size)
{
	unsigned e = __atomic_load_n(&epoch, __ATOMIC_SEQ_CST) & 1;

	__atomic_add_fetch(&readers[e], 1, __ATOMIC_SEQ_CST);
	const struct probe_array *a =
	    __atomic_load_n((struct probe_array **) &ev->probes, __ATOMIC_SEQ_CST);
	for (size_t i = 0; a && i < a->n; i++)
		a->p[i].fn(a->p[i].data, ev, payload, size);
	__atomic_sub_fetch(&readers[e], 1, __ATOMIC_SEQ_CST);
}

/* Wait until no reader can still see what was replaced before this call. Two flips, as
 * user-space RCU does: a reader that read the epoch before an earlier writer's flip counts
 * itself in the counter that is current again now, while holding the array that writer
 * published; one flip would wait on the other counter and free that array under it (a
 * race TSan caught). After both, every reader counted in either has left. */
static void synchronize(void)
{
	for (int flip = 0; flip < 2; flip++) {
		unsigned old = __atomic_fetch_add(&epoch, 1, __ATOMIC_SEQ_CST) & 1;
		while (__atomic_load_n(&readers[old], __ATOMIC_SEQ_CST))
			sched_yield();
	}
}

static int replace(struct spoor_event_desc *ev, spoor_probe_fn fn, void *data, bool add)
{
	pthread_mutex_lock(&writer);
	struct probe_array *old = ev->probes;
	size_t n = old ? old->n : 0, k = 0;
	struct probe_array *a = malloc(sizeof(*a) + (n + 1) * sizeof(a->p[0]));
	bool found = false;

	if (!a) {
		pthread_mutex_unlock(&writer);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		if (!add && !found && old->p[i].fn == fn && old->p[i].data == data) {
			found = true;
			continue;
		}
		a->p[k++] = old->p[i];
	}
	if (add)
		a->p[k++] = (struct probe){fn, data};
	a->n = k;
	if (!add && !found) {
		free(a);
		pthread_mutex_unlock(&writer);
		return -ENOENT;
	}
	if (!k) {
		free(a);
		a = NULL;
	}
	__atomic_store_n((struct probe_array **) &ev->probes, a, __ATOMIC_SEQ_CST);
	/* the inline path, which runs no probe, goes with the first */
	ust_enabled_change(ev, SPOOR_ENABLED_PROBES, a ? SPOOR_ENABLED_PROBES : 0);
	synchronize();
	free(old);
	pthread_mutex_unlock(&writer);
	return 0;
}

int spoor_probe_register(struct spoor_event_desc *ev, spoor_probe_fn fn, void *data)
{
	return replace(ev, fn, data, true);
}

int spoor_probe_unregister(struct spoor_event_desc *ev, spoor_probe_fn fn, void *data)
{
	return replace(ev, fn, data, false);
}
