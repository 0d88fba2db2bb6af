/* SPDX-License-Identifier: MIT */
/*
 * kcpu.h: one CPU's kernel ring buffer, read from the instance's per_cpu/cpuN/trace_pipe_raw
 * and written as one CTF stream. Full sub-buffers are spliced into a pipe (many per system
 * call, the kernel moves page references) and read from it in one go; the partial
 * sub-buffer left at the end comes with read(2), which alone can return it.
 */
#ifndef KERNEL_KCPU_H
#define KERNEL_KCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kclass.h"
#include "kfork.h"
#include "kpacket.h"

struct kbuffer;

#define KCPU_PACKET_CAP (256u << 10)

struct kcpu {
	int cpu;
	int raw_fd;
	int pipe_fd[2];
	size_t pipe_cap, subbuf;
	bool no_splice; /* splice refused: read(2) a sub-buffer at a time */
	struct kbuffer *kb;
	uint8_t *pages;
	struct kpacket pkt;
	uint64_t records, unknown, malformed, missed, missed_unknown, unwritten;
	uint64_t own;             /* the recorder's own records, left out */
	struct kpath_slot *paths; /* -k libc's paths waiting for their call (kpaths.h) */
	/* the LTTng layout's forks (kfork.h): the session's, shared by its CPUs (drained by one
	 * thread); NULL: the tgids are the /proc-less fallback's */
	struct kfork *fork;
	struct kfork_newtask newtask; /* this CPU's last task_newtask */
};

/* Open cpuN of the instance at inst_dir (kb is taken); its stream, c->pkt, is opened by the
 * caller (kpacket_open), with the rights of the trace's owner. */
int kcpu_open(struct kcpu *c, const char *inst_dir, int cpu, size_t subbuf, struct kbuffer *kb,
              char *err, size_t errlen);
/* Convert what the buffer holds now; with final (tracing is off), also the partial
 * sub-buffer. */
void kcpu_drain(struct kcpu *c, const struct kclasses *cs, bool final);
/* Convert one sub-buffer (also the fuzzing entry point). */
void kcpu_subbuffer(struct kcpu *c, const struct kclasses *cs, void *page);
/* Live: the full sub-buffers, then what the partial one holds now (one read). */
void kcpu_flush(struct kcpu *c, const struct kclasses *cs);
int kcpu_close(struct kcpu *c);

#endif
