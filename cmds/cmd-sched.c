/* SPDX-License-Identifier: MIT */
/* cmd-sched.c: `spoor sched TRACE...`: CPU time, waits and wake-up latencies per thread,
 * process and CPU, or each task's state changes (lib/analysis/sched.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis-cli.h"
#include "analysis/sched.h"
#include "command.h"
#include "util/json.h"
#include "table.h"

enum { OPT_WORST = AN_OPT_COMMON, OPT_TIMELINE };
enum { DEFAULT_WORST = 10 };
static const enum kev need[] = {KEV_SCHED_SWITCH};

static const struct cmd_option sched_options[] = {
    AN_COMMON_OPTIONS,
    [OPT_WORST] = {"worst", 'w', "N", "list the N worst wake-up latencies (default 10)"},
    [OPT_TIMELINE] = {"timeline", 0, NULL,
                      "print each task's state changes in time order instead of the tables"},
    {NULL, 0, NULL, NULL},
};

struct sched_opts {
	long worst;
	bool timeline;
	bool json;
	const struct an_engine *e;
	const struct sched_analysis *a;
	size_t lines;
};

static int own_option(int row, const char *arg, void *data)
{
	struct sched_opts *o = data;
	char *end;
	switch (row) {
	case OPT_WORST:
		errno = 0;
		o->worst = strtol(arg, &end, 10);
		if (!errno && end != arg && !*end && o->worst >= 0 && o->worst <= 1000000)
			return 0;
		fprintf(stderr, "spoor sched: invalid --worst '%s' (0 to 1000000)\n", arg);
		return 2;
	case OPT_TIMELINE: o->timeline = true; return 0;
	default: return 2;
	}
}

static const char *state_name(const struct sched_analysis *a, enum sched_state s,
                              int64_t prev_state, char buf[32])
{
	static const char *const names[] = {"unknown", "running", "runnable", "blocked", "dead"};
	char letters[16];
	if (s != SCHED_BLOCKED)
		return names[s];
	snprintf(buf, 32, "blocked(%s)", sched_analysis_state_letters(a, prev_state, letters));
	return buf;
}

static void print_change(void *data, const struct sched_change *c)
{
	struct sched_opts *o = data;
	const char *comm = an_task_comm(o->e, c->tid);
	char b1[32], b2[32];
	const char *from = state_name(o->a, c->from, c->prev_state, b1);
	const char *to = state_name(o->a, c->to, c->prev_state, b2);
	if (o->json)
		printf("%s\n {\"ts\": %lld, \"tid\": %lld, \"comm\": \"%s\", \"from\": \"%s\", "
		       "\"to\": \"%s\", \"cpu\": %lld}",
		       o->lines ? "," : "{\"timeline\": [", (long long) c->ts, (long long) c->tid,
		       comm ? comm : "", from, to, (long long) c->cpu);
	else {
		struct row r = {0}; /* a timeline has a line per state change: no printf */
		row_time(&r, 0, (long long) c->ts);
		row_lit(&r, " ");
		row_int(&r, 7, (long long) c->tid);
		row_lit(&r, " ");
		row_str(&r, -16, comm ? comm : "?");
		row_lit(&r, " ");
		row_str(&r, -14, from);
		row_lit(&r, " -> ");
		row_str(&r, -14, to);
		row_lit(&r, " cpu ");
		row_int(&r, 0, (long long) c->cpu);
		row_end(&r);
	}
	o->lines++;
}

static double ms(int64_t ns)
{
	return (double) ns / 1e6;
}

/* A row's wake-up latency columns, and its end. */
static void row_latency(struct row *r, const struct welford *w)
{
	row_lit(r, " ");
	if (!w->n) {
		row_str(r, 8, "0");
		for (int i = 0; i < 4; i++) {
			row_lit(r, " ");
			row_str(r, 9, "-");
		}
	} else {
		double us[4] = {w->min / 1e3, w->mean / 1e3, w->max / 1e3, welford_stddev(w) / 1e3};
		row_uint(r, 8, (unsigned long long) w->n);
		for (int i = 0; i < 4; i++) {
			row_lit(r, " ");
			row_fixed(r, 9, us[i], 3);
		}
	}
	row_end(r);
}

/* The columns a process and a thread row share: cpu ms, switches, wait ms, blocked ms. */
static void row_times(struct row *r, int64_t cpu, uint64_t switches, int64_t wait, int64_t blocked)
{
	row_lit(r, " ");
	row_fixed(r, 11, ms(cpu), 3);
	row_lit(r, " ");
	row_uint(r, 9, (unsigned long long) switches);
	row_lit(r, " ");
	row_fixed(r, 11, ms(wait), 3);
	row_lit(r, " ");
	row_fixed(r, 11, ms(blocked), 3);
}

static void print_tables(FILE *out, struct sched_analysis *a, const struct an_engine *e,
                         double span)
{
	const struct sched_thread *t;
	const struct sched_proc *p;
	const struct sched_cpu *c;
	const struct sched_wake *w;
	size_t nt = sched_analysis_threads(a, &t), np = sched_analysis_procs(a, &p);
	size_t nc = sched_analysis_cpus(a, &c), nw = sched_analysis_worst(a, &w);
	const char *head = "%11s %9s %11s %11s %8s %9s %9s %9s %9s\n";

	fprintf(out, "CPUs (span %.6f s)\n%4s %9s %11s %11s %11s %7s %9s\n", span, "cpu",
	        "switches", "busy ms", "idle ms", "unknown ms", "util %", "lost");
	struct row r = {.out = out};
	for (size_t i = 0; i < nc; i++) {
		int64_t known = c[i].busy_ns + c[i].idle_ns;
		row_int(&r, 4, (long long) c[i].cpu);
		row_lit(&r, " ");
		row_uint(&r, 9, (unsigned long long) c[i].switches);
		row_lit(&r, " ");
		row_fixed(&r, 11, ms(c[i].busy_ns), 3);
		row_lit(&r, " ");
		row_fixed(&r, 11, ms(c[i].idle_ns), 3);
		row_lit(&r, " ");
		row_fixed(&r, 11, ms(c[i].unknown_ns), 3);
		row_lit(&r, " ");
		row_fixed(&r, 7, known ? 100.0 * (double) c[i].busy_ns / (double) known : 0, 2);
		row_lit(&r, " ");
		row_uint(&r, 9, (unsigned long long) c[i].lost);
		row_end(&r);
	}
	/* the latency title over its columns, from the 80th byte of a row on */
	fprintf(out, "\nProcesses%70s%s\n%7s %-16s %7s ", "", "wake-up latency (us)", "pid", "name",
	        "threads");
	fprintf(out, head, "cpu ms", "switches", "wait ms", "blocked ms", "count", "min", "mean",
	        "max", "stddev");
	for (size_t i = 0; i < np; i++) {
		const char *comm = an_task_comm(e, p[i].pid);
		row_int(&r, 7, (long long) p[i].pid);
		row_lit(&r, " ");
		row_str(&r, -16, comm ? comm : "?");
		row_lit(&r, " ");
		row_uint(&r, 7, (unsigned long long) p[i].threads);
		row_times(&r, p[i].cpu_ns, p[i].switches, p[i].wait_ns, p[i].blocked_ns);
		row_latency(&r, &p[i].latency);
	}
	fprintf(out, "\nThreads%72s%s\n%7s %7s %-16s ", "", "wake-up latency (us)", "tid", "pid",
	        "name");
	fprintf(out, head, "cpu ms", "switches", "wait ms", "blocked ms", "count", "min", "mean",
	        "max", "stddev");
	for (size_t i = 0; i < nt; i++) {
		const char *comm = an_task_comm(e, t[i].tid);
		row_int(&r, 7, (long long) t[i].tid);
		row_lit(&r, " ");
		row_int(&r, 7, (long long) an_task_pid(e, t[i].tid));
		row_lit(&r, " ");
		row_str(&r, -16, comm ? comm : "?");
		row_times(&r, t[i].cpu_ns, t[i].switches, t[i].wait_ns, t[i].blocked_ns);
		row_latency(&r, &t[i].latency);
	}
	fprintf(out, "\nWorst wake-up latencies\n%20s %20s %11s %7s %-16s %4s %7s\n", "woken",
	        "run", "latency us", "tid", "name", "cpu", "waker");
	for (size_t i = 0; i < nw; i++) {
		const char *comm = an_task_comm(e, w[i].tid);
		row_time(&r, 20, (long long) w[i].wake);
		row_lit(&r, " ");
		row_time(&r, 20, (long long) w[i].run);
		row_lit(&r, " ");
		row_fixed(&r, 11, (double) w[i].latency / 1e3, 3);
		row_lit(&r, " ");
		row_int(&r, 7, (long long) w[i].tid);
		row_lit(&r, " ");
		row_str(&r, -16, comm ? comm : "?");
		row_lit(&r, " ");
		row_int(&r, 4, (long long) w[i].cpu);
		row_lit(&r, " ");
		row_int(&r, 7, (long long) w[i].waker);
		row_end(&r);
	}
}

static void json_latency(const struct welford *w)
{
	printf("\"latency\": {\"count\": %llu, \"min_ns\": %.0f, \"mean_ns\": %.3f, \"max_ns\": "
	       "%.0f, \"stddev_ns\": %.3f}}",
	       (unsigned long long) w->n, w->n ? w->min : 0, w->mean, w->n ? w->max : 0,
	       welford_stddev(w));
}

static void print_json(struct sched_analysis *a, const struct an_engine *e, double span)
{
	const struct sched_thread *t;
	const struct sched_proc *p;
	const struct sched_cpu *c;
	const struct sched_wake *w;
	size_t nt = sched_analysis_threads(a, &t), np = sched_analysis_procs(a, &p);
	size_t nc = sched_analysis_cpus(a, &c), nw = sched_analysis_worst(a, &w);
	const struct sched_totals *s = sched_analysis_totals(a);
	printf("{\"span_s\": %.9f, \"lost_events\": %llu, \"cut_intervals\": %llu, "
	       "\"dropped_wakeups\": %llu, \"pending_wakeups\": %llu, \"unwoken\": %llu, "
	       "\"inferred_switches\": %llu,\n\"cpus\": [",
	       span, (unsigned long long) an_events_lost(e), (unsigned long long) s->cut_intervals,
	       (unsigned long long) s->dropped_wakeups, (unsigned long long) s->pending_wakeups,
	       (unsigned long long) s->unwoken, (unsigned long long) s->inferred);
	for (size_t i = 0; i < nc; i++)
		printf("%s\n {\"cpu\": %lld, \"switches\": %llu, \"inferred\": %llu, \"busy_ns\": "
		       "%lld, \"idle_ns\": %lld, \"unknown_ns\": %lld, \"lost\": %llu}",
		       i ? "," : "", (long long) c[i].cpu, (unsigned long long) c[i].switches,
		       (unsigned long long) c[i].inferred, (long long) c[i].busy_ns,
		       (long long) c[i].idle_ns, (long long) c[i].unknown_ns,
		       (unsigned long long) c[i].lost);
	printf("],\n\"processes\": [");
	for (size_t i = 0; i < np; i++) {
		printf("%s\n {\"pid\": %lld, \"name\": ", i ? "," : "", (long long) p[i].pid);
		json_string(stdout, an_task_comm(e, p[i].pid));
		printf(
		    ", \"threads\": %llu, \"cpu_ns\": %lld, \"switches\": %llu, \"wait_ns\": %lld, "
		    "\"blocked_ns\": %lld, ",
		    (unsigned long long) p[i].threads, (long long) p[i].cpu_ns,
		    (unsigned long long) p[i].switches, (long long) p[i].wait_ns,
		    (long long) p[i].blocked_ns);
		json_latency(&p[i].latency);
	}
	printf("],\n\"threads\": [");
	for (size_t i = 0; i < nt; i++) {
		printf("%s\n {\"tid\": %lld, \"pid\": %lld, \"name\": ", i ? "," : "",
		       (long long) t[i].tid, (long long) an_task_pid(e, t[i].tid));
		json_string(stdout, an_task_comm(e, t[i].tid));
		printf(", \"cpu_ns\": %lld, \"switches\": %llu, \"wait_ns\": %lld, \"blocked_ns\": "
		       "%lld, ",
		       (long long) t[i].cpu_ns, (unsigned long long) t[i].switches,
		       (long long) t[i].wait_ns, (long long) t[i].blocked_ns);
		json_latency(&t[i].latency);
	}
	printf("],\n\"worst\": [");
	for (size_t i = 0; i < nw; i++)
		printf("%s\n {\"latency_ns\": %lld, \"wake_ts\": %lld, \"run_ts\": %lld, \"tid\": "
		       "%lld, \"cpu\": %lld, \"waker\": %lld}",
		       i ? "," : "", (long long) w[i].latency, (long long) w[i].wake,
		       (long long) w[i].run, (long long) w[i].tid, (long long) w[i].cpu,
		       (long long) w[i].waker);
	printf("\n]}\n");
}

static void print_notes(FILE *out, const struct sched_totals *s)
{
	if (s->cut_intervals || s->dropped_wakeups || s->pending_wakeups || s->unwoken)
		fprintf(out,
		        "\nNot counted: %llu CPU intervals cut by lost events (unknown ms), %llu "
		        "wake-ups dropped by lost events, %llu wake-ups still waiting at the end; "
		        "%llu switch-ins of blocked threads without a wake-up in the trace\n",
		        (unsigned long long) s->cut_intervals,
		        (unsigned long long) s->dropped_wakeups,
		        (unsigned long long) s->pending_wakeups, (unsigned long long) s->unwoken);
	if (s->inferred)
		fprintf(out,
		        "\nInferred: %llu switches that the trace lacks but its events show (the "
		        "switches column counts them; docs/analyses/sched.md)\n",
		        (unsigned long long) s->inferred);
}

/* The tables and their notes: the command's text, and an_report_sched's. */
static int print_text(void *a, const struct an_engine *e, FILE *out)
{
	int64_t b, end;
	an_span(e, &b, &end);
	print_tables(out, a, e, (double) (end - b) / 1e9);
	print_notes(out, sched_analysis_totals(a));
	return 0;
}

static int run_sched(const struct command *cmd, int argc, char **argv)
{
	struct an_cli c;
	struct sched_opts o = {.worst = DEFAULT_WORST};
	bool done;
	int rc = an_cli_start(cmd, &c, argc, argv, own_option, &o, &done);
	if (rc || done)
		goto out;
	if ((rc = an_cli_require(cmd, &c, need, 1)))
		goto out;
	struct sched_analysis *a = sched_analysis_new(c.e, (size_t) o.worst);
	if (!a) {
		rc = cmd_error(cmd, "out of memory");
		goto out;
	}
	o.json = c.json;
	o.e = c.e;
	o.a = a;
	if (o.timeline) /* JSON's opening comes with the first change: a run may end in error */
		sched_analysis_on_change(a, print_change, &o);
	if (!(rc = an_cli_run(cmd, &c))) {
		int64_t b, e;
		an_span(c.e, &b, &e);
		double span = (double) (e - b) / 1e9;
		if (o.timeline && o.json)
			printf("%s\n]}\n", o.lines ? "" : "{\"timeline\": [");
		else if (c.json)
			print_json(a, c.e, span);
		else if (!o.timeline)
			print_text(a, c.e, stdout);
	}
	sched_analysis_free(a);
out:
	return an_cli_finish(cmd, &c, rc);
}

const struct command cmd_sched = {
    .name = "sched",
    .summary = "scheduling per thread, process and CPU: CPU time, waits, wake-up latencies",
    .description = "CPU time, waits and wake-up latencies per thread and process, from spoor's "
                   "or LTTng's kernel traces.",
    .usage = "[options] TRACE...",
    .options = sched_options,
    .run = run_sched,
    .options_anywhere = true,
};

static void *report_attach(struct an_engine *e)
{
	return sched_analysis_new(e, DEFAULT_WORST);
}

static void report_free(void *a)
{
	sched_analysis_free(a);
}

const struct an_report an_report_sched = {
    .name = "sched",
    .need = need,
    .nneed = 1,
    .attach = report_attach,
    .print = print_text,
    .free = report_free,
};
