/* SPDX-License-Identifier: MIT */
/* server.h: the daemon's socket and loop (server.c), for process.c. */
#ifndef DAEMON_SERVER_H
#define DAEMON_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "dstate.h"

/* Bind and listen on path (which must not exist); public: every user may connect. */
int server_listen(struct daemon *d, const char *path, bool public_socket, char *err, size_t errlen);
/* SIGTERM, SIGINT and SIGHUP through a signalfd; SIGPIPE ignored. 0 or -errno. */
int server_signals(struct daemon *d);
/* Serve until SIGTERM or SIGINT: 0; -1 when poll fails. */
int server_run(struct daemon *d);

#endif
