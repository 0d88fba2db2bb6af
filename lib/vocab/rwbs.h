/* SPDX-License-Identifier: MIT */
/*
 * rwbs.h: a block request's kind as the kernel's ftrace events write it, the text of
 * blk_fill_rwbs ("WS", "R", "RA", "FF", "FWFS", "D", "DE", "N", ...: an optional F for a
 * preflush, the operation, then F for FUA, A read-ahead, S sync, M metadata), as the
 * integer lttng-modules 2.13 writes instead (include/instrumentation/events/block.h,
 * blk_rwbs_ctf_integer for kernels >= 4.8: the operation's flag, WRITE, DISCARD,
 * DISCARD | SECURE, FLUSH or READ, 0 for the others, or'ed with its modifiers' flags).
 * Trace Compass's disk views and lttng-analyses read these bits.
 */
#ifndef VOCAB_RWBS_H
#define VOCAB_RWBS_H

#include <stddef.h>
#include <stdint.h>

/* lttng-modules' RWBS_FLAG_* (BARRIER, 1 << 4, is never set for kernels >= 4.8) */
enum {
	VOCAB_RWBS_WRITE = 1 << 0,
	VOCAB_RWBS_DISCARD = 1 << 1,
	VOCAB_RWBS_READ = 1 << 2,
	VOCAB_RWBS_RAHEAD = 1 << 3,
	VOCAB_RWBS_SYNC = 1 << 5,
	VOCAB_RWBS_META = 1 << 6,
	VOCAB_RWBS_SECURE = 1 << 7,
	VOCAB_RWBS_FLUSH = 1 << 8,
	VOCAB_RWBS_FUA = 1 << 9,
	VOCAB_RWBS_PREFLUSH = 1 << 10,
};

/* The flags of the rwbs text at s (len bytes at most, cut at a NUL). Letters the kernel
 * writes that LTTng has no flag for (the zoned operations' Z*, write-zeroes' WZ, atomic
 * writes' U) give none; untrusted bytes give some value, never a read past len. */
uint32_t vocab_rwbs_flags(const char *s, size_t len);

#endif
