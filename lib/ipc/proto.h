/* SPDX-License-Identifier: MIT */
/*
 * proto.h: the app protocol (version 2): how a traced program talks to whoever records it,
 * over a SOCK_SEQPACKET unix socket, one message per datagram. `spoor record` serves it on
 * the socket named by SPOOR_SESSION (inherited by children, so fork and exec are traced
 * too); session daemons serve it on their well-known sockets (paths.h), so programs already
 * running are attached later, to several sessions at once.
 *
 *   program → server  HELLO            who it is
 *   server → program  HELLO_REPLY      the clock, and how many SESSION messages follow at
 *                                      once; an eventfd to ring at packet ends
 *   server → program  SESSION          a session joined (a slot), or its active flag or
 *                                      patterns changed: mode, geometry and trace UUID
 *                                      never change for a slot's life; any time
 *   server → program  SESSION_END      a slot gone (its buffers were drained first)
 *   program → server  EVENTS           its event descriptors, as text (see below): after
 *                                      the HELLO_REPLY's sessions, then at each dlopen
 *   program → server  BUFFER           a thread's ring buffer memfd for a slot (at the
 *                                      thread's first event of that slot)
 *
 * Slot numbers are the server's, per connection, below PROTO_MAX_SLOTS; the program maps
 * (connection, slot) to its own table, and ignores a SESSION beyond its capacity.
 *
 * EVENTS text, one line each, fields separated by one space, names [A-Za-z0-9_]:
 *   event ID PROVIDER NAME MAX_ALIGN NFIELDS
 *   field NAME KIND SIZE SIGNED BASE BIG_ENDIAN TEXT LENGTH NENTRIES [LENGTH_SIZE]
 *                               (a sequence's length integer, when not spoor's own uint32)
 *   enum LO HI LABEL            (LABEL: the rest of the line)
 *
 * Each side treats everything the other sends as untrusted input. Types from
 * MSG_CTL_REQUEST on are the control protocol of `spoor session` (ctl.h).
 */
#ifndef IPC_PROTO_H
#define IPC_PROTO_H

#include <stdint.h>

#define PROTO_MAGIC     0x53504f53u /* "SOPS" */
#define PROTO_VERSION   2
#define PROTO_MAX_MSG   (256u << 10)
#define PROTO_MAX_SLOTS 16 /* sessions one program holds at once, over all its servers */

enum proto_type {
	MSG_HELLO = 1,
	MSG_HELLO_REPLY,
	MSG_EVENTS,
	MSG_BUFFER,
	MSG_SESSION,
	MSG_SESSION_END,
	MSG_CTL_REQUEST = 16, /* the daemon's: ctl.h */
	MSG_CTL_REPLY,
};
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
	uint32_t clock_kind; /* enum proto_clock */
	uint32_t nsessions;  /* SESSION messages that follow at once */
};

struct proto_session {
	struct proto_head h;
	uint32_t slot;
	uint32_t active; /* 0: events off for this slot (stopped) */
	uint32_t mode;   /* enum rb_mode */
	uint32_t num_subbufs;
	uint64_t subbuf_size;
	uint8_t uuid[16];    /* the trace of this process in this session */
	char patterns[1024]; /* NUL-separated event name wildcards; empty: all */
};

struct proto_session_end {
	struct proto_head h;
	uint32_t slot;
	uint32_t pad;
};

struct proto_buffer {
	struct proto_head h;
	int32_t tid;
	uint32_t slot;
	uint64_t size; /* of the memfd */
};

#endif
