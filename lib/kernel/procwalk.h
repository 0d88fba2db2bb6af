/* SPDX-License-Identifier: MIT */
/*
 * procwalk.h: the threads /proc shows, process by process (each process's threads in
 * /proc's order, its leader first), with what their stat file says. Both state dumps
 * (statedump.h, statedump-lttng.h) are written from it.
 */
#ifndef KERNEL_PROCWALK_H
#define KERNEL_PROCWALK_H

#include <stdbool.h>

#define PROC_PF_KTHREAD 0x00200000u /* stat's flags: a kernel thread */

struct proc_task {
	int tid, pid, ppid;
	char comm[64];
	char state;          /* stat's letter: R S D I T t Z X P ... */
	int cpu;             /* the CPU it last ran on */
	unsigned long flags; /* PF_* */
	bool first;          /* its process's first thread in the walk */
	const char *dir;     /* PROC_ROOT/PID/task/TID, for more of its files */
};

/* What a thread's status file says of its ids: in each pid namespace from the reader's down
 * to its own (NSpid, NStgid: [0] is its tid and its process's id as the reader sees them),
 * and its real user and group ids. Deeper levels than PROC_NS_LEVELS are left out. */
#define PROC_NS_LEVELS 8 /* pid namespaces nest 32 deep at most */
struct proc_status {
	int nspid[PROC_NS_LEVELS], nstgid[PROC_NS_LEVELS], levels;
	unsigned int uid, gid;
};

/* dir/status read (dir: PROC_ROOT/PID or a task's dir). 0, or -1: gone, or unreadable. */
int proc_status(const char *dir, struct proc_status *st);

/* fn for each thread under proc_root ("/proc"); a thread gone meanwhile is left out.
 * Returns how many calls returned 0, or -1 when proc_root cannot be read. */
long proc_walk(const char *proc_root, int (*fn)(const struct proc_task *t, void *data), void *data);

#endif
