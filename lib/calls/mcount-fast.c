/* SPDX-License-Identifier: MIT */
/*
 * mcount-fast.c: the common case of -pg's hooks (mcount.S), built so that the hooks save
 * almost nothing: compiled with -mgeneral-regs-only (no SSE, AVX or x87 register touched:
 * a function's vector arguments and return values stay where they are, whatever their
 * width) and each function no_caller_saved_registers (the compiler saves the integer
 * registers it uses, no more). So they call nothing: when they cannot do the whole job (a
 * thread's first call, a new packet, tracing paused, a filter's first look at a function,
 * a tail call, a longjmp's leftovers, a full shadow stack, --calls-min on the
 * CLOCK_MONOTONIC clock) they change nothing and say so, and the hook goes through
 * mcount.c's general path, after saving every register it may clobber.
 *
 * The common case: the thread's shadow stack made and with room, the function's decision
 * known (no name filter, or the filters' table has it), the event through the inline path
 * of SPOOR_EVENT (include/spoor/tracepoint.h). The entries and exits as calls_enter and
 * calls_exit (hooks.c) make them.
 */
#include "emit.h"
#include "mcount.h"

/* --calls-min's payload, as calls-tp.h declares it. */
static inline void write_call(char *p, uint64_t addr, uint64_t site)
{
	memcpy(p, &addr, 8);
	memcpy(p + 8, &site, 8);
}
/* --calls-min's, its duration up to the event's own time (as hooks.c's emit_call). */
static inline int emit_call_fast(uint64_t addr, uint64_t site, uint64_t begin)
{
	struct spoor__inline in;
	char *p;
	if (!spoor__inline_reserve(spoor_event_desc(spoor_calls, call), 24, &in, &p))
		return 0;
	uint64_t duration = in.ts > begin ? in.ts - begin : 0;
	write_call(p, addr, site);
	memcpy(p + 16, &duration, 8);
	spoor__inline_commit(&in);
	return 1;
}

/* The entry of addr, whose return address is at slot: ENTERED (the frame pushed, recorded
 * or not as calls_enter decides; with take, its return taken), FILTERED (not followed) or
 * 0: nothing done, for the general path. */
#define ENTERED  1
#define FILTERED 2
static inline __attribute__((always_inline)) int enter(uint64_t *slot, uint64_t addr, bool take)
{
	struct calls_thread *t = calls_self;
	if (__builtin_expect((uintptr_t) t <= (uintptr_t) CALLS_ENDED, 0))
		return 0;
	uint32_t d = CALLS_TRACE;
	if (calls_cfg.names && !calls_decided_get(addr, &d))
		return 0;
	if (!(d & CALLS_TRACE))
		return FILTERED;
	uint32_t n = t->n;
	uint64_t site = *slot;
	/* not a tail call or the first after a longjmp */
	if (__builtin_expect(
	        (n && t->f[n - 1].slot <= (uint64_t) slot) | (site == (uint64_t) calls_return), 0))
		return 0;
	struct calls_frame *f = calls_push(t, addr, site);
	if (__builtin_expect(!f, 0))
		return 0;
	uint32_t flags = CALLS_RECORDED;
	if (calls_cfg.counted) {
		flags = calls_recorded(t, d);
		if (!(flags & CALLS_RECORDED))
			goto push;
		if (calls_cfg.min) {
			if (calls_cfg.mono)
				goto undo;
			f->ts = __builtin_ia32_rdtsc();
		} else if (!calls_emit_inline(spoor_event_desc(lttng_ust_cyg_profile, func_entry),
		                              addr, site)) {
			goto undo;
		}
		calls_count(t, flags, 1);
	} else if (!calls_emit_inline(spoor_event_desc(lttng_ust_cyg_profile, func_entry), addr,
	                              site)) {
		goto undo;
	}
push:
	f->flags = flags;
	if (take)
		calls_take_return(f, slot);
	else
		f->slot = (uint64_t) slot; /* the thunk's call takes it */
	return ENTERED;
undo:
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->n = n;
	return 0;
}

/* 1: done (the entry, or the function filtered out); 0: nothing done. */
int calls_entry_fast(uint64_t *slot, uint64_t ret)
{
	return enter(slot, calls_call_of(ret), true) != 0;
}

/* Where the thunk's entry returns: to the thunk (tret), or to the body when the call is
 * not followed; 0: nothing done. */
uint64_t calls_thunk_entry_fast(uint64_t *slot, uint64_t tret)
{
	uint64_t body = calls_thunk_body(tret);
	int r = enter(slot, calls_entry_of(body - 5), false);
	return r == ENTERED ? tret : r == FILTERED ? body : 0;
}

/* The original return address, the exit recorded (as calls_exit does it) and the frame
 * popped; 0: nothing done, for the general path. */
uint64_t calls_exit_fast(uint64_t slot)
{
	struct calls_thread *t = calls_self;
	if (__builtin_expect((uintptr_t) t <= (uintptr_t) CALLS_ENDED, 0))
		return 0;
	uint32_t n = t->n;
	if (__builtin_expect(!n || t->f[n - 1].slot != slot, 0))
		return 0; /* a longjmp left frames above it */
	const struct calls_frame *f = &t->f[n - 1];
	uint64_t addr = f->addr, site = f->site;
	uint32_t flags = f->flags;
	if (!(flags & CALLS_RECORDED)) {
	} else if (!calls_cfg.min) {
		if (!calls_emit_inline(spoor_event_desc(lttng_ust_cyg_profile, func_exit), addr,
		                       site))
			return 0;
	} else {
		if (calls_cfg.mono)
			return 0;
		uint64_t begin = f->ts;
		if (__builtin_ia32_rdtsc() - begin >= calls_cfg.min &&
		    !emit_call_fast(addr, site, begin))
			return 0;
	}
	if (calls_cfg.counted && (flags & CALLS_RECORDED))
		calls_count(t, flags, -1);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->n = n - 1;
	return site;
}
