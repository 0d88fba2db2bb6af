/* SPDX-License-Identifier: MIT */
/*
 * chunks.c: a session's trace cut while it runs. Rotation closes the current chunk (the
 * programs' traces and the kernel's, written in OUTDIR itself) into
 * OUTDIR/archives/chunk-NNN/ and goes on in OUTDIR; a snapshot writes a flight recorder's
 * rings as a complete trace of their own, the session going on. Both as the session's
 * owner (sessions.c: fsuid_begin).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "dstate.h"
#include "kernel/ksession.h"
#include "record/apptrace.h"
#include "record/outdir.h"
#include "sessions.h"

void session_rotate_timer(struct dsession *s)
{
	bool want = s->rotate_ns && s->state == SESSION_STARTED;
	if (want && s->rotate_timer < 0)
		s->rotate_timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (s->rotate_timer < 0)
		return;
	struct timespec t = {(time_t) (s->rotate_ns / 1000000000u),
	                     (long) (s->rotate_ns % 1000000000u)};
	struct itimerspec it = {0};
	if (want)
		it.it_value = it.it_interval = t;
	timerfd_settime(s->rotate_timer, 0, &it, NULL);
}

/* A path into buf; false when it does not fit. */
static bool path(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool path(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t) n < cap;
}

/* Move OUTDIR/NAME into chunk/NAME if it exists; the files open in it stay open. */
static int move_into(const char *outdir, const char *chunk, const char *name)
{
	char from[PATH_MAX], to[PATH_MAX];
	if (!path(from, sizeof(from), "%s/%s", outdir, name) ||
	    !path(to, sizeof(to), "%s/%s", chunk, name))
		return -ENAMETOOLONG;
	if (rename(from, to) && errno != ENOENT)
		return -errno;
	return 0;
}

static int rotate_as_owner(struct daemon *d, struct dsession *s, char *chunk, size_t cap, char *err,
                           size_t errlen)
{
	char archives[PATH_MAX];
	if (!path(archives, sizeof(archives), "%s/archives", s->outdir) ||
	    !path(chunk, cap, "%s/chunk-%03u", archives, s->chunks)) {
		snprintf(err, errlen, "%s: %s", s->outdir, strerror(ENAMETOOLONG));
		return -1;
	}
	int rc = outdir_mkdirs(archives);
	if (!rc && mkdir(chunk, 0755))
		rc = -errno;
	if (!rc)
		rc = move_into(s->outdir, chunk, "ust");
	if (!rc && s->kernel)
		rc = move_into(s->outdir, chunk, "kernel");
	if (rc) {
		snprintf(err, errlen, "%s: %s", chunk, strerror(-rc));
		return -1;
	}
	/* the chunk's files are closed (their packets in progress written first), and every
	 * trace goes on in OUTDIR */
	struct app *a;
	size_t it = 0;
	for (struct app_slot *sl; (sl = slot_next(d, s, &a, &it));)
		if (sl->t && apptrace_rotate(sl->t, s->outdir, &s->totals, err, errlen) && !rc) {
			daemon_log("session %s: rotation: %s", s->name, err);
			rc = -1;
		}
	if (s->kernel && ksession_rotate(s->kernel, s->outdir, err, errlen) && !rc) {
		daemon_log("session %s: rotation: %s", s->name, err);
		rc = -1;
	}
	return rc;
}

int session_rotate(struct daemon *d, struct dsession *s, char *done, size_t donelen, char *err,
                   size_t errlen)
{
	if (s->overwrite) {
		snprintf(err, errlen,
		         "session %s is a flight recorder (--overwrite): take a "
		         "snapshot instead",
		         s->name);
		return -1;
	}
	if (s->state == SESSION_CREATED || s->state == SESSION_FAILED) {
		snprintf(err, errlen, "session %s has %s", s->name,
		         s->state == SESSION_FAILED ? "failed: nothing more can be written"
		                                    : "not started: nothing to rotate");
		return -1;
	}
	apps_flush_session(d, s); /* whatever is committed goes into this chunk */
	fsuid_begin(d, s);
	int rc = rotate_as_owner(d, s, done, donelen, err, errlen);
	fsuid_end(d);
	s->chunks++; /* its number is taken, even when the rotation failed half-way */
	s->chunk_bytes = s->totals.bytes;
	session_check_write(d, s);
	if (!rc)
		daemon_log("session %s: chunk %s closed", s->name, done);
	return rc;
}

void session_rotate_if_full(struct daemon *d, struct dsession *s)
{
	char done[PATH_MAX], err[600];
	if (s->rotate_bytes && s->state == SESSION_STARTED &&
	    s->totals.bytes - s->chunk_bytes >= s->rotate_bytes &&
	    session_rotate(d, s, done, sizeof(done), err, sizeof(err)))
		daemon_log("session %s: %s", s->name, err);
}

void session_on_timer(struct daemon *d, struct dsession *s)
{
	char done[PATH_MAX], err[600];
	if (s->state == SESSION_STARTED &&
	    session_rotate(d, s, done, sizeof(done), err, sizeof(err)))
		daemon_log("session %s: %s", s->name, err);
}

static int snapshot_dir(struct dsession *s, const char *dir, char *done, size_t cap, char *err,
                        size_t errlen)
{
	int rc;
	if (dir) {
		struct outdir o;
		snprintf(done, cap, "%s", dir);
		return outdir_claim(done, false, &o, err, errlen);
	}
	char parent[PATH_MAX], prefix[PATH_MAX], when[32];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	if (!path(parent, sizeof(parent), "%s/snapshots", s->outdir) ||
	    !path(prefix, sizeof(prefix), "%s/snapshot-%u-%s", parent, s->snapshots, when)) {
		snprintf(err, errlen, "%s: %s", s->outdir, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	rc = outdir_mkdirs(parent);
	if (!rc)
		rc = outdir_make_unique(prefix, done, cap);
	if (rc)
		snprintf(err, errlen, "%s: %s", prefix, strerror(-rc));
	return rc;
}

int session_snapshot(struct daemon *d, struct dsession *s, const char *dir, char *done,
                     size_t donelen, uint64_t *overwritten, int64_t *kernel_lost, char *err,
                     size_t errlen)
{
	*overwritten = 0;
	*kernel_lost = -1;
	if (!s->overwrite) {
		snprintf(err, errlen,
		         "session %s writes everything to its trace (discard mode): "
		         "a snapshot is for a flight recorder (spoor session create --overwrite)",
		         s->name);
		return -1;
	}
	if (s->state == SESSION_CREATED || s->state == SESSION_FAILED) {
		snprintf(err, errlen, "session %s has %s", s->name,
		         s->state == SESSION_FAILED ? "failed" : "not started: nothing to take");
		return -1;
	}
	fsuid_begin(d, s);
	int rc = snapshot_dir(s, dir, done, donelen, err, errlen);
	struct app *a;
	size_t it = 0;
	for (struct app_slot *sl; !rc && (sl = slot_next(d, s, &a, &it));) {
		uint64_t packets = 0, lost = 0;
		if (sl->t)
			rc = apptrace_snapshot(sl->t, done, &packets, &lost, err, errlen);
		*overwritten += lost;
	}
	for (size_t i = 0; !rc && i < s->nended; i++) {
		uint64_t packets = 0, lost = 0;
		rc = apptrace_snapshot(s->ended[i].t, done, &packets, &lost, err, errlen);
		*overwritten += lost;
	}
	if (!rc && s->kernel) {
		struct kernel_totals kt = {0};
		rc = ksession_snapshot(s->kernel, done, &kt, err, errlen);
		*kernel_lost = (int64_t) kt.lost;
	}
	fsuid_end(d);
	if (rc)
		return -1;
	s->snapshots++;
	daemon_log("session %s: snapshot in %s", s->name, done);
	return 0;
}
