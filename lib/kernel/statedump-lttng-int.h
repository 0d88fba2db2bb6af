/* SPDX-License-Identifier: MIT */
/* statedump-lttng-int.h: what the files of the LTTng-layout state dump share. */
#ifndef KERNEL_STATEDUMP_LTTNG_INT_H
#define KERNEL_STATEDUMP_LTTNG_INT_H

#include <stddef.h>

#include "ksynth.h"
#include "procwalk.h"
#include "statedump-lttng.h"

/* A threaded interrupt handler's kernel thread, "irq/N-ACTION" (its comm cut at 15). */
struct sdl_irq_thread {
	int tid;
	char comm[64];
};

struct sdl {
	struct kpacket *p;
	const struct kclasses *cs;
	const struct sdl_ids *ids;
	uint64_t ts;
	const struct sdl_roots *roots;
	struct sdl_irq_thread *irqt; /* met in the walk, for lttng_statedump_interrupt's tid */
	size_t nirqt, capirqt;
	int parent;               /* the last parent whose tgids (parent_tgid) were read */
	int parent_tgid[8];       /* its tgid in each pid namespace level (0: none) */
	unsigned int own_user_ns; /* the initial user namespace's inode: the reader's */
	struct ktgid *tgids;      /* NULL, or where each thread's process is noted */
};

/* One event of class c (if declared). */
void sdl_emit(struct sdl *d, enum sdl_class c, int32_t tid, const union ksynth_val *v);
/* The thread's namespace events (statedump-ns.c). */
void sdl_namespaces(struct sdl *d, const struct proc_task *t);
/* The process's file descriptors (statedump-fds.c); file_table is its process_state's. */
void sdl_file_descriptors(struct sdl *d, const struct proc_task *t, int64_t file_table);
/* The machine's (statedump-sys.c). */
void sdl_interrupts(struct sdl *d);
void sdl_network_interfaces(struct sdl *d);
/* The devices of a file in /proc/partitions' format: ROOTS->proc/NAME, or NAME itself
 * when roots->proc is "". */
void sdl_block_devices(struct sdl *d, const char *name);
void sdl_cpu_topology(struct sdl *d);

#endif
