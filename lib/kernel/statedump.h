/* SPDX-License-Identifier: MIT */
/*
 * statedump.h: the threads that exist when recording starts, written as kernel events
 * `statedump_process` { tid, pid, ppid, name } in a stream of their own, so that analyses
 * name every thread from the trace (later names come from sched_process_fork/exec and
 * task_rename, which a kernel session always records).
 */
#ifndef KERNEL_STATEDUMP_H
#define KERNEL_STATEDUMP_H

#include <stdint.h>

#include "kclass.h"
#include "kpacket.h"

extern const struct spoor_field_desc statedump_fields[4];
#define STATEDUMP_NFIELDS 4
#define STATEDUMP_EVENT   "statedump_process"

/* Write one event per thread under proc_root (normally "/proc"), stamped ts, with class
 * `id`; the context's common_pid holds the tid, its other members 0. Returns how many. */
long statedump_write(struct kpacket *p, const struct kclasses *cs, uint32_t id, uint64_t ts,
                     const char *proc_root);

#endif
