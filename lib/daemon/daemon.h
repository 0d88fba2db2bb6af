/* SPDX-License-Identifier: MIT */
/*
 * daemon.h: the session daemon (docs/sessions.md): one process, one thread, one poll loop
 * over its socket, where traced programs register (lib/ipc/proto.h) and `spoor session`
 * sends requests (lib/ipc/ctl.h), the eventfd the programs ring at packet ends, the kernel
 * sessions' buffers and the timers sessions ask for.
 *
 * Entry points:
 *   `spoor daemon` (cmds/cmd-daemon.c): daemon_launch, with a socket path from
 *   lib/ipc/paths.h. It forks unless foreground, and returns in the parent once the
 *   socket listens.
 *   A fuzzer, or a test without sockets: daemon_new (no socket, no signals), then
 *   daemon_conn_add with a fd of -1 (what the daemon sends it goes nowhere) and any
 *   credentials, daemon_conn_message for each message, as recvmsg would give it (bytes,
 *   length, the fd passed with it or -1: taken), daemon_conn_gone, daemon_free. Nothing in
 *   there reads or writes a socket; replies go to the connection's fd if it has one.
 */
#ifndef DAEMON_DAEMON_H
#define DAEMON_DAEMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct daemon_opts {
	const char *socket;  /* where to listen */
	const char *pidfile; /* NULL: daemon.pid next to the socket */
	bool foreground;     /* else detached, logging to daemon.log next to the pid file */
	/* the user fallback socket's folder (/tmp/spoor-UID): made 0700 and checked */
	bool private_folder;
};

/* Run the daemon: in this process (foreground), or in a detached child, returning 0 in the
 * parent once the socket listens. A daemon already listening on the socket, or holding
 * the pid file, is an error ("a daemon already runs (pid N)"); a socket nobody listens on
 * is replaced. Returns the exit status; err holds why on failure. In foreground it returns
 * once SIGTERM or SIGINT ended the daemon (every session finished). */
int daemon_launch(const struct daemon_opts *o, char *err, size_t errlen);

/* ---- without sockets (fuzzing) ---- */
struct daemon;
struct dconn;

struct daemon_creds {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	bool privileged; /* root, or in group `tracing` */
};

struct daemon *daemon_new(void);
void daemon_free(struct daemon *d); /* every session finished, every connection closed */
/* NULL when the connection table is full. fd (taken) may be -1. */
struct dconn *daemon_conn_add(struct daemon *d, int fd, const struct daemon_creds *cr);
/* One message. passed_fd (taken) may be -1. Returns 0, or -1 when the connection must be
 * closed (it misbehaved or is done): then call daemon_conn_gone. */
int daemon_conn_message(struct daemon *d, struct dconn *c, const void *msg, size_t len,
                        int passed_fd);
void daemon_conn_gone(struct daemon *d, struct dconn *c);

#endif
