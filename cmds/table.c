/* SPDX-License-Identifier: MIT */
/* table.c: rows of aligned text tables (see table.h). */
#include <stdio.h>
#include <string.h>

#include "table.h"
#include "util/fixed.h"
#include "util/outbuf.h"

/* s (len bytes) padded to |width|; the buffer is written out first when it lacks room. */
static void put(struct row *r, const char *s, size_t len, int width)
{
	size_t w = (size_t) (width < 0 ? -width : width), pad = len < w ? w - len : 0;
	if (r->n + pad + len > sizeof(r->buf)) {
		FILE *out = r->out ? r->out : stdout;
		fwrite(r->buf, 1, r->n, out);
		r->n = 0;
		if (pad + len > sizeof(r->buf)) { /* longer than a row: as it is */
			fprintf(out, "%*.*s", width, (int) len, s);
			return;
		}
	}
	if (width > 0) {
		memset(r->buf + r->n, ' ', pad);
		r->n += pad;
	}
	memcpy(r->buf + r->n, s, len);
	r->n += len;
	if (width < 0) {
		memset(r->buf + r->n, ' ', pad);
		r->n += pad;
	}
}

void row_str(struct row *r, int width, const char *s)
{
	put(r, s, strlen(s), width);
}

/* v's decimal digits, at least min of them (zeros in front), ending at end: where they
 * start. Two digits a step (outbuf's pairs). */
static char *digits(char *end, unsigned long long v, int min)
{
	char *stop = end - min;
	while (v >= 100) {
		end -= 2;
		memcpy(end, outbuf_digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, outbuf_digit_pairs + 2 * v, 2);
	} else {
		*--end = (char) ('0' + v);
	}
	while (end > stop)
		*--end = '0';
	return end;
}

void row_int(struct row *r, int width, long long v)
{
	char tmp[24], *end = tmp + sizeof(tmp), *p;
	p = digits(end, v < 0 ? 0ULL - (unsigned long long) v : (unsigned long long) v, 1);
	if (v < 0)
		*--p = '-';
	put(r, p, (size_t) (end - p), width);
}

void row_uint(struct row *r, int width, unsigned long long v)
{
	char tmp[24], *end = tmp + sizeof(tmp), *p = digits(end, v, 1);
	put(r, p, (size_t) (end - p), width);
}

void row_fixed(struct row *r, int width, double x, unsigned decimals)
{
	char tmp[FIXED_MAX];
	put(r, tmp, fixed_format(tmp, x, decimals), width);
}

void row_time(struct row *r, int width, long long ns)
{
	char tmp[48], *end = tmp + sizeof(tmp), *p;
	if (ns < 0) { /* as printf writes it, both parts negative */
		put(r, tmp,
		    (size_t) snprintf(tmp, sizeof(tmp), "%lld.%09lld", ns / 1000000000,
		                      ns % 1000000000),
		    width);
		return;
	}
	p = digits(end, (unsigned long long) ns % 1000000000, 9);
	*--p = '.';
	p = digits(p, (unsigned long long) ns / 1000000000, 1);
	put(r, p, (size_t) (end - p), width);
}

void row_lit(struct row *r, const char *s)
{
	put(r, s, strlen(s), 0);
}

void row_end(struct row *r)
{
	row_lit(r, "\n");
	fwrite(r->buf, 1, r->n, r->out ? r->out : stdout);
	r->n = 0;
}
