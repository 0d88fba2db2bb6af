/* SPDX-License-Identifier: MIT */
/*
 * ksession-int.h: what the files of a kernel session share (ksession.c: start, reading,
 * stop, pause; ksession-events.c: events enabled and disabled while tracing runs;
 * ksession-chunk.c: rotation and snapshots).
 */
#ifndef KERNEL_KSESSION_INT_H
#define KERNEL_KSESSION_INT_H

#include "kclass.h"
#include "kcpu.h"
#include "kpacket.h"
#include "krights.h"
#include "ksession.h"
#include "record/clock.h"
#include "select.h"
#include "statedump-lttng.h"

struct ksession {
	struct kinstance *inst;
	struct upaths *paths; /* uprobes of -k libc */
	struct tep_handle *tep;
	struct kevent_list events; /* every event with a class, enabled now or not */
	struct kclasses classes;
	struct kcpu *cpus;
	int ncpus;
	struct kpacket dump;
	uint32_t dump_id;          /* spoor's layout: statedump_process */
	struct sdl_ids lttng_dump; /* the LTTng layout's: lttng_statedump_* */
	struct kfork fork;         /* the LTTng layout's forks: threads' processes (kfork.h) */
	uint64_t dumped;
	char *dir;   /* the current chunk's DIR/kernel (it may have been renamed since) */
	int meta_fd; /* its metadata, open for the classes declared later */
	struct rec_clock clock;
	char *name;     /* the daemon's session's, or NULL (kernel_opts) */
	time_t created; /* its creation time, else the start's: the LTTng env's (kmeta_origin) */
	uint8_t uuid[16];
	bool overwrite, paused, stopped;
	bool started;              /* tracing was on once: the streams' begin is set */
	struct kernel_totals done; /* what the chunks closed by rotation hold */
	struct krights caller;     /* whose rights the trace's files are made with */
};

#define KSESSION_MAX_CPUS 1024

/* A trace's files: one stream per CPU, the state dump's, and its metadata (open for the
 * classes declared later). */
struct ksession_outputs {
	struct kpacket *cpu;
	struct kpacket dump;
	int meta_fd;
};

/* A nanosecond in the clock's ticks, rounded up: times that readers see apart. */
static inline uint64_t ksession_ns_ticks(const struct ksession *k)
{
	return (k->clock.freq + 999999999) / 1000000000;
}

/* DIR/kernel (malloc'd), or NULL. */
char *ksession_kernel_dir(const char *outdir);
/* Make them in DIR with the caller's rights: a new directory, or an empty one (fresh), or
 * one that may exist (the first trace: spoor record's choice). On failure nothing is left. */
int ksession_open_outputs(struct ksession *k, const char *dir, bool fresh, const uint8_t uuid[16],
                          struct ksession_outputs *o, char *err, size_t errlen);
/* A random (version 4) trace uuid. */
int ksession_new_uuid(uint8_t uuid[16]);
/* The CPUs' streams, the dump and the metadata become the session's current ones. */
void ksession_adopt_outputs(struct ksession *k, struct ksession_outputs *o);
/* Remove a trace's files from DIR, and DIR when empty (the caller's rights). */
void ksession_remove_files(struct ksession *k, const char *dir);

/* Always recorded: what keeps thread names current after the state dump. */
#define KSESSION_NNAME_EVENTS 5
extern const char *const ksession_name_events[KSESSION_NNAME_EVENTS];

/* Parse event r's format into the session's tep (once). */
int ksession_load_format(struct ksession *k, const struct kevent_ref *r, char *err, size_t errlen);
/* "EVENT:EXPR" or "SYSTEM:EVENT:EXPR" for an event of the session. */
int ksession_apply_filter(struct ksession *k, const char *spec, char *err, size_t errlen);
/* Close a trace's dump stream, its last packet reaching to end (kpacket_extend). 0 or
 * -errno. */
int ksession_close_dump(struct kpacket *dump, uint64_t end);
/* The threads alive now into dump, stamped ts; how many. */
uint64_t ksession_statedump(struct ksession *k, struct kpacket *dump, uint64_t ts);
/* End CPU c's current stream: what the kernel's counters lost beyond the sub-buffers'
 * marks is added to its last packet (unless !counters), its last packet reaches to end (0:
 * it ends at its last event), the file is closed and what it holds added to t. The
 * counters, when asked. */
void ksession_end_stream(struct ksession *k, struct kcpu *c, bool counters, uint64_t end,
                         struct kernel_totals *t, uint64_t *overrun, uint64_t *dropped);

#endif
