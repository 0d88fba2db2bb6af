/* SPDX-License-Identifier: MIT */
/*
 * disk.h: `spoor disk`, LTTV's disk performance view, from the block request tracepoints:
 * per device, the requests completed (reads, writes, others: flushes, discards, requests
 * without data) and their bytes, and the request latency from issue to completion (min,
 * mean, max, standard deviation, p50/p90/p99).
 *
 * Requests are matched by (dev, sector) in a hash table: block_rq_insert (optional) names
 * the task that queued the request, block_rq_issue starts it (a re-issue after a requeue
 * restarts it), block_rq_complete ends it. Counts and bytes come from the completions
 * (nr_sector * 512: lttng-modules' `bytes` is 0 for file-system requests), matched or
 * not; a latency needs both ends. Not counted in the latencies, and reported:
 *   unmatched  a completion without its issue (issued before the trace, or lost),
 *   pending    an issue without completion at the end of the trace,
 *   dropped    requests in flight when the tracer lost events on any CPU: a completion
 *              often runs on another CPU than its issue, so after a loss no in-flight
 *              request can be trusted (a lost re-issue would make its latency too long).
 * With task filters, a request belongs to the task that inserted it (else issued it), and
 * completions of requests not seen issued are left out; the CPU filter is the issue's.
 */
#ifndef ANALYSIS_DISK_H
#define ANALYSIS_DISK_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "welford.h"

enum disk_op { DISK_READ, DISK_WRITE, DISK_OTHER, DISK_OPS };

struct disk_dev {
	uint32_t dev; /* the kernel's dev_t: major << 20 | minor */
	char name[32];
	uint64_t count[DISK_OPS], bytes[DISK_OPS]; /* completed */
	struct welford lat;                        /* ns, issue to completion */
	int64_t *lats;                             /* every latency, for percentiles */
	size_t nlats, caplats;
	double p50, p90, p99; /* nearest rank, filled by disk_analysis_devices() */
	uint64_t unmatched, pending, dropped;
};

struct disk_analysis;

/* One completed request with a latency, as it is counted (disk_analysis_on_request). */
struct disk_request {
	uint32_t dev;
	const char *disk; /* the trace's name of the device so far, NULL: none */
	uint64_t sector, bytes;
	enum disk_op op;
	int64_t tid;           /* the task that inserted it, else issued it (-1: unknown) */
	int64_t insert_ts, ts; /* insert_ts -1: no block_rq_insert seen; ts: the issue */
	int64_t dur;           /* issue to completion */
};
typedef void (*disk_request_fn)(void *data, const struct disk_request *r);

/* Hooks itself to the engine; run the engine, then read the devices. */
struct disk_analysis *disk_analysis_new(struct an_engine *e);
void disk_analysis_free(struct disk_analysis *a);
/* Call fn at each completed request with a latency (SQL's disk_requests table). The
 * latencies are then not kept for the percentiles (O(requests) memory): p50, p90, p99 are 0. */
void disk_analysis_on_request(struct disk_analysis *a, disk_request_fn fn, void *data);
/* The earliest start (ns) of the requests issued still open, INT64_MAX for none: a row told from
 * now on begins there or later (at the current event's time, for requests issued not begun yet). */
int64_t disk_analysis_open_since(const struct disk_analysis *a);
/* Name devices from a /proc/partitions copy (lines "major minor blocks name"); the
 * trace's own names (lttng_statedump_block_device) win. 0, or -errno. */
int disk_analysis_load_names(struct disk_analysis *a, const char *path);
/* The devices, sorted by dev, with pending counted and percentiles filled. Call once,
 * after the run. */
size_t disk_analysis_devices(struct disk_analysis *a, const struct disk_dev **devs);
/* The op a request's rwbs says: text ("WS", ftrace) or lttng-modules' flag bits. */
enum disk_op disk_op_of_text(const char *rwbs, size_t len);
enum disk_op disk_op_of_flags(int64_t rwbs);
/* Nearest-rank percentile of sorted values (p in 0..100); 0 when n is 0. */
int64_t disk_percentile(const int64_t *sorted, size_t n, double p);

#endif
