/* SPDX-License-Identifier: MIT */
/*
 * apps.c: the traced programs registered with the daemon (lib/ipc/proto.h). A program is
 * shared by the sessions that may trace it: each holds a slot in it, and per (program,
 * session) one trace (record/apptrace.h), opened when the slot's first ring buffer comes.
 * Everything a program sends is untrusted: sizes are checked, and the texts and buffers
 * one program can make the daemon keep are bounded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <sys/uio.h>
#include <unistd.h>

#include "dstate.h"
#include "record/apptrace.h"
#include "record/events.h"
#include "sessions.h"

struct app_slot *slot_next(const struct daemon *d, const struct dsession *s, struct app **a,
                           size_t *it)
{
	for (; *it < d->nconns * PROTO_MAX_SLOTS; ++*it) {
		const struct dconn *c = d->conns[*it / PROTO_MAX_SLOTS];
		struct app_slot *sl =
		    c->kind == CONN_APP && c->app ? &c->app->slots[*it % PROTO_MAX_SLOTS] : NULL;
		if (sl && sl->s == s) {
			*a = c->app;
			++*it;
			return sl;
		}
	}
	return NULL;
}

static int find_slot(const struct app *a, const struct dsession *s)
{
	for (int i = 0; i < PROTO_MAX_SLOTS; i++)
		if (a->slots[i].s == s)
			return i;
	return -1;
}

static int send_session(struct dconn *c, int slot)
{
	const struct app_slot *sl = &c->app->slots[slot];
	const struct dsession *s = sl->s;
	struct proto_session m;
	memset(&m, 0, sizeof(m));
	m.h = (struct proto_head){PROTO_MAGIC, PROTO_VERSION, MSG_SESSION, sizeof(m)};
	m.slot = (uint32_t) slot;
	m.active = session_active(s);
	m.mode = s->overwrite ? 1 : 0;
	m.num_subbufs = s->num_subbufs;
	m.subbuf_size = s->subbuf_size;
	memcpy(m.uuid, sl->uuid, 16);
	memcpy(m.patterns, s->patterns, sizeof(m.patterns));
	return dconn_send(c, &m, sizeof(m), -1);
}

/* A free slot of a for s, with a new trace uuid; -1 when all are taken. */
static int take_slot(struct app *a, struct dsession *s)
{
	for (int k = 0; k < PROTO_MAX_SLOTS; k++) {
		int i = (int) ((a->next_slot + (unsigned) k) % PROTO_MAX_SLOTS);
		if (!a->slots[i].s) {
			a->next_slot = (unsigned) i + 1;
			struct app_slot *sl = &a->slots[i];
			*sl = (struct app_slot){.s = s};
			if (getrandom(sl->uuid, 16, 0) != 16)
				return -1;
			sl->uuid[6] = (uint8_t) ((sl->uuid[6] & 0x0f) | 0x40); /* version 4 */
			sl->uuid[8] = (uint8_t) ((sl->uuid[8] & 0x3f) | 0x80);
			return i;
		}
	}
	return -1;
}

/* Should s be in the program a? */
static bool wants(const struct dsession *s, const struct app *a)
{
	return s->patterns_len && s->state != SESSION_FAILED && session_may_trace(s, a->uid);
}

static int on_hello(struct daemon *d, struct dconn *c, const struct proto_hello *h)
{
	unsigned of_uid = 0; /* one user cannot take every connection from the others */
	for (size_t i = 0; i < d->nconns; i++)
		of_uid += d->conns[i]->kind == CONN_APP && d->conns[i]->app &&
		          d->conns[i]->app->uid == c->cr.uid;
	if (c->cr.uid != 0 && of_uid >= UID_MAX_APPS) {
		daemon_log("uid %u has %u programs registered: pid %d refused",
		           (unsigned) c->cr.uid, of_uid, (int) c->cr.pid);
		return -1;
	}
	struct app *a = calloc(1, sizeof(*a));
	if (!a)
		return -1;
	a->bell = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (a->bell < 0) {
		free(a);
		return -1;
	}
	/* who it is: the kernel's word (SO_PEERCRED) over the program's */
	a->pid = c->cr.pid > 0 ? c->cr.pid : h->pid;
	a->uid = c->cr.uid;
	memcpy(a->procname, h->procname, 16);
	for (char *p = a->procname; *p; p++)
		if (*p == '/' || *p == ' ' || (unsigned char) *p < 0x20 ||
		    (unsigned char) *p > 0x7e)
			*p = '_';
	if (!a->procname[0])
		strcpy(a->procname, "unknown");
	c->app = a;
	uint32_t n = 0;
	for (struct dsession *s = d->sessions; s; s = s->next)
		if (wants(s, a) && take_slot(a, s) >= 0)
			n++;
	struct proto_hello_reply r = {
	    {PROTO_MAGIC, PROTO_VERSION, MSG_HELLO_REPLY, sizeof(r)}, d->clock.kind, n};
	if (dconn_send(c, &r, sizeof(r), a->bell))
		return -1;
	for (int i = 0; i < PROTO_MAX_SLOTS; i++)
		if (a->slots[i].s && send_session(c, i))
			return -1;
	return 0;
}

/* The recorder's warnings about a session's trace, into the daemon's log. */
static void say(void *arg, const char *text)
{
	daemon_log("session %s: %s", ((const struct dsession *) arg)->name, text);
}

/* as the session's owner */
static int open_trace(struct daemon *d, struct app *a, struct app_slot *sl)
{
	struct dsession *s = sl->s;
	char err[300];
	struct apptrace_id id = {a->pid, a->procname, sl->uuid};
	struct rec_buffer_geometry g = {s->subbuf_size, s->num_subbufs, s->overwrite,
	                                !s->overwrite};
	int rc = apptrace_open(&sl->t, s->outdir, &id, &d->clock, &g, err, sizeof(err));
	if (!rc)
		apptrace_set_log(sl->t, &(struct rec_log){say, s});
	if (!rc && a->events_len)
		rc = apptrace_events(sl->t, a->events, a->events_len, err, sizeof(err));
	if (rc) {
		daemon_log("session %s: %s (pid %d): %s", s->name, a->procname, a->pid, err);
		if (!s->totals.write_error && rc != -EPROTO && rc != -EINVAL)
			s->totals.write_error = rc; /* the disk, not the program */
		sl->failed = true;
		return -1;
	}
	s->totals.processes++;
	return 0;
}

static int on_buffer(struct daemon *d, struct app *a, const struct proto_buffer *b, int fd)
{
	if (fd < 0 || b->slot >= PROTO_MAX_SLOTS || !a->slots[b->slot].s) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	struct app_slot *sl = &a->slots[b->slot];
	struct dsession *s = sl->s;
	if (sl->failed || sl->buffers >= APP_MAX_BUFFERS) {
		close(fd); /* the program goes on; this thread is not recorded */
		return 0;
	}
	char err[300];
	int rc = 0;
	fsuid_begin(d, s);
	if (!sl->t)
		rc = open_trace(d, a, sl);
	if (!rc && apptrace_add_buffer(sl->t, fd, b->tid, err, sizeof(err)))
		daemon_log("session %s: %s (pid %d): ring buffer of thread %d refused: %s", s->name,
		           a->procname, a->pid, b->tid, err);
	else if (!rc)
		sl->buffers++;
	fsuid_end(d);
	close(fd);
	session_check_write(d, s);
	return 0;
}

static int on_events(struct daemon *d, struct app *a, const char *text, size_t len)
{
	char err[300];
	struct rec_events check = {0};
	size_t of_uid = len; /* one user's programs cannot hold the daemon's memory either */
	for (size_t i = 0; i < d->nconns; i++)
		if (d->conns[i]->kind == CONN_APP && d->conns[i]->app &&
		    d->conns[i]->app->uid == a->uid)
			of_uid += d->conns[i]->app->events_len;
	if (a->events_len + len > APP_MAX_EVENTS_TEXT || of_uid > UID_MAX_EVENTS_TEXT) {
		daemon_log("%s (pid %d) describes too many events; dropping it", a->procname,
		           a->pid);
		return -1;
	}
	int rc = rec_events_parse(&check, text, len, err, sizeof(err));
	rec_events_free(&check);
	if (rc) {
		daemon_log("%s (pid %d) sent invalid event descriptions: %s", a->procname, a->pid,
		           err);
		return -1;
	}
	char *more = realloc(a->events, a->events_len + len);
	if (!more && len)
		return -1;
	a->events = more;
	memcpy(a->events + a->events_len, text, len);
	a->events_len += len;
	for (int i = 0; i < PROTO_MAX_SLOTS; i++) {
		struct app_slot *sl = &a->slots[i];
		if (!sl->t)
			continue;
		fsuid_begin(d, sl->s);
		if (apptrace_events(sl->t, text, len, err, sizeof(err)))
			daemon_log("session %s: %s (pid %d): %s", sl->s->name, a->procname, a->pid,
			           err);
		fsuid_end(d);
		session_check_write(d, sl->s);
	}
	return 0;
}

int app_on_message(struct daemon *d, struct dconn *c, const void *msg, size_t len, int fd)
{
	struct proto_head h;
	memcpy(&h, msg, sizeof(h)); /* conn.c checked the length */
	bool well_formed = h.magic == PROTO_MAGIC && h.version == PROTO_VERSION && h.length == len;
	if (!c->app) { /* HELLO first, once */
		if (fd >= 0)
			close(fd);
		if (!well_formed || h.type != MSG_HELLO || len != sizeof(struct proto_hello))
			return -1;
		struct proto_hello hello;
		memcpy(&hello, msg, sizeof(hello));
		return on_hello(d, c, &hello);
	}
	if (well_formed && h.type == MSG_BUFFER && len == sizeof(struct proto_buffer)) {
		struct proto_buffer b;
		memcpy(&b, msg, sizeof(b));
		return on_buffer(d, c->app, &b, fd);
	}
	if (fd >= 0)
		close(fd);
	if (well_formed && h.type == MSG_EVENTS)
		return on_events(d, c->app, (const char *) msg + sizeof(h), len - sizeof(h));
	daemon_log("%s (pid %d) sent a malformed message; dropping it", c->app->procname,
	           c->app->pid);
	return -1;
}

/* The trace of one slot finished (the program is gone, or the session is). */
/* A flight recorder's trace of a program that ended, kept for the next snapshots. */
static void keep_ended(struct daemon *d, struct dsession *s, const struct app *a,
                       struct apptrace *t)
{
	if (s->nended == SESSION_MAX_ENDED) { /* the oldest goes to OUTDIR */
		fsuid_begin(d, s);
		apptrace_close(s->ended[0].t, &s->totals);
		fsuid_end(d);
		memmove(s->ended, s->ended + 1, (SESSION_MAX_ENDED - 1) * sizeof(s->ended[0]));
		s->nended--;
		session_check_write(d, s);
	}
	struct ended *e = &s->ended[s->nended++];
	e->t = t;
	e->pid = a->pid;
	memcpy(e->procname, a->procname, sizeof(e->procname));
}

void apps_close_ended(struct daemon *d, struct dsession *s)
{
	fsuid_begin(d, s);
	for (size_t i = 0; i < s->nended; i++)
		apptrace_close(s->ended[i].t, &s->totals);
	fsuid_end(d);
	s->nended = 0;
	session_check_write(d, s);
}

static void close_slot(struct daemon *d, struct app_slot *sl)
{
	if (sl->t) {
		fsuid_begin(d, sl->s);
		apptrace_close(sl->t, &sl->s->totals);
		fsuid_end(d);
		session_check_write(d, sl->s);
	}
	*sl = (struct app_slot){0};
}

void app_gone(struct daemon *d, struct dconn *c)
{
	struct app *a = c->app;
	if (!a)
		return;
	for (int i = 0; i < PROTO_MAX_SLOTS; i++) {
		struct app_slot *sl = &a->slots[i];
		if (sl->s && sl->t && sl->s->overwrite && sl->s->state != SESSION_FAILED) {
			keep_ended(d, sl->s, a, sl->t);
			*sl = (struct app_slot){0};
		} else if (sl->s) {
			close_slot(d, sl);
		}
	}
	close(a->bell);
	free(a->events);
	free(a);
	c->app = NULL;
}

void apps_update_session(struct daemon *d, struct dsession *s)
{
	for (size_t i = 0; i < d->nconns; i++) {
		struct dconn *c = d->conns[i];
		if (c->kind != CONN_APP || !c->app || c->done)
			continue;
		int slot = find_slot(c->app, s);
		if (slot < 0 && wants(s, c->app))
			slot = take_slot(c->app, s);
		if (slot >= 0 && send_session(c, slot))
			c->done = true; /* a program that does not read its socket */
	}
}

void apps_drop_session(struct daemon *d, struct dsession *s)
{
	bool was_active = session_active(s);
	s->state = SESSION_STOPPED;
	for (size_t i = 0; i < d->nconns; i++) {
		struct dconn *c = d->conns[i];
		int slot = c->kind == CONN_APP && c->app ? find_slot(c->app, s) : -1;
		if (slot < 0)
			continue;
		if (was_active && !c->done && send_session(c, slot))
			c->done = true;
		close_slot(d, &c->app->slots[slot]);
		struct proto_session_end e = {
		    {PROTO_MAGIC, PROTO_VERSION, MSG_SESSION_END, sizeof(e)}, (uint32_t) slot, 0};
		if (!c->done && dconn_send(c, &e, sizeof(e), -1))
			c->done = true;
	}
}

void app_bell_reset(int bell)
{
	uint64_t count;
	struct iovec v = {&count, sizeof(count)};
	/* RWF_NOWAIT: never blocks, whatever the program did to the file's O_NONBLOCK */
	if (preadv2(bell, &v, 1, -1, RWF_NOWAIT) < 0 && errno == EOPNOTSUPP) {
		fcntl(bell, F_SETFL, O_NONBLOCK); /* before Linux 5.12: the best there is */
		if (read(bell, &count, sizeof(count)) < 0)
			count = 0;
	}
}

void apps_drain(struct daemon *d)
{
	for (size_t i = 0; i < d->nconns; i++) {
		struct app *a = d->conns[i]->kind == CONN_APP ? d->conns[i]->app : NULL;
		for (int k = 0; a && k < PROTO_MAX_SLOTS; k++) {
			struct app_slot *sl = &a->slots[k];
			if (!sl->t || sl->s->overwrite || sl->s->state == SESSION_FAILED)
				continue;
			fsuid_begin(d, sl->s);
			apptrace_drain(sl->t, false, &sl->s->totals);
			fsuid_end(d);
		}
	}
	for (struct dsession *s = d->sessions; s; s = s->next) {
		session_check_write(d, s);
		session_rotate_if_full(d, s);
	}
}

void apps_flush_session(struct daemon *d, struct dsession *s)
{
	if (s->overwrite)
		return; /* a flight recorder's rings are read by a snapshot, or at the end */
	struct app *a;
	size_t it = 0;
	fsuid_begin(d, s);
	for (struct app_slot *sl; (sl = slot_next(d, s, &a, &it));)
		if (sl->t) {
			apptrace_drain(sl->t, false, &s->totals);
			apptrace_flush_open(sl->t, &s->totals);
		}
	fsuid_end(d);
	session_check_write(d, s);
}
