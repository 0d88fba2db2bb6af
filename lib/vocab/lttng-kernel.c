/* SPDX-License-Identifier: MIT */
/* lttng-kernel.c: the kernel event table, ftrace <-> lttng-modules 2.13 (see lttng-kernel.h). */
#include <string.h>

#include "lttng-kernel.h"

/* lttng-modules writes a task's pid (a thread id) as tid, its tgid as pid, and a
 * priority as prio - MAX_RT_PRIO (include/instrumentation/events/sched.h). */
#define PRIO(name)                                                                                 \
	{                                                                                          \
		name, name, -100                                                                   \
	}
static const struct vocab_field task[] = {{"pid", "tid", 0}, {NULL, NULL, 0}};
static const struct vocab_field task_prio[] = {{"pid", "tid", 0}, PRIO("prio"), {NULL, NULL, 0}};
static const struct vocab_field sched_switch[] = {{"prev_pid", "prev_tid", 0},
                                                  PRIO("prev_prio"),
                                                  {"next_pid", "next_tid", 0},
                                                  PRIO("next_prio"),
                                                  {NULL, NULL, 0}};
static const struct vocab_field pi_setprio[] = {
    {"pid", "tid", 0}, PRIO("oldprio"), PRIO("newprio"), {NULL, NULL, 0}};
/* LTTng's parent_pid and child_pid are the tgids, which ftrace's fork does not have */
static const struct vocab_field task_fork[] = {
    {"parent_pid", "parent_tid", 0}, {"child_pid", "child_tid", 0}, {NULL, NULL, 0}};
static const struct vocab_field exec[] = {
    {"pid", "tid", 0}, {"old_pid", "old_tid", 0}, {NULL, NULL, 0}};
/* a per-call event's number: LTTng's event names the call */
static const struct vocab_field per_call[] = {{"__syscall_nr", NULL, 0}, {NULL, NULL, 0}};

#define SAME(sys, name)                                                                            \
	{                                                                                          \
		sys, name, name, NULL, 0                                                           \
	}
#define MAP(sys, ftrace, lttng)                                                                    \
	{                                                                                          \
		sys, ftrace, lttng, NULL, 0                                                        \
	}

static const struct vocab_event rows[] = {
    /* sched.h */
    {"sched", "sched_switch", "sched_switch", sched_switch, 0},
    {"sched", "sched_waking", "sched_waking", task_prio, 0},
    {"sched", "sched_wakeup", "sched_wakeup", task_prio, 0},
    {"sched", "sched_wakeup_new", "sched_wakeup_new", task_prio, 0},
    {"sched", "sched_migrate_task", "sched_migrate_task", task_prio, 0},
    {"sched", "sched_process_free", "sched_process_free", task_prio, 0},
    {"sched", "sched_process_exit", "sched_process_exit", task_prio, 0},
    {"sched", "sched_wait_task", "sched_wait_task", task_prio, 0},
    {"sched", "sched_process_wait", "sched_process_wait", task_prio, 0},
    {"sched", "sched_process_fork", "sched_process_fork", task_fork, 0},
    {"sched", "sched_process_exec", "sched_process_exec", exec, 0},
    {"sched", "sched_kthread_stop", "sched_kthread_stop", task, 0},
    SAME("sched", "sched_kthread_stop_ret"),
    {"sched", "sched_stat_wait", "sched_stat_wait", task, 0},
    {"sched", "sched_stat_sleep", "sched_stat_sleep", task, 0},
    {"sched", "sched_stat_iowait", "sched_stat_iowait", task, 0},
    {"sched", "sched_stat_blocked", "sched_stat_blocked", task, 0},
    {"sched", "sched_stat_runtime", "sched_stat_runtime", task, 0},
    {"sched", "sched_pi_setprio", "sched_pi_setprio", pi_setprio, 0},
    /* irq.h: LTTng 2.8 and later prefix the softirq events */
    SAME("irq", "irq_handler_entry"),
    SAME("irq", "irq_handler_exit"),
    MAP("irq", "softirq_entry", "irq_softirq_entry"),
    MAP("irq", "softirq_exit", "irq_softirq_exit"),
    MAP("irq", "softirq_raise", "irq_softirq_raise"),
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
    /* system calls: the unnamed ones (raw_syscalls: id, args; id, ret, as LTTng's), then
     * the rule (prefix rows last: an exact row goes first) */
    MAP("raw_syscalls", "sys_enter", "syscall_entry_unknown"),
    MAP("raw_syscalls", "sys_exit", "syscall_exit_unknown"),
    {"syscalls", VOCAB_FTRACE_ENTRY, VOCAB_LTTNG_ENTRY, per_call, 1},
    {"syscalls", VOCAB_FTRACE_EXIT, VOCAB_LTTNG_EXIT, per_call, 1},
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
