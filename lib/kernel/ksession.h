/* SPDX-License-Identifier: MIT */
/*
 * ksession.h: the kernel half of a recording session: a private tracefs instance with the
 * chosen tracepoints (and the function tracer where the kernel allows it), read per CPU
 * into a CTF trace at DIR/kernel/ on the session's clock, so that kernel and user-space
 * events share one timeline.
 */
#ifndef KERNEL_KSESSION_H
#define KERNEL_KSESSION_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct rec_clock;

struct kernel_opts {
	const char *const *events; /* patterns: SYSTEM, SYSTEM:EVENT, EVENT, with wildcards */
	size_t nevents;
	const char *const *filters; /* "EVENT:EXPR" or "SYSTEM:EVENT:EXPR" */
	size_t nfilters;
	unsigned long buffer_kb; /* per CPU; 0: the kernel's default */
	bool function_tracer;
	const char *const *functions; /* set_ftrace_filter patterns; none: every function */
	size_t nfunctions;
	const pid_t *pids; /* limit events and functions to these pids; none: all */
	size_t npids;
};

struct kernel_totals {
	unsigned cpus;
	uint64_t events, lost, bytes, packets, statedump;
	uint64_t overrun, dropped; /* the kernel's own per-CPU counters, summed */
	uint64_t malformed, unknown, unwritten;
	int write_error; /* -errno */
	                 /* lost per CPU, for the first KERNEL_TOTALS_CPUS CPUs */
#define KERNEL_TOTALS_CPUS 64
	uint64_t lost_by_cpu[KERNEL_TOTALS_CPUS];
};

struct ksession;

/* Set everything up and start tracing. On failure nothing is left in tracefs. */
int ksession_start(struct ksession **out, const struct kernel_opts *o,
                   const struct rec_clock *clock, const char *outdir, char *err, size_t errlen);
/* Up to cap poll entries (one per CPU buffer); ksession_ready takes them back after poll. */
size_t ksession_pollfds(struct ksession *k, struct pollfd *p, size_t cap);
void ksession_ready(struct ksession *k, const struct pollfd *p, size_t n);
/* Convert everything the buffers hold now, partial sub-buffers included (live sessions). */
void ksession_flush(struct ksession *k);
/* Stop tracing, convert what is left, finish the trace and remove the instance. */
void ksession_stop(struct ksession *k, struct kernel_totals *t);
/* Also removes the instance when ksession_stop was not called. */
void ksession_free(struct ksession *k);

#endif
