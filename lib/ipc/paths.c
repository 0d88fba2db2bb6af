/* SPDX-License-Identifier: MIT */
/* paths.c: where the session daemons listen (paths.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"

static int put(char *buf, size_t cap, int rc, int n)
{
	if (n < 0 || (size_t) n >= cap || (size_t) n >= IPC_PATH_MAX) {
		if (cap)
			buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return rc;
}

int ipc_daemon_socket(enum ipc_daemon which, char *buf, size_t cap)
{
	/* secure_getenv: a setuid program must not hand its rings to a socket its caller names */
	const char *env =
	    secure_getenv(which == IPC_SYSTEM ? "SPOOR_SYSTEM_SOCKET" : "SPOOR_USER_SOCKET");

	if (env && *env)
		return put(buf, cap, 0, snprintf(buf, cap, "%s", env));
	if (which == IPC_SYSTEM)
		return put(buf, cap, 0, snprintf(buf, cap, "/run/spoor/daemon.sock"));
	const char *xdg = secure_getenv("XDG_RUNTIME_DIR");
	if (xdg && *xdg == '/')
		return put(buf, cap, 0, snprintf(buf, cap, "%s/spoor/daemon.sock", xdg));
	return put(buf, cap, 1,
	           snprintf(buf, cap, "/tmp/spoor-%u/daemon.sock", (unsigned) getuid()));
}

/* The folder part of sockpath, into dir (IPC_PATH_MAX). */
static int folder_of(const char *sockpath, char *dir)
{
	const char *slash = strrchr(sockpath, '/');
	size_t n = slash ? (size_t) (slash - sockpath) : 0;

	if (n >= IPC_PATH_MAX)
		return -ENAMETOOLONG;
	if (!slash)
		strcpy(dir, ".");
	else if (!n)
		strcpy(dir, "/");
	else {
		memcpy(dir, sockpath, n);
		dir[n] = '\0';
	}
	return 0;
}

int ipc_private_folder(const char *sockpath)
{
	char dir[IPC_PATH_MAX];
	struct stat st;
	int rc = folder_of(sockpath, dir);

	if (rc)
		return rc;
	if (lstat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077))
		return -EPERM;
	return 0;
}

int ipc_make_socket_folder(const char *sockpath, bool private_folder)
{
	char dir[IPC_PATH_MAX];
	struct stat st;
	int rc = folder_of(sockpath, dir);

	if (rc)
		return rc;
	mode_t mode = private_folder ? 0700 : 0755;
	if (mkdir(dir, mode) == 0) {
		if (chmod(dir, mode)) /* past the umask */
			return -errno;
	} else if (errno != EEXIST) {
		return -errno;
	}
	if (!private_folder)
		return 0;
	if (lstat(dir, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid())
		return -EPERM;
	if ((st.st_mode & 077) && chmod(dir, 0700))
		return -errno;
	return ipc_private_folder(sockpath);
}
