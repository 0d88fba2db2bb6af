/* SPDX-License-Identifier: MIT */
/* kvocab.c: kernel events under one vocabulary (see kvocab.h). */
#include <string.h>

#include "kvocab.h"
#include "reader/reader.h" /* fields read in place */

/* Per kind: event names, then per slot the field names to try, in order. */
struct kind_def {
	enum kev kind;
	const char *events[4];
	const char *slots[KSLOTS][3];
};

static const struct kind_def defs[] = {
    {KEV_SCHED_SWITCH,
     {"sched_switch"},
     {{"prev_comm"},
      {"prev_tid", "prev_pid"},
      {"prev_prio"},
      {"prev_state"},
      {"next_comm"},
      {"next_tid", "next_pid"},
      {"next_prio"}}},
    {KEV_SCHED_WAKEUP,
     {"sched_wakeup", "sched_wakeup_new"},
     {{"comm"}, {"tid", "pid"}, {"prio"}, {"target_cpu"}}},
    {KEV_SCHED_WAKING, {"sched_waking"}, {{"comm"}, {"tid", "pid"}, {"prio"}, {"target_cpu"}}},
    {KEV_PROCESS_FORK,
     {"sched_process_fork"},
     {{"parent_tid", "parent_pid"}, {"child_comm"}, {"child_tid", "child_pid"}, {"child_pid"}}},
    {KEV_PROCESS_EXEC, {"sched_process_exec"}, {{"filename"}, {"tid", "pid"}}},
    {KEV_PROCESS_EXIT, {"sched_process_exit"}, {{"comm"}, {"tid", "pid"}}},
    {KEV_TASK_RENAME, {"task_rename"}, {{"tid", "pid"}, {"newcomm"}}},
    {KEV_STATEDUMP,
     {"statedump_process", "lttng_statedump_process_state"},
     {{"tid"}, {"pid"}, {"ppid"}, {"name"}}},
    {KEV_IRQ_ENTRY, {"irq_handler_entry"}, {{"irq"}, {"name"}}},
    {KEV_IRQ_EXIT, {"irq_handler_exit"}, {{"irq"}, {"ret"}}},
    {KEV_SOFTIRQ_RAISE, {"softirq_raise", "irq_softirq_raise"}, {{"vec"}}},
    {KEV_SOFTIRQ_ENTRY, {"softirq_entry", "irq_softirq_entry"}, {{"vec"}}},
    {KEV_SOFTIRQ_EXIT, {"softirq_exit", "irq_softirq_exit"}, {{"vec"}}},
    {KEV_SYSCALL_ENTRY, {"sys_enter"}, {{"id"}}},
    {KEV_SYSCALL_EXIT, {"sys_exit"}, {{"ret"}, {"id"}}},
    {KEV_BLOCK_INSERT,
     {"block_rq_insert"},
     {{"dev"}, {"sector"}, {"nr_sector"}, {"bytes"}, {"rwbs"}}},
    {KEV_BLOCK_ISSUE,
     {"block_rq_issue"},
     {{"dev"}, {"sector"}, {"nr_sector"}, {"bytes"}, {"rwbs"}}},
    {KEV_BLOCK_COMPLETE,
     {"block_rq_complete"},
     {{"dev"}, {"sector"}, {"nr_sector"}, {"error", "errors"}, {"rwbs"}}},
    {KEV_BLOCK_DEVICE, {"lttng_statedump_block_device"}, {{"dev"}, {"diskname"}}},
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

/* A field in the payload, else in the contexts. */
static void find_slot(const struct spoor_event_class *ec, const char *const *names,
                      struct kclass_ref *out, int slot)
{
	static const enum spoor_scope scopes[] = {SPOOR_SCOPE_PAYLOAD, SPOOR_SCOPE_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_STREAM_EVENT_CONTEXT};
	for (int n = 0; n < 3 && names[n]; n++)
		for (int s = 0; s < 3; s++) {
			int i = spoor_event_class_field_index(ec, scopes[s], names[n]);
			if (i >= 0) {
				out->scope[slot] = (int8_t) scopes[s];
				out->idx[slot] = (int16_t) i;
				return;
			}
		}
}

static void fill(const struct spoor_event_class *ec, const struct kind_def *d,
                 struct kclass_ref *out)
{
	for (int s = 0; s < KSLOTS; s++)
		if (d->slots[s][0])
			find_slot(ec, d->slots[s], out, s);
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

static void resolve(const struct spoor_event_class *ec, struct kclass_ref *out, bool fields)
{
	const char *name = spoor_event_class_name(ec);
	*out = (struct kclass_ref){.kind = KEV_NONE};
	for (int s = 0; s < KSLOTS; s++)
		out->idx[s] = -1;
	/* a system-qualified name (two systems had the same event name): the event's own */
	const char *colon = strrchr(name, ':');
	if (colon && !strchr(name, '.'))
		name = colon + 1;
	/* per-call syscall events, most of a kernel trace's classes, first: the name carries
	 * the call (no name of defs has one of these prefixes) */
	static const struct {
		const char *prefix;
		enum kev kind;
	} calls[] = {{"sys_enter_", KEV_SYSCALL_ENTRY},
	             {"sys_exit_", KEV_SYSCALL_EXIT},
	             {"syscall_entry_", KEV_SYSCALL_ENTRY},
	             {"syscall_exit_", KEV_SYSCALL_EXIT},
	             {"compat_syscall_entry_", KEV_SYSCALL_ENTRY},
	             {"compat_syscall_exit_", KEV_SYSCALL_EXIT}};
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		const char *call = after_prefix(name, calls[i].prefix);
		if (call && *call) {
			out->kind = (uint8_t) calls[i].kind;
			out->syscall = call;
			if (fields && calls[i].kind == KEV_SYSCALL_EXIT)
				find_slot(ec, (const char *const[]){"ret", NULL, NULL}, out,
				          KS_SYSCALL_RET);
			return;
		}
	}
	for (size_t i = 0; i < sizeof(defs) / sizeof(defs[0]); i++)
		for (int e = 0; e < 4 && defs[i].events[e]; e++)
			if (!strcmp(name, defs[i].events[e])) {
				out->kind = (uint8_t) defs[i].kind;
				if (fields)
					fill(ec, &defs[i], out);
				return;
			}
}

void kvocab_resolve(const struct spoor_event_class *ec, struct kclass_ref *out)
{
	resolve(ec, out, true);
	find_places(ec, out);
}

void kvocab_kind(const struct spoor_event_class *ec, struct kclass_ref *out)
{
	resolve(ec, out, false);
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
