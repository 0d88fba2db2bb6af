/* SPDX-License-Identifier: MIT */
/* command.h: the spoor command's subcommands and their option tables. */
#ifndef CMDS_COMMAND_H
#define CMDS_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cmd_option {
	const char *name; /* long name */
	char short_name;  /* 0: none */
	const char *arg;  /* argument placeholder, or NULL for a flag */
	const char *help;
};

/* An argument written "[NAME]" is optional: --name or --name=VALUE (no short name). */
static inline int cmd_arg_optional(const struct cmd_option *o)
{
	return o->arg && o->arg[0] == '[';
}

struct command {
	const char *name;
	const char *summary;     /* one line: `spoor help`, the man page's NAME */
	const char *description; /* the man page's DESCRIPTION: a paragraph beyond the summary */
	const char *usage;       /* after "spoor NAME " */
	const struct cmd_option *options; /* ends with a {NULL} row */
	int (*run)(const struct command *cmd, int argc, char **argv);
	/* options may follow the operands (`spoor dump T -n 5`, as perf's and babeltrace2's
	 * do; `--` ends them): commands whose operands are traces, not another command's */
	bool options_anywhere;
};

/* getopt_long over the command's table. Returns the option's row, -1 at the end of the
 * options (*optind_out then indexes the first operand: with options_anywhere, argv is
 * permuted so that the operands come last), or -2 on a bad option (reported). */
int cmd_getopt(const struct command *cmd, int argc, char **argv, const char **arg, int *optind_out);
void cmd_help(const struct command *cmd, FILE *out);
/* What spoor is, in one line (`spoor help`, spoor(1)). */
extern const char spoor_about[];
/* `spoor help --man [CMD]`: spoor(1), or spoor-CMD(1) when cmd is given, in roff. 1 (said
 * on stderr) when cmd lacks its description. */
int cmd_man_page(FILE *out, const struct command *const *cmds, size_t n, const struct command *cmd);
/* `spoor help --bash-completion`: the bash completion script. */
void cmd_bash_completion(FILE *out, const struct command *const *cmds, size_t n);
/* Print "spoor NAME: message" to stderr; returns the exit code for usage errors. */
int cmd_usage_error(const struct command *cmd, const char *fmt, ...);
int cmd_error(const struct command *cmd, const char *fmt, ...);
/* path as an absolute one (it need not exist: the cwd in front) into buf; 0 or -errno. A
 * daemon works from / and on behalf of clients elsewhere. */
int cmd_absolute_path(const char *path, char *buf, size_t cap);
/* Parse a time: integer nanoseconds, seconds with a fraction, or [-+]NN{s,ms,us,ns}. */
int cmd_parse_time(const char *s, int64_t *ns);
struct spoor_reader;
/* The exit status of a command that read traces with r (docs/cli.md, "Exit codes"): rc when
 * it is already an error; else 1 when a stream was damaged, said after the output with what
 * the output covers ("the events before the damage were printed"); else 0. Events the
 * tracer discarded are not damage. */
int cmd_read_status(const struct command *cmd, const struct spoor_reader *r, int rc,
                    const char *covered);
/* Open the traces (paths, n of them) into *r, kept to [begin, end] unless that is all time
 * (INT64_MIN, INT64_MAX): 0, or 1 once the reason is said. */
int cmd_open_traces(const struct command *cmd, char *const *paths, size_t n, int64_t begin,
                    int64_t end, struct spoor_reader **r);
/* After a run kept to [begin, end] (INT64_MIN, INT64_MAX: not kept): when no event of the
 * traces lies in it, a note on stderr with the times the traces span (docs/cli.md, "Times").
 * The exit status stays the run's. */
void cmd_note_range(const struct command *cmd, char *const *paths, size_t n, int64_t begin,
                    int64_t end);
/* The same rule for a count of damaged streams (spoor sql's, summed over its readers). */
int cmd_damage_status(const struct command *cmd, unsigned damaged, int rc, const char *covered);

#define COMMAND(name) extern const struct command cmd_##name;
#include "command-list.h"
#undef COMMAND

#endif
