/* SPDX-License-Identifier: MIT */
/* test-vocab.c: lib/vocab's kernel event table, ftrace <-> lttng-modules 2.13, both ways. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "vocab/lttng-kernel.h"
#include "vocab/rwbs.h"

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

	/* the calls whose arguments LTTng names otherwise (its syscalls_pointers_override.h) */
	const struct vocab_event *clone = vocab_by_ftrace("syscalls", "sys_enter_clone");
	CHECK(clone && clone != enter && vocab_by_lttng("syscall_entry_clone") == clone);
	CHECK_STR(vocab_field_lttng(clone, "clone_flags"), "flags");
	CHECK_STR(vocab_field_lttng(clone, "child_tidptr"), "child_tid");
	CHECK(vocab_field_lttng(clone, "tls") == NULL);
	CHECK(vocab_field_lttng(clone, "__syscall_nr") == NULL);
	CHECK_STR(vocab_field_lttng(vocab_by_ftrace(NULL, "sys_enter_mmap"), "off"), "offset");
	CHECK_STR(vocab_field_lttng(vocab_by_ftrace(NULL, "sys_enter_getcpu"), "unused"), "tcache");
	CHECK(vocab_by_ftrace("syscalls", "sys_exit_clone") == exit); /* the rule's */

	/* x86's interrupt vectors, under arch/x86/irq_vectors.h's names */
	CHECK_STR(vocab_by_ftrace("irq_vectors", "local_timer_entry")->lttng,
	          "x86_irq_vectors_local_timer_entry");
	CHECK_STR(vocab_by_lttng("x86_irq_vectors_ipi_exit")->ftrace, "x86_platform_ipi_exit");

	/* block requests: LTTng's fields in its order, the task's tid from common_pid, rwbs
	 * as flags */
	const struct vocab_event *issue = vocab_by_ftrace("block", "block_rq_issue");
	CHECK(issue && issue->order && !strcmp(issue->order[4], "tid"));
	CHECK_STR(vocab_field_ftrace(issue, "tid"), "common_pid");
	CHECK(vocab_field_by_ftrace(issue, "rwbs")->rwbs);
	CHECK(vocab_field_by_ftrace(issue, "ioprio") == NULL);
	const char *const *o = issue->order;
	size_t n = 0;
	while (o[n])
		n++;
	CHECK_EQ_U64(n, 7); /* dev sector nr_sector bytes tid rwbs comm */

	/* events without a row keep their names; a name that does not fit is refused */
	CHECK(vocab_by_ftrace("block", "block_io_start") == NULL);
	CHECK_STR(vocab_lttng_name(NULL, "block_io_start", buf, sizeof(buf)), "block_io_start");
	CHECK_STR(vocab_field_lttng(NULL, "rwbs"), "rwbs");
	CHECK(vocab_lttng_name(enter, "sys_enter_openat", buf, 8) == NULL);
	CHECK(vocab_by_ftrace("timer", "sched_switch") == NULL); /* another system's */
}

/* The kernel's rwbs text (blk_fill_rwbs) as lttng-modules 2.13's flags (block.h's
 * blk_rwbs_ctf_integer): the operation's flag, its modifiers' */
static void test_rwbs(void)
{
	static const struct {
		const char *text;
		uint32_t flags;
	} cases[] = {
	    {"R", VOCAB_RWBS_READ},
	    {"RA", VOCAB_RWBS_READ | VOCAB_RWBS_RAHEAD},
	    {"RM", VOCAB_RWBS_READ | VOCAB_RWBS_META},
	    {"W", VOCAB_RWBS_WRITE},
	    {"WS", VOCAB_RWBS_WRITE | VOCAB_RWBS_SYNC},
	    {"WSM", VOCAB_RWBS_WRITE | VOCAB_RWBS_SYNC | VOCAB_RWBS_META},
	    /* F before the operation: a preflush; after it: FUA */
	    {"FWS", VOCAB_RWBS_PREFLUSH | VOCAB_RWBS_WRITE | VOCAB_RWBS_SYNC},
	    {"WFS", VOCAB_RWBS_WRITE | VOCAB_RWBS_FUA | VOCAB_RWBS_SYNC},
	    {"FWFS", VOCAB_RWBS_PREFLUSH | VOCAB_RWBS_WRITE | VOCAB_RWBS_FUA | VOCAB_RWBS_SYNC},
	    /* a flush: alone, or the block layer's (REQ_OP_FLUSH | REQ_PREFLUSH) */
	    {"F", VOCAB_RWBS_FLUSH},
	    {"FF", VOCAB_RWBS_PREFLUSH | VOCAB_RWBS_FLUSH},
	    {"FS", VOCAB_RWBS_FLUSH | VOCAB_RWBS_SYNC},
	    {"D", VOCAB_RWBS_DISCARD},
	    {"DE", VOCAB_RWBS_DISCARD | VOCAB_RWBS_SECURE},
	    /* operations LTTng has no flag for: none, but their modifiers' */
	    {"N", 0},
	    {"ZA", 0},
	    {"ZRA", 0},
	    {"ZRS", VOCAB_RWBS_SYNC},
	    {"WZ", 0},
	    {"WU", VOCAB_RWBS_WRITE},
	    {"", 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_CTX("%s", cases[i].text);
		CHECK_EQ_U64(vocab_rwbs_flags(cases[i].text, 10), cases[i].flags);
	}
	CHECK_CTX(" ");
	/* the kernel's char[10]: no NUL needed, nothing read past it */
	char full[4] = {'W', 'S', 'M', 'A'};
	CHECK_EQ_U64(vocab_rwbs_flags(full, 2), VOCAB_RWBS_WRITE | VOCAB_RWBS_SYNC);
	CHECK_EQ_U64(vocab_rwbs_flags(full, 4),
	             VOCAB_RWBS_WRITE | VOCAB_RWBS_SYNC | VOCAB_RWBS_META | VOCAB_RWBS_RAHEAD);
	CHECK_EQ_U64(vocab_rwbs_flags("F", 0), 0);
	/* lttng-modules' values, which Trace Compass's IoOperationType reads */
	CHECK_EQ_U64(VOCAB_RWBS_WRITE | VOCAB_RWBS_READ | VOCAB_RWBS_RAHEAD, 0xd);
	CHECK_EQ_U64(VOCAB_RWBS_FLUSH | VOCAB_RWBS_PREFLUSH, 0x500);
}

int main(void)
{
	test_round_trip();
	test_facts();
	test_rwbs();
	return check_done();
}
