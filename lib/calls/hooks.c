/* SPDX-License-Identifier: MIT */
/*
 * hooks.c: the entry and exit of every instrumented call.
 *
 * -finstrument-functions calls __cyg_profile_func_enter/exit with the function's address and
 * its call site; glibc defines them as no-ops, and this library, preloaded, takes their
 * place. With no filter, no depth and no --calls-min each writes its event (calls_emit,
 * emit.h) and nothing else: no state per call. Otherwise both go through calls_enter/calls_exit and
 * the thread's shadow stack, which -pg's hooks (mcount.S) always use, as they take over the return.
 */
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "calls.h"
#include "emit.h"

uint64_t calls_now(void)
{
	if (__builtin_expect(!calls_cfg.mono, 1))
		return __rdtsc();
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

struct calls_frame *calls_enter(struct calls_thread *t, uint64_t addr, uint64_t site,
                                uint32_t decision)
{
	struct calls_frame *f = calls_push(t, addr, site);
	if (!f)
		return NULL;
	uint32_t flags = calls_recorded(t, decision);
	if (flags & CALLS_RECORDED) {
		calls_count(t, flags, 1);
		if (calls_cfg.min)
			f->ts = calls_now();
		else
			spoor_trace(lttng_ust_cyg_profile, func_entry, addr, site);
	}
	f->flags = flags;
	return f;
}

/* --calls-min's event: the duration up to the event's own time when the inline path takes
 * it, so that a reader placing the entry at (time - duration) finds the entry's exact time
 * and children nest inside their parents whatever an emit costs; out of line, up to now. */
static void emit_call(uint64_t addr, uint64_t site, uint64_t begin, uint64_t now)
{
	struct spoor_event_desc *ev = spoor_event_desc(spoor_calls, call);
	if (!spoor_enabled(spoor_calls, call))
		return;
	struct spoor__inline in;
	struct spoor_reservation r;
	char *p;
	uint64_t v[3] = {addr, site, now - begin};
	int fast = spoor__inline_reserve(ev, sizeof(v), &in, &p);
	if (fast) {
		v[2] = in.ts > begin ? in.ts - begin : 0;
	} else {
		if (!spoor_reserve(ev, sizeof(v), &r))
			return;
		p = r.payload;
	}
	memcpy(p, v, sizeof(v));
	if (fast)
		spoor__inline_commit(&in);
	else
		spoor_commit(&r);
}

/* The frames from the top down to i end, each with its exit: those above i were left by a
 * longjmp, and end now, when a later call or return shows them gone. */
void calls_exit(struct calls_thread *t, uint32_t i)
{
	uint64_t now = calls_cfg.min ? calls_now() : 0;
	for (uint32_t k = t->n; k-- > i;) {
		struct calls_frame *f = &t->f[k];
		if (!(f->flags & CALLS_RECORDED))
			continue;
		calls_count(t, f->flags, -1);
		if (!calls_cfg.min)
			spoor_trace(lttng_ust_cyg_profile, func_exit, f->addr, f->site);
		else if (now - f->ts >= calls_cfg.min)
			emit_call(f->addr, f->site, f->ts, now);
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->n = i;
}

/* spoor_trace of either event, by its descriptor. */
__attribute__((noinline, cold)) void calls_emit_slow(struct spoor_event_desc *ev, uint64_t addr,
                                                     uint64_t call_site)
{
	if (!SPOOR__ENABLED(ev))
		return;
	SPOOR__EMIT_BODY(ev, SPOOR_FIELDS(spoor_field_hex(uint64_t, addr, addr)
	                                      spoor_field_hex(uint64_t, call_site, call_site)))
}

__attribute__((noinline)) static void enter_stateful(uint64_t fn, uint64_t site)
{
	uint32_t d = calls_decide(fn);
	struct calls_thread *t;
	if (d & CALLS_TRACE && (t = calls_thread_get()))
		calls_enter(t, fn, site, d);
}

__attribute__((noinline)) static void exit_stateful(uint64_t fn, uint64_t site)
{
	uint32_t d = calls_decide(fn);
	struct calls_thread *t;
	if (!(d & CALLS_TRACE) || !(t = calls_thread_get()))
		return;
	/* its frame: the top one, unless a longjmp left frames above it (a recursive
	 * function's innermost in flight, then); none when its entry went unrecorded */
	for (uint32_t i = t->n; i-- > 0;)
		if (t->f[i].addr == fn && t->f[i].site == site) {
			calls_exit(t, i);
			return;
		}
}

/* The common case needs no frame: the others are calls of their own, in tail position. */
CALLS_API void __cyg_profile_func_enter(void *fn, void *site)
{
	if (__builtin_expect(calls_cfg.stateful, 0))
		enter_stateful((uint64_t) fn, (uint64_t) site);
	else
		calls_emit(spoor_event_desc(lttng_ust_cyg_profile, func_entry), (uint64_t) fn,
		           (uint64_t) site);
}

CALLS_API void __cyg_profile_func_exit(void *fn, void *site)
{
	if (__builtin_expect(calls_cfg.stateful, 0))
		exit_stateful((uint64_t) fn, (uint64_t) site);
	else
		calls_emit(spoor_event_desc(lttng_ust_cyg_profile, func_exit), (uint64_t) fn,
		           (uint64_t) site);
}
