/* SPDX-License-Identifier: MIT */
/* cmd-script.c: `spoor script SCRIPT.lua TRACE...`: a Lua script's handlers over recorded
 * traces (lib/script/script.h). */
#include "analysis-cli.h"
#include "command.h"
#include "script/script.h"

static const struct cmd_option script_options[] = {
    AN_SELECT_OPTIONS,
    [AN_OPT_JSON] = {"json", 'j', NULL,
                     "not for scripts, refused: a script prints what it prints (print(), maps)"},
    AN_PLUGIN_OPTIONS,
    {NULL, 0, NULL, NULL},
};

static int run_script(const struct command *cmd, int argc, char **argv)
{
	struct an_cli c;
	struct script *s = NULL;
	bool done;
	char err[1200];
	int rc = an_cli_start_after(cmd, &c, argc, argv, NULL, NULL, &done, 1);
	if (rc || done)
		goto out;
	if (c.json) { /* the analyses' option, which would be silently ignored here */
		rc = cmd_usage_error(cmd,
		                     "--json is not for scripts: a script prints what it prints");
		goto out;
	}
	if (script_load(c.e, c.leading[0], &s, err, sizeof(err))) {
		rc = cmd_error(cmd, "%s", err);
		goto out;
	}
	if ((rc = an_cli_run(cmd, &c)))
		goto out;
	if (script_error(s, err, sizeof(err))) {
		rc = cmd_error(cmd, "%s", err);
		goto out;
	}
	if (script_finish(s, err, sizeof(err)))
		rc = cmd_error(cmd, "%s", err);
out:
	script_free(s);
	return an_cli_finish(cmd, &c, rc);
}

const struct command cmd_script = {
    .name = "script",
    .summary = "run a Lua script's event handlers over traces (docs/scripts.md)",
    .description = "Runs a Lua script's event handlers over recorded traces.",
    .usage = "[options] SCRIPT.lua TRACE...",
    .options = script_options,
    .run = run_script,
    .options_anywhere = true,
};
