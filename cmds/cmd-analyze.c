/* SPDX-License-Identifier: MIT */
/* cmd-analyze.c: `spoor analyze --plugin FILE.so TRACE...`: run analysis plug-ins alone. */
#include "analysis-cli.h"
#include "command.h"

static const struct cmd_option analyze_options[] = {
    AN_COMMON_OPTIONS,
    {NULL, 0, NULL, NULL},
};

static int run_analyze(const struct command *cmd, int argc, char **argv)
{
	struct an_cli c;
	bool done;
	int rc = an_cli_start(cmd, &c, argc, argv, NULL, NULL, &done);
	if (!rc && !done && !c.nplugins)
		rc = cmd_usage_error(cmd, "give at least one --plugin FILE.so");
	if (!rc && !done)
		rc = an_cli_run(cmd, &c);
	return an_cli_finish(cmd, &c, rc); /* prints the plug-ins' reports */
}

const struct command cmd_analyze = {
    .name = "analyze",
    .summary = "run analysis plug-ins (shared objects, docs/plugins.md) over traces",
    .description = "Runs analysis plug-ins (shared objects built against spoor/plugin.h) over "
                   "traces, in one pass.",
    .usage = "--plugin FILE.so [options] TRACE...",
    .options = analyze_options,
    .run = run_analyze,
    .options_anywhere = true,
};
