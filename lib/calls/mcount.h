/* SPDX-License-Identifier: MIT */
/* mcount.h: what -pg's hooks share: the assembly (mcount.S), its common case
 * (mcount-fast.c) and its general path (mcount.c). */
#ifndef CALLS_MCOUNT_H
#define CALLS_MCOUNT_H

#include <string.h>

#include "calls.h"

/* The common case (mcount-fast.c), which preserves every register but %rax. The entry:
 * 1 when done; the exit: the original return address. 0: nothing done. */
__attribute__((no_caller_saved_registers)) int calls_entry_fast(uint64_t *slot,
                                                                uint64_t ret) CALLS_HIDDEN;
__attribute__((no_caller_saved_registers)) uint64_t calls_exit_fast(uint64_t slot) CALLS_HIDDEN;
/* The general path (mcount.c), called with every register the C ABI lets it clobber saved. */
void calls_mcount_entry(uint64_t *slot, uint64_t ret) CALLS_HIDDEN;
uint64_t calls_mcount_exit(uint64_t slot) CALLS_HIDDEN;

/* A patched function's thunk (patch.c), CALLS_THUNK_BYTES at a multiple of them, which
 * its entry jumps to:
 *     call calls_thunk_entry    the entry (through a jump near the thunk)
 *     lea 8(%rsp), %rsp         the function's return address, in its slot, is ...
 *     call BODY                 ... replaced by R: the body (after the patched bytes) runs
 *  R: lea -8(%rsp), %rsp        the slot again
 *     call calls_thunk_exit     the exit, which puts the original return address back
 *     ret                       to it
 * Every return goes where the processor's return stack predicts it (the trampoline's
 * cannot: the function's return to it is mispredicted). calls_thunk_entry returns to the
 * thunk, or to BODY when the call is not followed. */
#define CALLS_THUNK_BYTES  32
#define CALLS_THUNK_RETURN 15 /* R's offset */
void calls_thunk_entry(void) CALLS_HIDDEN;
void calls_thunk_exit(void) CALLS_HIDDEN;
__attribute__((no_caller_saved_registers)) uint64_t
calls_thunk_entry_fast(uint64_t *slot, uint64_t tret) CALLS_HIDDEN;
uint64_t calls_thunk_entry_general(uint64_t *slot, uint64_t tret) CALLS_HIDDEN;

/* Where thunks are (patch.c adds to it while no other thread runs the new ones). */
#define CALLS_THUNK_AREAS 1024
extern uint64_t calls_thunk_areas[CALLS_THUNK_AREAS][2] CALLS_HIDDEN; /* [begin, end) */
extern unsigned calls_nthunk_areas CALLS_HIDDEN;

/* The function's body, from the thunk's return address (its first call's). */
static inline uint64_t calls_thunk_body(uint64_t tret)
{
	int32_t rel;
	memcpy(&rel, (const void *) (tret + 6), 4); /* the second call's */
	return tret + 10 + (uint64_t) (int64_t) rel;
}

/* The function's address in the events: its entry, before an endbr64 if there is one. */
static inline uint64_t calls_entry_of(uint64_t at)
{
	uint32_t w;
	memcpy(&w, (const void *) (at - 4), 4);
	return w == 0xfa1e0ff3u ? at - 4 : at; /* endbr64: f3 0f 1e fa */
}

/* The address of the hook's call: `call rel32` or `call *disp32(%rip)`; with -mfentry
 * the function's entry. */
static inline uint64_t calls_call_of(uint64_t ret)
{
	const unsigned char *p = (const unsigned char *) ret;
	return calls_entry_of(p[-5] == 0xe8                    ? ret - 5
	                      : p[-6] == 0xff && p[-5] == 0x15 ? ret - 6
	                                                       : ret);
}

/* A traced call's return address while it runs: the trampoline, or a thunk's R. */
static inline bool calls_is_return(uint64_t a)
{
	if (a == (uint64_t) calls_return)
		return true;
	if (a % CALLS_THUNK_BYTES != CALLS_THUNK_RETURN)
		return false;
	for (unsigned i = 0; i < __atomic_load_n(&calls_nthunk_areas, __ATOMIC_ACQUIRE); i++)
		if (a >= calls_thunk_areas[i][0] && a < calls_thunk_areas[i][1])
			return true;
	return false;
}

/* The frame's return goes through the trampoline from now on. */
static inline void calls_take_return(struct calls_frame *f, uint64_t *slot)
{
	f->slot = (uint64_t) slot;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	*slot = (uint64_t) calls_return;
}

#endif
