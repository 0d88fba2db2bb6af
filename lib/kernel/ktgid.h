/* SPDX-License-Identifier: MIT */
/*
 * ktgid.h: which process each thread belongs to (tid -> tgid), and its pid namespace when
 * known, for the LTTng layout's
 * sched_process_fork, whose parent_pid and child_pid are tgids that ftrace's fork event
 * does not carry (kfork.h). Filled from the state dump (every thread alive at the start)
 * and from task_newtask (a new task is a thread of its creator's process with
 * CLONE_THREAD, else a process of its own); a thread's entry may be a link to its
 * creator, followed when asked, so that facts may come in any order (spoor convert reads
 * one CPU's stream after another). A tid met again (reused) takes its new facts. Exits
 * are not followed: a dead thread's entry stays until its tid is reused.
 *
 * A tid it does not know: its /proc status (proc_root set: the recorder, on the machine
 * traced), else the tid itself (right for a process's first thread, wrong for the others).
 * Not locked: one thread fills and reads it (the recorder drains its CPUs one after the
 * other; spoor convert converts its streams one after the other).
 */
#ifndef KERNEL_KTGID_H
#define KERNEL_KTGID_H

#include <stddef.h>
#include <stdint.h>

struct ktgid_slot {
	int32_t tid;     /* 0: empty */
	int32_t val;     /* > 0: the tgid; < 0: a thread of -val's process; 0: not known */
	uint32_t pid_ns; /* its pid namespace's inode (0: not known) */
};

struct ktgid {
	struct ktgid_slot *v;
	size_t cap, n;
	const char *proc_root; /* NULL: /proc is not the trace's machine */
};

void ktgid_init(struct ktgid *m, const char *proc_root);
void ktgid_free(struct ktgid *m);
/* tid is a thread of process tgid. */
void ktgid_set(struct ktgid *m, int32_t tid, int32_t tgid);
/* A new task, made by creator with these clone flags. */
void ktgid_new_task(struct ktgid *m, int32_t tid, int32_t creator, uint64_t clone_flags);
/* tid's process (above for one not known). */
int32_t ktgid_get(const struct ktgid *m, int32_t tid);
/* tid's pid namespace, noted for when /proc no longer has it; 0: not known. */
void ktgid_set_ns(struct ktgid *m, int32_t tid, uint32_t pid_ns);
uint32_t ktgid_ns(const struct ktgid *m, int32_t tid);

#define KTGID_CLONE_THREAD 0x00010000ull /* the kernel's CLONE_THREAD */

#endif
