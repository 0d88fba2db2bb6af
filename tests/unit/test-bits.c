/* SPDX-License-Identifier: MIT */
/*
 * test-bits.c: ctf/bits.h against a slow, bit-by-bit reference written from the CTF 1.8
 * spec (section 4.1.5): a little-endian field takes bit 0 (its least significant bit) from
 * the least significant free bit of the first byte onwards; a big-endian field takes its
 * most significant bit first, from the most significant free bit of each byte down.
 */
#include <stdlib.h>

#include "check.h"
#include "ctf/bits.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
	/* xorshift64*: deterministic, so a failure is reproducible */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

/* Bit b of the data, counted from the start: byte b / 8, LSB-first or MSB-first. */
static unsigned bit_lsb_first(const uint8_t *buf, uint64_t b)
{
	return (buf[b / 8] >> (b % 8)) & 1u;
}

static unsigned bit_msb_first(const uint8_t *buf, uint64_t b)
{
	return (buf[b / 8] >> (7 - b % 8)) & 1u;
}

static uint64_t ref_le(const uint8_t *buf, uint64_t pos, unsigned size)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < size; i++)
		v |= (uint64_t) bit_lsb_first(buf, pos + i) << i;
	return v;
}

static uint64_t ref_be(const uint8_t *buf, uint64_t pos, unsigned size)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < size; i++)
		v = v << 1 | bit_msb_first(buf, pos + i);
	return v;
}

static int64_t ref_sign_extend(uint64_t v, unsigned size)
{
	/* two's complement by arithmetic, not by shifts */
	if (size == 64)
		return (int64_t) v;
	uint64_t top = (uint64_t) 1 << (size - 1);
	if (!(v & top))
		return (int64_t) v;
	return -(int64_t) (top - (v & (top - 1)));
}

/* Compare both readers with the reference for one buffer, every size and bit offset;
 * returns the number of mismatches (each also counted as a failed check). */
static unsigned sweep(const uint8_t *buf, size_t len, unsigned first_byte, const char *what)
{
	unsigned bad = 0;

	for (unsigned size = 1; size <= 64; size++)
		for (unsigned off = 0; off < 8; off++) {
			uint64_t pos = (uint64_t) first_byte * 8 + off;
			if (pos + size > len * 8)
				continue;
			uint64_t le = bits_read_le(buf, len, pos, size);
			uint64_t be = bits_read_be(buf, len, pos, size);
			uint64_t rle = ref_le(buf, pos, size), rbe = ref_be(buf, pos, size);
			if (le != rle || be != rbe) {
				CHECK_CTX("%s: size %u, bit offset %llu", what, size,
				          (unsigned long long) pos);
				CHECK_EQ_U64(le, rle);
				CHECK_EQ_U64(be, rbe);
				bad++;
			}
		}
	CHECK_CTX("%s", what);
	CHECK_EQ_U64(bad, 0);
	return bad;
}

static void fill(uint8_t *buf, size_t len, int pattern)
{
	for (size_t i = 0; i < len; i++) {
		switch (pattern) {
		case 0: buf[i] = 0xFF; break;
		case 1: buf[i] = 0x00; break;
		case 2: buf[i] = i % 2 ? 0x55 : 0xAA; break;
		case 3: buf[i] = (uint8_t) (0x80 >> (i % 8)); break;
		default: buf[i] = (uint8_t) rng(); break;
		}
	}
}

/* Every size 1..64 at every bit offset 0..7, in the middle of a roomy buffer. */
static void test_all_sizes_and_offsets(void)
{
	uint8_t buf[32];
	char what[64];

	for (int pattern = 0; pattern < 24; pattern++) {
		fill(buf, sizeof(buf), pattern);
		for (unsigned first = 0; first < 12; first += 3) {
			snprintf(what, sizeof(what), "pattern %d, from byte %u", pattern, first);
			sweep(buf, sizeof(buf), first, what);
		}
	}
}

/* Fields ending on the last byte of the readable data (avail < 8 from the field's first
 * byte): the readers must not look past it, and must not take the bytes after it. Each
 * buffer is malloc'd at its exact size so that valgrind or ASan would see an overrun. */
static void test_end_of_buffer(void)
{
	unsigned bad = 0;

	for (int pattern = 0; pattern < 16; pattern++)
		for (unsigned lead = 0; lead < 3; lead++)
			for (unsigned size = 1; size <= 64; size++)
				for (unsigned off = 0; off < 8; off++) {
					size_t len = lead + (off + size + 7) / 8;
					uint8_t *buf = malloc(len);
					if (!buf)
						abort();
					fill(buf, len, pattern);
					uint64_t pos = (uint64_t) lead * 8 + off;
					uint64_t le = bits_read_le(buf, len, pos, size);
					uint64_t be = bits_read_be(buf, len, pos, size);
					if (le != ref_le(buf, pos, size) ||
					    be != ref_be(buf, pos, size)) {
						CHECK_CTX(
						    "end of buffer: %zu bytes, size %u at bit %llu",
						    len, size, (unsigned long long) pos);
						CHECK_EQ_U64(le, ref_le(buf, pos, size));
						CHECK_EQ_U64(be, ref_be(buf, pos, size));
						bad++;
					}
					free(buf);
				}
	CHECK_CTX("end of buffer");
	CHECK_EQ_U64(bad, 0);

	/* The bytes past `avail` must not leak in, even when they are there in memory. */
	uint8_t big[16];
	memset(big, 0xFF, sizeof(big));
	big[0] = 0x00;
	big[1] = 0x00;
	CHECK_CTX("avail cut-off");
	CHECK_EQ_U64(bits_read_le(big, 2, 0, 16), 0);
	CHECK_EQ_U64(bits_read_be(big, 2, 0, 16), 0);
	CHECK_EQ_U64(bits_read_le(big, 2, 3, 13), 0);
	CHECK_EQ_U64(bits_read_be(big, 2, 3, 13), 0);
}

/* Values worked out by hand (and the bit-field example of tests/data/SYNTH.md). */
static void test_known_values(void)
{
	static const uint8_t w[] = {0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x0F};

	CHECK_CTX("known values");
	CHECK_EQ_U64(bits_read_le(w, sizeof(w), 0, 32), 0x78563412);
	CHECK_EQ_U64(bits_read_be(w, sizeof(w), 0, 32), 0x12345678);
	CHECK_EQ_U64(bits_read_le(w, sizeof(w), 0, 8), 0x12);
	CHECK_EQ_U64(bits_read_be(w, sizeof(w), 8, 8), 0x34);
	/* LE: bits 4..19 of 0x..78563412 */
	CHECK_EQ_U64(bits_read_le(w, sizeof(w), 4, 16), 0x6341);
	/* BE: 0x12345678 without its first 4 bits, 16 bits: 0x2345 */
	CHECK_EQ_U64(bits_read_be(w, sizeof(w), 4, 16), 0x2345);
	CHECK_EQ_U64(bits_read_le(w, sizeof(w), 0, 64), 0xF0DEBC9A78563412ull);
	CHECK_EQ_U64(bits_read_be(w, sizeof(w), 0, 64), 0x123456789ABCDEF0ull);
	/* 64 bits at bit 4 span nine bytes */
	CHECK_EQ_U64(bits_read_le(w, sizeof(w), 4, 64), 0xFF0DEBC9A7856341ull);
	CHECK_EQ_U64(bits_read_be(w, sizeof(w), 4, 64), 0x23456789ABCDEF00ull);
	/* 64 bits at bit 7 */
	CHECK_EQ_U64(bits_read_be(w, sizeof(w), 7, 64), 0x1A2B3C4D5E6F7807ull);
	CHECK_EQ_U64(bits_read_le(w, sizeof(w), 7, 64), 0x1FE1BD7934F0AC68ull);
	CHECK_EQ_U64(bits_read_le(w, sizeof(w), 63, 1), 1);
	CHECK_EQ_U64(bits_read_be(w, sizeof(w), 63, 1), 0);
	CHECK_EQ_U64(bits_read_be(w, sizeof(w), 71, 1), 1);

	/* SYNTH.md: synth:bitfields payload starts 5b c1 (LE) and da c1 (BE). */
	static const uint8_t le[] = {0x5b, 0xc1, 0x20, 0x40}, be[] = {0xda, 0xc1, 0x82, 0xfa};
	CHECK_EQ_U64(bits_read_le(le, 4, 0, 1), 1);
	CHECK_EQ_S64(bits_sign_extend(bits_read_le(le, 4, 1, 3), 3), -3);
	CHECK_EQ_U64(bits_read_le(le, 4, 4, 5), 21);
	CHECK_EQ_U64(bits_read_be(be, 4, 0, 1), 1);
	CHECK_EQ_S64(bits_sign_extend(bits_read_be(be, 4, 1, 3), 3), -3);
	CHECK_EQ_U64(bits_read_be(be, 4, 4, 5), 21);
}

static void test_sign_extend(void)
{
	unsigned bad = 0;

	CHECK_CTX("sign extension");
	CHECK_EQ_S64(bits_sign_extend(1, 1), -1);
	CHECK_EQ_S64(bits_sign_extend(0, 1), 0);
	CHECK_EQ_S64(bits_sign_extend(4, 3), -4);
	CHECK_EQ_S64(bits_sign_extend(3, 3), 3);
	CHECK_EQ_S64(bits_sign_extend(5, 3), -3);
	CHECK_EQ_S64(bits_sign_extend(0x80, 8), -128);
	CHECK_EQ_S64(bits_sign_extend(0x7F, 8), 127);
	CHECK_EQ_S64(bits_sign_extend(0xF060, 13), -4000); /* 0xF060 & 0x1FFF = 0x1060 */
	CHECK_EQ_S64(bits_sign_extend(0x80000000u, 32), INT32_MIN);
	CHECK_EQ_S64(bits_sign_extend(0x7FFFFFFFu, 32), INT32_MAX);
	CHECK_EQ_S64(bits_sign_extend(0x14D2FA200ull, 33), -3000000000ll);
	CHECK_EQ_S64(bits_sign_extend(UINT64_MAX, 64), -1);
	CHECK_EQ_S64(bits_sign_extend(0x8000000000000000ull, 64), INT64_MIN);
	CHECK_EQ_U64(bits_mask(64), UINT64_MAX);
	CHECK_EQ_U64(bits_mask(1), 1);
	CHECK_EQ_U64(bits_mask(27), 0x7FFFFFF);
	for (unsigned size = 1; size <= 64; size++) {
		uint64_t m = size == 64 ? UINT64_MAX : ((uint64_t) 1 << size) - 1;
		uint64_t samples[] = {0, 1, m, m >> 1, (m >> 1) + 1, rng() & m, rng() & m};
		for (unsigned k = 0; k < sizeof(samples) / sizeof(samples[0]); k++)
			if (bits_sign_extend(samples[k], size) !=
			    ref_sign_extend(samples[k], size)) {
				CHECK_CTX("sign extension: size %u", size);
				CHECK_EQ_S64(bits_sign_extend(samples[k], size),
				             ref_sign_extend(samples[k], size));
				bad++;
			}
	}
	CHECK_CTX("sign extension");
	CHECK_EQ_U64(bad, 0);
	/* Reading then extending: a signed 5-bit -1 at bit 3 of 0xF8 is all ones. */
	static const uint8_t b[] = {0xF8};
	CHECK_EQ_S64(bits_sign_extend(bits_read_le(b, 1, 3, 5), 5), -1);
	CHECK_EQ_S64(bits_sign_extend(bits_read_be(b, 1, 0, 5), 5), -1);
	CHECK_EQ_S64(bits_sign_extend(bits_read_be(b, 1, 3, 5), 5), -8);
}

int main(void)
{
	test_known_values();
	test_all_sizes_and_offsets();
	test_end_of_buffer();
	test_sign_extend();
	check_context[0] = '\0';
	return check_done();
}
