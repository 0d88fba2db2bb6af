/* SPDX-License-Identifier: MIT */
/*
 * cmd-session.c: `spoor session VERB [NAME] [options]`: drive the session daemon's
 * sessions (docs/sessions.md). Options are parsed here, with each verb's table (the
 * recording options' rows and syntax: record-args.h), paths made absolute, and the
 * request sent (lib/ipc/ctl.h); the daemon answers with what to print and the exit status.
 */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "ipc/ctl.h"
#include "ipc/paths.h"
#include "daemon-socket.h"
#include "record-args.h"

#define ROW_SOCKET                                                                                 \
	{                                                                                          \
		"socket", 0, "PATH",                                                               \
		    "the daemon's socket (default: $SPOOR_DAEMON_SOCKET, else the user's daemon, " \
		    "else the system's)"                                                           \
	}
#define ROW_USERSPACE                                                                              \
	{                                                                                          \
		"userspace", 'u', "PATTERN",                                                       \
		    "user-space events whose provider:name matches PATTERN (repeatable)"           \
	}

/* record's row names spoor watch's default; a session's is its own */
#define ROW_SESSION_BUFFER_SIZE                                                                    \
	{                                                                                          \
		"buffer-size", 'b', "SIZE", "ring buffer per thread, e.g. 256k, 4m (default 256k)" \
	}

static const struct cmd_option create_options[] = {
    {"output", 'o', "DIR",
     "write the trace to DIR, new or empty (default: ~/spoor-traces/NAME-DATE-TIME)"},
    ROW_OVERWRITE,
    ROW_SESSION_BUFFER_SIZE,
    ROW_SUBBUFFERS,
    {"rotate-every", 0, "SIZE/TIME",
     "rotate when the chunk reaches SIZE (4m, 1g: k, m, g) or every TIME (30s, 500ms, 1h)"},
    ROW_KERNEL_BUFFER,
    ROW_LAYOUT,
    ROW_SOCKET,
    ROW_HELP,
    {NULL, 0, NULL, NULL},
};
static const struct cmd_option enable_options[] = {
    ROW_USERSPACE, ROW_KERNEL, ROW_FILTER, ROW_SOCKET, ROW_HELP, {NULL, 0, NULL, NULL},
};
static const struct cmd_option disable_options[] = {
    ROW_USERSPACE, ROW_KERNEL, {"all", 'a', NULL, "every user-space pattern"},
    ROW_SOCKET,    ROW_HELP,   {NULL, 0, NULL, NULL},
};
static const struct cmd_option snapshot_options[] = {
    {"output", 'o', "DIR",
     "write the snapshot to DIR, new or empty (default: OUTDIR/snapshots/snapshot-N-DATE-TIME)"},
    ROW_SOCKET,
    ROW_HELP,
    {NULL, 0, NULL, NULL},
};
static const struct cmd_option plain_options[] = {ROW_SOCKET, ROW_HELP, {NULL, 0, NULL, NULL}};

/* Every option of every verb, for `spoor help session`, the man page and completion. */
static const struct cmd_option session_options[] = {
    {"output", 'o', "DIR",
     "create: the trace's folder, new or empty (default: ~/spoor-traces/NAME-DATE-TIME); "
     "snapshot: the snapshot's (default: OUTDIR/snapshots/snapshot-N-DATE-TIME)"},
    ROW_OVERWRITE,
    ROW_SESSION_BUFFER_SIZE,
    ROW_SUBBUFFERS,
    {"rotate-every", 0, "SIZE/TIME",
     "create: rotate when the chunk reaches SIZE (4m, 1g: k, m, g) or every TIME (30s, 500ms, "
     "1h)"},
    ROW_KERNEL_BUFFER,
    {"layout", 0, "NAME",
     "create: names of the kernel trace: spoor (ftrace's, the default) or lttng "
     "(lttng-modules 2.13's, for Trace Compass and lttng-analyses)"},
    ROW_USERSPACE,
    ROW_KERNEL,
    ROW_FILTER,
    {"all", 'a', NULL, "disable: every user-space pattern"},
    ROW_SOCKET,
    ROW_HELP,
    {NULL, 0, NULL, NULL},
};

struct verb {
	struct command cmd; /* "session VERB": its options and messages */
	bool name_optional;
};

#define VERB(v, u, s, opts, opt)                                                                   \
	{                                                                                          \
		{.name = "session " v, .summary = s, .usage = u, .options = opts}, opt             \
	}
static const struct verb verbs[] = {
    VERB("create",
         "NAME [-o DIR] [--overwrite] [-b SIZE] [--subbuffers N] [--rotate-every SIZE|TIME] "
         "[--layout spoor|lttng]",
         "create a session", create_options, false),
    VERB("enable", "NAME [-u PATTERN]... [-k EVENTS] [--filter EVENT:EXPR]...",
         "enable events in a session, before or while it runs", enable_options, false),
    VERB("disable", "NAME [-u PATTERN]... [-k EVENTS] [-a]",
         "disable events (as they were enabled)", disable_options, false),
    VERB("start", "NAME", "start tracing", plain_options, false),
    VERB("stop", "NAME", "stop tracing; what was traced is written", plain_options, false),
    VERB("snapshot", "NAME [-o DIR]", "write a flight recorder's buffers as a trace",
         snapshot_options, false),
    VERB("rotate", "NAME", "close the current chunk of the trace and go on in a new one",
         plain_options, false),
    VERB("destroy", "NAME", "end a session (its trace stays)", plain_options, false),
    VERB("list", "[NAME]", "the sessions, or one in full", plain_options, true),
};
#define NVERBS (sizeof(verbs) / sizeof(verbs[0]))

static const char *opt_name(const struct command *cmd, int row)
{
	return cmd->options[row].name;
}

/* ~/spoor-traces/NAME-DATE-TIME, as LTTng's default (the daemon makes it unique). */
static int default_outdir(const char *name, char *buf, size_t cap)
{
	const char *home = getenv("HOME");
	if (!home || home[0] != '/') {
		struct passwd *pw = getpwuid(getuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (!home)
		return -1;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	return snprintf(buf, cap, "%s/spoor-traces/%s-%s", home, name, when) < (int) cap ? 0 : -1;
}

/* --rotate-every: a SIZE ends in k, m or g; anything else is a TIME. */
static int rotate_every(const struct command *cmd, const char *arg, struct ctl_request *r)
{
	size_t n = strlen(arg);
	uint64_t v;
	if (n && strchr("kKmMgG", arg[n - 1])) {
		if (record_parse_size(arg, &v) || v < CTL_ROTATE_MIN_BYTES)
			return cmd_usage_error(cmd, "invalid size '%s' (4k or more)", arg);
		ctl_request_add_u64(r, "rotate-bytes", v);
	} else {
		if (record_parse_duration(arg, &v) || v < CTL_ROTATE_MIN_NS)
			return cmd_usage_error(cmd,
			                       "invalid --rotate-every '%s' (a size: 4m, 1g; or a "
			                       "time: 30s, 500ms, 1h; 10ms or more)",
			                       arg);
		ctl_request_add_u64(r, "rotate-ns", v);
	}
	return 0;
}

/* One option of a verb into the request (record_args gathers the recording ones). */
static int take(const struct command *cmd, int row, const char *arg, struct record_args *ra,
                struct ctl_request *r, bool *output)
{
	static const struct {
		const char *name;
		int row;
	} shared[] = {{"overwrite", OPT_OVERWRITE},   {"buffer-size", OPT_BUFFER_SIZE},
	              {"subbuffers", OPT_SUBBUFFERS}, {"kernel-buffer", OPT_KERNEL_BUFFER},
	              {"kernel", OPT_KERNEL},         {"filter", OPT_FILTER},
	              {"layout", OPT_LAYOUT}};
	const char *name = opt_name(cmd, row);
	char path[PATH_MAX];
	for (size_t i = 0; i < sizeof(shared) / sizeof(shared[0]); i++)
		if (!strcmp(name, shared[i].name))
			return record_take_option(cmd, ra, shared[i].row, arg);
	if (!strcmp(name, "output")) {
		if (cmd_absolute_path(arg, path, sizeof(path)))
			return cmd_usage_error(cmd, "path too long: %s", arg);
		ctl_request_add(r, "output", path);
		*output = true;
	} else if (!strcmp(name, "rotate-every")) {
		return rotate_every(cmd, arg, r);
	} else if (!strcmp(name, "userspace")) {
		ctl_request_add(r, "u", arg);
	} else if (!strcmp(name, "all")) {
		ctl_request_add(r, "all", "1");
	}
	return 0;
}

/* What record_args gathered, into the request. */
static int add_recording(const struct command *cmd, const char *verb, struct record_args *ra,
                         struct ctl_request *r)
{
	for (size_t i = 0; i < ra->nkevents; i++)
		ctl_request_add(r, "k", ra->kevents[i]);
	for (size_t i = 0; i < ra->nfilters; i++)
		ctl_request_add(r, "filter", ra->filters[i]);
	if (strcmp(verb, "create"))
		return 0;
	int rc = record_check_geometry(cmd, ra);
	if (rc)
		return rc;
	ctl_request_add_u64(r, "subbuf-size", ra->o.subbuf_size);
	ctl_request_add_u64(r, "subbuffers", ra->o.num_subbufs);
	if (ra->o.overwrite)
		ctl_request_add(r, "overwrite", "1");
	if (ra->k.buffer_kb)
		ctl_request_add_u64(r, "kernel-buffer-kb", ra->k.buffer_kb);
	if (ra->layout)
		ctl_request_add(r, "layout", klayout_name(ra->k.layout));
	return 0;
}

int session_pick_socket(const char *given, char *buf, size_t cap)
{
	const char *env = getenv("SPOOR_DAEMON_SOCKET");
	struct stat st;
	if (given || (env && *env))
		return snprintf(buf, cap, "%s", given ? given : env) < (int) cap ? 0 : -1;
	int rc = ipc_daemon_socket(IPC_USER, buf, cap);
	if (rc >= 0 && !stat(buf, &st) && (rc == 0 || !ipc_private_folder(buf))) {
		int fd = ctl_connect(buf); /* a user daemon killed leaves its socket */
		if (fd >= 0) {
			close(fd);
			return 0;
		}
	}
	return ipc_daemon_socket(IPC_SYSTEM, buf, cap) < 0 ? -1 : 0;
}

/* Send, and print what the daemon answers; its status is ours. */
static int ask(const struct command *cmd, const char *sock, const struct ctl_request *r)
{
	static char reply[CTL_MAX_REPLY];
	long n = ctl_call(sock, r, reply, sizeof(reply));
	if (n == -ENOENT || n == -ECONNREFUSED)
		return cmd_error(cmd,
		                 "no session daemon listens on %s (start one with 'spoor "
		                 "daemon')",
		                 sock);
	if (n < 0)
		return cmd_error(cmd, "%s: %s", sock, strerror((int) -n));
	int status;
	const char *out, *err;
	size_t outlen, errlen;
	if (ctl_reply_parse(reply, (size_t) n, &status, &out, &outlen, &err, &errlen))
		return cmd_error(cmd, "the daemon at %s sent a malformed reply", sock);
	fwrite(out, 1, outlen, stdout);
	for (const char *line = err, *end = err + errlen; line < end;) {
		const char *nl = memchr(line, '\n', (size_t) (end - line));
		size_t l = nl ? (size_t) (nl - line) : (size_t) (end - line);
		fprintf(stderr, "spoor %s: %.*s\n", cmd->name, (int) l, line);
		line += l + 1;
	}
	if (status == 2)
		fprintf(stderr, "try 'spoor help session'\n");
	return status;
}

static int run_verb(const struct verb *v, int argc, char **argv)
{
	const struct command *cmd = &v->cmd;
	const char *verb = cmd->name + strlen("session ");
	static struct ctl_request r;
	struct record_args ra = RECORD_ARGS_INIT;
	const char *arg, *name = NULL, *sock = NULL;
	int first, row, rc = 0;
	bool output = false;

	ctl_request_begin(&r, verb);
	/* NAME first, as `lttng create NAME -o DIR`: options after it */
	if (argc > 1 && argv[1][0] != '-') {
		name = argv[1];
		argc--;
		argv++;
	}
	optind = 1;
	while (!rc && (row = cmd_getopt(cmd, argc, argv, &arg, &first)) != -1) {
		if (row < 0)
			rc = 2;
		else if (!strcmp(opt_name(cmd, row), "help")) {
			cmd_help(cmd, stdout);
			record_args_free(&ra);
			return 0;
		} else if (!strcmp(opt_name(cmd, row), "socket"))
			sock = arg;
		else
			rc = take(cmd, row, arg, &ra, &r, &output);
	}
	if (!rc && !name && first < argc)
		name = argv[first++];
	if (!rc && first < argc)
		rc = cmd_usage_error(cmd, "unexpected argument '%s'", argv[first]);
	if (!rc && !name && !v->name_optional)
		rc = cmd_usage_error(cmd, "give the session's NAME (usage: spoor %s %s)", cmd->name,
		                     cmd->usage);
	if (!rc)
		rc = add_recording(cmd, verb, &ra, &r);
	record_args_free(&ra);
	if (rc)
		return rc;
	if (name)
		ctl_request_add(&r, "name", name);
	char path[PATH_MAX];
	if (!strcmp(verb, "create") && !output) {
		if (default_outdir(name, path, sizeof(path)))
			return cmd_error(cmd, "no home folder to write in: give -o DIR");
		ctl_request_add(&r, "output", path);
		ctl_request_add(&r, "unique", "1");
	}
	if (ctl_request_end(&r))
		return cmd_usage_error(cmd,
		                       "the request is too long (or has a newline in a value)");
	char sockpath[PATH_MAX];
	if (session_pick_socket(sock, sockpath, sizeof(sockpath)))
		return cmd_error(cmd, "the socket path is too long");
	return ask(cmd, sockpath, &r);
}

static int run_session(const struct command *cmd, int argc, char **argv)
{
	if (argc < 2)
		return cmd_usage_error(cmd, "give a verb: create, enable, disable, start, stop, "
		                            "snapshot, rotate, destroy or list");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		cmd_help(cmd, stdout);
		return 0;
	}
	for (size_t i = 0; i < NVERBS; i++)
		if (!strcmp(argv[1], verbs[i].cmd.name + strlen("session ")))
			return run_verb(&verbs[i], argc - 1, argv + 1);
	return cmd_usage_error(cmd,
	                       "unknown verb '%s' (create, enable, disable, start, stop, "
	                       "snapshot, rotate, destroy, list)",
	                       argv[1]);
}

const struct command cmd_session = {
    .name = "session",
    .summary = "create, start, stop, snapshot, rotate and destroy sessions in the daemon",
    .description =
        "Drives the session daemon (spoor daemon), which traces programs already running. "
        "create NAME makes a session writing under ~/spoor-traces/NAME-DATE-TIME (or -o DIR), "
        "its kernel trace in spoor's names or, with --layout=lttng, in LTTng's; "
        "enable NAME -u PATTERN and -k EVENTS choose its events, before or while it runs, and "
        "disable takes them back; start and stop turn it on and off; snapshot writes a "
        "flight recorder's (--overwrite) buffers as a trace without stopping it; rotate "
        "closes the current chunk into OUTDIR/archives/chunk-NNN and goes on; destroy ends "
        "it, its trace kept; list shows the sessions, or one in full with its programs and "
        "their buffers. A user sees and drives only their own sessions, and traces only "
        "their own programs; root and the group `tracing` trace everyone's, and kernel "
        "events need them (docs/sessions.md).",
    .usage = "create|enable|disable|start|stop|snapshot|rotate|destroy|list [NAME] [options]",
    .options = session_options,
    .run = run_session,
};
