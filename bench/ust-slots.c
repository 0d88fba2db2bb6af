/* SPDX-License-Identifier: MIT */
/*
 * ust-slots.c: `ust-slots NSLOTS -- CMD [ARG...]`: runs CMD as a program registered with a
 * session daemon that gives it NSLOTS sessions (0 to 4: discard mode, 8 sub-buffers of
 * 8 MiB per thread, every event), for bench/ust-slots.sh to measure the emit cost per
 * session. It serves the app protocol (lib/ipc/proto.h) on a private socket passed as
 * SPOOR_USER_SOCKET, keeps the rings it is handed and, when CMD has ended, prints per
 * slot the bytes committed and the events discarded over every ring:
 *   slot S rings R bytes B discarded D
 * Nothing is drained: the rings must be large enough for the run (a full ring counts
 * drops, which the output shows).
 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ipc/msg.h"
#include "rb/rb-abi.h"

#define MAX_SLOTS 4
#define MAX_RINGS 256
#define NSUB      8u
#define SUBBUF    (8u << 20)

struct ring {
	uint32_t slot;
	struct rb_header *h;
	uint64_t size;
};

static struct ring rings[MAX_RINGS];
static int nrings;

static void greet(int fd, int efd, uint32_t nslots)
{
	struct proto_hello_reply r = {ipc_head(MSG_HELLO_REPLY, sizeof(r)), CLOCK_KIND_TSC, nslots};
	struct proto_session m;

	ipc_send(fd, &r, sizeof(r), efd, 0);
	for (uint32_t s = 0; s < nslots; s++) {
		memset(&m, 0, sizeof(m));
		m.h = ipc_head(MSG_SESSION, sizeof(m));
		m.slot = s;
		m.active = 1;
		m.mode = RB_DISCARD;
		m.num_subbufs = NSUB;
		m.subbuf_size = SUBBUF;
		m.uuid[0] = (uint8_t) s;
		ipc_send(fd, &m, sizeof(m), -1, 0);
	}
}

/* A message of a program: HELLO answered, BUFFER kept; false when none is waiting. */
static bool take(int fd, int efd, uint32_t nslots)
{
	static char buf[PROTO_MAX_MSG];
	int passed;
	ssize_t n = ipc_recv(fd, buf, sizeof(buf), &passed, MSG_DONTWAIT);
	const struct proto_head *h = (const struct proto_head *) buf;

	if (n <= 0)
		return false;
	if (ipc_head_ok(buf, (size_t) n) && h->type == MSG_HELLO)
		greet(fd, efd, nslots);
	if (ipc_head_ok(buf, (size_t) n) && h->type == MSG_BUFFER && passed >= 0 &&
	    nrings < MAX_RINGS) {
		const struct proto_buffer *b = (const struct proto_buffer *) buf;
		void *m = mmap(NULL, b->size, PROT_READ, MAP_SHARED, passed, 0);
		if (m != MAP_FAILED)
			rings[nrings++] = (struct ring){b->slot, m, b->size};
	}
	if (passed >= 0)
		close(passed);
	return true;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/ust-slots-XXXXXX", path[64];
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	if (argc < 4 || strcmp(argv[2], "--") || atoi(argv[1]) < 0 || atoi(argv[1]) > MAX_SLOTS) {
		fprintf(stderr, "usage: ust-slots NSLOTS(0-%d) -- CMD [ARG...]\n", MAX_SLOTS);
		return 2;
	}
	uint32_t nslots = (uint32_t) atoi(argv[1]);
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/user.sock", dir);
	strcpy(sa.sun_path, path);
	int lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (lfd < 0 || bind(lfd, (struct sockaddr *) &sa, sizeof(sa)) || listen(lfd, 16)) {
		perror(path);
		return 1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		unsetenv("SPOOR_SESSION");
		setenv("SPOOR_USER_SOCKET", path, 1);
		setenv("SPOOR_SYSTEM_SOCKET", path, 1);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	int apps[64], napps = 0, status = 0;
	for (;;) {
		struct pollfd p[65] = {{lfd, POLLIN, 0}};
		for (int i = 0; i < napps; i++)
			p[i + 1] = (struct pollfd){apps[i], POLLIN, 0};
		poll(p, (nfds_t) napps + 1, 20);
		int fd;
		while (napps < 64 && (fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC)) >= 0)
			apps[napps++] = fd;
		for (int i = 0; i < napps; i++)
			while (p[i + 1].revents && take(apps[i], efd, nslots))
				;
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
	}
	for (int i = 0; i < napps; i++)
		while (take(apps[i], efd, nslots))
			;
	for (uint32_t s = 0; s < nslots; s++) {
		uint64_t bytes = 0, discarded = 0;
		int n = 0;
		for (int i = 0; i < nrings; i++) {
			const struct rb_header *h = rings[i].h;
			if (rings[i].slot != s)
				continue;
			n++;
			discarded += h->discarded;
			uint64_t produced = h->produced;
			for (uint64_t k = 0; k < produced && k < h->num_subbufs; k++)
				bytes += h->sb[k].content_size;
			if (h->open_valid)
				bytes += h->write_pos;
		}
		printf("slot %u rings %d bytes %llu discarded %llu\n", s, n,
		       (unsigned long long) bytes, (unsigned long long) discarded);
	}
	unlink(path);
	rmdir(dir);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
