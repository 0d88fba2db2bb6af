/* SPDX-License-Identifier: MIT */
/* test-drain.c: the consumer's side of a ring buffer, on rings laid out by hand. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "rb/rb-abi.h"
#include "record/drain.h"

enum { NSUB = 4, SUBBUF = 4096 };

/* A flight recorder that closed packets 0-9 (each of 10 events) and writes packet 10; the
 * slot of packet 7, the oldest it keeps, holds `slot7_seq` (8 when untouched). */
static struct record_totals drain_ring(uint64_t slot7_seq, const char *dir)
{
	struct record_totals t = {0};
	uint64_t hdr = rb_header_bytes(NSUB), size = hdr + (uint64_t) NSUB * SUBBUF;
	int fd = memfd_create("test-ring", MFD_CLOEXEC);
	char path[256];

	if (!CHECK(fd >= 0 && ftruncate(fd, (off_t) size) == 0))
		return t;
	struct rb_header *h = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (!CHECK(h != MAP_FAILED))
		return t;
	*h = (struct rb_header){.magic = RB_MAGIC,
	                        .abi_version = RB_ABI_VERSION,
	                        .mode = RB_OVERWRITE,
	                        .subbuf_size = SUBBUF,
	                        .num_subbufs = NSUB,
	                        .data_offset = hdr};
	for (uint64_t n = 7; n <= 10; n++) {
		struct rb_packet_start ps = {.magic = RB_PACKET_MAGIC, .packet_seq_num = n};
		memcpy((char *) h + hdr + (n % NSUB) * SUBBUF, &ps, sizeof(ps));
		h->sb[n % NSUB] =
		    (struct rb_subbuf_state){n + 1, sizeof(ps) + 40, 10 * n, 10 * n + 10};
	}
	h->sb[7 % NSUB].seq = slot7_seq;
	h->sb[10 % NSUB].seq = 0;
	h->produced = 10;
	h->open_seq = 10;
	h->open_valid = 1;
	h->write_pos = sizeof(struct rb_packet_start) + 8;
	snprintf(path, sizeof(path), "%s/stream", dir);
	struct rec_buffer *b;
	char err[128];
	struct rec_buffer_geometry g = {SUBBUF, NSUB, true, false};
	if (CHECK(rec_buffer_open(&b, fd, &g, path, err, sizeof(err)) == 0)) {
		rec_buffer_drain(b, true, &t);
		rec_buffer_close(b, &t);
	}
	munmap(h, size);
	close(fd);
	return t;
}

int main(void)
{
	char dir[] = "/tmp/test-drain-XXXXXX";

	if (!CHECK(mkdtemp(dir)))
		return check_done();
	/* The program still runs at the final drain (--duration, Ctrl-C): the producer is
	 * reusing the slot (seq 0), or has closed packet 11 there. Packets 8, 9 and the one in
	 * progress are written after an empty leading packet; 7's events are overwritten. */
	uint64_t reused[] = {0, 12};
	for (size_t i = 0; i < 2; i++) {
		CHECK_CTX("slot of packet 7 says %llu", (unsigned long long) reused[i]);
		struct record_totals t = drain_ring(reused[i], dir);
		CHECK_EQ_U64(t.damaged, 0);
		CHECK_EQ_U64(t.packets, 4);
		CHECK_EQ_U64(t.overwritten, 80);
		CHECK_EQ_U64(t.discarded, 0);
	}
	/* A slot that holds an older packet than the counters say is damage, and is said. */
	CHECK_CTX("slot of packet 7 says 6");
	struct record_totals t = drain_ring(6, dir);
	CHECK_EQ_U64(t.damaged, 1);
	CHECK_EQ_U64(t.packets, 4);
	CHECK_EQ_U64(t.overwritten, 80);
	char path[300];
	snprintf(path, sizeof(path), "%s/stream", dir);
	unlink(path);
	rmdir(dir);
	return check_done();
}
