/* SPDX-License-Identifier: MIT */
/*
 * test-klayout.c: the LTTng layout against spoor's, from the same kernel records. A private
 * tracefs instance records sched, irq, task and syscalls while a child makes system calls
 * and sleeps; its ring buffers' sub-buffers are read once and converted twice by the
 * recorder's own code (kclass, kcpu, kmeta), into a trace in each layout. Then:
 *   - event by event, the LTTng trace holds the spoor trace's events under lib/vocab's
 *     names, with the same values (priorities less 100; __syscall_nr left out), and tid as
 *     the event context; sched_process_fork with lttng-modules 2.13's fields (kfork.h):
 *     the workload's fork has the test's pid as parent_pid, its child's as child_pid;
 *   - its env says lttng-modules 2.13 as Trace Compass and babeltrace 1 read it;
 *   - spoor irq, spoor sched and spoor syscalls print the same on both;
 *   - babeltrace2 and babeltrace (1) read it without a complaint.
 * Skips (77) without root or tracefs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <traceevent/event-parse.h>
#include <traceevent/kbuffer.h>
#include <unistd.h>

#include "check.h"
#include "ktracefs.h"
#include "kernel/instance.h"
#include "kernel/kcpu.h"
#include "kernel/kfork.h"
#include "kernel/kmeta.h"
#include "kernel/ksession-int.h"
#include "record/clock.h"
#include "spoor/trace.h"
#include "vocab/lttng-kernel.h"

#define MAX_CPUS 64

static char tmp[256], tracefs[512];
static struct rec_clock clock_;

struct pages {
	uint8_t *v;
	size_t n; /* sub-buffers */
};

/* A few hundred system calls, some sleeps (switches, wake-ups, timer interrupts). */
static void workload(void)
{
	pid_t p = fork();
	if (p == 0) {
		for (int i = 0; i < 200; i++) {
			int fd = open("/proc/self/stat", O_RDONLY);
			char b[64];
			if (fd >= 0 && read(fd, b, sizeof(b)) < 0)
				_exit(1);
			close(fd);
			if (i % 20 == 0)
				nanosleep(&(struct timespec){0, 1000000}, NULL);
		}
		_exit(0);
	}
	waitpid(p, NULL, 0);
}

/* The instance's sub-buffers, per CPU, read until empty (tracing is off). */
static int capture(struct kinstance *inst, struct pages *cpus, int *ncpus, size_t sub)
{
	*ncpus = 0;
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		char path[900];
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw", kinstance_dir(inst),
		         cpu);
		int fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			break;
		struct pages *p = &cpus[(*ncpus)++];
		*p = (struct pages){0};
		for (;;) {
			uint8_t *v = realloc(p->v, (p->n + 1) * sub);
			if (!v)
				return -1;
			p->v = v;
			ssize_t r = read(fd, p->v + p->n * sub, sub);
			if (r <= 0)
				break;
			memset(p->v + p->n * sub + r, 0, sub - (size_t) r);
			p->n++;
		}
		close(fd);
	}
	return 0;
}

/* The captured sub-buffers as a trace in layout, at dir/kernel. */
static int convert(struct tep_handle *tep, const struct kevent_list *events, enum klayout layout,
                   const struct pages *cpus, int ncpus, size_t sub, const char *dir)
{
	char err[600], path[700], kdir[600];
	struct kclasses cs;
	static const uint8_t uuid[16] = {1, 2, 3, 4, 5, 6, 0x47, 8, 0x89, 10, 11, 12, 13, 14, 15};
	if (!CHECK_EQ_S64(kclasses_build(tep, events, layout, &cs, err, sizeof(err)), 0)) {
		printf("  %s\n", err);
		return -1;
	}
	snprintf(kdir, sizeof(kdir), "%s/kernel", dir);
	mkdir(dir, 0755);
	mkdir(kdir, 0755);
	CHECK_EQ_S64(kmeta_write(kdir, NULL, &cs, uuid, &clock_, NULL, err, sizeof(err)), 0);
	struct kfork forks; /* the session's, as the recorder keeps it */
	kfork_init(&forks, "/proc");
	for (int i = 0; i < ncpus; i++) {
		struct kcpu c = {.cpu = i,
		                 .kb = tep_kbuffer(tep),
		                 .pkt = {.fd = -1},
		                 .fork = layout == KLAYOUT_LTTNG ? &forks : NULL};
		snprintf(path, sizeof(path), "%s/cpu%d", kdir, i);
		CHECK_EQ_S64(
		    kpacket_open(&c.pkt, path, uuid, (uint64_t) i, (uint32_t) i, KCPU_PACKET_CAP),
		    0);
		for (size_t p = 0; p < cpus[i].n; p++)
			kcpu_subbuffer(&c, &cs, cpus[i].v + p * sub);
		CHECK_EQ_U64(c.malformed + c.unknown, 0);
		CHECK_EQ_S64(kpacket_close(&c.pkt), 0);
		kbuffer_free(c.kb);
	}
	kclasses_free(&cs);
	kfork_free(&forks);
	return 0;
}

static struct spoor_reader *open_trace(const char *dir)
{
	struct spoor_reader *r = NULL;
	char *msg = NULL;
	if (!CHECK_EQ_S64(spoor_reader_open(&dir, 1, &r, &msg), 0))
		printf("  %s\n", msg ? msg : "?");
	free(msg);
	return r;
}

/* An integer field's value (INT64_MIN: none). */
static int64_t int_field(const struct spoor_event *e, const char *name)
{
	struct spoor_field f;
	return spoor_event_field(e, SPOOR_SCOPE_PAYLOAD, name, &f) ? f.v.s : INT64_MIN;
}

/* LTTng's fork (kfork.h) holds spoor's tids; the workload's child is a process of its own,
 * forked by this one. Returns 1 for the workload's fork. */
static int same_fork(const struct spoor_event *ea, const struct spoor_event *eb)
{
	static const char *const names[] = {
	    "parent_comm", "parent_tid",    "parent_pid", "parent_ns_inum", "child_comm",
	    "child_tid",   "_vtids_length", "vtids",      "child_pid",      "child_ns_inum"};
	const int n = (int) (sizeof(names) / sizeof(names[0]));
	struct spoor_field f;
	for (int i = 0; i < n; i++)
		CHECK(spoor_event_field_at(eb, SPOOR_SCOPE_PAYLOAD, i, &f) &&
		      !strcmp(f.name, names[i]));
	CHECK(!spoor_event_field_at(eb, SPOOR_SCOPE_PAYLOAD, n, &f));
	int64_t parent = int_field(ea, "parent_pid"), child = int_field(ea, "child_pid");
	CHECK_EQ_S64(int_field(eb, "parent_tid"), parent);
	CHECK_EQ_S64(int_field(eb, "child_tid"), child);
	if (parent != getpid())
		return 0;
	CHECK_EQ_S64(int_field(eb, "parent_pid"), getpid());
	CHECK_EQ_S64(int_field(eb, "child_pid"), child);
	return 1;
}

/* Every event of the spoor layout's trace is the LTTng layout's, renamed by the table. */
static void same_events(const char *spoor_dir, const char *lttng_dir)
{
	struct spoor_reader *a = open_trace(spoor_dir), *b = open_trace(lttng_dir);
	if (!a || !b)
		goto out;
	uint64_t n = 0, switches = 0, calls = 0, forks = 0;
	const struct spoor_event *ea, *eb;
	for (;;) {
		int ra = spoor_reader_next(a, &ea), rb = spoor_reader_next(b, &eb);
		if (!CHECK_EQ_S64(rb, ra) || ra <= 0)
			break;
		n++;
		const char *name = spoor_event_name(ea);
		const struct vocab_event *row = vocab_by_ftrace(NULL, name);
		char want[128];
		CHECK_CTX("event %llu, %s", (unsigned long long) n, name);
		CHECK_EQ_S64(spoor_event_timestamp(eb), spoor_event_timestamp(ea));
		CHECK_EQ_S64(spoor_event_cpu(eb), spoor_event_cpu(ea));
		if (!CHECK_STR(spoor_event_name(eb),
		               vocab_lttng_name(row, name, want, sizeof(want))))
			break;
		switches += !strcmp(name, "sched_switch");
		calls += row && row->prefix;
		/* the context: common_pid as tid, alone */
		struct spoor_field fa, fb;
		CHECK(spoor_event_field(ea, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, "common_pid", &fa));
		CHECK(spoor_event_field(eb, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, "tid", &fb));
		CHECK_EQ_S64(fb.v.s, fa.v.s);
		CHECK(
		    !spoor_event_field(eb, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, "common_flags", &fb));
		if (!strcmp(name, "sched_process_fork")) {
			forks += (uint64_t) same_fork(ea, eb);
			continue;
		}
		int jb = 0;
		for (int ja = 0; spoor_event_field_at(ea, SPOOR_SCOPE_PAYLOAD, ja, &fa); ja++) {
			const struct vocab_field *vf = vocab_field_by_ftrace(row, fa.name);
			if (vf && !vf->lttng)
				continue; /* left out */
			if (!CHECK(spoor_event_field_at(eb, SPOOR_SCOPE_PAYLOAD, jb++, &fb)))
				break;
			CHECK_STR(fb.name, vf ? vf->lttng : fa.name);
			CHECK_EQ_S64(fb.kind, fa.kind);
			if (fa.kind == SPOOR_FIELD_STRING)
				CHECK(fa.v.str.len == fb.v.str.len &&
				      !memcmp(fa.v.str.ptr, fb.v.str.ptr, fa.v.str.len));
			else if (fa.kind == SPOOR_FIELD_SIGNED || fa.kind == SPOOR_FIELD_UNSIGNED)
				CHECK_EQ_S64(fb.v.s, fa.v.s + (vf ? vf->delta : 0));
		}
		CHECK(!spoor_event_field_at(eb, SPOOR_SCOPE_PAYLOAD, jb, &fb));
	}
	CHECK_CTX(" ");
	printf("  %llu events (%llu switches, %llu per-call system call events) alike\n",
	       (unsigned long long) n, (unsigned long long) switches, (unsigned long long) calls);
	CHECK(switches > 0 && calls > 400);
	CHECK_EQ_U64(forks, 1);
out:
	spoor_reader_close(a);
	spoor_reader_close(b);
}

/* A command's standard output (and its exit status). */
static char *run(const char *cmd, int *status)
{
	FILE *f = popen(cmd, "r");
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	if (!f || !buf)
		return buf;
	for (size_t r; (r = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
		n += r;
		if (n + 1 == cap) {
			char *bigger = realloc(buf, cap *= 2);
			if (!bigger)
				break;
			buf = bigger;
		}
	}
	buf[n] = '\0';
	*status = pclose(f);
	return buf;
}

/* spoor's analyses print the same on both traces. */
static void same_analyses(const char *spoor_dir, const char *lttng_dir)
{
	static const char *const cmds[] = {"irq", "sched", "syscalls"};
	const char *build = getenv("SPOOR_BUILD");
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char cmd[1200];
		int sa = -1, sb = -1;
		snprintf(cmd, sizeof(cmd), "%s/spoor %s '%s'", build ? build : "build", cmds[i],
		         spoor_dir);
		char *a = run(cmd, &sa);
		snprintf(cmd, sizeof(cmd), "%s/spoor %s '%s'", build ? build : "build", cmds[i],
		         lttng_dir);
		char *b = run(cmd, &sb);
		CHECK_CTX("spoor %s", cmds[i]);
		CHECK_EQ_S64(sa, 0);
		CHECK_EQ_S64(sb, 0);
		CHECK(a && strlen(a) > 100);
		CHECK_STR(b, a);
		free(a);
		free(b);
	}
	CHECK_CTX(" ");
}

/* The env Trace Compass picks its layout from, and babeltrace 1's required keys. */
static void env_and_readers(const char *lttng_dir)
{
	struct spoor_reader *r = open_trace(lttng_dir);
	if (!r)
		return;
	static const char *const want[][2] = {{"domain", "kernel"},
	                                      {"tracer_name", "lttng-modules"},
	                                      {"tracer_major", "2"},
	                                      {"tracer_minor", "13"},
	                                      {"tracer_patchlevel", "0"},
	                                      {"spoor_layout", "lttng"},
	                                      {"trace_buffering_scheme", "global"}};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK_STR(spoor_reader_trace_env(r, 0, want[i][0]), want[i][1]);
	static const char *const present[] = {"hostname", "sysname", "kernel_release",
	                                      "kernel_version", "trace_name"};
	for (size_t i = 0; i < sizeof(present) / sizeof(present[0]); i++)
		CHECK(spoor_reader_trace_env(r, 0, present[i]) != NULL);
	spoor_reader_close(r);

	char cmd[900];
	int st = -1;
	if (system("babeltrace2 --version >/dev/null 2>&1") == 0) {
		snprintf(cmd, sizeof(cmd),
		         "babeltrace2 '%s' 2>&1 | grep -c 'sched_switch:.*prev_tid'", lttng_dir);
		char *out = run(cmd, &st);
		CHECK(out && atoi(out) > 0);
		free(out);
	}
	if (system("babeltrace --help >/dev/null 2>&1") == 0) {
		/* babeltrace 1 prints what it reads and warns on stderr (of losses too, which
		 * a loaded machine may cause: those are the recording's, not the layout's) */
		snprintf(cmd, sizeof(cmd),
		         "babeltrace '%s/kernel' 2>&1 >/dev/null | grep -v 'Tracer discarded'",
		         lttng_dir);
		char *errs = run(cmd, &st);
		CHECK_STR(errs, "");
		free(errs);
		snprintf(cmd, sizeof(cmd), "babeltrace '%s/kernel' >/dev/null 2>&1", lttng_dir);
		CHECK_EQ_S64(system(cmd), 0);
		snprintf(cmd, sizeof(cmd), "babeltrace '%s/kernel' | grep -c syscall_entry_openat",
		         lttng_dir);
		char *out = run(cmd, &st);
		CHECK(out && atoi(out) > 0);
		free(out);
	}
}

int main(void)
{
	char err[700];
	int skip = ktracefs_require(tracefs, sizeof(tracefs));
	if (skip)
		return skip;
	snprintf(tmp, sizeof(tmp), "/tmp/test-klayout-XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	rec_clock_calibrate(&clock_);

	struct ksession k = {0}; /* what the format loading needs of a session */
	if (!CHECK_EQ_S64(kinstance_create(&k.inst, "klayout", err, sizeof(err)), 0)) {
		printf("  %s\n", err);
		return check_done();
	}
	static const char *const patterns[] = {"sched", "irq", "task", "syscalls"};
	CHECK_EQ_S64(kinstance_set_clock(k.inst, rec_clock_kernel_name(&clock_), err, sizeof(err)),
	             0);
	CHECK_EQ_S64(kinstance_set_buffer_kb(k.inst, 8192, err, sizeof(err)), 0);
	CHECK_EQ_S64(
	    kevents_select(kinstance_root(k.inst), patterns, 4, &k.events, err, sizeof(err)), 0);
	for (size_t i = 0; i < k.events.n; i++)
		kinstance_enable(k.inst, k.events.v[i].system, k.events.v[i].name, err,
		                 sizeof(err));

	/* the formats, as the recorder loads them */
	k.tep = tep_alloc();
	tep_set_file_bigendian(k.tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(k.tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(k.tep, (int) sizeof(long));
	tep_set_page_size(k.tep, getpagesize());
	char path[900], header[4096];
	snprintf(path, sizeof(path), "%s/events/header_page", kinstance_root(k.inst));
	int fd = open(path, O_RDONLY);
	ssize_t hn = fd >= 0 ? read(fd, header, sizeof(header) - 1) : -1;
	if (fd >= 0)
		close(fd);
	CHECK(hn > 0 && !tep_parse_header_page(k.tep, header, hn, (int) sizeof(long)));
	for (size_t i = 0; i < k.events.n; i++)
		CHECK_EQ_S64(ksession_load_format(&k, &k.events.v[i], err, sizeof(err)), 0);

	CHECK_EQ_S64(kinstance_tracing_on(k.inst, true), 0);
	workload();
	CHECK_EQ_S64(kinstance_tracing_on(k.inst, false), 0);
	size_t sub = (size_t) getpagesize(); /* the sub-buffer, as the recorder finds it */
	snprintf(path, sizeof(path), "%s/buffer_subbuf_size_kb", kinstance_dir(k.inst));
	FILE *f = fopen(path, "re");
	unsigned long kb = 0;
	if (f && fscanf(f, "%lu", &kb) == 1 && kb)
		sub = kb << 10;
	if (f)
		fclose(f);
	struct pages cpus[MAX_CPUS];
	int ncpus = 0;
	CHECK_EQ_S64(capture(k.inst, cpus, &ncpus, sub), 0);
	kinstance_destroy(k.inst);

	char spoor_dir[400], lttng_dir[400];
	snprintf(spoor_dir, sizeof(spoor_dir), "%s/spoor", tmp);
	snprintf(lttng_dir, sizeof(lttng_dir), "%s/lttng", tmp);
	if (!convert(k.tep, &k.events, KLAYOUT_SPOOR, cpus, ncpus, sub, spoor_dir) &&
	    !convert(k.tep, &k.events, KLAYOUT_LTTNG, cpus, ncpus, sub, lttng_dir)) {
		same_events(spoor_dir, lttng_dir);
		same_analyses(spoor_dir, lttng_dir);
		env_and_readers(lttng_dir);
	}
	for (int i = 0; i < ncpus; i++)
		free(cpus[i].v);
	kevents_free(&k.events);
	tep_free(k.tep);
	ktracefs_cleanup(tmp, check_failed > 0);
	return check_done();
}
