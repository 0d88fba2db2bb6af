/* SPDX-License-Identifier: MIT */
/*
 * fuzz-analyses.c: libFuzzer target for the kernel analyses (lib/analysis: the engine with
 * `spoor irq`, `sched`, `syscalls` and `disk` together, over the thread model).
 *
 * The metadata is fixed (below, an LTTng kernel trace as lttng-modules 2.8 writes it: the
 * compact and large event headers, LTTng's packet context with cpu_id and events_discarded,
 * and the events the analyses hook, with lttng-modules' field names and types). Stream
 * class 0 has no event context (the engine follows sched_switch to know the running task);
 * stream class 1 has the large header and a `tid` and `pid` context (lttng add-context).
 * The fuzz input is the one stream file of that trace, written to a per-process temporary
 * directory (the same path for every input), and analysed twice:
 *
 *   1. with no filter: the four analyses on one engine (sched with 3 worst latencies and
 *      its timeline callback; syscalls per process), plus hooks by name (as a plug-in's)
 *      on classes the analyses hook by kind, and a loss callback, run to the end;
 *      The timeline's states (lib/timeline/states.h) too: every row's spans in time order,
 *      contiguous, not empty, inside the span (a CPU's from its start), marks and events
 *      inside it;
 *   2. with every filter: a time range (the first run's span less its first quarter and
 *      last sixteenth), tids (the thread with the most CPU time in run 1, and tid 1), a pid,
 *      names, CPUs; irq's all-CPU lines, syscalls per thread and of some calls only.
 *
 * After each run every report is read as the commands read it (every row and figure, summed
 * into a volatile) and invariants the code guarantees whatever the input are checked (an
 * abort says which): ordered and unique rows, min <= max where a count is positive, a
 * histogram that adds up to its count, the syscalls totals against the per-call counts, the
 * sched per-process sums against the per-thread ones, the losses every analysis heard of.
 * Times may jump anywhere in a damaged stream, but the engine hands the hooks (and the loss
 * callbacks) times that never go back and stay within 2^62 ns of 0: no duration is
 * negative, and sums of them stop at INT64_MAX.
 *
 * The seeds in corpus/analyses/ are written by make-analysis-seeds.py, which reads the
 * metadata from this file (between the BEGIN/END METADATA markers): keep both in step.
 * SPOOR_FUZZ_VERBOSE=1 prints each run's figures to stderr.
 *
 * The fuzz build links with -Wl,--wrap=mapfile_open,--wrap=mapfile_close (see meson.build
 * and fuzz-trace-dir.h): the stream file is held in a malloc'd buffer of exactly its size,
 * so that AddressSanitizer sees any read past its end.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/disk.h"
#include "analysis/engine.h"
#include "analysis/irq.h"
#include "analysis/sched.h"
#include "analysis/idmap.h"
#include "analysis/syscalls.h"
#include "spoor/trace.h"
#include "timeline/states.h"

#define FUZZ_NAME "fuzz-analyses"
#include "fuzz-trace-dir.h"

/* BEGIN METADATA */
static const char metadata_text[] =
    "/* CTF 1.8 */\n"
    "\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
    "typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n"
    "typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
    "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
    "typealias integer { size = 8; align = 8; signed = false; encoding = UTF8; } := utf8_t;\n"
    "\n"
    "trace {\n"
    "\tmajor = 1;\n"
    "\tminor = 8;\n"
    "\tuuid = \"69861fba-fe44-2b41-b75b-39acaf6930ec\";\n"
    "\tbyte_order = le;\n"
    "\tpacket.header := struct {\n"
    "\t\tuint32_t magic;\n"
    "\t\tuint8_t  uuid[16];\n"
    "\t\tuint32_t stream_id;\n"
    "\t\tuint64_t stream_instance_id;\n"
    "\t};\n"
    "};\n"
    "\n"
    "env {\n"
    "\thostname = \"fuzz-host\";\n"
    "\tdomain = \"kernel\";\n"
    "\tsysname = \"Linux\";\n"
    "\tkernel_release = \"4.4.3-1-ARCH\";\n"
    "\ttracer_name = \"lttng-modules\";\n"
    "\ttracer_major = 2;\n"
    "\ttracer_minor = 8;\n"
    "};\n"
    "\n"
    "clock {\n"
    "\tname = \"monotonic\";\n"
    "\tuuid = \"e0ff1bac-aa1d-451d-a8c1-10cb8d315d45\";\n"
    "\tdescription = \"Monotonic Clock\";\n"
    "\tfreq = 1000000000;\n"
    "\toffset = 1457111225177515989;\n"
    "};\n"
    "\n"
    "typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; "
    "} := uint27_clock_monotonic_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; map = clock.monotonic.value; "
    "} := uint32_clock_monotonic_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; "
    "} := uint64_clock_monotonic_t;\n"
    "\n"
    "struct packet_context {\n"
    "\tuint64_clock_monotonic_t timestamp_begin;\n"
    "\tuint64_clock_monotonic_t timestamp_end;\n"
    "\tuint64_t content_size;\n"
    "\tuint64_t packet_size;\n"
    "\tuint64_t packet_seq_num;\n"
    "\tunsigned long events_discarded;\n"
    "\tuint32_t cpu_id;\n"
    "};\n"
    "\n"
    "struct event_header_compact {\n"
    "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
    "\tvariant <id> {\n"
    "\t\tstruct { uint27_clock_monotonic_t timestamp; } compact;\n"
    "\t\tstruct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;\n"
    "\t} v;\n"
    "} align(8);\n"
    "\n"
    "struct event_header_large {\n"
    "\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
    "\tvariant <id> {\n"
    "\t\tstruct { uint32_clock_monotonic_t timestamp; } compact;\n"
    "\t\tstruct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;\n"
    "\t} v;\n"
    "} align(8);\n"
    "\n"
    "stream {\n"
    "\tid = 0;\n"
    "\tevent.header := struct event_header_compact;\n"
    "\tpacket.context := struct packet_context;\n"
    "};\n"
    "\n"
    "stream {\n"
    "\tid = 1;\n"
    "\tevent.header := struct event_header_large;\n"
    "\tpacket.context := struct packet_context;\n"
    "\tevent.context := struct { int32_t _tid; int32_t _pid; };\n"
    "};\n"
    "\n"
    "event {\n\tname = \"sched_switch\";\n\tid = 0;\n\tstream_id = 0;\n"
    "\tfields := struct { utf8_t _prev_comm[16]; int32_t _prev_tid; int32_t _prev_prio; "
    "int64_t _prev_state; utf8_t _next_comm[16]; int32_t _next_tid; int32_t _next_prio; };\n"
    "};\n"
    "event {\n\tname = \"sched_wakeup\";\n\tid = 1;\n\tstream_id = 0;\n"
    "\tfields := struct { utf8_t _comm[16]; int32_t _tid; int32_t _prio; "
    "int32_t _target_cpu; };\n"
    "};\n"
    "event {\n\tname = \"sched_waking\";\n\tid = 2;\n\tstream_id = 0;\n"
    "\tfields := struct { utf8_t _comm[16]; int32_t _tid; int32_t _prio; "
    "int32_t _target_cpu; };\n"
    "};\n"
    "event {\n\tname = \"sched_wakeup_new\";\n\tid = 3;\n\tstream_id = 0;\n"
    "\tfields := struct { utf8_t _comm[16]; int32_t _tid; int32_t _prio; "
    "int32_t _target_cpu; };\n"
    "};\n"
    "event {\n\tname = \"sched_process_fork\";\n\tid = 4;\n\tstream_id = 0;\n"
    "\tfields := struct { utf8_t _parent_comm[16]; int32_t _parent_tid; int32_t _parent_pid; "
    "uint32_t _parent_ns_inum; utf8_t _child_comm[16]; int32_t _child_tid; "
    "uint8_t __vtids_length; int32_t _vtids[__vtids_length]; int32_t _child_pid; "
    "uint32_t _child_ns_inum; };\n"
    "};\n"
    "event {\n\tname = \"sched_process_exec\";\n\tid = 5;\n\tstream_id = 0;\n"
    "\tfields := struct { string _filename; int32_t _tid; int32_t _old_tid; };\n"
    "};\n"
    "event {\n\tname = \"sched_process_exit\";\n\tid = 6;\n\tstream_id = 0;\n"
    "\tfields := struct { utf8_t _comm[16]; int32_t _tid; int32_t _prio; };\n"
    "};\n"
    "event {\n\tname = \"sched_process_free\";\n\tid = 7;\n\tstream_id = 0;\n"
    "\tfields := struct { utf8_t _comm[16]; int32_t _tid; int32_t _prio; };\n"
    "};\n"
    "event {\n\tname = \"lttng_statedump_process_state\";\n\tid = 8;\n\tstream_id = 0;\n"
    "\tfields := struct { int32_t _tid; int32_t _vtid; int32_t _pid; int32_t _vpid; "
    "int32_t _ppid; int32_t _vppid; utf8_t _name[16]; int32_t _type; int32_t _mode; "
    "int32_t _submode; int32_t _status; };\n"
    "};\n"
    "event {\n\tname = \"irq_handler_entry\";\n\tid = 9;\n\tstream_id = 0;\n"
    "\tfields := struct { int32_t _irq; string _name; };\n"
    "};\n"
    "event {\n\tname = \"irq_handler_exit\";\n\tid = 10;\n\tstream_id = 0;\n"
    "\tfields := struct { int32_t _irq; int32_t _ret; };\n"
    "};\n"
    "event {\n\tname = \"irq_softirq_entry\";\n\tid = 11;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t _vec; };\n"
    "};\n"
    "event {\n\tname = \"irq_softirq_exit\";\n\tid = 12;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t _vec; };\n"
    "};\n"
    "event {\n\tname = \"irq_softirq_raise\";\n\tid = 13;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t _vec; };\n"
    "};\n"
    "event {\n\tname = \"block_rq_insert\";\n\tid = 14;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t _dev; uint64_t _sector; uint32_t _nr_sector; "
    "uint32_t _bytes; int32_t _tid; uint32_t _rwbs; utf8_t _comm[16]; };\n"
    "};\n"
    "event {\n\tname = \"block_rq_issue\";\n\tid = 15;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t _dev; uint64_t _sector; uint32_t _nr_sector; "
    "uint32_t _bytes; int32_t _tid; uint32_t _rwbs; utf8_t _comm[16]; };\n"
    "};\n"
    "event {\n\tname = \"block_rq_complete\";\n\tid = 16;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t _dev; uint64_t _sector; uint32_t _nr_sector; "
    "int32_t _error; uint32_t _rwbs; };\n"
    "};\n"
    "event {\n\tname = \"lttng_statedump_block_device\";\n\tid = 17;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t _dev; string _diskname; };\n"
    "};\n"
    "event {\n\tname = \"syscall_entry_read\";\n\tid = 18;\n\tstream_id = 0;\n"
    "\tfields := struct { uint32_t _fd; uint64_t _count; };\n"
    "};\n"
    "event {\n\tname = \"syscall_exit_read\";\n\tid = 19;\n\tstream_id = 0;\n"
    "\tfields := struct { int64_t _ret; uint64_t _buf; };\n"
    "};\n"
    "event {\n\tname = \"syscall_entry_exit_group\";\n\tid = 20;\n\tstream_id = 0;\n"
    "\tfields := struct { int32_t _error_code; };\n"
    "};\n"
    "event {\n\tname = \"syscall_entry_clone\";\n\tid = 21;\n\tstream_id = 0;\n"
    "\tfields := struct { uint64_t _clone_flags; uint64_t _newsp; };\n"
    "};\n"
    "event {\n\tname = \"syscall_exit_clone\";\n\tid = 22;\n\tstream_id = 0;\n"
    "\tfields := struct { int64_t _ret; };\n"
    "};\n"
    "event {\n\tname = \"syscall_entry_unknown\";\n\tid = 40;\n\tstream_id = 0;\n"
    "\tfields := struct { int32_t _id; uint64_t _args[6]; };\n"
    "};\n"
    "event {\n\tname = \"syscall_exit_unknown\";\n\tid = 41;\n\tstream_id = 0;\n"
    "\tfields := struct { int32_t _id; int64_t _ret; uint64_t _args[6]; };\n"
    "};\n"
    "event {\n\tname = \"sched_switch\";\n\tid = 0;\n\tstream_id = 1;\n"
    "\tfields := struct { utf8_t _prev_comm[16]; int32_t _prev_tid; int32_t _prev_prio; "
    "int64_t _prev_state; utf8_t _next_comm[16]; int32_t _next_tid; int32_t _next_prio; };\n"
    "};\n"
    "event {\n\tname = \"syscall_entry_read\";\n\tid = 1;\n\tstream_id = 1;\n"
    "\tfields := struct { uint32_t _fd; uint64_t _count; };\n"
    "};\n"
    "event {\n\tname = \"syscall_exit_read\";\n\tid = 2;\n\tstream_id = 1;\n"
    "\tfields := struct { int64_t _ret; uint64_t _buf; };\n"
    "};\n"
    "event {\n\tname = \"irq_handler_entry\";\n\tid = 3;\n\tstream_id = 1;\n"
    "\tfields := struct { int32_t _irq; string _name; };\n"
    "};\n"
    "event {\n\tname = \"irq_handler_exit\";\n\tid = 4;\n\tstream_id = 1;\n"
    "\tfields := struct { int32_t _irq; int32_t _ret; };\n"
    "};\n";
/* END METADATA */

/* ---- set-up, once per process ---- */

static bool verbose;
static volatile uint64_t sink;

/* An invariant the analyses guarantee whatever the input. */
#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, FUZZ_NAME ":%d: does not hold: %s\n", __LINE__, #cond);    \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void) argc;
	(void) argv;
	verbose = getenv("SPOOR_FUZZ_VERBOSE") && *getenv("SPOOR_FUZZ_VERBOSE") == '1';
	trace_dir_init(metadata_text, sizeof(metadata_text) - 1);
	return 0;
}

/* ---- the checks of each report ---- */

static void check_welford(const struct welford *w)
{
	if (w->n) {
		CHECK(w->min <= w->max);
		sink += (uint64_t) (welford_stddev(w) >= 0) + (uint64_t) (w->mean != w->mean);
	}
	sink += w->n + (uint64_t) (w->sum != 0);
}

static void check_exactstat(const struct exactstat *s)
{
	if (s->n) {
		CHECK(s->min <= s->max);
		CHECK(s->sum >= (unsigned __int128) s->min * s->n);
		double sd = exactstat_stddev(s), mean = exactstat_mean(s);
		CHECK(sd >= 0 && !isnan(sd));
		sink += (uint64_t) mean + (uint64_t) exactstat_sum(s);
	}
	sink += s->n;
}

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static void check_irq(struct irq_analysis *a, bool all_cpus)
{
	const struct irq_line *l;
	size_t n = irq_analysis_lines(a, &l);
	const struct irq_totals *t = irq_analysis_totals(a);

	for (size_t i = 0; i < n; i++) {
		CHECK(all_cpus ? l[i].cpu == -1 : l[i].cpu >= 0);
		CHECK(terminated(l[i].name, sizeof(l[i].name)));
		/* sorted by kind, CPU, number; one line each */
		if (i)
			CHECK(l[i - 1].soft < l[i].soft ||
			      (l[i - 1].soft == l[i].soft &&
			       (l[i - 1].cpu < l[i].cpu ||
			        (l[i - 1].cpu == l[i].cpu && l[i - 1].irq < l[i].irq))));
		check_welford(&l[i].duration);
		check_welford(&l[i].period);
		check_welford(&l[i].freq);
		CHECK(l[i].period.n == l[i].freq.n);
		CHECK(!l[i].duration.n || l[i].duration.min >= 0);
		CHECK(!l[i].period.n || l[i].period.min > 0); /* between distinct entries */
		uint64_t hist = 0;
		for (int b = 0; b < IRQ_HIST_BUCKETS; b++)
			hist += l[i].hist[b];
		CHECK(hist == l[i].duration.n);
		sink += strlen(l[i].name) + (uint64_t) l[i].irq;
	}
	sink += t->unmatched + t->unfinished + t->broken + irq_analysis_oom(a);
	if (verbose)
		fprintf(stderr, "irq: %zu lines, %llu unmatched, %llu unfinished, %llu broken\n", n,
		        (unsigned long long) t->unmatched, (unsigned long long) t->unfinished,
		        (unsigned long long) t->broken);
}

/* The timeline: each change is a change, in time order (sched_analysis_on_change). */
static int64_t last_change;

static void on_change(void *data, const struct sched_change *c)
{
	const struct an_engine *e = data;
	const char *comm = an_task_comm(e, c->tid);

	CHECK(c->ts >= last_change);
	last_change = c->ts;
	CHECK(c->from != c->to);
	CHECK(c->from <= SCHED_DEAD && c->to <= SCHED_DEAD);
	CHECK(c->tid > 0);
	sink += (uint64_t) c->ts + (uint64_t) c->cpu + (comm ? strlen(comm) : 0);
}

/* The timeline's spans: per row (a key: the tid, or the CPU with the top bit set) the end
 * of the last one, which the next one begins at. */
struct rows {
	struct idmap at;
	int64_t *end;
	size_t n;
	int64_t last; /* the latest time handed out */
};

static void on_span(void *data, enum tl_row_kind kind, int64_t id, const struct tl_span *s)
{
	struct rows *r = data;
	CHECK(kind == TL_ROW_THREAD ? id > 0 : kind == TL_ROW_CPU && id >= 0);
	CHECK(0 <= s->begin && s->begin < s->end && s->state < TS_COUNT);
	CHECK(kind == TL_ROW_CPU || s->state != TS_IDLE);
	uint64_t key = (uint64_t) id | (kind == TL_ROW_CPU ? (uint64_t) 1 << 63 : 0);
	uint32_t *i = idmap_find(&r->at, key);
	if (i)
		CHECK(r->end[*i] == s->begin);
	else {
		CHECK(kind == TL_ROW_THREAD || s->begin == 0); /* a CPU's row from the start */
		int64_t *v = realloc(r->end, (r->n + 1) * sizeof(*v));
		if (!v || idmap_add(&r->at, key, (uint32_t) r->n))
			die("rows");
		r->end = v;
		i = idmap_find(&r->at, key);
		r->n++;
	}
	r->end[*i] = s->end;
	if (s->end > r->last)
		r->last = s->end;
}

static void on_tl_time(struct rows *r, int64_t t)
{
	CHECK(t >= 0);
	if (t > r->last)
		r->last = t;
}

static void on_mark(void *data, int64_t tid, int64_t t, size_t class_index)
{
	on_tl_time(data, t);
	sink += (uint64_t) tid + class_index;
}

static void on_tl_event(void *data, int64_t t, size_t class_index)
{
	on_tl_time(data, t);
	sink += class_index;
}

/* Losses: at times as the hooks see them, so in the engine's range and, without a time
 * filter (whose events out of range move no hook's time), never going back. */
static int64_t last_loss;
static bool losses_ordered;

static void on_lost(void *data, int64_t cpu, uint64_t count, int64_t ts)
{
	(void) data;
	CHECK(count > 0);
	CHECK(-((int64_t) 1 << 62) <= ts && ts < ((int64_t) 1 << 62));
	CHECK(!losses_ordered || ts >= last_loss);
	last_loss = ts;
	sink += (uint64_t) cpu + count;
}

/* A hook by name (as plug-ins add them), on classes that also have the analyses' hooks by
 * kind: each event once, its time never going back, within the engine's range. */
static int64_t last_named;

static void on_named(void *data, const struct an_event *ev)
{
	(void) data;
	CHECK(ev->ts >= last_named);
	CHECK(-((int64_t) 1 << 62) <= ev->ts && ev->ts < ((int64_t) 1 << 62));
	CHECK(ev->ev != NULL && ev->cls != NULL);
	last_named = ev->ts;
	sink += (uint64_t) ev->tid + ev->class_index;
}

static int64_t check_sched(struct sched_analysis *a, const struct an_engine *e, bool filtered)
{
	const struct sched_thread *t;
	const struct sched_proc *p;
	const struct sched_cpu *c;
	const struct sched_wake *w;
	size_t nt = sched_analysis_threads(a, &t), np = sched_analysis_procs(a, &p);
	size_t nc = sched_analysis_cpus(a, &c), nw = sched_analysis_worst(a, &w);
	const struct sched_totals *tot = sched_analysis_totals(a);
	unsigned __int128 thread_cpu = 0, proc_cpu = 0, busy = 0;
	uint64_t thread_sw = 0, proc_sw = 0, cpu_sw = 0, proc_threads = 0, thread_lat = 0,
	         proc_lat = 0;
	char letters[16];
	int64_t top = -1;

	for (size_t i = 0; i < nt; i++) {
		CHECK(t[i].tid > 0); /* the idle tasks are not threads */
		CHECK(t[i].cpu_ns >= 0 && t[i].wait_ns >= 0 && t[i].blocked_ns >= 0);
		if (i) /* by CPU time, then tid */
			CHECK(t[i - 1].cpu_ns > t[i].cpu_ns ||
			      (t[i - 1].cpu_ns == t[i].cpu_ns && t[i - 1].tid < t[i].tid));
		check_welford(&t[i].latency);
		thread_cpu += (uint64_t) t[i].cpu_ns;
		thread_sw += t[i].switches;
		thread_lat += t[i].latency.n;
		sink += (uint64_t) t[i].wait_ns + (uint64_t) t[i].blocked_ns;
		sink += strlen(sched_analysis_state_letters(a, t[i].prev_state, letters));
		if (top < 0)
			top = t[i].tid;
	}
	for (size_t i = 0; i < np; i++) {
		CHECK(p[i].threads >= 1 && p[i].wait_ns >= 0 && p[i].blocked_ns >= 0);
		if (i)
			CHECK(p[i - 1].cpu_ns >= p[i].cpu_ns);
		check_welford(&p[i].latency);
		proc_cpu += (uint64_t) p[i].cpu_ns;
		proc_sw += p[i].switches;
		proc_threads += p[i].threads;
		proc_lat += p[i].latency.n;
		sink += (uint64_t) p[i].pid + (uint64_t) p[i].wait_ns + (uint64_t) p[i].blocked_ns;
	}
	/* the processes are the threads grouped by pid */
	CHECK(proc_threads == nt && proc_sw == thread_sw && proc_lat == thread_lat &&
	      proc_cpu == thread_cpu);
	for (size_t i = 0; i < nc; i++) {
		if (i)
			CHECK(c[i - 1].cpu < c[i].cpu);
		CHECK(c[i].busy_ns >= 0 && c[i].idle_ns >= 0 && c[i].unknown_ns >= 0);
		busy += (uint64_t) c[i].busy_ns;
		cpu_sw += c[i].switches;
		sink += c[i].lost;
	}
	/* a thread's CPU time and switch-ins are its CPUs' busy time and switches (the
	 * idle tasks' switch-ins are no thread's); some threads are left out by filters */
	CHECK(thread_cpu <= busy && thread_sw <= cpu_sw);
	if (!filtered)
		CHECK(thread_cpu == busy);
	for (size_t i = 0; i < nw; i++) {
		CHECK(i < 3);
		CHECK(w[i].latency >= 0 && w[i].latency == w[i].run - w[i].wake);
		if (i)
			CHECK(w[i - 1].latency >= w[i].latency);
		sink += (uint64_t) w[i].wake + (uint64_t) w[i].run + (uint64_t) w[i].tid;
	}
	CHECK(tot->lost_events == an_events_lost(e));
	sink += tot->cut_intervals + tot->dropped_wakeups + tot->pending_wakeups + tot->unwoken;
	if (verbose)
		fprintf(stderr, "sched: %zu threads, %zu processes, %zu cpus, %zu worst\n", nt, np,
		        nc, nw);
	return top;
}

static void check_syscalls(struct sc_analysis *a)
{
	const struct sc_call *calls;
	const struct sc_group *groups;
	const struct sc_errno *errs;
	int rc = sc_analysis_finish(a);
	size_t nc = sc_analysis_calls(a, &calls), ng = sc_analysis_groups(a, &groups);
	size_t ne = sc_analysis_errnos(a, &errs);
	const struct sc_totals *t = sc_analysis_totals(a);
	uint64_t done = 0, errors = 0, noexit = 0, group_done = 0, errno_count = 0;

	for (size_t i = 0; i < nc; i++) {
		CHECK(terminated(calls[i].name, sizeof(calls[i].name)));
		if (i) /* by completed calls */
			CHECK(calls[i - 1].all.dur.n >= calls[i].all.dur.n);
		check_exactstat(&calls[i].all.dur);
		CHECK(calls[i].all.errors <= calls[i].all.dur.n);
		done += calls[i].all.dur.n;
		errors += calls[i].all.errors;
		noexit += calls[i].all.noexit;
	}
	for (size_t i = 0; i < ng; i++) {
		const struct sc_stat *s = sc_analysis_group_stats(a, &groups[i]);
		struct exactstat sum = {0};
		uint64_t g_errors = 0, g_noexit = 0;
		CHECK(terminated(groups[i].comm, sizeof(groups[i].comm)));
		if (i)
			CHECK(groups[i - 1].total.dur.n >= groups[i].total.dur.n);
		check_exactstat(&groups[i].total.dur);
		for (size_t k = 0; k < groups[i].n; k++) {
			CHECK(s[k].call < nc);
			if (k)
				CHECK(s[k - 1].dur.n >= s[k].dur.n);
			check_exactstat(&s[k].dur);
			exactstat_combine(&sum, &s[k].dur);
			g_errors += s[k].errors;
			g_noexit += s[k].noexit;
		}
		/* a group's total is the sum of its calls */
		CHECK(sum.n == groups[i].total.dur.n && sum.sum == groups[i].total.dur.sum);
		CHECK(g_errors == groups[i].total.errors && g_noexit == groups[i].total.noexit);
		group_done += groups[i].total.dur.n;
		sink += (uint64_t) groups[i].id + (uint64_t) groups[i].pid + strlen(groups[i].comm);
	}
	for (size_t i = 0; i < ne; i++) {
		CHECK(errs[i].call < nc && errs[i].err > 0 && errs[i].err < 4096 && errs[i].count);
		if (i)
			CHECK(errs[i - 1].count >= errs[i].count);
		errno_count += errs[i].count;
	}
	/* Without running out of memory, every completed call is counted once in its call,
	 * its group and the totals; every error once by errno; every entry that never
	 * completed once under its call and in one of the totals. */
	if (rc == 0) {
		CHECK(done == t->calls && group_done == t->calls);
		CHECK(errno_count == errors);
		CHECK(noexit ==
		      t->superseded + t->noreturn + t->unfinished + t->mismatched + t->dropped);
	}
	sink += t->unmatched + t->child_returns + t->no_task;
	if (verbose)
		fprintf(stderr,
		        "syscalls: %zu calls, %zu groups, %zu errnos; %llu completed, %llu "
		        "unmatched, %llu unfinished\n",
		        nc, ng, ne, (unsigned long long) t->calls,
		        (unsigned long long) t->unmatched, (unsigned long long) t->unfinished);
}

static void check_disk(struct disk_analysis *a)
{
	const struct disk_dev *d;
	size_t n = disk_analysis_devices(a, &d);

	for (size_t i = 0; i < n; i++) {
		uint64_t count = 0;
		if (i)
			CHECK(d[i - 1].dev < d[i].dev);
		CHECK(terminated(d[i].name, sizeof(d[i].name)));
		check_welford(&d[i].lat);
		CHECK(d[i].nlats == d[i].lat.n);
		for (size_t k = 1; k < d[i].nlats; k++)
			CHECK(d[i].lats[k - 1] <= d[i].lats[k]);
		if (d[i].nlats) {
			CHECK(d[i].lats[0] >= 0);
			CHECK(d[i].p50 <= d[i].p90 && d[i].p90 <= d[i].p99);
			CHECK(d[i].lat.min <= d[i].p50 && d[i].p99 <= d[i].lat.max);
		}
		for (int op = 0; op < DISK_OPS; op++) {
			count += d[i].count[op];
			sink += d[i].bytes[op];
		}
		/* each completion is counted once, with a latency or as unmatched at most */
		CHECK(d[i].nlats + d[i].unmatched <= count);
		sink += d[i].pending + d[i].dropped + strlen(d[i].name);
	}
	if (verbose)
		fprintf(stderr, "disk: %zu devices\n", n);
}

/* ---- one run of the four analyses ---- */

static void on_warning(void *data, const char *message)
{
	(void) data;
	if (verbose)
		fprintf(stderr, "warning: %s\n", message);
}

struct run {
	const struct an_filter *f;
	bool per_thread, all_cpus;
	const char *const *calls; /* syscalls' --syscall patterns */
	size_t ncalls;
	/* out */
	int64_t begin, end, top_tid;
};

static void analyse(struct run *run)
{
	const char *paths[] = {dir_path};
	struct spoor_reader *r;
	struct an_engine *e;
	char *errmsg = NULL;

	int rc = spoor_reader_open(paths, 1, &r, &errmsg);
	if (rc) {
		/* The metadata is valid and stream damage is not an open error. */
		fprintf(stderr, FUZZ_NAME ": spoor_reader_open: %s\n",
		        errmsg ? errmsg : spoor_strerror(rc));
		abort();
	}
	spoor_reader_set_warn(r, on_warning, NULL);
	if (an_engine_new(r, run->f, &e))
		die("an_engine_new");
	struct irq_analysis *irq = irq_analysis_new(e);
	struct sched_analysis *sched = sched_analysis_new(e, 3);
	struct sc_options o = {
	    .per_thread = run->per_thread, .calls = run->calls, .ncalls = run->ncalls};
	struct sc_analysis *sc = sc_analysis_new(e, &o);
	struct disk_analysis *disk = disk_analysis_new(e);
	if (!irq || !sched || !sc || !disk)
		die("an analysis");
	if (run->all_cpus)
		irq_analysis_all_cpus(irq);
	/* the timeline has no task or CPU filters: on the first run only */
	struct rows rows = {.at = {.runs = true}};
	struct tl_callbacks cb = {&rows, on_span, on_mark, on_tl_event};
	struct tl_states *st = NULL;
	if (!run->f && tl_states_new(e, &cb, &st))
		die("tl_states_new");
	sched_analysis_on_change(sched, on_change, e);
	last_change = INT64_MIN;
	if (an_engine_on_lost(e, on_lost, NULL))
		die("an_engine_on_lost");
	last_loss = INT64_MIN;
	if (an_engine_on_name(e, "sched_*", on_named, NULL) ||
	    an_engine_on_name(e, "*irq*_entry", on_named, NULL))
		die("an_engine_on_name");
	last_named = INT64_MIN;
	losses_ordered = run->f == NULL;
	rc = an_engine_run(e);
	CHECK(rc == 0); /* damage is counted, not an error */

	an_span(e, &run->begin, &run->end);
	if (st) {
		tl_states_finish(st);
		CHECK(!tl_states_oom(st));
		CHECK(tl_states_origin(st) == run->begin);
		CHECK(rows.last <= run->end - run->begin);
		for (size_t i = 0; i < tl_states_syscall_count(st); i++)
			sink += strlen(tl_states_syscall_name(st, (uint32_t) i));
		if (verbose)
			fprintf(stderr, "timeline: %zu rows\n", rows.n);
	}
	tl_states_free(st);
	idmap_free(&rows.at);
	free(rows.end);
	/* the engine's range for times (engine.c, hook_time): 2^62 ns either side of 0 */
	CHECK(-((int64_t) 1 << 62) <= run->begin && run->begin <= run->end &&
	      run->end < ((int64_t) 1 << 62));
	check_irq(irq, run->all_cpus);
	run->top_tid = check_sched(sched, e, run->f != NULL);
	check_syscalls(sc);
	check_disk(disk);
	sink += an_events_lost(e) + spoor_reader_damaged(r) + (uint64_t) an_cpu_task(e, 0);
	if (verbose)
		fprintf(stderr, "span [%lld, %lld], %llu events lost, %u damaged\n",
		        (long long) run->begin, (long long) run->end,
		        (unsigned long long) an_events_lost(e), spoor_reader_damaged(r));

	irq_analysis_free(irq);
	sched_analysis_free(sched);
	sc_analysis_free(sc);
	disk_analysis_free(disk);
	an_engine_free(e);
	spoor_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	write_file(stream_path, data, size);

	struct run all = {.f = NULL};
	analyse(&all);

	/* Again with every filter: without the first quarter and the last sixteenth of the
	 * span; the thread with the most CPU time, tid 1, the seeds' pid 400 and some of their
	 * names (a task passes one of them); CPUs of the seeds; read and the raw calls.
	 * (Unsigned: the span may be any two times.) */
	uint64_t span = (uint64_t) all.end - (uint64_t) all.begin;
	int64_t tids[] = {all.top_tid > 0 ? all.top_tid : 2, 1};
	int64_t pids[] = {400}, cpus[] = {0, 1, 4};
	static const char *const comms[] = {"?erver*", "t[0-9]"};
	static const char *const calls[] = {"read", "un*"};
	struct an_filter f = {
	    .has_begin = true,
	    .has_end = true,
	    .begin = (int64_t) ((uint64_t) all.begin + span / 4),
	    .end = (int64_t) ((uint64_t) all.end - span / 16),
	    .tids = tids,
	    .ntids = 2,
	    .pids = pids,
	    .npids = 1,
	    .cpus = cpus,
	    .ncpus = 3,
	    .comms = comms,
	    .ncomms = 2,
	};
	struct run filtered = {
	    .f = &f, .per_thread = true, .all_cpus = true, .calls = calls, .ncalls = 2};
	analyse(&filtered);
	return 0;
}
