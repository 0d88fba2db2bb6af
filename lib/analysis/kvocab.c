/* SPDX-License-Identifier: MIT */
/* kvocab.c: kernel events under one vocabulary (see kvocab.h). */
#include <stdlib.h>
#include <string.h>

#include "kvocab.h"
#include "reader/reader.h" /* fields read in place */
#include "vocab/lttng-kernel.h"

/* Per kind: event names, then per slot the field names to try, in order, in ftrace's
 * vocabulary: LTTng's names come from lib/vocab's table (an event's LTTng name, a field's
 * rename tried before its ftrace name). A name after '=' is taken as it is: LTTng's
 * child_pid is the tgid, ftrace's the child's tid; LTTng before 2.7 wrote errors. */
struct kind_def {
	enum kev kind;
	const char *events[4];
	const char *slots[KSLOTS][2];
};

static const struct kind_def defs[] = {
    {KEV_SCHED_SWITCH,
     {"sched_switch"},
     {{"prev_comm"},
      {"prev_pid"},
      {"prev_prio"},
      {"prev_state"},
      {"next_comm"},
      {"next_pid"},
      {"next_prio"}}},
    {KEV_SCHED_WAKEUP,
     {"sched_wakeup", "sched_wakeup_new"},
     {{"comm"}, {"pid"}, {"prio"}, {"target_cpu"}}},
    {KEV_SCHED_WAKING, {"sched_waking"}, {{"comm"}, {"pid"}, {"prio"}, {"target_cpu"}}},
    {KEV_PROCESS_FORK,
     {"sched_process_fork"},
     {{"parent_pid"}, {"child_comm"}, {"child_pid"}, {"=child_pid"}}},
    {KEV_PROCESS_EXEC, {"sched_process_exec"}, {{"filename"}, {"pid"}}},
    {KEV_PROCESS_EXIT, {"sched_process_exit"}, {{"comm"}, {"pid"}}},
    {KEV_TASK_RENAME, {"task_rename"}, {{"=tid", "pid"}, {"newcomm"}}},
    {KEV_STATEDUMP, {"statedump_process"}, {{"tid"}, {"pid"}, {"ppid"}, {"name"}}},
    {KEV_IRQ_ENTRY, {"irq_handler_entry"}, {{"irq"}, {"name"}}},
    {KEV_IRQ_EXIT, {"irq_handler_exit"}, {{"irq"}, {"ret"}}},
    {KEV_SOFTIRQ_RAISE, {"softirq_raise"}, {{"vec"}}},
    {KEV_SOFTIRQ_ENTRY, {"softirq_entry"}, {{"vec"}}},
    {KEV_SOFTIRQ_EXIT, {"softirq_exit"}, {{"vec"}}},
    {KEV_BLOCK_INSERT,
     {"block_rq_insert"},
     {{"dev"}, {"sector"}, {"nr_sector"}, {"bytes"}, {"rwbs"}}},
    {KEV_BLOCK_ISSUE,
     {"block_rq_issue"},
     {{"dev"}, {"sector"}, {"nr_sector"}, {"bytes"}, {"rwbs"}}},
    {KEV_BLOCK_COMPLETE,
     {"block_rq_complete"},
     {{"dev"}, {"sector"}, {"nr_sector"}, {"error", "=errors"}, {"rwbs"}}},
    {KEV_BLOCK_DEVICE, {"lttng_statedump_block_device"}, {{"dev"}, {"diskname"}}},
};

/* The calls whose event does not name them, in one naming each: ftrace's raw_syscalls, and
 * LTTng 2.5's single exit (LTTng 2.5's sys_exit is the entry of exit). */
static const struct {
	enum ksyscalls scheme;
	struct kind_def def;
} unnamed_calls[] = {
    {KSC_FTRACE, {KEV_SYSCALL_ENTRY, {"sys_enter"}, {{"id"}}}},
    {KSC_FTRACE, {KEV_SYSCALL_EXIT, {"sys_exit"}, {{"ret"}, {"id"}}}},
    {KSC_LTTNG_OLD, {KEV_SYSCALL_EXIT, {"exit_syscall"}, {{"ret"}}}},
};

static const char *const hints[KEV_COUNT] = {
    [KEV_SCHED_SWITCH] = "sched",    [KEV_SCHED_WAKEUP] = "sched",
    [KEV_SCHED_WAKING] = "sched",    [KEV_PROCESS_FORK] = "sched",
    [KEV_PROCESS_EXEC] = "sched",    [KEV_PROCESS_EXIT] = "sched",
    [KEV_TASK_RENAME] = "task",      [KEV_STATEDUMP] = "(any: spoor always records it)",
    [KEV_IRQ_ENTRY] = "irq",         [KEV_IRQ_EXIT] = "irq",
    [KEV_SOFTIRQ_RAISE] = "irq",     [KEV_SOFTIRQ_ENTRY] = "irq",
    [KEV_SOFTIRQ_EXIT] = "irq",      [KEV_SYSCALL_ENTRY] = "syscalls",
    [KEV_SYSCALL_EXIT] = "syscalls", [KEV_BLOCK_INSERT] = "block",
    [KEV_BLOCK_ISSUE] = "block",     [KEV_BLOCK_COMPLETE] = "block",
};

const char *kvocab_record_hint(enum kev kind)
{
	return kind < KEV_COUNT && hints[kind] ? hints[kind] : "";
}

/* A field in the payload, else in the contexts: the first of names (NULL-ended) found. */
static void find_slot(const struct spoor_event_class *ec, const char *const *names,
                      struct kclass_ref *out, int slot)
{
	static const enum spoor_scope scopes[] = {SPOOR_SCOPE_PAYLOAD, SPOOR_SCOPE_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_STREAM_EVENT_CONTEXT};
	for (int n = 0; names[n]; n++)
		for (int s = 0; s < 3; s++) {
			int i = spoor_event_class_field_index(ec, scopes[s], names[n]);
			if (i >= 0) {
				out->scope[slot] = (int8_t) scopes[s];
				out->idx[slot] = (int16_t) i;
				return;
			}
		}
}

/* A slot's names to try: each of the def's, its LTTng rename (row's) first. */
static void fill(const struct spoor_event_class *ec, const struct kind_def *d,
                 const struct vocab_event *row, struct kclass_ref *out)
{
	for (int s = 0; s < KSLOTS; s++) {
		const char *names[5];
		int n = 0;
		for (int k = 0; k < 2 && d->slots[s][k]; k++) {
			const char *f = d->slots[s][k];
			if (f[0] == '=') {
				names[n++] = f + 1;
				continue;
			}
			const char *l = vocab_field_lttng(row, f);
			if (l && strcmp(l, f))
				names[n++] = l;
			names[n++] = f;
		}
		names[n] = NULL;
		if (n)
			find_slot(ec, names, out, s);
	}
}

static const char *after_prefix(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(name, prefix, n) ? NULL : name + n;
}

/* The places of the integer payload slots (the class is ready at its first event). */
static void find_places(const struct spoor_event_class *ec, struct kclass_ref *out)
{
	for (int s = 0; s < KSLOTS; s++)
		if (out->idx[s] >= 0 && out->scope[s] == SPOOR_SCOPE_PAYLOAD)
			ctf_event_class_place(ec->ec, out->idx[s], &out->at[s]);
}

/* Whether name (ftrace's) is one of d's events: then out is of its kind (and its fields,
 * with fields; row: the event's in lib/vocab's table, or NULL). */
static bool matches(const struct spoor_event_class *ec, const char *name, const struct kind_def *d,
                    const struct vocab_event *row, struct kclass_ref *out, bool fields)
{
	for (int e = 0; e < 4 && d->events[e]; e++)
		if (!strcmp(name, d->events[e])) {
			out->kind = (uint8_t) d->kind;
			if (fields)
				fill(ec, d, row, out);
			return true;
		}
	return false;
}

/* The event's own name: a system-qualified one (two systems had the same event name)
 * without its system. */
static const char *own_name(const char *name)
{
	const char *colon = strrchr(name, ':');
	return colon && !strchr(name, '.') ? colon + 1 : name;
}

/* Per-call system call events, by naming: the prefix before the call's name. */
struct call_prefix {
	const char *prefix;
	enum kev kind;
};

static const struct call_prefix ftrace_calls[] = {{VOCAB_FTRACE_ENTRY, KEV_SYSCALL_ENTRY},
                                                  {VOCAB_FTRACE_EXIT, KEV_SYSCALL_EXIT},
                                                  {NULL, KEV_NONE}};
static const struct call_prefix lttng_calls[] = {{VOCAB_LTTNG_ENTRY, KEV_SYSCALL_ENTRY},
                                                 {VOCAB_LTTNG_EXIT, KEV_SYSCALL_EXIT},
                                                 {"compat_" VOCAB_LTTNG_ENTRY, KEV_SYSCALL_ENTRY},
                                                 {"compat_" VOCAB_LTTNG_EXIT, KEV_SYSCALL_EXIT},
                                                 {NULL, KEV_NONE}};
/* LTTng up to 2.5: entries only (sys_unknown is the call "unknown", as for lttng-analyses) */
static const struct call_prefix lttng_old_calls[] = {
    {"sys_", KEV_SYSCALL_ENTRY}, {"compat_sys_", KEV_SYSCALL_ENTRY}, {NULL, KEV_NONE}};

static const struct call_prefix *calls_of(enum ksyscalls scheme)
{
	return scheme == KSC_LTTNG       ? lttng_calls
	       : scheme == KSC_LTTNG_OLD ? lttng_old_calls
	                                 : ftrace_calls;
}

/* (once per class of every trace: a kernel trace declares over a thousand, most of them
 * system calls, so the first letters sort them) */
enum ksyscalls kvocab_scheme_mark(const char *name)
{
	name = own_name(name);
	bool compat = !strncmp(name, "compat_", 7);
	if (compat)
		name += 7;
	if (name[0] == 'e')
		return !compat && !strcmp(name, "exit_syscall") ? KSC_LTTNG_OLD : KSC_UNDECIDED;
	if (strncmp(name, "sys", 3))
		return KSC_UNDECIDED;
	if (!strncmp(name + 3, "call_", 5))
		return after_prefix(name + 8, "entry_") || after_prefix(name + 8, "exit_")
		           ? KSC_LTTNG
		           : KSC_UNDECIDED;
	if (!strcmp(name + 3, "_unknown"))
		return KSC_LTTNG_OLD;
	if (!compat && !strncmp(name + 3, "_enter", 6) && (!name[9] || name[9] == '_'))
		return KSC_FTRACE;
	return KSC_UNDECIDED;
}

enum ksyscalls kvocab_scheme_env(const char *tracer, const char *major, const char *minor)
{
	if (!tracer || strncmp(tracer, "lttng-modules", 13))
		return KSC_FTRACE;
	if (!major || !minor)
		return KSC_LTTNG;
	long x = strtol(major, NULL, 10), y = strtol(minor, NULL, 10);
	return x < 2 || (x == 2 && y <= 5) ? KSC_LTTNG_OLD : KSC_LTTNG;
}

static void resolve(const struct spoor_event_class *ec, enum ksyscalls scheme,
                    struct kclass_ref *out, bool fields)
{
	const char *name = own_name(spoor_event_class_name(ec));
	*out = (struct kclass_ref){.kind = KEV_NONE};
	for (int s = 0; s < KSLOTS; s++)
		out->idx[s] = -1;
	if (scheme == KSC_UNDECIDED)
		scheme = KSC_FTRACE;
	/* per-call syscall events, most of a kernel trace's classes, first: the name carries
	 * the call (no name of defs read in the same naming has one of these prefixes) */
	for (const struct call_prefix *p = calls_of(scheme); p->prefix; p++) {
		const char *call = after_prefix(name, p->prefix);
		if (call && *call) {
			out->kind = (uint8_t) p->kind;
			out->syscall = call;
			if (fields && p->kind == KEV_SYSCALL_EXIT)
				find_slot(ec, (const char *const[]){"ret", NULL}, out,
				          KS_SYSCALL_RET);
			return;
		}
	}
	for (size_t i = 0; i < sizeof(unnamed_calls) / sizeof(unnamed_calls[0]); i++)
		if (unnamed_calls[i].scheme == scheme &&
		    matches(ec, name, &unnamed_calls[i].def, NULL, out, fields))
			return;
	/* an LTTng name read as ftrace's (the system calls' rule rows are done above) */
	const struct vocab_event *row = vocab_by_lttng(name);
	if (row && row->prefix)
		row = NULL;
	if (row)
		name = row->ftrace;
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		if (matches(ec, name, &defs[i], row, out, fields))
			return;
}

void kvocab_resolve(const struct spoor_event_class *ec, enum ksyscalls scheme,
                    struct kclass_ref *out)
{
	resolve(ec, scheme, out, true);
	find_places(ec, out);
}

void kvocab_kind(const struct spoor_event_class *ec, enum ksyscalls scheme, struct kclass_ref *out)
{
	resolve(ec, scheme, out, false);
}

bool kvocab_lookalike(enum kev kind, const char *name)
{
	static const char *const syscalls[] = {"sys_", "syscall", NULL};
	static const char *const irqs[] = {"irq", NULL};
	static const char *const blocks[] = {"block_", NULL};
	static const char *const scheds[] = {"sched_", "switch", NULL};
	const char *const *like = kind == KEV_SYSCALL_ENTRY || kind == KEV_SYSCALL_EXIT ? syscalls
	                          : kind >= KEV_IRQ_ENTRY && kind <= KEV_SOFTIRQ_EXIT   ? irqs
	                          : kind >= KEV_BLOCK_INSERT && kind <= KEV_BLOCK_COMPLETE ? blocks
	                          : kind >= KEV_SCHED_SWITCH && kind <= KEV_SCHED_WAKING   ? scheds
	                                                                                   : NULL;
	for (; like && *like; like++)
		if (strstr(name, *like))
			return true;
	return false;
}

bool kv_str(const struct spoor_event *ev, const struct kclass_ref *c, int slot, const char **s,
            size_t *len)
{
	const char *p;
	size_t n;
	if (c->idx[slot] < 0 ||
	    !reader_field_str(ev, (enum spoor_scope) c->scope[slot], c->idx[slot], &p, &n))
		return false;
	const char *nul = memchr(p, '\0', n);
	*s = p;
	*len = nul ? (size_t) (nul - p) : n;
	return true;
}
