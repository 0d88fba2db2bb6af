/* SPDX-License-Identifier: MIT */
/*
 * krights.h: whose rights a kernel session uses. A system daemon calls it with its
 * file-system identity set to the session's owner (setfsuid, setfsgid), so that the
 * trace's files are the owner's and no symlink of the owner's is followed as root. tracefs,
 * the uprobes and /proc are root's: each entry point of ksession.h reaches them with the
 * process's own rights, and makes the trace's files with its caller's. Without a daemon
 * (spoor record) the two are the same.
 */
#ifndef KERNEL_KRIGHTS_H
#define KERNEL_KRIGHTS_H

#include <sys/fsuid.h>
#include <sys/types.h>
#include <unistd.h>

struct krights {
	uid_t uid;
	gid_t gid;
};

/* The process's own rights from here on; returns the caller's. */
static inline struct krights krights_own(void)
{
	struct krights caller;
	caller.uid = (uid_t) setfsuid(geteuid());
	caller.gid = (gid_t) setfsgid(getegid());
	return caller;
}

/* The caller's rights again (for the trace's files, and when returning to it). */
static inline void krights_caller(struct krights *caller)
{
	setfsgid(caller->gid);
	setfsuid(caller->uid);
}

/* In an entry point: the process's own rights until it returns, the caller's then. */
#define KRIGHTS_OWN(caller)                                                                        \
	struct krights caller __attribute__((cleanup(krights_caller))) = krights_own()

#endif
