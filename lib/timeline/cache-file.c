/* SPDX-License-Identifier: MIT */
/* cache-file.c: the timeline cache's files: trusted or not, written and put in place
 * (cache-file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "timeline/cache-file.h"

int tlc_file_fresh(const char *path, uint64_t fp, struct tl_cache **out)
{
	struct stat st;
	*out = NULL;
	/* O_NONBLOCK: a FIFO put there is refused, not waited on */
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ENOENT : -EPERM;
	int rc = 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH)))
		rc = -EPERM;
	else if (tl_cache_open_fd(fd, path, out, NULL))
		rc = -ESTALE;
	else if (tl_cache_fingerprint(*out) != fp) {
		tl_cache_close(*out);
		*out = NULL;
		rc = -ESTALE;
	}
	close(fd);
	return rc;
}

/* dir/.spoor-view-RANDOM.tmp (hidden: readers skip it), malloc'd. */
static char *random_name(const char *dir)
{
	unsigned long long r;
	char *name;
	if (getrandom(&r, sizeof(r), 0) != sizeof(r) ||
	    asprintf(&name, "%s/.spoor-view-%016llx.tmp", dir, r) < 0)
		return NULL;
	return name;
}

/* Whether /proc/self/fd names open files (linkat of an O_TMPFILE needs it). */
static bool proc_fds(void)
{
	return access("/proc/self/fd", X_OK) == 0;
}

int tlc_temp_new(const char *dir, mode_t mode, struct tlc_temp *t)
{
	t->name = NULL;
	t->fd = proc_fds() ? open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode) : -1;
	if (t->fd >= 0)
		return 0;
	if (proc_fds() && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -errno; /* the folder, not the file system's support */
	/* no O_TMPFILE there: a name nobody can guess, made by us alone */
	for (int tries = 0; tries < 8; tries++) {
		if (!(t->name = random_name(dir)))
			return -ENOMEM;
		t->fd = open(t->name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (t->fd >= 0)
			return 0;
		int rc = -errno;
		free(t->name);
		t->name = NULL;
		if (rc != -EEXIST)
			return rc;
	}
	return -EEXIST;
}

int tlc_temp_place(struct tlc_temp *t, const char *final)
{
	int rc = 0;
	if (!t->name) {
		/* linkat can't replace: a random name first, then rename over the old cache */
		char *dir = strdup(final), *slash = dir ? strrchr(dir, '/') : NULL, from[64];
		if (slash)
			*slash = 0;
		snprintf(from, sizeof(from), "/proc/self/fd/%d", t->fd);
		for (int tries = 0; !rc && !t->name && tries < 8; tries++) {
			if (!slash || !(t->name = random_name(dir)))
				rc = -ENOMEM;
			else if (linkat(AT_FDCWD, from, AT_FDCWD, t->name, AT_SYMLINK_FOLLOW)) {
				rc = errno == EEXIST ? 0 : -errno;
				free(t->name);
				t->name = NULL;
			}
		}
		free(dir);
		if (!rc && !t->name)
			rc = -EEXIST;
	}
	if (!rc && rename(t->name, final))
		rc = -errno;
	if (!rc) {
		free(t->name);
		t->name = NULL;
	}
	tlc_temp_drop(t);
	return rc;
}

void tlc_temp_drop(struct tlc_temp *t)
{
	if (t->fd >= 0)
		close(t->fd);
	if (t->name)
		unlink(t->name);
	free(t->name);
	t->fd = -1;
	t->name = NULL;
}
