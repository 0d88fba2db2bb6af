/* SPDX-License-Identifier: MIT */
/*
 * test-values.c: fmt_string (format/values.c), babeltrace2's escapes, against a byte-at-a-time
 * reference: each escaped byte and some plain ones at each place of strings of 0 to 40
 * bytes (its fast path reads 8 and 16 bytes at a time), each string ending where an
 * unreadable page begins, so that a read past its end crashes the test.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "format/values.h"

/* babeltrace2's text for byte c (plugins/text/pretty/print.c), written at p: its length. */
static size_t ref_byte(char *p, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	const char *esc = NULL;

	switch (c) {
	case '\\': esc = "\\\\"; break;
	case '\'': esc = "\\'"; break;
	case '"': esc = "\\\""; break;
	case '?': esc = "\\?"; break;
	case '\a': esc = "\\a"; break;
	case '\b': esc = "\\b"; break;
	case 0x1b: esc = "\\e"; break;
	case '\f': esc = "\\f"; break;
	case '\n': esc = "\\n"; break;
	case '\r': esc = "\\r"; break;
	case '\t': esc = "\\t"; break;
	case '\v': esc = "\\v"; break;
	}
	if (esc) {
		memcpy(p, esc, 2);
		return 2;
	}
	if (c >= 0x20 && c != 0x7f) {
		*p = (char) c;
		return 1;
	}
	memcpy(p, (char[]){'\\', 'x', hex[c >> 4], hex[c & 15]}, 4);
	return 4;
}

int main(void)
{
	static const unsigned char bytes[] = {1,    0x1b, '\n', 0x1f, '\\', '\'', '"', '?',
	                                      0x7f, ' ',  'a',  0x80, 0xc3, 0xff, '~'};
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, (size_t) page * 2, PROT_READ | PROT_WRITE,
	                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!CHECK(map != MAP_FAILED) || !CHECK(!mprotect(map + page, (size_t) page, PROT_NONE)))
		return check_done();
	char out[256], ref[256];
	for (size_t n = 0; n <= 40; n++)
		for (size_t at = 0; at < (n ? n : 1); at++)
			for (size_t b = 0; b < sizeof(bytes); b++) {
				char *s = map + page - n; /* its last byte just before the page */
				memset(s, 'x', n);
				if (n)
					s[at] = (char) bytes[b];
				size_t r = 0;
				ref[r++] = '"';
				for (size_t i = 0; i < n; i++)
					r += ref_byte(ref + r, (unsigned char) s[i]);
				ref[r++] = '"';
				struct outbuf o = {.buf = out, .cap = sizeof(out)};
				CHECK_CTX("%zu bytes, 0x%02x at %zu", n, bytes[b], at);
				if (CHECK(fmt_string(&o, s, n) == 0))
					CHECK_STRN(out, o.len, (ref[r] = '\0', ref));
			}
	munmap(map, (size_t) page * 2);
	return check_done();
}
