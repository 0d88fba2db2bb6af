/* SPDX-License-Identifier: MIT */
/*
 * daemons.c: registration with the session daemons, when SPOOR_SESSION is not set.
 *
 * At start, the program registers with every daemon whose socket exists (the system's
 * and the user's, lib/ipc/paths.h; once if both paths are the same), waiting at most
 * UST_REPLY_MS for their replies and the sessions they announce, so that events are on
 * from main()'s first line. Then one thread, with every signal blocked, sleeps in poll()
 * on the daemon connections and on an inotify fd watching the sockets' folders (or their
 * nearest existing ancestor, while a folder is missing): it takes the daemons' messages,
 * and registers with a daemon whose socket appears. The watches are made WATCH_DELAY_MS
 * after start, looking for sockets again then: a process with an inotify watch waits, as
 * it ends, for the kernel to release the watch (an RCU grace period: 10 to 20 ms on a busy
 * machine), which a short-lived program should not pay. Besides that one wake-up the
 * thread has no timer, but for a few retries when a socket refuses connections (a daemon
 * between bind and listen, or a stale socket). A daemon gone (end of file) takes its sessions with
 * it, and the thread waits for its socket again.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ipc/paths.h"
#include "session.h"

#define UST_REPLY_MS   100 /* the longest a program's start waits for a daemon */
#define RETRY_FIRST_MS 10  /* a refusing socket: tried again after 10, 20, 40 ... ms */
#define RETRY_MAX      8   /* ... until about 2.5 s have passed */
#define WATCH_DELAY_MS 200 /* the watches are made then (see the top) */
#define WATCH_EVENTS   (IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

struct daemon {
	char path[IPC_PATH_MAX]; /* empty: none (the user's path is the system's) */
	bool fallback;           /* its folder is /tmp/spoor-UID: checked before use */
	int wd;                  /* inotify watch of `watched`, or -1 */
	char watched[IPC_PATH_MAX];
	int retries;          /* connections refused, or ended at once, in a row */
	int64_t retry_at;     /* ms on CLOCK_MONOTONIC, 0: none */
	int64_t connected_at; /* ms */
};

static struct daemon daemons[UST_MAX_CONNS]; /* by connection: system, user */
static int ino = -1;

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void retry_later(struct daemon *d)
{
	if (d->retries < RETRY_MAX)
		d->retry_at = now_ms() + ((int64_t) RETRY_FIRST_MS << d->retries++);
}

/* Register with daemon ci if its socket is there and not yet connected. Lock held. */
static void try_connect(int ci)
{
	struct daemon *d = &daemons[ci];
	struct stat st;

	d->retry_at = 0;
	if (!d->path[0] || ust_conns[ci].sock >= 0)
		return;
	if ((d->fallback && ipc_private_folder(d->path)) || stat(d->path, &st) ||
	    !S_ISSOCK(st.st_mode)) {
		d->retries = 0; /* the next inotify event says when to look again */
		return;
	}
	if (!ust_conn_open(ci, d->path, false))
		d->connected_at = now_ms();
	else if (errno == ECONNREFUSED || errno == EAGAIN)
		retry_later(d);
}

/* The deepest existing folder on the way to d's socket, into dir. */
static void watch_target(const struct daemon *d, char *dir)
{
	struct stat st;

	strcpy(dir, d->path);
	for (;;) {
		char *slash = strrchr(dir, '/');
		if (!slash) {
			strcpy(dir, ".");
			return;
		}
		if (slash == dir) {
			strcpy(dir, "/");
			return;
		}
		*slash = '\0';
		if (!stat(dir, &st) && S_ISDIR(st.st_mode))
			return;
	}
}

static void update_watch(int ci)
{
	struct daemon *d = &daemons[ci];
	char dir[IPC_PATH_MAX];

	if (ino < 0 || !d->path[0])
		return;
	watch_target(d, dir);
	if (d->wd >= 0 && !strcmp(dir, d->watched))
		return;
	if (d->wd >= 0) {
		bool shared = false;
		for (int k = 0; k < UST_MAX_CONNS; k++)
			shared |= k != ci && daemons[k].wd == d->wd;
		if (!shared)
			inotify_rm_watch(ino, d->wd);
	}
	d->wd = inotify_add_watch(ino, dir, WATCH_EVENTS | IN_ONLYDIR);
	strcpy(d->watched, d->wd >= 0 ? dir : "");
}

/* Something changed in a watched folder: watches follow the folders, and the daemons
 * whose socket appeared are registered with. */
static void on_inotify(void)
{
	union {
		char b[4096];
		struct inotify_event align;
	} buf;
	ssize_t n;

	while ((n = read(ino, &buf, sizeof(buf))) > 0)
		for (char *p = buf.b; p < buf.b + n;) {
			const struct inotify_event *e = (const struct inotify_event *) p;
			if (e->mask & IN_IGNORED) /* the folder went: watch its parent */
				for (int ci = 0; ci < UST_MAX_CONNS; ci++)
					if (daemons[ci].wd == e->wd)
						daemons[ci].wd = -1;
			p += sizeof(*e) + e->len;
		}
	for (int ci = 0; ci < UST_MAX_CONNS; ci++) {
		update_watch(ci);
		if (ust_conns[ci].sock < 0) {
			daemons[ci].retries = 0;
			try_connect(ci);
		}
	}
}

/* The connection to daemon ci ended: wait for the daemon again. Soon, unless connections
 * keep ending at once (a daemon that breaks the protocol): then less and less often, and
 * after RETRY_MAX only when its socket is made again. */
static void gone(int ci)
{
	struct daemon *d = &daemons[ci];

	if (now_ms() - d->connected_at >= 1000)
		d->retries = 0;
	update_watch(ci);
	retry_later(d);
}

/* The watches made, and the sockets looked for again. Lock held. */
static void start_watching(void)
{
	ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	/* The user daemon's /tmp/spoor-UID made now if missing, as the daemon would make it:
	 * else the watch would be on /tmp, and wake for every file made there. */
	for (int ci = 0; ci < UST_MAX_CONNS; ci++)
		if (daemons[ci].fallback && daemons[ci].path[0])
			ipc_make_socket_folder(daemons[ci].path, true);
	for (int ci = 0; ci < UST_MAX_CONNS; ci++) {
		update_watch(ci);
		if (!daemons[ci].retry_at)
			try_connect(ci);
	}
}

static void *listen_main(void *unused)
{
	int64_t watch_at = now_ms() + WATCH_DELAY_MS;

	(void) unused;
	ust_lock();
	for (;;) {
		struct pollfd pfd[1 + UST_MAX_CONNS];
		int conn_of[1 + UST_MAX_CONNS], n = 0;
		int64_t t = now_ms();
		int timeout = watch_at ? (int) (watch_at > t ? watch_at - t : 0) : -1;
		pfd[n] = (struct pollfd){ino, POLLIN, 0};
		conn_of[n++] = -1;
		for (int ci = 0; ci < UST_MAX_CONNS; ci++) {
			if (ust_conns[ci].sock >= 0) {
				pfd[n] = (struct pollfd){ust_conns[ci].sock, POLLIN, 0};
				conn_of[n++] = ci;
			}
			int64_t wait = daemons[ci].retry_at - t;
			if (daemons[ci].retry_at && (timeout < 0 || wait < timeout))
				timeout = wait > 0 ? (int) wait : 0;
		}
		ust_unlock();
		int ready = poll(pfd, (nfds_t) n, timeout);
		ust_lock();
		if (ready < 0 && errno != EINTR)
			break; /* not expected: the daemons' sessions go on, none is added */
		for (int k = 0; ready > 0 && k < n; k++) {
			if (!pfd[k].revents)
				continue;
			if (conn_of[k] < 0) {
				on_inotify();
			} else if (ust_conns[conn_of[k]].sock == pfd[k].fd &&
			           ust_conn_take(conn_of[k], -1) < 0) {
				gone(conn_of[k]);
			}
		}
		t = now_ms();
		for (int ci = 0; ci < UST_MAX_CONNS; ci++)
			if (daemons[ci].retry_at && daemons[ci].retry_at <= t)
				try_connect(ci);
		if (watch_at && watch_at <= t) {
			watch_at = 0;
			start_watching();
		}
	}
	ust_unlock();
	return NULL;
}

/* The handshakes begun at start, given at most UST_REPLY_MS. Lock held. */
static void wait_replies(void)
{
	int64_t end = now_ms() + UST_REPLY_MS;

	for (;;) {
		struct pollfd pfd[UST_MAX_CONNS];
		int conn_of[UST_MAX_CONNS], n = 0;
		for (int ci = 0; ci < UST_MAX_CONNS; ci++)
			if (ust_conns[ci].sock >= 0 && ust_conns[ci].state != CONN_READY) {
				pfd[n] = (struct pollfd){ust_conns[ci].sock, POLLIN, 0};
				conn_of[n++] = ci;
			}
		int64_t left = end - now_ms();
		if (!n || left <= 0)
			return;
		ust_unlock();
		int ready = poll(pfd, (nfds_t) n, (int) left);
		ust_lock();
		for (int k = 0; ready > 0 && k < n; k++)
			if (pfd[k].revents && ust_conns[conn_of[k]].sock == pfd[k].fd)
				ust_conn_take(conn_of[k], -1);
	}
}

void ust_daemons_start(void)
{
	bool secure = getauxval(AT_SECURE) != 0;
	int fb;

	for (int ci = 0; ci < UST_MAX_CONNS; ci++) {
		struct daemon *d = &daemons[ci];
		*d = (struct daemon){.wd = -1};
		fb = ipc_daemon_socket(ci == 0 ? IPC_SYSTEM : IPC_USER, d->path, sizeof(d->path));
		d->fallback = fb == 1;
		/* a setuid (AT_SECURE) program registers with the system daemon only, never with
		 * its caller's own */
		if (fb < 0 || (ci && (secure || !strcmp(d->path, daemons[0].path))))
			d->path[0] = '\0';
	}
	for (int ci = 0; ci < UST_MAX_CONNS; ci++)
		try_connect(ci);
	wait_replies();
	/* the listener takes no signal: they are the program's */
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t th;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	if (!pthread_create(&th, &attr, listen_main, NULL))
		pthread_setname_np(th, "spoor-ust");
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void ust_daemons_forget(void)
{
	if (ino >= 0)
		close(ino);
	ino = -1;
}
