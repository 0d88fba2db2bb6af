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

void row_int(struct row *r, int width, long long v)
{
	char tmp[24];
	put(r, tmp, outbuf_fmt_s64(tmp, v), width);
}

void row_uint(struct row *r, int width, unsigned long long v)
{
	char tmp[24];
	put(r, tmp, outbuf_fmt_u64(tmp, v), width);
}

void row_fixed(struct row *r, int width, double x, unsigned decimals)
{
	char tmp[FIXED_MAX];
	put(r, tmp, fixed_format(tmp, x, decimals), width);
}

void row_time(struct row *r, int width, long long ns)
{
	char tmp[OUTBUF_TIME_MAX];
	put(r, tmp, outbuf_fmt_time(tmp, ns), width);
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
