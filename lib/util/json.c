/* SPDX-License-Identifier: MIT */
/* json.c: JSON string literals from untrusted bytes (see json.h). */
#include <string.h>

#include "json.h"

/* The length of the well-formed UTF-8 sequence at s (n bytes left), 0 if there is none
 * (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xBF; /* the second byte's range */
	size_t len;

	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		lo = c == 0xE0 ? 0xA0 : 0x80;
		hi = c == 0xED ? 0x9F : 0xBF;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		lo = c == 0xF0 ? 0x90 : 0x80;
		hi = c == 0xF4 ? 0x8F : 0xBF;
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return len;
}

/* s[0..n) escaped (no quotes) at out, which has room for 6 bytes per byte: its length. */
static size_t escape(char *out, const char *str, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *) str;
	char *p = out;
	size_t i = 0;

	while (i < n) {
		size_t run = i; /* bytes that go out as they are */
		while (run < n && s[run] >= 0x20 && s[run] < 0x7F && s[run] != '"' &&
		       s[run] != '\\')
			run++;
		memcpy(p, str + i, run - i);
		p += run - i;
		if ((i = run) == n)
			break;
		unsigned char c = s[i];
		if (c >= 0x80) {
			size_t len = utf8_len(s + i, n - i);
			if (len)
				memcpy(p, str + i, len);
			else
				memcpy(p, "\\ufffd", 6);
			p += len ? len : 6;
			i += len ? len : 1;
			continue;
		}
		i++;
		*p++ = '\\';
		switch (c) {
		case '"': *p++ = '"'; break;
		case '\\': *p++ = '\\'; break;
		case '\n': *p++ = 'n'; break;
		case '\t': *p++ = 't'; break;
		case '\r': *p++ = 'r'; break;
		default:
			memcpy(p, "u00", 3);
			p[3] = hex[c >> 4];
			p[4] = hex[c & 15];
			p += 5;
		}
	}
	return (size_t) (p - out);
}

void json_string_n(FILE *out, const char *s, size_t len)
{
	enum { CHUNK = 1024 };
	char buf[6 * CHUNK];

	fputc('"', out);
	while (len) {
		size_t n = len < CHUNK ? len : CHUNK;
		/* a chunk does not end inside a UTF-8 sequence: at most 3 bytes back */
		for (size_t back = 0; n < len && back < 3 && (s[n] & 0xC0) == 0x80; back++)
			n--;
		fwrite(buf, 1, escape(buf, s, n), out);
		s += n;
		len -= n;
	}
	fputc('"', out);
}

void json_string(FILE *out, const char *s)
{
	json_string_n(out, s, s ? strlen(s) : 0);
}

int json_string_buf(struct outbuf *o, const char *s, size_t len)
{
	int rc = outbuf_room(o, 6 * len + 2); /* the worst case, and the quotes */

	if (rc)
		return rc;
	outbuf_putc(o, '"');
	o->len += escape(o->buf + o->len, s, len);
	outbuf_putc(o, '"');
	return 0;
}
