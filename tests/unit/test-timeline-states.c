/* SPDX-License-Identifier: MIT */
/*
 * test-timeline-states.c: the timeline's state machine (lib/timeline/states.h).
 *
 * - On the busy kernel trace (tests/data/gen_kernel.py --busy) and on many-threads when
 *   ../shared/traces has it: every row's spans are in order, contiguous, never empty; per
 *   thread, the on-CPU states add up to `sched`'s CPU time, wait_cpu to its wait and
 *   blocked to its blocked time (sched run on a second engine over the same trace); the
 *   system call spans are those of a plain reader pass pairing entries and exits.
 * - On a small trace made here: an interrupt inside a system call, an interrupt inside a
 *   softirq, a CPU's time before its first switch: the exact spans of a thread and a CPU.
 * - On an LTTng-UST trace: each mark on the thread its event's vtid names.
 */
#include <stdlib.h>
#include <unistd.h>

#include "analysis/idmap.h"
#include "analysis/sched.h"
#include "check.h"
#include "spoor/trace.h"
#include "timeline/states.h"

struct rec {
	uint8_t kind;
	int64_t id;
	size_t seq;
	struct tl_span s;
};

struct mark {
	int64_t tid, t;
	size_t class_index;
};

struct got {
	struct rec *v;
	size_t n, cap;
	struct mark *m;
	size_t nm, capm;
	size_t events;
};

static void on_span(void *data, enum tl_row_kind kind, int64_t id, const struct tl_span *s)
{
	struct got *g = data;
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 1024;
		g->v = realloc(g->v, g->cap * sizeof(*g->v));
	}
	g->v[g->n] = (struct rec){(uint8_t) kind, id, g->n, *s};
	g->n++;
}

static void on_mark(void *data, int64_t tid, int64_t t, size_t class_index)
{
	struct got *g = data;
	if (g->nm == g->capm) {
		g->capm = g->capm ? 2 * g->capm : 1024;
		g->m = realloc(g->m, g->capm * sizeof(*g->m));
	}
	g->m[g->nm++] = (struct mark){tid, t, class_index};
}

static void on_event(void *data, int64_t t, size_t class_index)
{
	struct got *g = data;
	(void) t;
	(void) class_index;
	g->events++;
}

/* by row, then in the order they came */
static int by_row(const void *x, const void *y)
{
	const struct rec *a = x, *b = y;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static struct spoor_reader *open_trace(const char *path)
{
	const char *paths[] = {path};
	struct spoor_reader *r = NULL;
	char *msg = NULL;
	int rc = spoor_reader_open(paths, 1, &r, &msg);
	CHECK_CTX("open %s", path);
	if (!CHECK_EQ_S64(rc, 0))
		printf("  %s\n", msg ? msg : "(no message)");
	free(msg);
	return rc ? NULL : r;
}

static char gen_path[700];            /* gen_trace's */
static const struct an_filter *range; /* the engines' time range, if any */

struct run {
	struct got g;
	int64_t origin, duration;
	char **calls; /* the system calls' names, by value */
	size_t ncalls;
};

/* The timeline of a trace, its spans sorted by row. */
static bool run_states(const char *path, struct run *out, bool marks, bool events)
{
	struct spoor_reader *r = open_trace(path);
	struct an_engine *e = NULL;
	struct tl_states *st = NULL;
	*out = (struct run){0};
	struct tl_callbacks cb = {&out->g, on_span, marks ? on_mark : NULL,
	                          events ? on_event : NULL};
	if (!r || !CHECK_EQ_S64(an_engine_new(r, range, &e), 0) ||
	    !CHECK_EQ_S64(tl_states_new(e, &cb, &st), 0) || !CHECK_EQ_S64(an_engine_run(e), 0)) {
		tl_states_free(st);
		an_engine_free(e);
		spoor_reader_close(r);
		return false;
	}
	tl_states_finish(st);
	CHECK(!tl_states_oom(st));
	int64_t begin, end;
	an_span(e, &begin, &end);
	out->origin = tl_states_origin(st);
	CHECK_EQ_S64(out->origin, begin);
	out->duration = end - begin;
	out->ncalls = tl_states_syscall_count(st);
	out->calls = calloc(out->ncalls + 1, sizeof(char *));
	for (size_t i = 0; i < out->ncalls; i++)
		out->calls[i] = strdup(tl_states_syscall_name(st, (uint32_t) i));
	CHECK(tl_states_syscall_name(st, (uint32_t) out->ncalls) == NULL);
	tl_states_free(st);
	an_engine_free(e);
	spoor_reader_close(r);
	qsort(out->g.v, out->g.n, sizeof(*out->g.v), by_row);
	return true;
}

static void run_free(struct run *r)
{
	for (size_t i = 0; i < r->ncalls; i++)
		free(r->calls[i]);
	free(r->calls);
	free(r->g.v);
	free(r->g.m);
}

static bool on_cpu(uint8_t s)
{
	return s == TS_USER || s == TS_SYSCALL || s == TS_IRQ || s == TS_SOFTIRQ || s == TS_RUNNING;
}

/* Rows well formed: in order, contiguous, not empty, inside [0, duration]; CPU rows from 0
 * to the end, CPU-only states on CPU rows only. */
static void check_rows(const struct run *run)
{
	const struct got *g = &run->g;
	for (size_t i = 0; i < g->n; i++) {
		const struct rec *x = &g->v[i];
		bool first = !i || g->v[i - 1].kind != x->kind || g->v[i - 1].id != x->id;
		bool last = i + 1 == g->n || g->v[i + 1].kind != x->kind || g->v[i + 1].id != x->id;
		CHECK_CTX("row %s %lld, span %lld..%lld %s", x->kind ? "cpu" : "thread",
		          (long long) x->id, (long long) x->s.begin, (long long) x->s.end,
		          thread_state_name((enum thread_state) x->s.state));
		CHECK(x->s.begin >= 0);
		CHECK(x->s.begin < x->s.end);
		CHECK(x->s.end <= run->duration);
		CHECK(x->s.state < TS_COUNT);
		if (!first) {
			CHECK_EQ_S64(x->s.begin, g->v[i - 1].s.end);
			CHECK(x->s.state != g->v[i - 1].s.state ||
			      x->s.value != g->v[i - 1].s.value);
		}
		if (x->kind == TL_ROW_CPU) {
			if (first)
				CHECK_EQ_S64(x->s.begin, 0);
			if (last)
				CHECK_EQ_S64(x->s.end, run->duration);
		} else {
			CHECK(x->s.state != TS_IDLE);
			CHECK(x->id > 0);
		}
		if (x->s.state == TS_SYSCALL && x->kind == TL_ROW_THREAD)
			CHECK(x->s.value < run->ncalls);
	}
	check_context[0] = '\0';
}

static size_t first_span(const struct got *g, int64_t tid)
{
	size_t lo = 0, hi = g->n; /* sorted by kind, then id */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct rec *x = &g->v[mid];
		if (x->kind == TL_ROW_THREAD && x->id < tid) /* threads come first */
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Per thread, the timeline's times against sched's on the same trace. */
static void check_against_sched(const char *path, const struct run *run)
{
	struct spoor_reader *r = open_trace(path);
	struct an_engine *e = NULL;
	struct sched_analysis *a = NULL;
	if (!r || !CHECK_EQ_S64(an_engine_new(r, range, &e), 0) ||
	    !CHECK((a = sched_analysis_new(e, 0)) != NULL) || !CHECK_EQ_S64(an_engine_run(e), 0))
		goto out;
	const struct sched_thread *th;
	size_t n = sched_analysis_threads(a, &th), checked = 0;
	/* an exiting thread preempted (dead, to sched) and run again: unknown in between */
	bool lossy = an_events_lost(e) > 0;
	const struct got *g = &run->g;
	for (size_t k = 0; k < n; k++) {
		int64_t cpu = 0, wait = 0, blocked = 0, unwoken = 0, cut_cpu = 0, cut_wait = 0;
		int64_t on = 0; /* on a CPU since the last switch-in */
		for (size_t i = first_span(g, th[k].tid);
		     i < g->n && g->v[i].kind == TL_ROW_THREAD && g->v[i].id == th[k].tid; i++) {
			const struct tl_span *s = &g->v[i].s;
			int64_t d = s->end - s->begin;
			cpu += on_cpu(s->state) ? d : 0;
			wait += s->state == TS_WAIT_CPU ? d : 0;
			blocked += s->state == TS_BLOCKED ? d : 0;
			/* sched counts no blocked time for a thread run without a wake-up */
			bool same = i + 1 < g->n && g->v[i + 1].kind == TL_ROW_THREAD &&
			            g->v[i + 1].id == th[k].tid;
			if (s->state == TS_BLOCKED && same && on_cpu(g->v[i + 1].s.state))
				unwoken += d;
			/* nor the time on a CPU or waiting for one that a loss cut (what it
			 * knew of them is lost): the timeline shows what came before it */
			on = on_cpu(s->state) ? on + d : 0;
			if (lossy && same && g->v[i + 1].s.state == TS_UNKNOWN) {
				cut_cpu += on;
				cut_wait += s->state == TS_WAIT_CPU ? d : 0;
			}
		}
		CHECK_CTX("%s: thread %lld", path, (long long) th[k].tid);
		checked += CHECK_EQ_S64(cpu - cut_cpu, th[k].cpu_ns);
		CHECK_EQ_S64(wait - cut_wait, th[k].wait_ns);
		CHECK_EQ_S64(blocked - unwoken, th[k].blocked_ns);
	}
	check_context[0] = '\0';
	CHECK(n > 0);
	printf("%s: %zu threads, %zu spans, on-CPU time as sched's for %zu\n", path, n, g->n,
	       checked);
out:
	sched_analysis_free(a);
	an_engine_free(e);
	spoor_reader_close(r);
}

/* The system calls of a plain reader pass: an entry (syscall_entry_NAME) to the same task's
 * next exit, the task being the one its CPU's last switch put there. Each is a syscall span
 * of the thread's row that begins at the entry, and its last syscall span before the thread
 * is back in user space (or in another call) ends at the exit: interrupts, waits and sleeps
 * may come between. */
struct pending {
	int64_t start;
	char name[64];
};

static void check_call(const struct run *run, int64_t tid, const struct pending *p, int64_t end,
                       size_t *found)
{
	const struct got *g = &run->g;
	size_t i = first_span(g, tid);
	while (i < g->n && g->v[i].kind == TL_ROW_THREAD && g->v[i].id == tid &&
	       g->v[i].s.end <= p->start)
		i++;
	if (!CHECK(i < g->n && g->v[i].kind == TL_ROW_THREAD && g->v[i].id == tid &&
	           g->v[i].s.state == TS_SYSCALL && g->v[i].s.begin == p->start))
		return;
	uint32_t call = g->v[i].s.value;
	CHECK_STR(call < run->ncalls ? run->calls[call] : NULL, p->name);
	int64_t last = g->v[i].s.end;
	for (i++; i < g->n && g->v[i].kind == TL_ROW_THREAD && g->v[i].id == tid; i++) {
		const struct tl_span *s = &g->v[i].s;
		if (s->state == TS_USER || s->state == TS_RUNNING ||
		    (s->state == TS_SYSCALL && s->value != call))
			break;
		if (s->state == TS_SYSCALL)
			last = s->end;
	}
	*found += CHECK_EQ_S64(last, end);
}

static void check_syscalls(const char *path, const struct run *run)
{
	struct spoor_reader *r = open_trace(path);
	const struct spoor_event *ev;
	enum { MAXC = 256 };
	int64_t cur[MAXC];
	for (int c = 0; c < MAXC; c++)
		cur[c] = -1;
	struct idmap by_tid = {0};
	struct pending *p = NULL;
	size_t np = 0, calls = 0, found = 0;
	while (r && spoor_reader_next(r, &ev) > 0) {
		int64_t c = spoor_event_cpu(ev), v;
		const char *n = spoor_event_name(ev);
		struct spoor_field f;
		if (c < 0 || c >= MAXC)
			continue;
		if (!strcmp(n, "sched_switch") &&
		    (spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, "next_tid", &f) ||
		     spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, "next_pid", &f)) &&
		    spoor_field_int(&f, &v))
			cur[c] = v;
		/* the event's own task where it has one (spoor's kernel traces: switches from
		 * the idle task may be missing) */
		if (spoor_event_field(ev, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, "common_pid", &f) &&
		    spoor_field_int(&f, &v))
			cur[c] = v;
		/* LTTng's names, or ftrace's (spoor's kernel traces) */
		size_t entry = !strncmp(n, "syscall_entry_", 14) ? 14
		               : !strncmp(n, "sys_enter_", 10)   ? 10
		                                                 : 0;
		if (cur[c] <= 0 ||
		    (!entry && strncmp(n, "syscall_exit_", 13) && strncmp(n, "sys_exit_", 9)))
			continue;
		uint32_t *k = idmap_find(&by_tid, (uint64_t) cur[c]);
		if (!k) {
			p = realloc(p, (np + 1) * sizeof(*p));
			p[np].start = -1;
			idmap_add(&by_tid, (uint64_t) cur[c], (uint32_t) np);
			k = idmap_find(&by_tid, (uint64_t) cur[c]);
			np++;
		}
		struct pending *q = &p[*k];
		int64_t t = spoor_event_timestamp(ev) - run->origin;
		if (entry) {
			q->start = t;
			snprintf(q->name, sizeof(q->name), "%s", n + entry);
		} else if (q->start >= 0) {
			CHECK_CTX("%s: thread %lld: %s at %lld..%lld", path, (long long) cur[c],
			          q->name, (long long) q->start, (long long) t);
			calls++;
			check_call(run, cur[c], q, t, &found);
			q->start = -1;
		}
	}
	check_context[0] = '\0';
	CHECK(calls > 0);
	CHECK_EQ_U64(found, calls);
	printf("%s: %zu system calls as the reader pairs them\n", path, calls);
	free(p);
	idmap_free(&by_tid);
	spoor_reader_close(r);
}

static void test_trace(const char *path, bool syscalls)
{
	struct run run;
	if (!run_states(path, &run, false, true))
		return;
	CHECK(run.g.n > 0);
	CHECK(run.g.events > 0);
	check_rows(&run);
	check_against_sched(path, &run);
	if (syscalls)
		check_syscalls(path, &run);
	/* the middle third only (--begin, --end): as if the trace were cut there */
	struct an_filter f = {.has_begin = true,
	                      .has_end = true,
	                      .begin = run.origin + run.duration / 3,
	                      .end = run.origin + 2 * run.duration / 3};
	run_free(&run);
	range = &f;
	CHECK_CTX("%s, the middle third", path);
	if (run_states(path, &run, false, false)) {
		CHECK(run.origin >= f.begin);
		CHECK(run.origin + run.duration <= f.end);
		check_rows(&run);
		check_against_sched(path, &run);
		run_free(&run);
	}
	range = NULL;
}

/* ---- a small trace with the nestings spelled out ---- */

struct want {
	int64_t begin, end;
	enum thread_state state;
	int64_t value; /* a call's: -1, checked by name */
	const char *call;
};

static void check_row(const struct run *run, enum tl_row_kind kind, int64_t id,
                      const struct want *w, size_t n)
{
	const struct got *g = &run->g;
	size_t i = 0, k = 0;
	while (i < g->n && (g->v[i].kind != kind || g->v[i].id != id))
		i++;
	for (; i < g->n && g->v[i].kind == kind && g->v[i].id == id; i++, k++) {
		const struct tl_span *s = &g->v[i].s;
		CHECK_CTX("%s %lld, span %zu", kind ? "cpu" : "thread", (long long) id, k);
		if (!CHECK(k < n))
			break;
		CHECK_EQ_S64(s->begin, w[k].begin);
		CHECK_EQ_S64(s->end, w[k].end);
		CHECK_STR(thread_state_name((enum thread_state) s->state),
		          thread_state_name(w[k].state));
		if (w[k].call)
			CHECK_STR(s->value < run->ncalls ? run->calls[s->value] : NULL, w[k].call);
		else
			CHECK_EQ_S64(s->value, w[k].value);
	}
	CHECK_CTX("%s %lld", kind ? "cpu" : "thread", (long long) id);
	CHECK_EQ_U64(k, n);
	check_context[0] = '\0';
}

static const char nested_py[] =
    "import sys; sys.path.insert(0, sys.argv[1]); import gen_kernel as k\n"
    "c = {0: 'swapper', 5: 'C', 10: 'A', 20: 'B', 30: 'D'}\n"
    "e = [(50, 0, 'syscall_entry_getpid', {'dummy': 0}),\n"
    "     (60, 0, 'syscall_exit_getpid', {'ret': 5}),\n"
    "     k.switch(100, 0, 5, 10, c),\n"
    "     (200, 0, 'syscall_entry_read', {'fd': 3, 'count': 10}),\n"
    "     (300, 0, 'irq_handler_entry', {'irq': 5, 'name': 'eth0'}),\n"
    "     (350, 0, 'irq_handler_exit', {'irq': 5, 'ret': 1}),\n"
    "     (400, 0, 'syscall_exit_read', {'ret': 10}),\n"
    "     (500, 0, 'irq_softirq_entry', {'vec': 3}),\n"
    "     (520, 0, 'irq_handler_entry', {'irq': 7, 'name': 't'}),\n"
    "     (530, 0, 'irq_handler_exit', {'irq': 7, 'ret': 1}),\n"
    "     (600, 0, 'irq_softirq_exit', {'vec': 3}),\n"
    "     k.switch(700, 0, 10, 0, c),\n"
    "     k.switch(900, 0, 0, 10, c),\n"
    "     (950, 0, 'syscall_entry_write', {'fd': 1, 'count': 1}),\n"
    "     (980, 0, 'syscall_exit_write', {'ret': 1}),\n"
    "     (120, 1, 'syscall_exit_write', {'ret': 1}),\n"
    "     k.switch(150, 1, 30, 20, c),\n"
    "     (300, 1, 'syscall_exit_read', {'ret': 1}),\n"
    "     (800, 1, 'sched_wakeup', {'comm': 'A', 'tid': 10, 'prio': 20, 'target_cpu': 0}),\n"
    "     k.switch(1000, 1, 20, 0, c, state=0)]\n"
    "k.write(sys.argv[2], e)\n";

/* Times in the trace's ns (from 50, its first event) made relative. */
#define T(a, b) (a) - 50, (b) -50

/* A trace written by a gen_kernel script, at dir/name (run->path). */
static bool gen_trace(const char *data, const char *dir, const char *name, const char *py)
{
	char script[700], cmd[2200];
	snprintf(gen_path, sizeof(gen_path), "%s/%s", dir, name);
	snprintf(script, sizeof(script), "%s/%s.py", dir, name);
	FILE *f = fopen(script, "w");
	CHECK_CTX("%s", script);
	if (!CHECK(f != NULL))
		return false;
	fputs(py, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 '%s' '%s' '%s'", script, data, gen_path);
	return CHECK_EQ_S64(system(cmd), 0);
}

static void test_nested(const char *data, const char *dir)
{
	struct run run;
	if (!gen_trace(data, dir, "nested", nested_py) || !run_states(gen_path, &run, false, false))
		return;
	check_rows(&run);
	check_against_sched(gen_path, &run);
	static const struct want c5[] = {
	    /* before CPU 0's first switch: its prev_tid's, from the span's start */
	    {T(50, 60), TS_SYSCALL, -1, "getpid"},
	    {T(60, 100), TS_USER, 0, NULL},
	    {T(100, 1000), TS_BLOCKED, 0, NULL}, /* never woken */
	};
	static const struct want a10[] = {
	    {T(100, 200), TS_USER, 0, NULL},        {T(200, 300), TS_SYSCALL, -1, "read"},
	    {T(300, 350), TS_IRQ, 5, NULL},         {T(350, 400), TS_SYSCALL, -1, "read"},
	    {T(400, 500), TS_USER, 0, NULL},        {T(500, 520), TS_SOFTIRQ, 3, NULL},
	    {T(520, 530), TS_IRQ, 7, NULL},         {T(530, 600), TS_SOFTIRQ, 3, NULL},
	    {T(600, 700), TS_USER, 0, NULL},        {T(700, 800), TS_BLOCKED, 0, NULL},
	    {T(800, 900), TS_WAIT_CPU, 0, NULL},    {T(900, 950), TS_USER, 0, NULL},
	    {T(950, 980), TS_SYSCALL, -1, "write"}, {T(980, 1000), TS_USER, 0, NULL},
	};
	static const struct want b20[] = {
	    {T(150, 300), TS_SYSCALL, -1, "read"}, /* entered before the trace */
	    {T(300, 1000), TS_USER, 0, NULL},      /* preempted at the very end */
	};
	static const struct want cpu0[] = {
	    {T(50, 60), TS_SYSCALL, 5, NULL},  {T(60, 100), TS_USER, 5, NULL},
	    {T(100, 200), TS_USER, 10, NULL},  {T(200, 300), TS_SYSCALL, 10, NULL},
	    {T(300, 350), TS_IRQ, 5, NULL},    {T(350, 400), TS_SYSCALL, 10, NULL},
	    {T(400, 500), TS_USER, 10, NULL},  {T(500, 520), TS_SOFTIRQ, 3, NULL},
	    {T(520, 530), TS_IRQ, 7, NULL},    {T(530, 600), TS_SOFTIRQ, 3, NULL},
	    {T(600, 700), TS_USER, 10, NULL},  {T(700, 900), TS_IDLE, 0, NULL},
	    {T(900, 950), TS_USER, 10, NULL},  {T(950, 980), TS_SYSCALL, 10, NULL},
	    {T(980, 1000), TS_USER, 10, NULL},
	};
	static const struct want d30[] = {
	    {T(50, 120), TS_SYSCALL, -1, "write"}, /* before the trace and CPU 1's first switch */
	    {T(120, 150), TS_USER, 0, NULL},
	    {T(150, 1000), TS_BLOCKED, 0, NULL},
	};
	static const struct want cpu1[] = {
	    {T(50, 120), TS_SYSCALL, 30, NULL},
	    {T(120, 150), TS_USER, 30, NULL},
	    {T(150, 300), TS_SYSCALL, 20, NULL},
	    {T(300, 1000), TS_USER, 20, NULL},
	};
	CHECK_EQ_S64(run.duration, 950);
	check_row(&run, TL_ROW_THREAD, 5, c5, sizeof(c5) / sizeof(c5[0]));
	check_row(&run, TL_ROW_THREAD, 10, a10, sizeof(a10) / sizeof(a10[0]));
	check_row(&run, TL_ROW_THREAD, 20, b20, sizeof(b20) / sizeof(b20[0]));
	check_row(&run, TL_ROW_THREAD, 30, d30, sizeof(d30) / sizeof(d30[0]));
	check_row(&run, TL_ROW_CPU, 0, cpu0, sizeof(cpu0) / sizeof(cpu0[0]));
	check_row(&run, TL_ROW_CPU, 1, cpu1, sizeof(cpu1) / sizeof(cpu1[0]));
	run_free(&run);
}

static const char lossy_py[] =
    "import sys; sys.path.insert(0, sys.argv[1]); import gen_kernel as k\n"
    "c = {0: 'swapper', 10: 'A', 20: 'B', 30: 'C'}\n"
    "e = [k.switch(100, 0, 0, 10, c),\n"
    "     (150, 0, 'sched_wakeup', {'comm': 'B', 'tid': 20, 'prio': 20, 'target_cpu': 0}),\n"
    "     (200, 0, 'syscall_entry_read', {'fd': 3, 'count': 10}),\n"
    "     (400, 0, 'syscall_exit_read', {'ret': 10}),\n"
    "     k.switch(500, 0, 10, 20, c, state=0),\n"
    "     k.switch(600, 0, 20, 0, c),\n"
    "     k.switch(50, 1, 0, 30, c),\n"
    "     k.switch(800, 1, 30, 0, c)]\n"
    "k.write(sys.argv[2], e, losses={0: [(3, 5)]})\n";

/* Events lost on a CPU: its row and its running thread's are unknown up to its next switch,
 * and so are the threads sched.h forgets (one woken to run there). */
static void test_lossy(const char *data, const char *dir)
{
	struct run run;
	if (!gen_trace(data, dir, "lossy", lossy_py) || !run_states(gen_path, &run, false, false))
		return;
	check_rows(&run);
	check_against_sched(gen_path, &run);
	static const struct want a10[] = {
	    {T(100, 200), TS_USER, 0, NULL},
	    {T(200, 400), TS_SYSCALL, -1, "read"},
	    {T(400, 500), TS_UNKNOWN, 0, NULL}, /* the loss shows at the exit */
	    {T(500, 800), TS_WAIT_CPU, 0, NULL},
	};
	static const struct want b20[] = {
	    {T(150, 400), TS_WAIT_CPU, 0, NULL},
	    {T(400, 500), TS_UNKNOWN, 0, NULL}, /* its wake-up aimed at CPU 0 */
	    {T(500, 600), TS_USER, 0, NULL},
	    {T(600, 800), TS_BLOCKED, 0, NULL},
	};
	static const struct want cpu0[] = {
	    {T(50, 100), TS_IDLE, 0, NULL},      {T(100, 200), TS_USER, 10, NULL},
	    {T(200, 400), TS_SYSCALL, 10, NULL}, {T(400, 500), TS_UNKNOWN, 0, NULL},
	    {T(500, 600), TS_USER, 20, NULL},    {T(600, 800), TS_IDLE, 0, NULL},
	};
	check_row(&run, TL_ROW_THREAD, 10, a10, sizeof(a10) / sizeof(a10[0]));
	check_row(&run, TL_ROW_THREAD, 20, b20, sizeof(b20) / sizeof(b20[0]));
	check_row(&run, TL_ROW_CPU, 0, cpu0, sizeof(cpu0) / sizeof(cpu0[0]));
	run_free(&run);
}

static const char nosys_py[] =
    "import sys; sys.path.insert(0, sys.argv[1]); import gen_kernel as k\n"
    "c = {0: 'swapper', 10: 'A'}\n"
    "e = [k.switch(100, 0, 0, 10, c),\n"
    "     (150, 0, 'irq_handler_entry', {'irq': 3, 'name': 'x'}),\n"
    "     (160, 0, 'irq_handler_exit', {'irq': 3, 'ret': 1}),\n"
    "     k.switch(200, 0, 10, 0, c),\n"
    "     (250, 0, 'sched_wakeup', {'comm': 'A', 'tid': 10, 'prio': 20, 'target_cpu': 0}),\n"
    "     k.switch(300, 0, 0, 10, c),\n"
    "     k.switch(400, 0, 10, 0, c, state=0)]\n"
    "k.write(sys.argv[2], e)\n";

/* A trace without system call events: `running`, not `user`. */
static void test_no_syscalls(const char *data, const char *dir)
{
	struct run run;
	if (!gen_trace(data, dir, "nosys", nosys_py) || !run_states(gen_path, &run, false, false))
		return;
	check_rows(&run);
	check_against_sched(gen_path, &run);
	/* times from 100, the trace's first event */
	static const struct want a10[] = {
	    {0, 50, TS_RUNNING, 0, NULL},     {50, 60, TS_IRQ, 3, NULL},
	    {60, 100, TS_RUNNING, 0, NULL},   {100, 150, TS_BLOCKED, 0, NULL},
	    {150, 200, TS_WAIT_CPU, 0, NULL}, {200, 300, TS_RUNNING, 0, NULL},
	};
	static const struct want cpu0[] = {
	    {0, 50, TS_RUNNING, 10, NULL},    {50, 60, TS_IRQ, 3, NULL},
	    {60, 100, TS_RUNNING, 10, NULL},  {100, 200, TS_IDLE, 0, NULL},
	    {200, 300, TS_RUNNING, 10, NULL},
	};
	check_row(&run, TL_ROW_THREAD, 10, a10, sizeof(a10) / sizeof(a10[0]));
	check_row(&run, TL_ROW_CPU, 0, cpu0, sizeof(cpu0) / sizeof(cpu0[0]));
	CHECK_EQ_U64(run.ncalls, 0);
	run_free(&run);
}

static const char long_prefix_py[] =
    "import sys; sys.path.insert(0, sys.argv[1]); import gen_kernel as k\n"
    "c = {0: 'swapper', 10: 'A', 20: 'B'}\n"
    "e = []\n"
    "for i in range(10000):\n"
    "    e.append((100 + 10 * i, 0, 'syscall_entry_getpid', {'dummy': 0}))\n"
    "    e.append((105 + 10 * i, 0, 'syscall_exit_getpid', {'ret': 10}))\n"
    "e.append(k.switch(200000, 0, 10, 20, c))\n"
    "e.append(k.switch(200100, 0, 20, 0, c))\n"
    "k.write(sys.argv[2], e)\n";

/* More state changes on a CPU before its first switch than are kept for its thread: the
 * CPU row goes on, unknown from there to the switch. */
static void test_long_prefix(const char *data, const char *dir)
{
	struct run run;
	if (!gen_trace(data, dir, "prefix", long_prefix_py) ||
	    !run_states(gen_path, &run, false, false))
		return;
	check_rows(&run);
	/* times from 100, the trace's first event */
	static const struct want cpu0[] = {
	    {0, 199900, TS_UNKNOWN, 0, NULL},
	    {199900, 200000, TS_USER, 20, NULL},
	};
	static const struct want a10[] = {
	    {199900, 200000, TS_BLOCKED, 0, NULL}, /* its time on the CPU was not kept */
	};
	check_row(&run, TL_ROW_CPU, 0, cpu0, sizeof(cpu0) / sizeof(cpu0[0]));
	check_row(&run, TL_ROW_THREAD, 10, a10, sizeof(a10) / sizeof(a10[0]));
	run_free(&run);
}

/* ---- user-space marks ---- */

/* Each event of the trace (all user space) is a mark, at its time, on its vtid's row. */
static void test_marks(const char *path)
{
	struct run run;
	if (!run_states(path, &run, true, false))
		return;
	struct spoor_reader *r = open_trace(path);
	const struct spoor_event *ev;
	size_t n = 0, same = 0;
	while (r && spoor_reader_next(r, &ev) > 0) {
		struct spoor_field f;
		int64_t tid = -1;
		if (spoor_event_field(ev, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, "vtid", &f) ||
		    spoor_event_field(ev, SPOOR_SCOPE_PACKET_CONTEXT, "vtid", &f))
			spoor_field_int(&f, &tid);
		if (n < run.g.nm) {
			const struct mark *m = &run.g.m[n];
			CHECK_CTX("%s: event %zu", path, n);
			same += CHECK_EQ_S64(m->tid, tid) &&
			        CHECK_EQ_S64(m->t, spoor_event_timestamp(ev) - run.origin) &&
			        CHECK_EQ_U64(m->class_index,
			                     spoor_event_class_index(spoor_event_class(ev)));
		}
		n++;
	}
	check_context[0] = '\0';
	size_t tids = 0; /* the threads marked, each once */
	for (size_t i = 0; i < run.g.nm; i++) {
		bool again = false;
		for (size_t j = 0; j < i && !again; j++)
			again = run.g.m[j].tid == run.g.m[i].tid;
		tids += !again;
		CHECK(run.g.m[i].tid > 0);
	}
	CHECK(n > 0);
	CHECK(tids > 1);
	CHECK_EQ_U64(run.g.nm, n);
	CHECK_EQ_U64(same, n);
	check_rows(&run);
	printf("%s: %zu marks on %zu threads\n", path, n, tids);
	spoor_reader_close(r);
	run_free(&run);
}

/* spoor's own user-space trace (the thread in the packet context): examples/hello's 3
 * threads, recorded here. */
static void test_own_marks(const char *dir)
{
	const char *build = getenv("SPOOR_BUILD");
	char path[700], cmd[2400];
	if (!CHECK(build != NULL))
		return;
	snprintf(path, sizeof(path), "%s/hello", dir);
	snprintf(cmd, sizeof(cmd),
	         "SPOOR_SYSTEM_SOCKET=/nonexistent/spoor/daemon.sock "
	         "SPOOR_USER_SOCKET=/nonexistent/spoor/user.sock "
	         "'%s/spoor' record -o '%s' -b 16m -- '%s/hello' 20 3 >/dev/null 2>&1",
	         build, path, build);
	CHECK_CTX("%s", cmd);
	if (!CHECK_EQ_S64(system(cmd), 0))
		return;
	test_marks(path);
}

/* A kernel trace beside a user-space one whose streams lost events (spoor record -k ...
 * -- prog writes both): the marks are the user-space events, and the kernel's rows know
 * nothing of those losses (no CPU unknown). */
static void test_combined(const char *data, const char *dir)
{
	char path[700], cmd[4096];
	snprintf(path, sizeof(path), "%s/combined", dir);
	snprintf(
	    cmd, sizeof(cmd),
	    "mkdir -p '%s' && cp -r '%s' '%s/kernel' && cp -r '%s/traces/ust-discard' '%s/ust'",
	    path, gen_path, path, data, path);
	CHECK_CTX("%s", cmd);
	struct run run;
	if (!CHECK_EQ_S64(system(cmd), 0) || !run_states(path, &run, true, false))
		return;
	check_rows(&run);
	check_against_sched(path, &run);
	struct spoor_reader *r = open_trace(path);
	const struct spoor_event *ev;
	size_t user = 0, unknown = 0, cpu_spans = 0;
	while (r && spoor_reader_next(r, &ev) > 0) {
		const char *domain = spoor_reader_trace_env(r, spoor_event_trace(ev), "domain");
		user += domain && !strcmp(domain, "ust");
	}
	for (size_t i = 0; i < run.g.n; i++)
		if (run.g.v[i].kind == TL_ROW_CPU) {
			cpu_spans++;
			unknown += run.g.v[i].s.state == TS_UNKNOWN;
		}
	CHECK_CTX("%s", path);
	CHECK(user > 0);
	CHECK_EQ_U64(run.g.nm, user);
	CHECK(cpu_spans > 0);
	CHECK_EQ_U64(unknown, 0);
	check_context[0] = '\0';
	spoor_reader_close(r);
	run_free(&run);
}

/* With arguments: the checks on those traces only (any kernel trace at hand). */
int main(int argc, char **argv)
{
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			test_trace(argv[i], true);
		return check_done();
	}
	const char *data = getenv("SPOOR_TEST_DATA"), *tmp = getenv("TMPDIR");
	const char *shared = getenv("SHARED_TRACES");
	char dir[512], path[700], cmd[1400];

	snprintf(dir, sizeof(dir), "%s/spoor-tl-states-XXXXXX", tmp ? tmp : "/tmp");
	if (!data || !mkdtemp(dir)) {
		printf("SPOOR_TEST_DATA not set or no temporary directory\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/busy", dir);
	snprintf(cmd, sizeof(cmd), "python3 '%s/gen_kernel.py' --busy '%s' >/dev/null", data, path);
	CHECK_CTX("gen_kernel.py --busy");
	if (CHECK_EQ_S64(system(cmd), 0))
		test_trace(path, true);
	test_nested(data, dir);
	test_combined(data, dir); /* gen_path: the nested trace, which lost nothing */
	test_lossy(data, dir);
	test_no_syscalls(data, dir);
	test_long_prefix(data, dir);
	snprintf(path, sizeof(path), "%s/traces/ust-discard", data);
	test_marks(path);
	test_own_marks(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	snprintf(path, sizeof(path), "%s/lttng/many-threads", shared ? shared : "");
	if (shared && !access(path, R_OK))
		test_trace(path, true);
	else
		printf("note: no LTTng trace at '%s' (SHARED_TRACES): the traces of our own only\n",
		       path);
	check_context[0] = '\0';
	return check_done();
}
