/* SPDX-License-Identifier: MIT */
/*
 * plugin.h: analyses as plug-ins (LTTV's modules): a shared object that `spoor analyze
 * --plugin FILE.so TRACE` (or any analysis command's --plugin) loads, which registers hooks
 * and prints a report. It runs in the same single pass as spoor's own analyses and sees
 * the same state: the task on each CPU, thread names and pids from the trace, the filters.
 *
 * A plug-in exports one symbol, `spoor_plugin` (a struct spoor_plugin), and links nothing
 * of spoor: everything it calls comes through the host's function table. Build it with
 *     cc -shared -fPIC $(pkg-config --cflags spoor) -o myplugin.so myplugin.c
 * See docs/plugins.md and examples/plugins/.
 *
 * Compatibility: both structs start with their size and ABI version and only grow at the
 * end; spoor refuses a plug-in whose abi_version it does not know.
 */
#ifndef SPOOR_PLUGIN_H
#define SPOOR_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SPOOR_PLUGIN_ABI 1

/* Kinds of kernel events, whatever wrote the trace (ftrace/spoor or LTTng names). */
enum spoor_kind {
	SPOOR_KIND_NONE,
	SPOOR_KIND_SCHED_SWITCH,   /* slots: 0 prev_comm 1 prev_tid 2 prev_prio 3 prev_state
	                              4 next_comm 5 next_tid 6 next_prio */
	SPOOR_KIND_SCHED_WAKEUP,   /* 0 comm 1 tid 2 prio 3 target_cpu */
	SPOOR_KIND_SCHED_WAKING,   /* same */
	SPOOR_KIND_PROCESS_FORK,   /* 0 parent_tid 1 child_comm 2 child_tid 3 child_pid */
	SPOOR_KIND_PROCESS_EXEC,   /* 0 filename 1 tid */
	SPOOR_KIND_PROCESS_EXIT,   /* 0 comm 1 tid */
	SPOOR_KIND_TASK_RENAME,    /* 0 tid 1 newcomm */
	SPOOR_KIND_STATEDUMP,      /* 0 tid 1 pid 2 ppid 3 name */
	SPOOR_KIND_IRQ_ENTRY,      /* 0 irq 1 name */
	SPOOR_KIND_IRQ_EXIT,       /* 0 irq 1 ret */
	SPOOR_KIND_SOFTIRQ_RAISE,  /* 0 vec */
	SPOOR_KIND_SOFTIRQ_ENTRY,  /* 0 vec */
	SPOOR_KIND_SOFTIRQ_EXIT,   /* 0 vec */
	SPOOR_KIND_SYSCALL_ENTRY,  /* 0 id (raw events only); the call: event.syscall */
	SPOOR_KIND_SYSCALL_EXIT,   /* 0 ret 1 id (raw events only) */
	SPOOR_KIND_BLOCK_INSERT,   /* 0 dev 1 sector 2 nr_sector 3 bytes 4 rwbs */
	SPOOR_KIND_BLOCK_ISSUE,    /* same */
	SPOOR_KIND_BLOCK_COMPLETE, /* 0 dev 1 sector 2 nr_sector 3 error 4 rwbs */
	SPOOR_KIND_BLOCK_DEVICE,   /* 0 dev 1 diskname (LTTng's state dump) */
	SPOOR_KIND_COUNT
};

struct spoor_plugin_event {
	const struct spoor_event *event; /* the reader's event: trace.h's calls apply */
	int kind;                        /* enum spoor_kind */
	int64_t ts;                      /* ns from the clock origin */
	int64_t cpu;                     /* -1: unknown */
	int64_t tid;                     /* the task it happened in, -1: unknown */
	const char *syscall;             /* SYSCALL kinds: the call's name, or NULL */
	const void *priv;                /* the host's */
};

typedef void (*spoor_plugin_hook)(void *state, const struct spoor_plugin_event *e);

struct spoor_plugin_host {
	uint32_t size; /* sizeof(struct spoor_plugin_host) of the host */
	uint32_t abi;  /* SPOOR_PLUGIN_ABI of the host */
	void *priv;
	/* Register a hook for a kind of kernel event, or for events whose name matches a
	 * shell wildcard (any trace, user-space events included). 0 or a negative errno. */
	int (*on_kind)(struct spoor_plugin_host *h, int kind, spoor_plugin_hook fn, void *state);
	int (*on_name)(struct spoor_plugin_host *h, const char *pattern, spoor_plugin_hook fn,
	               void *state);
	/* A kind's field by slot (see enum spoor_kind): false when absent. */
	bool (*slot_int)(const struct spoor_plugin_event *e, int slot, int64_t *v);
	bool (*slot_str)(const struct spoor_plugin_event *e, int slot, const char **s, size_t *len);
	/* trace.h's field access, passed through (a plug-in links nothing of spoor). */
	bool (*field)(const struct spoor_event *ev, enum spoor_scope scope, const char *name,
	              struct spoor_field *out);
	bool (*field_child)(const struct spoor_field *f, uint32_t i, struct spoor_field *out);
	const char *(*event_name)(const struct spoor_event *ev);
	/* State from the trace. */
	const char *(*task_comm)(struct spoor_plugin_host *h, int64_t tid); /* NULL: unknown */
	int64_t (*task_pid)(struct spoor_plugin_host *h, int64_t tid);
	int64_t (*cpu_task)(struct spoor_plugin_host *h, int64_t cpu);
	/* The command line's filters (--pid, --tid, --comm, --cpu). */
	bool (*task_selected)(struct spoor_plugin_host *h, int64_t tid);
	bool (*cpu_selected)(struct spoor_plugin_host *h, int64_t cpu);
	/* After the pass: the span covered (ns) and events the tracer lost. */
	void (*span)(struct spoor_plugin_host *h, int64_t *begin, int64_t *end);
	uint64_t (*events_lost)(struct spoor_plugin_host *h);
	/* trace.h's spoor_field_label: label i of an enumeration field (every label that holds
	 * the value, babeltrace2's order), NULL past the last. Absent from hosts whose size
	 * ends before it. */
	const char *(*field_label)(const struct spoor_field *f, uint32_t i);
};

struct spoor_plugin {
	uint32_t size; /* sizeof(struct spoor_plugin) of the plug-in */
	uint32_t abi;  /* SPOOR_PLUGIN_ABI it was built against */
	const char *name;
	const char *summary;
	/* Register hooks; return the plug-in's state (or NULL on failure, with a message on
	 * stderr). */
	void *(*init)(struct spoor_plugin_host *h);
	/* After the pass: print the results, text or JSON. 0, or non-zero on failure. */
	int (*report)(void *state, struct spoor_plugin_host *h, FILE *out, bool json);
	void (*fini)(void *state);
};

/* The one symbol a plug-in defines, exported even when built with -fvisibility=hidden:
 *     SPOOR_PLUGIN_EXPORT const struct spoor_plugin spoor_plugin = { ... };  */
#define SPOOR_PLUGIN_SYMBOL "spoor_plugin"
#define SPOOR_PLUGIN_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
}
#endif
#endif
