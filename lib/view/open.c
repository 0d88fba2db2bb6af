/* SPDX-License-Identifier: MIT */
/* open.c: spoor view --open (see open.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/writeall.h"
#include "view/open.h"

extern char **environ;

/* A meta refresh, and a script for browsers that ignore it on local files. */
static int write_page(int fd, const char *url)
{
	char page[1024];
	int n = snprintf(page, sizeof(page),
	                 "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
	                 "<meta http-equiv=\"refresh\" content=\"0; url=%s\">\n"
	                 "<title>spoor view</title></head>\n"
	                 "<body><script>location.replace(\"%s\");</script>\n"
	                 "<p><a href=\"%s\">spoor view</a></p></body></html>\n",
	                 url, url, url);
	if (n < 0 || (size_t) n >= sizeof(page))
		return -EINVAL;
	return write_all(fd, page, (size_t) n);
}

/* $BROWSER's first program (a list separated by colons), else xdg-open. */
static const char *opener(char *buf, size_t size)
{
	const char *b = getenv("BROWSER");
	if (!b || !*b || *b == ':')
		return "xdg-open";
	snprintf(buf, size, "%.*s", (int) strcspn(b, ":"), b);
	return buf;
}

static int spawn(const char *prog, const char *file, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none;
	char *argv[] = {(char *) prog, (char *) file, NULL};
	sigemptyset(&none);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	/* the browser's chatter must not mix with our output (a script may read the URL),
	 * nor hold our stdout open; and it gets the signals spoor view waits for */
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
	int rc = posix_spawnp(pid, prog, &fa, &at, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return rc;
}

int view_open(const char *url, struct view_open *o, char *msg, size_t msgsize)
{
	const char *tmp = getenv("TMPDIR");
	o->pid = 0;
	o->file[0] = '\0';
	if (!tmp || !*tmp)
		tmp = "/tmp";
	snprintf(o->dir, sizeof(o->dir), "%s/spoor-view.XXXXXX", tmp);
	if (!mkdtemp(o->dir)) { /* 0700 */
		int e = errno;
		snprintf(msg, msgsize, "cannot make a folder in %s: %s", tmp, strerror(e));
		o->dir[0] = '\0';
		return -e;
	}
	if (snprintf(o->file, sizeof(o->file), "%s/open.html", o->dir) >= (int) sizeof(o->file)) {
		snprintf(msg, msgsize, "TMPDIR is too long");
		o->file[0] = '\0';
		return -ENAMETOOLONG;
	}
	int fd = open(o->file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int rc = fd < 0 ? -errno : fchmod(fd, 0600) ? -errno : write_page(fd, url);
	if (fd >= 0 && close(fd) && !rc)
		rc = -errno;
	if (rc) {
		snprintf(msg, msgsize, "cannot write %s: %s", o->file, strerror(-rc));
		return rc;
	}
	char buf[256];
	const char *prog = opener(buf, sizeof(buf));
	if ((rc = spawn(prog, o->file, &o->pid))) {
		o->pid = 0;
		snprintf(msg, msgsize,
		         "cannot run %s (%s) to open the page: set BROWSER, or open the URL "
		         "yourself",
		         prog, strerror(rc));
		return -rc;
	}
	return 0;
}

void view_open_cleanup(struct view_open *o)
{
	if (o->file[0])
		unlink(o->file);
	if (o->dir[0])
		rmdir(o->dir);
	o->file[0] = o->dir[0] = '\0';
}
