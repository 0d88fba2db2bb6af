/* SPDX-License-Identifier: MIT */
/*
 * outbuf.h: a large output buffer with fast appends for text formatters.
 *
 * Callers reserve room for a bounded piece (outbuf_room), then append without checks.
 * Numbers are formatted by hand: printf costs more than the rest of an event line.
 */
#ifndef UTIL_OUTBUF_H
#define UTIL_OUTBUF_H

#include <stdint.h>
#include <string.h>

struct outbuf {
	char *buf;
	size_t len, cap;
	int fd;
	int error;        /* first write error, as -errno */
	uint64_t flushes; /* lets callers tell whether text they appended is still in buf */
};

int outbuf_init(struct outbuf *o, int fd, size_t cap);
int outbuf_flush(struct outbuf *o);
void outbuf_fini(struct outbuf *o);
/* Make room for n more bytes; a piece larger than the buffer grows it. */
int outbuf_room_slow(struct outbuf *o, size_t n);

static inline int outbuf_room(struct outbuf *o, size_t n)
{
	if (o->len + n <= o->cap)
		return 0;
	return outbuf_room_slow(o, n);
}

static inline void outbuf_putc(struct outbuf *o, char c)
{
	o->buf[o->len++] = c;
}

static inline void outbuf_put(struct outbuf *o, const char *s, size_t n)
{
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

#define outbuf_lit(o, s) outbuf_put((o), (s), sizeof(s) - 1)

/* Checked append of a string of any length. */
static inline int outbuf_str(struct outbuf *o, const char *s, size_t n)
{
	if (outbuf_room(o, n))
		return -1;
	outbuf_put(o, s, n);
	return 0;
}

extern const char outbuf_digit_pairs[200];

extern const uint64_t outbuf_pow10[20];

/* Decimal digits of v (1 for 0): from its bit length, then one compare. */
static inline unsigned outbuf_digits(uint64_t v)
{
	uint64_t w = v | 1; /* 0 has one digit, like 1 */
	unsigned t = ((64 - (unsigned) __builtin_clzll(w)) * 1233) >> 12; /* bits * log10(2) */
	return t + 1 - (w < outbuf_pow10[t]);
}

/* v's decimal digits written at p (20 bytes of room): their count. Digits go straight to
 * their place, two per step: no staging buffer to copy (and no store-to-load stall copying
 * it). Also for text built outside an outbuf (util/fixed.c, cmds/table.c). */
static inline unsigned outbuf_fmt_u64(char *p, uint64_t v)
{
	unsigned n = outbuf_digits(v);

	p += n;
	while (v >= 100) {
		unsigned r = (unsigned) (v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, outbuf_digit_pairs + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(p - 2, outbuf_digit_pairs + 2 * v, 2);
	else
		p[-1] = (char) ('0' + v);
	return n;
}

/* v's last width digits at p, zeros in front (width <= 20). Up to 9 digits (the
 * nanoseconds of every time printed) in 32-bit arithmetic, a pair of digits a store. */
static inline void outbuf_fmt_u64_pad(char *p, uint64_t v, int width)
{
	p += width;
	if (width <= 9) {
		uint32_t w = (uint32_t) (v % 1000000000);
		for (int i = width; i >= 2; i -= 2) {
			uint32_t r = w % 100;
			w /= 100;
			p -= 2;
			memcpy(p, outbuf_digit_pairs + 2 * r, 2);
		}
		if (width & 1)
			p[-1] = (char) ('0' + w % 10);
		return;
	}
	for (int i = width; i >= 2; i -= 2) {
		unsigned r = (unsigned) (v % 100);
		v /= 100;
		p -= 2;
		memcpy(p, outbuf_digit_pairs + 2 * r, 2);
	}
	if (width & 1)
		p[-1] = (char) ('0' + v % 10);
}

/* Needs 20 bytes of room. */
static inline void outbuf_u64(struct outbuf *o, uint64_t v)
{
	o->len += outbuf_fmt_u64(o->buf + o->len, v);
}

/* v with its sign at p (21 bytes of room): the bytes written. */
static inline unsigned outbuf_fmt_s64(char *p, int64_t v)
{
	if (v >= 0)
		return outbuf_fmt_u64(p, (uint64_t) v);
	*p = '-';
	return 1 + outbuf_fmt_u64(p + 1, (uint64_t) 0 - (uint64_t) v);
}

/* Needs 21 bytes of room. */
static inline void outbuf_s64(struct outbuf *o, int64_t v)
{
	o->len += outbuf_fmt_s64(o->buf + o->len, v);
}

/* Bytes of the longest time outbuf_fmt_time writes: "-9223372036.854775808". */
#define OUTBUF_TIME_MAX 21

/* A time as spoor dump prints it: seconds.nanoseconds from the clock's origin, '-' in front
 * of a time before it, at p (OUTBUF_TIME_MAX bytes of room): the bytes written. One writer
 * for dump's lines and every message that names an event's time, so that they match. */
static inline unsigned outbuf_fmt_time(char *p, int64_t ns)
{
	uint64_t v = (uint64_t) ns;
	char *q = p;

	if (ns < 0) {
		*q++ = '-';
		v = 0 - v;
	}
	q += outbuf_fmt_u64(q, v / 1000000000);
	*q++ = '.';
	outbuf_fmt_u64_pad(q, v % 1000000000, 9);
	return (unsigned) (q + 9 - p);
}

/* Needs OUTBUF_TIME_MAX bytes of room. */
static inline void outbuf_time(struct outbuf *o, int64_t ns)
{
	o->len += outbuf_fmt_time(o->buf + o->len, ns);
}

/* Zero-padded to width digits (width <= 20). */
static inline void outbuf_u64_pad(struct outbuf *o, uint64_t v, int width)
{
	outbuf_fmt_u64_pad(o->buf + o->len, v, width);
	o->len += (size_t) width;
}

/* Upper-case hexadecimal without prefix. Needs 16 bytes of room. */
static inline void outbuf_hex(struct outbuf *o, uint64_t v)
{
	static const char digits[] = "0123456789ABCDEF";
	char tmp[16];
	int i = 16;

	do {
		tmp[--i] = digits[v & 15];
		v >>= 4;
	} while (v);
	outbuf_put(o, tmp + i, (size_t) (16 - i));
}

#endif
