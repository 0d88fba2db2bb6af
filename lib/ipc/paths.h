/* SPDX-License-Identifier: MIT */
/*
 * paths.h: where the session daemons listen (docs/sessions.md).
 *   system daemon: $SPOOR_SYSTEM_SOCKET, else /run/spoor/daemon.sock
 *   user daemon:   $SPOOR_USER_SOCKET, else $XDG_RUNTIME_DIR/spoor/daemon.sock, else
 *                  /tmp/spoor-UID/daemon.sock, in a folder the daemon makes 0700, which
 *                  programs and clients refuse unless it is theirs and private
 *                  (ipc_private_folder): anyone can make a folder in /tmp first.
 */
#ifndef IPC_PATHS_H
#define IPC_PATHS_H

#include <stdbool.h>
#include <stddef.h>

#define IPC_PATH_MAX 108 /* sizeof(sockaddr_un.sun_path), the NUL included */

enum ipc_daemon { IPC_SYSTEM, IPC_USER };

/* The socket path of that daemon into buf (cap >= IPC_PATH_MAX): 1 when it is the /tmp
 * fallback (check its folder with ipc_private_folder before trusting it), 0 otherwise,
 * -ENAMETOOLONG. */
int ipc_daemon_socket(enum ipc_daemon which, char *buf, size_t cap);
/* The folder of sockpath is a folder (not a link) owned by our uid, with no access for group
 * or others: 0, else -EPERM or -errno (-ENOENT: not there). */
int ipc_private_folder(const char *sockpath);
/* For a daemon: make the folder of sockpath if missing, private (0700, checked as above,
 * an existing one of ours made private) or public (0755: the system daemon's, that every
 * program connects to). 0 or -errno. */
int ipc_make_socket_folder(const char *sockpath, bool private_folder);

#endif
