/* SPDX-License-Identifier: MIT */
/* statedump-lttng.c: the LTTng layout's state dump: its classes and its order (see
 * statedump-lttng.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ktgid.h"
#include "statedump-lttng-int.h"

/* Types as lttng-modules 2.13 declares them: pid_t and int: signed 32 bits; unsigned int,
 * dev_t, uid_t, gid_t, fmode_t: unsigned 32 bits; a pointer: 64 bits in hex. */
#define I32(n)                                                                                     \
	{                                                                                          \
		.name = n, .kind = SPOOR_FK_INT, .size = 4, .is_signed = 1, .base = 10             \
	}
#define U32(n)                                                                                     \
	{                                                                                          \
		.name = n, .kind = SPOOR_FK_INT, .size = 4, .base = 10                             \
	}
#define U16(n)                                                                                     \
	{                                                                                          \
		.name = n, .kind = SPOOR_FK_INT, .size = 2, .base = 10                             \
	}
#define U8(n)                                                                                      \
	{                                                                                          \
		.name = n, .kind = SPOOR_FK_INT, .size = 1, .base = 10                             \
	}
#define STR(n)                                                                                     \
	{                                                                                          \
		.name = n, .kind = SPOOR_FK_STRING                                                 \
	}
#define TABLE(n)                                                                                   \
	{                                                                                          \
		.name = n, .kind = SPOOR_FK_INT, .size = 8, .base = 16                             \
	}

static const struct spoor_field_desc process_state_fields[] = {
    I32("tid"),     I32("pid"),
    I32("ppid"),    {.name = "name", .kind = SPOOR_FK_ARRAY, .size = 1, .text = 1, .length = 16},
    I32("type"),    I32("mode"),
    I32("submode"), I32("status"),
    U32("cpu"),     TABLE("file_table_address"),
};
static const struct spoor_field_desc pid_ns[] = {I32("tid"),   I32("vtid"),     I32("vpid"),
                                                 I32("vppid"), I32("ns_level"), U32("ns_inum")};
static const struct spoor_field_desc user_ns[] = {I32("tid"), U32("vuid"), U32("vgid"),
                                                  I32("ns_level"), U32("ns_inum")};
static const struct spoor_field_desc other_ns[] = {I32("tid"), U32("ns_inum")};
static const struct spoor_field_desc file_descriptor[] = {
    TABLE("file_table_address"),
    I32("fd"),
    {.name = "flags", .kind = SPOOR_FK_INT, .size = 4, .base = 8},
    {.name = "fmode", .kind = SPOOR_FK_INT, .size = 4, .base = 16},
    STR("filename"),
    I32("pid"), /* not 2.13's: for lttng-analyses 0.6.1 (statedump-lttng.h) */
};
static const struct spoor_field_desc interrupt[] = {U32("irq"), STR("name"), STR("action"),
                                                    I32("tid")};
static const struct spoor_field_desc network_interface[] = {
    STR("name"),
    {.name = "address_ipv4", .kind = SPOOR_FK_INT, .size = 4, .base = 16, .big_endian = 1},
};
static const struct spoor_field_desc block_device[] = {U32("dev"), STR("diskname")};
static const struct spoor_field_desc cpu_topology[] = {
    STR("architecture"), U16("cpu_id"),      STR("vendor"),  U8("family"), U8("model"),
    STR("model_name"),   U16("physical_id"), U16("core_id"), U16("cores")};

#define CLASS(n, f)                                                                                \
	{                                                                                          \
		n, f, sizeof(f) / sizeof(f[0])                                                     \
	}
const struct sdl_class_def sdl_classes[SDL_NCLASSES] = {
    [SDL_START] = {"lttng_statedump_start", NULL, 0},
    [SDL_END] = {"lttng_statedump_end", NULL, 0},
    [SDL_PROCESS_STATE] = CLASS("lttng_statedump_process_state", process_state_fields),
    [SDL_PID_NS] = CLASS("lttng_statedump_process_pid_ns", pid_ns),
    [SDL_USER_NS] = CLASS("lttng_statedump_process_user_ns", user_ns),
    [SDL_CGROUP_NS] = CLASS("lttng_statedump_process_cgroup_ns", other_ns),
    [SDL_IPC_NS] = CLASS("lttng_statedump_process_ipc_ns", other_ns),
    [SDL_MNT_NS] = CLASS("lttng_statedump_process_mnt_ns", other_ns),
    [SDL_NET_NS] = CLASS("lttng_statedump_process_net_ns", other_ns),
    [SDL_UTS_NS] = CLASS("lttng_statedump_process_uts_ns", other_ns),
    [SDL_TIME_NS] = CLASS("lttng_statedump_process_time_ns", other_ns),
    [SDL_FILE_DESCRIPTOR] = CLASS("lttng_statedump_file_descriptor", file_descriptor),
    [SDL_INTERRUPT] = CLASS("lttng_statedump_interrupt", interrupt),
    [SDL_NETWORK_INTERFACE] = CLASS("lttng_statedump_network_interface", network_interface),
    [SDL_BLOCK_DEVICE] = CLASS("lttng_statedump_block_device", block_device),
#if defined(__x86_64__) || defined(__i386__)
    [SDL_CPU_TOPOLOGY] = CLASS("lttng_statedump_cpu_topology", cpu_topology),
#else
    [SDL_CPU_TOPOLOGY] = {NULL, cpu_topology, 0},
#endif
};

int statedump_lttng_classes(struct kclasses *cs, struct sdl_ids *ids)
{
	for (int c = 0; c < SDL_NCLASSES; c++) {
		ids->id[c] = UINT32_MAX;
		if (!sdl_classes[c].name)
			continue;
		int id = kclasses_add_synthetic(cs, sdl_classes[c].name, sdl_classes[c].fields,
		                                sdl_classes[c].nfields);
		if (id < 0)
			return -1;
		ids->id[c] = (uint32_t) id;
	}
	return 0;
}

void sdl_emit(struct sdl *d, enum sdl_class c, int32_t tid, const union ksynth_val *v)
{
	if (d->ids->id[c] != UINT32_MAX)
		ksynth_emit(d->p, d->cs, d->ids->id[c], d->ts, tid, v);
}

/* lttng-modules: a task running or runnable is WAIT_CPU (it writes WAIT_FORK for those
 * whose rt.run_list is empty: every task of the fair class, so most of them, which is not
 * what the value means); one sleeping, interruptibly or not (idle kernel threads too), is
 * WAIT; a zombie ZOMBIE, a dead one DEAD; anything else (stopped, traced, parked) UNNAMED. */
int sdl_status_of(char state)
{
	switch (state) {
	case 'R': return SDL_WAIT_CPU;
	case 'S':
	case 'D':
	case 'I': return SDL_WAIT;
	case 'Z': return SDL_ZOMBIE;
	case 'X': return SDL_DEAD;
	default: return SDL_UNNAMED;
	}
}

static void note_irq_thread(struct sdl *d, const struct proc_task *t)
{
	if (!(t->flags & PROC_PF_KTHREAD) || strncmp(t->comm, "irq/", 4))
		return;
	if (d->nirqt == d->capirqt) {
		size_t cap = d->capirqt * 2 + 16;
		struct sdl_irq_thread *v = realloc(d->irqt, cap * sizeof(*v));
		if (!v)
			return; /* its interrupt's tid stays 0 */
		d->irqt = v;
		d->capirqt = cap;
	}
	struct sdl_irq_thread *it = &d->irqt[d->nirqt++];
	it->tid = t->tid;
	snprintf(it->comm, sizeof(it->comm), "%s", t->comm);
}

static void process_state(struct sdl *d, const struct proc_task *t, int64_t table)
{
	union ksynth_val v[] = {
	    {.i = t->tid},
	    {.i = t->pid},
	    {.i = t->ppid},
	    {.s = t->comm},
	    {.i = t->flags & PROC_PF_KTHREAD ? SDL_KERNEL_THREAD : SDL_USER_THREAD},
	    {.i = SDL_MODE_UNKNOWN},
	    {.i = SDL_SUBMODE_NONE},
	    {.i = sdl_status_of(t->state)},
	    {.i = t->cpu < 0 ? 0 : t->cpu},
	    {.i = table},
	};
	sdl_emit(d, SDL_PROCESS_STATE, t->tid, v);
}

/* The threads of a process share their descriptor table; a zombie has none. */
static int64_t file_table(const struct proc_task *t)
{
	int status = sdl_status_of(t->state);
	return status == SDL_ZOMBIE || status == SDL_DEAD ? 0 : t->pid;
}

static int dump_thread(const struct proc_task *t, void *data)
{
	struct sdl *d = data;
	int64_t table = file_table(t);
	process_state(d, t, table);
	sdl_namespaces(d, t);
	if (t->first && table)
		sdl_file_descriptors(d, t, table);
	note_irq_thread(d, t);
	if (d->tgids)
		ktgid_set(d->tgids, t->tid, t->pid);
	return 0;
}

long statedump_lttng_write(struct kpacket *p, const struct kclasses *cs, const struct sdl_ids *ids,
                           uint64_t ts, const struct sdl_roots *roots, struct ktgid *tgids)
{
	struct sdl d = {
	    .p = p, .cs = cs, .ids = ids, .ts = ts, .roots = roots, .parent = -1, .tgids = tgids};
	char path[600];
	struct stat st;
	snprintf(path, sizeof(path), "%s/self/ns/user", roots->proc);
	if (stat(path, &st) == 0)
		d.own_user_ns = (unsigned int) st.st_ino;
	sdl_emit(&d, SDL_START, 0, NULL);
	long n = proc_walk(roots->proc, dump_thread, &d);
	sdl_interrupts(&d);
	sdl_network_interfaces(&d);
	sdl_block_devices(&d, "partitions");
	sdl_cpu_topology(&d);
	sdl_emit(&d, SDL_END, 0, NULL);
	free(d.irqt);
	return n;
}

void statedump_lttng_emit(struct kpacket *p, const struct kclasses *cs, const struct sdl_ids *ids,
                          enum sdl_class c, uint64_t ts)
{
	struct sdl d = {.p = p, .cs = cs, .ids = ids, .ts = ts};
	sdl_emit(&d, c, 0, NULL);
}

void statedump_lttng_thread(struct kpacket *p, const struct kclasses *cs, const struct sdl_ids *ids,
                            uint64_t ts, const struct proc_task *t)
{
	struct sdl d = {.p = p, .cs = cs, .ids = ids, .ts = ts};
	process_state(&d, t, file_table(t));
}

void statedump_lttng_block_devices(struct kpacket *p, const struct kclasses *cs,
                                   const struct sdl_ids *ids, uint64_t ts, const char *partitions)
{
	struct sdl_roots roots = {"", ""};
	struct sdl d = {.p = p, .cs = cs, .ids = ids, .ts = ts, .roots = &roots};
	sdl_block_devices(&d, partitions);
}
