/* SPDX-License-Identifier: MIT */
/* cmd-dump.c: `spoor dump TRACE...`: one line per event, in time order. */
#include <fnmatch.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "losses.h"
#include "spoor/trace.h"

enum { OPT_EVENT, OPT_BEGIN, OPT_END, OPT_COUNT, OPT_FORMAT, OPT_HELP };

static const struct cmd_option dump_options[] = {
    [OPT_EVENT] = {"event", 'e', "PATTERN",
                   "only events whose name matches PATTERN (shell wildcards; repeatable)"},
    [OPT_BEGIN] = {"begin", 0, "TIME",
                   "skip events before TIME (ns, or seconds.fraction, "
                   "since the epoch)"},
    [OPT_END] = {"end", 0, "TIME", "stop after TIME"},
    [OPT_COUNT] = {"count", 'n', "N", "print at most N events"},
    [OPT_FORMAT] = {"format", 'f', "FORMAT",
                    "text (default), babeltrace (babeltrace2's text, UTC times) or ftrace "
                    "(ftrace's TASK-PID [CPU] FLAGS TIME: EVENT: fields)"},
    [OPT_HELP] = {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

struct dump_args {
	const char **patterns;
	size_t npatterns;
	bool has_begin, has_end;
	int64_t begin, end;
	long long count;
	enum spoor_format format;
};

static int parse_args(const struct command *cmd, int argc, char **argv, struct dump_args *a,
                      int *first)
{
	const char *arg;
	int row;

	a->count = -1;
	a->format = SPOOR_FORMAT_TEXT;
	optind = 0; /* glibc starts afresh: the order options_anywhere asks for */
	while ((row = cmd_getopt(cmd, argc, argv, &arg, first)) != -1) {
		char *end;
		switch (row) {
		case OPT_EVENT:
			a->patterns = realloc(a->patterns, (a->npatterns + 1) * sizeof(char *));
			if (!a->patterns)
				return cmd_error(cmd, "out of memory");
			a->patterns[a->npatterns++] = arg;
			break;
		case OPT_BEGIN:
		case OPT_END:
			if (cmd_parse_time(arg, row == OPT_BEGIN ? &a->begin : &a->end))
				return cmd_usage_error(cmd, "invalid time '%s'", arg);
			*(row == OPT_BEGIN ? &a->has_begin : &a->has_end) = true;
			break;
		case OPT_COUNT:
			a->count = strtoll(arg, &end, 10);
			if (*end || end == arg || a->count < 0)
				return cmd_usage_error(cmd, "invalid count '%s'", arg);
			break;
		case OPT_FORMAT:
			if (!strcmp(arg, "text"))
				a->format = SPOOR_FORMAT_TEXT;
			else if (!strcmp(arg, "babeltrace"))
				a->format = SPOOR_FORMAT_BABELTRACE;
			else if (!strcmp(arg, "ftrace"))
				a->format = SPOOR_FORMAT_FTRACE;
			else
				return cmd_usage_error(
				    cmd, "unknown format '%s' (text, babeltrace or ftrace)", arg);
			break;
		case OPT_HELP: cmd_help(cmd, stdout); exit(0);
		default: return 2;
		}
	}
	if (*first >= argc)
		return cmd_usage_error(cmd, "no trace given");
	if (a->has_begin && a->has_end && a->end < a->begin)
		return cmd_usage_error(cmd, "--end is before --begin");
	return 0;
}

/* Which classes to print, decided once per class rather than per event. */
static bool *wanted_classes(struct spoor_reader *r, const struct dump_args *a)
{
	size_t n = spoor_reader_event_class_count(r);
	bool *want = calloc(n + 1, 1);

	for (size_t c = 0; want && c < n; c++) {
		const char *name = spoor_event_class_name(spoor_reader_event_class(r, c));
		want[c] = !a->npatterns;
		for (size_t p = 0; p < a->npatterns && !want[c]; p++)
			want[c] = !fnmatch(a->patterns[p], name, 0);
	}
	return want;
}

static int run_dump(const struct command *cmd, int argc, char **argv)
{
	struct dump_args a = {0};
	struct spoor_reader *r = NULL;
	struct spoor_formatter *f = NULL;
	int first, rc = parse_args(cmd, argc, argv, &a, &first);

	if (rc) {
		free(a.patterns);
		return rc;
	}
	if ((rc = cmd_open_traces(cmd, argv + first, (size_t) (argc - first),
	                          a.has_begin ? a.begin : INT64_MIN, a.has_end ? a.end : INT64_MAX,
	                          &r))) {
		free(a.patterns);
		return rc;
	}
	bool *want = wanted_classes(r, &a);
	/* events read per stream: the bytes per event of a stream that lost some */
	uint64_t *seen = calloc(spoor_reader_stream_count(r) + 1, sizeof(*seen));
	if (!want || !seen || spoor_formatter_new(a.format, STDOUT_FILENO, &f)) {
		rc = cmd_error(cmd, "out of memory");
		goto out;
	}
	const struct spoor_event *ev;
	long long printed = 0;
	while (printed != a.count && (rc = spoor_reader_next(r, &ev)) > 0) {
		seen[spoor_event_stream(ev)]++;
		if (!want[spoor_event_class_index(spoor_event_class(ev))]) {
			spoor_formatter_skip(f, ev);
			continue;
		}
		if ((rc = spoor_formatter_event(f, ev)) < 0)
			break;
		printed++;
	}
	int frc = spoor_formatter_free(f);
	if (rc < 0 || frc < 0) {
		rc = cmd_error(cmd, "%s", spoor_strerror(rc < 0 ? rc : frc));
		goto out;
	}
	cmd_note_range(cmd, argv + first, (size_t) (argc - first),
	               a.has_begin ? a.begin : INT64_MIN, a.has_end ? a.end : INT64_MAX);
	cmd_warn_losses(cmd, r, seen);
	rc = cmd_read_status(cmd, r, 0, "the events before the damage were printed");
out:
	free(seen);
	free(want);
	free(a.patterns);
	spoor_reader_close(r);
	return rc;
}

const struct command cmd_dump = {
    .name = "dump",
    .summary = "print the events of one or more traces, one line each, in time order",
    .description = "Prints one line per event, in time order across all streams and traces: in "
                   "spoor's text format, in babeltrace2's (byte for byte) or in ftrace's "
                   "layout. A damaged stream stops at the damage with a warning naming the file "
                   "and byte offset; the other streams go on.",
    .usage = "[options] TRACE...",
    .options = dump_options,
    .run = run_dump,
    .options_anywhere = true,
};
