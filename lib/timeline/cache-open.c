/* SPDX-License-Identifier: MIT */
/*
 * cache-open.c: a fresh cache found beside the traces or in the user's cache folder, or
 * built in a child process (its reader maps the whole trace; this process then maps only
 * the cache) that writes it under no name and puts it in place (cache.h, cache-file.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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
#include "timeline/cache-file.h"
#include "timeline/cache.h"
#include "util/writeall.h"

struct tl_cache_job {
	pid_t pid; /* the builder, until reaped */
	int pipe;  /* its messages */
	int stop[2];
	uint64_t fp;
};

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

/* ---- the child ---- */

/* The child's messages on the pipe: 'p' and a double (progress), or to the end: 'e' and
 * its error, or 'd' and the cache's path (done). */
static int child_out = -1;
/* The temporary file's name while it has one: a signal that ends the child removes it. */
static const char *volatile named_temp;

static void child_progress(void *data, double fraction)
{
	char msg[1 + sizeof(double)] = {'p'};
	memcpy(msg + 1, &fraction, sizeof(fraction));
	write_all(child_out, msg, sizeof(msg));
}

static void child_stopped(int sig)
{
	const char *name = named_temp;
	if (name)
		unlink(name);
	_exit(128 + sig);
}

static const int stop_signals[] = {SIGTERM, SIGINT, SIGHUP};

static void block_stops(int how)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&set, stop_signals[i]);
	sigprocmask(how, &set, NULL);
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

/* Build the cache at final (its folder made first when mkdirs); *writing when what
 * failed was writing there. */
static int build_at(const char *const *paths, size_t npaths, uint64_t fp, const char *final,
                    mode_t mode, bool mkdirs, bool *writing, char **err)
{
	struct tlc_temp t;
	char *dir = strdup(final), *slash = dir ? strrchr(dir, '/') : NULL;
	*writing = true;
	if (!slash) {
		free(dir);
		return say(err, -ENOMEM, "out of memory");
	}
	*slash = 0;
	int rc = mkdirs ? make_folders(dir) : 0;
	if (!rc)
		rc = tlc_temp_new(dir, mode, &t);
	if (rc) {
		say(err, rc, "cannot write the timeline cache %s: %s", final, strerror(-rc));
		free(dir);
		return rc;
	}
	named_temp = t.name;
	rc = tl_cache_build(paths, npaths, t.fd, dir, fp, child_progress, NULL, err, writing);
	free(dir);
	block_stops(SIG_BLOCK); /* no name left behind: placed whole, or removed */
	if (rc) {
		tlc_temp_drop(&t);
	} else if ((rc = tlc_temp_place(&t, final))) {
		*writing = true;
		say(err, rc, "%s: %s", final, strerror(-rc));
	}
	named_temp = NULL;
	block_stops(SIG_UNBLOCK);
	return rc;
}

/* In the child: build beside the traces (when allowed) or, when writing there fails, in
 * the user's folder; say where or why not; exit. */
static _Noreturn void child(const char *const *paths, size_t npaths, uint64_t fp,
                            const char *beside, const char *user, mode_t mode)
{
	char *err = NULL;
	bool writing = true;
	int rc = -EPERM;
	const char *final = beside;
	if (beside)
		rc = build_at(paths, npaths, fp, beside, mode, false, &writing, &err);
	if (rc && writing && user) {
		free(err);
		err = NULL;
		final = user;
		rc = build_at(paths, npaths, fp, user, 0600, true, &writing, &err);
	}
	if (rc) {
		const char *text = err ? err : strerror(rc < 0 ? -rc : rc);
		write_all(child_out, "e", 1);
		write_all(child_out, text, strlen(text));
	} else {
		write_all(child_out, "d", 1);
		write_all(child_out, final, strlen(final));
	}
	_exit(rc ? 1 : 0);
}

/* The child's start: its own signals (the parent's may be blocked for sigwait), dead with
 * the parent. */
static void child_setup(pid_t parent)
{
	struct sigaction sa = {.sa_handler = child_stopped};
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM); /* no builder left behind a killed parent */
	if (getppid() != parent)
		_exit(1);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* ---- the parent ---- */

int tl_cache_start(const char *const *paths, size_t npaths, struct tl_cache **out,
                   struct tl_cache_job **job, char **errmsg)
{
	char *beside = NULL, *user = NULL;
	uint64_t fp;
	mode_t mode;
	*out = NULL;
	*job = NULL;
	*errmsg = NULL;
	if (!npaths)
		return say(errmsg, -EINVAL, "no trace given");
	int rc = tl_cache_facts_of(paths, npaths, &fp, &mode);
	if (rc)
		return say(errmsg, rc, "reading the trace's files: %s", strerror(-rc));
	if ((rc = tl_cache_places(paths, npaths, &beside, &user)))
		return say(errmsg, rc, "%s: %s", paths[0], strerror(-rc));
	/* beside the traces: only a cache of ours that only we can write, else our folder's */
	int here = tlc_file_fresh(beside, fp, out);
	if (!here || (user && !tlc_file_fresh(user, fp, out)))
		goto done;
	bool build_beside = here == -ENOENT || here == -ESTALE;
	if (!build_beside && !user) {
		rc = say(errmsg, -EPERM,
		         "%s is not a file of yours that only you can write, and no cache folder "
		         "is known ($XDG_CACHE_HOME, $HOME)",
		         beside);
		goto done;
	}
	struct tl_cache_job *j = calloc(1, sizeof(*j));
	int p[2];
	if (j)
		j->pipe = -1;
	if (!j || pipe2(p, O_CLOEXEC)) {
		rc = say(errmsg, j ? -errno : -ENOMEM, "%s", strerror(j ? errno : ENOMEM));
		free(j);
		goto done;
	}
	if (pipe2(j->stop, O_CLOEXEC)) {
		rc = say(errmsg, -errno, "pipe: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		free(j);
		goto done;
	}
	/* the cache's mode: what every file of the trace allows (less the umask: open's), never
	 * writable by others, always the owner's to read and replace */
	mode = (mode & 0644) | 0600;
	fflush(NULL); /* nothing buffered is written twice */
	pid_t parent = getpid(), pid = fork();
	if (!pid) {
		child_setup(parent);
		close(p[0]);
		child_out = p[1];
		child(paths, npaths, fp, build_beside ? beside : NULL, user, mode);
	}
	close(p[1]);
	if (pid < 0) {
		rc = say(errmsg, -errno, "fork: %s", strerror(errno));
		close(p[0]);
		tl_cache_job_free(j);
		goto done;
	}
	j->pid = pid;
	j->pipe = p[0];
	j->fp = fp;
	*job = j;
done:
	free(beside);
	free(user);
	return rc;
}

/* SIGTERM, and SIGCONT in case it was stopped (^Z, a debugger): it ends at once. */
static void stop_child(pid_t pid)
{
	kill(pid, SIGTERM);
	kill(pid, SIGCONT);
}

void tl_cache_cancel(struct tl_cache_job *job)
{
	if (job)
		write_all(job->stop[1], "x", 1);
}

/* A message's bytes from the child: progress relayed, text kept (*text malloc'd). */
struct reading {
	bool in_text;
	char kind; /* 'e' or 'd' */
	char *text;
	size_t len, have;
	char msg[1 + sizeof(double)];
};

static void take(struct reading *r, const char *buf, size_t n,
                 void (*progress)(void *data, double fraction), void *data)
{
	for (size_t i = 0; i < n; i++) {
		if (r->in_text) {
			char *more = realloc(r->text, r->len + 2);
			if (more) {
				r->text = more;
				r->text[r->len++] = buf[i];
				r->text[r->len] = 0;
			}
		} else if (!r->have && (buf[i] == 'e' || buf[i] == 'd')) {
			r->in_text = true;
			r->kind = buf[i];
		} else {
			r->msg[r->have++] = buf[i];
			if (r->have == sizeof(r->msg)) {
				double f;
				memcpy(&f, r->msg + 1, sizeof(f));
				if (progress)
					progress(data, f);
				r->have = 0;
			}
		}
	}
}

int tl_cache_finish(struct tl_cache_job *job, void (*progress)(void *data, double fraction),
                    void *data, struct tl_cache **out, char **errmsg)
{
	struct reading r = {0};
	bool stopped = false;
	*out = NULL;
	*errmsg = NULL;
	for (;;) {
		struct pollfd fds[2] = {{job->pipe, POLLIN, 0}, {job->stop[0], POLLIN, 0}};
		if (poll(fds, stopped ? 1 : 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!stopped && fds[1].revents) {
			/* the child removes its file and ends; its pipe then ends */
			stopped = true;
			stop_child(job->pid);
		}
		if (!fds[0].revents)
			continue;
		char buf[4096];
		ssize_t n = read(job->pipe, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		take(&r, buf, (size_t) n, progress, data);
	}
	int status = 0;
	while (waitpid(job->pid, &status, 0) < 0 && errno == EINTR)
		;
	job->pid = 0;
	int rc = 0;
	if (stopped && !(WIFEXITED(status) && !WEXITSTATUS(status))) {
		rc = say(errmsg, -ECANCELED, "building the timeline cache: stopped");
	} else if (WIFSIGNALED(status)) {
		rc = say(errmsg, -ECHILD,
		         "building the timeline cache: the builder died (signal %d)",
		         WTERMSIG(status));
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) || r.kind != 'd' || !r.text) {
		rc = say(errmsg, -EIO, "%s",
		         r.kind == 'e' && r.text ? r.text : "building the timeline cache failed");
	} else if ((rc = tlc_file_fresh(r.text, job->fp, out))) {
		say(errmsg, rc, "the timeline cache just built, %s: %s", r.text,
		    rc == -EPERM ? "changed by someone else" : "not valid");
	}
	free(r.text);
	return rc;
}

void tl_cache_job_free(struct tl_cache_job *job)
{
	if (!job)
		return;
	if (job->pid > 0) { /* never finished: the child stops */
		stop_child(job->pid);
		while (waitpid(job->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (job->pipe >= 0)
		close(job->pipe);
	close(job->stop[0]);
	close(job->stop[1]);
	free(job);
}

int tl_cache_open_progress(const char *const *paths, size_t npaths,
                           void (*progress)(void *data, double fraction), void *data,
                           struct tl_cache **out, char **errmsg)
{
	struct tl_cache_job *job;
	int rc = tl_cache_start(paths, npaths, out, &job, errmsg);
	if (!rc && job)
		rc = tl_cache_finish(job, progress, data, out, errmsg);
	tl_cache_job_free(job);
	return rc;
}

int tl_cache_open(const char *const *paths, size_t npaths, struct tl_cache **out, char **errmsg)
{
	return tl_cache_open_progress(paths, npaths, NULL, NULL, out, errmsg);
}
