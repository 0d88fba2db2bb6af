/* SPDX-License-Identifier: MIT */
/*
 * statedump-lttng.h: the state dump of the LTTng layout (`record -k --layout=lttng`), as
 * lttng-modules 2.13 writes its own (src/lttng-statedump-impl.c): the same events, fields,
 * types, field order and event order, read from /proc and /sys (docs/kernel.md says what
 * each holds and means, and where the values are spoor's reading of /proc):
 *
 *   lttng_statedump_start
 *   per process, per thread:   lttng_statedump_process_state, its namespaces
 *                              (lttng_statedump_process_{pid,user,cgroup,ipc,mnt,net,uts,
 *                              time}_ns), then at the process's first thread its
 *                              lttng_statedump_file_descriptor events
 *   lttng_statedump_interrupt          one per irq action
 *   lttng_statedump_network_interface  one per IPv4 address of an interface up; one with
 *                                      address 0 for an interface down
 *   lttng_statedump_block_device       /proc/partitions' devices
 *   lttng_statedump_cpu_topology       x86 only, as lttng-modules
 *   lttng_statedump_end
 *
 * One difference: lttng_statedump_file_descriptor ends with a `pid` field that 2.13 no
 * longer has (it links descriptors to processes by file_table_address): lttng-analyses
 * 0.6.1 reads `pid` there and stops without it.
 */
#ifndef KERNEL_STATEDUMP_LTTNG_H
#define KERNEL_STATEDUMP_LTTNG_H

#include <stdint.h>

#include "kclass.h"
#include "kpacket.h"

enum sdl_class {
	SDL_START,
	SDL_END,
	SDL_PROCESS_STATE,
	SDL_PID_NS,
	SDL_USER_NS,
	SDL_CGROUP_NS,
	SDL_IPC_NS,
	SDL_MNT_NS,
	SDL_NET_NS,
	SDL_UTS_NS,
	SDL_TIME_NS,
	SDL_FILE_DESCRIPTOR,
	SDL_INTERRUPT,
	SDL_NETWORK_INTERFACE,
	SDL_BLOCK_DEVICE,
	SDL_CPU_TOPOLOGY,
	SDL_NCLASSES
};

/* lttng_statedump_process_state's values (lttng-modules' enums; docs/kernel.md) */
enum sdl_type { SDL_USER_THREAD = 0, SDL_KERNEL_THREAD = 1 };
enum sdl_mode { SDL_MODE_UNKNOWN = 5 };
enum sdl_submode { SDL_SUBMODE_NONE = 0 };
enum sdl_status {
	SDL_UNNAMED = 0,
	SDL_WAIT_FORK = 1,
	SDL_WAIT_CPU = 2,
	SDL_EXIT = 3,
	SDL_ZOMBIE = 4,
	SDL_WAIT = 5,
	SDL_RUN = 6,
	SDL_DEAD = 7
};

struct sdl_class_def {
	const char *name;
	const struct spoor_field_desc *fields;
	uint32_t nfields;
};

/* Every class, by enum sdl_class (SDL_CPU_TOPOLOGY's name is NULL off x86: not written). */
extern const struct sdl_class_def sdl_classes[SDL_NCLASSES];

/* The CTF ids of the classes in a kclasses (UINT32_MAX: not declared). */
struct sdl_ids {
	uint32_t id[SDL_NCLASSES];
};

/* Declare them in cs. 0, or -1 (out of memory). */
int statedump_lttng_classes(struct kclasses *cs, struct sdl_ids *ids);

/* Where the dump reads ("/proc" and "/sys"; a test's own tree). */
struct sdl_roots {
	const char *proc, *sys;
};

/* The whole dump, every event stamped ts; each thread's process noted in tgids (NULL: not;
 * the forks' map, kfork.h). Returns how many threads it holds, or -1 when the threads could
 * not be listed. */
struct ktgid;
long statedump_lttng_write(struct kpacket *p, const struct kclasses *cs, const struct sdl_ids *ids,
                           uint64_t ts, const struct sdl_roots *roots, struct ktgid *tgids);

/* The status /proc's state letter means (docs/kernel.md); UNNAMED for one not known. */
int sdl_status_of(char state);

/* A dump rebuilt from a recorded trace (spoor convert), a piece at a time: one event of
 * class c (lttng_statedump_start, _end), the process_state of a thread known only by what
 * t's ids, comm, state, cpu and flags say (no namespaces, no files), the block devices of
 * a file in /proc/partitions' format. */
union ksynth_val;
void statedump_lttng_emit(struct kpacket *p, const struct kclasses *cs, const struct sdl_ids *ids,
                          enum sdl_class c, uint64_t ts);
struct proc_task;
void statedump_lttng_thread(struct kpacket *p, const struct kclasses *cs, const struct sdl_ids *ids,
                            uint64_t ts, const struct proc_task *t);
void statedump_lttng_block_devices(struct kpacket *p, const struct kclasses *cs,
                                   const struct sdl_ids *ids, uint64_t ts, const char *partitions);

#endif
