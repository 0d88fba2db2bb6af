/* SPDX-License-Identifier: MIT */
/*
 * ctl.h: the control protocol: `spoor session VERB` (and `spoor watch --session`) asks the
 * session daemon, on the socket the traced programs use (proto.h), one request a connection.
 *
 *   client → daemon  MSG_CTL_REQUEST   head, then text lines "KEY VALUE\n", the first
 *                                      "verb VERB"; a key may repeat (e.g. "u PATTERN")
 *   daemon → client  MSG_CTL_REPLY     head, int32 status (the exit status the client
 *                                      returns), uint32 outlen, stdout text (outlen
 *                                      bytes), then stderr text
 *
 * The daemon reads requests as untrusted input: a line without a space, a NUL byte, more
 * than CTL_MAX_LINES lines or a message over CTL_MAX_REQUEST bytes is refused. Keys and
 * verbs: docs/sessions.md ("The control protocol"). The watch verb keeps the connection:
 * see lib/daemon/watch.c.
 */
#ifndef IPC_CTL_H
#define IPC_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

#define CTL_MAX_REQUEST (64u << 10)
#define CTL_MAX_LINES   256
#define CTL_MAX_REPLY   (64u << 10) /* fits a socket buffer: sent without blocking */
/* --rotate-every: the least the client asks and the daemon takes (a shorter timer spins) */
#define CTL_ROTATE_MIN_NS    10000000ull
#define CTL_ROTATE_MIN_BYTES 4096ull

struct ctl_reply_head {
	struct proto_head h;
	int32_t status;
	uint32_t outlen;
};

/* A request being built, in a fixed buffer. */
struct ctl_request {
	char buf[CTL_MAX_REQUEST];
	size_t len;
	bool too_long; /* an add did not fit (or had a newline): ctl_request_end fails */
};

void ctl_request_begin(struct ctl_request *r, const char *verb);
/* One line; a value with a newline, or one that does not fit, spoils the request. */
void ctl_request_add(struct ctl_request *r, const char *key, const char *value);
void ctl_request_add_u64(struct ctl_request *r, const char *key, uint64_t value);
/* Sets the head's length; -1 if the request spoiled. */
int ctl_request_end(struct ctl_request *r);

/* A request taken apart: NUL-terminated keys and values in the parser's own copy. */
struct ctl_parsed {
	char text[CTL_MAX_REQUEST];
	const char *verb;
	struct {
		const char *key, *value;
	} kv[CTL_MAX_LINES];
	size_t n; /* kv[0] is the verb line */
};

/* Parse the message msg[0..len) (head included). 0, or -1 with the reason in err. */
int ctl_parse(struct ctl_parsed *p, const void *msg, size_t len, char *err, size_t errlen);
/* The value of key (the first one), or NULL. */
const char *ctl_get(const struct ctl_parsed *p, const char *key);

/* Build a reply into buf (cap >= sizeof(struct ctl_reply_head)); texts that do not fit are
 * cut, with a note at the end of the one cut. Returns its length. */
size_t ctl_reply_build(void *buf, size_t cap, int status, const char *out, size_t outlen,
                       const char *err, size_t errlen);
/* Take a reply apart (untrusted too). 0, or -1 when malformed. */
int ctl_reply_parse(const void *msg, size_t len, int *status, const char **out, size_t *outlen,
                    const char **err, size_t *errlen);

/* Client side: connect to the daemon at path (-errno; a missing socket or one nobody
 * listens on is -ENOENT / -ECONNREFUSED), send r, and wait for the reply into buf (the
 * return is its length, or -errno). ctl_call does both and closes. */
int ctl_connect(const char *path);
int ctl_send(int fd, const struct ctl_request *r);
long ctl_receive(int fd, void *buf, size_t cap);
long ctl_call(const char *path, const struct ctl_request *r, void *buf, size_t cap);

#endif
