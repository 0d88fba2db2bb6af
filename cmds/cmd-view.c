/* SPDX-License-Identifier: MIT */
/*
 * cmd-view.c: `spoor view TRACE...`: serves the timeline page on 127.0.0.1 (lib/view/) and
 * prints its URL, until SIGINT or SIGTERM.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "command.h"
#include "view-stats.h"
#include "view/api.h"
#include "view/open.h"
#include "view/server.h"

enum { OPT_PORT, OPT_OPEN, OPT_HELP };

static const struct cmd_option view_options[] = {
    [OPT_PORT] = {"port", 'p', "N", "listen on port N of 127.0.0.1 (default 0: any free port)"},
    [OPT_OPEN] = {"open", 'o', NULL,
                  "open the page in a browser ($BROWSER, else xdg-open), through a private "
                  "file that sends it on (the token stays off command lines)"},
    [OPT_HELP] = {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

struct view_args {
	long port;
	bool open;
	int first; /* the first trace operand */
};

static int parse_args(const struct command *cmd, int argc, char **argv, struct view_args *a)
{
	const char *arg;
	int row;
	optind = 0; /* glibc starts afresh: the order options_anywhere asks for */
	while ((row = cmd_getopt(cmd, argc, argv, &arg, &a->first)) != -1) {
		char *end;
		switch (row) {
		case OPT_PORT:
			errno = 0;
			a->port = strtol(arg, &end, 10);
			if (errno || end == arg || *end || a->port < 0 || a->port > 65535)
				return cmd_usage_error(cmd, "invalid port '%s' (0 to 65535)", arg);
			break;
		case OPT_OPEN: a->open = true; break;
		case OPT_HELP: cmd_help(cmd, stdout); exit(0);
		default: return 2;
		}
	}
	if (a->first >= argc)
		return cmd_usage_error(cmd, "no trace given");
	return 0;
}

/* Serve until SIGINT or SIGTERM (blocked in every thread, taken here); reap the opener
 * (only it: the cache's builder waits for its own child). */
static void wait_for_end(const sigset_t *set, pid_t opener)
{
	for (;;) {
		int sig;
		if (sigwait(set, &sig) || sig != SIGCHLD)
			return;
		if (opener > 0 && waitpid(opener, NULL, WNOHANG) == opener)
			opener = 0;
	}
}

static int run_view(const struct command *cmd, int argc, char **argv)
{
	struct view_args a = {0};
	int rc = parse_args(cmd, argc, argv, &a);
	if (rc)
		return rc;
	struct view_stats_traces traces = {(const char *const *) argv + a.first,
	                                   (size_t) (argc - a.first)};
	struct view_api_config cfg = {
	    .paths = traces.paths,
	    .npaths = traces.npaths,
	    .nstats = view_stats_count,
	    .stats_names = view_stats_names,
	    .stats = view_stats,
	    .stats_data = &traces,
	};
	/* every thread (the cache's builder, the server's) inherits the mask: the signals
	 * come to sigwait only */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	struct view_api *api;
	char *errmsg = NULL;
	if ((rc = view_api_new(&cfg, &api, &errmsg))) {
		cmd_error(cmd, "%s", errmsg ? errmsg : spoor_strerror(rc));
		free(errmsg);
		return 1;
	}
	struct view_server *s;
	char url[VIEW_URL_MAX], err[300];
	if ((rc = view_server_start((uint16_t) a.port, api, &s, url, err, sizeof(err)))) {
		view_api_free(api);
		return cmd_error(cmd, "%s", err);
	}
	printf("%s\n", url);
	fflush(stdout);
	struct view_open o = {0};
	if (a.open && view_open(url, &o, err, sizeof(err)))
		fprintf(stderr, "spoor view: %s\n", err);
	wait_for_end(&set, o.pid);
	view_server_stop(s);
	view_api_free(api);
	view_open_cleanup(&o);
	return 0;
}

const struct command cmd_view = {
    .name = "view",
    .summary = "serve a timeline of the traces to a browser, on 127.0.0.1",
    .description =
        "Serves a web page on 127.0.0.1 that draws the traces as a timeline: a row per thread "
        "(grouped by process) and per CPU, coloured by state, user-space events as marks, the "
        "event rate, the events of the visible range as spoor dump prints them, and the sched, "
        "irq and syscalls statistics of a selected range. It prints the page's URL, which "
        "carries a random token: without it the server answers 403, so other users of the "
        "machine cannot read the traces. It serves until interrupted (SIGINT or SIGTERM). "
        "The page is built into spoor: no network is needed. docs/view.md describes the page.",
    .usage = "[options] TRACE...",
    .options = view_options,
    .run = run_view,
    .options_anywhere = true,
};
