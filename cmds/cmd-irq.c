/* SPDX-License-Identifier: MIT */
/* cmd-irq.c: `spoor irq TRACE...`: interrupt and softirq statistics (lib/analysis/irq.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis-cli.h"
#include "analysis/irq.h"
#include "command.h"

enum { OPT_HIST = AN_OPT_COMMON, OPT_ALL_CPUS };
static const enum kev need[] = {KEV_IRQ_ENTRY, KEV_SOFTIRQ_ENTRY};

struct irq_opts {
	bool hist, all_cpus;
};

static const struct cmd_option irq_options[] = {
    AN_COMMON_OPTIONS,
    [OPT_HIST] = {"hist", 0, NULL, "also print each line's duration histogram"},
    [OPT_ALL_CPUS] = {"all-cpus", 'a', NULL,
                      "one line per IRQ and per vector, all CPUs together (as lttng-irqstats)"},
    {NULL, 0, NULL, NULL},
};

static int own_option(int row, const char *arg, void *data)
{
	struct irq_opts *o = data;
	(void) arg;
	if (row == OPT_HIST)
		o->hist = true;
	else if (row == OPT_ALL_CPUS)
		o->all_cpus = true;
	else
		return 2;
	return 0;
}

static double us(double ns)
{
	return ns / 1000.0;
}

/* The CPU column: a number, or "all" for merged lines. */
static const char *cpu_text(int64_t cpu, char *buf, size_t size)
{
	if (cpu < 0)
		return "all";
	snprintf(buf, size, "%lld", (long long) cpu);
	return buf;
}

static void print_lines(FILE *out, const struct irq_line *l, size_t n, double span_s)
{
	for (int soft = 0; soft < 2; soft++) {
		bool any = false;
		for (size_t i = 0; i < n; i++)
			any |= l[i].soft == soft;
		if (!any)
			continue;
		fprintf(out, "%s%s (span %.6f s)\n", soft ? "\n" : "",
		        soft ? "Softirqs" : "Hard IRQs", span_s);
		fprintf(out, "%4s %4s %-16s %9s %10s %11s %10s %10s %10s %10s %11s %11s %10s\n",
		        "cpu", soft ? "vec" : "irq", "name", "count", "freq Hz", "total ms",
		        "mean us", "stddev us", "min us", "max us", "period ms", "period sd",
		        "freq sd Hz");
		for (size_t i = 0; i < n; i++) {
			const struct irq_line *x = &l[i];
			if (x->soft != soft)
				continue;
			const struct welford *d = &x->duration;
			char cbuf[24];
			fprintf(out,
			        "%4s %4lld %-16s %9llu %10.3f %11.3f %10.3f %10.3f %10.3f %10.3f "
			        "%11.3f %11.3f %10.3f\n",
			        cpu_text(x->cpu, cbuf, sizeof(cbuf)), (long long) x->irq,
			        x->name[0] ? x->name : "?", (unsigned long long) d->n,
			        span_s > 0 ? (double) d->n / span_s : 0, d->sum / 1e6, us(d->mean),
			        us(welford_stddev(d)), us(d->n ? d->min : 0), us(d->n ? d->max : 0),
			        x->period.mean / 1e6, welford_stddev(&x->period) / 1e6,
			        welford_stddev(&x->freq));
		}
	}
}

static void print_hist(FILE *out, const struct irq_line *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct irq_line *x = &l[i];
		uint64_t max = 0;
		for (int b = 0; b < IRQ_HIST_BUCKETS; b++)
			max = x->hist[b] > max ? x->hist[b] : max;
		if (!max)
			continue;
		char cbuf[24];
		fprintf(out, "\n%s %lld on cpu %s (%s): durations\n", x->soft ? "softirq" : "irq",
		        (long long) x->irq, cpu_text(x->cpu, cbuf, sizeof(cbuf)),
		        x->name[0] ? x->name : "?");
		for (int b = 0; b < IRQ_HIST_BUCKETS; b++) {
			if (!x->hist[b])
				continue;
			int bar = (int) (40 * x->hist[b] / max);
			fprintf(out, "  %9.3f - %9.3f us %9llu %.*s\n", us((double) (1ull << b)),
			        us((double) (2ull << b)), (unsigned long long) x->hist[b],
			        bar > 0 ? bar : 1, "########################################");
		}
	}
}

static void print_json(FILE *out, const struct irq_line *l, size_t n, double span_s,
                       const struct irq_totals *t, uint64_t lost)
{
	fprintf(out,
	        "{\"span_s\": %.9f, \"lost_events\": %llu, \"unmatched_exits\": %llu, "
	        "\"unfinished\": %llu, \"broken\": %llu, \"lines\": [",
	        span_s, (unsigned long long) lost, (unsigned long long) t->unmatched,
	        (unsigned long long) t->unfinished, (unsigned long long) t->broken);
	for (size_t i = 0; i < n; i++) {
		const struct irq_line *x = &l[i];
		const struct welford *d = &x->duration;
		char cbuf[24];
		fprintf(
		    out,
		    "%s\n {\"kind\": \"%s\", \"cpu\": %s, \"%s\": %lld, \"name\": \"%s\", "
		    "\"count\": %llu, \"freq_hz\": %.6f, \"total_ns\": %.0f, \"mean_ns\": %.3f, "
		    "\"stddev_ns\": %.3f, \"min_ns\": %.0f, \"max_ns\": %.0f, \"period_mean_ns\": "
		    "%.3f, \"period_stddev_ns\": %.3f, \"freq_stddev_hz\": %.6f, \"hist_log2_ns\": "
		    "[",
		    i ? "," : "", x->soft ? "softirq" : "irq",
		    x->cpu < 0 ? "null" : cpu_text(x->cpu, cbuf, sizeof(cbuf)),
		    x->soft ? "vec" : "irq", (long long) x->irq, x->name, (unsigned long long) d->n,
		    span_s > 0 ? (double) d->n / span_s : 0, d->sum, d->mean, welford_stddev(d),
		    d->n ? d->min : 0, d->n ? d->max : 0, x->period.mean,
		    welford_stddev(&x->period), welford_stddev(&x->freq));
		for (int b = 0; b < IRQ_HIST_BUCKETS; b++)
			fprintf(out, "%s%llu", b ? ", " : "", (unsigned long long) x->hist[b]);
		fprintf(out, "]}");
	}
	fprintf(out, "\n]}\n");
}

/* The tables, their histograms when asked, and the note: the command's text, and
 * an_report_irq's. */
static void print_text(FILE *out, struct irq_analysis *a, const struct an_engine *e, bool hist)
{
	const struct irq_line *lines;
	size_t n = irq_analysis_lines(a, &lines);
	int64_t b, end;
	an_span(e, &b, &end);
	const struct irq_totals *t = irq_analysis_totals(a);
	print_lines(out, lines, n, (double) (end - b) / 1e9);
	if (hist)
		print_hist(out, lines, n);
	if (t->unmatched || t->unfinished || t->broken)
		fprintf(
		    out,
		    "\nNot counted: %llu exits without their entry (before the trace or lost), "
		    "%llu runs unfinished at the end, %llu cut by lost events or missing exits\n",
		    (unsigned long long) t->unmatched, (unsigned long long) t->unfinished,
		    (unsigned long long) t->broken);
}

static int run_irq(const struct command *cmd, int argc, char **argv)
{
	struct an_cli c;
	struct irq_opts o = {0};
	bool done;
	int rc = an_cli_start(cmd, &c, argc, argv, own_option, &o, &done);
	if (rc || done)
		goto out;
	if ((rc = an_cli_require(cmd, &c, need, 2)))
		goto out;
	struct irq_analysis *a = irq_analysis_new(c.e);
	if (!a) {
		rc = cmd_error(cmd, "out of memory");
		goto out;
	}
	if (o.all_cpus)
		irq_analysis_all_cpus(a);
	if (!(rc = an_cli_run(cmd, &c)) && irq_analysis_oom(a))
		rc = cmd_error(cmd, "out of memory");
	if (!rc && c.json) {
		const struct irq_line *lines;
		size_t n = irq_analysis_lines(a, &lines);
		int64_t b, e;
		an_span(c.e, &b, &e);
		print_json(stdout, lines, n, (double) (e - b) / 1e9, irq_analysis_totals(a),
		           an_events_lost(c.e));
	} else if (!rc) {
		print_text(stdout, a, c.e, o.hist);
	}
	irq_analysis_free(a);
out:
	return an_cli_finish(cmd, &c, rc);
}

const struct command cmd_irq = {
    .name = "irq",
    .summary = "interrupt and softirq statistics per CPU: counts, rates, durations, periods",
    .description = "Interrupts per CPU, from spoor's or LTTng's kernel traces: counts, rates, "
                   "durations and periods, as aligned tables or JSON.",
    .usage = "[options] TRACE...",
    .options = irq_options,
    .run = run_irq,
    .options_anywhere = true,
};

static void *report_attach(struct an_engine *e)
{
	return irq_analysis_new(e);
}

static int report_print(void *a, const struct an_engine *e, FILE *out)
{
	if (irq_analysis_oom(a))
		return -ENOMEM;
	print_text(out, a, e, false);
	return 0;
}

static void report_free(void *a)
{
	irq_analysis_free(a);
}

const struct an_report an_report_irq = {
    .name = "irq",
    .need = need,
    .nneed = 2,
    .attach = report_attach,
    .print = report_print,
    .free = report_free,
};
