/* SPDX-License-Identifier: MIT */
/*
 * cmd-watch.c: `spoor watch [options] SCRIPT.lua (-- CMD [ARGS] | -a)`: a Lua script's
 * handlers on a live session (LTT's tracewatch, done again). The session records as
 * `spoor record` does and, every --period, writes what the buffers hold (the packets in
 * progress too) and reads it back in this same process, in time order, up to a watermark
 * a little behind the moment of the flush. The script chooses the events to enable.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/engine.h"
#include "kernel/instance.h"
#include "kernel/select.h"
#include "kernel/upaths.h"
#include "reader/reader.h"
#include "record-args.h"
#include "record/outdir.h"
#include "script/script.h"
#include "watch-live.h"

/* An event stamped this long before a flush is in it (--late, by default): what a tracer
 * has stamped and not yet committed (a few hundred ns, unless preempted in between) has
 * this much time. */
#define LATE_NS 5000000
/* How long the script runs before the recorder drains the buffers again. */
#define SLICE_NS 2000000

enum { OPT_PERIOD = OPT_RECORD_COUNT, OPT_LATE, OPT_SESSION, OPT_SOCKET };

static const struct cmd_option watch_options[] = {
    RECORD_OPTION_ROWS[OPT_PERIOD] = {"period", 0, "TIME",
                                      "hand the events to the script this often "
                                      "(default 20ms; 1ms to 1s)"},
    [OPT_LATE] = {"late", 0, "TIME",
                  "read only events stamped this long before each flush; later ones wait "
                  "for the next (default 5ms; at most 1s)"},
    [OPT_SESSION] = {"session", 0, "NAME",
                     "watch the session daemon's running session NAME instead of recording "
                     "(no command; Ctrl-C detaches, the session goes on)"},
    [OPT_SOCKET] = {"socket", 0, "PATH",
                    "the session daemon's socket, for --session and spoor.snapshot() (default: "
                    "$SPOOR_DAEMON_SOCKET, else the user's daemon, else the system's)"},
    {NULL, 0, NULL, NULL},
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	stop_requested = sig;
}

/* At most SLICE_NS (all: to the end): the rest waits on disk while the recorder drains the
 * buffers, so a script slower than the traced programs delays its events but loses none. */
int watch_pump(struct watch *w, int64_t until, bool all)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	int64_t deadline =
	    all ? INT64_MAX : (int64_t) now.tv_sec * 1000000000 + now.tv_nsec + SLICE_NS;
	int rc = 0;
	if (until != w->read_until) { /* something new was written (else: go on reading) */
		w->read_until = until;
		rc = spoor_reader_live_refresh(w->r, until);
		if (!rc)
			rc = an_engine_refresh(w->e);
	}
	int more = rc ? 0 : an_engine_run_until(w->e, deadline);
	if (more < 0)
		rc = more;
	if (rc < 0 && !w->rc) {
		w->rc = rc;
		fprintf(stderr, "spoor watch: error: %s; the recording goes on\n", strerror(-rc));
	}
	if (!w->failed && script_error(w->s, w->err, sizeof(w->err))) {
		w->failed = true;
		fprintf(stderr, "spoor watch: %s\nspoor watch: the recording goes on to its end\n",
		        w->err);
	}
	if (script_stopped(w->s))
		return RECORD_LIVE_STOP;
	return more > 0 ? RECORD_LIVE_MORE : 0;
}

bool watch_finish(struct watch *w)
{
	if (!w->failed && script_finish(w->s, w->err, sizeof(w->err))) {
		fprintf(stderr, "spoor watch: %s\n", w->err);
		w->failed = true;
	}
	uint64_t nlate = spoor_reader_live_late(w->r);
	if (nlate)
		fprintf(stderr,
		        "spoor watch: warning: %llu events reached the script after later ones "
		        "(written more than %g ms after they happened; see --late)\n",
		        (unsigned long long) nlate, (double) w->late / 1e6);
	return w->failed;
}

static int on_live(void *arg, int64_t flushed)
{
	struct watch *w = arg;
	if (flushed != INT64_MIN)
		w->until = flushed - w->late;
	int rc = watch_pump(w, w->until, false);
	if (rc == RECORD_LIVE_STOP)
		stop_requested = RECORD_STOP_SELF; /* the command gets SIGTERM */
	return rc;
}

/* Without -k: the kernel events the script has handlers for; on("*", ...) alone does not
 * choose any, or it would enable every tracepoint of the kernel. */
static int choose_kernel_events(const struct command *cmd, struct record_args *a, struct script *s)
{
	char root[512], err[512];
	struct kevent_list all = {0};

	if (kinstance_find_tracefs(root, sizeof(root), err, sizeof(err)) ||
	    kevents_all(root, &all)) {
		kevents_free(&all);
		return 0; /* no kernel here: the script watches user space only */
	}
	/* one -k list of SYSTEM:EVENT,... (there may be hundreds: sys_enter_*) */
	char *list = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&list, &len);
	for (size_t i = 0; m && i < all.n; i++)
		if (script_handles(s, all.v[i].name, false))
			fprintf(m, "%s%s:%s", ftell(m) ? "," : "", all.v[i].system, all.v[i].name);
	kevents_free(&all);
	for (const char *const *f = upaths_functions; m && *f; f++) {
		char name[64];
		snprintf(name, sizeof(name), "%s_%s", UPATHS_SYSTEM, *f);
		if (script_handles(s, name, false))
			fprintf(m, "%s%s:%s", ftell(m) ? "," : "", UPATHS_SYSTEM, *f);
	}
	int rc = !m || fclose(m) ? cmd_error(cmd, "out of memory") : 0;
	if (!rc && len && !record_push_kernel(a, list))
		rc = cmd_error(cmd, "out of memory");
	free(list);
	return rc;
}

/* Options, then SCRIPT, then options again, then -- CMD: both `spoor watch -a s.lua` and
 * `spoor watch s.lua -a` read as meant. */
struct watch_args {
	uint64_t period, late;
	const char *session, *socket;
	bool recording; /* a recording option was given: not with --session */
};

static int parse(const struct command *cmd, struct record_args *a, struct watch_args *wa, int argc,
                 char **argv, int *script_at, int *first)
{
	const char *arg;
	int row, rc;

	*script_at = -1;
	optind = 1;
	for (int pass = 0; pass < 2; pass++) {
		while ((row = cmd_getopt(cmd, argc, argv, &arg, first)) != -1) {
			if (row == OPT_HELP) {
				cmd_help(cmd, stdout);
				return -1;
			}
			if (row == OPT_SESSION || row == OPT_SOCKET) {
				*(row == OPT_SESSION ? &wa->session : &wa->socket) = arg;
				continue;
			}
			if (row == OPT_PERIOD) {
				if (record_parse_duration(arg, &wa->period) ||
				    wa->period < 1000000 || wa->period > 1000000000)
					return cmd_usage_error(
					    cmd, "invalid period '%s' (1ms to 1s)", arg);
				continue;
			}
			if (row == OPT_LATE) {
				if (record_parse_duration(arg, &wa->late) || wa->late > 1000000000)
					return cmd_usage_error(
					    cmd, "invalid --late '%s' (at most 1s)", arg);
				continue;
			}
			if (row == OPT_OVERWRITE)
				return cmd_usage_error(cmd,
				                       "the flight recorder is read at its end, "
				                       "not live: no --overwrite here");
			if ((rc = row < 0 ? 2 : record_take_option(cmd, a, row, arg)))
				return rc;
			wa->recording = true;
		}
		if (pass || *first >= argc || !strcmp(argv[*first - 1], "--"))
			break;
		*script_at = *first;
		optind = *first + 1;
	}
	if (*script_at < 0)
		return cmd_usage_error(cmd, "no script given (spoor watch SCRIPT.lua -- CMD)");
	return 0;
}

static int run_watch(const struct command *cmd, int argc, char **argv)
{
	struct record_args a = RECORD_ARGS_INIT;
	a.buffer_total = 1 << 20; /* the recorder shares its thread with the script: more room */
	struct watch w = {0};
	struct record_session *session = NULL;
	struct watch_args wa = {.period = 20000000, .late = LATE_NS};
	char tmpdir[] = "/tmp/spoor-watch-XXXXXX", err[1200], patterns[1024];
	int script_at, first, rc;
	bool recorded = false;

	if ((rc = parse(cmd, &a, &wa, argc, argv, &script_at, &first)))
		goto out_args;
	if (wa.session && (wa.recording || first < argc)) {
		rc = cmd_usage_error(cmd, "--session watches a session as spoor session made it: "
		                          "no command, and no recording options");
		goto out_args;
	}
	w.late = (int64_t) wa.late;
	if (script_open(argv[script_at], &w.s, err, sizeof(err))) {
		rc = cmd_error(cmd, "%s", err);
		goto out_args;
	}
	if ((rc = watch_allow_snapshots(cmd, w.s, wa.socket)))
		goto out_script;
	if (wa.session) {
		rc = watch_session(cmd, &w, wa.session, wa.period);
		an_engine_free(w.e);
		spoor_reader_close(w.r);
		goto out_script;
	}
	if (!a.npatterns) {
		size_t n = script_event_patterns(w.s, patterns, sizeof(patterns));
		for (size_t at = 0; at < n && !rc; at += strlen(patterns + at) + 1)
			if (!record_push(&a.patterns, &a.npatterns, patterns + at))
				rc = cmd_error(cmd, "out of memory");
	}
	if (!rc && !a.nkevents && !a.nfunctions)
		rc = choose_kernel_events(cmd, &a, w.s);
	if (rc || (rc = record_check_args(cmd, &a, first, argc)))
		goto out_script;
	if (a.o.outdir)
		rc = record_claim_outdir(cmd, &a, NULL, 0);
	else if ((a.o.outdir = mkdtemp(tmpdir)))
		a.out.made = true;
	else
		rc = cmd_error(cmd, "cannot make a directory in /tmp: %s", strerror(errno));
	if (rc)
		goto out_script;
	a.o.live_ns = wa.period;
	a.o.on_live = on_live;
	a.o.live_arg = &w;
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	char *msg = NULL;
	if ((rc = record_session_new(&a.o, &session, err, sizeof(err)))) {
		rc = cmd_error(cmd, "%s", err);
		goto out_dir;
	}
	if (spoor_reader_open_live(a.o.outdir, &w.r, &msg) || an_engine_new(w.r, NULL, &w.e)) {
		rc = cmd_error(cmd, "%s", msg ? msg : "out of memory");
		free(msg);
		goto out_session;
	}
	if (script_attach(w.s, w.e, err, sizeof(err))) {
		rc = cmd_error(cmd, "%s", err);
		goto out_session;
	}
	struct record_child child;
	rc = record_run_command(session, &a, argv, first, argc, &stop_requested, &child);
	recorded = child.started;
	if (!recorded) {
		rc = rc ? cmd_error(cmd, "%s", strerror(-rc))
		        : record_cannot_run(cmd, argv[first], child.exec_errno);
		goto out_session;
	}
	if (rc) {
		rc = cmd_error(cmd, "%s", strerror(-rc));
		goto out_session;
	}
	/* the session is over and everything is written: the rest, up to the last event */
	if (!script_stopped(w.s))
		watch_pump(&w, INT64_MAX, true);
	watch_finish(&w);
	struct record_totals t;
	record_session_totals(session, &t);
	if (a.o.outdir != tmpdir)
		record_report("spoor watch", &a.o, &t);
	else if (t.discarded || (t.kernel && t.k.lost))
		fprintf(stderr,
		        "spoor watch: warning: events lost: %llu in user space, %llu in "
		        "the kernel (a bigger -b or --kernel-buffer leaves more room)\n",
		        (unsigned long long) t.discarded,
		        (unsigned long long) (t.kernel ? t.k.lost : 0));
	if (a.o.outdir == tmpdir)
		record_report_write_error("spoor watch", &t);
	/* spoor's own failure first, then the command's */
	rc = w.failed || w.rc || record_failed(&t)
	         ? 1
	         : record_command_exit(cmd, argv, first, argc, &child, a.o.outdir != tmpdir);
out_session:
	an_engine_free(w.e);
	spoor_reader_close(w.r);
	record_session_free(session);
out_dir:
	if (a.o.outdir == tmpdir || !recorded) /* -o DIR with nothing in it is not kept either */
		outdir_undo(a.o.outdir, &a.out);
out_script:
	script_free(w.s);
out_args:
	record_args_free(&a);
	return rc < 0 ? 0 : rc;
}

const struct command cmd_watch = {
    .name = "watch",
    .summary = "run a Lua script's event handlers on a live session (docs/scripts.md)",
    .description = "Runs a Lua script's event handlers on a live session: the script names the "
                   "events to enable, and its handlers see them within milliseconds.",
    .usage = "[options] SCRIPT.lua [options] (-- CMD [ARGS...] | -a)",
    .options = watch_options,
    .run = run_watch,
};
