/* SPDX-License-Identifier: MIT */
/* record-calls.c: `spoor record --calls` (see record-calls.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf/elf-hooks.h"
#include "ipc/proto.h"
#include "record-calls.h"
#include "record/clock.h"
#include "util/mapfile.h"

#define LIBRARY "libspoor-calls.so"

/* list := list,arg */
static int append(const struct command *cmd, char **list, const char *arg)
{
	size_t old = *list ? strlen(*list) + 1 : 0;
	char *v = realloc(*list, old + strlen(arg) + 1);
	if (!v)
		return cmd_error(cmd, "out of memory");
	if (old)
		v[old - 1] = ',';
	strcpy(v + old, arg);
	*list = v;
	return 0;
}

int record_calls_take(const struct command *cmd, struct record_calls *c, int row, const char *arg)
{
	c->on = true; /* each of the options asks for function tracing */
	switch (row) {
	case CALLS_OPT_CALLS: return arg && *arg ? append(cmd, &c->include, arg) : 0;
	case CALLS_OPT_EXCLUDE: return append(cmd, &c->exclude, arg);
	case CALLS_OPT_GRAPH: return append(cmd, &c->graph, arg);
	case CALLS_OPT_DEPTH: {
		char *end;
		errno = 0;
		unsigned long n = strtoul(arg, &end, 10);
		if (errno || *end || end == arg || n < 1 || n > 100000)
			return cmd_usage_error(cmd, "invalid --calls-depth '%s' (1 to 100000)",
			                       arg);
		c->depth = (uint32_t) n;
		return 0;
	}
	case CALLS_OPT_MIN:
		if (record_parse_duration(arg, &c->min_ns))
			return cmd_usage_error(cmd, "invalid --calls-min '%s' (e.g. 10us, 1ms)",
			                       arg);
		return 0;
	}
	return 2;
}

void record_calls_free(struct record_calls *c)
{
	free(c->include);
	free(c->exclude);
	free(c->graph);
	free(c->lib);
}

/* argv0 as execvp finds it, or NULL. */
static const char *find_program(const char *argv0, char *buf, size_t cap)
{
	if (strchr(argv0, '/'))
		return argv0;
	const char *path = getenv("PATH");
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		if (snprintf(buf, cap, "%.*s%s%s", (int) n, p, n ? "/" : "", argv0) < (int) cap &&
		    access(buf, X_OK) == 0)
			return buf;
		p += n + (p[n] == ':');
	}
	return NULL;
}

/* The hooks the program's file calls, or -1 when it cannot tell (a script, not ELF, no
 * section headers: the program runs, and shows what it shows). */
static int program_hooks(const char *path)
{
	struct mapfile mf;
	if (mapfile_open(&mf, path))
		return -1;
	int hooks = -1;
	if (mf.size >= 4 && !memcmp(mf.data, "\177ELF", 4)) {
		struct elf_image im;
		if (!elf_image_open(&im, mf.data, mf.size))
			hooks = elf_hooks_find(&im);
		elf_image_close(&im);
	}
	mapfile_close(&mf);
	return hooks < 0 ? -1 : hooks;
}

/* Beside the spoor command (the build tree), else in the installed library folder. */
static int find_library(char *buf, size_t cap)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash &&
		    snprintf(buf, cap, "%.*s/" LIBRARY, (int) (slash - self), self) < (int) cap &&
		    access(buf, R_OK) == 0)
			return 0;
	}
	if (snprintf(buf, cap, "%s/" LIBRARY, SPOOR_LIBDIR) < (int) cap && access(buf, R_OK) == 0)
		return 0;
	return -1;
}

int record_calls_check(const struct command *cmd, struct record_calls *c, struct record_args *a,
                       const char *argv0)
{
	if (!c->on)
		return 0;
	if (!argv0)
		return cmd_usage_error(cmd, "--calls traces a command: give one after --");
	char buf[PATH_MAX];
	const char *path = find_program(argv0, buf, sizeof(buf));
	if (path && program_hooks(path) == 0)
		return cmd_error(cmd,
		                 "%s was not built with function-tracing hooks: build it (or "
		                 "the libraries to trace) with -finstrument-functions, -pg (and "
		                 "-mfentry), or -fpatchable-function-entry=5 (docs/functions.md)",
		                 argv0);
	char lib[PATH_MAX];
	if (find_library(lib, sizeof(lib)))
		return cmd_error(cmd, "cannot find " LIBRARY " beside spoor or in %s",
		                 SPOOR_LIBDIR);
	if (!(c->lib = strdup(lib)))
		return cmd_error(cmd, "out of memory");
	/* with -e, the calls' events are recorded too */
	static const char *const ours[] = {"lttng_ust_cyg_profile:*", "spoor_calls:*",
	                                   "lttng_ust_statedump:*", "lttng_ust_dl:*"};
	for (size_t i = 0; a->npatterns && i < sizeof(ours) / sizeof(ours[0]); i++)
		if (!record_push(&a->patterns, &a->npatterns, ours[i]))
			return cmd_error(cmd, "out of memory");
	a->o.patterns = a->patterns;
	a->o.npatterns = a->npatterns;
	return 0;
}

static int put(const struct command *cmd, struct record_args *a, const char *name,
               const char *value)
{
	char *s;
	if (a->nchild_env == sizeof(a->child_env) / sizeof(a->child_env[0]) ||
	    asprintf(&s, "%s=%s", name, value ? value : "") < 0)
		return cmd_error(cmd, "out of memory");
	a->child_env[a->nchild_env++] = s;
	return 0;
}

int record_calls_env(const struct command *cmd, const struct record_calls *c,
                     const struct rec_clock *clock, struct record_args *a)
{
	if (!c->on)
		return 0;
	char preload[2 * PATH_MAX], depth[16], min[32];
	const char *old = getenv("LD_PRELOAD");
	snprintf(preload, sizeof(preload), "%s%s%s", c->lib, old && *old ? ":" : "",
	         old ? old : "");
	snprintf(depth, sizeof(depth), "%u", c->depth);
	/* the clock's units: the exits compare durations on the clock they read */
	double ticks = (double) c->min_ns * (double) clock->freq / 1e9;
	snprintf(min, sizeof(min), "%llu",
	         c->min_ns ? (unsigned long long) (ticks < 1 ? 1 : ticks) : 0ull);
	int rc;
	if ((rc = put(cmd, a, "LD_PRELOAD", preload)) ||
	    (rc = put(cmd, a, "SPOOR_CALLS", c->include)) ||
	    (rc = put(cmd, a, "SPOOR_CALLS_EXCLUDE", c->exclude)) ||
	    (rc = put(cmd, a, "SPOOR_CALLS_GRAPH", c->graph)) ||
	    (rc = put(cmd, a, "SPOOR_CALLS_DEPTH", depth)) ||
	    (rc = put(cmd, a, "SPOOR_CALLS_MIN", min)) ||
	    (rc = put(cmd, a, "SPOOR_CALLS_CLOCK",
	              clock->kind == CLOCK_KIND_MONOTONIC ? "mono" : "tsc")))
		return rc;
	return 0;
}
