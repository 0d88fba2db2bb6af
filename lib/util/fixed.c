/* SPDX-License-Identifier: MIT */
/* fixed.c: "%.*f" without printf (see fixed.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fixed.h"
#include "outbuf.h"

size_t fixed_format(char *buf, double x, unsigned decimals)
{
	double a = fabs(x);
	if (!(a < 0x1p53) || decimals > 9) /* NaN, infinities, large: printf's way */
		return (size_t) snprintf(buf, FIXED_MAX, "%.*f", (int) decimals, x);
	/* a = m * 2^e exactly, m < 2^53; the scaled value m * 10^d * 2^e rounded to an
	 * integer, ties to even, in 128 bits (m * 10^9 < 2^83) */
	int e;
	double frac = frexp(a, &e); /* a = frac * 2^e, frac in [0.5, 1) */
	uint64_t m = (uint64_t) ldexp(frac, 53);
	e -= 53;
	unsigned __int128 p = (unsigned __int128) m * outbuf_pow10[decimals], q;
	if (e >= 0) {
		q = p << e; /* a < 2^53: an integer, e small */
	} else if (-e >= 100) {
		q = 0; /* below 2^83 / 2^100: rounds to 0 */
	} else {
		unsigned s = (unsigned) -e;
		unsigned __int128 half = (unsigned __int128) 1 << (s - 1),
		                  r = p & ((half << 1) - 1);
		q = p >> s;
		if (r > half || (r == half && (q & 1)))
			q++;
	}
	/* q < 2^53 * 10^9 < 2^83: the integer part fits 64 bits */
	uint64_t whole = (uint64_t) (q / outbuf_pow10[decimals]);
	uint64_t part = (uint64_t) (q % outbuf_pow10[decimals]);
	size_t n = 0;
	if (signbit(x))
		buf[n++] = '-';
	n += outbuf_fmt_u64(buf + n, whole);
	if (decimals) {
		buf[n++] = '.';
		outbuf_fmt_u64_pad(buf + n, part, (int) decimals);
		n += decimals;
	}
	buf[n] = '\0';
	return n;
}

size_t fixed_shortest(char *buf, double x)
{
	int n = 0;
	for (int prec = 15; prec <= 17; prec++)
		if ((n = snprintf(buf, SHORTEST_MAX, "%.*g", prec, x)) && strtod(buf, NULL) == x)
			break;
	return (size_t) n;
}
