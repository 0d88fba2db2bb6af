/* SPDX-License-Identifier: MIT */
/*
 * outdir.c: the output directory of a recording (see outdir.h). Trees are walked through
 * directory descriptors (openat, unlinkat) with O_NOFOLLOW, so a symbolic link is never
 * followed out of the directory being checked or emptied.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"

/* A trace is a few levels deep (LTTng: ust/uid/0/64-bit/index); deeper is not one. */
#define MAX_DEPTH 16

int outdir_mkdirs(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);

	if (n >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0755) && errno != EEXIST)
				return -errno;
			*p = '/';
		}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/* A stream of the directory's entries, on a descriptor of its own (a dup would share the
 * read position with dfd). */
static DIR *open_entries(int dfd)
{
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (fd >= 0 && !d)
		close(fd);
	return d;
}

static int open_subdir(int dfd, const char *name, int depth)
{
	if (depth >= MAX_DEPTH) {
		errno = ELOOP;
		return -1;
	}
	return openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

static bool is_dots(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* A regular file `metadata` that starts as CTF metadata does: with the text's opening
 * comment (CTF 1.8) or a metadata packet's magic, in either byte order. */
static bool has_ctf_metadata(int dfd)
{
	int fd = openat(dfd, "metadata", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	unsigned char b[10];
	bool ok = !fstat(fd, &st) && S_ISREG(st.st_mode) && read(fd, b, sizeof(b)) == sizeof(b) &&
	          (!memcmp(b, "/* CTF 1.8", 10) || !memcmp(b, "\x57\x1d\xd1\x75", 4) ||
	           !memcmp(b, "\x75\xd1\x1d\x57", 4));
	close(fd);
	return ok;
}

/* A file spoor makes from the traces beside it: spoor view's cache (.spoor-view.cache,
 * .spoor-view-HASH.cache and their temporary names: lib/timeline/cache-place.c). It goes
 * with the traces. */
static bool derived(const char *name)
{
	return !strncmp(name, ".spoor-view", strlen(".spoor-view"));
}

struct check {
	char path[4096]; /* on failure: the entry that is not trace material */
	unsigned traces;
};

/* 0 when every entry under dfd is a directory, or a regular file in or below a directory
 * with CTF metadata (in_trace: an ancestor has it) or derived from traces; else -1,
 * c->path naming the entry. */
static int check_tree(int dfd, bool in_trace, int depth, struct check *c)
{
	if (has_ctf_metadata(dfd)) {
		c->traces++;
		in_trace = true;
	}
	DIR *d = open_entries(dfd);
	size_t len = strlen(c->path);
	int rc = d ? 0 : -1;
	for (struct dirent *e; !rc && (e = readdir(d));) {
		if (is_dots(e->d_name))
			continue;
		snprintf(c->path + len, sizeof(c->path) - len, "/%s", e->d_name);
		struct stat st;
		if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW))
			rc = -1;
		else if (S_ISDIR(st.st_mode)) {
			int sub = open_subdir(dfd, e->d_name, depth);
			rc = sub < 0 ? -1 : check_tree(sub, in_trace, depth + 1, c);
			if (sub >= 0)
				close(sub);
		} else if (!S_ISREG(st.st_mode) || (!in_trace && !derived(e->d_name)))
			rc = -1;
		if (!rc)
			c->path[len] = '\0';
	}
	if (d)
		closedir(d);
	return rc;
}

/* Remove everything under dfd but the entry `skip` (NULL: none); links are removed, never
 * followed. Returns 0 or -errno. */
static int remove_tree(int dfd, int depth, const char *skip)
{
	DIR *d = open_entries(dfd);
	if (!d)
		return -errno;
	int rc = 0;
	for (struct dirent *e; !rc && (e = readdir(d));) {
		if (is_dots(e->d_name) || (skip && !strcmp(e->d_name, skip)))
			continue;
		struct stat st;
		if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			rc = -errno;
		} else if (S_ISDIR(st.st_mode)) {
			int sub = open_subdir(dfd, e->d_name, depth);
			rc = sub < 0 ? -errno : remove_tree(sub, depth + 1, NULL);
			if (sub >= 0)
				close(sub);
			if (!rc && unlinkat(dfd, e->d_name, AT_REMOVEDIR))
				rc = -errno;
		} else if (unlinkat(dfd, e->d_name, 0)) {
			rc = -errno;
		}
	}
	closedir(d);
	return rc;
}

static bool is_empty(int dfd)
{
	DIR *d = open_entries(dfd);
	struct dirent *e = NULL;
	while (d && (e = readdir(d)) && is_dots(e->d_name))
		;
	bool empty = d && !e;
	if (d)
		closedir(d);
	return empty;
}

/* Move every entry of `from` but `skip` into `to` (the same file system: renames). On
 * failure what was moved stays moved: the caller moves it back. Returns 0 or -errno. */
static int move_entries(int from, int to, const char *skip)
{
	DIR *d = open_entries(from);
	if (!d)
		return -errno;
	int rc = 0;
	for (struct dirent *e; !rc && (e = readdir(d));)
		if (!is_dots(e->d_name) && (!skip || strcmp(e->d_name, skip)) &&
		    renameat(from, e->d_name, to, e->d_name))
			rc = -errno;
	closedir(d);
	return rc;
}

/* Put the old trace moved aside in DIR/o->old back where it was, and remove the aside. */
static int restore_old(int fd, struct outdir *o)
{
	int aside = openat(fd, o->old, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (aside < 0)
		return -errno;
	int rc = move_entries(aside, fd, NULL);
	close(aside);
	if (!rc && unlinkat(fd, o->old, AT_REMOVEDIR))
		rc = -errno;
	if (!rc)
		o->old[0] = '\0';
	return rc;
}

/* The old trace goes into DIR/.spoor-old-PID (hidden: readers pass it over), removed once the
 * recording starts and put back if it does not: a recording that cannot start destroys
 * nothing. Moved within DIR, so that DIR may be a mount point, and keeps its owner and mode. */
static int move_old_aside(int fd, struct outdir *o)
{
	snprintf(o->old, sizeof(o->old), ".spoor-old-%d", (int) getpid());
	if (mkdirat(fd, o->old, 0700)) {
		int rc = -errno;
		o->old[0] = '\0';
		return rc;
	}
	int aside = openat(fd, o->old, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc = aside < 0 ? -errno : move_entries(fd, aside, o->old);
	if (aside >= 0)
		close(aside);
	if (rc)
		restore_old(fd, o);
	return rc;
}

/* DIR exists: an empty directory is taken as it is; a trace is moved aside when forced. */
static int claim_existing(const char *dir, bool force, struct outdir *o, char *err, size_t errlen)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int rc = -errno;
		snprintf(err, errlen, "%s: %s", dir,
		         rc == -ENOTDIR ? "exists and is not a directory" : strerror(-rc));
		return rc;
	}
	int rc = 0;
	struct check c = {.path = ""};
	if (is_empty(fd)) {
		rc = 0;
	} else if (!force) {
		rc = -EEXIST;
		/* no --force hint here: convert and the daemon have none (spoor record adds it) */
		snprintf(err, errlen,
		         "%s is not empty: writing into it would mix two traces into one; give a "
		         "new directory",
		         dir);
	} else if (check_tree(fd, false, 0, &c) || !c.traces) {
		rc = -EEXIST;
		snprintf(err, errlen, "%s is not a trace (%s%s), and --force only replaces traces",
		         dir, c.path[0] ? "it holds " : "no CTF metadata in it",
		         c.path[0] ? c.path + 1 : "");
	} else if ((rc = move_old_aside(fd, o))) {
		snprintf(err, errlen, "cannot move the old trace in %s aside: %s", dir,
		         strerror(-rc));
	}
	close(fd);
	return rc;
}

int outdir_claim(const char *dir, bool force, struct outdir *o, char *err, size_t errlen)
{
	char parent[4096];
	size_t n = strlen(dir);

	*o = (struct outdir){0};
	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n >= sizeof(parent)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	memcpy(parent, dir, n);
	parent[n] = '\0';
	char *slash = strrchr(parent, '/');
	int rc = 0;
	if (slash && slash != parent) {
		*slash = '\0';
		rc = outdir_mkdirs(parent);
	}
	if (!rc && !mkdir(dir, 0755)) {
		o->made = true;
		return 0;
	}
	if (!rc && errno == EEXIST)
		return claim_existing(dir, force, o, err, errlen);
	rc = rc ? rc : -errno;
	snprintf(err, errlen, "%s: %s", dir, strerror(-rc));
	return rc;
}

int outdir_make_unique(const char *prefix, char *buf, size_t cap)
{
	for (int k = 1; k < 1000; k++) {
		int n = k == 1 ? snprintf(buf, cap, "%s", prefix)
		               : snprintf(buf, cap, "%s-%d", prefix, k);
		if (n < 0 || (size_t) n >= cap)
			return -ENAMETOOLONG;
		if (!mkdir(buf, 0755))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

void outdir_started(const char *dir, struct outdir *o)
{
	if (!o->old[0])
		return;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int aside = fd < 0 ? -1 : open_subdir(fd, o->old, 0);
	int rc = aside < 0 ? -errno : remove_tree(aside, 1, NULL);
	if (aside >= 0)
		close(aside);
	if (!rc && unlinkat(fd, o->old, AT_REMOVEDIR))
		rc = -errno;
	if (rc)
		fprintf(stderr, "spoor: warning: cannot remove the old trace in %s/%s: %s\n", dir,
		        o->old, strerror(-rc));
	if (fd >= 0)
		close(fd);
	o->old[0] = '\0';
}

void outdir_undo(const char *dir, struct outdir *o)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	remove_tree(fd, 0, o->old[0] ? o->old : NULL);
	if (o->old[0] && restore_old(fd, o))
		fprintf(stderr, "spoor: warning: the old trace is left in %s/%s\n", dir, o->old);
	close(fd);
	if (o->made)
		rmdir(dir);
}
