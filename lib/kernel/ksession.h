/* SPDX-License-Identifier: MIT */
/*
 * ksession.h: the kernel half of a recording session: a private tracefs instance with the
 * chosen tracepoints (and the function tracer where the kernel allows it), read per CPU
 * into a CTF trace at DIR/kernel/ on the session's clock, so that kernel and user-space
 * events share one timeline.
 *
 * A daemon may call every function with its file-system identity set to a session's owner
 * (setfsuid): the trace's files are made with the caller's, tracefs is reached with the
 * process's own rights (krights.h).
 */
#ifndef KERNEL_KSESSION_H
#define KERNEL_KSESSION_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "klayout.h"

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
	bool overwrite;      /* flight recorder: the ring overwrites, nothing is read until
	                      * ksession_snapshot (ksession_stop writes what it holds then) */
	const char *name;    /* the instance is spoor-PID-N-NAME (a daemon's session), or NULL */
	enum klayout layout; /* the names the trace is written under (klayout.h) */
	time_t created;      /* a daemon's session's creation time, 0: the start's (with name,
	                      * the LTTng layout's env in every chunk: kmeta.h's origin) */
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
/*
 * While tracing runs (a daemon's session). Events enabled later are declared at the end
 * of the trace's metadata before tracing can record them; a disabled event's class stays
 * declared, and enabling it again only turns it on. The events that keep thread names
 * (sched_process_fork...) stay on whatever is disabled. Filters ("EVENT:EXPR") apply to
 * the session's events, these or earlier ones. -errno with err set.
 */
int ksession_enable(struct ksession *k, const char *const *events, size_t n,
                    const char *const *filters, size_t nf, char *err, size_t errlen);
int ksession_disable(struct ksession *k, const char *const *events, size_t n, char *err,
                     size_t errlen);
/* Stop: tracing off, everything buffered written (a flight recorder's stays in its ring). */
int ksession_pause(struct ksession *k);
/* Start again, in the same trace, with a state dump first (threads born meanwhile). */
int ksession_resume(struct ksession *k);
/* Everything buffered goes to the current trace, which is finished (its directory may have
 * been renamed since it began: its files are open); a new trace, with the same uuid, clock
 * and classes, continues in NEWOUTDIR/kernel (made; if it exists it must be empty) from
 * the next event on. On failure the current trace goes on. Not for flight recorders. */
int ksession_rotate(struct ksession *k, const char *newoutdir, char *err, size_t errlen);
/* A flight recorder's rings as a complete trace in SNAPDIR/kernel, tracing going on.
 * Where the instance has a `snapshot` file (CONFIG_TRACER_SNAPSHOT), the ring is swapped
 * into the snapshot buffer and that is read; else the ring itself is read, which empties
 * it: the next snapshot holds what came after. t: what the snapshot holds, and lost: the
 * events overwritten before it (the kernel's overrun counts since the last read). */
int ksession_snapshot(struct ksession *k, const char *snapdir, struct kernel_totals *t, char *err,
                      size_t errlen);
/* What the rings hold now (a daemon's list): the kernel's per-CPU counters, summed. */
struct kernel_usage {
	unsigned cpus;
	uint64_t bytes_used, bytes_size; /* unread bytes in the rings; their size */
	uint64_t entries;                /* unread events */
	uint64_t overrun, dropped;       /* overwritten before being read; refused (no room) */
};
void ksession_usage(struct ksession *k, struct kernel_usage *u);
/* Stop tracing, convert what is left, finish the trace and remove the instance. */
void ksession_stop(struct ksession *k, struct kernel_totals *t);
/* Also removes the instance when ksession_stop was not called. */
void ksession_free(struct ksession *k);

#endif
