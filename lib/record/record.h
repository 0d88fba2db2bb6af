/* SPDX-License-Identifier: MIT */
/*
 * record.h: a recording session: serves the session socket that traced programs connect
 * to (lib/ipc/proto.h), maps their ring buffers, sleeps until packets are ready, and writes
 * one CTF trace per traced process under OUTDIR/ust/pid/PROCNAME-PID/.
 */
#ifndef RECORD_RECORD_H
#define RECORD_RECORD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kernel/ksession.h"

struct record_opts {
	const char *outdir;
	const char *const *patterns; /* event name wildcards; none: all */
	size_t npatterns;
	bool overwrite;                   /* flight recorder: keep the latest packets */
	uint64_t subbuf_size;             /* bytes, power of two >= 4096 */
	uint32_t num_subbufs;             /* power of two >= 2 */
	const struct kernel_opts *kernel; /* kernel tracing too (lib/kernel/ksession.h), or NULL */
	uint64_t duration_ns;             /* stop after this long; 0: when the command ends */
	/* Live (spoor watch): every live_ns, write what every buffer holds, the packets in
	 * progress included, then call on_live. Events stamped before `flushed` (ns from the
	 * clock origin, read before the buffers were) are written by then, but for any a
	 * tracer had stamped and not yet committed. on_live returns RECORD_LIVE_STOP to end
	 * the session, RECORD_LIVE_MORE to be called again (flushed: INT64_MIN, nothing new)
	 * as soon as the buffers are drained. The flight recorder cannot be live. */
	uint64_t live_ns;
	int (*on_live)(void *arg, int64_t flushed);
	void *live_arg;
};

#define RECORD_LIVE_STOP 1
#define RECORD_LIVE_MORE 2

struct record_totals {
	unsigned processes, buffers;
	uint64_t packets, bytes, damaged;
	uint64_t discarded;   /* events the programs dropped (ring full, too big, nested) */
	uint64_t overwritten; /* events in packets the flight recorder overwrote */
	uint64_t worst_lost;  /* the most events one buffer lost (discarded + overwritten) */
	/* events in closed packets written, and their bytes: the bytes per event */
	uint64_t counted_events, counted_bytes;
	/* spoor's own failures to write the user-space trace (disk full): the first one's
	 * -errno, and the packets not written (a stream ends at its last whole packet) */
	int write_error;
	uint64_t unwritten;
	bool kernel;
	struct kernel_totals k;
};

struct record_session;

/* Writes into o->outdir (made if missing) whatever it holds: claim it first (outdir.h).
 * err gets a message on failure. */
int record_session_new(const struct record_opts *o, struct record_session **out, char *err,
                       size_t errlen);
/* The value for SPOOR_SESSION in the traced programs' environment. */
const char *record_session_socket(const struct record_session *s);
/* Serve until the process `child` (a pidfd is taken; 0: no command) exits, the duration
 * passes or *stop becomes non-zero, then read what every buffer still holds and finish the
 * traces, the kernel's included. Warnings go to stderr. */
int record_session_run(struct record_session *s, pid_t child, volatile sig_atomic_t *stop);
/* Now on the session's clock, in the readers' units (ns from the clock's origin). */
int64_t record_session_now_ns(const struct record_session *s);
/* The session's clock (clock.h): what the programs' events are stamped with. */
struct rec_clock;
const struct rec_clock *record_session_clock(const struct record_session *s);
void record_session_totals(const struct record_session *s, struct record_totals *t);
void record_session_free(struct record_session *s);

#endif
