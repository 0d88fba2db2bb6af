/* SPDX-License-Identifier: MIT */
/* threads.c: thread names from the trace (see threads.h). */
#include <stdlib.h>
#include <string.h>

#include "reader/reader.h" /* fields read in place */
#include "threads.h"
#include "util/runhash.h"
#include "vocab/lttng-kernel.h"

enum kind { K_UNRESOLVED, K_NONE, K_DUMP, K_FORK, K_NEWTASK, K_EXEC, K_RENAME, K_SWITCH, K_USER };

#define CLONE_THREAD 0x00010000 /* linux/sched.h: the new task is a thread of its creator's */

#define NF        4
#define CPU_CACHE 256 /* CPUs whose last task is remembered (get_on) */

struct class_info {
	uint8_t kind;
	const char *procname; /* K_USER: the trace's */
	int8_t scope[NF];
	int idx[NF];
	/* K_SWITCH whose four fields read as plain loads from a whole payload (switch_fast):
	 * their places, from the class's plan at its first event */
	bool whole;
	struct plan_member at[NF];
};

struct entry {
	int64_t tid; /* -1: empty */
	int64_t pid;
	char comm[THREAD_COMM_MAX];
	bool newtask; /* pid from task_newtask, for the sched_process_fork that follows */
};

struct threads {
	const struct spoor_reader *r;
	struct class_info *classes;
	size_t nclasses;
	struct entry *tab;
	size_t cap, used;
	/* per CPU, the entry of the task last switched in there: a switch's previous task
	 * is found without a look-up (a table of many threads misses the cache) */
	struct {
		int64_t tid; /* -2: none */
		size_t i;
	} on_cpu[CPU_CACHE];
};

static void forget_cpus(struct threads *t)
{
	for (size_t i = 0; i < CPU_CACHE; i++)
		t->on_cpu[i].tid = -2;
}

struct threads *threads_new(const struct spoor_reader *r)
{
	struct threads *t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->r = r;
	t->nclasses = spoor_reader_event_class_count(r);
	t->classes = calloc(t->nclasses + 1, sizeof(*t->classes));
	t->cap = 1024;
	t->tab = malloc(t->cap * sizeof(*t->tab));
	if (!t->classes || !t->tab) {
		threads_free(t);
		return NULL;
	}
	for (size_t i = 0; i < t->cap; i++)
		t->tab[i].tid = -1;
	forget_cpus(t);
	return t;
}

void threads_free(struct threads *t)
{
	if (!t)
		return;
	free(t->classes);
	free(t->tab);
	free(t);
}

static size_t slot(int64_t tid, size_t cap)
{
	return runhash((uint64_t) tid, cap); /* runs of tids together: util/runhash.h */
}

static struct entry *find(const struct threads *t, int64_t tid)
{
	for (size_t i = slot(tid, t->cap);; i = (i + 1) & (t->cap - 1)) {
		if (t->tab[i].tid == tid)
			return &t->tab[i];
		if (t->tab[i].tid == -1)
			return NULL;
	}
}

static struct entry *get(struct threads *t, int64_t tid)
{
	struct entry *e = find(t, tid);
	if (e)
		return e;
	if (2 * (t->used + 1) > t->cap) {
		struct entry *old = t->tab;
		size_t oldcap = t->cap;
		struct entry *bigger = malloc(2 * oldcap * sizeof(*bigger));
		if (!bigger)
			return NULL;
		t->tab = bigger;
		t->cap = 2 * oldcap;
		for (size_t i = 0; i < t->cap; i++)
			t->tab[i].tid = -1;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].tid != -1) {
				size_t j = slot(old[i].tid, t->cap);
				while (t->tab[j].tid != -1)
					j = (j + 1) & (t->cap - 1);
				t->tab[j] = old[i];
			}
		free(old);
		forget_cpus(t); /* the entries moved */
	}
	size_t i = slot(tid, t->cap);
	while (t->tab[i].tid != -1)
		i = (i + 1) & (t->cap - 1);
	t->tab[i] = (struct entry){.tid = tid, .pid = -1};
	t->used++;
	return &t->tab[i];
}

static void set_comm(struct entry *e, const char *s, size_t len)
{
	if (len >= THREAD_COMM_MAX) { /* a kernel comm, char[16]: read up to its NUL */
		memcpy(e->comm, s, THREAD_COMM_MAX - 1);
		e->comm[THREAD_COMM_MAX - 1] = '\0';
		return;
	}
	const char *nul = memchr(s, '\0', len);
	if (nul)
		len = (size_t) (nul - s);
	if (len >= THREAD_COMM_MAX)
		len = THREAD_COMM_MAX - 1;
	memcpy(e->comm, s, len);
	e->comm[len] = '\0';
}

/* Field `which` of the class's plan: an integer or a string. */
static bool int_of(const struct spoor_event *ev, const struct class_info *c, int which, int64_t *v)
{
	return c->idx[which] >= 0 &&
	       reader_field_int(ev, (enum spoor_scope) c->scope[which], c->idx[which], v);
}

/* A text field; a char array of the payload comes whole (set_comm stops at its NUL). */
static bool str_of(const struct spoor_event *ev, const struct class_info *c, int which,
                   const char **s, size_t *len)
{
	if (c->idx[which] < 0)
		return false;
	if (c->scope[which] == SPOOR_SCOPE_PAYLOAD &&
	    ctf_stream_payload_chars(ev->s, c->idx[which], s, len))
		return true;
	return reader_field_str(ev, (enum spoor_scope) c->scope[which], c->idx[which], s, len);
}

/* Resolve the first of the names that the class has, in the payload. */
static void want(const struct spoor_event_class *ec, struct class_info *c, int which, const char *a,
                 const char *b)
{
	c->scope[which] = SPOOR_SCOPE_PAYLOAD;
	c->idx[which] = spoor_event_class_field_index(ec, SPOOR_SCOPE_PAYLOAD, a);
	if (c->idx[which] < 0 && b && strcmp(a, b))
		c->idx[which] = spoor_event_class_field_index(ec, SPOOR_SCOPE_PAYLOAD, b);
}

/* Field f (ftrace's name) of the event of row: under LTTng's name, else ftrace's. */
static void want_field(const struct spoor_event_class *ec, struct class_info *c, int which,
                       const struct vocab_event *row, const char *f)
{
	const char *l = vocab_field_lttng(row, f);
	want(ec, c, which, l ? l : f, f);
}

/* Where the class's fields sit in a whole payload, when each reads as a plain load: an
 * integer, then a char array, twice (a switch's prev and next). */
static bool fast_places(const struct spoor_event_class *ec, struct class_info *c)
{
	const struct event_class_plans *ep = ec->ec->plan;
	const struct plan *p = ep ? ep->payload : NULL;
	if (!p || !p->fixed)
		return false;
	for (int i = 0; i < NF; i++) {
		if (c->scope[i] != SPOOR_SCOPE_PAYLOAD || c->idx[i] < 0 ||
		    (uint32_t) c->idx[i] >= p->nmembers)
			return false;
		c->at[i] = p->members[c->idx[i]];
		bool text = c->at[i].fast == PLAN_FAST_TEXT;
		if (c->at[i].fast == PLAN_FAST_NONE || text != (i % 2 == 1))
			return false;
	}
	return true;
}

static void resolve(struct threads *t, const struct spoor_event_class *ec, struct class_info *c)
{
	/* the event under ftrace's name, either vocabulary's fields (lib/vocab's table) */
	const char *name = spoor_event_class_name(ec);
	const struct vocab_event *row = vocab_by_lttng(name);
	if (row && !row->prefix)
		name = row->ftrace;
	else
		row = vocab_by_ftrace(NULL, name);
	for (int i = 0; i < NF; i++)
		c->idx[i] = -1;
	c->kind = K_NONE;
	if (!strcmp(name, "statedump_process")) {
		c->kind = K_DUMP;
		want(ec, c, 0, "tid", NULL);
		want(ec, c, 1, "pid", NULL);
		want(ec, c, 2, "name", NULL);
	} else if (!strcmp(name, "sched_process_fork")) {
		c->kind = K_FORK;
		want_field(ec, c, 0, row, "child_pid");
		want(ec, c, 1, "child_comm", NULL);
		/* LTTng records the child's tgid as child_pid next to child_tid */
		if (spoor_event_class_field_index(ec, SPOOR_SCOPE_PAYLOAD, "child_tid") >= 0)
			want(ec, c, 2, "child_pid", NULL);
	} else if (!strcmp(name, "task_newtask")) {
		/* ftrace's sched_process_fork has no tgid: the new task's clone_flags and its
		 * creator (common_pid, the task running) tell a thread from a process */
		c->kind = K_NEWTASK;
		want(ec, c, 0, "pid", NULL);
		want(ec, c, 1, "comm", NULL);
		want(ec, c, 2, "clone_flags", NULL);
		c->scope[3] = SPOOR_SCOPE_STREAM_EVENT_CONTEXT;
		c->idx[3] = spoor_event_class_field_index(ec, SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
		                                          "common_pid");
		if (c->idx[3] < 0) /* spoor's LTTng layout: common_pid as LTTng's tid context */
			c->idx[3] = spoor_event_class_field_index(
			    ec, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, "tid");
	} else if (!strcmp(name, "sched_process_exec")) {
		c->kind = K_EXEC;
		want_field(ec, c, 0, row, "pid");
		want(ec, c, 1, "filename", NULL);
	} else if (!strcmp(name, "task_rename")) {
		c->kind = K_RENAME;
		want(ec, c, 0, "tid", "pid");
		want(ec, c, 1, "newcomm", NULL);
	} else if (!strcmp(name, "sched_switch")) {
		c->kind = K_SWITCH;
		want_field(ec, c, 0, row, "prev_pid");
		want(ec, c, 1, "prev_comm", NULL);
		want_field(ec, c, 2, row, "next_pid");
		want(ec, c, 3, "next_comm", NULL);
		c->whole = fast_places(ec, c);
	} else if ((c->procname = spoor_reader_trace_env(t->r, ec->trace, "procname"))) {
		static const enum spoor_scope scopes[] = {SPOOR_SCOPE_PACKET_CONTEXT,
		                                          SPOOR_SCOPE_STREAM_EVENT_CONTEXT};
		for (int s = 0; s < 2; s++)
			if (c->idx[0] < 0) {
				c->scope[0] = c->scope[1] = (int8_t) scopes[s];
				c->idx[0] = spoor_event_class_field_index(ec, scopes[s], "vtid");
				c->idx[1] = spoor_event_class_field_index(ec, scopes[s], "vpid");
			}
		if (c->idx[0] >= 0)
			c->kind = K_USER;
	}
}

/* The basename of an exec'd file, as the kernel names the thread. */
static void exec_comm(struct entry *e, const char *s, size_t len)
{
	const char *nul = memchr(s, '\0', len);
	if (nul)
		len = (size_t) (nul - s);
	for (size_t i = len; i-- > 0;)
		if (s[i] == '/') {
			len -= i + 1;
			s += i + 1;
			break;
		}
	set_comm(e, s, len);
}

/* Classes a live trace gained (spoor_reader_live_refresh) start unresolved. */
static int grow(struct threads *t, size_t n)
{
	if (n <= t->nclasses)
		return -1;
	struct class_info *bigger = realloc(t->classes, (n + 1) * sizeof(*bigger));
	if (!bigger)
		return -1;
	memset(bigger + t->nclasses, 0, (n + 1 - t->nclasses) * sizeof(*bigger));
	t->classes = bigger;
	t->nclasses = n;
	return 0;
}

/* Task tid's entry (made if new), for an event on cpu. */
static struct entry *get_on(struct threads *t, int64_t cpu, int64_t tid)
{
	/* a negative tid (a damaged trace) could match the empty slots (-2) */
	bool cached = cpu >= 0 && cpu < CPU_CACHE && tid >= 0;
	if (cached && t->on_cpu[cpu].tid == tid)
		return &t->tab[t->on_cpu[cpu].i];
	struct entry *e = get(t, tid);
	if (cached && e) {
		t->on_cpu[cpu].tid = tid;
		t->on_cpu[cpu].i = (size_t) (e - t->tab);
	}
	return e;
}

/* A switch's two tasks and names, read as plain loads from its whole payload (NULL: no). */
static bool switch_fast(struct threads *t, const struct class_info *c, const uint8_t *pay,
                        int64_t cpu)
{
	if (!pay)
		return false;
	for (int w = 0; w < 4; w += 2) {
		int64_t tid = ctf_member_int(pay, &c->at[w]);
		struct entry *e = tid ? get_on(t, cpu, tid) : NULL;
		if (e)
			set_comm(e, (const char *) pay + c->at[w + 1].bit / 8, c->at[w + 1].len);
	}
	return true;
}

static __attribute__((noinline)) void update(struct threads *t, const struct spoor_event *ev,
                                             size_t ci)
{
	if (ci >= t->nclasses && grow(t, spoor_reader_event_class_count(t->r)))
		return;
	struct class_info *c = &t->classes[ci];
	if (c->kind == K_UNRESOLVED)
		resolve(t, spoor_event_class(ev), c);
	if (c->kind == K_NONE)
		return;
	int64_t tid, pid;
	const char *s;
	size_t len;
	struct entry *e;
	switch (c->kind) {
	case K_DUMP:
		if (int_of(ev, c, 0, &tid) && str_of(ev, c, 2, &s, &len) && (e = get(t, tid))) {
			set_comm(e, s, len);
			if (int_of(ev, c, 1, &pid))
				e->pid = pid;
		}
		break;
	case K_FORK:
		if (int_of(ev, c, 0, &tid) && str_of(ev, c, 1, &s, &len) && (e = get(t, tid))) {
			set_comm(e, s, len);
			/* the task_newtask just before (spoor's recordings, either layout) said its
			 * process already, from what the model knows; else LTTng's child_pid, or
			 * ftrace's lone tid: a process */
			if (!e->newtask)
				e->pid = int_of(ev, c, 2, &pid) ? pid : tid;
			e->newtask = false;
		}
		break;
	case K_NEWTASK: {
		int64_t flags, parent;
		if (!int_of(ev, c, 0, &tid) || !int_of(ev, c, 2, &flags) || !(e = get(t, tid)))
			break;
		if (str_of(ev, c, 1, &s, &len))
			set_comm(e, s, len);
		e->pid = tid;
		if ((flags & CLONE_THREAD) && int_of(ev, c, 3, &parent) && parent > 0) {
			const struct entry *p = find(t, parent);
			e->pid = p && p->pid >= 0 ? p->pid : parent;
		}
		e->newtask = true;
		break;
	}
	case K_EXEC:
		if (int_of(ev, c, 0, &tid) && str_of(ev, c, 1, &s, &len) && (e = get(t, tid)))
			exec_comm(e, s, len);
		break;
	case K_RENAME:
		if (int_of(ev, c, 0, &tid) && str_of(ev, c, 1, &s, &len) && (e = get(t, tid)))
			set_comm(e, s, len);
		break;
	case K_SWITCH:
		/* both tasks: one may have renamed itself, with task_rename not recorded */
		if (c->whole &&
		    switch_fast(t, c, ctf_stream_payload_whole(ev->s), reader_event_cpu(ev)))
			break;
		for (int w = 0; w < 4; w += 2)
			if (int_of(ev, c, w, &tid) && tid != 0 && str_of(ev, c, w + 1, &s, &len) &&
			    (e = get(t, tid)))
				set_comm(e, s, len);
		break;
	case K_USER:
		if (int_of(ev, c, 0, &tid) && (e = find(t, tid)) == NULL && (e = get(t, tid))) {
			set_comm(e, c->procname, strlen(c->procname));
			if (int_of(ev, c, 1, &pid))
				e->pid = pid;
		}
		break;
	}
}

bool threads_update(struct threads *t, const struct spoor_event *ev)
{
	size_t ci = reader_event_class_index(ev);
	/* most events name no thread: one look-up */
	if (ci >= t->nclasses || t->classes[ci].kind != K_NONE)
		update(t, ev, ci);
	return ci >= t->nclasses || t->classes[ci].kind != K_NONE;
}

bool threads_names_tasks(struct threads *t, size_t class_index)
{
	if (class_index >= t->nclasses && grow(t, spoor_reader_event_class_count(t->r)))
		return true; /* not known: let it through */
	struct class_info *c = &t->classes[class_index];
	if (c->kind == K_UNRESOLVED)
		resolve(t, spoor_reader_event_class(t->r, class_index), c);
	return c->kind != K_NONE;
}

void threads_seed(struct threads *t, int64_t tid, int64_t pid, const char *name, size_t len)
{
	struct entry *e = tid >= 0 ? get(t, tid) : NULL;
	if (!e)
		return;
	if (e->pid < 0)
		e->pid = pid;
	if (!e->comm[0])
		set_comm(e, name, len);
}

/* Marks the traces that declare a class of this name; how many do. */
static size_t traces_with_class(const struct spoor_reader *r, const char *name, bool *has)
{
	size_t n = 0;
	for (size_t c = 0, nc = spoor_reader_event_class_count(r); c < nc; c++) {
		const struct spoor_event_class *ec = spoor_reader_event_class(r, c);
		if (!has[ec->trace] && !strcmp(spoor_event_class_name(ec), name)) {
			has[ec->trace] = true;
			n++;
		}
	}
	return n;
}

static void quiet(void *data, const char *message)
{
	(void) data;
	(void) message;
}

#define DUMP_AHEAD (1 << 20)

/* (A reader that steps over the other classes would step through the whole of every
 * stream without a dump event, looking for one.) */
struct threads *threads_read_dump(const struct spoor_reader *of)
{
	static const char *const end = "lttng_statedump_end";
	size_t nt = spoor_reader_trace_count(of), ends;
	const char **paths = calloc(nt + 1, sizeof(*paths));
	bool *dumps = calloc(nt + 1, sizeof(*dumps)); /* the traces whose dump has not ended */
	struct spoor_reader *r = NULL;
	struct threads *t = NULL;
	if (!paths || !dumps || reader_live(of) || !(ends = traces_with_class(of, end, dumps)))
		goto out;
	for (size_t i = 0; i < nt; i++)
		paths[i] = spoor_reader_trace_path(of, i);
	if (!(t = threads_new(of)) || spoor_reader_open(paths, nt, &r, NULL))
		goto out;
	spoor_reader_set_warn(r, quiet, NULL); /* the pass itself reports damage */
	const struct spoor_event *ev;
	struct class_info c;
	size_t known = SIZE_MAX; /* c is that class's */
	for (unsigned i = 0; i < DUMP_AHEAD && spoor_reader_next(r, &ev) > 0; i++) {
		const char *name = spoor_event_name(ev);
		if (name[0] != 'l' || strncmp(name, "lttng_statedump_", 16))
			continue;
		if (!strcmp(name, end)) { /* each trace of a folder has its own dump */
			size_t tr = spoor_event_class(ev)->trace;
			if (tr < nt && dumps[tr] && (dumps[tr] = false, !--ends))
				break;
			continue;
		}
		if (known != reader_event_class_index(ev)) {
			known = reader_event_class_index(ev);
			c = (struct class_info){0};
			resolve(t, spoor_event_class(ev), &c);
		}
		int64_t tid, pid;
		const char *s;
		size_t len;
		if (c.kind == K_DUMP && int_of(ev, &c, 0, &tid) && int_of(ev, &c, 1, &pid) &&
		    str_of(ev, &c, 2, &s, &len))
			threads_seed(t, tid, pid, s, len);
	}
out:
	spoor_reader_close(r);
	free(paths);
	free(dumps);
	return t;
}

void threads_seed_all(struct threads *t, const struct threads *from)
{
	for (size_t i = 0; from && i < from->cap; i++) {
		const struct entry *e = &from->tab[i];
		if (e->tid != -1)
			threads_seed(t, e->tid, e->pid, e->comm, strlen(e->comm));
	}
}

void threads_read_dump_ahead(struct threads *t)
{
	struct threads *dump = threads_read_dump(t->r);
	threads_seed_all(t, dump);
	threads_free(dump);
}

const char *threads_comm(const struct threads *t, int64_t tid)
{
	if (tid == 0)
		return "<idle>";
	const struct entry *e = find(t, tid);
	return e && e->comm[0] ? e->comm : NULL;
}

int64_t threads_pid(const struct threads *t, int64_t tid)
{
	const struct entry *e = find(t, tid);
	return e ? e->pid : -1;
}
