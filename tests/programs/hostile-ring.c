/* SPDX-License-Identifier: MIT */
/*
 * hostile-ring.c: a program that speaks the app protocol (lib/ipc/proto.h) by hand to the
 * session of SPOOR_SESSION (spoor record) and hands over a ring it then shrinks to nothing,
 * before ringing the doorbell: a reader that maps it would die of SIGBUS at its next read.
 *
 *   hostile-ring OUTDIR ERRFILE [sealed]
 *
 * It shrinks the ring once the session has taken it: once its stream file is in OUTDIR
 * (`spoor record -o OUTDIR`) or the session refused it (ERRFILE, spoor record's stderr,
 * names this process). `sealed`: the ring is sealed as lib/ust makes it (and so cannot be
 * shrunk): the control. Prints `tid T shrunk S` (S: 1 if the ring could be shrunk).
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "ipc/msg.h"
#include "ipc/proto.h"
#include "rb/rb-abi.h"

/* ERRFILE names this process */
static bool named_in(const char *errfile, const char *who)
{
	char buf[8192];
	FILE *f = fopen(errfile, "r");
	bool found = false;

	while (f && !found && fgets(buf, sizeof(buf), f))
		found = strstr(buf, who) != NULL;
	if (f)
		fclose(f);
	return found;
}

static int die(const char *what)
{
	perror(what);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return die("usage: hostile-ring OUTDIR ERRFILE [sealed]");
	bool sealed = argc > 3 && !strcmp(argv[3], "sealed");
	const char *path = getenv("SPOOR_SESSION");
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	/* static: a leak report under LeakSanitizer would fail the test's program */
	static union {
		struct proto_hello_reply r;
		struct proto_session s;
		char raw[PROTO_MAX_MSG];
	} inbuf;
	__typeof__(inbuf) *in = &inbuf;
	int efd = -1, sock = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	if (!path || strlen(path) >= sizeof(sa.sun_path))
		return die("SPOOR_SESSION");
	strcpy(sa.sun_path, path);
	if (sock < 0 || connect(sock, (struct sockaddr *) &sa, sizeof(sa)))
		return die("connect");
	struct proto_hello hello = {ipc_head(MSG_HELLO, sizeof(hello)), getpid(), getppid(),
	                            getuid(), "hostile-ring"};
	if (ipc_send(sock, &hello, sizeof(hello), -1, 0) ||
	    ipc_recv(sock, in, sizeof(*in), &efd, 0) != sizeof(in->r) ||
	    in->r.h.type != MSG_HELLO_REPLY || efd < 0)
		return die("hello");
	int none;
	if (ipc_recv(sock, in, sizeof(*in), &none, 0) != sizeof(in->s) ||
	    in->s.h.type != MSG_SESSION)
		return die("session");
	struct proto_session s = in->s;
	static const char events[] = "";
	struct proto_head eh = ipc_head(MSG_EVENTS, sizeof(eh) + sizeof(events) - 1);
	if (ipc_send(sock, &eh, sizeof(eh), -1, 0))
		return die("events");

	/* a ring with a header the session accepts */
	uint64_t hdr = rb_header_bytes(s.num_subbufs), size = hdr + s.num_subbufs * s.subbuf_size;
	int fd = memfd_create("hostile-ring", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || ftruncate(fd, (off_t) size))
		return die("memfd");
	if (sealed && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL))
		return die("seals");
	struct rb_header h = {.magic = RB_MAGIC,
	                      .header_size =
	                          (uint32_t) (sizeof(h) + s.num_subbufs * sizeof(h.sb[0])),
	                      .abi_version = RB_ABI_VERSION,
	                      .mode = s.mode,
	                      .subbuf_size = s.subbuf_size,
	                      .num_subbufs = s.num_subbufs,
	                      .tid = (uint32_t) gettid(),
	                      .data_offset = hdr};
	if (pwrite(fd, &h, sizeof(h), 0) != (ssize_t) sizeof(h))
		return die("header");
	struct proto_buffer b = {ipc_head(MSG_BUFFER, sizeof(b)), gettid(), s.slot, size};
	if (ipc_send(sock, &b, sizeof(b), fd, 0))
		return die("buffer");
	char stream[4200], who[64];
	snprintf(stream, sizeof(stream), "%s/ust/pid/hostile-ring-%d/stream_%d", argv[1],
	         (int) getpid(), (int) gettid());
	snprintf(who, sizeof(who), "hostile-ring (pid %d)", (int) getpid());
	while (access(stream, F_OK) && !named_in(argv[2], who))
		usleep(1000);
	int shrunk = ftruncate(fd, 0) == 0;
	uint64_t one = 1;
	if (write(efd, &one, sizeof(one)) != sizeof(one))
		return die("doorbell");
	printf("tid %d shrunk %d\n", (int) gettid(), shrunk);
	return 0;
}
