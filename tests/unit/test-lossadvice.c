/* SPDX-License-Identifier: MIT */
/* test-lossadvice.c: the buffer that would have kept lost events, and its sentence. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "util/lossadvice.h"

int main(void)
{
	char text[200];

	CHECK_CTX("recorder: the ring plus the lost events at the bytes per event seen");
	/* 4 MiB kept, 300,000 lost events of 31.3 bytes: 13.4 MB, so 16 MiB */
	struct loss_seen l = {.ring = 4 << 20,
	                      .option = "-b",
	                      .per = "thread",
	                      .lost = 300000,
	                      .bytes_per_event = 31.3};
	CHECK_EQ_U64(loss_buffer(&l), 16 << 20);
	loss_advice_text(text, sizeof(text), &l);
	CHECK_STR(text, "a buffer of 16m per thread (spoor record -b 16m) would have kept them, at "
	                "the 31.3 bytes per event seen");
	/* exactly a power of two: not rounded further */
	l = (struct loss_seen){.ring = 4096, .option = "-b", .lost = 512, .bytes_per_event = 8};
	CHECK_EQ_U64(loss_buffer(&l), 8192);

	CHECK_CTX("reader: room to add, from the bytes per second over the losses' time");
	l = (struct loss_seen){.lost = 10, .bytes_per_s = 2e6, .window_ns = 1000000000};
	CHECK_EQ_U64(loss_buffer(&l), 2 << 20);
	loss_advice_text(text, sizeof(text), &l);
	CHECK_STR(text, "about 2m more buffer per stream would have kept them, at the 2 MB/s this "
	                "stream wrote");

	CHECK_CTX("nothing to go by");
	l = (struct loss_seen){.lost = 10};
	CHECK_EQ_U64(loss_buffer(&l), 0);
	loss_advice_text(text, sizeof(text), &l);
	CHECK_STR(text, "");
	l = (struct loss_seen){.ring = 4096, .lost = 0, .bytes_per_event = 20};
	CHECK_EQ_U64(loss_buffer(&l), 0);
	/* a huge loss stops at 2^62 rather than looping or overflowing */
	l = (struct loss_seen){.lost = UINT64_MAX, .bytes_per_event = 1e6};
	CHECK_EQ_U64(loss_buffer(&l), (uint64_t) 1 << 62);
	return check_done();
}
