/* SPDX-License-Identifier: MIT */
/* test-vocab.c: lib/vocab's kernel event table, ftrace <-> lttng-modules 2.13, both ways. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "vocab/lttng-kernel.h"

/* Every row found by either of its names, and its names read back through the other. */
static void test_round_trip(void)
{
	size_t n;
	const struct vocab_event *rows = vocab_rows(&n);
	CHECK(n > 60);
	for (size_t i = 0; i < n; i++) {
		const struct vocab_event *e = &rows[i];
		CHECK_CTX("%s:%s", e->system, e->ftrace);
		char name[128], lt[128], back[128];
		snprintf(name, sizeof(name), "%s%s", e->ftrace, e->prefix ? "openat" : "");
		CHECK(vocab_by_ftrace(e->system, name) == e);
		CHECK(vocab_by_ftrace(NULL, name) == e);
		CHECK(vocab_lttng_name(e, name, lt, sizeof(lt)) == lt);
		CHECK(vocab_by_lttng(lt) == e);
		CHECK_STR(vocab_ftrace_name(e, lt, back, sizeof(back)), name);
		for (const struct vocab_field *f = e->fields; f && f->ftrace; f++) {
			CHECK(vocab_field_by_ftrace(e, f->ftrace) == f);
			if (f->lttng)
				CHECK_STR(vocab_field_ftrace(e, vocab_field_lttng(e, f->ftrace)),
				          f->ftrace);
		}
		/* no two rows share a name in either vocabulary */
		for (size_t j = i + 1; j < n; j++) {
			CHECK(strcmp(e->lttng, rows[j].lttng) || e->prefix != rows[j].prefix);
			CHECK(strcmp(e->ftrace, rows[j].ftrace) ||
			      strcmp(e->system, rows[j].system));
		}
	}
	CHECK_CTX(" ");
}

/* The facts the analyses and Trace Compass depend on, as lttng-modules 2.13 writes them. */
static void test_facts(void)
{
	char buf[64];
	const struct vocab_event *sw = vocab_by_ftrace("sched", "sched_switch");
	CHECK_STR(vocab_field_lttng(sw, "prev_pid"), "prev_tid");
	CHECK_STR(vocab_field_lttng(sw, "next_pid"), "next_tid");
	CHECK_STR(vocab_field_lttng(sw, "prev_comm"), "prev_comm");
	CHECK_EQ_S64(vocab_field_by_ftrace(sw, "next_prio")->delta, -100);
	CHECK(vocab_field_by_ftrace(sw, "prev_state") == NULL);
	CHECK_STR(vocab_field_ftrace(vocab_by_lttng("sched_wakeup"), "tid"), "pid");
	const struct vocab_event *fork = vocab_by_lttng("sched_process_fork");
	CHECK_STR(vocab_field_lttng(fork, "child_pid"), "child_tid");
	CHECK_STR(vocab_field_lttng(fork, "parent_pid"), "parent_tid");

	const struct vocab_event *soft = vocab_by_lttng("irq_softirq_entry");
	CHECK(soft && !strcmp(soft->system, "irq") && !strcmp(soft->ftrace, "softirq_entry"));
	CHECK(vocab_by_lttng("softirq_entry") == NULL); /* LTTng before 2.8's name */
	CHECK_STR(
	    vocab_lttng_name(vocab_by_ftrace("power", "cpu_idle"), "cpu_idle", buf, sizeof(buf)),
	    "power_cpu_idle");

	/* system calls: the rule, the unnamed ones, and __syscall_nr left out */
	const struct vocab_event *enter = vocab_by_ftrace("syscalls", "sys_enter_openat");
	CHECK_STR(vocab_lttng_name(enter, "sys_enter_openat", buf, sizeof(buf)),
	          "syscall_entry_openat");
	CHECK(vocab_field_lttng(enter, "__syscall_nr") == NULL);
	CHECK_STR(vocab_field_lttng(enter, "filename"), "filename");
	const struct vocab_event *exit = vocab_by_lttng("syscall_exit_exit_group");
	CHECK_STR(vocab_ftrace_name(exit, "syscall_exit_exit_group", buf, sizeof(buf)),
	          "sys_exit_exit_group");
	CHECK_STR(vocab_by_lttng("syscall_entry_unknown")->ftrace, "sys_enter");
	CHECK_STR(vocab_by_ftrace("raw_syscalls", "sys_exit")->lttng, "syscall_exit_unknown");
	CHECK(vocab_by_ftrace("syscalls", "sys_enter_") == NULL); /* a prefix alone: no call */
	CHECK(vocab_by_lttng("compat_syscall_entry_openat") == NULL);

	/* events without a row keep their names; a name that does not fit is refused */
	CHECK(vocab_by_ftrace("block", "block_rq_issue") == NULL);
	CHECK_STR(vocab_lttng_name(NULL, "block_rq_issue", buf, sizeof(buf)), "block_rq_issue");
	CHECK_STR(vocab_field_lttng(NULL, "rwbs"), "rwbs");
	CHECK(vocab_lttng_name(enter, "sys_enter_openat", buf, 8) == NULL);
	CHECK(vocab_by_ftrace("timer", "sched_switch") == NULL); /* another system's */
}

int main(void)
{
	test_round_trip();
	test_facts();
	return check_done();
}
