/* SPDX-License-Identifier: MIT */
/* syscalls.c: system call statistics (see syscalls.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "syscall-names.h"
#include "syscalls.h"

#define RAW_IDS 1024 /* raw call numbers cached in an array; others go through names */

enum { CALL_NONE = -1, CALL_RAW = -2, CALL_UNRESOLVED = -3 };
enum { F_NORETURN = 1, F_FORKS = 2 };
#define NO_REC    UINT32_MAX
#define CPU_CACHE 256 /* CPUs whose current thread is remembered (thread_on) */

struct thread {
	int64_t tid, start;
	int32_t call; /* the open call, -1: none */
	int32_t life; /* its figures' record (struct life), -1: none yet */
	int64_t cpu;  /* where it was last seen */
};

/* What one thread did, from its first call to its exit: figures are kept per thread during
 * the pass and given to their process (or dropped by --pid and --comm) at the end, with
 * everything the trace said about the thread by then (a state dump or fork may name its
 * process after its first calls). An exited thread's pid and name are those it had then:
 * its tid may come back as another process's thread. */
struct life {
	int64_t tid, pid; /* pid: -1 until the end or the exit */
	char comm[16];
	bool ended;  /* the thread exited: pid and comm are as they were then */
	bool shared; /* the figures of the process's threads named when they began (life_of) */
	struct sc_totals
	    t; /* its share of the totals (calls, from its records, and no_task aside) */
};

/* A life's stat records by call: an array look-up per exit (calls are numbered densely
 * from 0 as they are met, and a process makes few distinct ones). */
struct group_recs {
	uint32_t *rec; /* NO_REC: none yet */
	uint32_t n;
};

struct stat_rec {
	uint32_t group; /* a life during the pass, a group after sc_analysis_finish */
	struct sc_stat s;
};

struct err_rec {
	uint32_t life;
	struct sc_errno e;
};

#define GROW(a, n, cap, oom)                                                                       \
	((n) < (cap) || grow((void **) &(a), &(cap), sizeof(*(a))) ? true : ((oom) = true, false))

struct sc_analysis {
	struct an_engine *e;
	bool selects; /* a task or CPU filter is set (an_selects) */
	struct sc_options o;
	int32_t *class_call; /* per event class */
	size_t nclasses;
	int32_t raw_call[RAW_IDS];
	struct sc_call *calls;
	uint8_t *flags;
	size_t ncalls, capcalls;
	struct idmap call_by_hash;
	struct thread *threads;
	size_t nthreads, capthreads;
	struct idmap thread_by_tid;
	/* per CPU, the thread last looked up there, so that the calls of the task running
	 * on it need no hash look-up (a trace with many threads misses the cache on those) */
	struct {
		int64_t tid; /* -1: none */
		uint32_t idx;
	} on_cpu[CPU_CACHE];
	struct life *lives;
	struct group_recs *group_recs; /* per life */
	size_t nlives, caplives, capgroup_recs;
	struct sc_group *groups; /* after finish */
	size_t ngroups, capgroups;
	struct idmap group_by_id;
	struct idmap life_by_pid; /* the shared lives (life_of) */
	bool by_process;          /* they may be shared: no output or filter by thread */
	struct stat_rec *recs;
	size_t nrecs, caprecs;
	struct err_rec *erecs;
	size_t nerecs, caperecs;
	struct idmap err_by_key; /* life << 32 | call << 12 | errno */
	struct sc_errno *errs;   /* after finish */
	size_t nerrs;
	struct sc_stat *out; /* the groups' stats, in order, after finish */
	struct sc_totals t;
	struct sc_totals uncounted; /* what no_exit counts nowhere */
	bool oom;
	bool has_idle; /* tid 0 made a call (on_switch follows it only then) */
	sc_call_fn on_call;
	void *on_call_data;
};

static bool grow(void **v, size_t *cap, size_t size)
{
	size_t n = *cap ? 2 * *cap : 64;
	void *bigger = realloc(*v, n * size);
	if (!bigger)
		return false;
	*v = bigger;
	*cap = n;
	return true;
}

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 0x100000001b3ull;
	return h;
}

static bool selected_name(const struct sc_options *o, const char *name)
{
	for (size_t i = 0; i < o->ncalls; i++)
		if (!fnmatch(o->calls[i], name, 0))
			return true;
	return !o->ncalls;
}

static bool in_names(const char *name, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(name, *names))
			return true;
	return false;
}

/* Calls that never return to their caller: exit ends the thread, and rt_sigreturn's exit
 * is not traced (it sets the saved call number to -1, which the exit tracepoint skips).
 * Calls whose new thread returns too, with 0 and without an entry of its own. */
static uint8_t call_flags(const char *name)
{
	static const char *const noreturn[] = {"exit", "exit_group", "rt_sigreturn", "sigreturn",
	                                       NULL};
	static const char *const forks[] = {"clone", "clone3", "fork", "vfork", NULL};
	return (uint8_t) ((in_names(name, noreturn) ? F_NORETURN : 0) |
	                  (in_names(name, forks) ? F_FORKS : 0));
}

/* The call's index by name, added on first sight (once per class or raw number). */
static int32_t intern(struct sc_analysis *a, const char *name)
{
	uint64_t h = name_hash(name);
	uint32_t *v = idmap_find(&a->call_by_hash, h);
	if (v && !strncmp(a->calls[*v].name, name, SC_NAME_MAX - 1))
		return (int32_t) *v;
	for (size_t i = 0; v && i < a->ncalls; i++) /* a 64-bit hash collision: never seen */
		if (!strncmp(a->calls[i].name, name, SC_NAME_MAX - 1))
			return (int32_t) i;
	if (!GROW(a->calls, a->ncalls, a->capcalls, a->oom))
		return CALL_NONE;
	size_t cap = a->capcalls;
	uint8_t *flags = realloc(a->flags, cap);
	if (!flags) {
		a->oom = true;
		return CALL_NONE;
	}
	a->flags = flags;
	if (!v && idmap_add(&a->call_by_hash, h, (uint32_t) a->ncalls)) {
		a->oom = true;
		return CALL_NONE;
	}
	struct sc_call *c = &a->calls[a->ncalls];
	*c = (struct sc_call){.selected = selected_name(&a->o, name)};
	snprintf(c->name, sizeof(c->name), "%s", name);
	a->flags[a->ncalls] = call_flags(name);
	return (int32_t) a->ncalls++;
}

static int32_t raw_call(struct sc_analysis *a, int64_t id)
{
	if (id >= 0 && id < RAW_IDS && a->raw_call[id] != CALL_UNRESOLVED)
		return a->raw_call[id];
	char buf[32];
	const char *name = sc_x86_64_name_or_number(id, buf);
	int32_t c = intern(a, name);
	if (id >= 0 && id < RAW_IDS)
		a->raw_call[id] = c;
	return c;
}

/* The event's call: per-name events by their class, raw ones by their number (id_slot);
 * CALL_RAW for a raw exit without a number (it closes whatever call is open). */
static int32_t call_of(struct sc_analysis *a, const struct an_event *ev, int id_slot)
{
	size_t k = ev->class_index;
	if (k >= a->nclasses)
		return CALL_NONE;
	int32_t c = a->class_call[k];
	if (c == CALL_UNRESOLVED)
		c = a->class_call[k] = ev->cls->syscall ? intern(a, ev->cls->syscall) : CALL_RAW;
	if (c != CALL_RAW)
		return c;
	int64_t id;
	return kv_int(ev->ev, ev->cls, id_slot, &id) ? raw_call(a, id) : CALL_RAW;
}

static struct thread *thread_find(struct sc_analysis *a, int64_t tid)
{
	uint32_t *v = idmap_find(&a->thread_by_tid, (uint64_t) tid);
	return v ? &a->threads[*v] : NULL;
}

static struct thread *thread_get(struct sc_analysis *a, int64_t tid)
{
	struct thread *th = thread_find(a, tid);
	if (th)
		return th;
	if (!GROW(a->threads, a->nthreads, a->capthreads, a->oom) ||
	    idmap_add(&a->thread_by_tid, (uint64_t) tid, (uint32_t) a->nthreads)) {
		a->oom = true;
		return NULL;
	}
	th = &a->threads[a->nthreads++];
	*th = (struct thread){.tid = tid, .call = -1, .life = -1, .cpu = -1};
	a->has_idle |= tid == 0;
	return th;
}

static void remember_on_cpu(struct sc_analysis *a, int64_t cpu, const struct thread *th)
{
	if (cpu >= 0 && cpu < CPU_CACHE && th) {
		a->on_cpu[cpu].tid = th->tid;
		a->on_cpu[cpu].idx = (uint32_t) (th - a->threads);
	}
}

/* Thread tid, seen on cpu: from the CPU's cache, else looked up (create: made if new). */
static inline struct thread *thread_on(struct sc_analysis *a, int64_t cpu, int64_t tid, bool create)
{
	if (cpu >= 0 && cpu < CPU_CACHE && a->on_cpu[cpu].tid == tid)
		return &a->threads[a->on_cpu[cpu].idx];
	struct thread *th = create ? thread_get(a, tid) : thread_find(a, tid);
	remember_on_cpu(a, cpu, th);
	return th;
}

static void copy_comm(char *dst, const char *comm)
{
	size_t n = comm ? strnlen(comm, 15) : 0;
	if (n)
		memcpy(dst, comm, n);
	dst[n] = '\0';
}

/* The thread's life record, made at its first figure. A thread whose process the trace
 * has named by then shares its process's record (a process of many short threads would
 * otherwise cost a record each), unless the output or a filter is by thread. */
static int32_t life_of(struct sc_analysis *a, struct thread *th)
{
	if (th->life >= 0)
		return th->life;
	int64_t pid = a->by_process ? an_task_pid_said(a->e, th->tid) : -1;
	uint32_t *v = pid >= 0 ? idmap_find(&a->life_by_pid, (uint64_t) pid) : NULL;
	if (v)
		return th->life = (int32_t) *v;
	if (!GROW(a->lives, a->nlives, a->caplives, a->oom) ||
	    !GROW(a->group_recs, a->nlives, a->capgroup_recs, a->oom) ||
	    (pid >= 0 && idmap_add(&a->life_by_pid, (uint64_t) pid, (uint32_t) a->nlives))) {
		a->oom = true;
		return -1;
	}
	a->lives[a->nlives] =
	    (struct life){.tid = pid >= 0 ? pid : th->tid, .pid = pid, .shared = pid >= 0};
	a->group_recs[a->nlives] = (struct group_recs){NULL, 0};
	return th->life = (int32_t) a->nlives++;
}

/* The totals the thread's life counts in (a scratch record when memory ran out). */
static struct sc_totals *totals_of(struct sc_analysis *a, struct thread *th)
{
	int32_t l = life_of(a, th);
	return l >= 0 ? &a->lives[l].t : &a->uncounted;
}

/* A group's first call of its kind: a new record, and room for it in the group's table. */
static __attribute__((noinline)) struct sc_stat *new_rec(struct sc_analysis *a, uint32_t g,
                                                         uint32_t call)
{
	struct group_recs *gr = &a->group_recs[g];
	if (call >= gr->n) {
		uint32_t n = call + 8 > a->ncalls ? call + 8 : (uint32_t) a->ncalls;
		uint32_t *bigger = realloc(gr->rec, n * sizeof(*bigger));
		if (!bigger) {
			a->oom = true;
			return NULL;
		}
		for (uint32_t i = gr->n; i < n; i++)
			bigger[i] = NO_REC;
		gr->rec = bigger;
		gr->n = n;
	}
	if (!GROW(a->recs, a->nrecs, a->caprecs, a->oom))
		return NULL;
	gr->rec[call] = (uint32_t) a->nrecs;
	struct stat_rec *r = &a->recs[a->nrecs++];
	*r = (struct stat_rec){.group = g, .s = {.call = call}};
	return &r->s;
}

static inline struct sc_stat *stat_of(struct sc_analysis *a, struct thread *th, int32_t call)
{
	int32_t g = life_of(a, th);
	if (g < 0)
		return NULL;
	const struct group_recs *gr = &a->group_recs[g];
	if ((uint32_t) call < gr->n && gr->rec[call] != NO_REC)
		return &a->recs[gr->rec[call]].s;
	return new_rec(a, (uint32_t) g, (uint32_t) call);
}

/* An entry that will never complete: counted under its call; the totals to count it in
 * are returned (a call --syscall did not select is not counted: a scratch record). */
static struct sc_totals *no_exit(struct sc_analysis *a, struct thread *th)
{
	struct sc_totals *t = &a->uncounted;
	if (a->calls[th->call].selected) {
		struct sc_stat *s = stat_of(a, th, th->call);
		if (s)
			s->noexit++;
		t = totals_of(a, th);
	}
	th->call = -1;
	return t;
}

/* errno err (1 to 4095) returned by call in life l. */
static void count_errno(struct sc_analysis *a, uint32_t l, int32_t call, int64_t err)
{
	uint64_t key = (uint64_t) l << 32 | (uint64_t) call << 12 | (uint64_t) err;
	uint32_t *v = idmap_find(&a->err_by_key, key);
	if (v) {
		a->erecs[*v].e.count++;
		return;
	}
	if (!GROW(a->erecs, a->nerecs, a->caperecs, a->oom) ||
	    idmap_add(&a->err_by_key, key, (uint32_t) a->nerecs)) {
		a->oom = true;
		return;
	}
	a->erecs[a->nerecs++] = (struct err_rec){l, {(uint32_t) call, err, 1}};
}

/* The CPU filter, at the event; the task filters are applied at the end (struct life). */
static bool cpu_selected(struct sc_analysis *a, const struct an_event *ev)
{
	return !a->selects || an_cpu_selected(a->e, ev->cpu);
}

static void on_entry(void *data, const struct an_event *ev)
{
	struct sc_analysis *a = data;
	int32_t c = call_of(a, ev, KS_SYSCALL_ID);
	if (c < 0)
		return;
	if (ev->tid < 0) {
		a->t.no_task++;
		return;
	}
	/* a call --syscall did not select opens too: an exit that does not name its call
	 * (LTTng 2.5's exit_syscall, a raw sys_exit without id) must find it */
	if (!cpu_selected(a, ev))
		return;
	struct thread *th = thread_on(a, ev->cpu, ev->tid, true);
	if (!th)
		return;
	th->cpu = ev->cpu;
	if (th->call >= 0)
		no_exit(a, th)->superseded++;
	th->call = c;
	th->start = ev->ts;
	if (a->flags[c] & F_NORETURN)
		no_exit(a, th)->noreturn++;
}

/* A completed call, counted: told to on_call (out of the exit's way when unset). */
static __attribute__((noinline, cold)) void tell_call(struct sc_analysis *a,
                                                      const struct thread *th, int32_t c,
                                                      uint64_t dur, bool has_ret, int64_t ret)
{
	struct sc_done done = {th->tid, th->start, (int64_t) dur, ret, has_ret, a->calls[c].name};
	a->on_call(a->on_call_data, &done);
}

static void on_exit_event(void *data, const struct an_event *ev)
{
	struct sc_analysis *a = data;
	int32_t c = call_of(a, ev, KS_SYSCALL_EXIT_ID);
	if (c == CALL_NONE)
		return;
	if (ev->tid < 0) {
		a->t.no_task++;
		return;
	}
	int64_t ret = 0;
	bool has_ret = kv_int(ev->ev, ev->cls, KS_SYSCALL_RET, &ret);
	struct thread *th = thread_on(a, ev->cpu, ev->tid, false);
	if (__builtin_expect(a->o.ncalls != 0, 0) && th && th->call >= 0 &&
	    !a->calls[th->call].selected) {
		/* a call --syscall did not select: its exit ends it unseen */
		bool its_exit = c < 0 || c == th->call;
		th->call = -1;
		if (its_exit)
			return;
	}
	if (!th || th->call < 0) {
		if ((c >= 0 && !a->calls[c].selected) || !cpu_selected(a, ev) ||
		    !(th = thread_on(a, ev->cpu, ev->tid, true)))
			return;
		struct sc_totals *t = totals_of(a, th);
		if (c >= 0 && (a->flags[c] & F_FORKS) && has_ret && ret == 0)
			t->child_returns++;
		else
			t->unmatched++;
		return;
	}
	if (c >= 0 && c != th->call) {
		no_exit(a, th)->mismatched++;
		return;
	}
	c = th->call;
	th->call = -1;
	th->cpu = ev->cpu;
	struct sc_stat *s = stat_of(a, th, c);
	if (!s)
		return;
	uint64_t dur = ev->ts >= th->start ? (uint64_t) (ev->ts - th->start) : 0;
	exactstat_add(&s->dur, dur);
	if (__builtin_expect(a->on_call != NULL, 0))
		tell_call(a, th, c, dur, has_ret, ret);
	if (has_ret && ret < 0 && ret > -4096) {
		s->errors++;
		count_errno(a, (uint32_t) th->life, c, -ret);
	}
}

/* A thread switched in elsewhere: a later loss there may hold its exit. */
static inline void switched_in(struct sc_analysis *a, int64_t cpu, int64_t next)
{
	/* a negative tid is no task (as in on_entry), and -1 would hit the CPU cache's empty
	 * slot: thread 0 of the table, or none at all. Tid 0, the idle task, is half of the
	 * switches and makes no call in a sound trace: it is not looked up (a look-up of an
	 * absent tid walks its run) unless some call was put down to it. */
	if (next < 0 || (next == 0 && !a->has_idle))
		return;
	struct thread *th = thread_on(a, cpu, next, false);
	if (th)
		th->cpu = cpu;
}

static void on_switch(void *data, const struct an_event *ev)
{
	if (ev->has_next_tid)
		switched_in(data, ev->cpu, ev->next_tid);
}

/* A switch the trace lacks (engine.h), the same. */
static void on_inferred(void *data, int64_t cpu, int64_t ts, int64_t prev, int64_t next)
{
	(void) ts;
	(void) prev;
	switched_in(data, cpu, next);
}

/* A thread that ends inside a call (killed) never returns from it; its tid may come back
 * as another process's thread: its life ends, with its pid and name as they are now. */
static void on_task_exit(void *data, const struct an_event *ev)
{
	struct sc_analysis *a = data;
	int64_t tid;
	if (!kv_int(ev->ev, ev->cls, KS_EXIT_TID, &tid))
		tid = ev->tid;
	struct thread *th = thread_find(a, tid);
	if (!th)
		return;
	if (th->call >= 0)
		no_exit(a, th)->unfinished++;
	if (th->life >= 0 && !a->lives[th->life].shared) {
		struct life *l = &a->lives[th->life];
		l->pid = an_task_pid(a->e, tid);
		copy_comm(l->comm, an_task_comm(a->e, tid));
		l->ended = true;
	}
	th->life = -1;
}

static void on_lost(void *data, int64_t cpu, uint64_t count, int64_t ts)
{
	struct sc_analysis *a = data;
	(void) count;
	(void) ts;
	for (size_t i = 0; i < a->nthreads; i++) {
		struct thread *th = &a->threads[i];
		if (th->call >= 0 && (cpu < 0 || th->cpu == cpu))
			no_exit(a, th)->dropped++;
	}
}

struct sc_analysis *sc_analysis_new(struct an_engine *e, const struct sc_options *o)
{
	struct sc_analysis *a = calloc(1, sizeof(*a));
	if (!a)
		return NULL;
	a->e = e;
	/* most look-ups find their tid: on_switch skips the idle task, the usual absent one */
	a->thread_by_tid.runs = true;
	a->selects = an_selects(e);
	a->by_process = !(o && o->per_thread) && !an_selects_threads(e);
	an_engine_want_threads(e); /* tasks are shown by name */
	if (o)
		a->o = *o;
	a->nclasses = spoor_reader_event_class_count(an_reader(e));
	a->class_call = malloc((a->nclasses + 1) * sizeof(*a->class_call));
	if (!a->class_call) {
		free(a);
		return NULL;
	}
	for (size_t i = 0; i < a->nclasses; i++)
		a->class_call[i] = CALL_UNRESOLVED;
	for (size_t i = 0; i < RAW_IDS; i++)
		a->raw_call[i] = CALL_UNRESOLVED;
	for (size_t i = 0; i < CPU_CACHE; i++)
		a->on_cpu[i].tid = -1;
	if (an_engine_on(e, KEV_SYSCALL_ENTRY, on_entry, a) ||
	    an_engine_on(e, KEV_SYSCALL_EXIT, on_exit_event, a) ||
	    an_engine_on(e, KEV_SCHED_SWITCH, on_switch, a) ||
	    an_engine_on(e, KEV_PROCESS_EXIT, on_task_exit, a)) {
		sc_analysis_free(a);
		return NULL;
	}
	an_engine_on_lost(e, on_lost, a);
	an_engine_on_inferred(e, on_inferred, a);
	return a;
}

void sc_analysis_free(struct sc_analysis *a)
{
	if (!a)
		return;
	free(a->class_call);
	free(a->calls);
	free(a->flags);
	free(a->threads);
	free(a->groups);
	free(a->lives);
	for (size_t i = 0; i < a->nlives; i++)
		free(a->group_recs[i].rec);
	free(a->group_recs);
	free(a->recs);
	free(a->erecs);
	free(a->errs);
	free(a->out);
	idmap_free(&a->call_by_hash);
	idmap_free(&a->thread_by_tid);
	idmap_free(&a->group_by_id);
	idmap_free(&a->life_by_pid);
	idmap_free(&a->err_by_key);
	free(a);
}

static void stat_merge(struct sc_stat *s, const struct sc_stat *x)
{
	exactstat_combine(&s->dur, &x->dur);
	s->errors += x->errors;
	s->noexit += x->noexit;
}

static int stat_order(const struct sc_stat *x, const struct sc_stat *y)
{
	if (x->dur.n != y->dur.n)
		return x->dur.n > y->dur.n ? -1 : 1;
	if (x->noexit != y->noexit)
		return x->noexit > y->noexit ? -1 : 1;
	return 0;
}

static int call_cmp(const void *p, const void *q, void *data)
{
	const struct sc_call *calls = data;
	const struct sc_call *x = &calls[*(const uint32_t *) p], *y = &calls[*(const uint32_t *) q];
	int o = stat_order(&x->all, &y->all);
	return o ? o : strcmp(x->name, y->name);
}

static int group_cmp(const void *p, const void *q, void *data)
{
	const struct sc_group *groups = data;
	const struct sc_group *x = &groups[*(const uint32_t *) p],
	                      *y = &groups[*(const uint32_t *) q];
	int o = stat_order(&x->total, &y->total);
	return o ? o : (x->id > y->id) - (x->id < y->id);
}

static int rec_cmp(const void *p, const void *q)
{
	const struct stat_rec *x = p, *y = q;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	int o = stat_order(&x->s, &y->s);
	return o ? o : (x->s.call > y->s.call) - (x->s.call < y->s.call);
}

static int err_cmp(const void *p, const void *q)
{
	const struct sc_errno *x = p, *y = q;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->call != y->call)
		return x->call < y->call ? -1 : 1;
	return (x->err > y->err) - (x->err < y->err);
}

/* Sort n elements of size `size` at base through an index order, and give each old index
 * its new one (rank). */
static int reorder(void *base, size_t n, size_t size,
                   int (*cmp)(const void *, const void *, void *), uint32_t **rank)
{
	uint32_t *order = malloc((n + 1) * sizeof(*order));
	char *copy = malloc(n * size + 1);
	*rank = malloc((n + 1) * sizeof(**rank));
	if (!order || !copy || !*rank) {
		free(order);
		free(copy);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t) i;
	if (n > 1)
		qsort_r(order, n, sizeof(*order), cmp, base);
	if (n)
		memcpy(copy, base, n * size);
	for (size_t i = 0; i < n; i++) {
		memcpy((char *) base + i * size, copy + (size_t) order[i] * size, size);
		(*rank)[order[i]] = (uint32_t) i;
	}
	free(order);
	free(copy);
	return 0;
}

static void totals_add(struct sc_totals *t, const struct sc_totals *x)
{
	t->calls += x->calls;
	t->unmatched += x->unmatched;
	t->child_returns += x->child_returns;
	t->unfinished += x->unfinished;
	t->noreturn += x->noreturn;
	t->superseded += x->superseded;
	t->mismatched += x->mismatched;
	t->dropped += x->dropped;
}

#define PENDING (NO_REC - 1) /* a life selected, its group not made yet */

/* Whether the task filters keep a life, by its pid and name as the whole trace tells them
 * (struct life); its totals are counted then. */
static bool keep_life(struct sc_analysis *a, struct life *l)
{
	if (l->shared) /* its pid was known */
		copy_comm(l->comm, an_task_comm(a->e, l->pid));
	else if (l->pid < 0) { /* still alive at the end */
		l->pid = an_task_pid(a->e, l->tid);
		copy_comm(l->comm, an_task_comm(a->e, l->tid));
	}
	if (!an_task_matches(a->e, l->tid, l->pid, l->comm[0] ? l->comm : NULL))
		return false;
	totals_add(&a->t, &l->t);
	return true;
}

/* The group a kept life's figures go to, made on first sight (NO_REC: out of memory). */
static uint32_t group_for(struct sc_analysis *a, const struct life *l)
{
	int64_t id = a->o.per_thread ? l->tid : l->pid;
	uint32_t *v = idmap_find(&a->group_by_id, (uint64_t) id);
	if (v)
		return *v;
	if (!GROW(a->groups, a->ngroups, a->capgroups, a->oom) ||
	    idmap_add(&a->group_by_id, (uint64_t) id, (uint32_t) a->ngroups)) {
		a->oom = true;
		return NO_REC;
	}
	struct sc_group *g = &a->groups[a->ngroups];
	*g = (struct sc_group){.id = id, .pid = l->pid};
	/* the process's name (its main thread's) as the trace ends, or the thread's */
	const char *comm = l->ended ? NULL : an_task_comm(a->e, id);
	copy_comm(g->comm, comm ? comm : l->comm);
	return (uint32_t) a->ngroups++;
}

static int by_call_errno(const void *p, const void *q)
{
	const struct sc_errno *x = p, *y = q;
	if (x->call != y->call)
		return x->call < y->call ? -1 : 1;
	return (x->err > y->err) - (x->err < y->err);
}

/* The lives' records given to their groups (those of lives left out dropped), one per
 * group and call; the errnos likewise, one per call and errno. */
static int gather(struct sc_analysis *a)
{
	uint32_t *to = malloc((a->nlives + 1) * sizeof(*to));
	if (!to || !(a->errs = malloc((a->nerecs + 1) * sizeof(*a->errs)))) {
		free(to);
		return -ENOMEM;
	}
	for (size_t i = 0; i < a->nlives; i++)
		to[i] = keep_life(a, &a->lives[i]) ? PENDING : NO_REC;
	/* one record per group and call: (group << 32 | call) -> its index */
	struct idmap at = {0};
	size_t n = 0;
	for (size_t i = 0; i < a->nrecs && !a->oom; i++) { /* groups by their first call */
		uint32_t *g = &to[a->recs[i].group];
		if (*g == PENDING)
			*g = group_for(a, &a->lives[a->recs[i].group]);
		if (*g == NO_REC)
			continue;
		a->t.calls += a->recs[i].s.dur.n;
		uint64_t key = (uint64_t) *g << 32 | a->recs[i].s.call;
		uint32_t *v = idmap_find(&at, key);
		if (v) {
			stat_merge(&a->recs[*v].s, &a->recs[i].s);
			continue;
		}
		if (idmap_add(&at, key, (uint32_t) n))
			a->oom = true;
		a->recs[n] = a->recs[i];
		a->recs[n++].group = *g;
	}
	idmap_free(&at);
	a->nrecs = n;
	n = 0;
	for (size_t i = 0; i < a->nerecs; i++)
		if (to[a->erecs[i].life] < PENDING)
			a->errs[n++] = a->erecs[i].e;
	if (n > 1)
		qsort(a->errs, n, sizeof(*a->errs), by_call_errno);
	for (size_t i = 0; i < n; i++) {
		if (a->nerrs && !by_call_errno(&a->errs[a->nerrs - 1], &a->errs[i]))
			a->errs[a->nerrs - 1].count += a->errs[i].count;
		else
			a->errs[a->nerrs++] = a->errs[i];
	}
	free(to);
	return 0;
}

int sc_analysis_finish(struct sc_analysis *a)
{
	for (size_t i = 0; i < a->nthreads; i++)
		if (a->threads[i].call >= 0)
			no_exit(a, &a->threads[i])->unfinished++;
	if (gather(a))
		return -ENOMEM;
	for (size_t i = 0; i < a->nrecs; i++) {
		stat_merge(&a->calls[a->recs[i].s.call].all, &a->recs[i].s);
		stat_merge(&a->groups[a->recs[i].group].total, &a->recs[i].s);
	}
	uint32_t *call_rank, *group_rank;
	if (reorder(a->calls, a->ncalls, sizeof(*a->calls), call_cmp, &call_rank))
		return -ENOMEM;
	if (reorder(a->groups, a->ngroups, sizeof(*a->groups), group_cmp, &group_rank)) {
		free(call_rank);
		return -ENOMEM;
	}
	for (size_t i = 0; i < a->nrecs; i++) {
		a->recs[i].s.call = call_rank[a->recs[i].s.call];
		a->recs[i].group = group_rank[a->recs[i].group];
	}
	for (size_t i = 0; i < a->nerrs; i++)
		a->errs[i].call = call_rank[a->errs[i].call];
	free(call_rank);
	free(group_rank);
	/* (qsort and memcpy take no NULL, even for nothing) */
	if (a->nrecs > 1)
		qsort(a->recs, a->nrecs, sizeof(*a->recs), rec_cmp);
	if (a->nerrs > 1)
		qsort(a->errs, a->nerrs, sizeof(*a->errs), err_cmp);
	if (!(a->out = malloc((a->nrecs + 1) * sizeof(*a->out))))
		return -ENOMEM;
	for (size_t i = 0; i < a->nrecs; i++) {
		struct sc_group *g = &a->groups[a->recs[i].group];
		if (!g->n)
			g->first = i;
		g->n++;
		a->out[i] = a->recs[i].s;
	}
	return a->oom ? -ENOMEM : 0;
}

void sc_analysis_on_call(struct sc_analysis *a, sc_call_fn fn, void *data)
{
	a->on_call = fn;
	a->on_call_data = data;
}

int64_t sc_analysis_open_since(const struct sc_analysis *a)
{
	int64_t since = INT64_MAX;
	for (size_t i = 0; i < a->nthreads; i++)
		if (a->threads[i].call >= 0 && a->threads[i].start < since)
			since = a->threads[i].start;
	return since;
}

size_t sc_analysis_calls(const struct sc_analysis *a, const struct sc_call **calls)
{
	*calls = a->calls;
	return a->ncalls;
}

size_t sc_analysis_groups(const struct sc_analysis *a, const struct sc_group **groups)
{
	*groups = a->groups;
	return a->ngroups;
}

const struct sc_stat *sc_analysis_group_stats(const struct sc_analysis *a, const struct sc_group *g)
{
	return a->out + g->first;
}

size_t sc_analysis_errnos(const struct sc_analysis *a, const struct sc_errno **errs)
{
	*errs = a->errs;
	return a->nerrs;
}

const struct sc_totals *sc_analysis_totals(const struct sc_analysis *a)
{
	return &a->t;
}
