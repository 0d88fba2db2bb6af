/* SPDX-License-Identifier: MIT */
/* cmd-syscalls.c: `spoor syscalls TRACE...`: system call counts, durations and errors, in
 * all and per process (lib/analysis/syscalls.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis-cli.h"
#include "analysis/syscall-names.h"
#include "analysis/syscalls.h"
#include "command.h"
#include "util/json.h"
#include "table.h"

enum { OPT_TOP = AN_OPT_COMMON, OPT_SYSCALL, OPT_PER_THREAD };
static const enum kev need[] = {KEV_SYSCALL_ENTRY, KEV_SYSCALL_EXIT};

static const struct cmd_option sc_options[] = {
    AN_COMMON_OPTIONS,
    [OPT_TOP] = {"top", 'n', "N", "only the N first rows of each table (by count)"},
    [OPT_SYSCALL] = {"syscall", 's', "NAME",
                     "only calls whose name matches NAME (wildcards; repeatable)"},
    [OPT_PER_THREAD] = {"per-thread", 0, NULL, "a table per thread instead of per process"},
    {NULL, 0, NULL, NULL},
};

struct own {
	const struct command *cmd;
	size_t top; /* 0: all */
	const char **calls;
	struct sc_options o;
};

static int own_option(int row, const char *arg, void *data)
{
	struct own *w = data;
	switch (row) {
	case OPT_TOP: {
		char *end;
		errno = 0;
		unsigned long long n = strtoull(arg, &end, 10);
		if (errno || end == arg || *end || !n)
			return cmd_usage_error(w->cmd, "invalid count '%s'", arg);
		w->top = (size_t) n;
		return 0;
	}
	case OPT_SYSCALL: {
		const char **bigger = realloc(w->calls, (w->o.ncalls + 1) * sizeof(*bigger));
		if (!bigger)
			return cmd_error(w->cmd, "out of memory");
		bigger[w->o.ncalls++] = arg;
		w->o.calls = w->calls = bigger;
		return 0;
	}
	case OPT_PER_THREAD: w->o.per_thread = true; return 0;
	default: return 2;
	}
}

static size_t limit(size_t n, size_t top)
{
	return top && top < n ? top : n;
}

static bool shown(const struct sc_stat *s)
{
	return s->dur.n || s->noexit;
}

static void errno_text(char *buf, size_t size, int64_t err)
{
	const char *name = sc_errno_name(err);
	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "%lld", (long long) -err);
}

/* ---- text ---- */

static void text_head(FILE *out, const char *first)
{
	fprintf(out, "%-22s %9s %7s %7s %11s %10s %10s %10s %10s\n", first, "count", "errors",
	        "no exit", "total ms", "mean us", "stddev us", "min us", "max us");
}

/* A call's row, its name after indent spaces (a process's calls: --per-thread makes tens of
 * thousands of them, so no printf). */
static void text_row(FILE *out, int indent, const char *name, const struct sc_stat *s)
{
	const struct exactstat *d = &s->dur;
	struct row r = {.out = out};
	row_str(&r, indent, ""); /* "%-22s" of the indented name */
	row_str(&r, -(22 - indent), name);
	row_lit(&r, " ");
	row_uint(&r, 9, (unsigned long long) d->n);
	row_lit(&r, " ");
	row_uint(&r, 7, (unsigned long long) s->errors);
	row_lit(&r, " ");
	row_uint(&r, 7, (unsigned long long) s->noexit);
	row_lit(&r, " ");
	row_fixed(&r, 11, exactstat_sum(d) / 1e6, 3);
	double us[4] = {exactstat_mean(d) / 1e3, exactstat_stddev(d) / 1e3,
	                d->n ? (double) d->min / 1e3 : 0, d->n ? (double) d->max / 1e3 : 0};
	for (int i = 0; i < 4; i++) {
		row_lit(&r, " ");
		row_fixed(&r, 10, us[i], 3);
	}
	row_end(&r);
}

static void print_text(FILE *out, const struct sc_analysis *a, double span_s, size_t top,
                       bool per_thread)
{
	const struct sc_call *calls;
	const struct sc_group *groups;
	const struct sc_errno *errs;
	size_t nc = sc_analysis_calls(a, &calls), ng = sc_analysis_groups(a, &groups);
	size_t ne = sc_analysis_errnos(a, &errs);
	const struct sc_totals *t = sc_analysis_totals(a);
	double total = 0;
	for (size_t i = 0; i < nc; i++)
		total += exactstat_sum(&calls[i].all.dur);
	fprintf(out, "System calls (span %.6f s): %llu completed, %.3f ms in calls\n", span_s,
	        (unsigned long long) t->calls, total / 1e6);
	text_head(out, "syscall");
	for (size_t i = 0, k = 0; i < nc && k < limit(nc, top); i++)
		if (shown(&calls[i].all)) {
			text_row(out, 0, calls[i].name, &calls[i].all);
			k++;
		}
	if (ne) {
		fprintf(out, "\nErrors\n%-22s %-22s %9s\n", "syscall", "errno", "count");
		for (size_t i = 0; i < limit(ne, top); i++) {
			char e[32];
			errno_text(e, sizeof(e), errs[i].err);
			fprintf(out, "%-22s %-22s %9llu\n", calls[errs[i].call].name, e,
			        (unsigned long long) errs[i].count);
		}
	}
	for (size_t i = 0; i < limit(ng, top); i++) {
		const struct sc_group *g = &groups[i];
		const struct sc_stat *s = sc_analysis_group_stats(a, g);
		fprintf(out, "\n%s %lld", per_thread ? "Thread" : "Process", (long long) g->id);
		if (per_thread)
			fprintf(out, " (pid %lld)", (long long) g->pid);
		fprintf(out, " %s: %llu completed, %llu errors, %.3f ms in calls\n",
		        g->comm[0] ? g->comm : "?", (unsigned long long) g->total.dur.n,
		        (unsigned long long) g->total.errors, exactstat_sum(&g->total.dur) / 1e6);
		text_head(out, "  syscall");
		for (size_t k = 0; k < limit(g->n, top); k++)
			text_row(out, 2, calls[s[k].call].name, &s[k]);
	}
	if (t->unmatched || t->unfinished || t->superseded || t->mismatched || t->dropped ||
	    t->no_task)
		fprintf(out,
		        "\nNot counted: %llu exits without their entry (before the trace or lost), "
		        "%llu calls unfinished at the end, %llu entries without exit (exit lost), "
		        "%llu exits of another call, %llu calls cut by lost events, %llu events "
		        "of an unknown task\n",
		        (unsigned long long) t->unmatched, (unsigned long long) t->unfinished,
		        (unsigned long long) t->superseded, (unsigned long long) t->mismatched,
		        (unsigned long long) t->dropped, (unsigned long long) t->no_task);
}

/* ---- JSON ---- */

/* A 128-bit integer in decimal (a sum of durations may pass 2^64 ns). */
static const char *u128_text(unsigned __int128 v, char buf[40])
{
	char *p = buf + 39;
	*p = '\0';
	do {
		*--p = (char) ('0' + (int) (v % 10));
		v /= 10;
	} while (v);
	return p;
}

static void json_stat(FILE *out, const struct sc_stat *s)
{
	const struct exactstat *d = &s->dur;
	char total[40];
	fprintf(out,
	        "\"count\": %llu, \"errors\": %llu, \"no_exit\": %llu, \"total_ns\": %s, "
	        "\"mean_ns\": %.3f, \"stddev_ns\": %.3f, \"min_ns\": %llu, \"max_ns\": %llu",
	        (unsigned long long) d->n, (unsigned long long) s->errors,
	        (unsigned long long) s->noexit, u128_text(d->sum, total), exactstat_mean(d),
	        exactstat_stddev(d), (unsigned long long) (d->n ? d->min : 0),
	        (unsigned long long) (d->n ? d->max : 0));
}

static void print_json(FILE *out, const struct sc_analysis *a, double span_s, size_t top,
                       bool per_thread, uint64_t lost)
{
	const struct sc_call *calls;
	const struct sc_group *groups;
	const struct sc_errno *errs;
	size_t nc = sc_analysis_calls(a, &calls), ng = sc_analysis_groups(a, &groups);
	size_t ne = sc_analysis_errnos(a, &errs);
	const struct sc_totals *t = sc_analysis_totals(a);
	fprintf(out,
	        "{\"span_s\": %.9f, \"lost_events\": %llu, \"calls\": %llu, \"unmatched_exits\": "
	        "%llu, \"child_returns\": %llu, \"unfinished\": %llu, \"noreturn\": %llu, "
	        "\"superseded\": %llu, \"mismatched\": %llu, \"dropped_by_loss\": %llu, "
	        "\"unknown_task\": %llu,\n \"syscalls\": [",
	        span_s, (unsigned long long) lost, (unsigned long long) t->calls,
	        (unsigned long long) t->unmatched, (unsigned long long) t->child_returns,
	        (unsigned long long) t->unfinished, (unsigned long long) t->noreturn,
	        (unsigned long long) t->superseded, (unsigned long long) t->mismatched,
	        (unsigned long long) t->dropped, (unsigned long long) t->no_task);
	for (size_t i = 0, k = 0; i < nc && k < limit(nc, top); i++) {
		if (!shown(&calls[i].all))
			continue;
		fprintf(out, "%s\n  {\"name\": ", k++ ? "," : "");
		json_string(out, calls[i].name);
		fprintf(out, ", ");
		json_stat(out, &calls[i].all);
		fprintf(out, ", \"errno\": {");
		for (size_t j = 0, m = 0; j < ne; j++) /* small: errors are few kinds */
			if (errs[j].call == i) {
				char e[32];
				errno_text(e, sizeof(e), errs[j].err);
				fprintf(out, "%s\"%s\": %llu", m++ ? ", " : "", e,
				        (unsigned long long) errs[j].count);
			}
		fprintf(out, "}}");
	}
	fprintf(out, "],\n \"%s\": [", per_thread ? "threads" : "processes");
	for (size_t i = 0; i < limit(ng, top); i++) {
		const struct sc_group *g = &groups[i];
		const struct sc_stat *s = sc_analysis_group_stats(a, g);
		fprintf(out, "%s\n  {\"%s\": %lld, ", i ? "," : "", per_thread ? "tid" : "pid",
		        (long long) g->id);
		if (per_thread)
			fprintf(out, "\"pid\": %lld, ", (long long) g->pid);
		fprintf(out, "\"name\": ");
		json_string(out, g->comm);
		fprintf(out, ", ");
		json_stat(out, &g->total);
		fprintf(out, ", \"syscalls\": [");
		for (size_t k = 0; k < limit(g->n, top); k++) {
			fprintf(out, "%s\n   {\"name\": ", k ? "," : "");
			json_string(out, calls[s[k].call].name);
			fprintf(out, ", ");
			json_stat(out, &s[k]);
			fprintf(out, "}");
		}
		fprintf(out, "]}");
	}
	fprintf(out, "]}\n");
}

static int run_syscalls(const struct command *cmd, int argc, char **argv)
{
	struct an_cli c;
	struct own w = {.cmd = cmd};
	bool done;
	int rc = an_cli_start(cmd, &c, argc, argv, own_option, &w, &done);
	if (rc || done)
		goto out;
	if ((rc = an_cli_require(cmd, &c, need, 2)))
		goto out;
	struct sc_analysis *a = sc_analysis_new(c.e, &w.o);
	if (!a) {
		rc = cmd_error(cmd, "out of memory");
		goto out;
	}
	if (!(rc = an_cli_run(cmd, &c))) {
		if (sc_analysis_finish(a)) {
			rc = cmd_error(cmd, "out of memory");
		} else {
			int64_t b, e;
			an_span(c.e, &b, &e);
			double span = (double) (e - b) / 1e9;
			if (c.json)
				print_json(stdout, a, span, w.top, w.o.per_thread,
				           an_events_lost(c.e));
			else
				print_text(stdout, a, span, w.top, w.o.per_thread);
		}
	}
	sc_analysis_free(a);
out:
	free(w.calls);
	return an_cli_finish(cmd, &c, rc);
}

const struct command cmd_syscalls = {
    .name = "syscalls",
    .summary = "system calls per name and per process: counts, durations, errors by errno",
    .description = "System calls per thread and process: which calls, how long they took, which "
                   "errors they returned.",
    .usage = "[options] TRACE...",
    .options = sc_options,
    .run = run_syscalls,
    .options_anywhere = true,
};

static void *report_attach(struct an_engine *e)
{
	static const struct sc_options defaults;
	return sc_analysis_new(e, &defaults);
}

static int report_print(void *a, const struct an_engine *e, FILE *out)
{
	if (sc_analysis_finish(a))
		return -ENOMEM;
	int64_t b, end;
	an_span(e, &b, &end);
	print_text(out, a, (double) (end - b) / 1e9, 0, false);
	return 0;
}

static void report_free(void *a)
{
	sc_analysis_free(a);
}

const struct an_report an_report_syscalls = {
    .name = "syscalls",
    .need = need,
    .nneed = 2,
    .attach = report_attach,
    .print = report_print,
    .free = report_free,
};
