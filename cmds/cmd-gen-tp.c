/* SPDX-License-Identifier: MIT */
/*
 * cmd-gen-tp.c: `spoor gen-tp TEMPLATE.tp [-o FILE.h] [-o FILE.c]`, lttng-gen-tp for
 * spoor: a template of LTTng-UST event declarations becomes the provider's header of
 * SPOOR_EVENTs and its C file (lib/gentp/, docs/instrumenting.md).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "gentp/tp-emit.h"
#include "gentp/tp-parse.h"
#include "util/mapfile.h"

enum { OPT_OUTPUT, OPT_VERBOSE, OPT_HELP };

static const struct cmd_option gen_tp_options[] = {
    [OPT_OUTPUT] = {"output", 'o', "FILE",
                    "write FILE, a .h or a .c (repeat: both); without it, both beside the "
                    "template"},
    [OPT_VERBOSE] = {"verbose", 'v', NULL, "say which files are written"},
    [OPT_HELP] = {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), e = strlen(end);
	return n > e && !strcmp(s + n - e, end);
}

/* One output file, written whole or removed. */
static int write_output(const struct command *cmd, const char *path,
                        int (*emit)(const void *a, const void *b, FILE *out), const void *a,
                        const void *b, bool verbose)
{
	FILE *out = fopen(path, "w");
	if (!out)
		return cmd_error(cmd, "%s: %s", path, strerror(errno));
	errno = 0;
	int rc = emit(a, b, out);
	int e = errno;
	if (fclose(out) && !rc) {
		rc = -1;
		e = errno;
	}
	if (rc) {
		unlink(path);
		return cmd_error(cmd, "%s: %s", path, e ? strerror(e) : "write error");
	}
	if (verbose)
		printf("wrote %s\n", path);
	return 0;
}

struct header_args {
	const char *guard, *source;
};

static int emit_header(const void *a, const void *b, FILE *out)
{
	const struct header_args *h = b;
	return tp_emit_header(a, h->guard, h->source, out);
}

static int emit_c(const void *a, const void *b, FILE *out)
{
	return tp_emit_c(a, b, out);
}

/* path with its last `from` suffix replaced by `to`, in memory of the caller's to free. */
static char *swap_suffix(const char *path, const char *from, const char *to)
{
	size_t n = strlen(path) - strlen(from);
	char *s = malloc(n + strlen(to) + 1);
	if (s) {
		memcpy(s, path, n);
		strcpy(s + n, to);
	}
	return s;
}

static int gen_one(const struct command *cmd, const char *tp, const char *h, const char *c,
                   bool verbose)
{
	struct tp_template t;
	struct tp_error err;
	struct mapfile mf;
	char guard[256];

	int rc = mapfile_open(&mf, tp);
	if (rc)
		return cmd_error(cmd, "%s: %s", tp, strerror(-rc));
	if (mf.size > TP_MAX_TEXT) {
		mapfile_close(&mf);
		return cmd_error(cmd, "%s: larger than 4 MiB, the most a template may be", tp);
	}
	/* an empty file maps nothing: "" for its text */
	rc = tp_parse(mf.size ? (const char *) mf.data : "", mf.size, &t, &err);
	mapfile_close(&mf);
	if (rc) {
		if (rc == -ENOMEM)
			rc = cmd_error(cmd, "%s: out of memory", tp);
		else
			rc = cmd_error(cmd, "%s:%u:%u: %s", tp, err.line, err.col, err.msg);
		goto out;
	}
	/* the C file includes the header by its base name: it is found beside it */
	char *derived = NULL;
	const char *hpath = h ? h : (derived = swap_suffix(c, ".c", ".h"));
	if (!hpath) {
		rc = cmd_error(cmd, "out of memory");
		goto out;
	}
	const char *hname = strrchr(hpath, '/');
	hname = hname ? hname + 1 : hpath;
	if (strpbrk(hname, "\"\\\n")) {
		rc = cmd_error(cmd, "%s: a header's name cannot hold '\"', '\\' or a newline",
		               hname);
	} else {
		tp_guard(hname, guard, sizeof(guard));
		struct header_args ha = {guard, tp};
		if (h)
			rc = write_output(cmd, h, emit_header, &t, &ha, verbose);
		if (!rc && c)
			rc = write_output(cmd, c, emit_c, hname, tp, verbose);
	}
	free(derived);
out:
	tp_template_free(&t);
	return rc;
}

static int run_gen_tp(const struct command *cmd, int argc, char **argv)
{
	const char *arg, *h = NULL, *c = NULL;
	bool verbose = false;
	int first, row, rc = 0;

	optind = 0; /* glibc starts afresh: the order options_anywhere asks for */
	while ((row = cmd_getopt(cmd, argc, argv, &arg, &first)) != -1) {
		switch (row) {
		case OPT_OUTPUT:
			if (ends_with(arg, ".h"))
				h = arg;
			else if (ends_with(arg, ".c"))
				c = arg;
			else if (ends_with(arg, ".o"))
				return cmd_usage_error(cmd,
				                       "%s: spoor gen-tp writes the .h and the .c "
				                       "file, not an object: build the .c with the "
				                       "program",
				                       arg);
			else
				return cmd_usage_error(cmd, "%s: the output must end in .h or .c",
				                       arg);
			break;
		case OPT_VERBOSE: verbose = true; break;
		case OPT_HELP: cmd_help(cmd, stdout); return 0;
		default: return 2;
		}
	}
	if (first >= argc)
		return cmd_usage_error(cmd, "no template given");
	if ((h || c) && argc - first > 1)
		return cmd_usage_error(cmd, "-o names the outputs of one template, not of %d",
		                       argc - first);
	for (int i = first; i < argc; i++)
		if (!ends_with(argv[i], ".tp"))
			return cmd_usage_error(cmd, "%s: a template's name ends in .tp", argv[i]);
	for (int i = first; i < argc && !rc; i++) {
		if (h || c) {
			rc = gen_one(cmd, argv[i], h, c, verbose);
			continue;
		}
		char *dh = swap_suffix(argv[i], ".tp", ".h"),
		     *dc = swap_suffix(argv[i], ".tp", ".c");
		rc = dh && dc ? gen_one(cmd, argv[i], dh, dc, verbose)
		              : cmd_error(cmd, "out of memory");
		free(dh);
		free(dc);
	}
	if (!rc && verbose && fflush(stdout))
		rc = cmd_error(cmd, "standard output: %s", strerror(errno));
	return rc;
}

const struct command cmd_gen_tp = {
    .name = "gen-tp",
    .summary = "make a provider's header and C file from an lttng-gen-tp template",
    .description = "Reads a template of LTTng-UST event declarations (TRACEPOINT_EVENT, "
                   "TRACEPOINT_EVENT_CLASS and _INSTANCE, TRACEPOINT_ENUM, the ctf_* field "
                   "macros: the .tp files of lttng-gen-tp) and writes the provider for "
                   "spoor's API: a header of SPOOR_EVENTs that call sites include, "
                   "tracepoint() calls too, and a C file that defines the events' "
                   "descriptors. Without -o, TEMPLATE.h and TEMPLATE.c beside the template. "
                   "A mistake in the template is an error with its line and column, and "
                   "nothing is written (docs/instrumenting.md).",
    .usage = "[-v] [-o FILE.h] [-o FILE.c] TEMPLATE.tp...",
    .options = gen_tp_options,
    .run = run_gen_tp,
    .options_anywhere = true,
};
