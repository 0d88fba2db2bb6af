/* SPDX-License-Identifier: MIT */
/* cmd-convert.c: `spoor convert --layout=lttng TRACE -o OUT`: a kernel trace spoor recorded,
 * written again as `spoor record -k --layout=lttng` writes one (lib/convert/kconvert.h). */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "convert/kconvert.h"

enum { OPT_LAYOUT, OPT_OUTPUT, OPT_HELP };

static const struct cmd_option convert_options[] = {
    [OPT_LAYOUT] = {"layout", 'l', "LAYOUT",
                    "lttng (the only one): lttng-modules 2.13's event and field names, env and "
                    "state dump, for Trace Compass and lttng-analyses"},
    [OPT_OUTPUT] = {"output", 'o', "DIR",
                    "write the trace into DIR (made; an existing one must be empty)"},
    [OPT_HELP] = {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

static int run(const struct command *cmd, int argc, char **argv)
{
	const char *arg, *out = NULL, *layout = NULL, *trace = NULL;
	int row, first = 1, extra = 0;
	optind = 1;
	/* options before and after the trace: getopt stops at it, then goes on past it */
	while ((row = cmd_getopt(cmd, argc, argv, &arg, &first)) != -1 || first < argc) {
		if (row == -1) {
			if (!strcmp(argv[first - 1], "--"))
				extra += argc - first - 1; /* all operands after "--" */
			extra += trace != NULL;
			trace = trace ? trace : argv[first];
			optind = first + 1;
			continue;
		}
		switch (row) {
		case OPT_LAYOUT: layout = arg; break;
		case OPT_OUTPUT: out = arg; break;
		case OPT_HELP: cmd_help(cmd, stdout); return 0;
		default: return 2;
		}
	}
	if (!layout || strcmp(layout, "lttng"))
		return cmd_usage_error(cmd,
		                       layout ? "unknown layout '%s' (lttng)"
		                              : "--layout=lttng: the layout to write",
		                       layout);
	if (!out)
		return cmd_usage_error(cmd, "-o DIR: where to write the converted trace");
	if (!trace || extra)
		return cmd_usage_error(cmd, trace ? "one trace at a time" : "no trace given");
	struct kconvert_totals t;
	char err[1024];
	int rc = kconvert_lttng(trace, out, &t, err, sizeof(err));
	if (rc)
		return cmd_error(cmd, "%s", err);
	fprintf(stderr,
	        "spoor convert: %" PRIu64 " events in %" PRIu64 " streams written to %s "
	        "(%" PRIu64 " threads in the state dump, %" PRIu64 " events lost when recorded)\n",
	        t.events, t.streams, out, t.threads, t.discarded);
	return 0;
}

const struct command cmd_convert = {
    .name = "convert",
    .summary = "write a kernel trace spoor recorded in LTTng's layout (Trace Compass, "
               "lttng-analyses)",
    .description =
        "Writes the kernel trace TRACE (a trace directory, or a recording's directory holding "
        "one in kernel/, which then goes to DIR/kernel) again as `spoor record -k "
        "--layout=lttng` writes one: lttng-modules 2.13's event and field names, its values "
        "where they differ (priorities), its env (tracer_name \"lttng-modules\"), and the "
        "state dump's threads as lttng_statedump_process_state events, with the recording's "
        "block devices. Timestamps, losses and every other value stay as recorded. Only "
        "kernel traces in spoor's own layout are converted: user-space traces, LTTng's and "
        "damaged ones are refused, and a failed conversion leaves DIR as it was.",
    .usage = "--layout=lttng TRACE -o DIR",
    .options = convert_options,
    .run = run,
};
