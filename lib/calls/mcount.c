/* SPDX-License-Identifier: MIT */
/*
 * mcount.c: the C side of -pg's hooks (mcount.S), in general (the common case is
 * mcount-fast.c's). At a traced function's entry its return address goes on the thread's
 * shadow stack, with where it lives on the stack, and the return trampoline (calls_return)
 * takes its place; the trampoline writes the exit and returns to the original address.
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
#include <cpuid.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mcount.h"

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

/* The entry in general: the frame pushed, or NULL when the call is not followed. */
static struct calls_frame *enter(uint64_t *slot, uint64_t addr)
{
	uint32_t d = calls_decide(addr);
	struct calls_thread *t;
	if (!(d & CALLS_TRACE) || !(t = calls_thread_get()))
		return NULL;
	uint64_t site = *slot;
	if (t->n && t->f[t->n - 1].slot <= (uint64_t) slot) {
		/* a tail call: the caller's frame left, its return address (ours) in the slot */
		for (uint32_t i = t->n; calls_is_return(site) && i-- > 0;)
			if (t->f[i].slot == (uint64_t) slot)
				site = t->f[i].site;
		calls_drop_left(t, (uint64_t) slot);
	}
	if (calls_is_return(site))
		return NULL; /* its frame is still there (a signal stack): it takes the return */
	return calls_enter(t, addr, site, d);
}

void calls_mcount_entry(uint64_t *slot, uint64_t ret)
{
	struct calls_frame *f = enter(slot, calls_call_of(ret));
	if (f)
		calls_take_return(f, slot);
}

uint64_t calls_thunk_entry_general(uint64_t *slot, uint64_t tret)
{
	uint64_t body = calls_thunk_body(tret);
	struct calls_frame *f = enter(slot, calls_entry_of(body - 5));
	if (!f)
		return body;
	f->slot = (uint64_t) slot; /* the thunk's call takes the return */
	return tret;
}

uint64_t calls_mcount_exit(uint64_t slot)
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

/* How mcount.S's general path keeps the vector registers (a function's vector arguments, its
 * vector return values) while C code runs that may use them, and the stack it takes for it:
 *   0  fxsave: x87 and SSE (until the constructor below has looked at the CPU);
 *   1  xsave of calls_vec_mask: x87, SSE and the upper halves of the ymm/zmm registers
 *      (%zmm16-31 and the mask registers are neither arguments nor return values);
 *   2  the same, unless those upper halves are all zero (XGETBV 1 says them not in use):
 *      then %xmm0-7 only, as C code that uses the upper halves zeroes them when done
 *      (vzeroupper). The x87 registers are then not saved: C code leaves them alone.
 * Written before any thread but the first runs, in the order mcount.S reads them. */
uint8_t calls_vec_kind CALLS_HIDDEN;
uint32_t calls_vec_mask CALLS_HIDDEN;
uint64_t calls_vec_bytes CALLS_HIDDEN = 512;

__attribute__((constructor(101))) static void vec_setup(void)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE))
		return;
	uint32_t xcr0, hi;
	__asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(hi) : "c"(0));
	uint32_t mask = xcr0 & 0x47; /* x87, SSE, AVX (ymm's upper halves), ZMM_Hi256 */
	uint64_t bytes = 576;        /* the legacy area and the header */
	for (unsigned i = 2; i < 8; i++)
		if (mask >> i & 1) {
			__cpuid_count(0xd, i, a, b, c, d); /* a: its size, b: its offset */
			bytes = b + a > bytes ? b + a : bytes;
		}
	__cpuid_count(0xd, 1, a, b, c, d);
	calls_vec_bytes = (bytes + 63) & ~(uint64_t) 63;
	calls_vec_mask = mask;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	calls_vec_kind = a & 4 ? 2 : 1; /* XGETBV with %ecx = 1: the state in use */
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
