/* SPDX-License-Identifier: MIT */
/*
 * bits.h: reading CTF bit-fields (spec section 4.1.5 and the bit-field layout of C).
 *
 * Little-endian fields take bits from the least significant end of each byte onwards;
 * big-endian ones from the most significant end. One unaligned 64-bit load serves any field
 * of up to 57 bits at any bit offset; wider unaligned fields take a ninth byte.
 */
#ifndef CTF_BITS_H
#define CTF_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint64_t bits_load64(const uint8_t *p, size_t avail)
{
	uint64_t w = 0;

	if (avail >= 8) {
		memcpy(&w, p, 8);
	} else {
		/* Near the end of the mapping: never read past it. */
		uint8_t tmp[8] = {0};
		memcpy(tmp, p, avail);
		memcpy(&w, tmp, 8);
	}
	return w;
}

static inline uint64_t bits_mask(unsigned size)
{
	return size >= 64 ? ~(uint64_t) 0 : ((uint64_t) 1 << size) - 1;
}

/* size bits at bit offset pos of base, which has avail bytes readable. The caller checked
 * that pos + size fits. Host is little-endian (x86-64, arm64): big-endian data is swapped. */
static inline uint64_t bits_read_le(const uint8_t *base, size_t avail, uint64_t pos, unsigned size)
{
	size_t byte = (size_t) (pos >> 3);
	unsigned shift = (unsigned) (pos & 7);
	uint64_t w = bits_load64(base + byte, avail - byte) >> shift;

	if (shift + size > 64)
		w |= (uint64_t) base[byte + 8] << (64 - shift);
	return w & bits_mask(size);
}

static inline uint64_t bits_read_be(const uint8_t *base, size_t avail, uint64_t pos, unsigned size)
{
	size_t byte = (size_t) (pos >> 3);
	unsigned shift = (unsigned) (pos & 7);
	uint64_t w = __builtin_bswap64(bits_load64(base + byte, avail - byte)) << shift;

	if (shift + size > 64)
		w |= (uint64_t) base[byte + 8] >> (8 - shift);
	return w >> (64 - size);
}

static inline int64_t bits_sign_extend(uint64_t v, unsigned size)
{
	if (size >= 64)
		return (int64_t) v;
	unsigned s = 64 - size;
	return (int64_t) (v << s) >> s;
}

#endif
