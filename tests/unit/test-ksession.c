/* SPDX-License-Identifier: MIT */
/*
 * test-ksession.c: the kernel half of a daemon's session on the real tracefs (root): events
 * enabled and disabled while tracing runs, pause and resume, two sessions at once, rotation
 * under load (in both layouts: klayout.h), and a flight recorder's snapshots. A child
 * process makes numbered system
 * calls (close(BASE + i), dup(BASE + i): EBADF, but traced with the number in fd/fildes),
 * so each trace must hold exactly the numbers made while its events were on. Every trace is
 * read by spoor's reader and by babeltrace2, which must agree. Skips (77) without root or
 * tracefs. Sessions use instances of their own, so other spoor sessions may run meanwhile.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "ktracefs.h"
#include "kernel/instance.h"
#include "kernel/ksession.h"
#include "record/clock.h"
#include "spoor/trace.h"

#define BASE 1000000
#define MAXN (1 << 20)

static struct rec_clock clock_;
static char tmp[256], tracefs[512];
static bool have_bt2;
static enum klayout layout_; /* the sessions' layout (start) */

/* ---- the child that makes numbered system calls ---- */

enum op { OP_CLOSE, OP_DUP, OP_SLEEP, OP_STREAM };
struct cmd {
	int op, from, n;
};
static pid_t child;
static int to_child = -1, from_child = -1;

/* OP_STREAM: close(BASE + from + i) until a byte comes, throttled; replies how many. */
static int stream(int in, int from)
{
	int i = 0;
	fcntl(in, F_SETFL, O_NONBLOCK);
	for (char b;; i++) {
		close(BASE + from + i);
		if (i % 10 == 9) {
			if (read(in, &b, 1) == 1)
				break;
			nanosleep(&(struct timespec){0, 100000}, NULL);
		}
	}
	fcntl(in, F_SETFL, 0);
	return i + 1;
}

static void child_main(int in, int out)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one); /* one ring: its order is the calls' order */
	for (struct cmd c; read(in, &c, sizeof(c)) == sizeof(c);) {
		int done = c.n;
		for (int i = 0; c.op != OP_STREAM && i < c.n; i++) {
			if (c.op == OP_CLOSE)
				close(BASE + c.from + i);
			else if (c.op == OP_DUP)
				dup(BASE + c.from + i);
			else
				usleep(1000);
		}
		if (c.op == OP_STREAM)
			done = stream(in, c.from);
		if (write(out, &done, sizeof(done)) != sizeof(done))
			break;
	}
	_exit(0);
}

static void start_child(void)
{
	int a[2], b[2];
	if (pipe(a) || pipe(b))
		exit(1);
	child = fork();
	if (child == 0) {
		close(a[1]);
		close(b[0]);
		child_main(a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	to_child = a[1];
	from_child = b[0];
}

/* Run one command in the child and wait until it is done: its system calls are in the
 * ring by then. */
static int ask(int op, int from, int n)
{
	struct cmd c = {op, from, n};
	int done = -1;
	if (write(to_child, &c, sizeof(c)) != sizeof(c) ||
	    read(from_child, &done, sizeof(done)) != sizeof(done))
		return -1;
	return done;
}

static void stop_child(void)
{
	close(to_child);
	waitpid(child, NULL, 0);
	close(from_child);
}

/* ---- reading what a trace holds ---- */

struct seen {
	uint8_t close_n[MAXN], dup_n[MAXN]; /* times each number was seen */
	uint64_t closes, dups, switches, discarded, events;
	int64_t switch_last, close_first, close_last; /* ns */
	bool bad;                                     /* damage, or a number out of range */
	/* a CPU's stream files (chunks) that do not go on where the one before ended */
	unsigned chunk_gaps;
	int64_t end_min, end_max; /* the streams' last packets' ends (ns) */
};

static void count(uint8_t *seen, int64_t fd, struct seen *s, uint64_t *total)
{
	if (fd < BASE || fd >= BASE + MAXN) {
		s->bad = true;
		return;
	}
	if (seen[fd - BASE] < 255)
		seen[fd - BASE]++;
	(*total)++;
}

static struct seen *read_trace(const char *dir)
{
	struct seen *s = calloc(1, sizeof(*s));
	struct spoor_reader *r = NULL;
	char *msg = NULL;
	const char *paths[] = {dir};
	CHECK_CTX("read %s", dir);
	if (!CHECK_EQ_S64(spoor_reader_open(paths, 1, &r, &msg), 0)) {
		printf("  %s\n", msg ? msg : "");
		free(msg);
		s->bad = true;
		return s;
	}
	const struct spoor_event *ev;
	struct spoor_field f;
	int64_t v;
	s->close_first = INT64_MAX;
	while (spoor_reader_next(r, &ev) == 1) {
		const char *name = spoor_event_name(ev);
		int64_t ts = spoor_event_timestamp(ev);
		s->events++;
		if ((!strcmp(name, "sys_enter_close") || !strcmp(name, "syscall_entry_close")) &&
		    spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, "fd", &f) &&
		    spoor_field_int(&f, &v)) {
			count(s->close_n, v, s, &s->closes);
			s->close_first = ts < s->close_first ? ts : s->close_first;
			s->close_last = ts;
		} else if ((!strcmp(name, "sys_enter_dup") || !strcmp(name, "syscall_entry_dup")) &&
		           spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, "fildes", &f) &&
		           spoor_field_int(&f, &v)) {
			count(s->dup_n, v, s, &s->dups);
		} else if (!strcmp(name, "sched_switch")) {
			s->switches++;
			s->switch_last = ts;
		}
	}
	struct spoor_stream_info cpu[64];
	size_t ncpu = 0;
	s->end_min = INT64_MAX;
	s->end_max = INT64_MIN;
	for (size_t i = 0; i < spoor_reader_stream_count(r); i++) {
		struct spoor_stream_info si;
		spoor_reader_stream_info(r, i, &si);
		s->discarded += si.discarded;
		if (si.packets) {
			s->end_min = si.end_ns < s->end_min ? si.end_ns : s->end_min;
			s->end_max = si.end_ns > s->end_max ? si.end_ns : s->end_max;
		}
		const char *base = strrchr(si.path, '/');
		if (base && !strncmp(base, "/cpu", 4) && si.packets && ncpu < 64)
			cpu[ncpu++] = si;
	}
	/* each chunk's first packet begins where the CPU's packets in the chunk before ended
	 * (babeltrace2 orders the packets of merged chunks by their begin alone) */
	for (size_t i = 0; i < ncpu; i++) {
		const struct spoor_stream_info *next = NULL;
		for (size_t j = 0; j < ncpu; j++)
			if (j != i && cpu[j].cpu == cpu[i].cpu &&
			    cpu[j].begin_ns >= cpu[i].end_ns &&
			    (!next || cpu[j].begin_ns < next->begin_ns))
				next = &cpu[j];
		if (next && next->begin_ns != cpu[i].end_ns) {
			printf("  %s begins at %lld, %s ended at %lld\n", next->path,
			       (long long) next->begin_ns, cpu[i].path, (long long) cpu[i].end_ns);
			s->chunk_gaps++;
		}
	}
	s->bad |= spoor_reader_damaged(r) != 0;
	spoor_reader_close(r);
	return s;
}

/* Whether numbers [from, from + n) were each seen exactly once. */
static bool once_each(const uint8_t *seen, int from, int n)
{
	for (int i = from; i < from + n; i++)
		if (seen[i] != 1) {
			printf("  number %d seen %d times\n", i, seen[i]);
			return false;
		}
	return true;
}

/* babeltrace2 reads DIR whole; the lines of `event` it prints, -1 when it fails. */
static long bt2_count(const char *dir, const char *event)
{
	char cmd[1200], line[4096], want[128];
	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' 2>/dev/null", dir);
	snprintf(want, sizeof(want), " %s: ", event);
	FILE *p = popen(cmd, "r");
	long n = 0;
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (strstr(line, want))
			n++;
	return pclose(p) == 0 ? n : -1;
}

/* Both readers agree on how many `event` the trace holds. */
static void bt2_agrees(const char *dir, const char *event, uint64_t spoor_count)
{
	if (!have_bt2)
		return;
	CHECK_CTX("babeltrace2 %s, %s", dir, event);
	CHECK_EQ_S64(bt2_count(dir, event), (int64_t) spoor_count);
}

/* ---- sessions ---- */

static char filter_close[128], filter_dup[128];

static struct ksession *start(const char *outdir, const char *name, const char *event,
                              bool overwrite, unsigned long buffer_kb)
{
	const char *events[] = {event};
	const char *filters[] = {event && strstr(event, "dup") ? filter_dup : filter_close};
	struct kernel_opts o = {.events = events,
	                        .nevents = event ? 1 : 0,
	                        .filters = filters,
	                        .nfilters = event ? 1 : 0,
	                        .buffer_kb = buffer_kb,
	                        .overwrite = overwrite,
	                        .name = name,
	                        .layout = layout_};
	struct ksession *k = NULL;
	char err[512] = "";
	mkdir(outdir, 0755);
	CHECK_CTX("start %s", name);
	if (!CHECK_EQ_S64(ksession_start(&k, &o, &clock_, outdir, err, sizeof(err)), 0))
		printf("  %s\n", err);
	return k;
}

static bool enable(struct ksession *k, const char *event, const char *filter)
{
	char err[512] = "";
	const char *f[] = {filter};
	int rc = ksession_enable(k, &event, 1, f, filter ? 1 : 0, err, sizeof(err));
	CHECK_CTX("enable %s", event);
	if (!CHECK_EQ_S64(rc, 0))
		printf("  %s\n", err);
	return rc == 0;
}

static bool disable(struct ksession *k, const char *event)
{
	char err[512] = "";
	int rc = ksession_disable(k, &event, 1, err, sizeof(err));
	CHECK_CTX("disable %s", event);
	if (!CHECK_EQ_S64(rc, 0))
		printf("  %s\n", err);
	return rc == 0;
}

static struct kernel_totals stop(struct ksession *k)
{
	struct kernel_totals t;
	ksession_stop(k, &t);
	ksession_free(k);
	return t;
}

static bool metadata_declares(const char *kdir, const char *event)
{
	char cmd[800];
	snprintf(cmd, sizeof(cmd), "grep -q 'name = \"%s\";' '%s/metadata'", event, kdir);
	return system(cmd) == 0;
}

/* 1. Events on and off while tracing runs; pause and resume. */
static void enable_disable_pause(void)
{
	char out[300], kdir[320];
	snprintf(out, sizeof(out), "%s/one", tmp);
	snprintf(kdir, sizeof(kdir), "%s/kernel", out);
	struct ksession *k = start(out, "unit-one", NULL, false, 0);
	if (!k)
		return;
	ask(OP_CLOSE, 0, 100); /* not enabled yet */
	enable(k, "syscalls:sys_enter_close", filter_close);
	ask(OP_CLOSE, 100, 100);
	enable(k, "sched:sched_switch", NULL);
	ask(OP_SLEEP, 0, 5);
	ask(OP_CLOSE, 200, 100);
	ksession_flush(k);
	disable(k, "sched_switch");
	disable(k, "syscalls:sys_enter_close");
	int64_t disabled = rec_clock_now_ns(&clock_);
	ask(OP_SLEEP, 0, 5);
	ask(OP_CLOSE, 300, 100);            /* off */
	enable(k, "sys_enter_close", NULL); /* on again: its filter stays */
	ask(OP_CLOSE, 400, 100);
	CHECK(ksession_pause(k) == 0);
	ask(OP_CLOSE, 500, 100); /* paused */
	CHECK(ksession_resume(k) == 0);
	ask(OP_CLOSE, 600, 100);
	char err[512] = "";
	const char *none[] = {"no_such_event_here"};
	CHECK_CTX("errors");
	CHECK(ksession_disable(k, none, 1, err, sizeof(err)) == -ENOENT && strstr(err, none[0]));
	CHECK(ksession_enable(k, none, 1, NULL, 0, err, sizeof(err)) == -ENOENT);
	const char *libc[] = {"libc"};
	CHECK(ksession_enable(k, libc, 1, NULL, 0, err, sizeof(err)) == -ENOTSUP);
	struct kernel_totals t = stop(k);
	CHECK_EQ_U64(t.lost, 0);

	struct seen *s = read_trace(kdir);
	CHECK_CTX("enable/disable/pause");
	CHECK(!s->bad);
	CHECK_EQ_U64(s->closes, 400);
	CHECK(once_each(s->close_n, 100, 200) && once_each(s->close_n, 400, 100) &&
	      once_each(s->close_n, 600, 100));
	CHECK(s->switches > 0);
	CHECK(s->switch_last <= disabled);
	CHECK(metadata_declares(kdir, "sched_switch")); /* disabled, still declared */
	bt2_agrees(kdir, "sys_enter_close", s->closes);
	bt2_agrees(kdir, "sched_switch", s->switches);
	free(s);
}

/* Whether tracefs has an instance named spoor-PID-N-NAME of this process. */
static bool instance_named(const char *name)
{
	char path[600], want[64];
	snprintf(path, sizeof(path), "%s/instances", tracefs);
	snprintf(want, sizeof(want), "spoor-%d-", (int) getpid());
	DIR *d = opendir(path);
	bool found = false;
	for (struct dirent *e; d && (e = readdir(d));) {
		const char *dash = strrchr(e->d_name, '-');
		found |= !strncmp(e->d_name, want, strlen(want)) && dash && !strcmp(dash + 1, name);
	}
	if (d)
		closedir(d);
	return found;
}

/* 2. Two sessions at once, with different events: each holds exactly its own. */
static void two_sessions(void)
{
	char a[300], b[300], ka[320], kb[320];
	snprintf(a, sizeof(a), "%s/two-a", tmp);
	snprintf(b, sizeof(b), "%s/two-b", tmp);
	snprintf(ka, sizeof(ka), "%s/kernel", a);
	snprintf(kb, sizeof(kb), "%s/kernel", b);
	struct ksession *sa = start(a, "unit-a", "syscalls:sys_enter_close", false, 0);
	struct ksession *sb = start(b, "unit-b", "syscalls:sys_enter_dup", false, 0);
	if (!sa || !sb) {
		ksession_free(sa);
		ksession_free(sb);
		return;
	}
	CHECK_CTX("two sessions");
	CHECK(instance_named("unit_a") && instance_named("unit_b"));
	for (int i = 0; i < 5; i++) {
		ask(OP_CLOSE, 100 * i, 100);
		ask(OP_DUP, 100 * i, 100);
		ksession_flush(i % 2 ? sa : sb);
	}
	stop(sa);
	stop(sb);
	CHECK(!instance_named("unit_a") && !instance_named("unit_b"));
	struct seen *s = read_trace(ka);
	CHECK_CTX("session a");
	CHECK(!s->bad && s->dups == 0 && s->closes == 500 && once_each(s->close_n, 0, 500));
	bt2_agrees(ka, "sys_enter_close", s->closes);
	free(s);
	s = read_trace(kb);
	CHECK_CTX("session b");
	CHECK(!s->bad && s->closes == 0 && s->dups == 500 && once_each(s->dup_n, 0, 500));
	bt2_agrees(kb, "sys_enter_dup", s->dups);
	free(s);
}

/* The child makes calls without pause (OP_STREAM) until stream_end, which returns how
 * many; k is stopped when it cannot start. */
static bool stream_begin(struct ksession *k)
{
	struct cmd c = {OP_STREAM, 0, 0};
	if (CHECK(write(to_child, &c, sizeof(c)) == sizeof(c)))
		return true;
	stop(k);
	return false;
}

static int stream_end(void)
{
	int n = -1;
	CHECK(write(to_child, "x", 1) == 1 && read(from_child, &n, sizeof(n)) == sizeof(n));
	return n;
}

/* Read what the kernel has for about ms milliseconds, as the daemon's poll loop does. */
static void pump(struct ksession *k, int ms)
{
	struct pollfd p[256];
	for (int i = 0; i < ms / 10; i++) {
		size_t n = ksession_pollfds(k, p, 256);
		if (poll(p, n, 10) > 0)
			ksession_ready(k, p, n);
	}
}

/* The first line of DIR/metadata that starts with key (after blanks), or "". */
static void metadata_line(const char *kdir, const char *key, char *out, size_t cap)
{
	char path[800], line[512];
	snprintf(path, sizeof(path), "%s/metadata", kdir);
	FILE *f = fopen(path, "r");
	*out = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		const char *l = line + strspn(line, " \t");
		if (!strncmp(l, key, strlen(key))) {
			snprintf(out, cap, "%s", l);
			break;
		}
	}
	if (f)
		fclose(f);
}

/* 3. Rotation twice while the child makes calls without pause: every chunk reads alone,
 * and the chunks hold every call once. As the daemon does, the current chunk's directory
 * is renamed into archives/ first, then the session rotates into the same place. In the
 * LTTng layout every chunk's env names the session and its creation, as LTTng's. */
static void rotation(void)
{
	char out[300], kdir[320], chunk[3][400], err[512] = "";
	const char *close_event =
	    layout_ == KLAYOUT_LTTNG ? "syscall_entry_close" : "sys_enter_close";
	char created[3][256];
	snprintf(out, sizeof(out), "%s/rot-%s", tmp, klayout_name(layout_));
	snprintf(kdir, sizeof(kdir), "%s/kernel", out);
	struct ksession *k = start(out, "unit-rot", "syscalls:sys_enter_close", false, 8192);
	if (!k)
		return;
	if (!stream_begin(k))
		return;
	pump(k, 150);
	CHECK_CTX("rotate into a directory that is not empty");
	CHECK(ksession_rotate(k, out, err, sizeof(err)) == -EEXIST && strstr(err, "not empty"));
	snprintf(chunk[0], sizeof(chunk[0]), "%s/archives", out);
	mkdir(chunk[0], 0755);
	for (int r = 0; r < 2; r++) {
		snprintf(chunk[r], sizeof(chunk[r]), "%s/archives/chunk-%03d", out, r);
		mkdir(chunk[r], 0755);
		strcat(chunk[r], "/kernel");
		CHECK_CTX("rotation %d", r);
		CHECK(rename(kdir, chunk[r]) == 0);
		if (!CHECK_EQ_S64(ksession_rotate(k, out, err, sizeof(err)), 0))
			printf("  %s\n", err);
		pump(k, 150);
	}
	snprintf(chunk[2], sizeof(chunk[2]), "%s", kdir);
	int n = stream_end();
	struct kernel_totals t = stop(k);
	CHECK_CTX("rotation");
	CHECK(n > 0 && n < MAXN);
	CHECK_EQ_U64(t.lost, 0);
	uint8_t *all = calloc(MAXN, 1);
	int64_t last = INT64_MIN;
	uint64_t sum = 0;
	for (int r = 0; r < 3; r++) {
		struct seen *s = read_trace(chunk[r]);
		CHECK_CTX("chunk %d", r);
		CHECK(!s->bad && s->closes > 0);
		/* one CPU: each chunk's calls come after the previous chunk's */
		CHECK(s->close_first > last);
		last = s->close_last;
		for (int i = 0; i < MAXN; i++)
			all[i] = (uint8_t) (all[i] + s->close_n[i]);
		sum += s->closes;
		bt2_agrees(chunk[r], close_event, s->closes);
		free(s);
		char name[256];
		metadata_line(chunk[r], "trace_name =", name, sizeof(name));
		metadata_line(chunk[r], "trace_creation_datetime =", created[r],
		              sizeof(created[r]));
		if (layout_ == KLAYOUT_LTTNG) {
			CHECK_STR(name, "trace_name = \"unit-rot\";\n");
			CHECK(created[r][0] && !strcmp(created[r], created[0]));
		}
	}
	CHECK_CTX("chunks together");
	CHECK_EQ_U64(sum, (uint64_t) n);
	CHECK(n > 0 && once_each(all, 0, n));
	free(all);
	/* the session's folder of chunks read as one trace */
	struct seen *s = read_trace(out);
	CHECK_CTX("the session's folder");
	CHECK(!s->bad && s->closes == (uint64_t) n && once_each(s->close_n, 0, n));
	CHECK_EQ_U64(s->chunk_gaps, 0);
	bt2_agrees(out, close_event, s->closes);
	free(s);
}

/* babeltrace2's warnings about DIR: whether it reports a packet gap or a discarded count
 * that went back (a counter that restarted), which it prints as a huge number. */
static bool bt2_counters_go_back(const char *dir)
{
	char cmd[800], line[4096];
	snprintf(cmd, sizeof(cmd), "babeltrace2 '%s' 2>&1 >/dev/null", dir);
	FILE *p = popen(cmd, "r");
	bool back = !p;
	while (p && fgets(line, sizeof(line), p))
		back |= strstr(line, " packets ") || strstr(line, "184467440");
	if (p)
		pclose(p);
	return back;
}

/* 3b. Rotations of a ring that loses events: the chunks of one stream go on with its packet
 * numbers and its count of losses, so babeltrace2, which merges the chunks of one trace
 * uuid into one stream, reports the losses where they were and no packet missing. */
static void rotation_losses(void)
{
	char out[300], kdir[320], chunk[340], err[512] = "";
	snprintf(out, sizeof(out), "%s/rot-lossy", tmp);
	snprintf(kdir, sizeof(kdir), "%s/kernel", out);
	struct ksession *k = start(out, "unit-lossy", "syscalls:sys_enter_close", false, 64);
	if (!k)
		return;
	for (int r = 0; r < 3; r++) {
		ask(OP_CLOSE, 30000 * r, 20000); /* far more than the ring holds, unread */
		ksession_flush(k);
		if (r == 2)
			break;
		snprintf(chunk, sizeof(chunk), "%s/chunk-%d", out, r);
		mkdir(chunk, 0755);
		strcat(chunk, "/kernel");
		CHECK_CTX("lossy rotation %d", r);
		CHECK(rename(kdir, chunk) == 0);
		if (!CHECK_EQ_S64(ksession_rotate(k, out, err, sizeof(err)), 0))
			printf("  %s\n", err);
	}
	struct kernel_totals t = stop(k);
	CHECK_CTX("lossy rotations");
	CHECK(t.lost > 0);
	struct seen *s = read_trace(out);
	CHECK(!s->bad && s->closes > 0 && s->closes < 60000);
	CHECK_EQ_U64(s->chunk_gaps, 0);
	free(s);
	if (have_bt2)
		CHECK(!bt2_counters_go_back(out));
}

/* 4. A flight recorder: nothing read until a snapshot; each snapshot holds what came after
 * the previous one; overwritten events are counted as lost. */
static void snapshots(void)
{
	char out[300], snap[3][320], sk[3][340], err[512] = "";
	snprintf(out, sizeof(out), "%s/flight", tmp);
	struct ksession *k = start(out, "unit-flight", "syscalls:sys_enter_close", true, 64);
	if (!k)
		return;
	struct pollfd p[8];
	CHECK_CTX("flight recorder");
	CHECK_EQ_U64(ksession_pollfds(k, p, 8), 0);
	for (int i = 0; i < 3; i++) {
		snprintf(snap[i], sizeof(snap[i]), "%s/snapshot-%d", out, i);
		snprintf(sk[i], sizeof(sk[i]), "%s/kernel", snap[i]);
		mkdir(snap[i], 0755);
	}
	struct kernel_totals t[3];
	ask(OP_CLOSE, 0, 100);
	ksession_flush(k); /* reads nothing */
	CHECK_EQ_S64(ksession_snapshot(k, snap[0], &t[0], err, sizeof(err)), 0);
	ask(OP_CLOSE, 100, 100);
	CHECK_EQ_S64(ksession_snapshot(k, snap[1], &t[1], err, sizeof(err)), 0);
	/* far more than 64 KiB of ring: the oldest are overwritten */
	ask(OP_CLOSE, 200, 20000);
	struct kernel_usage u;
	ksession_usage(k, &u);
	CHECK_CTX("usage of a full flight recorder");
	CHECK(u.cpus > 0 && u.bytes_size >= (uint64_t) u.cpus * 64 * 1024);
	CHECK(u.entries > 0 && u.bytes_used > 0 && u.bytes_used <= u.bytes_size);
	CHECK(u.overrun >= 20000 - u.entries && u.dropped == 0);
	if (!CHECK_EQ_S64(ksession_snapshot(k, snap[2], &t[2], err, sizeof(err)), 0))
		printf("  %s\n", err);
	struct kernel_totals again;
	CHECK(ksession_snapshot(k, snap[2], &again, err, sizeof(err)) == -EEXIST);
	char rot[340];
	snprintf(rot, sizeof(rot), "%s/rot", out);
	CHECK(ksession_rotate(k, rot, err, sizeof(err)) == -ENOTSUP);
	ask(OP_CLOSE, 30000, 50);
	stop(k); /* what the ring holds at the end goes to the session's own trace */
	char kdir[320];
	snprintf(kdir, sizeof(kdir), "%s/kernel", out);
	struct seen *s = read_trace(kdir);
	CHECK_CTX("flight recorder's end");
	CHECK(!s->bad && s->closes == 50 && once_each(s->close_n, 30000, 50));
	bt2_agrees(kdir, "sys_enter_close", s->closes);
	free(s);

	s = read_trace(sk[0]);
	CHECK_CTX("snapshot 0");
	CHECK(!s->bad && s->closes == 100 && once_each(s->close_n, 0, 100));
	CHECK_EQ_S64(s->end_min, s->end_max); /* its streams end together */
	CHECK_EQ_U64(t[0].lost, 0);
	bt2_agrees(sk[0], "sys_enter_close", s->closes);
	free(s);
	s = read_trace(sk[1]);
	CHECK_CTX("snapshot 1");
	CHECK(!s->bad && s->closes == 100 && once_each(s->close_n, 100, 100));
	CHECK_EQ_S64(s->end_min, s->end_max);
	bt2_agrees(sk[1], "sys_enter_close", s->closes);
	free(s);
	s = read_trace(sk[2]);
	CHECK_CTX("snapshot 2");
	/* What the ring kept: the page the reader held since the last snapshot (the oldest
	 * calls) and the newest calls up to the last one; what lies between is reported lost,
	 * with the other events of that CPU the ring overwrote. */
	uint64_t held = s->closes, head = 0, tail = 0;
	while (head < held && s->close_n[200 + head] == 1)
		head++;
	while (tail < held - head && s->close_n[20199 - tail] == 1)
		tail++;
	CHECK(!s->bad && held > 0 && held < 20000 && tail > 0);
	CHECK_EQ_U64(head + tail, held);
	CHECK(t[2].lost >= 20000 - held);
	CHECK_EQ_U64(s->discarded, t[2].lost);
	CHECK_EQ_S64(s->end_min, s->end_max);
	bt2_agrees(sk[2], "sys_enter_close", s->closes);
	free(s);
	/* the session's folder: each snapshot a trace of its own beside the session's */
	CHECK_CTX("flight recorder's folder");
	if (have_bt2)
		CHECK(!bt2_counters_go_back(out));
}

/* 4b. Snapshots while the child makes calls without pause: a ring read while tracing goes
 * on holds events later than the snapshot's time; every stream still ends together (at the
 * last of them), so that the range where all the streams are holds every event. */
static void snapshots_under_load(void)
{
	char out[300], snap[320], sk[340], err[512] = "";
	snprintf(out, sizeof(out), "%s/flight-busy", tmp);
	struct ksession *k = start(out, "unit-busy", "syscalls:sys_enter_close", true, 8192);
	if (!k)
		return;
	if (!stream_begin(k))
		return;
	for (int i = 0; i < 10; i++) { /* (each a few ms: one that ends late is likely) */
		usleep(5000);
		snprintf(snap, sizeof(snap), "%s/snapshot-%d", out, i);
		snprintf(sk, sizeof(sk), "%s/kernel", snap);
		mkdir(snap, 0755);
		struct kernel_totals t;
		CHECK_CTX("snapshot %d while the calls go on", i);
		if (!CHECK_EQ_S64(ksession_snapshot(k, snap, &t, err, sizeof(err)), 0))
			printf("  %s\n", err);
		struct seen *s = read_trace(sk);
		CHECK(!s->bad && s->closes > 0);
		CHECK_EQ_S64(s->end_min, s->end_max);
		free(s);
	}
	stream_end();
	stop(k);
}

static bool owned_by(const char *dir, const char *name, uid_t uid)
{
	char path[700];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK_CTX("owner of %s", path);
	return CHECK(lstat(path, &st) == 0) && CHECK_EQ_U64(st.st_uid, uid);
}

static void as_user(uid_t uid)
{
	setfsgid(uid);
	setfsuid(uid);
}

/* 5. A system daemon's session of a user (of the tracing group): the daemon calls with its
 * file-system identity set to the owner. The trace's files are the owner's, tracefs is
 * still reached, and a symlink the owner planted is not followed with root's rights. */
static void owner_rights(void)
{
	const uid_t user = 65534;
	char out[300], kdir[320], chunk[340], trap[300], out2[300], link[320], err[512] = "";
	chmod(tmp, 0755);
	snprintf(out, sizeof(out), "%s/owner", tmp);
	snprintf(kdir, sizeof(kdir), "%s/kernel", out);
	snprintf(chunk, sizeof(chunk), "%s/chunk-000", out);
	mkdir(out, 0755);
	CHECK(chown(out, user, user) == 0);
	as_user(user);
	struct ksession *k = start(out, "unit-owner", "syscalls:sys_enter_close", false, 0);
	if (k) {
		ask(OP_CLOSE, 0, 100);
		enable(k, "sched:sched_switch", NULL);
		mkdir(chunk, 0755);
		strcat(chunk, "/kernel");
		CHECK(rename(kdir, chunk) == 0);
		CHECK_CTX("rotation as the owner");
		if (!CHECK_EQ_S64(ksession_rotate(k, out, err, sizeof(err)), 0))
			printf("  %s\n", err);
		ask(OP_CLOSE, 100, 100);
		CHECK(ksession_pause(k) == 0 && ksession_resume(k) == 0);
		stop(k);
	}
	as_user(0);
	const char *files[] = {"metadata", "cpu0", "statedump"};
	for (int i = 0; k && i < 3; i++) {
		owned_by(kdir, files[i], user);
		owned_by(chunk, files[i], user);
	}
	struct seen *s = read_trace(chunk);
	CHECK_CTX("the owner's first chunk");
	CHECK(!s->bad && s->closes == 100 && once_each(s->close_n, 0, 100));
	free(s);
	s = read_trace(kdir);
	CHECK_CTX("the owner's second chunk");
	CHECK(!s->bad && s->closes == 100 && once_each(s->close_n, 100, 100));
	free(s);

	snprintf(trap, sizeof(trap), "%s/root-only", tmp);
	snprintf(out2, sizeof(out2), "%s/owner-link", tmp);
	snprintf(link, sizeof(link), "%s/kernel", out2);
	mkdir(trap, 0755);
	mkdir(out2, 0755);
	CHECK(chown(out2, user, user) == 0 && symlink(trap, link) == 0);
	struct kernel_opts o = {0};
	as_user(user);
	int rc = ksession_start(&k, &o, &clock_, out2, err, sizeof(err));
	as_user(0);
	CHECK_CTX("the owner's symlink to a directory of root's");
	CHECK(rc == -EACCES && k == NULL);
	CHECK(rmdir(trap) == 0); /* nothing was written there */
}

int main(void)
{
	int skip = ktracefs_require(tracefs, sizeof(tracefs));
	if (skip)
		return skip;
	snprintf(tmp, sizeof(tmp), "/tmp/test-ksession-XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	have_bt2 = system("babeltrace2 --version >/dev/null 2>&1") == 0;
	if (!have_bt2)
		printf("note: babeltrace2 is not installed; its checks are left out\n");
	rec_clock_calibrate(&clock_);
	start_child();
	snprintf(filter_close, sizeof(filter_close), "sys_enter_close:common_pid == %d && fd >= %d",
	         (int) child, BASE);
	snprintf(filter_dup, sizeof(filter_dup), "sys_enter_dup:common_pid == %d && fildes >= %d",
	         (int) child, BASE);
	enable_disable_pause();
	two_sessions();
	rotation();
	layout_ = KLAYOUT_LTTNG;
	rotation();
	layout_ = KLAYOUT_SPOOR;
	rotation_losses();
	snapshots();
	snapshots_under_load();
	owner_rights();
	stop_child();
	ktracefs_cleanup(tmp, check_failed > 0);
	return check_done();
}
