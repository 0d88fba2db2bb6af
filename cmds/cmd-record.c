/* SPDX-License-Identifier: MIT */
/* cmd-record.c: `spoor record [options] -- CMD [ARGS]`: run CMD with user-space tracing on. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"

#include "record-args.h"
#include "record-calls.h"
#include "record/outdir.h"

enum { OPT_CALLS = OPT_RECORD_COUNT };

static const struct cmd_option record_options[] = {
    RECORD_OPTION_ROWS RECORD_CALLS_ROWS{NULL, 0, NULL, NULL},
};

static void args_free(struct record_args *a, struct record_calls *c)
{
	record_args_free(a);
	record_calls_free(c);
}

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	stop_requested = sig;
}

static int run_record(const struct command *cmd, int argc, char **argv)
{
	struct record_args a = RECORD_ARGS_INIT;
	struct record_calls calls = {0};
	char defdir[64];
	const char *arg;
	int first, row, rc;

	optind = 1;
	while ((row = cmd_getopt(cmd, argc, argv, &arg, &first)) != -1) {
		if (row == OPT_HELP) {
			args_free(&a, &calls);
			cmd_help(cmd, stdout);
			return 0;
		}
		if (row >= OPT_CALLS)
			rc = record_calls_take(cmd, &calls, row - OPT_CALLS, arg);
		else
			rc = row < 0 ? 2 : record_take_option(cmd, &a, row, arg);
		if (rc) {
			args_free(&a, &calls);
			return rc;
		}
	}
	if ((rc = record_check_args(cmd, &a, first, argc)) ||
	    (rc = record_calls_check(cmd, &calls, &a, first < argc ? argv[first] : NULL))) {
		args_free(&a, &calls);
		return rc;
	}
	if ((rc = record_claim_outdir(cmd, &a, defdir, sizeof(defdir)))) {
		args_free(&a, &calls);
		return rc;
	}
	/* from here on a signal finishes the trace rather than killing spoor half-way */
	struct sigaction sa = {.sa_handler = on_signal};
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	char err[600];
	struct record_session *s;
	rc = record_session_new(&a.o, &s, err, sizeof(err));
	if (rc) {
		outdir_undo(a.o.outdir, &a.out);
		args_free(&a, &calls);
		return cmd_error(cmd, "%s", err);
	}
	if ((rc = record_calls_env(cmd, &calls, record_session_clock(s), &a))) {
		record_session_free(s);
		outdir_undo(a.o.outdir, &a.out);
		args_free(&a, &calls);
		return rc;
	}
	struct record_child child;
	rc = record_run_command(s, &a, argv, first, argc, &stop_requested, &child);
	if (!child.started) {
		record_session_free(s); /* nothing was recorded: nothing is left */
		outdir_undo(a.o.outdir, &a.out);
		rc = rc ? cmd_error(cmd, "%s", strerror(-rc))
		        : record_cannot_run(cmd, argv[first], child.exec_errno);
		args_free(&a, &calls);
		return rc;
	}
	struct record_totals t;
	record_session_totals(s, &t);
	record_session_free(s);
	if (rc) {
		args_free(&a, &calls);
		return cmd_error(cmd, "%s", strerror(-rc));
	}
	record_report("spoor record", &a.o, &t);
	rc = record_command_exit(cmd, argv, first, argc, &child, true);
	args_free(&a, &calls);
	/* spoor's own failure first, then the command's */
	return record_failed(&t) ? 1 : rc;
}

const struct command cmd_record = {
    .name = "record",
    .summary = "run a command with user-space (and kernel) tracing on; write a CTF trace",
    .description = "Runs CMD with user-space tracing on (programs instrumented with SPOOR_EVENT "
                   "and linked with libspoor-ust) and writes one CTF 1.8 trace per traced "
                   "process under DIR/ust/. With -k, the kernel's tracepoints too, through a "
                   "private tracefs instance (root only), into DIR/kernel/, on the same clock. "
                   "With -a, the whole system, with no command.",
    .usage = "[options] -- CMD [ARGS...]  |  -a -k EVENTS [options]",
    .options = record_options,
    .run = run_record,
};
