/* SPDX-License-Identifier: MIT */
/* lossadvice.c: the buffer that would have kept lost events (see lossadvice.h). */
#include <stdio.h>

#include "lossadvice.h"

uint64_t loss_buffer(const struct loss_seen *l)
{
	double lost_bytes = l->bytes_per_event > 0 ? l->bytes_per_event * (double) l->lost
	                                           : l->bytes_per_s * (double) l->window_ns / 1e9;
	if (!l->lost || !(lost_bytes > 0))
		return 0;
	double need = (double) l->ring + lost_bytes;
	uint64_t b = 4096;
	while (b < need && b < ((uint64_t) 1 << 62))
		b <<= 1;
	return b;
}

/* As -b takes it: 32m, 256k, 2g. */
static void size_text(char *buf, size_t n, uint64_t bytes)
{
	if (bytes >= (1u << 30) && !(bytes & ((1u << 30) - 1)))
		snprintf(buf, n, "%llug", (unsigned long long) (bytes >> 30));
	else if (bytes >= (1u << 20) && !(bytes & ((1u << 20) - 1)))
		snprintf(buf, n, "%llum", (unsigned long long) (bytes >> 20));
	else
		snprintf(buf, n, "%lluk", (unsigned long long) (bytes >> 10));
}

void loss_advice_text(char *buf, size_t n, const struct loss_seen *l)
{
	uint64_t b = loss_buffer(l);
	char size[32], basis[64];

	if (!n)
		return;
	buf[0] = '\0';
	if (!b)
		return;
	size_text(size, sizeof(size), b);
	if (l->bytes_per_event > 0)
		snprintf(basis, sizeof(basis), "the %.1f bytes per event seen", l->bytes_per_event);
	else
		snprintf(basis, sizeof(basis), "the %.3g MB/s this stream wrote",
		         l->bytes_per_s / 1e6);
	const char *per = l->per ? l->per : "stream";
	if (l->ring && l->option)
		snprintf(buf, n,
		         "a buffer of %s per %s (spoor record %s %s) would have kept them, at %s",
		         size, per, l->option, size, basis);
	else if (l->option)
		snprintf(buf, n,
		         "about %s more buffer per %s than now (spoor record %s) would have kept "
		         "them, at %s",
		         size, per, l->option, basis);
	else
		snprintf(buf, n, "about %s more buffer per %s would have kept them, at %s", size,
		         per, basis);
}
