/* SPDX-License-Identifier: MIT */
/*
 * sessions.c: the daemon's sessions: who may see and drive one, its output directory
 * (made as its owner), its states (created → started ⇄ stopped; failed when its trace
 * cannot be written), and its end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <time.h>
#include <sys/fsuid.h>
#include <unistd.h>

#include "dstate.h"
#include "kernel/ksession.h"
#include "record/outdir.h"
#include "sessions.h"

struct dsession *session_find(struct daemon *d, const char *name, const struct daemon_creds *cr)
{
	struct dsession *other = NULL;
	for (struct dsession *s = d->sessions; s; s = s->next) {
		if (strcmp(s->name, name))
			continue;
		if (s->owner == cr->uid)
			return s;
		if (cr->uid == 0 && !other)
			other = s; /* root reaches a user's session when it has none of that name */
	}
	return other;
}

bool session_may_trace(const struct dsession *s, uid_t uid)
{
	return s->privileged || s->owner == uid;
}

bool session_active(const struct dsession *s)
{
	return s->state == SESSION_STARTED && s->patterns_len > 0;
}

/* the owner's supplementary groups are in force (the daemon runs with none of its own) */
static bool owner_groups;

void fsuid_begin(const struct daemon *d, const struct dsession *s)
{
	if (d->is_root && s->owner != 0) {
		if (s->ngroups && !setgroups(s->ngroups, s->groups))
			owner_groups = true;
		setfsgid(s->owner_gid);
		setfsuid(s->owner);
	}
}

void fsuid_end(const struct daemon *d)
{
	if (d->is_root) {
		setfsuid(0);
		setfsgid(0);
		if (owner_groups && setgroups(0, NULL))
			daemon_log("setgroups: %s", strerror(errno));
		owner_groups = false;
	}
}

bool session_name_valid(const char *name)
{
	size_t n = strlen(name);
	if (!n || n > SESSION_NAME_MAX || name[0] == '.' || name[0] == '-')
		return false;
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (*c >= '0' && *c <= '9') || *c == '_' || *c == '-' || *c == '.'))
			return false;
	return true;
}

/* The output directory, as the owner: -o DIR new or empty, or the default made unique. */
static int make_outdir(struct daemon *d, struct dsession *s, const struct session_params *p,
                       char *err, size_t errlen)
{
	int rc;
	fsuid_begin(d, s);
	if (p->unique) {
		char parent[PATH_MAX];
		snprintf(parent, sizeof(parent), "%s", p->outdir);
		char *slash = strrchr(parent, '/');
		if (slash && slash != parent)
			*slash = '\0';
		rc = outdir_mkdirs(parent);
		if (!rc)
			rc = outdir_make_unique(p->outdir, s->outdir, sizeof(s->outdir));
		if (rc)
			snprintf(err, errlen, "%s: %s", p->outdir, strerror(-rc));
	} else {
		struct outdir o;
		snprintf(s->outdir, sizeof(s->outdir), "%s", p->outdir);
		rc = outdir_claim(s->outdir, false, &o, err, errlen);
	}
	fsuid_end(d);
	return rc;
}

struct dsession *session_create(struct daemon *d, const struct daemon_creds *cr,
                                const struct session_params *p, char *err, size_t errlen)
{
	size_t mine = 0;
	for (struct dsession *s = d->sessions; s; s = s->next) {
		if (s->owner == cr->uid && !strcmp(s->name, p->name)) {
			snprintf(err, errlen, "a session named '%s' exists", p->name);
			return NULL;
		}
		mine += s->owner == cr->uid;
	}
	if (d->nsessions >= DAEMON_MAX_SESSIONS || mine >= DAEMON_MAX_SESSIONS / 4) {
		snprintf(err, errlen, "too many sessions (destroy some first)");
		return NULL;
	}
	struct dsession *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(s->name, sizeof(s->name), "%s", p->name);
	s->owner = cr->uid;
	s->owner_gid = cr->gid;
	s->privileged = cr->privileged;
	if (p->ngroups && p->ngroups <= SESSION_MAX_GROUPS) { /* groups may be NULL when none */
		memcpy(s->groups, p->groups, p->ngroups * sizeof(gid_t));
		s->ngroups = p->ngroups;
	}
	s->overwrite = p->overwrite;
	s->subbuf_size = p->subbuf_size;
	s->num_subbufs = p->num_subbufs;
	s->rotate_bytes = p->rotate_bytes;
	s->rotate_ns = p->rotate_ns;
	s->kbuffer_kb = p->kbuffer_kb;
	s->klayout = p->klayout;
	s->created = time(NULL);
	s->rotate_timer = -1;
	if (make_outdir(d, s, p, err, errlen)) {
		free(s);
		return NULL;
	}
	s->next = d->sessions;
	d->sessions = s;
	d->nsessions++;
	daemon_log("session %s of uid %u created: %s", s->name, (unsigned) s->owner, s->outdir);
	return s;
}

/* Is pattern among the NUL-separated ones? Its offset, or -1. */
static long find_pattern(const struct dsession *s, const char *pattern)
{
	for (size_t at = 0; at < s->patterns_len; at += strlen(s->patterns + at) + 1)
		if (!strcmp(s->patterns + at, pattern))
			return (long) at;
	return -1;
}

int session_enable_user(struct daemon *d, struct dsession *s, const char *const *pats, size_t n,
                        char *err, size_t errlen)
{
	size_t len = s->patterns_len;
	char copy[sizeof(s->patterns)];
	memcpy(copy, s->patterns, sizeof(copy));
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(pats[i]) + 1;
		if (l == 1 || l > 256) {
			snprintf(err, errlen, "invalid event pattern '%s'", pats[i]);
			return -1;
		}
		if (find_pattern(s, pats[i]) >= 0)
			continue;
		if (s->patterns_len + l >= sizeof(s->patterns)) { /* a NUL ends the list */
			memcpy(s->patterns, copy, sizeof(copy));
			s->patterns_len = len;
			snprintf(err, errlen, "too many event patterns in session %s", s->name);
			return -1;
		}
		memcpy(s->patterns + s->patterns_len, pats[i], l);
		s->patterns_len += l;
	}
	apps_update_session(d, s);
	return 0;
}

int session_disable_user(struct daemon *d, struct dsession *s, const char *const *pats, size_t n,
                         bool all, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		if (find_pattern(s, pats[i]) < 0) {
			snprintf(err, errlen,
			         "'%s' is not enabled in session %s (see spoor session "
			         "list %s)",
			         pats[i], s->name, s->name);
			return -1;
		}
	for (size_t i = 0; i < n; i++) {
		long at = find_pattern(s, pats[i]);
		size_t l = strlen(pats[i]) + 1;
		memmove(s->patterns + at, s->patterns + at + l, s->patterns_len - (size_t) at - l);
		s->patterns_len -= l;
	}
	if (all)
		s->patterns_len = 0;
	memset(s->patterns + s->patterns_len, 0, sizeof(s->patterns) - s->patterns_len);
	apps_update_session(d, s);
	return 0;
}

int session_start(struct daemon *d, struct dsession *s, char *err, size_t errlen)
{
	if (s->state == SESSION_STARTED) {
		snprintf(err, errlen, "session %s is already started", s->name);
		return -1;
	}
	if (s->state == SESSION_FAILED) {
		snprintf(err, errlen, "session %s failed (%s): destroy it", s->name, s->error);
		return -1;
	}
	if (!s->patterns_len && !s->nkevents) {
		snprintf(err, errlen,
		         "session %s has no events: spoor session enable %s -u "
		         "PATTERN (or -k EVENTS)",
		         s->name, s->name);
		return -1;
	}
	if (session_kernel_start(d, s, err, errlen))
		return -1;
	s->state = SESSION_STARTED;
	session_rotate_timer(s);
	apps_update_session(d, s);
	daemon_log("session %s started", s->name);
	return 0;
}

int session_stop(struct daemon *d, struct dsession *s, char *err, size_t errlen)
{
	if (s->state != SESSION_STARTED) {
		snprintf(err, errlen, "session %s is not started", s->name);
		return -1;
	}
	s->state = SESSION_STOPPED;
	apps_update_session(d, s); /* events off in the programs first */
	apps_flush_session(d, s);
	watch_end(d, s);
	session_kernel_pause(d, s);
	session_rotate_timer(s);
	daemon_log("session %s stopped", s->name);
	return 0;
}

void session_check_write(struct daemon *d, struct dsession *s)
{
	int e = s->totals.write_error ? s->totals.write_error : s->totals.k.write_error;
	if (!e || s->state == SESSION_FAILED)
		return;
	snprintf(s->error, sizeof(s->error),
	         "%s: the session stopped; what was written before is readable", strerror(-e));
	daemon_log("session %s: %s", s->name, s->error);
	s->state = SESSION_FAILED;
	apps_update_session(d, s);
	watch_end(d, s);
	session_kernel_pause(d, s);
	session_rotate_timer(s);
}

void session_wind_up(struct daemon *d, struct dsession *s)
{
	apps_drop_session(d, s);
	apps_close_ended(d, s);
	watch_end(d, s);
	session_kernel_finish(d, s);
	if (s->rotate_timer >= 0)
		close(s->rotate_timer);
	s->rotate_timer = -1;
}

void session_finish(struct daemon *d, struct dsession *s)
{
	session_wind_up(d, s);
	for (size_t i = 0; i < s->nkevents; i++)
		free(s->kevents[i]);
	for (size_t i = 0; i < s->nkfilters; i++)
		free(s->kfilters[i]);
	for (struct dsession **p = &d->sessions; *p; p = &(*p)->next)
		if (*p == s) {
			*p = s->next;
			break;
		}
	d->nsessions--;
	daemon_log("session %s of uid %u destroyed: %s", s->name, (unsigned) s->owner, s->outdir);
	free(s);
}
