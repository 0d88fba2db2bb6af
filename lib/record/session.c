/* SPDX-License-Identifier: MIT */
/*
 * session.c: the consumer. One poll() loop over the session socket, the traced programs'
 * connections, an eventfd the programs ring when a packet is closed, and a pidfd of the
 * command: it sleeps until one of them has something, never on a timer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#include "apptrace.h"
#include "clock.h"
#include "outdir.h"
#include "record.h"
#include "spoor/spoor.h"
#include "ipc/msg.h"

#define MAX_APPS 1024

struct app {
	int fd;
	struct apptrace *trace; /* once it said hello */
	bool dead;
};

struct record_session {
	struct record_opts o;
	char *outdir;
	char sockdir[64], sockpath[128];
	int listen_fd, efd;
	struct rec_clock clock;
	char patterns[1024];
	struct app *apps[MAX_APPS];
	size_t napps;
	struct record_totals totals;
	struct ksession *kernel;
};

static void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "spoor record: warning: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int record_session_new(const struct record_opts *o, struct record_session **out, char *err,
                       size_t errlen)
{
	struct record_session *s = calloc(1, sizeof(*s));
	int rc;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->o = *o;
	s->listen_fd = s->efd = -1;
	s->outdir = strdup(o->outdir);
	size_t n = 0;
	for (size_t i = 0; i < o->npatterns; i++) {
		size_t l = strlen(o->patterns[i]) + 1;
		if (n + l >= sizeof(s->patterns)) {
			snprintf(err, errlen, "too many event patterns");
			record_session_free(s);
			return -SPOOR_EUSAGE;
		}
		memcpy(s->patterns + n, o->patterns[i], l);
		n += l;
	}
	if ((rc = outdir_mkdirs(o->outdir))) {
		snprintf(err, errlen, "%s: %s", o->outdir, strerror(-rc));
		record_session_free(s);
		return rc;
	}
	strcpy(s->sockdir, "/tmp/spoor-session-XXXXXX");
	if (!mkdtemp(s->sockdir)) {
		rc = -errno;
		s->sockdir[0] = '\0';
		snprintf(err, errlen, "cannot make the session directory: %s", strerror(errno));
		record_session_free(s);
		return rc;
	}
	snprintf(s->sockpath, sizeof(s->sockpath), "%s/session.sock", s->sockdir);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	strcpy(sa.sun_path, s->sockpath);
	s->listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	s->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->listen_fd < 0 || s->efd < 0 ||
	    bind(s->listen_fd, (struct sockaddr *) &sa, sizeof(sa)) || listen(s->listen_fd, 64)) {
		rc = -errno;
		snprintf(err, errlen, "cannot listen on %s: %s", s->sockpath, strerror(errno));
		record_session_free(s);
		return rc;
	}
	rec_clock_calibrate(&s->clock);
	if (o->kernel &&
	    (rc = ksession_start(&s->kernel, o->kernel, &s->clock, o->outdir, err, errlen))) {
		record_session_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

const char *record_session_socket(const struct record_session *s)
{
	return s->sockpath;
}

/* ---- messages ---- */

/* HELLO_REPLY with the doorbell, then the one session: slot 0, from the first event. */
static int reply_hello(struct record_session *s, struct app *a)
{
	struct proto_hello_reply r = {ipc_head(MSG_HELLO_REPLY, sizeof(r)), s->clock.kind, 1};
	struct proto_session m;

	memset(&m, 0, sizeof(m));
	m.h = ipc_head(MSG_SESSION, sizeof(m));
	m.active = 1;
	m.mode = s->o.overwrite ? 1 : 0;
	m.num_subbufs = s->o.num_subbufs;
	m.subbuf_size = s->o.subbuf_size;
	memcpy(m.uuid, apptrace_uuid(a->trace), 16);
	memcpy(m.patterns, s->patterns, sizeof(m.patterns));
	return ipc_send(a->fd, &r, sizeof(r), s->efd, 0) || ipc_send(a->fd, &m, sizeof(m), -1, 0)
	           ? -1
	           : 0;
}

static int on_hello(struct record_session *s, struct app *a, const struct proto_hello *h)
{
	char err[4400];

	if (a->trace)
		return -1; /* said hello twice */
	/* One trace per process; a process that connects again (a forked child before its
	 * exec, a reloaded runtime) gets a directory of its own. */
	char procname[17];
	memcpy(procname, h->procname, 16);
	procname[16] = '\0';
	struct apptrace_id id = {h->pid, procname, NULL};
	struct rec_buffer_geometry g = {s->o.subbuf_size, s->o.num_subbufs, s->o.overwrite,
	                                s->o.live_ns != 0};
	int rc = apptrace_open(&a->trace, s->outdir, &id, &s->clock, &g, err, sizeof(err));
	if (rc) {
		warn("%s", err);
		if (rc != -EEXIST && !s->totals.write_error) /* a process not recorded */
			s->totals.write_error = rc;
		return -1;
	}
	s->totals.processes++;
	return reply_hello(s, a);
}

static int on_events(struct record_session *s, struct app *a, const char *text, size_t len)
{
	char err[4400];

	if (!a->trace)
		return -1;
	int rc = apptrace_events(a->trace, text, len, err, sizeof(err));
	if (rc) {
		warn("%s", err);
		if (rc != -EPROTO && !s->totals.write_error) /* disk full: spoor's own failure */
			s->totals.write_error = rc;
		return -1;
	}
	return 0;
}

static int on_buffer(struct record_session *s, struct app *a, const struct proto_buffer *b, int fd)
{
	char err[4400];

	if (!a->trace || fd < 0 || b->slot != 0)
		return -1;
	int rc = apptrace_add_buffer(a->trace, fd, b->tid, err, sizeof(err));
	if (rc == -EINVAL)
		warn("%s", err); /* the program goes on; this thread is not recorded */
	else if (rc)
		return -1;
	else
		s->totals.buffers++;
	return 0;
}

/* One message from a program: 1 handled, 0 none waiting, -1 the program hung up or
 * misbehaved (it is dropped; its data so far is kept). */
static int on_message(struct record_session *s, struct app *a)
{
	static char buf[PROTO_MAX_MSG];
	int fd;
	ssize_t n = ipc_recv(a->fd, buf, sizeof(buf), &fd, MSG_DONTWAIT);

	if (n <= 0)
		return n < 0 && errno == EAGAIN ? 0 : -1;
	const struct proto_head *h = (const struct proto_head *) buf;
	int rc = -1;
	if (!ipc_head_ok(buf, (size_t) n)) {
		warn("a traced program sent a malformed message; dropping it");
	} else if (h->type == MSG_HELLO && n == sizeof(struct proto_hello)) {
		rc = on_hello(s, a, (const struct proto_hello *) buf);
	} else if (h->type == MSG_EVENTS) {
		rc = on_events(s, a, buf + sizeof(*h), (size_t) n - sizeof(*h));
	} else if (h->type == MSG_BUFFER && n == sizeof(struct proto_buffer)) {
		rc = on_buffer(s, a, (const struct proto_buffer *) buf, fd);
	}
	if (fd >= 0)
		close(fd);
	return rc < 0 ? -1 : 1;
}

/* Every message a program has queued; one that hung up or misbehaved is marked dead. */
static void take_messages(struct record_session *s, struct app *a)
{
	int rc;
	while (!a->dead && (rc = on_message(s, a)) != 0)
		a->dead = rc < 0;
}

/* Every registration queued: before the live watcher reads what was written, so that the
 * metadata of every event in the data is on disk too. */
static void take_all_messages(struct record_session *s)
{
	for (size_t i = 0; i < s->napps; i++)
		take_messages(s, s->apps[i]);
}

/* ---- the loop ---- */

static void app_finish(struct record_session *s, struct app *a)
{
	apptrace_close(a->trace, &s->totals);
	if (a->fd >= 0)
		close(a->fd);
	free(a);
}

static void drain_all(struct record_session *s)
{
	uint64_t count;
	ssize_t r = read(s->efd, &count, sizeof(count)); /* reset the doorbell */
	(void) r;
	if (s->o.overwrite)
		return; /* the flight recorder is read at the end */
	for (size_t i = 0; i < s->napps; i++)
		if (s->apps[i]->trace)
			apptrace_drain(s->apps[i]->trace, false, &s->totals);
}

static void accept_apps(struct record_session *s)
{
	int fd;

	while ((fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)) >= 0) {
		struct app *a = s->napps < MAX_APPS ? calloc(1, sizeof(*a)) : NULL;
		if (!a) {
			warn("too many traced processes; one is not recorded");
			close(fd);
			continue;
		}
		a->fd = fd;
		s->apps[s->napps++] = a;
	}
}

/* A timerfd for --duration, or, periodic, for live flushes; -1 for none. */
static int make_timer(uint64_t ns, bool periodic)
{
	if (!ns)
		return -1;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	struct timespec t = {(time_t) (ns / 1000000000u), (long) (ns % 1000000000u)};
	struct itimerspec it = {.it_value = t};
	if (periodic)
		it.it_interval = t;
	if (fd >= 0 && timerfd_settime(fd, 0, &it, NULL)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Live: everything the buffers hold goes out, then the watcher reads it. */
static int live_tick(struct record_session *s, int fd)
{
	uint64_t expirations;
	ssize_t r = read(fd, &expirations, sizeof(expirations));
	(void) r;
	int64_t flushed = rec_clock_now_ns(&s->clock);
	drain_all(s);
	for (size_t i = 0; i < s->napps; i++)
		if (s->apps[i]->trace)
			apptrace_flush_open(s->apps[i]->trace, &s->totals);
	/* Registrations after the data: a program sends one (a provider it dlopen()ed) before
	 * it emits the events, so every event just written has its registration queued by
	 * now, and its metadata is on disk before the watcher reads. */
	take_all_messages(s);
	if (s->kernel)
		ksession_flush(s->kernel);
	return s->o.on_live(s->o.live_arg, flushed);
}

#define FIXED_FDS      5
#define MAX_KERNEL_FDS 1024

int record_session_run(struct record_session *s, pid_t child, volatile sig_atomic_t *stop)
{
	int pidfd = child > 0 ? (int) syscall(SYS_pidfd_open, child, 0) : -1;
	bool done = child > 0 && pidfd < 0;
	int timer = make_timer(s->o.duration_ns, false);
	int live = s->o.on_live ? make_timer(s->o.live_ns, true) : -1;
	static struct pollfd pfd[FIXED_FDS + MAX_KERNEL_FDS + MAX_APPS];
	int more = 0; /* the watcher has events left to handle */

	while (!done && !*stop) {
		size_t n = 0;
		pfd[n++] = (struct pollfd){s->listen_fd, POLLIN, 0};
		pfd[n++] = (struct pollfd){s->efd, POLLIN, 0};
		pfd[n++] = (struct pollfd){pidfd, POLLIN, 0};
		pfd[n++] = (struct pollfd){timer, POLLIN, 0};
		pfd[n++] = (struct pollfd){live, POLLIN, 0};
		size_t nk = s->kernel ? ksession_pollfds(s->kernel, pfd + n, MAX_KERNEL_FDS) : 0;
		n += nk;
		size_t apps_at = n;
		for (size_t i = 0; i < s->napps; i++)
			pfd[n++] = (struct pollfd){s->apps[i]->fd, POLLIN, 0};
		int ready = poll(pfd, n, more ? 0 : -1);
		if (ready < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (more && !pfd[4].revents) {
			take_all_messages(s); /* the data drained since may hold new events */
			more = s->o.on_live(s->o.live_arg, INT64_MIN);
			done |= (more & RECORD_LIVE_STOP) != 0;
		}
		if (pfd[0].revents)
			accept_apps(s);
		if (pfd[1].revents)
			drain_all(s);
		if (pfd[2].revents || pfd[3].revents)
			done = true;
		if (pfd[4].revents) {
			more = live_tick(s, live);
			done |= (more & RECORD_LIVE_STOP) != 0;
		}
		if (nk)
			ksession_ready(s->kernel, pfd + FIXED_FDS, nk);
		for (size_t k = apps_at; k < n; k++)
			if (pfd[k].revents)
				take_messages(s, s->apps[k - apps_at]);
		size_t kept = 0;
		for (size_t i = 0; i < s->napps; i++) {
			if (s->apps[i]->dead)
				app_finish(s, s->apps[i]);
			else
				s->apps[kept++] = s->apps[i];
		}
		s->napps = kept;
	}
	/* The command is gone (or we were asked to stop): take the messages still queued,
	 * then everything the buffers hold, packets in progress included. */
	accept_apps(s);
	for (size_t i = 0; i < s->napps; i++) {
		take_messages(s, s->apps[i]);
		app_finish(s, s->apps[i]);
		s->apps[i] = NULL;
	}
	s->napps = 0;
	if (s->kernel) {
		ksession_stop(s->kernel, &s->totals.k);
		s->totals.kernel = true;
	}
	if (pidfd >= 0)
		close(pidfd);
	if (timer >= 0)
		close(timer);
	if (live >= 0)
		close(live);
	return 0;
}

int64_t record_session_now_ns(const struct record_session *s)
{
	return rec_clock_now_ns(&s->clock);
}

const struct rec_clock *record_session_clock(const struct record_session *s)
{
	return &s->clock;
}

void record_session_totals(const struct record_session *s, struct record_totals *t)
{
	*t = s->totals;
}

void record_session_free(struct record_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->napps; i++)
		app_finish(s, s->apps[i]);
	ksession_free(s->kernel);
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	if (s->efd >= 0)
		close(s->efd);
	if (s->sockpath[0])
		unlink(s->sockpath);
	if (s->sockdir[0])
		rmdir(s->sockdir);
	free(s->outdir);
	free(s);
}
