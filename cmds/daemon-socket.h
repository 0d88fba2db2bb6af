/* SPDX-License-Identifier: MIT */
/* daemon-socket.h: which session daemon a client command asks (cmd-session.c). */
#ifndef CMDS_DAEMON_SOCKET_H
#define CMDS_DAEMON_SOCKET_H

#include <stddef.h>

/* The daemon to ask: given (--socket), else $SPOOR_DAEMON_SOCKET, else the user's daemon
 * if one listens on its socket, else the system's; into buf. 0, or -1 when it does not fit. */
int session_pick_socket(const char *given, char *buf, size_t cap);

#endif
