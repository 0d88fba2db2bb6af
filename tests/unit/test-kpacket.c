/* SPDX-License-Identifier: MIT */
/*
 * test-kpacket.c: where a kernel stream's packets begin (lib/kernel/kpacket.h). Each
 * follows the one before, but never begins where the one before began: babeltrace2 merges
 * a stream's packets from a trace's chunks by their beginnings alone, each put before those
 * that begin with it, so a packet of one time (a state dump) and the packet after it were
 * swapped, time going back; packets of one beginning, reversed: a state dump is one packet
 * whatever its size. Packets are read back from the file's headers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "kernel/kpacket.h"

static char path[256];

struct bounds {
	uint64_t begin, end;
};

/* The packets' beginnings and ends, in file order; how many. */
static size_t read_packets(struct bounds *out, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n = 0;
	uint8_t h[KPACKET_HEADER];
	uint64_t bits;
	while (f && n < cap && fread(h, 1, sizeof(h), f) == sizeof(h)) {
		memcpy(&out[n].begin, h + 32, 8);
		memcpy(&out[n].end, h + 40, 8);
		memcpy(&bits, h + 48, 8);
		n++;
		if (fseek(f, (long) (bits / 8) - KPACKET_HEADER, SEEK_CUR))
			break;
	}
	if (f)
		fclose(f);
	return n;
}

/* A stream of its own (uuid's first byte: id), a step of 3 ticks. */
static bool open_stream(struct kpacket *p, uint8_t id)
{
	const uint8_t uuid[16] = {id};
	if (!CHECK(kpacket_open(p, path, uuid, id, 0, 4096) == 0))
		return false;
	p->step = 3;
	return true;
}

static void event_at(struct kpacket *p, uint64_t ts)
{
	uint8_t *body = kpacket_begin_event(p, 1, ts, 4);
	if (CHECK(body != NULL)) {
		memset(body, 0, 4);
		kpacket_end_event(p, 4);
	}
}

/* A state dump (events of one time), then its stream extended to the session's end:
 * the empty packet begins a step after the dump's, not with it. */
static void dump_then_extend(void)
{
	struct kpacket p;
	CHECK_CTX("a dump of one time, extended");
	if (!open_stream(&p, 1))
		return;
	kpacket_begin_at(&p, 1000);
	for (int i = 0; i < 3; i++)
		event_at(&p, 1000);
	kpacket_flush(&p);
	kpacket_extend(&p, 5000);
	CHECK(kpacket_close(&p) == 0);
	struct bounds b[4];
	if (!CHECK_EQ_U64(read_packets(b, 4), 2))
		return;
	CHECK_EQ_U64(b[0].begin, 1000);
	CHECK_EQ_U64(b[0].end, 1000);
	CHECK_EQ_U64(b[1].begin, 1003);
	CHECK_EQ_U64(b[1].end, 5000);
}

/* A second dump after a pause: its packet begins a step after the first one's (its events
 * are later), and a packet of events after the one before (of several times) begins
 * where that one ended, as always. */
static void dump_then_events(void)
{
	struct kpacket p;
	CHECK_CTX("a dump of one time, then events");
	if (!open_stream(&p, 2))
		return;
	event_at(&p, 2000);
	kpacket_flush(&p);
	event_at(&p, 2001); /* closer than a step: begins at its event */
	event_at(&p, 2500);
	kpacket_flush(&p);
	event_at(&p, 2600);
	kpacket_flush(&p);
	CHECK(kpacket_close(&p) == 0);
	struct bounds b[4];
	if (!CHECK_EQ_U64(read_packets(b, 4), 3))
		return;
	CHECK_EQ_U64(b[0].begin, 2000);
	CHECK_EQ_U64(b[1].begin, 2001);
	CHECK_EQ_U64(b[1].end, 2500);
	CHECK_EQ_U64(b[2].begin, 2500);
	CHECK_EQ_U64(b[2].end, 2600);
}

/* A rotation's next chunk: the stream's packet before is in the previous file (prev_begin
 * and seq carried over, kpacket_begin_at its end). */
static void next_chunk(void)
{
	struct kpacket p;
	CHECK_CTX("the next chunk of a stream whose last packet is of one time");
	if (!open_stream(&p, 3))
		return;
	p.seq = 7;
	p.prev_begin = 4000;
	kpacket_begin_at(&p, 4000);
	event_at(&p, 4100);
	CHECK(kpacket_close(&p) == 0);
	struct bounds b[2];
	if (CHECK_EQ_U64(read_packets(b, 2), 1))
		CHECK_EQ_U64(b[0].begin, 4003);
}

/* A dump larger than a packet's buffer: one packet when the stream grows, several without
 * (their order reversed by babeltrace2's merge of chunks). */
static void big_dump(bool grow)
{
	struct kpacket p;
	CHECK_CTX("a dump of 3 buffers' size, %s", grow ? "growing" : "not growing");
	if (!open_stream(&p, 4))
		return;
	p.grow = grow;
	for (int i = 0; i < 3 * 4096 / 8; i++)
		event_at(&p, 6000);
	kpacket_flush(&p);
	kpacket_extend(&p, 7000);
	CHECK(kpacket_close(&p) == 0);
	struct bounds b[16];
	size_t n = read_packets(b, 16);
	if (grow) {
		CHECK_EQ_U64(n, 2);
		CHECK_EQ_U64(b[0].begin, 6000);
		CHECK_EQ_U64(b[1].begin, 6003);
	} else {
		CHECK(n > 3);
	}
}

int main(void)
{
	snprintf(path, sizeof(path), "/tmp/test-kpacket-%d", (int) getpid());
	dump_then_extend();
	dump_then_events();
	next_chunk();
	big_dump(true);
	big_dump(false);
	unlink(path);
	return check_done();
}
