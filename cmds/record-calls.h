/* SPDX-License-Identifier: MIT */
/* record-calls.h: `spoor record --calls`: function tracing's options, the check that the
 * program was built with hooks, and the environment that preloads libspoor-calls
 * (docs/functions.md, "Recording"). */
#ifndef CMDS_RECORD_CALLS_H
#define CMDS_RECORD_CALLS_H

#include <stdbool.h>
#include <stdint.h>

#include "record-args.h"

/* The rows, for a command's table after RECORD_OPTION_ROWS (in this order). */
enum { CALLS_OPT_CALLS, CALLS_OPT_EXCLUDE, CALLS_OPT_GRAPH, CALLS_OPT_DEPTH, CALLS_OPT_MIN };
#define RECORD_CALLS_ROWS                                                                          \
	{"calls", 0, "[PATTERNS]",                                                                 \
	 "trace every call of the functions built with -finstrument-functions, -pg or "            \
	 "-fpatchable-function-entry=5 (docs/functions.md); PATTERNS: only these, "                \
	 "comma-separated globs of function names, "                                               \
	 "!GLOB to leave out, :lib:NAME for a library's functions"},                               \
	    {"calls-exclude", 0, "PATTERNS", "--calls: leave these functions out"},                \
	    {"calls-graph", 0, "NAME", "--calls: only NAME and what it calls (repeatable)"},       \
	    {"calls-depth", 0, "N", "--calls: at most N calls deep"},                              \
	    {"calls-min", 0, "TIME",                                                               \
	     "--calls: only calls that last TIME or more (e.g. 10us), one event at their exit"},

struct record_calls {
	bool on;
	char *include, *exclude, *graph; /* comma-separated */
	uint32_t depth;
	uint64_t min_ns;
	char *lib; /* libspoor-calls.so's path, found by record_calls_check */
};

/* Option `row` (CALLS_OPT_*); 0 to go on, else the exit code. */
int record_calls_take(const struct command *cmd, struct record_calls *c, int row, const char *arg);
/* After the options, before the session: the program argv0 built with hooks (else an error
 * naming the flags), the library found, the calls' events among those recorded. 0 or the
 * exit code. */
int record_calls_check(const struct command *cmd, struct record_calls *c, struct record_args *a,
                       const char *argv0);
/* The command's environment (a->child_env), once the session's clock is known (after
 * record_calls_check). 0 or the exit code. */
struct rec_clock;
int record_calls_env(const struct command *cmd, const struct record_calls *c,
                     const struct rec_clock *clock, struct record_args *a);
void record_calls_free(struct record_calls *c);

#endif
