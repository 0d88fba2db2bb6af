/* SPDX-License-Identifier: MIT */
/* options.c: turns a command's option table into getopt_long, help text and errors. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"

#define MAX_OPTIONS 32

int cmd_getopt(const struct command *cmd, int argc, char **argv, const char **arg, int *optind_out)
{
	struct option longs[MAX_OPTIONS + 1];
	char shorts[3 * MAX_OPTIONS + 2] = "+";
	size_t n = 0, k = 1;

	for (const struct cmd_option *o = cmd->options; o->name && n < MAX_OPTIONS; o++, n++) {
		longs[n] = (struct option){o->name,
		                           !o->arg               ? no_argument
		                           : cmd_arg_optional(o) ? optional_argument
		                                                 : required_argument,
		                           NULL, (int) (256 + n)};
		if (o->short_name) {
			shorts[k++] = o->short_name;
			if (o->arg)
				shorts[k++] = ':';
		}
	}
	longs[n] = (struct option){0};
	shorts[k] = '\0';
	/* getopt's GNU order: it moves the operands last. glibc reads the leading '+' only
	 * when it starts afresh (optind = 0): a command that parses twice in one process in
	 * different orders must set optind = 0 before each parse */
	if (cmd->options_anywhere)
		memmove(shorts, shorts + 1, k);
	opterr = 0;
	int c = getopt_long(argc, argv, shorts, longs, NULL);
	*optind_out = optind;
	*arg = optarg;
	if (c == -1)
		return -1;
	if (c >= 256)
		return c - 256;
	for (size_t i = 0; i < n; i++)
		if (cmd->options[i].short_name == c)
			return (int) i;
	if (optopt && strchr(shorts, optopt))
		cmd_usage_error(cmd, "option -%c needs an argument", optopt);
	else if (optopt)
		cmd_usage_error(cmd, "unknown option -%c", optopt);
	else
		cmd_usage_error(cmd, "unknown or incomplete option '%s'", argv[optind - 1]);
	return -2;
}

void cmd_help(const struct command *cmd, FILE *out)
{
	fprintf(out, "usage: spoor %s %s\n\n%s\n", cmd->name, cmd->usage, cmd->summary);
	if (cmd->options[0].name)
		fprintf(out, "\noptions:\n");
	for (const struct cmd_option *o = cmd->options; o->name; o++) {
		char left[64];
		bool opt = cmd_arg_optional(o);
		/* an optional argument's name starts with '[': "--calls[=PATTERNS]" */
		snprintf(left, sizeof(left), "%c%c%s--%s%s%s", o->short_name ? '-' : ' ',
		         o->short_name ? o->short_name : ' ', o->short_name ? ", " : "  ", o->name,
		         opt      ? "[="
		         : o->arg ? "="
		                  : "",
		         o->arg ? o->arg + opt : "");
		fprintf(out, "  %-26s %s\n", left, o->help);
	}
}

static void vreport(const struct command *cmd, const char *fmt, va_list ap)
{
	fprintf(stderr, "spoor %s: ", cmd->name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cmd_usage_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(cmd, fmt, ap);
	va_end(ap);
	fprintf(stderr, "try 'spoor help %s'\n", cmd->name);
	return 2;
}

int cmd_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(cmd, fmt, ap);
	va_end(ap);
	return 1;
}

int cmd_absolute_path(const char *path, char *buf, size_t cap)
{
	char cwd[PATH_MAX];
	if (path[0] == '/')
		return snprintf(buf, cap, "%s", path) < (int) cap ? 0 : -ENAMETOOLONG;
	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	return snprintf(buf, cap, "%s/%s", cwd, path) < (int) cap ? 0 : -ENAMETOOLONG;
}

int cmd_parse_time(const char *s, int64_t *ns)
{
	char *end;
	errno = 0;
	if (strchr(s, '.')) {
		/* seconds.fraction, exact to the nanosecond (no floating point) */
		const char *dot = strchr(s, '.');
		long long sec = strtoll(s, &end, 10);
		if (errno || end != dot || sec < 0)
			return -1;
		int64_t frac = 0;
		int digits = 0;
		for (const char *p = dot + 1; *p; p++, digits++) {
			if (*p < '0' || *p > '9' || digits >= 9)
				return -1;
			frac = frac * 10 + (*p - '0');
		}
		for (; digits < 9; digits++)
			frac *= 10;
		if (sec > INT64_MAX / 1000000000 - 1)
			return -1;
		*ns = sec * 1000000000 + frac;
		return 0;
	}
	long long v = strtoll(s, &end, 10);
	if (errno || end == s || *end)
		return -1;
	*ns = v;
	return 0;
}
