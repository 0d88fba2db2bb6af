/* SPDX-License-Identifier: MIT */
/*
 * lttng-kernel.h: kernel events under two vocabularies, ftrace's (tracefs: SYSTEM:NAME and
 * the kernel's field names, what spoor records) and lttng-modules 2.13's (its event and
 * field names), one table read both ways: the recorder writes LTTng's names from it
 * (`spoor record -k --layout=lttng`, `spoor convert`), the analyses read either.
 *
 * A row is an event that has a counterpart in the other vocabulary; only the fields whose
 * names (or values) differ are listed. An event without a row has the same name and fields
 * in both, or no counterpart: either way its ftrace names stand. A row whose fields LTTng
 * writes in an order of its own (the block events: the kernel's ioprio and cmd left out,
 * the current task's tid added, which ftrace has as common_pid) lists them, in LTTng's
 * order: a writer takes each from the ftrace field of that name, by the renames.
 *
 * System calls go by rule, in two prefix rows: syscalls:sys_enter_X <-> syscall_entry_X and
 * syscalls:sys_exit_X <-> syscall_exit_X, the call's fields under their names (the kernel's
 * argument names in both), ftrace's __syscall_nr left out (LTTng's event names the call).
 * raw_syscalls:sys_enter and sys_exit are syscall_entry_unknown and syscall_exit_unknown.
 * LTTng's compat_syscall_* events have no ftrace counterpart.
 *
 * Facts from lttng-modules stable-2.13 (include/instrumentation/events/: the _MAP
 * macros name an event differently from the kernel's tracepoint; the ctf_* fields) and
 * from LTTng kernel traces' metadata.
 */
#ifndef VOCAB_LTTNG_KERNEL_H
#define VOCAB_LTTNG_KERNEL_H

#include <stddef.h>
#include <stdint.h>

/* The system call prefixes of each vocabulary (the analyses read other namings too). */
#define VOCAB_FTRACE_ENTRY "sys_enter_"
#define VOCAB_FTRACE_EXIT  "sys_exit_"
#define VOCAB_LTTNG_ENTRY  "syscall_entry_"
#define VOCAB_LTTNG_EXIT   "syscall_exit_"

struct vocab_field {
	const char *ftrace;
	const char *lttng; /* NULL: LTTng has no such field (a writer leaves it out) */
	/* LTTng's value is ftrace's plus this: priorities, which LTTng writes less
	 * MAX_RT_PRIO (100), so that a normal task's 120 is its nice 0 as 20 */
	int16_t delta;
	/* ftrace's block request kind, text (char[N]), is LTTng's integer of flags: the
	 * writer writes vocab_rwbs_flags (rwbs.h) as a uint32 */
	uint8_t rwbs;
};

struct vocab_event {
	const char *system; /* ftrace's (tracefs) system; "spoor" for spoor's own events */
	const char *ftrace;
	const char *lttng;
	/* the fields that differ, ended by an entry with a NULL ftrace name (NULL: none) */
	const struct vocab_field *fields;
	/* ftrace and lttng are prefixes: the system call's name follows each */
	uint8_t prefix;
	/* LTTng's payload, its field names in order, NULL-ended; NULL: ftrace's fields in
	 * ftrace's order (but those LTTng has not) */
	const char *const *order;
};

/* The row of ftrace's event SYSTEM:NAME (system NULL: any system), or NULL: no row, the
 * names stand. */
const struct vocab_event *vocab_by_ftrace(const char *system, const char *name);
/* The row of LTTng's event NAME, or NULL (no row: the same name, or no counterpart). */
const struct vocab_event *vocab_by_lttng(const char *name);

/* An event's name in the other vocabulary, of a name e's row matched (a prefix row's call
 * name carried over), into buf: buf, or NULL when it does not fit. e NULL: name itself. */
const char *vocab_lttng_name(const struct vocab_event *e, const char *ftrace_name, char *buf,
                             size_t cap);
const char *vocab_ftrace_name(const struct vocab_event *e, const char *lttng_name, char *buf,
                              size_t cap);

/* A field's entry in e's row, by either name, or NULL: the field is named alike in both. */
const struct vocab_field *vocab_field_by_ftrace(const struct vocab_event *e, const char *name);
const struct vocab_field *vocab_field_by_lttng(const struct vocab_event *e, const char *name);
/* A field's name in the other vocabulary: its rename, or name itself; vocab_field_lttng
 * gives NULL for a field LTTng does not have. e may be NULL. */
const char *vocab_field_lttng(const struct vocab_event *e, const char *ftrace_name);
const char *vocab_field_ftrace(const struct vocab_event *e, const char *lttng_name);

/* The whole table, for tests and documentation: *n rows. */
const struct vocab_event *vocab_rows(size_t *n);

#endif
