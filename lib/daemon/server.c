/* SPDX-License-Identifier: MIT */
/*
 * server.c: the daemon's loop. One poll() over the listening socket, the doorbell eventfd
 * of each program, a signalfd (SIGTERM, SIGINT: finish every session and end), a timer
 * for connections that say nothing, the sessions' timers and kernel buffers, and the
 * connections. It sleeps until one of them has something.
 *
 * A hostile client cannot grow the daemon: the connection table is fixed
 * (DAEMON_MAX_CONNS; when full, the oldest connection that has not said what it is goes),
 * a message is read into one fixed buffer (longer: refused whole, connection closed), a
 * connection is served a bounded number of messages per turn, and one that says nothing
 * is closed after DAEMON_IDLE_NS.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#include "dstate.h"
#include "ipc/msg.h"
#include "kernel/ksession.h"
#include "server.h"
#include "sessions.h"

#define MESSAGES_PER_TURN 64
#define MAX_GROUPS        1024

int server_listen(struct daemon *d, const char *path, bool public_socket, char *err, size_t errlen)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(err, errlen, "%s: %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	strcpy(sa.sun_path, path);
	d->listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	/* programs and clients of every user reach the system daemon's socket; a user's
	 * lives in a folder only its owner enters */
	mode_t old = umask(public_socket ? 0 : 077);
	int rc = d->listen_fd < 0 || bind(d->listen_fd, (struct sockaddr *) &sa, sizeof(sa)) ||
	                 listen(d->listen_fd, 128)
	             ? -errno
	             : 0;
	umask(old);
	if (rc) {
		snprintf(err, errlen, "cannot listen on %s: %s", path, strerror(-rc));
		return -1;
	}
	return 0;
}

int server_signals(struct daemon *d)
{
	/* a connection, a ring buffer's stream: descriptors are what a daemon uses most */
	struct rlimit rl;
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	d->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	d->idle_timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	return d->sigfd < 0 || d->idle_timer < 0 ? -errno : 0;
}

static bool in_tracing_group(const struct daemon *d, int fd, gid_t gid)
{
	if (!d->have_tracing)
		return false;
	if (gid == d->tracing_gid)
		return true;
	static gid_t groups[MAX_GROUPS];
	socklen_t len = sizeof(groups);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len))
		return false; /* more groups than that, or an old kernel: not privileged */
	for (size_t i = 0; i < len / sizeof(gid_t); i++)
		if (groups[i] == d->tracing_gid)
			return true;
	return false;
}

/* Make room for one more connection: the oldest that has not said what it is goes. */
static bool evict_one(struct daemon *d)
{
	struct dconn *oldest = NULL;
	for (size_t i = 0; i < d->nconns; i++)
		if (d->conns[i]->kind == CONN_NEW &&
		    (!oldest || d->conns[i]->since_ns < oldest->since_ns))
			oldest = d->conns[i];
	if (oldest)
		daemon_conn_gone(d, oldest);
	return oldest != NULL;
}

/* Room for a connection of cr's: a uid but root's has at most UID_MAX_NEW that have not
 * spoken yet, and leaves the last ROOT_RESERVE of the table to root. */
static bool room_for(struct daemon *d, const struct daemon_creds *cr)
{
	size_t cap = cr->uid == 0 ? DAEMON_MAX_CONNS : DAEMON_MAX_CONNS - ROOT_RESERVE;
	unsigned fresh = 0;
	for (size_t i = 0; i < d->nconns && cr->uid != 0; i++)
		fresh += d->conns[i]->kind == CONN_NEW && d->conns[i]->cr.uid == cr->uid;
	if (fresh >= UID_MAX_NEW) {
		daemon_log("uid %u has %u connections that said nothing: pid %d refused",
		           (unsigned) cr->uid, fresh, (int) cr->pid);
		return false;
	}
	if (d->nconns >= cap && !evict_one(d)) {
		daemon_log("too many connections: one from pid %d refused", (int) cr->pid);
		return false;
	}
	return true;
}

/* false when no more can be taken now (out of descriptors, nothing to evict): the loop
 * stops listening until a connection closes, rather than spin on a readable socket */
static bool accept_all(struct daemon *d)
{
	int fd;
	for (;;) {
		fd = accept4(d->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0 && (errno == EMFILE || errno == ENFILE) && evict_one(d))
			continue;
		if (fd < 0)
			return errno != EMFILE && errno != ENFILE;
		struct ucred uc;
		socklen_t len = sizeof(uc);
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len)) {
			close(fd);
			continue;
		}
		struct daemon_creds cr = {uc.pid, uc.uid, uc.gid, false};
		cr.privileged = uc.uid == 0 || in_tracing_group(d, fd, uc.gid);
		if (!room_for(d, &cr)) {
			close(fd);
			continue;
		}
		daemon_conn_add(d, fd, &cr);
	}
}

/* Up to MESSAGES_PER_TURN messages of c; marks it done at its end or its misbehaviour. */
static void serve(struct daemon *d, struct dconn *c)
{
	static char buf[PROTO_MAX_MSG];
	for (int i = 0; i < MESSAGES_PER_TURN && !c->done; i++) {
		int fd;
		ssize_t n = ipc_recv(c->fd, buf, sizeof(buf), &fd, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0 || daemon_conn_message(d, c, buf, (size_t) n, fd))
			c->done = true;
	}
}

/* Close the connections that said nothing for DAEMON_IDLE_NS; arm the timer for the next. */
static void idle_check(struct daemon *d)
{
	int64_t now = daemon_mono_ns(), next = 0;
	for (size_t i = 0; i < d->nconns; i++) {
		struct dconn *c = d->conns[i];
		if (c->kind != CONN_NEW)
			continue;
		int64_t due = c->since_ns + DAEMON_IDLE_NS;
		if (due <= now)
			c->done = true;
		else if (!next || due < next)
			next = due;
	}
	struct itimerspec it = {0};
	if (next) {
		int64_t in = next - now;
		it.it_value =
		    (struct timespec){(time_t) (in / 1000000000), (long) (in % 1000000000)};
	}
	timerfd_settime(d->idle_timer, 0, &it, NULL);
}

/* true when one was closed */
static bool close_done(struct daemon *d)
{
	bool closed = false;
	for (size_t i = d->nconns; i-- > 0;)
		if (d->conns[i]->done) {
			daemon_conn_gone(d, d->conns[i]);
			closed = true;
		}
	return closed;
}

/* A readable timerfd is read, or it stays readable: once (a timer that fired again since
 * is read at the next turn, after the other descriptors had theirs). */
static void consume(int fd)
{
	uint64_t expirations;
	if (read(fd, &expirations, sizeof(expirations)) < 0)
		expirations = 0;
}

void server_take_registrations(struct daemon *d)
{
	for (size_t i = 0; i < d->nconns; i++)
		if (d->conns[i]->kind == CONN_APP && !d->conns[i]->done)
			serve(d, d->conns[i]);
}

#define FIXED          3
#define MAX_KERNEL_FDS 1024 /* a CPU buffer each, over every session */

int server_run(struct daemon *d)
{
	static struct pollfd
	    pfd[FIXED + DAEMON_MAX_SESSIONS + MAX_KERNEL_FDS + 3 * DAEMON_MAX_CONNS];
	static struct {
		struct dsession *s;
		size_t at, n;
	} kern[DAEMON_MAX_SESSIONS];
	static struct dconn *polled[DAEMON_MAX_CONNS], *watchers[DAEMON_MAX_CONNS];
	static int bells[DAEMON_MAX_CONNS];
	static struct dsession *timed[DAEMON_MAX_SESSIONS];

	bool listening = true;
	for (;;) {
		size_t n = 0, nt = 0;
		pfd[n++] = (struct pollfd){listening ? d->listen_fd : -1, POLLIN, 0};
		pfd[n++] = (struct pollfd){d->sigfd, POLLIN, 0};
		pfd[n++] = (struct pollfd){d->idle_timer, POLLIN, 0};
		for (struct dsession *s = d->sessions; s && nt < DAEMON_MAX_SESSIONS; s = s->next)
			if (s->rotate_timer >= 0) {
				timed[nt++] = s;
				pfd[n++] = (struct pollfd){s->rotate_timer, POLLIN, 0};
			}
		size_t nk = 0, kfds = 0;
		for (struct dsession *s = d->sessions; s && nk < DAEMON_MAX_SESSIONS; s = s->next) {
			size_t got =
			    s->kernel ? ksession_pollfds(s->kernel, pfd + n, MAX_KERNEL_FDS - kfds)
			              : 0;
			if (got)
				kern[nk++] = (typeof(kern[0])){s, n, got};
			n += got;
			kfds += got;
		}
		size_t watch_at = n, nw = 0;
		for (size_t i = 0; i < d->nconns; i++)
			if (d->conns[i]->timer >= 0) {
				watchers[nw++] = d->conns[i];
				pfd[n++] = (struct pollfd){d->conns[i]->timer, POLLIN, 0};
			}
		size_t bells_at = n, nb = 0;
		for (size_t i = 0; i < d->nconns; i++)
			if (d->conns[i]->kind == CONN_APP && d->conns[i]->app) {
				bells[nb++] = d->conns[i]->app->bell;
				pfd[n++] = (struct pollfd){d->conns[i]->app->bell, POLLIN, 0};
			}
		size_t conns_at = n, np = d->nconns;
		for (size_t i = 0; i < np; i++) {
			polled[i] = d->conns[i];
			pfd[n++] = (struct pollfd){polled[i]->fd, POLLIN, 0};
		}
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			daemon_log("poll: %s", strerror(errno));
			return -1;
		}
		if (pfd[1].revents) {
			struct signalfd_siginfo si;
			if (read(d->sigfd, &si, sizeof(si)) == sizeof(si) &&
			    (si.ssi_signo == SIGTERM || si.ssi_signo == SIGINT)) {
				daemon_log("signal %u: finishing every session", si.ssi_signo);
				return 0;
			}
		}
		/* timers first: a request served below may destroy their session */
		for (size_t i = 0; i < nt; i++)
			if (pfd[FIXED + i].revents) {
				consume(timed[i]->rotate_timer);
				session_on_timer(d, timed[i]);
			}
		bool rang = false;
		for (size_t i = 0; i < nb; i++)
			if (pfd[bells_at + i].revents) {
				app_bell_reset(bells[i]);
				rang = true;
			}
		if (rang)
			apps_drain(d);
		for (size_t i = 0; i < nk; i++)
			if (kern[i].s->kernel) {
				ksession_ready(kern[i].s->kernel, pfd + kern[i].at, kern[i].n);
				session_check_write(d, kern[i].s);
			}
		for (size_t i = 0; i < nw; i++)
			if (pfd[watch_at + i].revents && !watchers[i]->done) {
				consume(watchers[i]->timer);
				watch_tick(d, watchers[i]);
			}
		for (size_t i = 0; i < np; i++)
			if (pfd[conns_at + i].revents && !polled[i]->done)
				serve(d, polled[i]);
		listening |= close_done(d);
		if (pfd[0].revents)
			listening = accept_all(d);
		if (pfd[2].revents)
			consume(d->idle_timer);
		idle_check(d);
		listening |= close_done(d);
	}
}
