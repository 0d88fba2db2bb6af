/* SPDX-License-Identifier: MIT */
/*
 * bytes16.h: text looked at 16 bytes at a time, for the scans of TSDL text (tsdl-lex.c,
 * tsdl-scan.c), with GCC/clang vector extensions: SSE2 on x86-64, NEON on arm64, plain code
 * elsewhere. A comparison gives 0xff in the bytes that match; matches are then found in two
 * 64-bit words.
 */
#ifndef CTF_BYTES16_H
#define CTF_BYTES16_H

#include <stdint.h>
#include <string.h>

typedef unsigned char bytes16 __attribute__((vector_size(16)));

static inline bytes16 bytes16_load(const char *p)
{
	bytes16 v;
	memcpy(&v, p, sizeof(v));
	return v;
}

/* Eight bytes of v as a word whose byte i (from the least significant) is byte 8 * half + i
 * of v. */
static inline uint64_t bytes16_half(bytes16 v, int half)
{
	uint64_t w;
	memcpy(&w, (const unsigned char *) &v + 8 * half, sizeof(w));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* The index of the first byte of v that is not 0; 16 when there is none. */
static inline unsigned bytes16_first(bytes16 v)
{
	uint64_t lo = bytes16_half(v, 0), hi = bytes16_half(v, 1);

	if (lo)
		return (unsigned) __builtin_ctzll(lo) / 8;
	return hi ? 8 + (unsigned) __builtin_ctzll(hi) / 8 : 16;
}

#endif
