/* SPDX-License-Identifier: MIT */
/*
 * apptrace.c: one traced process's trace for one session (apptrace.h): its directory, its
 * metadata, and a stream per thread's ring buffer, drained by drain.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apptrace.h"
#include "ctf/meta-write.h"
#include "events.h"
#include "outdir.h"
#include "spoor/spoor.h"
#include "util/writeall.h"

#define MAX_BUFFERS 65536

struct stream {
	struct rec_buffer *rb;
	int tid;
	int k; /* stream_TID-k: a thread id used again (recycled, or sent twice) */
};

struct apptrace {
	int pid;
	char procname[17];
	uint8_t uuid[16];
	char *dir;
	struct rec_clock clock;
	struct rec_buffer_geometry g;
	struct rec_log log;
	struct rec_events events;
	size_t events_written; /* in the metadata file */
	struct stream *bufs;
	size_t nbufs;
};

/* OUTDIR/ust/pid/NAME made into *dir: the trace's own directory name (that of its last
 * chunk) when it has one and it is free, else PROCNAME-PID, or -k after it when that
 * exists. */
static int make_dir(const struct apptrace *a, const char *outdir, char **dir, char *err,
                    size_t errlen)
{
	const char *own = a->dir ? strrchr(a->dir, '/') + 1 : NULL;
	char *parent;

	*dir = NULL;
	if (asprintf(&parent, "%s/ust/pid", outdir) < 0)
		return -ENOMEM;
	int rc = outdir_mkdirs(parent);
	for (int k = own ? -1 : 0; !rc && k < 1000; k++) {
		free(*dir);
		int n = k < 0   ? asprintf(dir, "%s/%s", parent, own)
		        : k > 0 ? asprintf(dir, "%s/%s-%d-%d", parent, a->procname, a->pid, k)
		                : asprintf(dir, "%s/%s-%d", parent, a->procname, a->pid);
		if (n < 0) {
			*dir = NULL;
			rc = -ENOMEM;
		} else if (!mkdir(*dir, 0755)) {
			free(parent);
			return 0;
		} else if (errno != EEXIST) {
			rc = -errno;
		}
	}
	rc = rc ? rc : -EEXIST;
	snprintf(err, errlen, "%s: %s", *dir ? *dir : outdir, strerror(-rc));
	free(*dir);
	*dir = NULL;
	free(parent);
	return rc;
}

int apptrace_open(struct apptrace **out, const char *outdir, const struct apptrace_id *id,
                  const struct rec_clock *clock, const struct rec_buffer_geometry *g, char *err,
                  size_t errlen)
{
	struct apptrace *a = calloc(1, sizeof(*a));

	*out = NULL;
	if (!a) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	a->pid = id->pid;
	a->clock = *clock;
	a->g = *g;
	snprintf(a->procname, sizeof(a->procname), "%.16s", id->procname ? id->procname : "");
	for (char *p = a->procname; *p; p++)
		if (*p == '/' || *p == ' ' || (unsigned char) *p < 0x20)
			*p = '_';
	if (!a->procname[0])
		strcpy(a->procname, "unknown");
	int rc = make_dir(a, outdir, &a->dir, err, errlen);
	if (rc) {
		apptrace_close(a, NULL);
		return rc;
	}
	if (id->uuid) {
		memcpy(a->uuid, id->uuid, 16);
	} else if (getrandom(a->uuid, 16, 0) != 16) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot make a trace UUID: %s", a->dir, strerror(errno));
		apptrace_close(a, NULL);
		return rc;
	} else {
		a->uuid[6] = (uint8_t) ((a->uuid[6] & 0x0f) | 0x40); /* version 4 */
		a->uuid[8] = (uint8_t) ((a->uuid[8] & 0x3f) | 0x80);
	}
	*out = a;
	return 0;
}

void apptrace_set_log(struct apptrace *a, const struct rec_log *log)
{
	a->log = *log;
}

/* The metadata of the events from the from-th on: all of it (the trace's header and clock
 * too) from the first. */
static int describe(const struct apptrace *a, size_t from, char **text, size_t *len)
{
	char host[256] = "";

	if (!from) {
		gethostname(host, sizeof(host) - 1);
		const struct meta_env env[] = {
		    {"hostname", host, 0, 1},
		    {"domain", "ust", 0, 1},
		    {"tracer_name", "spoor", 0, 1},
		    {"tracer_major", NULL, SPOOR_VERSION_MAJOR, 0},
		    {"tracer_minor", NULL, SPOOR_VERSION_MINOR, 0},
		    {"tracer_patchlevel", NULL, SPOOR_VERSION_PATCH, 0},
		    {"procname", a->procname, 0, 1},
		    {"vpid", NULL, a->pid, 0},
		};
		struct meta_trace t = {
		    .env = env, .nenv = sizeof(env) / sizeof(env[0]), .packed = 1};
		memcpy(t.uuid, a->uuid, 16);
		rec_clock_meta(&a->clock, &t.clock);
		return ctf_meta_write(&t, (const struct spoor_event_desc *const *) a->events.evs,
		                      a->events.n, text, len);
	}
	FILE *m = open_memstream(text, len);
	int rc = m ? 0 : -ENOMEM;
	for (size_t i = from; !rc && i < a->events.n; i++) {
		char *one = NULL;
		size_t l = 0;
		rc = ctf_meta_write_event(a->events.evs[i], 1, &one, &l);
		if (!rc)
			fwrite(one, 1, l, m);
		free(one);
	}
	if (m && fclose(m))
		rc = -ENOMEM;
	return rc;
}

/* DIR/metadata: the events from the from-th on, appended (dlopen) or, from the first, the
 * whole of it. A file cut short (disk full) keeps its whole blocks. */
static int write_metadata(const struct apptrace *a, const char *dir, size_t from, char *err,
                          size_t errlen)
{
	char path[4200], *text = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	if (describe(a, from, &text, &len)) {
		free(text);
		snprintf(err, errlen, "%s: cannot describe the events of %s (pid %d)", path,
		         a->procname, a->pid);
		return -EPROTO;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	struct stat st;
	off_t before = fd >= 0 && !fstat(fd, &st) ? st.st_size : 0;
	int rc = fd < 0 ? -errno : write_all(fd, text, len);
	if (rc) {
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		if (fd >= 0 && ftruncate(fd, before))
			rec_log_warn(&a->log, "%s: cannot cut off the partial block: %s", path,
			             strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	free(text);
	return rc;
}

int apptrace_events(struct apptrace *a, const char *text, size_t len, char *err, size_t errlen)
{
	char why[200];

	if (rec_events_parse(&a->events, text, len, why, sizeof(why))) {
		snprintf(err, errlen, "%s (pid %d) sent invalid event descriptions: %s",
		         a->procname, a->pid, why);
		return -EPROTO;
	}
	int rc = write_metadata(a, a->dir, a->events_written, err, errlen);
	if (rc != -EPROTO)
		a->events_written = a->events.n;
	return rc;
}

static void stream_path(const char *dir, const struct stream *st, char *path, size_t cap)
{
	if (st->k)
		snprintf(path, cap, "%s/stream_%d-%d", dir, st->tid, st->k);
	else
		snprintf(path, cap, "%s/stream_%d", dir, st->tid);
}

int apptrace_add_buffer(struct apptrace *a, int memfd, int tid, char *err, size_t errlen)
{
	char path[4200], why[200];

	if (a->nbufs >= MAX_BUFFERS) {
		snprintf(err, errlen, "%s (pid %d): too many threads", a->procname, a->pid);
		return -ENOSPC;
	}
	struct stream *bigger = realloc(a->bufs, (a->nbufs + 1) * sizeof(*bigger));
	if (!bigger) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	a->bufs = bigger;
	struct stream st = {NULL, tid, 0};
	int rc;
	/* as the directories: an earlier thread's stream is never truncated */
	do {
		stream_path(a->dir, &st, path, sizeof(path));
		rc = rec_buffer_open(&st.rb, memfd, &a->g, path, why, sizeof(why));
	} while (rc == -EEXIST && ++st.k < 1000);
	if (rc) {
		snprintf(err, errlen, "%s (pid %d): ring buffer of thread %d refused: %s",
		         a->procname, a->pid, tid, why);
		return -EINVAL;
	}
	rec_buffer_set_log(st.rb, &a->log);
	a->bufs[a->nbufs++] = st;
	return 0;
}

void apptrace_drain(struct apptrace *a, bool final, struct record_totals *t)
{
	for (size_t i = 0; i < a->nbufs; i++)
		rec_buffer_drain(a->bufs[i].rb, final, t);
}

void apptrace_flush_open(struct apptrace *a, struct record_totals *t)
{
	for (size_t i = 0; i < a->nbufs; i++)
		rec_buffer_flush_open(a->bufs[i].rb, t);
}

int apptrace_snapshot(struct apptrace *a, const char *snapdir, uint64_t *recorded_packets,
                      uint64_t *overwritten, char *err, size_t errlen)
{
	struct record_totals t = {0};
	char *dir, path[4200];

	*recorded_packets = *overwritten = 0;
	if (!a->g.overwrite) {
		snprintf(err, errlen, "%s: a snapshot needs a flight recorder (overwrite mode)",
		         a->dir);
		return -EINVAL;
	}
	int rc = make_dir(a, snapdir, &dir, err, errlen);
	/* the metadata first: every event in the rings is described by then */
	if (!rc)
		rc = write_metadata(a, dir, 0, err, errlen);
	for (size_t i = 0; !rc && i < a->nbufs; i++) {
		stream_path(dir, &a->bufs[i], path, sizeof(path));
		rc = rec_buffer_snapshot(a->bufs[i].rb, path, &t, err, errlen);
	}
	free(dir);
	*recorded_packets = t.packets;
	*overwritten = t.overwritten;
	return rc;
}

int apptrace_rotate(struct apptrace *a, const char *newoutdir, struct record_totals *t, char *err,
                    size_t errlen)
{
	char *dir, path[4200];

	if (a->g.overwrite) {
		snprintf(err, errlen, "%s: a flight recorder (overwrite mode) is not rotated",
		         a->dir);
		return -EINVAL;
	}
	for (size_t i = 0; i < a->nbufs; i++)
		rec_buffer_end_chunk(a->bufs[i].rb, t);
	/* on failure the streams go on in the chunk's files: nothing is lost */
	int rc = make_dir(a, newoutdir, &dir, err, errlen);
	if (!rc && a->events.n)
		rc = write_metadata(a, dir, 0, err, errlen);
	for (size_t i = 0; !rc && i < a->nbufs; i++) {
		stream_path(dir, &a->bufs[i], path, sizeof(path));
		rc = rec_buffer_switch_file(a->bufs[i].rb, path, err, errlen);
	}
	if (rc) {
		free(dir);
		return rc;
	}
	free(a->dir);
	a->dir = dir;
	a->events_written = a->events.n;
	return 0;
}

void apptrace_usage(const struct apptrace *a, struct apptrace_usage *u)
{
	*u = (struct apptrace_usage){0};
	for (size_t i = 0; i < a->nbufs; i++) {
		struct apptrace_usage one;
		apptrace_buffer_usage(a, i, NULL, &one);
		u->buffers++;
		u->bytes_used += one.bytes_used;
		u->bytes_size += one.bytes_size;
		u->discarded += one.discarded;
		u->overwritten += one.overwritten;
	}
}

size_t apptrace_buffers(const struct apptrace *a)
{
	return a->nbufs;
}

void apptrace_buffer_usage(const struct apptrace *a, size_t i, int *tid, struct apptrace_usage *u)
{
	struct rec_buffer_usage ru;

	rec_buffer_usage(a->bufs[i].rb, &ru);
	if (tid)
		*tid = a->bufs[i].tid;
	*u = (struct apptrace_usage){1, ru.used, ru.size, ru.discarded, ru.overwritten};
}

void apptrace_close(struct apptrace *a, struct record_totals *t)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nbufs; i++) {
		if (t)
			rec_buffer_drain(a->bufs[i].rb, true, t);
		rec_buffer_close(a->bufs[i].rb, t);
	}
	free(a->bufs);
	rec_events_free(&a->events);
	free(a->dir);
	free(a);
}

const char *apptrace_dir(const struct apptrace *a)
{
	return a->dir;
}

const uint8_t *apptrace_uuid(const struct apptrace *a)
{
	return a->uuid;
}
