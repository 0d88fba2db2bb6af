/* SPDX-License-Identifier: MIT */
/*
 * conn.c: the daemon's connections, without their sockets: each message is handed over as
 * bytes (and a passed fd), and goes to the programs' side (HELLO first: apps.c) or to the
 * control side (MSG_CTL_REQUEST first: verbs.c). What a connection is decides once, at its
 * first message; anything malformed closes it.
 */
#include <errno.h>
#include <grp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "dstate.h"
#include "ipc/msg.h"

int64_t daemon_mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t) t.tv_sec * 1000000000 + t.tv_nsec;
}

void daemon_log(const char *fmt, ...)
{
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s spoor daemon: ", when);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

struct daemon *daemon_new(void)
{
	struct daemon *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->listen_fd = d->sigfd = d->idle_timer = -1;
	d->is_root = geteuid() == 0;
	struct group *g = getgrnam("tracing");
	if (g) {
		d->tracing_gid = g->gr_gid;
		d->have_tracing = true;
	}
	rec_clock_calibrate(&d->clock);
	return d;
}

void daemon_free(struct daemon *d)
{
	if (!d)
		return;
	while (d->sessions)
		session_finish(d, d->sessions);
	while (d->nconns)
		daemon_conn_gone(d, d->conns[d->nconns - 1]);
	for (int *fd = &d->listen_fd; fd <= &d->idle_timer; fd++)
		if (*fd >= 0)
			close(*fd);
	free(d);
}

struct dconn *daemon_conn_add(struct daemon *d, int fd, const struct daemon_creds *cr)
{
	struct dconn *c = d->nconns < DAEMON_MAX_CONNS ? calloc(1, sizeof(*c)) : NULL;
	if (!c) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	c->fd = fd;
	c->timer = -1;
	c->cr = *cr;
	c->since_ns = daemon_mono_ns();
	d->conns[d->nconns++] = c;
	return c;
}

void daemon_conn_gone(struct daemon *d, struct dconn *c)
{
	if (c->kind == CONN_APP)
		app_gone(d, c);
	if (c->fd >= 0)
		close(c->fd);
	if (c->timer >= 0)
		close(c->timer);
	for (size_t i = 0; i < d->nconns; i++)
		if (d->conns[i] == c) {
			d->conns[i] = d->conns[--d->nconns];
			break;
		}
	free(c);
}

/* c, a new control connection, is one too many of its uid's (watchers count: they stay) */
static bool ctl_over_cap(const struct daemon *d, const struct dconn *c)
{
	unsigned of_uid = 0;
	for (size_t i = 0; i < d->nconns && c->cr.uid != 0; i++)
		of_uid += d->conns[i] != c && d->conns[i]->cr.uid == c->cr.uid &&
		          (d->conns[i]->kind == CONN_CTL || d->conns[i]->kind == CONN_WATCH);
	if (of_uid < UID_MAX_CTL)
		return false;
	daemon_log("uid %u has %u control connections: pid %d refused", (unsigned) c->cr.uid,
	           of_uid, (int) c->cr.pid);
	return true;
}

int daemon_conn_message(struct daemon *d, struct dconn *c, const void *msg, size_t len,
                        int passed_fd)
{
	struct proto_head h;
	int rc = -1;

	if (len >= sizeof(h)) {
		memcpy(&h, msg, sizeof(h));
		if (h.magic != PROTO_MAGIC || h.version != PROTO_VERSION || h.length != len)
			h.type = 0; /* malformed, or of a version this daemon does not speak */
		if (c->kind == CONN_NEW)
			c->kind = h.type == MSG_HELLO         ? CONN_APP
			          : h.type == MSG_CTL_REQUEST ? CONN_CTL
			                                      : CONN_NEW;
		if (c->kind == CONN_CTL && h.type == MSG_CTL_REQUEST && ctl_over_cap(d, c))
			h.type = 0; /* closed unanswered */
		if (c->kind == CONN_APP) {
			rc = app_on_message(d, c, msg, len, passed_fd);
			passed_fd = -1;
		} else if (c->kind == CONN_CTL && h.type == MSG_CTL_REQUEST) {
			rc = ctl_on_message(d, c, msg, len);
		} /* a watcher says nothing: anything closes it */
	}
	if (passed_fd >= 0)
		close(passed_fd);
	return rc;
}

int dconn_send(struct dconn *c, const void *msg, size_t len, int fd)
{
	return c->fd < 0 ? 0 : ipc_send(c->fd, msg, len, fd, MSG_DONTWAIT);
}
