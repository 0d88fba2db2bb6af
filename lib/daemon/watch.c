/* SPDX-License-Identifier: MIT */
/*
 * watch.c: a live reader of a running session (`spoor watch --session NAME`). The request
 * `verb watch`, `name NAME` [, `period-ns NS`] keeps its connection: the first reply says
 * `trace DIR`; then, every period, the daemon writes out what the session's buffers hold
 * (packets in progress too, as `spoor watch -- CMD` does) and the programs' registrations
 * queued by then, and sends a reply `flushed NS`: every event stamped before NS (the
 * session clock's ns, read before the buffers were) is on disk, but for any a thread had
 * stamped and not yet committed. When the session stops or ends, the reply `end`, and the
 * connection closes. A watcher that does not keep up misses watermarks, never blocks the
 * daemon: the next one says more. The watcher hanging up leaves the session running.
 * Live reading of a flight recorder (--overwrite) is refused: take snapshots.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "dstate.h"
#include "ipc/ctl.h"
#include "kernel/ksession.h"
#include "sessions.h"

#define WATCH_MIN_NS     1000000ll    /* 1 ms */
#define WATCH_MAX_NS     1000000000ll /* 1 s */
#define WATCH_DEFAULT_NS 20000000ll

static void say(struct dconn *c, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(struct dconn *c, int status, const char *fmt, ...)
{
	char text[PATH_MAX + 64], msg[sizeof(text) + sizeof(struct ctl_reply_head)];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	size_t len = n < 0 ? 0 : (size_t) n < sizeof(text) ? (size_t) n : sizeof(text) - 1;
	size_t m = status ? ctl_reply_build(msg, sizeof(msg), status, NULL, 0, text, len)
	                  : ctl_reply_build(msg, sizeof(msg), 0, text, len, NULL, 0);
	dconn_send(c, msg, m, -1);
}

int watch_begin(struct daemon *d, struct dconn *c, struct dsession *s, uint64_t period_ns,
                char *err, size_t errlen)
{
	if (s->overwrite) {
		snprintf(err, errlen,
		         "session %s is a flight recorder (--overwrite): it cannot be "
		         "read live; take snapshots (spoor session snapshot %s)",
		         s->name, s->name);
		return -1;
	}
	if (s->state != SESSION_STARTED) {
		snprintf(err, errlen, "session %s is not started", s->name);
		return -1;
	}
	if (!period_ns)
		period_ns = WATCH_DEFAULT_NS;
	if (period_ns < WATCH_MIN_NS || period_ns > WATCH_MAX_NS) {
		snprintf(err, errlen, "a watch period is from 1ms to 1s");
		return -1;
	}
	c->timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	struct timespec t = {(time_t) (period_ns / 1000000000u), (long) (period_ns % 1000000000u)};
	struct itimerspec it = {t, t};
	if (c->timer < 0 || timerfd_settime(c->timer, 0, &it, NULL)) {
		snprintf(err, errlen, "timer: %s", strerror(errno));
		return -1;
	}
	c->kind = CONN_WATCH;
	c->watched = s;
	say(c, 0, "trace %s\n", s->outdir);
	daemon_log("session %s: watched by pid %d", s->name, (int) c->cr.pid);
	return 0;
}

void watch_tick(struct daemon *d, struct dconn *c)
{
	struct dsession *s = c->watched;
	if (!s)
		return;
	int64_t flushed = rec_clock_now_ns(&d->clock);
	apps_flush_session(d, s);
	if (s->kernel)
		ksession_flush(s->kernel);
	/* a program registers its events before it emits them: every event just written
	 * has its registration queued by now, and its metadata goes to disk before the
	 * watcher reads */
	server_take_registrations(d);
	if (s->state == SESSION_STARTED)
		say(c, 0, "flushed %" PRId64 "\n", flushed);
	else
		watch_end(d, s);
}

void watch_end(struct daemon *d, struct dsession *s)
{
	for (size_t i = 0; i < d->nconns; i++) {
		struct dconn *c = d->conns[i];
		if (c->kind != CONN_WATCH || c->watched != s)
			continue;
		if (s->state == SESSION_FAILED)
			say(c, 1, "%s\n", s->error);
		say(c, 0, "end\n");
		c->watched = NULL;
		c->done = true;
	}
}
