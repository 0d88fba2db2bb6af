/* SPDX-License-Identifier: MIT */
/*
 * statedump-ns.c: a thread's namespaces, as lttng-modules 2.13 dumps them after its
 * process_state: its pid namespace and each one above it (its ids in each: /proc's NSpid
 * and NStgid), its user namespace (and the initial one above it, when it has its own),
 * then its cgroup, ipc, mnt, net, uts and time namespaces. A namespace's number is its
 * inode (ns_inum, what /proc/PID/ns/ links name); parents come from ioctl NS_GET_PARENT.
 */
#include <fcntl.h>
#include <linux/nsfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "statedump-lttng-int.h"

/* The inodes of a namespace and of those above it, innermost first; how many. */
static int ns_chain(const char *path, unsigned int *inum, int max)
{
	int n = 0, fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	while (fd >= 0 && n < max && fstat(fd, &st) == 0) {
		inum[n++] = (unsigned int) st.st_ino;
		int up = ioctl(fd, NS_GET_PARENT);
		close(fd);
		fd = up; /* EPERM above the reader's own namespace */
	}
	if (fd >= 0)
		close(fd);
	return n;
}

/* The parent's tgid in each level (0 where it is not seen), read once per parent. */
static const int *parent_tgids(struct sdl *d, int ppid)
{
	if (d->parent != ppid) {
		char dir[600];
		struct proc_status st;
		memset(d->parent_tgid, 0, sizeof(d->parent_tgid));
		snprintf(dir, sizeof(dir), "%s/%d", d->roots->proc, ppid);
		if (ppid > 0 && proc_status(dir, &st) == 0)
			memcpy(d->parent_tgid, st.nstgid, sizeof(st.nstgid));
		d->parent = ppid;
	}
	return d->parent_tgid;
}

static void pid_namespaces(struct sdl *d, const struct proc_task *t, const struct proc_status *st)
{
	char path[700];
	unsigned int inum[PROC_NS_LEVELS] = {0};
	snprintf(path, sizeof(path), "%s/ns/pid", t->dir);
	ns_chain(path, inum, st->levels);
	const int *ptgid = parent_tgids(d, t->ppid);
	for (int level = st->levels - 1; level >= 0; level--) {
		union ksynth_val v[] = {{.i = t->tid},
		                        {.i = st->nspid[level]},
		                        {.i = st->nstgid[level]},
		                        {.i = ptgid[level]},
		                        {.i = level},
		                        {.i = inum[st->levels - 1 - level]}};
		sdl_emit(d, SDL_PID_NS, t->tid, v);
	}
}

/* The id inside the thread's user namespace of an id of the initial one (map: uid_map's
 * or gid_map's lines "inside outside count"); 65534, the kernel's overflow id, unmapped. */
static unsigned int map_in(const char *dir, const char *map, unsigned int id)
{
	char path[700];
	unsigned int in, out, count, r = 65534;
	snprintf(path, sizeof(path), "%s/%s", dir, map);
	FILE *f = fopen(path, "re");
	while (f && fscanf(f, "%u %u %u", &in, &out, &count) == 3)
		if (id >= out && id - out < count) {
			r = in + (id - out);
			break;
		}
	if (f)
		fclose(f);
	return r;
}

static void user_namespaces(struct sdl *d, const struct proc_task *t, const struct proc_status *st)
{
	char path[700];
	unsigned int inum[PROC_NS_LEVELS];
	snprintf(path, sizeof(path), "%s/ns/user", t->dir);
	int n = ns_chain(path, inum, PROC_NS_LEVELS);
	if (n < 1)
		return;
	if (n > 1) { /* its own namespace, then the initial one: those between are left out */
		union ksynth_val v[] = {{.i = t->tid},
		                        {.i = map_in(t->dir, "uid_map", st->uid)},
		                        {.i = map_in(t->dir, "gid_map", st->gid)},
		                        {.i = n - 1},
		                        {.i = inum[0]}};
		sdl_emit(d, SDL_USER_NS, t->tid, v);
	}
	union ksynth_val v[] = {
	    {.i = t->tid}, {.i = st->uid}, {.i = st->gid}, {.i = 0}, {.i = inum[n - 1]}};
	sdl_emit(d, SDL_USER_NS, t->tid, v);
}

void sdl_namespaces(struct sdl *d, const struct proc_task *t)
{
	static const struct {
		enum sdl_class c;
		const char *link;
	} others[] = {{SDL_CGROUP_NS, "cgroup"}, {SDL_IPC_NS, "ipc"}, {SDL_MNT_NS, "mnt"},
	              {SDL_NET_NS, "net"},       {SDL_UTS_NS, "uts"}, {SDL_TIME_NS, "time"}};
	struct proc_status st;
	if (proc_status(t->dir, &st) == 0) {
		pid_namespaces(d, t, &st);
		user_namespaces(d, t, &st);
	}
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		char path[700];
		struct stat s;
		snprintf(path, sizeof(path), "%s/ns/%s", t->dir, others[i].link);
		if (stat(path, &s) == 0) { /* a kernel without the namespace has no link */
			union ksynth_val v[] = {{.i = t->tid}, {.i = (int64_t) s.st_ino}};
			sdl_emit(d, others[i].c, t->tid, v);
		}
	}
}
