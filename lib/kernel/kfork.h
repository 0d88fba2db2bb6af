/* SPDX-License-Identifier: MIT */
/*
 * kfork.h: sched_process_fork in the LTTng layout, as lttng-modules 2.13 writes it
 * (include/instrumentation/events/sched.h):
 *   char parent_comm[16]; pid_t parent_tid; pid_t parent_pid (its tgid);
 *   unsigned int parent_ns_inum; char child_comm[16]; pid_t child_tid;
 *   pid_t vtids[] (u8 count: the child's tid in each pid namespace, the initial one first);
 *   pid_t child_pid (its tgid); unsigned int child_ns_inum.
 * ftrace's event has the comms and tids only. The tgids come from ktgid.h's map and from
 * the task_newtask just before (emitted by the parent, on the same CPU: its clone flags say
 * thread or process); the namespaces from /proc when the recorder reads the machine traced
 * (docs/kernel.md says what is approximate). The recorder (kcpu.c) and spoor convert
 * (lib/convert) write it through here.
 */
#ifndef KERNEL_KFORK_H
#define KERNEL_KFORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kclass.h"
#include "kpacket.h"
#include "ktgid.h"

#define KFORK_NFIELDS 9
extern const struct spoor_field_desc kfork_fields[KFORK_NFIELDS];

/* What the forks of a trace share: threads' processes, and the pid namespace the
 * recorder's /proc shows pids in (0: no /proc of the machine traced). */
struct kfork {
	struct ktgid tgids;
	unsigned int own_pid_ns;
};

/* proc_root: the machine traced's /proc ("/proc" when recording), NULL (spoor convert). */
void kfork_init(struct kfork *f, const char *proc_root);
void kfork_free(struct kfork *f);

/* The last task_newtask on a CPU, waiting for its sched_process_fork. */
struct kfork_newtask {
	int32_t creator, child; /* child 0: none waits */
	uint64_t clone_flags;
};

/* A task_newtask: noted in the map, and waiting for its fork. f may be NULL (no map: a
 * tgid not known from the task_newtask before the fork is the tid, namespaces 0). */
void kfork_newtask(struct kfork_newtask *last, struct kfork *f, int32_t creator, int32_t child,
                   uint64_t clone_flags);

/* One side of a fork as ftrace gives it: a tid and a comm (len bytes, maybe no NUL). */
struct kfork_task {
	int32_t tid;
	const char *comm;
	size_t len;
};

/* The fork of child by parent as class id of cs (kfork_fields), the event context's tid
 * ctx_tid (the task running). 0, or -1 (not written: no room, a write error). */
int kfork_emit(struct kpacket *p, const struct kclasses *cs, uint32_t id, uint64_t ts,
               int32_t ctx_tid, struct kfork_newtask *last, struct kfork *f,
               const struct kfork_task *parent, const struct kfork_task *child);

#endif
