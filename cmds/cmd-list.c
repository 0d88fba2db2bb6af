/* SPDX-License-Identifier: MIT */
/*
 * cmd-list.c: `spoor list -u BINARY`: the events an executable or shared library declares
 * with SPOOR_EVENT, read from the file (nothing runs); `spoor list -k`: the kernel's
 * (list-kernel.c). One `PROVIDER:NAME` line per event, in the file's order.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "elf/elf-events.h"
#include "list-kernel.h"

enum { OPT_USER, OPT_KERNEL, OPT_VERBOSE, OPT_HELP };

static const struct cmd_option list_options[] = {
    [OPT_USER] = {"user", 'u', "BINARY",
                  "list the events BINARY (a program or shared library) declares; repeatable"},
    [OPT_KERNEL] = {"kernel", 'k', NULL, "list the kernel's trace events"},
    [OPT_VERBOSE] = {"verbose", 'v', NULL, "also list each event's fields and their types"},
    [OPT_HELP] = {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

/* The C type of an integer, or of one element of an array or sequence. */
static void put_int_type(FILE *out, const struct spoor_field_desc *f)
{
	if (f->text)
		fputs("char", out);
	else
		fprintf(out, "%sint%u_t", f->is_signed ? "" : "u", 8u * f->size);
}

static void put_value(FILE *out, const struct spoor_field_desc *f, int64_t v)
{
	if (f->is_signed)
		fprintf(out, "%" PRId64, v);
	else
		fprintf(out, "%" PRIu64, (uint64_t) v);
}

static void put_enum(FILE *out, const struct spoor_field_desc *f)
{
	fprintf(out, "enum (%sint%u) %s {", f->is_signed ? "" : "u", 8u * f->size, f->name);
	for (uint32_t e = 0; e < f->nentries; e++) {
		const struct spoor_enum_entry *en = &f->entries[e];
		fprintf(out, "%s %s = ", e ? "," : "", en->label);
		put_value(out, f, en->lo);
		if (en->hi != en->lo) {
			fputs(" ... ", out);
			put_value(out, f, en->hi);
		}
	}
	fputs(" }", out);
}

/* One field, C-like: `uint64_t len (hex)`, `uint16_t hist[]` (a sequence), ... */
static void put_field(FILE *out, const struct spoor_field_desc *f)
{
	fputs("  ", out);
	switch (f->kind) {
	case SPOOR_FK_INT:
		put_int_type(out, f);
		fprintf(out, " %s", f->name);
		break;
	case SPOOR_FK_FLOAT:
		fprintf(out, "%s %s", f->size == 4 ? "float" : "double", f->name);
		break;
	case SPOOR_FK_STRING: fprintf(out, "string %s", f->name); break;
	case SPOOR_FK_ARRAY:
		put_int_type(out, f);
		fprintf(out, " %s[%" PRIu32 "]", f->name, f->length);
		break;
	case SPOOR_FK_SEQUENCE:
		put_int_type(out, f);
		fprintf(out, " %s[]", f->name);
		break;
	case SPOOR_FK_ENUM: put_enum(out, f); break;
	default: fprintf(out, "(kind %u) %s", f->kind, f->name); break;
	}
	if (f->kind == SPOOR_FK_INT && f->base == 16)
		fputs(" (hex)", out);
	if (f->big_endian)
		fputs(" (big-endian)", out);
	fputc('\n', out);
}

/* The events of one file; a file without any is not an error (a note on stderr). */
static int list_user(const struct command *cmd, const char *path, bool verbose, bool header,
                     bool *printed, FILE *out)
{
	struct elf_events ev;
	int rc = elf_events_read_file(&ev, path);

	if (rc) {
		rc = cmd_error(cmd, "%s: %s", path, ev.err);
		elf_events_free(&ev);
		return rc;
	}
	if (!ev.n)
		fprintf(stderr, "spoor %s: no spoor events in %s\n", cmd->name, path);
	else if (header)
		fprintf(out, "%s%s:\n", *printed ? "\n" : "", path);
	for (size_t i = 0; i < ev.n; i++) {
		const struct spoor_event_desc *d = ev.evs[i];
		fprintf(out, "%s:%s\n", d->provider, d->name);
		for (uint32_t f = 0; verbose && f < d->nfields; f++)
			put_field(out, &d->fields[f]);
	}
	*printed = *printed || ev.n;
	elf_events_free(&ev);
	return 0;
}

static int run_list(const struct command *cmd, int argc, char **argv)
{
	/* what to list, in the order given: a binary, or NULL for the kernel */
	const char **what = calloc((size_t) argc + 1, sizeof(*what));
	size_t n = 0;
	bool verbose = false, kernel = false, printed = false;
	const char *arg;
	int first, row, rc = 0;

	if (!what)
		return cmd_error(cmd, "out of memory");
	optind = 1;
	while ((row = cmd_getopt(cmd, argc, argv, &arg, &first)) != -1) {
		switch (row) {
		case OPT_USER: what[n++] = arg; break;
		case OPT_KERNEL:
			if (!kernel)
				what[n++] = NULL;
			kernel = true;
			break;
		case OPT_VERBOSE: verbose = true; break;
		case OPT_HELP: cmd_help(cmd, stdout); goto out;
		default: rc = 2; goto out;
		}
	}
	if (first < argc) {
		rc = cmd_usage_error(cmd, "unexpected argument '%s' (binaries follow -u)",
		                     argv[first]);
		goto out;
	}
	if (!n) {
		cmd_help(cmd, stderr);
		rc = 2;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		int r;
		if (what[i]) {
			r = list_user(cmd, what[i], verbose, n > 1, &printed, stdout);
		} else {
			if (n > 1)
				printf("%skernel:\n", printed ? "\n" : "");
			fflush(stdout); /* list_kernel may write through another stream */
			r = list_kernel(verbose, stdout);
			printed = true;
		}
		rc = rc ? rc : r;
	}
	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		rc = cmd_error(cmd, "standard output: %s", errno ? strerror(errno) : "write error");
out:
	free(what);
	return rc;
}

const struct command cmd_list = {
    .name = "list",
    .summary = "list the events a program or library declares, or the kernel's",
    .description = "Lists the events there are to record: the kernel's tracepoints (-k), or the "
                   "user-space events an executable or shared library declares (-u).",
    .usage = "[-v] [-u BINARY]... [-k]",
    .options = list_options,
    .run = run_list,
};
