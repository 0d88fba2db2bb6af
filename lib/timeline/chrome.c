/* SPDX-License-Identifier: MIT */
/* chrome.c: the Trace Event Format export on the analysis engine (see chrome.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chrome-int.h"
#include "procnames.h"
#include "reader/reader.h"
#include "spoor/trace.h"
#include "util/grow.h"

int64_t ch_rel(struct tl_chrome *c, int64_t abs)
{
	if (!c->has_origin) {
		int64_t end;
		an_span(c->e, &c->origin, &end);
		c->has_origin = true;
	}
	return abs - c->origin;
}

struct ch_cpu *ch_cpu(struct tl_chrome *c, int64_t cpu)
{
	if (cpu < 0 || cpu >= 1 << 20)
		return NULL;
	if ((size_t) cpu >= c->ncpus) {
		size_t n = (size_t) cpu + 1;
		struct ch_cpu *bigger = realloc(c->cpus, n * sizeof(*bigger));
		if (!bigger) {
			c->oom = true;
			return NULL;
		}
		for (size_t i = c->ncpus; i < n; i++)
			bigger[i] = (struct ch_cpu){.bin = -1, .shown = -1};
		c->cpus = bigger;
		c->ncpus = n;
	}
	c->cpus[cpu].seen = true;
	return &c->cpus[cpu];
}

/* The thread's row: its pid as the trace says it now (else pid_hint, a user-space
 * event's vpid, else the tid), a new row when that changed. NULL: out of memory. */
static struct ch_thread *thread(struct tl_chrome *c, int64_t tid, int64_t pid_hint)
{
	int64_t pid = an_task_pid_said(c->e, tid);
	if (pid < 0)
		pid = pid_hint >= 0 ? pid_hint : tid;
	uint32_t *at = idmap_find(&c->by_tid, (uint64_t) tid);
	if (at && c->threads[*at].pid == pid)
		return &c->threads[*at];
	if (grow_one(&c->threads, c->nthreads, &c->capthreads, sizeof(*c->threads), 64))
		return NULL;
	if (at)
		*at = (uint32_t) c->nthreads;
	else if (idmap_add(&c->by_tid, (uint64_t) tid, (uint32_t) c->nthreads))
		return NULL;
	c->threads[c->nthreads] = (struct ch_thread){.tid = tid, .pid = pid};
	return &c->threads[c->nthreads++];
}

/* ---- spans ---- */

/* One complete event: a span of a row. */
static void write_span(struct tl_chrome *c, int64_t pid, int64_t tid, int64_t begin, int64_t end,
                       const char *name, uint8_t state, const char *arg, int64_t value)
{
	const char *sname = thread_state_name((enum thread_state) state);
	if (!name)
		name = sname ? sname : "?";
	if (!tef_event(&c->t, 'X', pid, tid, begin)) {
		an_engine_stop(c->e);
		return;
	}
	tef_us(&c->t, "dur", end - begin);
	tef_str(&c->t, "cat", "state", 5);
	tef_str(&c->t, "name", name, strlen(name));
	tef_object(&c->t, "args");
	tef_str(&c->t, "state", sname ? sname : "?", sname ? strlen(sname) : 1);
	if (arg)
		tef_int(&c->t, arg, value);
	tef_close(&c->t);
	tef_close(&c->t);
}

static bool on_cpu(uint8_t state)
{
	return state == TS_USER || state == TS_SYSCALL || state == TS_RUNNING;
}

/* A CPU row's run of one thread: named by the thread (the resource view: who ran). */
static void flush_run(struct tl_chrome *c, int64_t cpu)
{
	struct ch_cpu *u = &c->cpus[cpu];
	if (!u->run_end)
		return;
	write_span(c, TL_CHROME_CPU_PID, ch_cpu_tid(cpu), u->run_begin, u->run_end,
	           an_task_comm(c->e, u->run_tid), u->run_state, "tid", u->run_tid);
	u->run_end = 0;
}

static void cpu_span(struct tl_chrome *c, int64_t cpu, int64_t begin, int64_t end,
                     const struct tl_span *s)
{
	struct ch_cpu *u = ch_cpu(c, cpu);
	if (!u)
		return;
	ch_busy_span(c, cpu, begin, end, s->state != TS_IDLE && s->state != TS_UNKNOWN);
	/* a thread's user and system call spans in a row are one run here (its own row
	 * has them apart): half the file for a trace of system calls */
	if (on_cpu(s->state) && u->run_end == begin && u->run_tid == s->value && begin) {
		u->run_end = end;
		u->run_state = u->run_state == s->state ? s->state : TS_RUNNING;
		return;
	}
	flush_run(c, cpu);
	if (on_cpu(s->state)) {
		u->run_begin = begin;
		u->run_end = end;
		u->run_tid = s->value;
		u->run_state = s->state;
	} else
		write_span(c, TL_CHROME_CPU_PID, ch_cpu_tid(cpu), begin, end, NULL, s->state,
		           s->state == TS_IRQ       ? "irq"
		           : s->state == TS_SOFTIRQ ? "vec"
		                                    : NULL,
		           s->value);
}

static void on_span(void *data, enum tl_row_kind kind, int64_t id, const struct tl_span *s)
{
	struct tl_chrome *c = data;
	int64_t begin = s->begin, end = s->end;
	/* the range's ends, relative (states' origin is ours: ch_rel) */
	if (c->o.has_begin && begin < ch_rel(c, c->o.begin))
		begin = ch_rel(c, c->o.begin);
	if (c->o.has_end && end > ch_rel(c, c->o.end))
		end = ch_rel(c, c->o.end);
	if (begin < 0)
		begin = 0;
	if (end <= begin)
		return;
	if (kind == TL_ROW_CPU) {
		cpu_span(c, id, begin, end, s);
		return;
	}
	struct ch_thread *th = thread(c, id, -1);
	if (!th) {
		c->oom = true;
		return;
	}
	const char *name = s->state == TS_SYSCALL ? tl_states_syscall_name(c->st, s->value) : NULL;
	write_span(c, th->pid, id, begin, end, name, s->state,
	           s->state == TS_IRQ       ? "irq"
	           : s->state == TS_SOFTIRQ ? "vec"
	                                    : NULL,
	           s->value);
}

/* A call: on its thread's calls row, in the process the thread's row is in. */
static void on_call(void *data, const struct tl_call *k)
{
	struct tl_chrome *c = data;
	int64_t begin = k->begin, end = k->end;
	if ((c->o.has_begin && end < ch_rel(c, c->o.begin)) ||
	    (c->o.has_end && begin > ch_rel(c, c->o.end)))
		return; /* outside the range; a call partly in it is clipped to it */
	if (c->o.has_begin && begin < ch_rel(c, c->o.begin))
		begin = ch_rel(c, c->o.begin);
	if (c->o.has_end && end > ch_rel(c, c->o.end))
		end = ch_rel(c, c->o.end);
	/* the thread's latest row (a user-space event's set its process) */
	uint32_t *row = idmap_find(&c->by_tid, (uint64_t) k->tid);
	struct ch_thread *th = row ? &c->threads[*row] : thread(c, k->tid, -1);
	uint32_t *at = th ? idmap_find(&c->by_caller, (uint64_t) k->tid) : NULL;
	if (th && !at) {
		if (grow_one(&c->callers, c->ncallers, &c->capcallers, sizeof(*c->callers), 16) ||
		    idmap_add(&c->by_caller, (uint64_t) k->tid, (uint32_t) c->ncallers))
			th = NULL;
		else
			c->callers[c->ncallers++] =
			    (struct ch_thread){.tid = k->tid, .pid = th->pid};
	}
	if (!th) {
		c->oom = true;
		return;
	}
	const char *name = tl_flame_function_name(c->fl, k->function);
	if (!tef_event(&c->t, 'X', th->pid, TL_CHROME_CALLS_TID + k->tid, begin)) {
		an_engine_stop(c->e);
		return;
	}
	tef_us(&c->t, "dur", end - begin);
	tef_str(&c->t, "cat", "call", 4);
	tef_str(&c->t, "name", name, strlen(name));
	if (k->flags) { /* what the trace lacks of it (analysis/calls.h) */
		tef_object(&c->t, "args");
		tef_int(&c->t, "flags", k->flags);
		tef_close(&c->t);
	}
	tef_close(&c->t);
}

/* ---- instants and rates ---- */

/* The thread of a user-space event: its vpid when the kernel did not say, and its
 * procname for a name. */
static struct ch_thread *event_thread(struct tl_chrome *c, const struct an_event *a)
{
	struct ch_class *k = &c->classes[a->class_index];
	const struct spoor_event_class *ec = spoor_event_class(a->ev);
	struct spoor_field f;
	int64_t pid = -1;
	if (!k->resolved) {
		tl_context_field(ec, "vpid", &k->pid_scope, &k->pid_index);
		tl_context_field(ec, "procname", &k->name_scope, &k->name_index);
		k->resolved = true;
	}
	if (k->pid_index >= 0 &&
	    spoor_event_field_at(a->ev, (enum spoor_scope) k->pid_scope, k->pid_index, &f))
		spoor_field_int(&f, &pid);
	struct ch_thread *th = thread(c, a->tid, pid);
	if (th && !th->comm[0] && k->name_index >= 0 &&
	    spoor_event_field_at(a->ev, (enum spoor_scope) k->name_scope, k->name_index, &f) &&
	    f.kind == SPOOR_FIELD_STRING) {
		size_t n = strnlen(f.v.str.ptr, f.v.str.len < 16 ? f.v.str.len : 16);
		memcpy(th->comm, f.v.str.ptr, n);
		th->comm[n] = 0;
	}
	return th;
}

static void on_instant(void *data, const struct an_event *a)
{
	struct tl_chrome *c = data;
	int64_t pid, tid;
	if (a->tid >= 0) {
		struct ch_thread *th = event_thread(c, a);
		if (!th) {
			c->oom = true;
			return;
		}
		pid = th->pid;
		tid = a->tid;
	} else if (ch_cpu(c, a->cpu)) { /* no task known: its CPU's row */
		pid = TL_CHROME_CPU_PID;
		tid = ch_cpu_tid(a->cpu);
	} else
		pid = tid = 0;
	const char *name = spoor_event_name(a->ev);
	if (!tef_event(&c->t, 'i', pid, tid, ch_rel(c, a->ts))) {
		an_engine_stop(c->e);
		return;
	}
	tef_str(&c->t, "s", "t", 1);
	tef_str(&c->t, "cat", "event", 5);
	tef_str(&c->t, "name", name, strlen(name));
	tef_object(&c->t, "args");
	struct spoor_field f;
	for (int i = 0; spoor_event_field_at(a->ev, SPOOR_SCOPE_PAYLOAD, i, &f); i++)
		tef_field(&c->t, f.name ? f.name : "", f.name ? strlen(f.name) : 0, &f);
	tef_close(&c->t);
	tef_close(&c->t);
}

static void on_any(void *data, const struct an_event *a)
{
	struct tl_chrome *c = data;
	ch_rate_event(c, a->class_index, ch_rel(c, a->ts));
}

static void on_lost(void *data, int64_t cpu, uint64_t count, int64_t ts)
{
	struct tl_chrome *c = data;
	if (!tef_event(&c->t, 'i', 0, 0, ch_rel(c, ts)))
		return;
	tef_str(&c->t, "s", "g", 1);
	tef_str(&c->t, "cat", "lost", 4);
	tef_str(&c->t, "name", "lost events", 11);
	tef_object(&c->t, "args");
	tef_int(&c->t, "cpu", cpu);
	tef_int(&c->t, "count", (int64_t) count);
	tef_close(&c->t);
	tef_close(&c->t);
}

/* Which classes' events become instants: the -e patterns', else the user-space ones. */
static int choose_instants(struct tl_chrome *c)
{
	const struct spoor_reader *r = an_reader(c->e);
	for (size_t k = 0; k < c->nclasses; k++) {
		const struct spoor_event_class *ec = spoor_reader_event_class(r, k);
		bool want = false;
		if (c->o.nevents) {
			for (size_t p = 0; p < c->o.nevents && !want; p++)
				want = !fnmatch(c->o.events[p], spoor_event_class_name(ec), 0);
		} else {
			const char *domain = spoor_reader_trace_env(r, ec->trace, "domain");
			want = domain && !strcmp(domain, "ust");
		}
		c->classes[k].instant = want;
		int rc = want ? an_engine_on_class(c->e, k, on_instant, c) : 0;
		if (rc)
			return rc;
	}
	return 0;
}

int tl_chrome_new(struct an_engine *e, int fd, const struct tl_chrome_opts *o,
                  struct tl_chrome **out)
{
	struct tl_chrome *c = calloc(1, sizeof(*c));
	int rc = -ENOMEM;
	*out = NULL;
	if (!c)
		return rc;
	c->e = e;
	c->o = *o;
	c->rate_bin = -1;
	c->nclasses = spoor_reader_event_class_count(an_reader(e));
	c->classes = calloc(c->nclasses + 1, sizeof(*c->classes));
	c->touched = calloc(c->nclasses + 1, sizeof(*c->touched));
	c->nonzero = calloc(c->nclasses + 1, sizeof(*c->nonzero));
	c->by_tid.runs = true;
	if (!c->classes || !c->touched || !c->nonzero)
		goto fail;
	if ((rc = tef_open(&c->t, fd)))
		goto fail;
	const struct tl_callbacks cb = {.data = c, .span = on_span};
	const struct tl_flame_callbacks fcb = {.data = c, .call = on_call};
	if ((rc = tl_states_new(e, &cb, &c->st)) || (rc = tl_flame_new(e, &fcb, &c->fl)) ||
	    (rc = choose_instants(c)) || (rc = an_engine_on_name(e, "*", on_any, c)) ||
	    (rc = an_engine_on_lost(e, on_lost, c)))
		goto fail;
	*out = c;
	return 0;
fail:
	tl_chrome_free(c);
	return rc;
}

/* ---- the end: names ---- */

static void meta(struct tl_chrome *c, const char *what, int64_t pid, int64_t tid, const char *name,
                 size_t len)
{
	if (!tef_event(&c->t, 'M', pid, tid, 0))
		return;
	tef_str(&c->t, "name", what, strlen(what));
	tef_object(&c->t, "args");
	tef_str(&c->t, "name", name, len);
	tef_close(&c->t);
	tef_close(&c->t);
}

static void sort_index(struct tl_chrome *c, const char *what, int64_t pid, int64_t tid,
                       int64_t index)
{
	if (!tef_event(&c->t, 'M', pid, tid, 0))
		return;
	tef_str(&c->t, "name", what, strlen(what));
	tef_object(&c->t, "args");
	tef_int(&c->t, "sort_index", index);
	tef_close(&c->t);
	tef_close(&c->t);
}

/* The name of the thread's row: the kernel's, else the user-space trace's procname. */
static const char *thread_name(struct tl_chrome *c, const struct ch_thread *th)
{
	const char *comm = an_task_comm(c->e, th->tid);
	return comm ? comm : th->comm[0] ? th->comm : NULL;
}

static int write_names(struct tl_chrome *c)
{
	struct idmap procs = {0};
	char buf[32];
	for (size_t i = 0; i < c->nthreads; i++) {
		const struct ch_thread *th = &c->threads[i];
		const char *name = thread_name(c, th);
		if (name)
			meta(c, "thread_name", th->pid, th->tid, name, strlen(name));
		if (idmap_find(&procs, (uint64_t) th->pid))
			continue;
		if (idmap_add(&procs, (uint64_t) th->pid, 0)) {
			idmap_free(&procs);
			return -ENOMEM;
		}
		/* a process is named by its main thread, or by its first row's name */
		const char *pname = an_task_comm(c->e, th->pid);
		if (!pname)
			pname = name;
		if (pname)
			meta(c, "process_name", th->pid, th->pid, pname, strlen(pname));
	}
	idmap_free(&procs);
	for (size_t i = 0; i < c->ncallers; i++) {
		const struct ch_thread *th = &c->callers[i];
		uint32_t *at = idmap_find(&c->by_tid, (uint64_t) th->tid);
		const char *name = at ? thread_name(c, &c->threads[*at]) : NULL;
		int n = name ? snprintf(buf, sizeof(buf), "%.15s calls", name)
		             : snprintf(buf, sizeof(buf), "calls");
		meta(c, "thread_name", th->pid, TL_CHROME_CALLS_TID + th->tid, buf, (size_t) n);
	}
	bool cpus = false;
	for (size_t i = 0; i < c->ncpus; i++) {
		if (!c->cpus[i].seen)
			continue;
		int n = snprintf(buf, sizeof(buf), "cpu %zu", i);
		meta(c, "thread_name", TL_CHROME_CPU_PID, ch_cpu_tid((int64_t) i), buf, (size_t) n);
		sort_index(c, "thread_sort_index", TL_CHROME_CPU_PID, ch_cpu_tid((int64_t) i),
		           (int64_t) i);
		cpus = true;
	}
	/* the pseudo-processes first: CPUs, then the rates, then the processes by pid */
	if (cpus) {
		meta(c, "process_name", TL_CHROME_CPU_PID, TL_CHROME_CPU_PID, "CPUs", 4);
		sort_index(c, "process_sort_index", TL_CHROME_CPU_PID, TL_CHROME_CPU_PID, -2);
	}
	if (c->rates_written) {
		meta(c, "process_name", TL_CHROME_RATE_PID, TL_CHROME_RATE_PID, "Event rate", 10);
		sort_index(c, "process_sort_index", TL_CHROME_RATE_PID, TL_CHROME_RATE_PID, -1);
	}
	return 0;
}

/* otherData: where relative 0 is, and what the file covers. */
static void other_data(struct tef *t, void *data)
{
	struct tl_chrome *c = data;
	const struct spoor_reader *r = an_reader(c->e);
	static const char clock[] = "ns from the trace clock's origin (the epoch, for spoor's "
	                            "and LTTng's traces)";
	char buf[32];
	ch_rel(c, 0); /* fixes the origin, in a trace without events too */
	int n = snprintf(buf, sizeof(buf), "%lld", (long long) c->origin);
	tef_str(t, "origin_ns", buf, (size_t) n);
	tef_str(t, "origin_clock", clock, sizeof(clock) - 1);
	tef_str(t, "exporter", "spoor export --format=chrome", 28);
	for (size_t i = 0; i < spoor_reader_trace_count(r); i++) {
		const char *path = spoor_reader_trace_path(r, i);
		n = snprintf(buf, sizeof(buf), "trace_%zu", i);
		tef_str(t, buf, path, strlen(path));
	}
	tef_int(t, "lost_events", (int64_t) an_events_lost(c->e));
	tef_int(t, "damaged_streams", spoor_reader_damaged(r));
}

int tl_chrome_finish(struct tl_chrome *c)
{
	tl_states_finish(c->st);             /* the last spans */
	if (c->fl && tl_flame_finish(c->fl)) /* the calls still open */
		c->oom = true;
	for (size_t i = 0; i < c->ncpus; i++)
		flush_run(c, (int64_t) i);
	ch_counters_finish(c);
	int rc = write_names(c);
	int wrc = tef_finish(&c->t, other_data, c);
	if (wrc)
		return wrc;
	return rc ? rc : c->oom || tl_states_oom(c->st) ? -ENOMEM : 0;
}

uint64_t tl_chrome_events(const struct tl_chrome *c)
{
	return c->t.events;
}

void tl_chrome_free(struct tl_chrome *c)
{
	if (!c)
		return;
	tl_states_free(c->st);
	tl_flame_free(c->fl);
	free(c->callers);
	idmap_free(&c->by_caller);
	tef_free(&c->t);
	idmap_free(&c->by_tid);
	free(c->threads);
	free(c->cpus);
	free(c->classes);
	free(c->touched);
	free(c->nonzero);
	free(c);
}
