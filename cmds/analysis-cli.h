/* SPDX-License-Identifier: MIT */
/*
 * analysis-cli.h: what the analysis commands (spoor irq, sched, disk, syscalls) share on
 * the command line: the options every one takes, opening the traces, the engine, and the
 * message for a trace without the events an analysis needs.
 *
 * A command's option table starts with AN_COMMON_OPTIONS; its own rows follow, numbered
 * from AN_OPT_COMMON.
 */
#ifndef CMDS_ANALYSIS_CLI_H
#define CMDS_ANALYSIS_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/engine.h"
#include "analysis/plugins.h"
#include "command.h"

enum {
	AN_OPT_BEGIN,
	AN_OPT_END,
	AN_OPT_PID,
	AN_OPT_TID,
	AN_OPT_CPU,
	AN_OPT_COMM,
	AN_OPT_JSON,
	AN_OPT_PLUGIN,
	AN_OPT_HELP,
	AN_OPT_COMMON
};

#define AN_COMMON_OPTIONS                                                                          \
	AN_SELECT_OPTIONS, [AN_OPT_JSON] = {"json", 'j', NULL, "print JSON instead of tables"},    \
	                   AN_PLUGIN_OPTIONS
/* The rows before and after --json (spoor script says its own there). */
#define AN_SELECT_OPTIONS                                                                          \
	[AN_OPT_BEGIN] = {"begin", 0, "TIME",                                                      \
	                  "only events at or after TIME (ns or s.fraction since the epoch)"},      \
	[AN_OPT_END] = {"end", 0, "TIME", "only events at or before TIME"},                        \
	[AN_OPT_PID] = {"pid", 'p', "PID", "only this process (repeatable)"},                      \
	[AN_OPT_TID] = {"tid", 't', "TID", "only this thread (repeatable)"},                       \
	[AN_OPT_CPU] = {"cpu", 'c', "CPU", "only this CPU (repeatable)"},                          \
	[AN_OPT_COMM] = {"comm", 0, "NAME",                                                        \
	                 "only processes whose name matches NAME (wildcards; repeatable)"}
#define AN_PLUGIN_OPTIONS                                                                          \
	[AN_OPT_PLUGIN] = {"plugin", 0, "FILE.so",                                                 \
	                   "also run this analysis plug-in, in the same pass (repeatable)"},       \
	[AN_OPT_HELP] = {"help", 'h', NULL, "show this help"}

struct an_cli {
	struct an_filter f;
	bool json;
	int64_t *pids, *tids, *cpus;
	const char **comms;
	const char **plugin_paths;
	size_t nplugins;
	struct spoor_reader *r;
	struct an_engine *e;
	struct an_plugins *plugins;
	bool ran;             /* the pass finished: the plug-ins report when the command is done */
	char **leading;       /* an_cli_start_after's operands before the traces */
	const enum kev *need; /* an_cli_require's kinds: an_cli_run checks that some came */
	size_t nneed;
	char *const *traces; /* the operands that are traces (cmd_note_range) */
	size_t ntraces;
};

/*
 * Parse the options: common ones here, the command's own through `own` (row, arg, data;
 * returns 0 or an exit code). Then open the traces named by the operands and make the
 * engine. Returns 0, or the exit code (errors are reported; help exits 0 with *done set).
 */
int an_cli_start(const struct command *cmd, struct an_cli *c, int argc, char **argv,
                 int (*own)(int row, const char *arg, void *data), void *data, bool *done);
/* The same when the first `leading` operands are not traces (c->leading points to them). */
int an_cli_start_after(const struct command *cmd, struct an_cli *c, int argc, char **argv,
                       int (*own)(int row, const char *arg, void *data), void *data, bool *done,
                       int leading);
/* 0 when the trace declares at least one of the kinds, else an error naming what to record
 * (and the declared events that look like them, in a naming spoor does not read). */
int an_cli_require(const struct command *cmd, struct an_cli *c, const enum kev *kinds, size_t n);
/* Run the engine; report losses (stderr). Returns 0 or an exit code: after
 * an_cli_require, the same error as its own when the pass met none of the kinds (a trace
 * may declare events it holds none of). */
int an_cli_run(const struct command *cmd, struct an_cli *c);
/* Print the plug-ins' reports (after the command's own output, once the pass ran), free
 * everything, and return the command's exit status: rc, or 1 for a damaged trace
 * (cmd_read_status). */
int an_cli_finish(const struct command *cmd, struct an_cli *c, int rc);

/* The message (without "spoor CMD: ") for a trace with none of the kinds an analysis needs:
 * what to record, and the declared events that look like them. */
void an_none_of_text(const struct an_engine *e, const enum kev *need, size_t nneed, char *buf,
                     size_t size);

/*
 * An analysis command's text report with its default options, for a caller that runs the
 * pass itself (spoor view's range statistics): the same code prints the command's tables,
 * so both say the same.
 */
struct an_report {
	const char *name;     /* the command's */
	const enum kev *need; /* what an_cli_require asks of the trace */
	size_t nneed;
	void *(*attach)(struct an_engine *e); /* before the pass; NULL: out of memory */
	/* after it: the tables as the command prints them; 0 or -ENOMEM */
	int (*print)(void *analysis, const struct an_engine *e, FILE *out);
	void (*free)(void *analysis);
};
extern const struct an_report an_report_sched, an_report_irq, an_report_syscalls;

#endif
