/* SPDX-License-Identifier: MIT */
/*
 * cache-open.c: a fresh cache found beside the traces or in the user's cache folder, or
 * built in a child process (its reader maps the whole trace; this process then maps only
 * the cache) into a temporary file renamed into place (cache.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timeline/cache-build.h"
#include "timeline/cache.h"
#include "util/writeall.h"

/* The child's messages on the pipe: 'p' and a double (progress), or 'e' and text to the
 * end (its error). */
struct child_pipe {
	int fd;
};

static void child_progress(void *data, double fraction)
{
	struct child_pipe *p = data;
	char msg[1 + sizeof(double)] = {'p'};
	memcpy(msg + 1, &fraction, sizeof(fraction));
	write_all(p->fd, msg, sizeof(msg));
}

/* In the child: build, say why not, exit. */
static _Noreturn void child(const char *const *paths, size_t npaths, int fd, const char *dir,
                            uint64_t fp, int out, bool progress)
{
	struct child_pipe p = {out};
	char *err = NULL;
	int rc =
	    tl_cache_build(paths, npaths, fd, dir, fp, progress ? child_progress : NULL, &p, &err);
	if (rc) {
		write_all(out, "e", 1);
		const char *text = err ? err : strerror(rc < 0 ? -rc : rc);
		write_all(out, text, strlen(text));
	}
	_exit(rc ? 1 : 0);
}

static int say(char **errmsg, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(char **errmsg, int rc, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (errmsg && !*errmsg && vasprintf(errmsg, fmt, ap) < 0)
		*errmsg = NULL;
	va_end(ap);
	return rc;
}

/* Run the build in a child; relay its progress; its error into *errmsg. */
static int build_in_child(const char *const *paths, size_t npaths, int fd, const char *dir,
                          uint64_t fp, void (*progress)(void *data, double fraction), void *data,
                          char **errmsg)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC))
		return say(errmsg, -errno, "pipe: %s", strerror(errno));
	fflush(NULL); /* nothing buffered is written twice */
	pid_t pid = fork();
	if (pid < 0) {
		int rc = -errno;
		close(p[0]);
		close(p[1]);
		return say(errmsg, rc, "fork: %s", strerror(-rc));
	}
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* no builder left behind a killed server */
		close(p[0]);
		child(paths, npaths, fd, dir, fp, p[1], progress != NULL);
	}
	close(p[1]);
	char *text = NULL;
	size_t len = 0;
	char buf[4096];
	ssize_t n;
	bool in_text = false;
	size_t have = 0; /* bytes of a progress message so far */
	char msg[1 + sizeof(double)];
	while ((n = read(p[0], buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (ssize_t i = 0; i < n; i++) {
			if (in_text) {
				char *more = realloc(text, len + 2);
				if (more) {
					text = more;
					text[len++] = buf[i];
					text[len] = 0;
				}
			} else if (!have && buf[i] == 'e') {
				in_text = true;
			} else {
				msg[have++] = buf[i];
				if (have == sizeof(msg)) {
					double f;
					memcpy(&f, msg + 1, sizeof(f));
					if (progress)
						progress(data, f);
					have = 0;
				}
			}
		}
	}
	close(p[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	int rc = 0;
	if (WIFSIGNALED(status)) {
		rc = say(errmsg, -ECHILD,
		         "building the timeline cache: the builder died (signal %d)",
		         WTERMSIG(status));
	} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		rc = say(errmsg, -EIO, "%s", text ? text : "building the timeline cache failed");
	}
	free(text);
	return rc;
}

/* The cache at path if it is valid and of these files: 0 and *out, else an error. */
static int fresh(const char *path, uint64_t fp, struct tl_cache **out)
{
	int rc = tl_cache_open_file(path, out, NULL);
	if (rc)
		return rc;
	if (tl_cache_fingerprint(*out) == fp)
		return 0;
	tl_cache_close(*out);
	*out = NULL;
	return -ESTALE;
}

/* mkdir -p, mode 0700 for what it makes. */
static int make_folders(char *dir)
{
	for (char *s = dir + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		int rc = mkdir(dir, 0700) && errno != EEXIST ? -errno : 0;
		*s = '/';
		if (rc)
			return rc;
	}
	return mkdir(dir, 0700) && errno != EEXIST ? -errno : 0;
}

/* A new temporary file beside final (hidden, as the reader skips those). */
static int temp_beside(const char *final, mode_t mode, char **tmp)
{
	if (asprintf(tmp, "%s.%ld.tmp", final, (long) getpid()) < 0) {
		*tmp = NULL;
		return -ENOMEM;
	}
	int fd = open(*tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
	if (fd < 0) {
		int rc = -errno;
		free(*tmp);
		*tmp = NULL;
		return rc;
	}
	return fd;
}

static bool not_writable(int rc)
{
	return rc == -EACCES || rc == -EPERM || rc == -EROFS;
}

int tl_cache_open_progress(const char *const *paths, size_t npaths,
                           void (*progress)(void *data, double fraction), void *data,
                           struct tl_cache **out, char **errmsg)
{
	char *beside = NULL, *user = NULL, *tmp = NULL, *final = NULL;
	uint64_t fp;
	*out = NULL;
	*errmsg = NULL;
	if (!npaths)
		return say(errmsg, -EINVAL, "no trace given");
	int rc = tl_cache_fingerprint_of(paths, npaths, &fp);
	if (rc)
		return say(errmsg, rc, "reading the trace's files: %s", strerror(-rc));
	if ((rc = tl_cache_places(paths, npaths, &beside, &user)))
		return say(errmsg, rc, "%s: %s", paths[0], strerror(-rc));
	if (!fresh(beside, fp, out) || (user && !fresh(user, fp, out)))
		goto done;
	/* build: beside the traces, or in the user's folder when that one is not writable */
	final = beside;
	int fd = temp_beside(beside, 0644, &tmp);
	if (fd < 0 && not_writable(fd) && user) {
		char *dir = strdup(user);
		char *slash = dir ? strrchr(dir, '/') : NULL;
		if (slash)
			*slash = 0;
		rc = slash ? make_folders(dir) : -ENOMEM;
		free(dir);
		final = user;
		fd = rc ? rc : temp_beside(user, 0600, &tmp);
	}
	if (fd < 0) {
		rc =
		    say(errmsg, fd, "cannot write the timeline cache %s: %s", final, strerror(-fd));
		goto done;
	}
	char *dir = strdup(final);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	if (slash)
		*slash = 0;
	rc = build_in_child(paths, npaths, fd, slash ? dir : ".", fp, progress, data, errmsg);
	free(dir);
	close(fd);
	if (!rc && rename(tmp, final))
		rc = say(errmsg, -errno, "%s: %s", final, strerror(errno));
	if (rc) {
		unlink(tmp);
		goto done;
	}
	char *why = NULL;
	rc = tl_cache_open_file(final, out, &why);
	if (rc)
		say(errmsg, rc, "the timeline cache just built: %s", why ? why : strerror(-rc));
	free(why);
done:
	free(tmp);
	free(beside);
	free(user);
	return rc;
}

int tl_cache_open(const char *const *paths, size_t npaths, struct tl_cache **out, char **errmsg)
{
	return tl_cache_open_progress(paths, npaths, NULL, NULL, out, errmsg);
}
