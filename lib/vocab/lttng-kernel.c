/* SPDX-License-Identifier: MIT */
/* lttng-kernel.c: the kernel event table, ftrace <-> lttng-modules 2.13 (see lttng-kernel.h). */
#include <string.h>

#include "lttng-kernel.h"

/* lttng-modules writes a task's pid (a thread id) as tid, its tgid as pid, and a
 * priority as prio - MAX_RT_PRIO (include/instrumentation/events/sched.h). */
#define PRIO(name)                                                                                 \
	{                                                                                          \
		name, name, -100, 0                                                                \
	}
static const struct vocab_field task[] = {{"pid", "tid", 0, 0}, {NULL, NULL, 0, 0}};
static const struct vocab_field task_prio[] = {
    {"pid", "tid", 0, 0}, PRIO("prio"), {NULL, NULL, 0, 0}};
static const struct vocab_field sched_switch[] = {{"prev_pid", "prev_tid", 0, 0},
                                                  PRIO("prev_prio"),
                                                  {"next_pid", "next_tid", 0, 0},
                                                  PRIO("next_prio"),
                                                  {NULL, NULL, 0, 0}};
static const struct vocab_field pi_setprio[] = {
    {"pid", "tid", 0, 0}, PRIO("oldprio"), PRIO("newprio"), {NULL, NULL, 0, 0}};
/* LTTng's parent_pid and child_pid are the tgids, which ftrace's fork does not have */
static const struct vocab_field task_fork[] = {
    {"parent_pid", "parent_tid", 0, 0}, {"child_pid", "child_tid", 0, 0}, {NULL, NULL, 0, 0}};
static const struct vocab_field exec[] = {
    {"pid", "tid", 0, 0}, {"old_pid", "old_tid", 0, 0}, {NULL, NULL, 0, 0}};
/* sched_process_exit: the kernel's group_dead, which LTTng does not write */
static const struct vocab_field task_exit[] = {
    {"pid", "tid", 0, 0}, PRIO("prio"), {"group_dead", NULL, 0, 0}, {NULL, NULL, 0, 0}};
/* a per-call event's number: LTTng's event names the call */
static const struct vocab_field per_call[] = {{"__syscall_nr", NULL, 0, 0}, {NULL, NULL, 0, 0}};
/* the calls whose arguments lttng-modules names otherwise (include/instrumentation/
 * syscalls/headers/syscalls_pointers_override.h): clone without tls, getcpu's third
 * argument, socketpair's vector (a pointer here, the two descriptors at LTTng's exit);
 * mmap's offset (its 2.8 trace) */
#define SYSCALL_NR                                                                                 \
	{                                                                                          \
		"__syscall_nr", NULL, 0, 0                                                         \
	}
static const struct vocab_field sc_clone[] = {SYSCALL_NR,
                                              {"clone_flags", "flags", 0, 0},
                                              {"parent_tidptr", "parent_tid", 0, 0},
                                              {"child_tidptr", "child_tid", 0, 0},
                                              {"tls", NULL, 0, 0},
                                              {NULL, NULL, 0, 0}};
static const struct vocab_field sc_getcpu[] = {
    SYSCALL_NR, {"unused", "tcache", 0, 0}, {NULL, NULL, 0, 0}};
static const struct vocab_field sc_mmap[] = {
    SYSCALL_NR, {"off", "offset", 0, 0}, {NULL, NULL, 0, 0}};
static const struct vocab_field sc_socketpair[] = {
    SYSCALL_NR, {"usockvec", "socket", 0, 0}, {NULL, NULL, 0, 0}};

/* block.h, for kernels >= 5.17: rwbs an integer of flags (rwbs.h), the current task's tid
 * (ftrace's common_pid) in the payload of the events that name the task, the kernel's
 * ioprio and cmd (and rq_remap's nr_bios) not written */
static const struct vocab_field block[] = {
    {"rwbs", "rwbs", 0, 1}, {"common_pid", "tid", 0, 0}, {NULL, NULL, 0, 0}};
static const char *const block_rq[] = {"dev", "sector", "nr_sector", "bytes",
                                       "tid", "rwbs",   "comm",      NULL};
static const char *const block_rq_done[] = {"dev", "sector", "nr_sector", "error", "rwbs", NULL};
static const char *const block_requeue[] = {"dev", "sector", "nr_sector", "rwbs", NULL};
static const char *const block_rq_remap[] = {"dev",        "sector", "nr_sector", "old_dev",
                                             "old_sector", "rwbs",   NULL};
static const char *const block_bio[] = {"dev", "sector", "nr_sector", "rwbs", "tid", "comm", NULL};
static const char *const block_bio_remap[] = {"dev",     "sector",     "nr_sector", "rwbs",
                                              "old_dev", "old_sector", NULL};
static const char *const block_split[] = {"dev", "sector", "rwbs", "new_sector",
                                          "tid", "comm",   NULL};
static const char *const block_plug[] = {"tid", "comm", NULL};
static const char *const block_unplug[] = {"nr_rq", "tid", "comm", NULL};

#define SAME(sys, name)                                                                            \
	{                                                                                          \
		sys, name, name, NULL, 0, NULL                                                     \
	}
#define MAP(sys, ftrace, lttng)                                                                    \
	{                                                                                          \
		sys, ftrace, lttng, NULL, 0, NULL                                                  \
	}

#define VECTOR(ftrace, lttng)                                                                      \
	MAP("irq_vectors", ftrace "_entry", "x86_irq_vectors_" lttng "_entry"),                    \
	    MAP("irq_vectors", ftrace "_exit", "x86_irq_vectors_" lttng "_exit")
#define BLOCK(name, order)                                                                         \
	{                                                                                          \
		"block", name, name, block, 0, order                                               \
	}
#define SYSCALL(name, fields)                                                                      \
	{                                                                                          \
		"syscalls", VOCAB_FTRACE_ENTRY name, VOCAB_LTTNG_ENTRY name, fields, 0, NULL       \
	}

static const struct vocab_event rows[] = {
    /* sched.h */
    {"sched", "sched_switch", "sched_switch", sched_switch, 0, NULL},
    {"sched", "sched_waking", "sched_waking", task_prio, 0, NULL},
    {"sched", "sched_wakeup", "sched_wakeup", task_prio, 0, NULL},
    {"sched", "sched_wakeup_new", "sched_wakeup_new", task_prio, 0, NULL},
    {"sched", "sched_migrate_task", "sched_migrate_task", task_prio, 0, NULL},
    {"sched", "sched_process_free", "sched_process_free", task_prio, 0, NULL},
    {"sched", "sched_process_exit", "sched_process_exit", task_exit, 0, NULL},
    {"sched", "sched_wait_task", "sched_wait_task", task_prio, 0, NULL},
    {"sched", "sched_process_wait", "sched_process_wait", task_prio, 0, NULL},
    {"sched", "sched_process_fork", "sched_process_fork", task_fork, 0, NULL},
    {"sched", "sched_process_exec", "sched_process_exec", exec, 0, NULL},
    {"sched", "sched_kthread_stop", "sched_kthread_stop", task, 0, NULL},
    SAME("sched", "sched_kthread_stop_ret"),
    {"sched", "sched_stat_wait", "sched_stat_wait", task, 0, NULL},
    {"sched", "sched_stat_sleep", "sched_stat_sleep", task, 0, NULL},
    {"sched", "sched_stat_iowait", "sched_stat_iowait", task, 0, NULL},
    {"sched", "sched_stat_blocked", "sched_stat_blocked", task, 0, NULL},
    {"sched", "sched_stat_runtime", "sched_stat_runtime", task, 0, NULL},
    {"sched", "sched_pi_setprio", "sched_pi_setprio", pi_setprio, 0, NULL},
    /* irq.h: LTTng 2.8 and later prefix the softirq events */
    SAME("irq", "irq_handler_entry"),
    SAME("irq", "irq_handler_exit"),
    MAP("irq", "softirq_entry", "irq_softirq_entry"),
    MAP("irq", "softirq_exit", "irq_softirq_exit"),
    MAP("irq", "softirq_raise", "irq_softirq_raise"),
    /* arch/x86/irq_vectors.h: an interrupt vector's handler, x86_platform_ipi as ipi */
    VECTOR("local_timer", "local_timer"),
    VECTOR("reschedule", "reschedule"),
    VECTOR("spurious_apic", "spurious_apic"),
    VECTOR("error_apic", "error_apic"),
    VECTOR("x86_platform_ipi", "ipi"),
    VECTOR("irq_work", "irq_work"),
    VECTOR("call_function", "call_function"),
    VECTOR("call_function_single", "call_function_single"),
    VECTOR("threshold_apic", "threshold_apic"),
    VECTOR("deferred_error_apic", "deferred_error_apic"),
    VECTOR("thermal_apic", "thermal_apic"),
    /* block.h */
    BLOCK("block_rq_insert", block_rq),
    BLOCK("block_rq_issue", block_rq),
    BLOCK("block_rq_merge", block_rq),
    BLOCK("block_rq_complete", block_rq_done),
    BLOCK("block_rq_requeue", block_requeue),
    BLOCK("block_rq_remap", block_rq_remap),
    BLOCK("block_bio_complete", block_rq_done),
    BLOCK("block_bio_queue", block_bio),
    BLOCK("block_bio_backmerge", block_bio),
    BLOCK("block_bio_frontmerge", block_bio),
    BLOCK("block_bio_bounce", block_bio),
    BLOCK("block_getrq", block_bio),
    BLOCK("block_bio_remap", block_bio_remap),
    BLOCK("block_split", block_split),
    BLOCK("block_plug", block_plug),
    BLOCK("block_unplug", block_unplug),
    /* timer.h */
    MAP("timer", "hrtimer_init", "timer_hrtimer_init"),
    MAP("timer", "hrtimer_start", "timer_hrtimer_start"),
    MAP("timer", "hrtimer_expire_entry", "timer_hrtimer_expire_entry"),
    MAP("timer", "hrtimer_expire_exit", "timer_hrtimer_expire_exit"),
    MAP("timer", "hrtimer_cancel", "timer_hrtimer_cancel"),
    MAP("timer", "itimer_state", "timer_itimer_state"),
    MAP("timer", "itimer_expire", "timer_itimer_expire"),
    /* power.h */
    MAP("power", "cpu_idle", "power_cpu_idle"),
    MAP("power", "cpu_frequency", "power_cpu_frequency"),
    MAP("power", "machine_suspend", "power_machine_suspend"),
    MAP("power", "wakeup_source_activate", "power_wakeup_source_activate"),
    MAP("power", "wakeup_source_deactivate", "power_wakeup_source_deactivate"),
    MAP("power", "clock_enable", "power_clock_enable"),
    MAP("power", "clock_disable", "power_clock_disable"),
    MAP("power", "clock_set_rate", "power_clock_set_rate"),
    /* printk.h */
    MAP("printk", "console", "printk_console"),
    /* kmem.h */
    MAP("kmem", "kmalloc", "kmem_kmalloc"),
    MAP("kmem", "kmalloc_node", "kmem_kmalloc_node"),
    MAP("kmem", "kfree", "kmem_kfree"),
    MAP("kmem", "mm_page_free", "kmem_mm_page_free"),
    MAP("kmem", "mm_page_free_batched", "kmem_mm_page_free_batched"),
    MAP("kmem", "mm_page_alloc", "kmem_mm_page_alloc"),
    MAP("kmem", "mm_page_alloc_zone_locked", "kmem_mm_page_alloc_zone_locked"),
    MAP("kmem", "mm_page_pcpu_drain", "kmem_mm_page_pcpu_drain"),
    MAP("kmem", "mm_page_alloc_extfrag", "kmem_mm_page_alloc_extfrag"),
    /* preemptirq.h */
    MAP("preemptirq", "irq_disable", "preemptirq_irq_disable"),
    MAP("preemptirq", "irq_enable", "preemptirq_irq_enable"),
    MAP("preemptirq", "preempt_disable", "preemptirq_preempt_disable"),
    MAP("preemptirq", "preempt_enable", "preemptirq_preempt_enable"),
    /* skb.h, net.h */
    MAP("skb", "kfree_skb", "skb_kfree"),
    MAP("skb", "consume_skb", "skb_consume"),
    MAP("net", "netif_receive_skb", "net_if_receive_skb"),
    MAP("net", "netif_rx", "net_if_rx"),
    MAP("net", "napi_gro_frags_entry", "net_napi_gro_frags_entry"),
    MAP("net", "napi_gro_receive_entry", "net_napi_gro_receive_entry"),
    MAP("net", "netif_receive_skb_entry", "net_if_receive_skb_entry"),
    MAP("net", "netif_receive_skb_list_entry", "net_if_receive_skb_list_entry"),
    MAP("net", "netif_rx_entry", "net_if_rx_entry"),
    MAP("net", "netif_rx_ni_entry", "net_if_rx_ni_entry"),
    MAP("net", "napi_gro_frags_exit", "net_napi_gro_frags_exit"),
    MAP("net", "napi_gro_receive_exit", "net_napi_gro_receive_exit"),
    MAP("net", "netif_receive_skb_exit", "net_if_receive_skb_exit"),
    MAP("net", "netif_receive_skb_list_exit", "net_if_receive_skb_list_exit"),
    MAP("net", "netif_rx_exit", "net_if_rx_exit"),
    MAP("net", "netif_rx_ni_exit", "net_if_rx_ni_exit"),
    /* mm_vmscan.h, compaction.h, writeback.h, regmap.h */
    MAP("vmscan", "mm_shrink_slab_start", "mm_vmscan_shrink_slab_start"),
    MAP("vmscan", "mm_shrink_slab_end", "mm_vmscan_shrink_slab_end"),
    MAP("compaction", "mm_compaction_isolate_freepages", "compaction_isolate_freepages"),
    MAP("compaction", "mm_compaction_isolate_migratepages", "compaction_isolate_migratepages"),
    MAP("compaction", "mm_compaction_migratepages", "compaction_migratepages"),
    MAP("writeback", "balance_dirty_pages", "writeback_balance_dirty_pages"),
    MAP("writeback", "bdi_dirty_ratelimit", "writeback_bdi_dirty_ratelimit"),
    MAP("writeback", "global_dirty_state", "writeback_global_dirty_state"),
    MAP("regmap", "regcache_sync", "regmap_regcache_sync"),
    /* spoor's own state dump of threads (its fields: tid, pid, ppid, name, as LTTng's) */
    MAP("spoor", "statedump_process", "lttng_statedump_process_state"),
    /* system calls: those whose entry's fields LTTng names otherwise, the unnamed ones
     * (raw_syscalls: id, args; id, ret, as LTTng's), then the rule (prefix rows last: an
     * exact row goes first) */
    SYSCALL("clone", sc_clone),
    SYSCALL("getcpu", sc_getcpu),
    SYSCALL("mmap", sc_mmap),
    SYSCALL("socketpair", sc_socketpair),
    MAP("raw_syscalls", "sys_enter", "syscall_entry_unknown"),
    MAP("raw_syscalls", "sys_exit", "syscall_exit_unknown"),
    {"syscalls", VOCAB_FTRACE_ENTRY, VOCAB_LTTNG_ENTRY, per_call, 1, NULL},
    {"syscalls", VOCAB_FTRACE_EXIT, VOCAB_LTTNG_EXIT, per_call, 1, NULL},
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* Whether name is row's: exactly, or a prefix row's prefix and a call's name. */
static int name_matches(const char *row_name, int prefix, const char *name)
{
	if (!prefix)
		return !strcmp(row_name, name);
	size_t n = strlen(row_name);
	return !strncmp(row_name, name, n) && name[n];
}

const struct vocab_event *vocab_by_ftrace(const char *system, const char *name)
{
	for (size_t i = 0; i < NROWS; i++)
		if ((!system || !strcmp(system, rows[i].system)) &&
		    name_matches(rows[i].ftrace, rows[i].prefix, name))
			return &rows[i];
	return NULL;
}

const struct vocab_event *vocab_by_lttng(const char *name)
{
	for (size_t i = 0; i < NROWS; i++)
		if (name_matches(rows[i].lttng, rows[i].prefix, name))
			return &rows[i];
	return NULL;
}

/* from's name in to's vocabulary: a prefix row's call name carried over */
static const char *other_name(const struct vocab_event *e, const char *from, const char *to,
                              const char *name, char *buf, size_t cap)
{
	const char *tail = e && e->prefix ? name + strlen(from) : "";
	const char *head = e ? to : name;
	size_t h = strlen(head), t = strlen(tail);
	if (h + t >= cap)
		return NULL;
	memcpy(buf, head, h);
	memcpy(buf + h, tail, t + 1);
	return buf;
}

const char *vocab_lttng_name(const struct vocab_event *e, const char *ftrace_name, char *buf,
                             size_t cap)
{
	return other_name(e, e ? e->ftrace : NULL, e ? e->lttng : NULL, ftrace_name, buf, cap);
}

const char *vocab_ftrace_name(const struct vocab_event *e, const char *lttng_name, char *buf,
                              size_t cap)
{
	return other_name(e, e ? e->lttng : NULL, e ? e->ftrace : NULL, lttng_name, buf, cap);
}

const struct vocab_field *vocab_field_by_ftrace(const struct vocab_event *e, const char *name)
{
	for (const struct vocab_field *f = e ? e->fields : NULL; f && f->ftrace; f++)
		if (!strcmp(f->ftrace, name))
			return f;
	return NULL;
}

const struct vocab_field *vocab_field_by_lttng(const struct vocab_event *e, const char *name)
{
	for (const struct vocab_field *f = e ? e->fields : NULL; f && f->ftrace; f++)
		if (f->lttng && !strcmp(f->lttng, name))
			return f;
	return NULL;
}

const char *vocab_field_lttng(const struct vocab_event *e, const char *ftrace_name)
{
	const struct vocab_field *f = vocab_field_by_ftrace(e, ftrace_name);
	return f ? f->lttng : ftrace_name;
}

const char *vocab_field_ftrace(const struct vocab_event *e, const char *lttng_name)
{
	const struct vocab_field *f = vocab_field_by_lttng(e, lttng_name);
	return f ? f->ftrace : lttng_name;
}

const struct vocab_event *vocab_rows(size_t *n)
{
	*n = NROWS;
	return rows;
}
