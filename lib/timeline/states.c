/* SPDX-License-Identifier: MIT */
/*
 * states.c: the timeline's state machine (see states.h).
 *
 * Each row (thread or CPU) has one open span: its state since `since`. Whatever may change
 * what a row shows (a switch, a system call, an interrupt, a state change from sched.h)
 * updates the facts, then `thread_show` / `cpu_show` compute the row's state again and, when
 * it differs, close the open span and open another. Times are the hooks' (absolute) until
 * a span is handed out.
 *
 * The CPU's interval before its first switch belongs to that switch's prev_tid, from the
 * span's start (as sched.h counts it), so the CPU row's spans up to then are kept aside
 * (`prefix`) and handed out, to the CPU's row and that thread's, once the switch names it
 * (up to PREFIX_MAX of them, 384 KiB: past that, the CPU's thread is unknown until its
 * first switch; so is a trace's without switches, whose events do not name their task).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/idmap.h"
#include "analysis/sched.h"
#include "analysis/syscall-names.h"
#include "states.h"
#include "util/grow.h"

#define NEST_MAX   4          /* irq over softirq over ... */
#define NONE       UINT32_MAX /* no thread */
#define RAW_IDS    1024       /* raw sys_enter numbers remembered */
#define PREFIX_MAX 16384      /* a CPU's spans kept before its first switch, at most */
#define UNRESOLVED (-2)       /* a class's call, not looked at yet */
#define RAW        (-1)       /* a class whose events name their call by number */

struct open_span {
	int64_t since;
	uint32_t value;
	uint8_t state;
};

struct thread {
	int64_t tid;
	struct open_span o;
	int32_t cpu;    /* the CPU it runs on (this module's view), -1: none */
	uint32_t call;  /* the system call it is in (in_call) */
	uint8_t off;    /* its state off a CPU: TS_UNKNOWN, TS_WAIT_CPU, TS_BLOCKED */
	bool in_call;   /* between a system call's entry and exit */
	bool seen_call; /* some entry or exit of it was seen */
	bool open;      /* the row has an open span (not after its exit) */
	bool dead;      /* exited: the row ends when it leaves its CPU */
	bool handed;    /* some span of it was handed out */
};

struct nest {
	uint8_t state; /* TS_IRQ, TS_SOFTIRQ */
	uint32_t value;
};

struct cpu {
	struct open_span o;
	bool seen;
	uint8_t known; /* 0: no switch yet (prefix), 1: cur known, 2: cut by a loss */
	uint8_t depth; /* of nest */
	uint32_t cur;  /* index of the thread on it, NONE: idle or unknown */
	int64_t tid;   /* the task on it (0: idle), when known == 1 */
	struct nest nest[NEST_MAX];
	/* before the first switch: what runs is unknown, so its system calls are the CPU's */
	bool pre_in_call, pre_seen_call;
	uint32_t pre_call;
	struct tl_span *prefix; /* closed spans, absolute times, thread-row values */
	size_t nprefix, capprefix;
};

struct tl_states {
	struct an_engine *e;
	struct tl_callbacks cb;
	struct sched_analysis *sched;
	struct thread *th;
	size_t nth, capth;
	struct idmap by_tid;
	struct cpu *cpus;
	size_t ncpus;
	bool no_calls; /* the trace has no system call events: `running` */
	bool has_origin, finished, oom;
	int64_t origin;
	/* system calls: names, per class, per raw number */
	char **calls;
	size_t ncalls, capcalls;
	int32_t *class_call;
	size_t nclasses;
	int32_t raw_call[RAW_IDS];
};

/* ---- handing spans out ---- */

static int64_t origin(struct tl_states *st)
{
	if (!st->has_origin) { /* right once some event was read (engine.h) */
		int64_t end;
		an_span(st->e, &st->origin, &end);
		st->has_origin = true;
	}
	return st->origin;
}

/* Whether a span went out (one of no time does not). */
static bool hand_out(struct tl_states *st, enum tl_row_kind kind, int64_t id, int64_t begin,
                     int64_t end, uint8_t state, uint32_t value)
{
	if (end <= begin)
		return false;
	int64_t o = origin(st);
	struct tl_span s = {begin - o, end - o, state, value};
	st->cb.span(st->cb.data, kind, id, &s);
	return true;
}

/* The row's open span becomes (state, value) at ts; a span of no time is replaced. */
static bool move_to(struct open_span *o, int64_t ts, uint8_t state, uint32_t value,
                    struct open_span *closed)
{
	if (o->state == state && o->value == value)
		return false;
	*closed = *o;
	o->since = ts > o->since ? ts : o->since;
	o->state = state;
	o->value = value;
	return closed->since < ts;
}

/* ---- threads ---- */

static struct thread *thread_at(struct tl_states *st, uint32_t i)
{
	return i == NONE ? NULL : &st->th[i];
}

/* The row of tid, opened at ts on first sight (unknown); NONE for the idle task or when
 * out of memory. */
static uint32_t thread_get(struct tl_states *st, int64_t tid, int64_t ts)
{
	if (tid <= 0)
		return NONE;
	uint32_t *v = idmap_find(&st->by_tid, (uint64_t) tid);
	if (v)
		return *v;
	if (grow_one(&st->th, st->nth, &st->capth, sizeof(*st->th), 256) ||
	    idmap_add(&st->by_tid, (uint64_t) tid, (uint32_t) st->nth)) {
		st->oom = true;
		return NONE;
	}
	st->th[st->nth] = (struct thread){
	    .tid = tid, .o = {ts, 0, TS_UNKNOWN}, .cpu = -1, .off = TS_UNKNOWN, .open = true};
	return (uint32_t) st->nth++;
}

/* What runs on a CPU shows when no interrupt is served: user, syscall or running. */
static void base_state(const struct tl_states *st, bool in_call, uint32_t call, uint8_t *state,
                       uint32_t *value)
{
	*value = in_call && !st->no_calls ? call : 0;
	*state = st->no_calls ? TS_RUNNING : in_call ? TS_SYSCALL : TS_USER;
}

/* The thread's row shows its state as of ts. */
static void thread_show(struct tl_states *st, struct thread *t, int64_t ts)
{
	uint8_t state;
	uint32_t value = 0;
	const struct cpu *c = t->cpu >= 0 ? &st->cpus[t->cpu] : NULL;
	if (c && c->depth) {
		state = c->nest[c->depth - 1].state;
		value = c->nest[c->depth - 1].value;
	} else if (c)
		base_state(st, t->in_call, t->call, &state, &value);
	else if (t->dead) { /* its row ends here */
		if (t->open)
			t->handed |= hand_out(st, TL_ROW_THREAD, t->tid, t->o.since, ts, t->o.state,
			                      t->o.value);
		t->open = false;
		t->o.since = ts;
		return;
	} else
		state = t->off;
	if (!t->open) { /* its tid comes back after its exit: unknown in between */
		t->open = true;
		t->o.state = TS_UNKNOWN;
		t->o.value = 0;
	}
	struct open_span closed;
	if (move_to(&t->o, ts, state, value, &closed))
		t->handed |= hand_out(st, TL_ROW_THREAD, t->tid, closed.since, ts, closed.state,
		                      closed.value);
}

/* ---- CPUs ---- */

static struct cpu *cpu_get(struct tl_states *st, int64_t cpu)
{
	if (cpu < 0 || cpu >= 4096)
		return NULL;
	if ((size_t) cpu >= st->ncpus) {
		size_t n = (size_t) cpu + 1;
		struct cpu *v = realloc(st->cpus, n * sizeof(*v));
		if (!v) {
			st->oom = true;
			return NULL;
		}
		memset(v + st->ncpus, 0, (n - st->ncpus) * sizeof(*v));
		st->cpus = v;
		st->ncpus = n;
	}
	struct cpu *c = &st->cpus[cpu];
	if (!c->seen) { /* from the span's start, as sched.h gives its interval to a task */
		c->seen = true;
		c->cur = NONE;
		c->tid = -1;
		c->o.since = origin(st);
		base_state(st, false, 0, &c->o.state, &c->o.value); /* what runs: not known yet */
	}
	return c;
}

/* The CPU row's state now: an interrupt, the thread's state with its tid, idle, unknown;
 * before the first switch, the state a thread's row would show (handed out later). */
static void cpu_state(const struct tl_states *st, const struct cpu *c, uint8_t *state,
                      uint32_t *value)
{
	const struct thread *t = c->cur != NONE ? &st->th[c->cur] : NULL;
	*value = 0;
	if (c->depth) {
		*state = c->nest[c->depth - 1].state;
		*value = c->nest[c->depth - 1].value;
	} else if (c->known == 0)
		base_state(st, c->pre_in_call, c->pre_call, state, value);
	else if (c->known == 2)
		*state = TS_UNKNOWN;
	else if (c->tid == 0)
		*state = TS_IDLE;
	else if (!t)
		*state = TS_UNKNOWN;
	else {
		base_state(st, t->in_call, t->call, state, value);
		*value = (uint32_t) t->tid;
	}
}

static void keep_prefix(struct tl_states *st, struct cpu *c, const struct open_span *s, int64_t end)
{
	if (c->nprefix == c->capprefix) {
		size_t cap = c->capprefix ? 2 * c->capprefix : 16;
		struct tl_span *v = realloc(c->prefix, cap * sizeof(*v));
		if (!v) {
			st->oom = true;
			return;
		}
		c->prefix = v;
		c->capprefix = cap;
	}
	c->prefix[c->nprefix++] = (struct tl_span){s->since, end, s->state, s->value};
}

static void end_prefix(struct tl_states *st, struct cpu *c, int64_t tid, int64_t ts);

static void cpu_show(struct tl_states *st, struct cpu *c, int64_t ts)
{
	uint8_t state;
	uint32_t value;
	struct open_span closed;
	cpu_state(st, c, &state, &value);
	if (!move_to(&c->o, ts, state, value, &closed))
		return;
	if (c->known == 0) {
		keep_prefix(st, c, &closed, ts);
		if (c->nprefix == PREFIX_MAX) { /* memory stays O(rows): unknown until a switch */
			end_prefix(st, c, -1, ts);
			c->known = 2;
		}
	} else
		hand_out(st, TL_ROW_CPU, c - st->cpus, closed.since, ts, closed.state,
		         closed.value);
}

/* The CPU and the thread on it show their state as of ts. */
static void show(struct tl_states *st, struct cpu *c, int64_t ts)
{
	struct thread *t = thread_at(st, c->cur);
	if (t && t->cpu == c - st->cpus)
		thread_show(st, t, ts);
	cpu_show(st, c, ts);
}

/* A thread-row state as the CPU row shows it while task tid runs. */
static void cpu_view(struct tl_span *s, int64_t tid)
{
	if (s->state != TS_IRQ && s->state != TS_SOFTIRQ) {
		s->state = tid == 0 ? TS_IDLE : tid < 0 ? TS_UNKNOWN : s->state;
		s->value = tid > 0 ? (uint32_t) tid : 0;
	}
}

/* The CPU's first switch (or the end) names what ran there since the span's start: tid
 * (0: idle, -1: unknown). Its row's spans so far go out, and the thread's too when its
 * row has nothing else yet (else it was somewhere else meanwhile: the trace contradicts
 * itself, and only the CPU's row shows it). */
static void end_prefix(struct tl_states *st, struct cpu *c, int64_t tid, int64_t ts)
{
	uint32_t i = thread_get(st, tid, ts);
	struct thread *t = thread_at(st, i);
	bool give = t && !t->handed && t->cpu < 0;
	int64_t cpu = c - st->cpus;
	struct open_span open = c->o;
	struct tl_span run = {0}; /* the CPU's: spans that differ for a thread may not for it */
	for (size_t k = 0; k < c->nprefix; k++) {
		struct tl_span s = c->prefix[k];
		if (give)
			hand_out(st, TL_ROW_THREAD, tid, s.begin, s.end, s.state, s.value);
		cpu_view(&s, tid);
		if (k && (s.state != run.state || s.value != run.value)) {
			hand_out(st, TL_ROW_CPU, cpu, run.begin, run.end, run.state, run.value);
			run.begin = s.begin;
		}
		run = (struct tl_span){k ? run.begin : s.begin, s.end, s.state, s.value};
	}
	struct tl_span last = {c->o.since, ts, c->o.state, c->o.value};
	cpu_view(&last, tid);
	if (c->nprefix && (run.state != last.state || run.value != last.value))
		hand_out(st, TL_ROW_CPU, cpu, run.begin, run.end, run.state, run.value);
	else if (c->nprefix) /* the open span goes on from the run's start */
		c->o.since = run.begin;
	if (give) { /* its open span: the CPU's, on the CPU from now on */
		t->o = open;
		t->open = true;
		t->handed |= c->nprefix > 0;
		t->in_call = c->pre_in_call;
		t->call = c->pre_call;
		t->seen_call = c->pre_seen_call;
		t->cpu = (int32_t) cpu;
	}
	c->o.state = last.state;
	c->o.value = last.value;
	free(c->prefix);
	c->prefix = NULL;
	c->nprefix = c->capprefix = 0;
	c->known = 1;
	c->tid = tid;
	c->cur = i;
}

/* On CPU c at ts, prev gives way to next (sched.h's switch_cpu; its state changes for both
 * came first). */
static void switch_cpu(struct tl_states *st, struct cpu *c, int64_t ts, int64_t prev, int64_t next)
{
	int32_t cpu = (int32_t) (c - st->cpus);
	if (c->known == 0)
		end_prefix(st, c, prev, ts);
	struct thread *p = thread_at(st, c->cur);
	if (p && p->cpu == cpu) {
		p->cpu = -1;
		thread_show(st, p, ts);
	}
	uint32_t i = thread_get(st, next, ts); /* after p's last use: may move it */
	struct thread *n = thread_at(st, i);
	c->known = 1;
	c->tid = next;
	c->cur = i;
	if (n) {
		n->cpu = cpu;
		n->dead = false;
		thread_show(st, n, ts);
	}
	cpu_show(st, c, ts);
}

/* ---- hooks ---- */

static void on_switch(void *data, const struct an_event *ev)
{
	struct tl_states *st = data;
	int64_t prev;
	struct cpu *c = cpu_get(st, ev->cpu);
	if (c && kv_int(ev->ev, ev->cls, KS_PREV_TID, &prev) && ev->has_next_tid)
		switch_cpu(st, c, ev->ts, prev, ev->next_tid);
}

static void on_inferred(void *data, int64_t cpu, int64_t ts, int64_t prev, int64_t next)
{
	struct tl_states *st = data;
	struct cpu *c = cpu_get(st, cpu);
	if (c) /* prev is the CPU's, unless no switch was seen there yet (as sched.c) */
		switch_cpu(st, c, ts, c->known ? c->tid : prev, next);
}

/* sched.h's state change of a thread: its state off a CPU (running is the switch's). */
static void on_change(void *data, const struct sched_change *ch)
{
	struct tl_states *st = data;
	struct thread *t = thread_at(st, thread_get(st, ch->tid, ch->ts));
	if (!t || ch->to == SCHED_RUNNING)
		return;
	t->dead = ch->to == SCHED_DEAD;
	t->off = ch->to == SCHED_RUNNABLE  ? TS_WAIT_CPU
	         : ch->to == SCHED_BLOCKED ? TS_BLOCKED
	                                   : TS_UNKNOWN;
	thread_show(st, t, ch->ts);
}

/* Events lost on cpu (-1: somewhere): what ran there is unknown until its next switch. */
static void on_lost(void *data, int64_t cpu, uint64_t count, int64_t ts)
{
	struct tl_states *st = data;
	(void) count;
	for (size_t k = 0; k < st->ncpus; k++) {
		struct cpu *c = &st->cpus[k];
		if (!c->seen || (cpu >= 0 && (size_t) cpu != k) || c->known != 1)
			continue;
		struct thread *t = thread_at(st, c->cur);
		c->known = 2;
		c->depth = 0;
		if (t && t->cpu == (int32_t) k) {
			t->cpu = -1;
			t->off = TS_UNKNOWN;
			thread_show(st, t, ts);
		}
		cpu_show(st, c, ts);
	}
}

/* The index of a system call's name, added on first sight; NONE when out of memory. */
static uint32_t intern(struct tl_states *st, const char *name)
{
	for (size_t i = 0; i < st->ncalls; i++)
		if (!strcmp(st->calls[i], name))
			return (uint32_t) i;
	if (grow_one(&st->calls, st->ncalls, &st->capcalls, sizeof(*st->calls), 64) ||
	    !(st->calls[st->ncalls] = strdup(name))) {
		st->oom = true;
		return NONE;
	}
	return (uint32_t) st->ncalls++;
}

static uint32_t raw_call(struct tl_states *st, int64_t id)
{
	if (id >= 0 && id < RAW_IDS && st->raw_call[id] != UNRESOLVED)
		return (uint32_t) st->raw_call[id];
	char buf[32];
	const char *name = sc_x86_64_name_or_number(id, buf);
	uint32_t c = intern(st, name);
	if (id >= 0 && id < RAW_IDS && c != NONE)
		st->raw_call[id] = (int32_t) c;
	return c;
}

/* The event's call: per-name events by their class, raw ones by their number (id_slot). */
static uint32_t call_of(struct tl_states *st, const struct an_event *ev, int id_slot)
{
	size_t k = ev->class_index;
	if (k >= st->nclasses)
		return NONE;
	int32_t c = st->class_call[k];
	if (c == UNRESOLVED) {
		uint32_t i = ev->cls->syscall ? intern(st, ev->cls->syscall) : (uint32_t) RAW;
		c = st->class_call[k] = i == NONE ? UNRESOLVED : (int32_t) i;
	}
	if (c >= 0)
		return (uint32_t) c;
	int64_t id;
	return c == RAW && kv_int(ev->ev, ev->cls, id_slot, &id) ? raw_call(st, id) : NONE;
}

/* The first system call event of a thread (or of a CPU before its first switch) is an
 * exit: the call began before the trace, so the open span, user since the thread came on
 * the CPU (or since the CPU's start), was in it. */
static __attribute__((noinline, cold)) void
began_before(struct tl_states *st, struct cpu *c, struct thread *t, const struct an_event *ev)
{
	uint32_t call = call_of(st, ev, KS_SYSCALL_EXIT_ID);
	if (call == NONE || st->no_calls || c->o.state != TS_USER)
		return;
	if (c->known == 0) { /* the CPU's open span holds a thread's state yet */
		c->o.state = TS_SYSCALL;
		c->o.value = call;
	} else if (t->o.state == TS_USER && t->o.since == c->o.since) {
		t->o.state = c->o.state = TS_SYSCALL;
		t->o.value = call;
	}
}

/* A system call begins (in, call) or ends on the event's CPU: the thread's there. */
static inline __attribute__((always_inline)) void
set_call(struct tl_states *st, const struct an_event *ev, bool in, uint32_t call)
{
	struct cpu *c = cpu_get(st, ev->cpu);
	if (!c)
		return;
	struct thread *t = thread_at(st, c->cur);
	if (c->known == 1 && !c->depth && t && t->cpu == ev->cpu && !st->no_calls) {
		/* the common case, short: the thread on the CPU, no interrupt */
		struct open_span closed;
		uint8_t state = in ? TS_SYSCALL : TS_USER;
		if (__builtin_expect(!t->seen_call, 0)) {
			t->seen_call = true;
			if (!in)
				began_before(st, c, t, ev);
		}
		t->in_call = in;
		t->call = call;
		if (move_to(&t->o, ev->ts, state, in ? call : 0, &closed))
			t->handed |= hand_out(st, TL_ROW_THREAD, t->tid, closed.since, ev->ts,
			                      closed.state, closed.value);
		if (move_to(&c->o, ev->ts, state, (uint32_t) t->tid, &closed))
			hand_out(st, TL_ROW_CPU, ev->cpu, closed.since, ev->ts, closed.state,
			         closed.value);
		return;
	}
	if (c->known == 0) {
		if (!c->pre_seen_call && !in)
			began_before(st, c, NULL, ev);
		c->pre_seen_call = true;
		c->pre_in_call = in;
		c->pre_call = call;
	} else {
		if (!t)
			return;
		if (!t->seen_call && !in && t->cpu == ev->cpu && !c->depth)
			began_before(st, c, t, ev);
		t->seen_call = true;
		t->in_call = in;
		t->call = call;
	}
	show(st, c, ev->ts);
}

static void on_syscall_entry(void *data, const struct an_event *ev)
{
	struct tl_states *st = data;
	uint32_t call = call_of(st, ev, KS_SYSCALL_ID);
	if (call != NONE)
		set_call(st, ev, true, call);
}

static void on_syscall_exit(void *data, const struct an_event *ev)
{
	set_call(data, ev, false, 0);
}

static void nest_push(struct tl_states *st, const struct an_event *ev, uint8_t state, int slot)
{
	int64_t v;
	struct cpu *c = cpu_get(st, ev->cpu);
	if (!c || !kv_int(ev->ev, ev->cls, slot, &v))
		return;
	if (c->depth == NEST_MAX) /* exits missing: the newest counts */
		c->depth--;
	c->nest[c->depth++] = (struct nest){state, (uint32_t) v};
	show(st, c, ev->ts);
}

/* An exit ends the innermost of its kind (and whatever its missing exits left above). */
static void nest_pop(struct tl_states *st, const struct an_event *ev, uint8_t state)
{
	struct cpu *c = cpu_get(st, ev->cpu);
	if (!c)
		return;
	for (int d = c->depth - 1; d >= 0; d--)
		if (c->nest[d].state == state) {
			c->depth = (uint8_t) d;
			show(st, c, ev->ts);
			return;
		}
}

static void on_irq_entry(void *data, const struct an_event *ev)
{
	nest_push(data, ev, TS_IRQ, KS_IRQ);
}

static void on_irq_exit(void *data, const struct an_event *ev)
{
	nest_pop(data, ev, TS_IRQ);
}

static void on_softirq_entry(void *data, const struct an_event *ev)
{
	nest_push(data, ev, TS_SOFTIRQ, KS_VEC);
}

static void on_softirq_exit(void *data, const struct an_event *ev)
{
	nest_pop(data, ev, TS_SOFTIRQ);
}

static void on_mark(void *data, const struct an_event *ev)
{
	struct tl_states *st = data;
	if (ev->tid > 0) /* its thread has a row from now on */
		thread_get(st, ev->tid, ev->ts);
	st->cb.mark(st->cb.data, ev->tid, ev->ts - origin(st), ev->class_index);
}

static void on_event(void *data, const struct an_event *ev)
{
	struct tl_states *st = data;
	st->cb.event(st->cb.data, ev->ts - origin(st), ev->class_index);
}

/* ---- setting up ---- */

/* Whether the class belongs to a user-space trace (env domain "ust": spoor's, LTTng's). */
static bool user_class(const struct spoor_reader *r, size_t c)
{
	const struct spoor_event_class *ec = spoor_reader_event_class(r, c);
	const char *domain = spoor_reader_trace_env(r, ec->trace, "domain");
	return domain && !strcmp(domain, "ust");
}

static int hook(struct tl_states *st)
{
	static const struct {
		enum kev kind;
		an_hook_fn fn;
	} hooks[] = {
	    {KEV_SCHED_SWITCH, on_switch},       {KEV_SYSCALL_ENTRY, on_syscall_entry},
	    {KEV_SYSCALL_EXIT, on_syscall_exit}, {KEV_IRQ_ENTRY, on_irq_entry},
	    {KEV_IRQ_EXIT, on_irq_exit},         {KEV_SOFTIRQ_ENTRY, on_softirq_entry},
	    {KEV_SOFTIRQ_EXIT, on_softirq_exit},
	};
	struct an_engine *e = st->e;
	const struct spoor_reader *r = an_reader(e);
	int rc;
	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if ((rc = an_engine_on(e, hooks[i].kind, hooks[i].fn, st)))
			return rc;
	if ((rc = an_engine_on_lost(e, on_lost, st)) ||
	    (rc = an_engine_on_inferred(e, on_inferred, st)))
		return rc;
	for (size_t c = 0; c < st->nclasses; c++) {
		if (st->cb.mark && user_class(r, c) && (rc = an_engine_on_class(e, c, on_mark, st)))
			return rc;
		if (st->cb.event && (rc = an_engine_on_class(e, c, on_event, st)))
			return rc;
	}
	return 0;
}

int tl_states_new(struct an_engine *e, const struct tl_callbacks *cb, struct tl_states **out)
{
	struct tl_states *st = calloc(1, sizeof(*st));
	*out = NULL;
	if (!st)
		return -ENOMEM;
	st->e = e;
	st->cb = *cb;
	st->by_tid.runs = true;
	st->no_calls = !an_trace_has(e, KEV_SYSCALL_ENTRY) && !an_trace_has(e, KEV_SYSCALL_EXIT);
	st->nclasses = spoor_reader_event_class_count(an_reader(e));
	st->class_call = malloc((st->nclasses + 1) * sizeof(*st->class_call));
	for (size_t i = 0; st->class_call && i < st->nclasses; i++)
		st->class_call[i] = UNRESOLVED;
	for (size_t i = 0; i < RAW_IDS; i++)
		st->raw_call[i] = UNRESOLVED;
	/* sched's hooks first: its state changes for a switch come before the switch's here */
	int rc = -ENOMEM;
	if (!st->class_call || !(st->sched = sched_analysis_new(e, 0)) || (rc = hook(st))) {
		tl_states_free(st);
		return rc;
	}
	sched_analysis_on_change(st->sched, on_change, st);
	*out = st;
	return 0;
}

void tl_states_finish(struct tl_states *st)
{
	int64_t begin, end;
	if (st->finished)
		return;
	st->finished = true;
	an_span(st->e, &begin, &end);
	origin(st);
	for (size_t k = 0; k < st->ncpus; k++) {
		struct cpu *c = &st->cpus[k];
		if (!c->seen)
			continue;
		if (c->known == 0) /* no switch: nobody is known to have run there */
			end_prefix(st, c, -1, end);
		hand_out(st, TL_ROW_CPU, (int64_t) k, c->o.since, end, c->o.state, c->o.value);
	}
	for (size_t i = 0; i < st->nth; i++) {
		struct thread *t = &st->th[i];
		if (t->open)
			hand_out(st, TL_ROW_THREAD, t->tid, t->o.since, end, t->o.state,
			         t->o.value);
		t->open = false;
	}
}

void tl_states_free(struct tl_states *st)
{
	if (!st)
		return;
	sched_analysis_free(st->sched);
	free(st->th);
	idmap_free(&st->by_tid);
	for (size_t k = 0; k < st->ncpus; k++)
		free(st->cpus[k].prefix);
	free(st->cpus);
	for (size_t i = 0; i < st->ncalls; i++)
		free(st->calls[i]);
	free(st->calls);
	free(st->class_call);
	free(st);
}

int64_t tl_states_origin(const struct tl_states *st)
{
	return st->has_origin ? st->origin : 0;
}

const char *tl_states_syscall_name(const struct tl_states *st, uint32_t index)
{
	return index < st->ncalls ? st->calls[index] : NULL;
}

size_t tl_states_syscall_count(const struct tl_states *st)
{
	return st->ncalls;
}

bool tl_states_oom(const struct tl_states *st)
{
	return st->oom;
}
