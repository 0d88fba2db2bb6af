/* SPDX-License-Identifier: MIT */
/*
 * watch-session.c: `spoor watch --session NAME SCRIPT.lua`: a script on a running session
 * of the session daemon (tracewatch as a service), and `spoor.snapshot(NAME)` in any spoor
 * watch. The daemon writes the session's trace; this process keeps one connection to it
 * (lib/daemon/watch.c), where the daemon says, every --period, up to when it has written
 * the buffers out, and reads that much live, as spoor watch -- CMD reads its own recording.
 * Leaving (Ctrl-C, the session stopped or destroyed, the daemon gone) leaves the session as
 * it is; spoor.stop() stops it.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon-socket.h"
#include "ipc/ctl.h"
#include "record/record.h"
#include "watch-live.h"

static char sockpath[PATH_MAX];
static volatile sig_atomic_t detach;

static void on_signal(int sig)
{
	detach = sig;
}

/* The daemon's answer in buf[0, n): status, and its stdout (NUL-ended, newline cut) in
 * text, or its stderr when the status is not 0. -1: not an answer. */
static int answer(const char *buf, long n, char *text, size_t cap)
{
	const char *out, *err;
	size_t outlen, errlen;
	int status;
	if (n < 0 || ctl_reply_parse(buf, (size_t) n, &status, &out, &outlen, &err, &errlen))
		return -1;
	const char *t = status ? err : out;
	size_t len = status ? errlen : outlen;
	while (len && t[len - 1] == '\n')
		len--;
	snprintf(text, cap, "%.*s", (int) len, t);
	return status;
}

/* One request "verb VERB, name NAME" on a connection of its own: status, text as answer. */
static int ask(const char *verb, const char *name, char *text, size_t cap)
{
	static char buf[CTL_MAX_REPLY];
	static struct ctl_request r;
	ctl_request_begin(&r, verb);
	ctl_request_add(&r, "name", name);
	if (ctl_request_end(&r)) {
		snprintf(text, cap, "invalid session name");
		return 2;
	}
	long n = ctl_call(sockpath, &r, buf, sizeof(buf));
	int status = answer(buf, n, text, cap);
	if (status < 0)
		snprintf(text, cap, "no answer from the session daemon at %.300s: %s", sockpath,
		         n < 0 ? strerror((int) -n) : "malformed reply");
	return status < 0 ? 1 : status;
}

static int snapshot(void *arg, const char *name, char *text, size_t cap)
{
	(void) arg;
	int status = ask("snapshot", name, text, cap);
	fprintf(stderr, "spoor watch: %s%s\n", status ? "spoor.snapshot: " : "", text);
	return status ? -1 : 0;
}

int watch_allow_snapshots(const struct command *cmd, struct script *s, const char *socket)
{
	if (session_pick_socket(socket, sockpath, sizeof(sockpath)))
		return cmd_error(cmd, "the socket path is too long");
	script_on_snapshot(s, snapshot, NULL);
	return 0;
}

/* The daemon's next word on the watching connection: 0 "flushed T" (T into *t), 1 "end"
 * (the session stopped, or ended); -1 with why in text (it failed, the daemon is gone). */
static int next_word(int fd, int64_t *t, char *text, size_t cap)
{
	static char buf[CTL_MAX_REPLY];
	long long v;
	long n = ctl_receive(fd, buf, sizeof(buf));
	int status = answer(buf, n, text, cap);
	if (status < 0)
		snprintf(text, cap, "the session daemon went away");
	if (status)
		return -1;
	if (!strcmp(text, "end"))
		return 1;
	if (sscanf(text, "flushed %lld", &v) != 1) {
		snprintf(text, cap, "the session daemon's word is not understood");
		return -1;
	}
	*t = v;
	return 0;
}

/* Connect and ask to watch: the connection, and the trace's folder in dir; or -1 with
 * *status set (the daemon's answer printed). */
static int attach(const struct command *cmd, const char *name, uint64_t period, char *dir,
                  size_t cap, int *status)
{
	static char buf[CTL_MAX_REPLY];
	static struct ctl_request r;
	char text[PATH_MAX + 64];
	int fd = ctl_connect(sockpath);
	if (fd < 0) {
		*status =
		    cmd_error(cmd, "no session daemon at %s (%s): start one with spoor daemon",
		              sockpath, strerror(-fd));
		return -1;
	}
	ctl_request_begin(&r, "watch");
	ctl_request_add(&r, "name", name);
	ctl_request_add_u64(&r, "period-ns", period);
	long n = ctl_request_end(&r) ? -EINVAL : ctl_send(fd, &r);
	if (!n)
		n = ctl_receive(fd, buf, sizeof(buf));
	int st = answer(buf, n, text, sizeof(text));
	if (st < 0)
		*status = cmd_error(cmd, "no answer from the session daemon at %s", sockpath);
	else if (st)
		*status = (fprintf(stderr, "spoor watch: %s\n", text), st);
	else if (strncmp(text, "trace ", 6) || snprintf(dir, cap, "%s", text + 6) >= (int) cap)
		*status = cmd_error(cmd, "the session daemon's answer is not understood");
	else
		return fd;
	close(fd);
	return -1;
}

int watch_session(const struct command *cmd, struct watch *w, const char *name, uint64_t period)
{
	char dir[PATH_MAX], text[600], err[1200];
	char *msg = NULL;
	int status = 0, more = 0, fd = attach(cmd, name, period, dir, sizeof(dir), &status);
	if (fd < 0)
		return status;
	if (spoor_reader_open_live(dir, &w->r, &msg) || an_engine_new(w->r, NULL, &w->e)) {
		status = cmd_error(cmd, "%s", msg ? msg : "out of memory");
		free(msg);
		close(fd);
		return status;
	}
	if (script_attach(w->s, w->e, err, sizeof(err))) {
		close(fd);
		return cmd_error(cmd, "%s", err);
	}
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	/* how it ends: 1 the session stopped or ended, 2 the script stopped it, 3 failed */
	int end = 0;
	int64_t t;
	while (!end && !detach) {
		struct pollfd p = {fd, POLLIN, 0};
		int ready = poll(&p, 1, more == RECORD_LIVE_MORE ? 0 : -1);
		if (ready > 0) {
			int word = next_word(fd, &t, text, sizeof(text));
			if (word < 0) {
				fprintf(stderr, "spoor watch: session %s: %s\n", name, text);
				end = 3;
				break;
			}
			if (word) {
				end = 1;
				break;
			}
			w->until = t - w->late;
		}
		if (ready >= 0)
			more = watch_pump(w, w->until, false);
		if (more == RECORD_LIVE_STOP)
			end = 2;
	}
	if (end == 2) { /* the script has seen enough: no more events for it */
		int st = ask("stop", name, text, sizeof(text));
		fprintf(stderr, "spoor watch: %s%s\n", st ? "spoor.stop: " : "", text);
	} else if (end == 1) { /* all is written: to the last event */
		watch_pump(w, INT64_MAX, true);
	} else { /* detached, or failed: what was written by the last word */
		watch_pump(w, w->until, true);
	}
	if (detach)
		fprintf(stderr, "spoor watch: detached; session %s goes on\n", name);
	close(fd);
	bool failed = watch_finish(w);
	return failed || w->rc ? 1 : 0;
}
