/* SPDX-License-Identifier: MIT */
/* analysis-cli.c: the analysis commands' shared options and set-up (see analysis-cli.h). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "analysis-cli.h"
#include "losses.h"
#include "spoor/spoor.h"

static bool push_int(int64_t **v, size_t *n, const char *s)
{
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (errno || end == s || *end || x < 0)
		return false;
	int64_t *bigger = realloc(*v, (*n + 1) * sizeof(**v));
	if (!bigger)
		return false;
	bigger[(*n)++] = x;
	*v = bigger;
	return true;
}

static int common(const struct command *cmd, struct an_cli *c, int row, const char *arg)
{
	struct an_filter *f = &c->f;
	switch (row) {
	case AN_OPT_BEGIN:
	case AN_OPT_END:
		if (cmd_parse_time(arg, row == AN_OPT_BEGIN ? &f->begin : &f->end))
			return cmd_usage_error(cmd, "invalid time '%s'", arg);
		*(row == AN_OPT_BEGIN ? &f->has_begin : &f->has_end) = true;
		return 0;
	case AN_OPT_PID:
		return push_int(&c->pids, &f->npids, arg)
		           ? 0
		           : cmd_usage_error(cmd, "invalid pid '%s'", arg);
	case AN_OPT_TID:
		return push_int(&c->tids, &f->ntids, arg)
		           ? 0
		           : cmd_usage_error(cmd, "invalid tid '%s'", arg);
	case AN_OPT_CPU:
		return push_int(&c->cpus, &f->ncpus, arg)
		           ? 0
		           : cmd_usage_error(cmd, "invalid cpu '%s'", arg);
	case AN_OPT_COMM: {
		const char **bigger = realloc(c->comms, (f->ncomms + 1) * sizeof(*bigger));
		if (!bigger)
			return cmd_error(cmd, "out of memory");
		bigger[f->ncomms++] = arg;
		c->comms = bigger;
		return 0;
	}
	case AN_OPT_JSON: c->json = true; return 0;
	case AN_OPT_PLUGIN: {
		const char **bigger = realloc(c->plugin_paths, (c->nplugins + 1) * sizeof(*bigger));
		if (!bigger)
			return cmd_error(cmd, "out of memory");
		bigger[c->nplugins++] = arg;
		c->plugin_paths = bigger;
		return 0;
	}
	default: return 2;
	}
}

int an_cli_start(const struct command *cmd, struct an_cli *c, int argc, char **argv,
                 int (*own)(int row, const char *arg, void *data), void *data, bool *done)
{
	return an_cli_start_after(cmd, c, argc, argv, own, data, done, 0);
}

int an_cli_start_after(const struct command *cmd, struct an_cli *c, int argc, char **argv,
                       int (*own)(int row, const char *arg, void *data), void *data, bool *done,
                       int leading)
{
	const char *arg;
	int first, row, rc;

	*c = (struct an_cli){0};
	*done = false;
	optind = 0; /* glibc starts afresh: the order options_anywhere asks for */
	while ((row = cmd_getopt(cmd, argc, argv, &arg, &first)) != -1) {
		if (row == -2)
			return 2;
		if (row == AN_OPT_HELP) {
			cmd_help(cmd, stdout);
			*done = true;
			return 0;
		}
		rc = row < AN_OPT_COMMON ? common(cmd, c, row, arg) : own ? own(row, arg, data) : 2;
		if (rc)
			return rc;
	}
	c->leading = argv + first;
	if (first + leading > argc) /* spoor script with no script */
		return cmd_usage_error(cmd, "missing operands (spoor %s %s)", cmd->name,
		                       cmd->usage);
	first += leading;
	if (first >= argc)
		return cmd_usage_error(cmd, "no trace given");
	if (c->f.has_begin && c->f.has_end && c->f.end < c->f.begin)
		return cmd_usage_error(cmd, "--end is before --begin");
	c->f.pids = c->pids;
	c->f.tids = c->tids;
	c->f.cpus = c->cpus;
	c->f.comms = c->comms;
	c->traces = argv + first;
	c->ntraces = (size_t) (argc - first);
	if ((rc = cmd_open_traces(cmd, c->traces, c->ntraces, INT64_MIN, INT64_MAX, &c->r)))
		return rc;
	if (an_engine_new(c->r, &c->f, &c->e))
		return cmd_error(cmd, "out of memory");
	if (c->nplugins) {
		char perr[4200];
		if (an_plugins_load(c->e, c->plugin_paths, c->nplugins, &c->plugins, perr,
		                    sizeof(perr)))
			return cmd_error(cmd, "%s", perr);
	}
	return 0;
}

void an_none_of_text(const struct an_engine *e, const enum kev *need, size_t nneed, char *buf,
                     size_t size)
{
	const char *like[4];
	size_t n = 0, more = 0;
	for (size_t i = 0; i < nneed && !n; i++) {
		size_t found = an_lookalikes(e, need[i], like, 4);
		n = found < 4 ? found : 4;
		more = found - n;
	}
	char also[400] = "";
	if (n) {
		int at = snprintf(also, sizeof(also),
		                  "; it has events named like them that spoor "
		                  "does not read:");
		for (size_t i = 0; i < n && at >= 0 && (size_t) at < sizeof(also); i++)
			at += snprintf(also + at, sizeof(also) - (size_t) at, "%s %s", i ? "," : "",
			               like[i]);
		if (more && at >= 0 && (size_t) at < sizeof(also))
			snprintf(also + at, sizeof(also) - (size_t) at, " (and %zu more)", more);
	}
	snprintf(buf, size,
	         "the trace has none of the events this analysis needs: record them with "
	         "'spoor record -k %s' (LTTng: 'lttng enable-event -k' the same ones)%s",
	         nneed ? kvocab_record_hint(need[0]) : "?", also);
}

static int none_of(const struct command *cmd, const struct an_cli *c)
{
	char text[800];
	an_none_of_text(c->e, c->need, c->nneed, text, sizeof(text));
	return cmd_error(cmd, "%s", text);
}

int an_cli_require(const struct command *cmd, struct an_cli *c, const enum kev *kinds, size_t n)
{
	c->need = kinds;
	c->nneed = n;
	for (size_t i = 0; i < n; i++)
		if (an_trace_has(c->e, kinds[i]))
			return 0;
	return none_of(cmd, c);
}

int an_cli_run(const struct command *cmd, struct an_cli *c)
{
	int rc = an_engine_run(c->e);
	if (rc < 0)
		return cmd_error(cmd, "%s", spoor_strerror(rc));
	c->ran = true;
	/* the losses once, per stream, then what they mean for the figures */
	if (cmd_warn_losses(cmd, c->r, NULL) || an_events_lost(c->e))
		fprintf(stderr, "spoor %s: note: figures that span a loss are incomplete\n",
		        cmd->name);
	bool saw = !c->nneed;
	for (size_t i = 0; i < c->nneed; i++)
		saw |= an_trace_saw(c->e, c->need[i]);
	if (!saw) /* declared, but the trace holds none: as if not declared */
		return none_of(cmd, c);
	return 0;
}

int an_cli_finish(const struct command *cmd, struct an_cli *c, int rc)
{
	if (c->ran && c->plugins && an_plugins_report(c->plugins, stdout, c->json))
		fprintf(stderr, "spoor: warning: a plug-in's report failed\n");
	if (c->ran && !rc)
		cmd_note_range(cmd, c->traces, c->ntraces, c->f.has_begin ? c->f.begin : INT64_MIN,
		               c->f.has_end ? c->f.end : INT64_MAX);
	if (c->ran)
		rc = cmd_read_status(cmd, c->r, rc,
		                     "the results cover the events before the damage");
	an_plugins_free(c->plugins);
	free(c->plugin_paths);
	an_engine_free(c->e);
	spoor_reader_close(c->r);
	free(c->pids);
	free(c->tids);
	free(c->cpus);
	free(c->comms);
	*c = (struct an_cli){0};
	return rc;
}
