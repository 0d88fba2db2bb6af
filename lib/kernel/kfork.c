/* SPDX-License-Identifier: MIT */
/* kfork.c: LTTng 2.13's sched_process_fork from ftrace's (see kfork.h). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "kfork.h"
#include "ksynth.h"
#include "procwalk.h"

#define CLONE_NEWPID 0x20000000ull

#define COMM(n)                                                                                    \
	{                                                                                          \
		.name = n, .kind = SPOOR_FK_ARRAY, .size = 1, .text = 1, .length = 16              \
	}
#define PID(n)                                                                                     \
	{                                                                                          \
		.name = n, .kind = SPOOR_FK_INT, .size = 4, .is_signed = 1, .base = 10             \
	}
#define INUM(n)                                                                                    \
	{                                                                                          \
		.name = n, .kind = SPOOR_FK_INT, .size = 4, .base = 10                             \
	}
const struct spoor_field_desc kfork_fields[KFORK_NFIELDS] = {
    COMM("parent_comm"),
    PID("parent_tid"),
    PID("parent_pid"),
    INUM("parent_ns_inum"),
    COMM("child_comm"),
    PID("child_tid"),
    {.name = "vtids",
     .kind = SPOOR_FK_SEQUENCE,
     .size = 4,
     .is_signed = 1,
     .base = 10,
     .length_size = 1},
    PID("child_pid"),
    INUM("child_ns_inum"),
};

/* The inode of a pid namespace link under proc_root (0: none, gone). */
static unsigned int ns_inum(const char *proc_root, const char *who)
{
	char path[600];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s/ns/pid", proc_root, who);
	return stat(path, &st) == 0 ? (unsigned int) st.st_ino : 0;
}

/* A task's pid namespace from /proc: its process's directory (which outlives the thread),
 * or its own; 0 when gone (or no /proc). */
static unsigned int proc_ns(const struct kfork *f, int32_t tid, int32_t tgid)
{
	char who[2][16];
	unsigned int ns = 0;
	snprintf(who[0], sizeof(who[0]), "%d", (int) tgid);
	snprintf(who[1], sizeof(who[1]), "%d", (int) tid);
	for (int i = 0; f && f->tgids.proc_root && !ns && i < 2; i++)
		ns = ns_inum(f->tgids.proc_root, who[i]);
	return ns;
}

/* The parent's: /proc's, what its own fork noted, else the recorder's (most tasks'). */
static unsigned int parent_ns_of(const struct kfork *f, int32_t tid, int32_t tgid)
{
	unsigned int ns = proc_ns(f, tid, tgid);
	if (!ns && f && f->tgids.proc_root)
		ns = ktgid_ns(&f->tgids, tid);
	return ns ? ns : f ? f->own_pid_ns : 0;
}

static int32_t tgid_of(const struct kfork *f, int32_t tid)
{
	return f ? ktgid_get(&f->tgids, tid) : tid;
}

void kfork_init(struct kfork *f, const char *proc_root)
{
	ktgid_init(&f->tgids, proc_root);
	f->own_pid_ns = proc_root ? ns_inum(proc_root, "self") : 0; /* the recorder's */
}

void kfork_free(struct kfork *f)
{
	ktgid_free(&f->tgids);
}

void kfork_newtask(struct kfork_newtask *last, struct kfork *f, int32_t creator, int32_t child,
                   uint64_t clone_flags)
{
	*last = (struct kfork_newtask){creator, child, clone_flags};
	if (f)
		ktgid_new_task(&f->tgids, child, creator, clone_flags);
}

/* The child's tid in each pid namespace, the initial one first: /proc's NSpid when it is in
 * another namespace than the recorder's and still there, else its tid alone. */
static uint32_t vtids_of(const struct kfork *f, int32_t tid, unsigned int ns, int32_t *v)
{
	char dir[600];
	struct proc_status st;
	v[0] = tid;
	if (!f || !ns || ns == f->own_pid_ns)
		return 1;
	snprintf(dir, sizeof(dir), "%s/%d", f->tgids.proc_root, (int) tid);
	if (proc_status(dir, &st) || st.nspid[0] != tid)
		return 1;
	memcpy(v, st.nspid, sizeof(st.nspid));
	return (uint32_t) st.levels;
}

int kfork_emit(struct kpacket *p, const struct kclasses *cs, uint32_t id, uint64_t ts,
               int32_t ctx_tid, struct kfork_newtask *last, struct kfork *f,
               const struct kfork_task *parent, const struct kfork_task *child)
{
	/* the task_newtask of this child just before, on this CPU: its clone flags */
	bool seen = last->child && last->child == child->tid;
	uint64_t flags = seen ? last->clone_flags : 0;
	last->child = 0;
	int32_t parent_pid = tgid_of(f, parent->tid);
	int32_t child_pid = !seen                        ? tgid_of(f, child->tid)
	                    : flags & KTGID_CLONE_THREAD ? parent_pid
	                                                 : child->tid;
	if (f && seen && (flags & KTGID_CLONE_THREAD))
		ktgid_set(&f->tgids, child->tid, parent_pid); /* resolved while the parent is */
	unsigned int parent_ns = parent_ns_of(f, parent->tid, parent_pid);
	/* a child shares its parent's namespace but with CLONE_NEWPID (one not seen: /proc's,
	 * else its parent's) */
	unsigned int child_ns =
	    seen && !(flags & CLONE_NEWPID) ? parent_ns : proc_ns(f, child->tid, child_pid);
	if (!child_ns && !seen)
		child_ns = parent_ns;
	if (f)
		ktgid_set_ns(&f->tgids, child->tid, child_ns); /* for its own forks */
	int32_t vtids[PROC_NS_LEVELS];
	uint32_t nv = vtids_of(f, child->tid, child_ns, vtids);
	char pcomm[16], ccomm[16];
	snprintf(pcomm, sizeof(pcomm), "%.*s", (int) strnlen(parent->comm, parent->len),
	         parent->comm);
	snprintf(ccomm, sizeof(ccomm), "%.*s", (int) strnlen(child->comm, child->len), child->comm);
	union ksynth_val v[KFORK_NFIELDS] = {
	    {.s = pcomm},         {.i = parent->tid}, {.i = parent_pid},
	    {.i = parent_ns},     {.s = ccomm},       {.i = child->tid},
	    {.seq = {vtids, nv}}, {.i = child_pid},   {.i = child_ns}};
	return ksynth_emit(p, cs, id, ts, ctx_tid, v);
}
