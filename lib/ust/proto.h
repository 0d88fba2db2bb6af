/* SPDX-License-Identifier: MIT */
/*
 * proto.h: how a traced program talks to its session, over a SOCK_SEQPACKET unix socket
 * named by the SPOOR_SESSION environment variable (inherited by children, so fork and exec
 * are traced too). `spoor record` serves it today; a session daemon will serve the same
 * protocol on a well-known socket, so programs already running can be attached later.
 *
 *   program → session  HELLO            who it is
 *   session → program  HELLO_REPLY      clock, buffer geometry, mode, which events to enable,
 *                                       trace UUID; an eventfd to ring at packet ends
 *   program → session  EVENTS           its event descriptors, as text (see below)
 *   program → session  BUFFER           a new thread's ring buffer memfd
 *
 * EVENTS text, one line each, fields separated by one space, names [A-Za-z0-9_]:
 *   event ID PROVIDER NAME MAX_ALIGN NFIELDS
 *   field NAME KIND SIZE SIGNED BASE BIG_ENDIAN TEXT LENGTH NENTRIES
 *   enum LO HI LABEL            (LABEL: the rest of the line)
 * The session treats all of it as untrusted input.
 */
#ifndef UST_PROTO_H
#define UST_PROTO_H

#include <stdint.h>

#define PROTO_MAGIC   0x53504f53u /* "SOPS" */
#define PROTO_VERSION 1
#define PROTO_MAX_MSG (256u << 10)

enum proto_type { MSG_HELLO = 1, MSG_HELLO_REPLY, MSG_EVENTS, MSG_BUFFER };
enum proto_clock { CLOCK_KIND_TSC = 0, CLOCK_KIND_MONOTONIC = 1 };

struct proto_head {
	uint32_t magic;
	uint32_t version;
	uint32_t type;
	uint32_t length; /* of the whole message */
};

struct proto_hello {
	struct proto_head h;
	int32_t pid, ppid;
	uint32_t uid;
	char procname[16];
};

struct proto_hello_reply {
	struct proto_head h;
	uint32_t clock_kind;
	uint32_t mode; /* enum rb_mode */
	uint32_t num_subbufs;
	uint32_t pad;
	uint64_t subbuf_size;
	uint8_t uuid[16];    /* the trace of this process */
	char patterns[1024]; /* NUL-separated event name wildcards; empty: all */
};

struct proto_buffer {
	struct proto_head h;
	int32_t tid;
	uint32_t pad;
	uint64_t size; /* of the memfd */
};

#endif
