/* SPDX-License-Identifier: MIT */
/* record-args.h: the options of a recording session, shared by `spoor record` and `spoor
 * watch` (which takes the same ones and a few of its own after them). */
#ifndef CMDS_RECORD_ARGS_H
#define CMDS_RECORD_ARGS_H

#include <stdbool.h>
#include <signal.h>
#include <sys/types.h>

#include "command.h"
#include "record/outdir.h"
#include "record/record.h"

enum {
	OPT_EVENT,
	OPT_KERNEL,
	OPT_FILTER,
	OPT_FUNCTION,
	OPT_PID,
	OPT_ALL,
	OPT_DURATION,
	OPT_OUTPUT,
	OPT_FORCE,
	OPT_OVERWRITE,
	OPT_BUFFER_SIZE,
	OPT_SUBBUFFERS,
	OPT_KERNEL_BUFFER,
	OPT_LAYOUT,
	OPT_HELP,
	OPT_RECORD_COUNT /* a command's own options follow */
};

/* Rows that spoor session takes too (cmds/cmd-session.c). */
#define ROW_KERNEL                                                                                 \
	{                                                                                          \
		"kernel", 'k', "EVENTS",                                                           \
		    "record kernel tracepoints: comma-separated SYSTEM, SYSTEM:EVENT or EVENT, "   \
		    "wildcards allowed (e.g. sched,irq:*,syscalls:sys_enter_openat)"               \
	}
#define ROW_FILTER                                                                                 \
	{                                                                                          \
		"filter", 0, "EVENT:EXPR",                                                         \
		    "kernel filter for EVENT in the kernel's syntax, e.g. "                        \
		    "'sched_switch:prev_pid != 0' (repeatable)"                                    \
	}
#define ROW_OVERWRITE                                                                              \
	{                                                                                          \
		"overwrite", 0, NULL,                                                              \
		    "flight recorder: keep the latest data, overwriting the oldest"                \
	}
#define ROW_BUFFER_SIZE                                                                            \
	{                                                                                          \
		"buffer-size", 'b', "SIZE",                                                        \
		    "ring buffer per thread, e.g. 256k, 4m (default 256k; spoor watch: 1m)"        \
	}
#define ROW_SUBBUFFERS                                                                             \
	{                                                                                          \
		"subbuffers", 0, "N", "sub-buffers per ring buffer, a power of two (default 4)"    \
	}
#define ROW_KERNEL_BUFFER                                                                          \
	{                                                                                          \
		"kernel-buffer", 0, "SIZE",                                                        \
		    "kernel ring buffer per CPU, e.g. 4m (default: the kernel's)"                  \
	}
#define ROW_LAYOUT                                                                                 \
	{                                                                                          \
		"layout", 0, "NAME",                                                               \
		    "names of the kernel trace: spoor (ftrace's, the default) or lttng "           \
		    "(lttng-modules 2.13's, for Trace Compass and lttng-analyses)"                 \
	}
#define ROW_HELP                                                                                   \
	{                                                                                          \
		"help", 'h', NULL, "show this help"                                                \
	}

/* The rows of the option table, in the order of the enum (a command adds its own after). */
#define RECORD_OPTION_ROWS                                                                         \
	[OPT_EVENT] =                                                                              \
	    {"event", 'e', "PATTERN",                                                              \
	     "record events whose provider:name matches PATTERN (repeatable; default: all)"},      \
	[OPT_KERNEL] = ROW_KERNEL, [OPT_FILTER] = ROW_FILTER,                                      \
	[OPT_FUNCTION] = {"function", 'F', "PATTERN",                                              \
	                  "run the kernel's function tracer on functions matching PATTERN "        \
	                  "(begin*, *middle*, *end, :mod:NAME; '*' for all; repeatable)"},         \
	[OPT_PID] = {"pid", 'p', "PID",                                                            \
	             "kernel events and functions of this pid only (repeatable)"},                 \
	[OPT_ALL] = {"all", 'a', NULL,                                                             \
	             "no command: record the whole system (with -k or -F) until "                  \
	             "Ctrl-C, SIGTERM or --duration"},                                             \
	[OPT_DURATION] = {"duration", 'd', "TIME", "stop after TIME (e.g. 5s, 250ms)"},            \
	[OPT_OUTPUT] = {"output", 'o', "DIR",                                                      \
	                "write the trace to DIR (default: ./spoor-trace-DATE-TIME); DIR must be "  \
	                "new or empty"},                                                           \
	[OPT_FORCE] = {"force", 0, NULL,                                                           \
	               "replace the trace already in -o DIR (only a trace; it is removed once "    \
	               "the recording has started)"},                                              \
	[OPT_OVERWRITE] = ROW_OVERWRITE, [OPT_BUFFER_SIZE] = ROW_BUFFER_SIZE,                      \
	[OPT_SUBBUFFERS] = ROW_SUBBUFFERS, [OPT_KERNEL_BUFFER] = ROW_KERNEL_BUFFER,                \
	[OPT_LAYOUT] = ROW_LAYOUT, [OPT_HELP] = ROW_HELP,

struct record_args {
	struct record_opts o;
	struct kernel_opts k;
	const char **patterns, **kevents, **filters, **functions;
	size_t npatterns, nkevents, nfilters, nfunctions, npids;
	pid_t *pids;
	char *copies[64]; /* -k lists cut at commas */
	size_t ncopies;
	bool all;
	bool force;         /* --force */
	bool layout;        /* --layout given */
	struct outdir out;  /* the output directory, as claimed */
	char *child_env[8]; /* NAME=VALUE put into the command's environment (--calls) */
	size_t nchild_env;
	uint64_t buffer_total;
};

#define RECORD_ARGS_INIT                                                                           \
	{                                                                                          \
		.o = {.num_subbufs = 4}, .buffer_total = 256 << 10                                 \
	}

void record_args_free(struct record_args *a);
/* One option of the shared rows; 0 to go on, else the exit code. */
int record_take_option(const struct command *cmd, struct record_args *a, int row, const char *arg);
/* Append to a growing array; false when out of memory. */
bool record_push(const char ***v, size_t *n, const char *s);
/* 5s, 250ms, 1.5m, 100us, 2h; a bare number is seconds. */
int record_parse_duration(const char *s, uint64_t *ns);
/* -k sched,irq: each comma-separated part is a pattern; false when out of room. */
bool record_push_kernel(struct record_args *a, const char *list);
/* 256k, 4m, 1g, or bytes. */
int record_parse_size(const char *s, uint64_t *out);
/* -b and --subbuffers: a->o.subbuf_size, a power of two from 4k to 64m; 0 or the exit code. */
int record_check_geometry(const struct command *cmd, struct record_args *a);
/* After the options: check them and fill a->o (and a->k with kernel events). */
int record_check_args(const struct command *cmd, struct record_args *a, int first, int argc);
/* Claim a->o.outdir (outdir.h: new, empty, or an old trace replaced with --force), or
 * without -o make ./spoor-trace-DATE-TIME in buf (-2, -3, ... when taken). 0 or the exit
 * code. */
int record_claim_outdir(const struct command *cmd, struct record_args *a, char *buf, size_t cap);

struct record_child {
	int status;     /* its wait status */
	int exec_errno; /* not 0: it could not be run (exec failed), and the session did not */
	bool started;   /* it runs (or there is none: -a) and so does the session */
	bool stopped;   /* spoor sent it SIGTERM (*stop, or the duration passed) */
	int signal;     /* the signal that asked spoor to stop (*stop), 0 if none did */
};
/* The stop flag of a recording: 0 to go on, else the signal that spoor received (its
 * handler stores it), or RECORD_STOP_SELF when spoor stops on its own (spoor.stop()). */
#define RECORD_STOP_SELF (-1)
/* Run the session with the command argv[first..] (none: -a) until it ends, *stop is set or
 * the duration passes; then the command gets SIGTERM if *stop is set or a duration was
 * given. The command is started before the session runs, so that one that cannot be run is
 * known before anything is recorded; once it runs, the old trace that --force replaces is
 * removed (outdir_started). Returns -errno. */
int record_run_command(struct record_session *s, struct record_args *a, char **argv, int first,
                       int argc, volatile sig_atomic_t *stop, struct record_child *c);
/* The command could not be run (exec's errno): the shell's message; returns the shell's
 * code (127 not found, 126 found but not runnable). */
int record_cannot_run(const struct command *cmd, const char *name, int err);
/* After a run where spoor did its part: a line about a command that failed (and, with
 * summary, one that spoor stopped), and the exit code: the command's status, 128+N when
 * signal N killed it, 0 without a command or when it died of the SIGTERM with which spoor
 * stopped it, or of the signal that stopped spoor (Ctrl-C reaches both: the terminal
 * signals the whole foreground process group). */
int record_command_exit(const struct command *cmd, char **argv, int first, int argc,
                        const struct record_child *c, bool summary);
/* The session's summary on stderr, as `spoor record` prints it (prefix: "spoor record"). */
void record_report(const char *prefix, const struct record_opts *o, const struct record_totals *t);
/* The line about the user-space trace that spoor could not write (in record_report). */
void record_report_write_error(const char *prefix, const struct record_totals *t);
/* spoor could not write the trace (user space or kernel): its own failure, exit 1. */
bool record_failed(const struct record_totals *t);

#endif
