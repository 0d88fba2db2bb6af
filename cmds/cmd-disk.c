/* SPDX-License-Identifier: MIT */
/* cmd-disk.c: `spoor disk TRACE...`: block device statistics (lib/analysis/disk.h). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis-cli.h"
#include "analysis/disk.h"
#include "command.h"
#include "kernel/partitions.h"

enum { OPT_PARTITIONS = AN_OPT_COMMON };

static const struct cmd_option disk_options[] = {
    AN_COMMON_OPTIONS,
    [OPT_PARTITIONS] = {"partitions", 0, "FILE",
                        "name devices from FILE (a /proc/partitions copy) when the trace "
                        "does not"},
    {NULL, 0, NULL, NULL},
};

static int own_option(int row, const char *arg, void *data)
{
	if (row != OPT_PARTITIONS)
		return 2;
	*(const char **) data = arg;
	return 0;
}

static unsigned major_of(uint32_t dev)
{
	return dev >> 20;
}

static unsigned minor_of(uint32_t dev)
{
	return dev & 0xfffff;
}

static double per_s(uint64_t bytes, double span_s)
{
	return span_s > 0 ? (double) bytes / span_s : 0;
}

static void print_text(FILE *out, const struct disk_dev *d, size_t n, double span_s)
{
	fprintf(out, "Block devices (span %.6f s; latency: issue to completion)\n", span_s);
	fprintf(out, "%-9s %-10s %8s %11s %8s %11s %7s %11s %11s %8s %9s %9s %9s %9s %9s %9s %9s\n",
	        "dev", "name", "reads", "read KiB", "writes", "write KiB", "other", "read KiB/s",
	        "wr KiB/s", "lat n", "min us", "mean us", "max us", "sd us", "p50 us", "p90 us",
	        "p99 us");
	for (size_t i = 0; i < n; i++) {
		const struct disk_dev *x = &d[i];
		char id[24];
		snprintf(id, sizeof(id), "%u:%u", major_of(x->dev), minor_of(x->dev));
		fprintf(
		    out,
		    "%-9s %-10s %8llu %11.1f %8llu %11.1f %7llu %11.1f %11.1f %8llu %9.1f "
		    "%9.1f %9.1f %9.1f %9.1f %9.1f %9.1f\n",
		    id, x->name[0] ? x->name : "?", (unsigned long long) x->count[DISK_READ],
		    (double) x->bytes[DISK_READ] / 1024, (unsigned long long) x->count[DISK_WRITE],
		    (double) x->bytes[DISK_WRITE] / 1024, (unsigned long long) x->count[DISK_OTHER],
		    per_s(x->bytes[DISK_READ], span_s) / 1024,
		    per_s(x->bytes[DISK_WRITE], span_s) / 1024, (unsigned long long) x->lat.n,
		    (x->lat.n ? x->lat.min : 0) / 1e3, x->lat.mean / 1e3,
		    (x->lat.n ? x->lat.max : 0) / 1e3, welford_stddev(&x->lat) / 1e3, x->p50 / 1e3,
		    x->p90 / 1e3, x->p99 / 1e3);
	}
	uint64_t un = 0, pend = 0, drop = 0;
	for (size_t i = 0; i < n; i++) {
		un += d[i].unmatched;
		pend += d[i].pending;
		drop += d[i].dropped;
	}
	if (un || pend || drop)
		fprintf(
		    out,
		    "\nNo latency for: %llu completions without their issue (before the trace or "
		    "lost; counted in the bytes), %llu requests pending at the end, %llu in "
		    "flight when events were lost\n",
		    (unsigned long long) un, (unsigned long long) pend, (unsigned long long) drop);
}

static void print_json(FILE *out, const struct disk_dev *d, size_t n, double span_s, uint64_t lost)
{
	fprintf(out, "{\"span_s\": %.9f, \"lost_events\": %llu, \"devices\": [", span_s,
	        (unsigned long long) lost);
	for (size_t i = 0; i < n; i++) {
		const struct disk_dev *x = &d[i];
		fprintf(
		    out,
		    "%s\n {\"dev\": \"%u:%u\", \"name\": \"%s\", \"reads\": %llu, "
		    "\"read_bytes\": %llu, \"writes\": %llu, \"write_bytes\": %llu, \"other\": "
		    "%llu, \"other_bytes\": %llu, \"read_bytes_per_s\": %.3f, "
		    "\"write_bytes_per_s\": %.3f, \"latency\": {\"count\": %llu, \"min_ns\": "
		    "%.0f, \"mean_ns\": %.3f, \"max_ns\": %.0f, \"stddev_ns\": %.3f, \"p50_ns\": "
		    "%.0f, \"p90_ns\": %.0f, \"p99_ns\": %.0f}, \"unmatched\": %llu, "
		    "\"pending\": %llu, \"dropped\": %llu}",
		    i ? "," : "", major_of(x->dev), minor_of(x->dev), x->name,
		    (unsigned long long) x->count[DISK_READ],
		    (unsigned long long) x->bytes[DISK_READ],
		    (unsigned long long) x->count[DISK_WRITE],
		    (unsigned long long) x->bytes[DISK_WRITE],
		    (unsigned long long) x->count[DISK_OTHER],
		    (unsigned long long) x->bytes[DISK_OTHER], per_s(x->bytes[DISK_READ], span_s),
		    per_s(x->bytes[DISK_WRITE], span_s), (unsigned long long) x->lat.n,
		    x->lat.n ? x->lat.min : 0, x->lat.mean, x->lat.n ? x->lat.max : 0,
		    welford_stddev(&x->lat), x->p50, x->p90, x->p99,
		    (unsigned long long) x->unmatched, (unsigned long long) x->pending,
		    (unsigned long long) x->dropped);
	}
	fprintf(out, "\n]}\n");
}

/* The partitions saved with each trace (spoor record), then the one given. */
static int load_names(const struct command *cmd, struct disk_analysis *a,
                      const struct spoor_reader *r, const char *given)
{
	for (size_t t = 0; t < spoor_reader_trace_count(r); t++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/%s", spoor_reader_trace_path(r, t),
		         PARTITIONS_FILE);
		if (!access(path, R_OK))
			disk_analysis_load_names(a, path);
	}
	if (given && disk_analysis_load_names(a, given))
		return cmd_error(cmd, "cannot read %s", given);
	return 0;
}

static int run_disk(const struct command *cmd, int argc, char **argv)
{
	struct an_cli c;
	const char *partitions = NULL;
	bool done;
	int rc = an_cli_start(cmd, &c, argc, argv, own_option, &partitions, &done);
	if (rc || done)
		goto out;
	static const enum kev need[] = {KEV_BLOCK_COMPLETE, KEV_BLOCK_ISSUE};
	if ((rc = an_cli_require(cmd, &c, need, 2)))
		goto out;
	struct disk_analysis *a = disk_analysis_new(c.e);
	if (!a) {
		rc = cmd_error(cmd, "out of memory");
		goto out;
	}
	if (!(rc = load_names(cmd, a, c.r, partitions)) && !(rc = an_cli_run(cmd, &c))) {
		const struct disk_dev *devs;
		size_t n = disk_analysis_devices(a, &devs);
		int64_t b, e;
		an_span(c.e, &b, &e);
		double span = (double) (e - b) / 1e9;
		if (c.json)
			print_json(stdout, devs, n, span, an_events_lost(c.e));
		else
			print_text(stdout, devs, n, span);
	}
	disk_analysis_free(a);
out:
	return an_cli_finish(cmd, &c, rc);
}

const struct command cmd_disk = {
    .name = "disk",
    .summary = "block device statistics: bytes and requests read and written, throughput, "
               "request latency and its percentiles",
    .description = "Block requests per device: bytes, requests and latency percentiles.",
    .usage = "[options] TRACE...",
    .options = disk_options,
    .run = run_disk,
    .options_anywhere = true,
};
