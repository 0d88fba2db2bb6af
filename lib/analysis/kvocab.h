/* SPDX-License-Identifier: MIT */
/*
 * kvocab.h: the kernel events analyses use, under one vocabulary whatever wrote the trace.
 * spoor (ftrace's names) and LTTng (lttng-modules' names) differ in event and field names:
 *
 *   switch    sched_switch: prev_pid next_pid (ftrace), prev_tid next_tid (LTTng)
 *   wake-up   sched_wakeup(_new): pid (ftrace), tid (LTTng)
 *   block     block_rq_issue ...: rwbs as text (ftrace), as flags (LTTng: an enum from 2.12);
 *             error or errors
 *   softirq   softirq_entry ... (ftrace, LTTng before 2.8), irq_softirq_entry ... (LTTng 2.8+)
 *   dump      statedump_process (spoor), lttng_statedump_process_state (LTTng)
 *
 * System calls have three namings (enum ksyscalls), and one name can mean two things in
 * two of them: LTTng 2.5's sys_exit_group is the entry of exit_group, ftrace's would be the
 * exit of a call "group". So a trace's naming is decided once for the whole trace, from the
 * events its metadata declares (kvocab_scheme_mark), then each name is read in it.
 *
 * An event class is resolved once (kvocab_resolve) to a kind and the indices of the fields
 * that kind needs (slots), so reading a field per event is one indexed look-up.
 */
#ifndef ANALYSIS_KVOCAB_H
#define ANALYSIS_KVOCAB_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/reader.h" /* kv_int reads fields in place */
#include "spoor/trace.h"

enum kev {
	KEV_NONE,
	KEV_SCHED_SWITCH, /* PREV_COMM PREV_TID PREV_PRIO PREV_STATE NEXT_COMM NEXT_TID NEXT_PRIO */
	KEV_SCHED_WAKEUP, /* COMM TID PRIO TARGET_CPU (sched_wakeup, sched_wakeup_new) */
	KEV_SCHED_WAKING, /* COMM TID PRIO TARGET_CPU */
	KEV_PROCESS_FORK, /* PARENT_TID CHILD_COMM CHILD_TID CHILD_PID (LTTng: the tgid) */
	KEV_PROCESS_EXEC, /* FILENAME TID */
	KEV_PROCESS_EXIT, /* COMM TID */
	KEV_TASK_RENAME,  /* TID NEWCOMM */
	KEV_STATEDUMP,    /* TID PID PPID NAME (statedump_process, lttng_statedump_process_state) */
	KEV_IRQ_ENTRY,    /* IRQ NAME */
	KEV_IRQ_EXIT,     /* IRQ RET */
	KEV_SOFTIRQ_RAISE,  /* VEC */
	KEV_SOFTIRQ_ENTRY,  /* VEC */
	KEV_SOFTIRQ_EXIT,   /* VEC */
	KEV_SYSCALL_ENTRY,  /* ID (raw sys_enter only); the name is the class's */
	KEV_SYSCALL_EXIT,   /* RET ID (raw sys_exit only; LTTng 2.5's exit_syscall: RET only) */
	KEV_BLOCK_INSERT,   /* DEV SECTOR NR_SECTOR BYTES RWBS */
	KEV_BLOCK_ISSUE,    /* DEV SECTOR NR_SECTOR BYTES RWBS */
	KEV_BLOCK_COMPLETE, /* DEV SECTOR NR_SECTOR ERROR RWBS */
	KEV_BLOCK_DEVICE,   /* DEV DISKNAME (lttng_statedump_block_device) */
	KEV_COUNT /* new kinds go before this, and into include/spoor/plugin.h (same order) */
};

/* Slots: the fields a kind uses, by meaning. */
enum kslot {
	KS_PREV_COMM = 0,
	KS_PREV_TID,
	KS_PREV_PRIO,
	KS_PREV_STATE,
	KS_NEXT_COMM,
	KS_NEXT_TID,
	KS_NEXT_PRIO,
	KS_COMM = 0,
	KS_TID,
	KS_PRIO,
	KS_TARGET_CPU,
	KS_PARENT_TID = 0,
	KS_CHILD_COMM,
	KS_CHILD_TID,
	KS_CHILD_PID,
	KS_FILENAME = 0,
	KS_EXEC_TID,
	KS_EXIT_COMM = 0,
	KS_EXIT_TID,
	KS_RENAME_TID = 0,
	KS_NEWCOMM,
	KS_DUMP_TID = 0,
	KS_DUMP_PID,
	KS_DUMP_PPID,
	KS_DUMP_NAME,
	KS_IRQ = 0,
	KS_IRQ_NAME,
	KS_IRQ_RET = 1,
	KS_VEC = 0,
	KS_SYSCALL_ID = 0,
	KS_SYSCALL_RET = 0,
	KS_SYSCALL_EXIT_ID = 1,
	KS_DEV = 0,
	KS_SECTOR,
	KS_NR_SECTOR,
	KS_BYTES,
	KS_RWBS,
	KS_ERROR = 3,
	KS_DISKNAME = 1,
	KSLOTS = 8
};

struct kclass_ref {
	uint8_t kind; /* enum kev */
	int8_t scope[KSLOTS];
	int16_t idx[KSLOTS]; /* -1: absent */
	/* integer payload slots that read as plain loads (kv_int's fast path) */
	struct ctf_place at[KSLOTS];
	/* KEV_SYSCALL_*: the call's name, or NULL for raw events and LTTng 2.5's exit_syscall */
	const char *syscall;
};

/* How a trace names its system calls. */
enum ksyscalls {
	KSC_UNDECIDED, /* no event of the trace said yet (read as KSC_FTRACE) */
	KSC_FTRACE,    /* sys_enter_NAME, sys_exit_NAME; raw sys_enter, sys_exit (id, ret) */
	KSC_LTTNG,     /* LTTng 2.6+: syscall_entry_NAME, syscall_exit_NAME (ret), their
	                * compat_ forms; syscall_entry_unknown, syscall_exit_unknown */
	KSC_LTTNG_OLD, /* LTTng up to 2.5: sys_NAME, compat_sys_NAME (sys_unknown and
	                * compat_sys_unknown with an id); one exit for all, exit_syscall (ret) */
};
/* What one declared event name says of its trace's naming: KSC_UNDECIDED when nothing.
 * The first of a trace's events that says something decides (no real trace says two). */
enum ksyscalls kvocab_scheme_mark(const char *name);
/* The naming of a trace whose event names said nothing, from its env (tracer_name,
 * tracer_major, tracer_minor; NULL when absent): LTTng's by its version, else ftrace's. */
enum ksyscalls kvocab_scheme_env(const char *tracer, const char *major, const char *minor);

/* What an event class is, once; scheme: its trace's naming of system calls. */
void kvocab_resolve(const struct spoor_event_class *ec, enum ksyscalls scheme,
                    struct kclass_ref *out);
/* Its kind (and call) from its name alone, without looking at fields (slots absent). */
void kvocab_kind(const struct spoor_event_class *ec, enum ksyscalls scheme, struct kclass_ref *out);
/* Whether an event name that resolved to no kind looks like one of kind's family (named
 * like a system call, an interrupt, a block request or a scheduler event): what to name
 * when an analysis finds none of its events. */
bool kvocab_lookalike(enum kev kind, const char *name);

/* A slot's value: false when the class lacks it or the event is damaged. */
static inline __attribute__((always_inline)) bool
kv_int(const struct spoor_event *ev, const struct kclass_ref *c, int slot, int64_t *v)
{
	if (c->at[slot].fast != PLAN_FAST_NONE && ctf_stream_place_int(ev->s, c->at[slot], v))
		return true;
	return c->idx[slot] >= 0 &&
	       reader_field_int(ev, (enum spoor_scope) c->scope[slot], c->idx[slot], v);
}
bool kv_str(const struct spoor_event *ev, const struct kclass_ref *c, int slot, const char **s,
            size_t *len);

/* The event names to record for a kind, as the user would type them for `spoor record -k`. */
const char *kvocab_record_hint(enum kev kind);

#endif
