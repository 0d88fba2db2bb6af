/* SPDX-License-Identifier: MIT */
/* msg.c: one message over a SOCK_SEQPACKET socket, with an optional passed fd. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "msg.h"

int ipc_send(int sock, const void *msg, size_t len, int fd, int flags)
{
	struct iovec iov = {(void *) msg, len};
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
	ssize_t n;

	if (fd >= 0) {
		memset(&ctl, 0, sizeof(ctl));
		mh.msg_control = ctl.buf;
		mh.msg_controllen = sizeof(ctl.buf);
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL | flags);
	while (n < 0 && errno == EINTR);
	if (n >= 0 && (size_t) n != len)
		errno = EMSGSIZE;
	return n == (ssize_t) len ? 0 : -1;
}

ssize_t ipc_recv(int sock, void *buf, size_t cap, int *fd, int flags)
{
	union {
		char b[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = {buf, cap};
	struct msghdr mh = {.msg_iov = &iov,
	                    .msg_iovlen = 1,
	                    .msg_control = ctl.b,
	                    .msg_controllen = sizeof(ctl.b)};
	ssize_t n;

	*fd = -1;
	do
		n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC | flags);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t nfds = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < nfds; i++) {
			int one;
			memcpy(&one, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (*fd < 0)
				*fd = one;
			else
				close(one);
		}
	}
	if (mh.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		errno = EMSGSIZE;
		return -1;
	}
	return n;
}

bool ipc_head_ok(const void *buf, size_t n)
{
	struct proto_head h;

	if (n < sizeof(h))
		return false;
	memcpy(&h, buf, sizeof(h));
	return h.magic == PROTO_MAGIC && h.version == PROTO_VERSION && h.length == n;
}
