/* SPDX-License-Identifier: MIT */
/*
 * fuzz-daemon.c: the session daemon's message handling (lib/daemon/daemon.h), which reads
 * what every local user sends it: the programs' messages (lib/ipc/proto.h: HELLO, EVENTS,
 * BUFFER with its memfd, ...) and `spoor session`'s requests (lib/ipc/ctl.h), on up to eight
 * connections of four users at once. The input is a list of records:
 *
 *   u8 op, u8 len_lo, u8 len_hi, then len bytes: one message, as recvmsg gives it
 *   op & 7         the connection (a new one when that slot is free)
 *   (op >> 3) & 3  a new connection's user: 0 root, 1 uid 1000, 2 uid 1001, 3 uid 1000 in
 *                  group `tracing`
 *   op & 0x20      a memfd goes with the message: a thread's ring of the default geometry
 *                  (a header page, then 4 x 64 KiB), its first bytes those of the record
 *                  after a struct proto_buffer, which alone is the message
 *   op & 0x40      the connection is closed after this message (the peer hung up)
 *
 * Every session's files go to a private folder: a request's `output` value is moved under
 * it. The daemon runs as not root (no kernel events, no fsuid switch), with a fixed clock
 * (rec_clock_calibrate wrapped: no calibration sleep per input). What is checked, beyond
 * the sanitizers: a message never makes the daemon keep more connections than it allows,
 * and daemon_free releases everything (LeakSanitizer).
 */
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "daemon/dstate.h"
#include "ipc/ctl.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);
void __wrap_rec_clock_calibrate(struct rec_clock *c);

#define NCONN    8
#define RING (4096u + 4u * 65536u)

static char sandbox[64];

/* A fixed clock: the daemon's only use of it here is stamping traces. */
void __wrap_rec_clock_calibrate(struct rec_clock *c)
{
	memset(c, 0, sizeof(*c));
	c->kind = CLOCK_KIND_MONOTONIC;
	c->freq = 1000000000;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void) st, (void) flag;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

static void empty_sandbox(void)
{
	nftw(sandbox, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void drop_sandbox(void)
{
	empty_sandbox();
	rmdir(sandbox);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void) argc, (void) argv;
	snprintf(sandbox, sizeof(sandbox), "%s", "/tmp/spoor-fuzz-daemon-XXXXXX");
	if (!mkdtemp(sandbox)) {
		perror("mkdtemp");
		abort();
	}
	chmod(sandbox, 0777); /* the sessions of every user the input plays */
	atexit(drop_sandbox);
	return 0;
}

/* A control request whose `output` lines are moved under the sandbox (the head's length
 * kept right when it was), into out; its new length. Anything else is copied as it is. */
static size_t confine(const unsigned char *msg, size_t len, char *out, size_t cap)
{
	struct proto_head h;
	if (len < sizeof(h) || len > cap) {
		memcpy(out, msg, len < cap ? len : cap);
		return len < cap ? len : cap;
	}
	memcpy(&h, msg, sizeof(h));
	if (h.type != MSG_CTL_REQUEST) {
		memcpy(out, msg, len);
		return len;
	}
	size_t o = sizeof(h);
	memcpy(out, msg, o);
	for (size_t i = sizeof(h); i < len;) {
		const unsigned char *nl = memchr(msg + i, '\n', len - i);
		size_t n = nl ? (size_t) (nl - (msg + i)) + 1 : len - i;
		if (n > 7 && !memcmp(msg + i, "output ", 7)) {
			/* one of four folders, by the value's last letter */
			int w = snprintf(out + o, cap - o, "output %s/%c\n", sandbox,
			                 'a' + msg[i + n - (msg[i + n - 1] == '\n' ? 2 : 1)] % 4);
			if (w < 0 || (size_t) w >= cap - o)
				break;
			o += (size_t) w;
		} else if (o + n <= cap) {
			memcpy(out + o, msg + i, n);
			o += n;
		}
		i += n;
	}
	if (h.length == len) {
		h.length = (uint32_t) o;
		memcpy(out, &h, sizeof(h));
	}
	return o;
}

static int ring_fd(const unsigned char *top, size_t n)
{
	int fd = memfd_create("fuzz-ring", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	/* sealed as lib/ust's rings: the daemon refuses the others */
	if (ftruncate(fd, RING) || (n && pwrite(fd, top, n, 0) != (ssize_t) n) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW)) {
		close(fd);
		return -1;
	}
	return fd;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char msg[PROTO_MAX_MSG + 4096];
	static const struct daemon_creds users[4] = {
	    {100, 0, 0, true}, {101, 1000, 1000, false}, {102, 1001, 1001, false},
	    {103, 1000, 1000, true}};
	struct dconn *conn[NCONN] = {0};
	struct daemon *d = daemon_new();
	if (!d)
		return 0;
	d->is_root = false; /* no kernel tracing, no setfsuid */

	for (size_t at = 0; at + 3 <= size;) {
		unsigned op = data[at];
		size_t len = data[at + 1] | (size_t) data[at + 2] << 8;
		at += 3;
		if (len > size - at)
			len = size - at;
		const unsigned char *m = data + at;
		at += len;
		struct dconn **c = &conn[op & 7];
		if (!*c && !(*c = daemon_conn_add(d, -1, &users[(op >> 3) & 3])))
			continue;
		int fd = -1;
		if (op & 0x20) {
			size_t head = len < sizeof(struct proto_buffer) ? len : sizeof(struct proto_buffer);
			size_t ring = len - head < RING ? len - head : RING;
			fd = ring_fd(m + head, ring);
			len = head;
		}
		size_t n = confine(m, len, msg, sizeof(msg));
		if (daemon_conn_message(d, *c, msg, n, fd) || (op & 0x40)) {
			daemon_conn_gone(d, *c);
			*c = NULL;
		}
		if (d->nconns > DAEMON_MAX_CONNS)
			abort();
	}
	daemon_free(d);
	empty_sandbox();
	return 0;
}
