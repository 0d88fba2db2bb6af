/* SPDX-License-Identifier: MIT */
/*
 * process.c: the daemon as a process: one per socket (a pid file locked for its life, a
 * socket someone listens on left alone, a stale one replaced), detached unless asked not
 * to, the parent returning only once the socket listens, so that `spoor daemon && spoor
 * session create ...` works; logs on stderr in the foreground, else in daemon.log next to
 * the pid file.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dstate.h"
#include "ipc/ctl.h"
#include "server.h"

/* dir/name where dir is the folder of path. */
static void beside(const char *path, const char *name, char *buf, size_t cap)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int) (slash - path) : 1;
	snprintf(buf, cap, "%.*s/%s", dirlen, slash ? path : ".", name);
}

static long read_pid(int fd)
{
	char buf[32] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	return strtol(buf, NULL, 10);
}

/* The pid file, locked: one daemon per pid file. -1 with err when another holds it. */
static int lock_pidfile(const char *path, char *err, size_t errlen)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int e = errno;
		long pid = read_pid(fd);
		close(fd);
		if (e == EWOULDBLOCK)
			snprintf(err, errlen, "a daemon already runs (pid %ld)", pid);
		else
			snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -1;
	}
	return fd;
}

static int write_pid(int fd)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", (int) getpid());
	return ftruncate(fd, 0) || pwrite(fd, buf, (size_t) n, 0) != n ? -errno : 0;
}

/* A socket nobody listens on is removed; one somebody does is an error. */
static int check_socket(const char *path, int pidfd, char *err, size_t errlen)
{
	int fd = ctl_connect(path);
	if (fd >= 0) {
		close(fd);
		snprintf(err, errlen, "a daemon already runs on %s (pid %ld)", path,
		         read_pid(pidfd));
		return -1;
	}
	if (fd == -ECONNREFUSED && unlink(path) && errno != ENOENT) {
		snprintf(err, errlen, "cannot remove the stale socket %s: %s", path,
		         strerror(errno));
		return -1;
	}
	return 0;
}

/* The detached daemon's stdio: nothing in, its log out. */
static int to_log(const char *logpath)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	int log = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
	int rc = null < 0 || log < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(log, 2) < 0
	             ? -errno
	             : 0;
	if (null >= 0)
		close(null);
	if (log >= 0)
		close(log);
	setvbuf(stderr, NULL, _IOLBF, 0);
	return rc;
}

/* The parent of a detached daemon: wait for its word (a NUL byte: it listens). */
static int wait_child(int from, pid_t child, const char *logpath, char *err, size_t errlen)
{
	char msg[600];
	ssize_t n, got = 0;
	while ((n = read(from, msg + got, sizeof(msg) - 1 - (size_t) got)) > 0 ||
	       (n < 0 && errno == EINTR))
		got += n > 0 ? n : 0;
	close(from);
	if (got >= 1 && msg[0] == '\0')
		return 0;
	msg[got] = '\0';
	int status;
	waitpid(child, &status, WNOHANG);
	snprintf(err, errlen, "%s", got ? msg : "the daemon ended before it listened");
	if (!got)
		snprintf(err, errlen, "the daemon ended before it listened (see %s)", logpath);
	return 1;
}

static void say(int to, const char *text)
{
	if (to >= 0 && write(to, text, strlen(text) + 1) < 0)
		daemon_log("%s", text);
}

/* In the daemon's own process: set up, tell `ready` (or the error), serve, finish. */
static int run_daemon(const struct daemon_opts *o, int pidfd, const char *pidpath,
                      const char *logpath, int ready, char *err, size_t errlen)
{
	/* a system daemon writes a user's files with the user's fsuid and fsgid: root's
	 * supplementary groups must not open anything more to them */
	if (geteuid() == 0 && setgroups(0, NULL))
		daemon_log("setgroups: %s", strerror(errno));
	struct daemon *d = daemon_new();
	int rc = d ? 0 : -ENOMEM;
	if (!rc && server_signals(d))
		rc = -errno;
	if (rc)
		snprintf(err, errlen, "cannot start: %s", strerror(-rc));
	else if (server_listen(d, o->socket, !o->private_folder, err, errlen))
		rc = -1;
	else if ((rc = write_pid(pidfd)))
		snprintf(err, errlen, "cannot write the pid file: %s", strerror(-rc));
	else if (!o->foreground && (rc = to_log(logpath)))
		snprintf(err, errlen, "%s: %s", logpath, strerror(-rc));
	if (rc) {
		say(ready, err);
		if (d && d->listen_fd >= 0)
			unlink(o->socket);
		daemon_free(d);
		return 1;
	}
	struct stat mine; /* the socket's file, to remove only ours at the end */
	stat(o->socket, &mine);
	say(ready, "");
	if (ready >= 0)
		close(ready);
	daemon_log("listening on %s (pid %d)", o->socket, (int) getpid());
	rc = server_run(d);
	daemon_free(d); /* every session finished */
	/* the socket and pid file, if they are still ours */
	struct stat now;
	if (!stat(o->socket, &now) && now.st_ino == mine.st_ino && now.st_dev == mine.st_dev)
		unlink(o->socket);
	unlink(pidpath);
	daemon_log("stopped");
	return rc ? 1 : 0;
}

int daemon_launch(const struct daemon_opts *o, char *err, size_t errlen)
{
	char pidpath[PATH_MAX], logpath[PATH_MAX];
	snprintf(pidpath, sizeof(pidpath), "%s", o->pidfile ? o->pidfile : "");
	if (!o->pidfile)
		beside(o->socket, "daemon.pid", pidpath, sizeof(pidpath));
	beside(pidpath, "daemon.log", logpath, sizeof(logpath));
	int pidfd = lock_pidfile(pidpath, err, errlen);
	if (pidfd < 0)
		return 1;
	if (check_socket(o->socket, pidfd, err, errlen)) {
		close(pidfd);
		return 1;
	}
	int rc;
	if (o->foreground) {
		rc = run_daemon(o, pidfd, pidpath, logpath, -1, err, errlen);
	} else {
		int pipefd[2];
		if (pipe2(pipefd, O_CLOEXEC)) {
			snprintf(err, errlen, "pipe: %s", strerror(errno));
			close(pidfd);
			return 1;
		}
		pid_t child = fork();
		if (child < 0) {
			snprintf(err, errlen, "fork: %s", strerror(errno));
			rc = 1;
		} else if (child > 0) {
			close(pipefd[1]);
			close(pidfd); /* the child holds the lock */
			return wait_child(pipefd[0], child, logpath, err, errlen);
		} else {
			close(pipefd[0]);
			setsid();
			if (chdir("/")) /* hold no folder busy */
				daemon_log("chdir /: %s", strerror(errno));
			rc = run_daemon(o, pidfd, pidpath, logpath, pipefd[1], err, errlen);
			err[0] = '\0'; /* said to the parent, or in the log */
			_exit(rc);
		}
	}
	close(pidfd);
	return rc;
}
