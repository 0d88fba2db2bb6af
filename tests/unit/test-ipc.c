/* SPDX-License-Identifier: MIT */
/* test-ipc.c: lib/ipc: the daemons' socket paths and their private folder, one message
 * with a passed fd, and what a receiver refuses. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "ipc/msg.h"
#include "ipc/paths.h"

static char tmp[64];

static void test_paths(void)
{
	char p[IPC_PATH_MAX], want[128];

	unsetenv("SPOOR_SYSTEM_SOCKET");
	unsetenv("SPOOR_USER_SOCKET");
	unsetenv("XDG_RUNTIME_DIR");
	CHECK_EQ_S64(ipc_daemon_socket(IPC_SYSTEM, p, sizeof(p)), 0);
	CHECK_STR(p, "/run/spoor/daemon.sock");
	CHECK_EQ_S64(ipc_daemon_socket(IPC_USER, p, sizeof(p)), 1); /* the fallback */
	snprintf(want, sizeof(want), "/tmp/spoor-%u/daemon.sock", (unsigned) getuid());
	CHECK_STR(p, want);
	setenv("XDG_RUNTIME_DIR", "/run/user/7", 1);
	CHECK_EQ_S64(ipc_daemon_socket(IPC_USER, p, sizeof(p)), 0);
	CHECK_STR(p, "/run/user/7/spoor/daemon.sock");
	setenv("SPOOR_USER_SOCKET", "/x/u.sock", 1);
	setenv("SPOOR_SYSTEM_SOCKET", "/x/s.sock", 1);
	CHECK_EQ_S64(ipc_daemon_socket(IPC_USER, p, sizeof(p)), 0);
	CHECK_STR(p, "/x/u.sock");
	CHECK_EQ_S64(ipc_daemon_socket(IPC_SYSTEM, p, sizeof(p)), 0);
	CHECK_STR(p, "/x/s.sock");
	char longer[300];
	memset(longer, 'a', sizeof(longer) - 1);
	longer[0] = '/';
	longer[sizeof(longer) - 1] = '\0';
	setenv("SPOOR_USER_SOCKET", longer, 1);
	CHECK_EQ_S64(ipc_daemon_socket(IPC_USER, p, sizeof(p)), -ENAMETOOLONG);
}

static void test_private_folder(void)
{
	char sock[256], dir[128], link[128];

	snprintf(dir, sizeof(dir), "%s/priv", tmp);
	snprintf(sock, sizeof(sock), "%s/daemon.sock", dir);
	CHECK_EQ_S64(ipc_private_folder(sock), -ENOENT);
	CHECK_EQ_S64(ipc_make_socket_folder(sock, true), 0);
	struct stat st;
	CHECK(!stat(dir, &st) && (st.st_mode & 0777) == 0700);
	CHECK_EQ_S64(ipc_private_folder(sock), 0);
	chmod(dir, 0755); /* others may look in: refused, made private again by a daemon */
	CHECK_EQ_S64(ipc_private_folder(sock), -EPERM);
	CHECK_EQ_S64(ipc_make_socket_folder(sock, true), 0);
	CHECK_EQ_S64(ipc_private_folder(sock), 0);
	/* a link to a private folder is not the folder */
	snprintf(link, sizeof(link), "%s/link", tmp);
	CHECK(!symlink(dir, link));
	snprintf(sock, sizeof(sock), "%s/daemon.sock", link);
	CHECK_EQ_S64(ipc_private_folder(sock), -EPERM);
	/* the system daemon's folder is for everyone */
	snprintf(sock, sizeof(sock), "%s/pub/daemon.sock", tmp);
	umask(077);
	CHECK_EQ_S64(ipc_make_socket_folder(sock, false), 0);
	snprintf(dir, sizeof(dir), "%s/pub", tmp);
	CHECK(!stat(dir, &st) && (st.st_mode & 0777) == 0755);
}

static int open_fds(void)
{
	int n = 0;
	for (int k = 0; k < 256; k++)
		n += fcntl(k, F_GETFD) >= 0;
	return n;
}

static void test_messages(void)
{
	int sv[2], fd, pipefd[2], before = open_fds();
	char buf[64];
	struct proto_head h = ipc_head(MSG_EVENTS, sizeof(h));

	if (!CHECK(!socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv) && !pipe(pipefd)))
		return;
	/* a message with an fd */
	CHECK(!ipc_send(sv[0], &h, sizeof(h), pipefd[0], 0));
	CHECK_EQ_S64(ipc_recv(sv[1], buf, sizeof(buf), &fd, 0), sizeof(h));
	CHECK(ipc_head_ok(buf, sizeof(h)));
	CHECK(!ipc_head_ok(buf, sizeof(h) + 1)); /* the length says otherwise */
	CHECK(fd >= 0 && fd != pipefd[0]);
	if (fd >= 0)
		close(fd);
	/* too long for the receiver: refused whole, its fd closed */
	char big[128] = {0};
	CHECK(!ipc_send(sv[0], big, sizeof(big), pipefd[0], 0));
	errno = 0;
	CHECK_EQ_S64(ipc_recv(sv[1], buf, sizeof(buf), &fd, 0), -1);
	CHECK_EQ_S64(errno, EMSGSIZE);
	CHECK_EQ_S64(fd, -1);
	/* the next message is whole */
	CHECK(!ipc_send(sv[0], &h, sizeof(h), -1, 0));
	CHECK_EQ_S64(ipc_recv(sv[1], buf, sizeof(buf), &fd, MSG_DONTWAIT), sizeof(h));
	CHECK_EQ_S64(fd, -1);
	/* nothing waiting; then the other end gone */
	CHECK_EQ_S64(ipc_recv(sv[1], buf, sizeof(buf), &fd, MSG_DONTWAIT), -1);
	CHECK_EQ_S64(errno, EAGAIN);
	close(sv[0]);
	CHECK_EQ_S64(ipc_recv(sv[1], buf, sizeof(buf), &fd, 0), 0);
	CHECK(ipc_send(sv[1], &h, sizeof(h), -1, 0) == -1 && errno == EPIPE);
	close(sv[1]);
	close(pipefd[0]);
	close(pipefd[1]);
	CHECK_EQ_S64(open_fds(), before); /* no fd left behind */
}

int main(void)
{
	strcpy(tmp, "/tmp/test-ipc-XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	test_paths();
	test_private_folder();
	test_messages();
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		printf("cannot remove %s\n", tmp);
	return check_done();
}
