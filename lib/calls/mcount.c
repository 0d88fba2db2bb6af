/* SPDX-License-Identifier: MIT */
/*
 * mcount.c: the C side of -pg's hooks (mcount.S). At a traced function's entry its return
 * address goes on the thread's shadow stack, with where it lives on the stack, and the
 * return trampoline (calls_return) takes its place; the trampoline writes the exit and
 * returns to the original address.
 *
 * longjmp: the frames it leaves never return. The trampoline finds its frame by its stack
 * slot, below whatever longjmp left above it, and ends those first (their exits, at that
 * time); a new call whose slot is at or above the top frames' ends them too (unless it runs
 * on a signal stack, where stack addresses compare with nothing), so the graph shows them
 * ending before the next call, and a loop of longjmps does not fill the shadow stack.
 * A tail call (the caller's frame gone, the callee's return address the caller's, already
 * the trampoline's) ends the caller's frame and takes its return: the two show as siblings.
 * Signal handlers' calls push above the interrupted ones and pop back to them.
 * C++ exceptions: unwind.c puts the original return addresses back while one is on its way.
 * Backtraces through traced functions show the trampoline.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calls-tp.h"
#include "calls.h"

void calls_mcount_entry(uint64_t *slot, uint64_t ret) CALLS_HIDDEN;
uint64_t calls_mcount_exit(uint64_t slot) CALLS_HIDDEN;

/* The address of the hook's call: `call rel32` or `call *disp32(%rip)`; with -mfentry
 * the function's entry (before an endbr64, when there is one). */
static inline uint64_t call_of(uint64_t ret)
{
	const unsigned char *p = (const unsigned char *) ret;
	uint64_t at = p[-5] == 0xe8 ? ret - 5 : p[-6] == 0xff && p[-5] == 0x15 ? ret - 6 : ret;
	uint32_t w;
	memcpy(&w, (const void *) (at - 4), 4);
	return w == 0xfa1e0ff3u ? at - 4 : at; /* endbr64: f3 0f 1e fa */
}

/* Frames that a longjmp or an exception left: at or below the new slot on the same stack. */
void calls_drop_left(struct calls_thread *t, uint64_t slot)
{
	uint32_t i = t->n;
	while (i > 0 && t->f[i - 1].slot <= slot)
		i--;
	if (i == t->n)
		return;
	stack_t ss;
	if (sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK))
		return;
	calls_exit(t, i);
}

/* The frame's return goes through the trampoline from now on. */
static inline void take_return(struct calls_frame *f, uint64_t *slot)
{
	f->slot = (uint64_t) slot;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	*slot = (uint64_t) calls_return;
}

__attribute__((noinline)) static void entry_slow(uint64_t *slot, uint64_t addr)
{
	uint32_t d = calls_decide(addr);
	struct calls_thread *t;
	if (!(d & CALLS_TRACE) || !(t = calls_thread_get()))
		return;
	uint64_t site = *slot;
	if (t->n && t->f[t->n - 1].slot <= (uint64_t) slot) {
		/* a tail call: the caller's frame left, its return address (ours) in the slot */
		for (uint32_t i = t->n; site == (uint64_t) calls_return && i-- > 0;)
			if (t->f[i].slot == (uint64_t) slot)
				site = t->f[i].site;
		calls_drop_left(t, (uint64_t) slot);
	}
	if (site == (uint64_t) calls_return)
		return; /* its frame is still there (a signal stack): it takes the return */
	struct calls_frame *f = calls_enter(t, addr, site, d);
	if (f)
		take_return(f, slot);
}

/* The common case inline: every call recorded (no filter, depth or --calls-min: the depth
 * counts are not kept), the thread's stack made, with room, and the call not a tail call
 * or the first after a longjmp. */
void calls_mcount_entry(uint64_t *slot, uint64_t ret)
{
	uint64_t addr = call_of(ret);
	struct calls_thread *t = calls_self;
	if (__builtin_expect(!calls_cfg.stateful && t != NULL && t != CALLS_ENDED, 1)) {
		uint32_t n = t->n;
		uint64_t site = *slot;
		struct calls_frame *f;
		if (__builtin_expect((!n || t->f[n - 1].slot > (uint64_t) slot) &&
		                         site != (uint64_t) calls_return &&
		                         (f = calls_push(t, addr, site)),
		                     1)) {
			f->flags = CALLS_RECORDED;
			spoor_trace(lttng_ust_cyg_profile, func_entry, addr, site);
			take_return(f, slot);
			return;
		}
	}
	entry_slow(slot, addr);
}

__attribute__((noinline)) static uint64_t exit_slow(uint64_t slot)
{
	struct calls_thread *t = calls_thread_get();
	for (uint32_t i = t ? t->n : 0; i-- > 0;)
		if (t->f[i].slot == slot) {
			uint64_t site = t->f[i].site;
			calls_exit(t, i);
			return site;
		}
	static const char msg[] = "spoor: libspoor-calls: a traced function returned, but its "
	                          "return address is lost (stack switched?)\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		abort();
	abort();
}

uint64_t calls_mcount_exit(uint64_t slot)
{
	struct calls_thread *t = calls_self;
	if (__builtin_expect(!calls_cfg.stateful && t != NULL && t != CALLS_ENDED && t->n, 1)) {
		uint32_t i = t->n - 1;
		struct calls_frame *f = &t->f[i];
		if (__builtin_expect(f->slot == slot, 1)) {
			uint64_t addr = f->addr, site = f->site;
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			t->n = i;
			spoor_trace(lttng_ust_cyg_profile, func_exit, addr, site);
			return site;
		}
	}
	return exit_slow(slot);
}

void __monstartup(unsigned long low, unsigned long high);
void _mcleanup(void);
/* -pg programs start glibc's profiler and write gmon.out at exit: not while traced. */
CALLS_API void __monstartup(unsigned long low, unsigned long high)
{
	(void) low, (void) high;
}
CALLS_API void _mcleanup(void)
{
}
