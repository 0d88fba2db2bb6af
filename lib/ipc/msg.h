/* SPDX-License-Identifier: MIT */
/* msg.h: one message over a SOCK_SEQPACKET socket, with an optional passed fd (proto.h). */
#ifndef IPC_MSG_H
#define IPC_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "proto.h"

/* Send len bytes as one message, passing fd when >= 0; flags as for sendmsg (MSG_DONTWAIT).
 * 0, or -1 with errno (EAGAIN: the peer's queue is full; EPIPE: gone). */
int ipc_send(int sock, const void *msg, size_t len, int fd, int flags);
/* Receive one message of at most cap bytes: its length, 0 at end of file, or -1 with errno
 * (EMSGSIZE: the message or its fds did not fit, and it is refused whole). *fd gets the fd
 * passed with it, or -1; further fds passed with it are closed. */
ssize_t ipc_recv(int sock, void *buf, size_t cap, int *fd, int flags);
/* buf[0, n) starts with a head of this protocol version whose length is n. */
bool ipc_head_ok(const void *buf, size_t n);

static inline struct proto_head ipc_head(uint32_t type, size_t len)
{
	return (struct proto_head){PROTO_MAGIC, PROTO_VERSION, type, (uint32_t) len};
}

#endif
