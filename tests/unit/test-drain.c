/* SPDX-License-Identifier: MIT */
/* test-drain.c: the consumer's side of a ring buffer, on rings laid out by hand. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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
	int fd = memfd_create("test-ring", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	char path[256];

	if (!CHECK(fd >= 0 && ftruncate(fd, (off_t) size) == 0 &&
	           fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW) == 0))
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
	unlink(path); /* the next drain writes a stream of its own there */
	munmap(h, size);
	close(fd);
	return t;
}

/* A program's ring that is sparse (a 64 MiB memfd of which it wrote the header only) costs
 * the reader nothing: it maps only the pages the program allocated. And a ring not sealed
 * against shrinking is refused: its program could shrink it under the reader (SIGBUS). */
static void sparse_and_unsealed_rings(const char *dir)
{
	enum { BIG_SUB = 8 << 20, BIG_N = 8 };
	uint64_t hdr = rb_header_bytes(BIG_N), size = hdr + (uint64_t) BIG_N * BIG_SUB;
	struct rb_header h = {.magic = RB_MAGIC,
	                      .abi_version = RB_ABI_VERSION,
	                      .mode = RB_DISCARD,
	                      .subbuf_size = BIG_SUB,
	                      .num_subbufs = BIG_N,
	                      .data_offset = hdr};
	struct rec_buffer_geometry g = {BIG_SUB, BIG_N, false, false};
	struct rec_buffer *b;
	struct record_totals t = {0};
	struct stat st;
	char path[256], err[128];

	snprintf(path, sizeof(path), "%s/sparse", dir);
	for (int sealed = 0; sealed < 2; sealed++) {
		CHECK_CTX("a sparse 64 MiB ring, %s", sealed ? "sealed" : "not sealed");
		int fd = memfd_create("test-sparse", MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (!CHECK(fd >= 0 && ftruncate(fd, (off_t) size) == 0 &&
		           pwrite(fd, &h, sizeof(h), 0) == (ssize_t) sizeof(h)))
			return;
		if (sealed)
			CHECK(fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) == 0);
		int rc = rec_buffer_open(&b, fd, &g, path, err, sizeof(err));
		if (!sealed) {
			CHECK(rc == -EINVAL);
			CHECK(strstr(err, "not a memfd sealed against shrinking") != NULL);
		} else if (CHECK(rc == 0)) {
			CHECK(fstat(fd, &st) == 0);
			CHECK_CTX("allocated: %lld bytes", (long long) st.st_blocks * 512);
			CHECK(st.st_blocks * 512 <= 64 << 10);
			rec_buffer_drain(b, true, &t);
			rec_buffer_close(b, &t);
		}
		close(fd);
	}
	unlink(path);
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
	sparse_and_unsealed_rings(dir);
	rmdir(dir);
	return check_done();
}
