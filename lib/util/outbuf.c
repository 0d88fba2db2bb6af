/* SPDX-License-Identifier: MIT */
/* outbuf.c: flushing and growing the formatters' output buffer. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "outbuf.h"

const char outbuf_digit_pairs[200] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* outbuf_pow10[n] = 10^n. */
const uint64_t outbuf_pow10[20] = {
    1,
    10,
    100,
    1000,
    10000,
    100000,
    1000000,
    10000000,
    100000000,
    1000000000,
    10000000000ull,
    100000000000ull,
    1000000000000ull,
    10000000000000ull,
    100000000000000ull,
    1000000000000000ull,
    10000000000000000ull,
    100000000000000000ull,
    1000000000000000000ull,
    10000000000000000000ull,
};

int outbuf_init(struct outbuf *o, int fd, size_t cap)
{
	o->buf = malloc(cap);
	o->len = 0;
	o->cap = o->buf ? cap : 0;
	o->fd = fd;
	o->error = 0;
	o->flushes = 0;
	return o->buf ? 0 : -ENOMEM;
}

int outbuf_flush(struct outbuf *o)
{
	size_t off = 0;

	while (off < o->len && !o->error) {
		ssize_t n = write(o->fd, o->buf + off, o->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			o->error = n < 0 ? -errno : -EIO;
		else
			off += (size_t) n;
	}
	o->len = 0;
	o->flushes++;
	return o->error;
}

int outbuf_room_slow(struct outbuf *o, size_t n)
{
	if (outbuf_flush(o))
		return o->error;
	if (n > o->cap) {
		char *bigger = realloc(o->buf, n);

		if (!bigger)
			return o->error = -ENOMEM;
		o->buf = bigger;
		o->cap = n;
	}
	return 0;
}

void outbuf_fini(struct outbuf *o)
{
	free(o->buf);
	o->buf = NULL;
	o->cap = o->len = 0;
}
