/* SPDX-License-Identifier: MIT */
/*
 * kclass.h: a kernel event's format (tracefs's format file, parsed by libtraceevent) as a
 * CTF event class, and the plan that turns one raw ring-buffer record of it into that
 * class's CTF bytes.
 *
 * CTF layout of a kernel event (packed: every field byte-aligned, as spoor's user-space
 * events): event.context = the common fields but common_type (which becomes the event
 * id): common_flags, common_preempt_count, common_pid; then the payload, one member per
 * format field in offset order, with the kernel's names and signedness:
 *   integers of 1, 2, 4, 8 bytes          as they are (pointers shown in hex)
 *   char NAME[N]                          a text array of N bytes
 *   TYPE NAME[N]                          an array of N integers
 *   __data_loc char[] NAME                a NUL-terminated string
 *   __data_loc TYPE[] NAME                a sequence (uint32 length, then the elements)
 *   anything else (odd sizes)             an array of bytes
 * Padding between fields is left out.
 *
 * In the LTTng layout (klayout.h) the names are lib/vocab's, the event context is common_pid
 * alone, named tid (LTTng's context of that name), the fields LTTng has not are left out
 * (__syscall_nr), priorities are written less 100 and block requests' rwbs as flags, as
 * LTTng writes them; a block event's fields in LTTng's order, with the task's tid.
 */
#ifndef KERNEL_KCLASS_H
#define KERNEL_KCLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "klayout.h"
#include "kpaths.h"
#include "select.h"
#include "spoor/tracepoint-types.h"

struct tep_handle;
struct tep_event;

/* KOP_ADD32: a 32-bit integer copied with delta added (LTTng's priorities); KOP_PATH: a
 * path pointer written as the string -k libc captured (kpaths.h; elem: which of two);
 * KOP_RWBS: a block request's rwbs text (len bytes) written as LTTng's uint32 flags */
enum kop_kind { KOP_COPY, KOP_STRING, KOP_SEQ, KOP_ADD32, KOP_PATH, KOP_RWBS };

/* What the recorder does with a class's records beyond converting them (kcpu.c), bits:
 * KHOOK_PATHS: -k libc's paths (kpaths.h); the LTTng layout's fork (kfork.h):
 * KHOOK_NEWTASK, task_newtask, noted; KHOOK_FORK, sched_process_fork, written by kfork. */
enum { KHOOK_PATHS = 1, KHOOK_NEWTASK = 2, KHOOK_FORK = 4 };

struct kop {
	uint8_t kind;     /* enum kop_kind */
	uint8_t elem;     /* KOP_SEQ: element size */
	uint8_t relative; /* __rel_loc: the offset counts from the end of the field */
	uint16_t off;     /* in the record */
	uint16_t len;     /* KOP_COPY: bytes; else the field's own size (4) */
	int16_t delta;    /* KOP_ADD32 */
};

struct kclass {
	struct spoor_event_desc desc; /* id = CTF id; names point into the tep handle */
	struct spoor_field_desc *fields;
	struct kop *ops;
	char *name; /* the LTTng layout's name when it is not the kernel's (desc.name) */
	uint32_t nops;
	uint32_t min_size; /* the record's fixed part */
	uint32_t extra;    /* what a well-formed record's CTF bytes can exceed its size by */
	int kernel_id;
	bool names_other; /* a switch or wake-up: it is about another task too */
	/* the LTTng layout with -k libc: a libc_* event's function, whose paths wait for the
	 * system call (kpaths.h), or a path-taking system call's entry; -1 else */
	int8_t path_fn, path_call;
	uint8_t hook; /* KHOOK_* */
	/* KHOOK_FORK: parent_comm, parent_pid, child_comm, child_pid in the record (a string
	 * or a char array, an integer); KHOOK_NEWTASK: pid and clone_flags */
	struct kop at[4];
};

struct kclasses {
	struct kclass *v;
	size_t n, cap;
	uint16_t *by_kernel_id; /* 65536 entries: index + 1, 0 for an event not recorded */
	struct spoor_field_desc context[8];
	size_t ncontext;
	uint16_t pid_off; /* common_pid's offset in a record (0: none) */
	int32_t self_pid; /* the recorder's own records are left out (0: none is) */
	enum klayout layout;
	bool libc; /* libc_* events are recorded: paths go into the system calls (kpaths.h) */
};

/* Classes for the listed events (their formats must be in tep), CTF ids 0, 1, ... in
 * list order, named in layout. -1 with err set when a format cannot be described. */
int kclasses_build(struct tep_handle *tep, const struct kevent_list *events, enum klayout layout,
                   struct kclasses *out, char *err, size_t errlen);
/* One more event's class, declared while recording (its format must be in tep): the next
 * CTF id. Named SYSTEM:NAME when another class has its name. 0, or -errno with err set. */
int kclasses_append(struct tep_handle *tep, const struct kevent_ref *event, struct kclasses *cs,
                    char *err, size_t errlen);
/* One more class by hand (spoor's own events, e.g. the state dump): fields are copied by
 * pointer, the caller writes its CTF bytes itself. Returns its CTF id or -1. */
int kclasses_add_synthetic(struct kclasses *cs, const char *name,
                           const struct spoor_field_desc *fields, uint32_t nfields);
void kclasses_free(struct kclasses *cs);

/* The class of a raw record (its first two bytes are common_type), or NULL. */
static inline const struct kclass *kclass_of(const struct kclasses *cs, const void *rec,
                                             size_t size)
{
	uint16_t type;
	if (size < 2)
		return NULL;
	__builtin_memcpy(&type, rec, 2);
	uint16_t i = cs->by_kernel_id[type];
	return i ? &cs->v[i - 1] : NULL;
}

/* A record of the recorder's own task, left out of the trace as the kernel's
 * set_event_notrace_pid would, but here, off the traced CPUs: the kernel's pid filter
 * puts probes on every switch and wake-up (measured: 5 to 15% more CPU for a workload that
 * switches a lot). Switches and wake-ups stay when they are about another task, as the
 * kernel keeps them. */
static inline bool kclass_is_own(const struct kclasses *cs, const struct kclass *k, const void *rec,
                                 size_t size)
{
	int32_t pid;
	if (!cs->self_pid || k->names_other || !cs->pid_off || size < cs->pid_off + 4u)
		return false;
	__builtin_memcpy(&pid, (const uint8_t *) rec + cs->pid_off, 4);
	return pid == cs->self_pid;
}

/* The record's context and payload in CTF, into dst (cap bytes; size + extra always
 * suffice for a well-formed record); paths: the strings of its KOP_PATH fields (NULL:
 * empty). Returns the bytes written, -1 for a record shorter than its format, -2 when cap
 * is too small. */
long kclass_convert(const struct kclass *c, const uint8_t *rec, size_t size, uint8_t *dst,
                    size_t cap, const struct kpath_slot *paths);
/* A fork record's parent and child (KHOOK_FORK); false for one shorter than its format. */
struct kfork_task;
bool kclass_fork_tasks(const struct kclass *c, const uint8_t *rec, size_t size,
                       struct kfork_task *parent, struct kfork_task *child);
/* A task_newtask record's new task and clone flags (KHOOK_NEWTASK). */
bool kclass_newtask(const struct kclass *c, const uint8_t *rec, size_t size, int32_t *tid,
                    uint64_t *clone_flags);
/* The first two strings of a record (a libc_* event's paths), in place, cut at their NUL
 * ("" when absent). */
void kclass_strings(const struct kclass *c, const uint8_t *rec, size_t size, const char *s[2],
                    size_t len[2]);

#endif
