/* SPDX-License-Identifier: MIT */
/* session.h: the runtime's connections to its servers (session.c), for daemons.c. */
#ifndef UST_SESSION_H
#define UST_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "ust.h"

/* spoor record's one connection, or the system daemon's and the user daemon's. */
#define UST_MAX_CONNS 2

enum conn_state {
	CONN_DOWN,
	CONN_HELLO,    /* HELLO sent, its reply awaited */
	CONN_SESSIONS, /* reading the sessions the reply announced */
	CONN_READY,    /* descriptors sent: its sessions record */
};

struct ust_conn {
	int sock;
	int efd; /* the server's doorbell; the number is kept when the connection ends */
	enum conn_state state;
	bool blocking; /* spoor record's: waited for, as it always answers */
	uint32_t clock_kind, sessions_left;
};

/* Guarded by the lock (ust_lock), as is everything else of session.c. */
extern struct ust_conn ust_conns[UST_MAX_CONNS];

/* Connect connection ci to path and say hello: 0 or -1 (errno: ECONNREFUSED, ...). */
int ust_conn_open(int ci, const char *path, bool blocking);
/* Take the messages the server sent, waiting up to timeout_ms (-1: none, or for ever on a
 * blocking connection) for the first: 0, or -1 if the connection ended (then dropped). The
 * lock is let go meanwhile. */
int ust_conn_take(int ci, int timeout_ms);
/* The connection ends: its slots are freed, their events off. */
void ust_conn_drop(int ci);

/* daemons.c: with no SPOOR_SESSION, register with the daemons whose socket exists, and
 * start the thread that listens to them and waits for the others. Lock held. */
void ust_daemons_start(void);
/* In a forked child: the parent's listener thread is not there; its fds go. Lock held. */
void ust_daemons_forget(void);

#endif
