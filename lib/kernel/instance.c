/* SPDX-License-Identifier: MIT */
/*
 * instance.c: the private tracefs instance. libtracefs finds tracefs and makes and removes
 * instances; settings are written here with plain write(2) so that the kernel's errno (and
 * its error_log line) reach the user unchanged.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <tracefs.h>
#include <unistd.h>

#include "instance.h"

#define TRACEFS_MAGIC 0x74726163
#define NAME_PREFIX   "spoor-"

struct kinstance {
	struct tracefs_instance *ti;
	char root[512];
	char dir[700];
	char name[80];
};

static bool is_tracefs(const char *path)
{
	struct statfs sf;
	return !statfs(path, &sf) && sf.f_type == TRACEFS_MAGIC;
}

/* SPOOR_TRACEFS (tests) or the usual places; mount it at /sys/kernel/tracing if nowhere. */
int kinstance_find_tracefs(char *root, size_t cap, char *err, size_t errlen)
{
	const char *forced = getenv("SPOOR_TRACEFS");
	if (forced) {
		if (!is_tracefs(forced)) {
			snprintf(err, errlen, "SPOOR_TRACEFS=%s is not a mounted tracefs", forced);
			return -ENOENT;
		}
		snprintf(root, cap, "%s", forced);
		return 0;
	}
	static const char *const places[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
	for (size_t i = 0; i < 2; i++)
		if (is_tracefs(places[i])) {
			snprintf(root, cap, "%s", places[i]);
			return 0;
		}
	if (mount("nodev", places[0], "tracefs", 0, NULL)) {
		int e = errno;
		snprintf(err, errlen, "tracefs is not mounted and mounting it at %s failed: %s%s",
		         places[0], strerror(e), e == EPERM ? " (kernel tracing needs root)" : "");
		return -e;
	}
	snprintf(root, cap, "%s", places[0]);
	return 0;
}

/* Instances named spoor-PID-N whose PID is gone were left by a spoor that was killed. */
static void remove_stale(const char *root)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/instances", root);
	DIR *d = opendir(path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		int pid, n;
		if (sscanf(e->d_name, NAME_PREFIX "%d-%d", &pid, &n) != 2 || pid <= 0)
			continue;
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/instances/%s", root, e->d_name);
		if (!rmdir(path))
			fprintf(
			    stderr,
			    "spoor: removed tracefs instance %s left by a spoor that was killed\n",
			    e->d_name);
	}
	closedir(d);
}

/* spoor-PID-N[-NAME]: the name's characters fit an instance and a uprobe group. */
static void make_name(char *out, size_t cap, unsigned n, const char *name)
{
	int len = snprintf(out, cap, NAME_PREFIX "%d-%u", (int) getpid(), n);
	if (!name || !*name || len < 0 || (size_t) len + 2 >= cap)
		return;
	size_t j = (size_t) len;
	out[j++] = '-';
	for (size_t i = 0; name[i] && i < 32 && j + 1 < cap; i++) {
		char c = name[i];
		bool ok =
		    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		out[j++] = ok ? c : '_';
	}
	out[j] = '\0';
}

int kinstance_create(struct kinstance **out, const char *name, char *err, size_t errlen)
{
	static unsigned counter;
	struct kinstance *k = calloc(1, sizeof(*k));
	int rc;

	*out = NULL;
	if (!k)
		return -ENOMEM;
	if ((rc = kinstance_find_tracefs(k->root, sizeof(k->root), err, errlen))) {
		free(k);
		return rc;
	}
	char inst[600];
	snprintf(inst, sizeof(inst), "%s/instances", k->root);
	if (access(inst, W_OK)) {
		rc = -errno;
		snprintf(err, errlen, "cannot use %s: %s%s", inst, strerror(errno),
		         errno == EACCES || errno == EPERM ? " (kernel tracing needs root)" : "");
		free(k);
		return rc;
	}
	remove_stale(k->root);
	if (tracefs_set_tracing_dir(k->root)) {
		snprintf(err, errlen, "libtracefs refused %s", k->root);
		free(k);
		return -EINVAL;
	}
	make_name(k->name, sizeof(k->name), counter++, name);
	errno = 0;
	k->ti = tracefs_instance_create(k->name);
	if (!k->ti || !tracefs_instance_is_new(k->ti)) {
		rc = errno ? -errno : -EEXIST;
		snprintf(err, errlen, "cannot create tracefs instance %s/%s: %s", inst, k->name,
		         strerror(-rc));
		if (k->ti)
			tracefs_instance_free(k->ti);
		free(k);
		return rc;
	}
	snprintf(k->dir, sizeof(k->dir), "%s/%s", inst, k->name);
	*out = k;
	return 0;
}

bool kinstance_has(const struct kinstance *k, const char *file)
{
	char path[900];
	snprintf(path, sizeof(path), "%s/%s", k->dir, file);
	return access(path, F_OK) == 0;
}

const char *kinstance_dir(const struct kinstance *k)
{
	return k->dir;
}

const char *kinstance_root(const struct kinstance *k)
{
	return k->root;
}

/* The instance's last error_log entry, its lines indented (the caret line points into the
 * command line above it), or "". */
static void last_error(struct kinstance *k, char *buf, size_t cap)
{
	char *log = tracefs_error_last(k->ti);
	size_t j = 0;
	buf[0] = '\0';
	if (!log)
		return;
	for (const char *p = log; *p && j + 4 < cap; p++) {
		if (p == log || p[-1] == '\n') {
			buf[j++] = '\n';
			buf[j++] = ' ';
			buf[j++] = ' ';
		}
		if (*p != '\n')
			buf[j++] = *p;
	}
	while (j && (buf[j - 1] == ' ' || buf[j - 1] == '\n'))
		j--;
	buf[j] = '\0';
	free(log);
}

int kinstance_write(struct kinstance *k, const char *file, const char *value, bool append,
                    char *err, size_t errlen)
{
	char path[900];
	if (snprintf(path, sizeof(path), "%s/%s", k->dir, file) >= (int) sizeof(path)) {
		snprintf(err, errlen, "tracefs path too long: %s/%s", k->dir, file);
		return -ENAMETOOLONG;
	}
	tracefs_error_clear(k->ti);
	int fd = open(path, O_WRONLY | O_CLOEXEC | (append ? O_APPEND : O_TRUNC));
	int rc = 0;
	if (fd < 0) {
		rc = -errno;
	} else {
		size_t n = strlen(value);
		ssize_t w = write(fd, value, n);
		if (w < 0)
			rc = -errno;
		else if ((size_t) w != n)
			rc = -EIO;
		close(fd);
	}
	if (rc) {
		char log[400];
		last_error(k, log, sizeof(log));
		/* a long value or log may be cut short: the message stays a message */
		int len = snprintf(err, errlen, "the kernel refused '%s' in %s: %s%s%s", value,
		                   file, strerror(-rc), log[0] ? "; its error_log says:" : "", log);
		(void) len;
	}
	return rc;
}

int kinstance_set_clock(struct kinstance *k, const char *clock, char *err, size_t errlen)
{
	return kinstance_write(k, "trace_clock", clock, false, err, errlen);
}

int kinstance_set_buffer_kb(struct kinstance *k, unsigned long kb, char *err, size_t errlen)
{
	char v[32];
	snprintf(v, sizeof(v), "%lu", kb);
	return kinstance_write(k, "buffer_size_kb", v, false, err, errlen);
}

int kinstance_enable(struct kinstance *k, const char *system, const char *event, char *err,
                     size_t errlen)
{
	char file[300];
	snprintf(file, sizeof(file), "events/%s/%s/enable", system, event);
	return kinstance_write(k, file, "1", false, err, errlen);
}

int kinstance_filter(struct kinstance *k, const char *system, const char *event, const char *expr,
                     char *err, size_t errlen)
{
	char file[300];
	snprintf(file, sizeof(file), "events/%s/%s/filter", system, event);
	return kinstance_write(k, file, expr, false, err, errlen);
}

/* Say why when the kernel will not run the function tracer at all. */
static int function_refused(int rc, char *err, size_t errlen)
{
	if (rc == -EPERM || rc == -EACCES || rc == -ENODEV || rc == -EINVAL) {
		size_t len = strlen(err);
		snprintf(err + len, errlen - len,
		         " (this kernel does not let the function tracer run here; tracepoints "
		         "still work)");
	}
	return rc;
}

int kinstance_function_tracer(struct kinstance *k, const char *const *patterns, size_t n,
                              const pid_t *pids, size_t npids, char *err, size_t errlen)
{
	int rc;
	for (size_t i = 0; i < n; i++)
		if ((rc = kinstance_write(k, "set_ftrace_filter", patterns[i], true, err, errlen)))
			return function_refused(rc, err, errlen);
	for (size_t i = 0; i < npids; i++) {
		char v[24];
		snprintf(v, sizeof(v), "%d", (int) pids[i]);
		if ((rc = kinstance_write(k, "set_ftrace_pid", v, true, err, errlen)))
			return function_refused(rc, err, errlen);
	}
	rc = kinstance_write(k, "current_tracer", "function", false, err, errlen);
	return rc ? function_refused(rc, err, errlen) : 0;
}

int kinstance_tracing_on(struct kinstance *k, bool on)
{
	char err[256];
	return kinstance_write(k, "tracing_on", on ? "1" : "0", false, err, sizeof(err));
}

void kinstance_destroy(struct kinstance *k)
{
	if (!k)
		return;
	if (k->ti) {
		kinstance_tracing_on(k, false);
		if (tracefs_instance_destroy(k->ti) && rmdir(k->dir) && errno != ENOENT)
			fprintf(stderr, "spoor: cannot remove tracefs instance %s: %s\n", k->dir,
			        strerror(errno));
		tracefs_instance_free(k->ti);
	}
	free(k);
}
