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

/* The address of the hook's call: `call rel32` or `call *disp32(%rip)`; with -mfentry
 * the function's entry (before an endbr64, when there is one). */
static inline uint64_t calls_call_of(uint64_t ret)
{
	const unsigned char *p = (const unsigned char *) ret;
	uint64_t at = p[-5] == 0xe8 ? ret - 5 : p[-6] == 0xff && p[-5] == 0x15 ? ret - 6 : ret;
	uint32_t w;
	memcpy(&w, (const void *) (at - 4), 4);
	return w == 0xfa1e0ff3u ? at - 4 : at; /* endbr64: f3 0f 1e fa */
}

/* The frame's return goes through the trampoline from now on. */
static inline void calls_take_return(struct calls_frame *f, uint64_t *slot)
{
	f->slot = (uint64_t) slot;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	*slot = (uint64_t) calls_return;
}

#endif
