/* SPDX-License-Identifier: MIT */
/* cmd-daemon.c: `spoor daemon`: the session daemon (lib/daemon/, docs/sessions.md). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "daemon/daemon.h"
#include "ipc/paths.h"

enum { D_FOREGROUND, D_SOCKET, D_PIDFILE, D_HELP };

static const struct cmd_option daemon_options[] = {
    [D_FOREGROUND] = {"foreground", 'f', NULL,
                      "stay in the foreground, logging to stderr (else: detached, logging to "
                      "daemon.log next to the pid file)"},
    [D_SOCKET] = {"socket", 0, "PATH",
                  "listen on PATH (default: /run/spoor/daemon.sock as root, else "
                  "$XDG_RUNTIME_DIR/spoor/daemon.sock or /tmp/spoor-UID/daemon.sock)"},
    [D_PIDFILE] = {"pid-file", 0, "PATH", "the pid file (default: daemon.pid next to the socket)"},
    [D_HELP] = {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

/* The default socket: root's is the system daemon's, anyone else's their own. */
static int default_socket(const struct command *cmd, char *buf, size_t cap, bool *private_folder)
{
	bool root = geteuid() == 0;
	int rc = ipc_daemon_socket(root ? IPC_SYSTEM : IPC_USER, buf, cap);
	if (rc < 0)
		return cmd_error(cmd, "the socket path is too long");
	*private_folder = !root;
	if ((rc = ipc_make_socket_folder(buf, *private_folder)))
		return cmd_error(cmd, "cannot make the folder of %s: %s", buf,
		                 rc == -EPERM ? "it is not a private folder of this user"
		                              : strerror(-rc));
	return 0;
}

static int run_daemon_cmd(const struct command *cmd, int argc, char **argv)
{
	char sock[IPC_PATH_MAX], pidfile[PATH_MAX], err[600] = "";
	struct daemon_opts o = {0};
	const char *arg;
	int first, row, rc;

	optind = 1;
	while ((row = cmd_getopt(cmd, argc, argv, &arg, &first)) != -1) {
		switch (row) {
		case D_FOREGROUND: o.foreground = true; break;
		case D_SOCKET:
			if (cmd_absolute_path(arg, sock, sizeof(sock)))
				return cmd_usage_error(cmd, "socket path too long: %s", arg);
			o.socket = sock;
			o.private_folder = geteuid() != 0;
			break;
		case D_PIDFILE:
			if (cmd_absolute_path(arg, pidfile, sizeof(pidfile)))
				return cmd_usage_error(cmd, "pid file path too long: %s", arg);
			o.pidfile = pidfile;
			break;
		case D_HELP: cmd_help(cmd, stdout); return 0;
		default: return 2;
		}
	}
	if (first < argc)
		return cmd_usage_error(cmd, "unexpected argument '%s'", argv[first]);
	if (!o.socket) {
		if ((rc = default_socket(cmd, sock, sizeof(sock), &o.private_folder)))
			return rc;
		o.socket = sock;
	}
	rc = daemon_launch(&o, err, sizeof(err));
	if (rc && err[0])
		cmd_error(cmd, "%s", err);
	return rc;
}

const struct command cmd_daemon = {
    .name = "daemon",
    .summary = "run the session daemon, which traces programs already running",
    .description = "Runs the session daemon: instrumented programs register with it at its "
                   "socket (started before or after it), and `spoor session` creates, "
                   "starts, stops, snapshots, rotates and destroys sessions in it. As root it "
                   "is the system daemon, which may trace every user's programs for root and "
                   "the group `tracing`; otherwise it is the user's own. Detached, it returns "
                   "once its socket listens; SIGTERM or SIGINT ends it, every session "
                   "finished (docs/sessions.md).",
    .usage = "[--foreground] [--socket PATH] [--pid-file PATH]",
    .options = daemon_options,
    .run = run_daemon_cmd,
};
