/* SPDX-License-Identifier: MIT */
/* cmd-export.c: `spoor export --format=chrome TRACE...`: the trace as the Trace Event
 * Format's JSON, for Perfetto's UI and chrome://tracing (lib/timeline/chrome.h). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/engine.h"
#include "command.h"
#include "losses.h"
#include "spoor/trace.h"
#include "timeline/chrome.h"

enum { OPT_FORMAT, OPT_OUTPUT, OPT_BEGIN, OPT_END, OPT_EVENT, OPT_HELP };

static const struct cmd_option export_options[] = {
    [OPT_FORMAT] = {"format", 'f', "FORMAT",
                    "chrome (the default, and the only one): the Trace Event Format's JSON"},
    [OPT_OUTPUT] = {"output", 'o', "FILE", "write to FILE (default, or -: standard output)"},
    [OPT_BEGIN] = {"begin", 0, "TIME",
                   "only what happens at or after TIME (ns or s.fraction since the epoch)"},
    [OPT_END] = {"end", 0, "TIME", "only what happens at or before TIME"},
    [OPT_EVENT] = {"event", 'e', "PATTERN",
                   "instants only for events whose name matches PATTERN (shell wildcards; "
                   "repeatable; kernel events too); default: every user-space event"},
    [OPT_HELP] = {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

struct export_args {
	const char *output;
	const char **events;
	struct tl_chrome_opts o;
	struct an_filter f;
};

static int parse_args(const struct command *cmd, int argc, char **argv, struct export_args *a,
                      int *first, bool *done)
{
	const char *arg;
	int row;

	optind = 0; /* glibc starts afresh: the order options_anywhere asks for */
	while ((row = cmd_getopt(cmd, argc, argv, &arg, first)) != -1) {
		switch (row) {
		case OPT_FORMAT:
			if (strcmp(arg, "chrome"))
				return cmd_usage_error(cmd, "unknown format '%s' (chrome)", arg);
			break;
		case OPT_OUTPUT: a->output = strcmp(arg, "-") ? arg : NULL; break;
		case OPT_BEGIN:
		case OPT_END: {
			bool b = row == OPT_BEGIN;
			if (cmd_parse_time(arg, b ? &a->f.begin : &a->f.end))
				return cmd_usage_error(cmd, "invalid time '%s'", arg);
			*(b ? &a->f.has_begin : &a->f.has_end) = true;
			break;
		}
		case OPT_EVENT: {
			const char **bigger =
			    realloc(a->events, (a->o.nevents + 1) * sizeof(*bigger));
			if (!bigger)
				return cmd_error(cmd, "out of memory");
			bigger[a->o.nevents++] = arg;
			a->events = bigger;
			break;
		}
		case OPT_HELP:
			cmd_help(cmd, stdout);
			*done = true;
			return 0;
		default: return 2;
		}
	}
	if (*first >= argc)
		return cmd_usage_error(cmd, "no trace given");
	if (a->f.has_begin && a->f.has_end && a->f.end < a->f.begin)
		return cmd_usage_error(cmd, "--end is before --begin");
	a->o.events = a->events;
	a->o.has_begin = a->f.has_begin;
	a->o.has_end = a->f.has_end;
	a->o.begin = a->f.begin;
	a->o.end = a->f.end;
	return 0;
}

/* FILE for writing. A regular file (or none yet) is written under a temporary name beside
 * it (*tmp, malloc'd), renamed over it once whole: a failed export leaves the old file as
 * it was. Anything else (a pipe, /dev/stdout, a device) is written as it is. -1 and errno
 * on failure. */
static int open_output(const char *path, char **tmp)
{
	struct stat sb;
	*tmp = NULL;
	if (!stat(path, &sb) && !S_ISREG(sb.st_mode))
		return open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (asprintf(tmp, "%s.XXXXXX", path) < 0) {
		*tmp = NULL;
		errno = ENOMEM;
		return -1;
	}
	int fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0) {
		int saved = errno;
		free(*tmp);
		*tmp = NULL;
		errno = saved;
		return -1;
	}
	mode_t mask = umask(0); /* mkostemp makes it 0600: as open(0666) would, instead */
	umask(mask);
	if (fchmod(fd, 0666 & ~mask)) {
		int saved = errno;
		close(fd);
		unlink(*tmp);
		free(*tmp);
		*tmp = NULL;
		errno = saved;
		return -1;
	}
	return fd;
}

/* The whole file in its place: closed, and renamed over FILE when it has a temporary name.
 * 0 or the exit code (said). */
static int land_output(const struct command *cmd, int *fd, char **tmp, const char *path)
{
	int rc = close(*fd);
	*fd = -1;
	if (rc)
		return cmd_error(cmd, "writing %s: %s", path, strerror(errno));
	if (*tmp && rename(*tmp, path))
		return cmd_error(cmd, "cannot write %s: %s", path, strerror(errno));
	free(*tmp);
	*tmp = NULL;
	return 0;
}

static int run_export(const struct command *cmd, int argc, char **argv)
{
	struct export_args a = {0};
	struct spoor_reader *r = NULL;
	struct an_engine *e = NULL;
	struct tl_chrome *c = NULL;
	char *tmp = NULL;
	bool done = false;
	int first, fd = -1, rc = parse_args(cmd, argc, argv, &a, &first, &done);

	if (rc || done)
		goto out;
	if ((rc = cmd_open_traces(cmd, argv + first, (size_t) (argc - first), INT64_MIN, INT64_MAX,
	                          &r)))
		goto out;
	/* the file is made only once the traces opened: a typo does not empty it */
	fd = a.output ? open_output(a.output, &tmp) : STDOUT_FILENO;
	if (fd < 0) {
		rc = cmd_error(cmd, "cannot write %s: %s", a.output, strerror(errno));
		goto out;
	}
	if (an_engine_new(r, &a.f, &e) || (rc = tl_chrome_new(e, fd, &a.o, &c))) {
		rc = cmd_error(cmd, "%s", spoor_strerror(rc ? rc : -ENOMEM));
		goto out;
	}
	rc = an_engine_run(e);
	if (rc < 0) {
		rc = cmd_error(cmd, "%s", spoor_strerror(rc));
		goto out;
	}
	int frc = tl_chrome_finish(c);
	if (frc == -ENOMEM)
		cmd_error(cmd, "warning: out of memory: some spans are missing from the file");
	else if (frc) {
		rc = cmd_error(cmd, "writing %s: %s", a.output ? a.output : "the output",
		               spoor_strerror(frc));
		goto out;
	}
	struct stat sb;
	uint64_t events = tl_chrome_events(c);
	/* a size only for a file: /dev/null or a pipe has none to tell */
	bool sized = !fstat(fd, &sb) && S_ISREG(sb.st_mode);
	double mb = sized ? (double) sb.st_size / 1e6 : 0.0;
	if (a.output && (rc = land_output(cmd, &fd, &tmp, a.output)))
		goto out;
	if (a.output && sized)
		fprintf(stderr, "spoor export: %llu trace events, %.1f MB, in %s\n",
		        (unsigned long long) events, mb, a.output);
	else if (a.output)
		fprintf(stderr, "spoor export: %llu trace events, in %s\n",
		        (unsigned long long) events, a.output);
	cmd_note_range(cmd, argv + first, (size_t) (argc - first),
	               a.f.has_begin ? a.f.begin : INT64_MIN, a.f.has_end ? a.f.end : INT64_MAX);
	cmd_warn_losses(cmd, r, NULL);
	rc = cmd_read_status(cmd, r, 0, "the file covers the events before the damage");
out:
	tl_chrome_free(c);
	an_engine_free(e);
	spoor_reader_close(r);
	if (fd >= 0 && fd != STDOUT_FILENO)
		close(fd);
	if (tmp) /* no half file left behind, and the old one kept */
		unlink(tmp);
	free(tmp);
	free(a.events);
	return rc;
}

const struct command cmd_export = {
    .name = "export",
    .summary = "write a trace for other viewers: the Trace Event Format (Perfetto, "
               "chrome://tracing)",
    .description =
        "Writes the trace as the Trace Event Format's JSON, which Perfetto's UI and "
        "chrome://tracing load: each thread's states over time (user, system calls by name, "
        "interrupts, waiting, blocked) as complete events, each CPU's as a row of a process "
        "\"CPUs\", user-space events as instants with their fields, events per ms and CPU "
        "busy time as counters, and the names of processes and threads. Times are "
        "microseconds from the trace's start; the absolute start is in otherData.origin_ns. "
        "Big traces make files a browser cannot load: keep to a range with --begin and "
        "--end (docs/export.md gives the size per event).",
    .usage = "[--format=chrome] [-o FILE] [options] TRACE...",
    .options = export_options,
    .run = run_export,
    .options_anywhere = true,
};
