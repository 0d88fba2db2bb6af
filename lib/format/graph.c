/* SPDX-License-Identifier: MIT */
/* graph.c: ftrace's function_graph layout (see graph.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/idmap.h"
#include "ftrace.h"
#include "graph.h"
#include "util/grow.h"
#include "util/outbuf.h"

#define COMM_SHOWN     7  /* ftrace cuts names to 7 characters in this column */
#define PROC_WIDTH     14 /* TRACE_GRAPH_PROCINFO_LENGTH */
#define LINE_MAX_FIXED 96 /* a line but its name and indentation */

struct gthread {
	int64_t tid;
	char comm[COMM_SHOWN + 1];
	char proc[32]; /* its column, "comm-tid" centered (PROC_WIDTH or more), made once */
	uint8_t proc_len;
	uint32_t depth; /* the depth a comment of the thread is at: one past its open call */
};

struct graph {
	struct outbuf o;
	struct graph_opts opts;
	struct gthread *threads;
	size_t nthreads, cap;
	struct idmap ids;
	struct gthread *cur; /* graph_thread's, NULL until its thread makes a call */
	int64_t cur_tid, cpu;
	char cur_comm[COMM_SHOWN + 1];
	int64_t last_tid; /* the thread of the last line (-1: none yet) */
	bool pending;     /* an entry not printed yet: a leaf if its exit comes next */
	struct calls_span pend;
	int64_t pend_cpu;
	uint64_t lines;
};

static void header(struct graph *g)
{
	struct outbuf *o = &g->o;
	outbuf_lit(o, "# tracer: function_graph\n#\n#");
	if (g->opts.cpu)
		outbuf_lit(o, " CPU");
	outbuf_lit(o, "  TASK/PID         DURATION                  FUNCTION CALLS\n#");
	if (g->opts.cpu)
		outbuf_lit(o, " |  ");
	outbuf_lit(o, "   |    |           |   |                     |   |   |   |\n");
}

/* ftrace's print_graph_proc: "comm-tid" centered in 14 columns (made when the name is
 * known or changes). */
static void make_proc(struct gthread *t)
{
	char buf[48];
	size_t n = strlen(t->comm);
	memcpy(buf, t->comm[0] ? t->comm : "<...>", t->comm[0] ? n : (n = 5));
	buf[n++] = '-';
	n += outbuf_fmt_s64(buf + n, t->tid);
	size_t spaces = n < PROC_WIDTH ? PROC_WIDTH - n : 0;
	memset(t->proc, ' ', spaces / 2);
	memcpy(t->proc + spaces / 2, buf, n);
	memset(t->proc + spaces / 2 + n, ' ', spaces - spaces / 2);
	t->proc_len = (uint8_t) (n + spaces);
}

static void put_proc(struct outbuf *o, const struct gthread *t)
{
	outbuf_put(o, t->proc, t->proc_len);
}

/* A thread's name, cut to ftrace's 7 characters. */
static void set_comm(struct gthread *t, const char *comm)
{
	if (strcmp(t->comm, comm)) {
		memcpy(t->comm, comm, sizeof(t->comm));
		make_proc(t);
	}
}

struct graph *graph_new(int fd, const struct graph_opts *opts)
{
	struct graph *g = calloc(1, sizeof(*g));
	if (!g || outbuf_init(&g->o, fd, 1 << 20)) {
		free(g);
		return NULL;
	}
	g->opts = *opts;
	g->last_tid = -1;
	g->cur_tid = -1;
	header(g);
	return g;
}

static struct gthread *thread_of(struct graph *g, int64_t tid, bool add)
{
	uint32_t *i = idmap_find(&g->ids, (uint64_t) tid);
	if (i)
		return &g->threads[*i];
	if (!add)
		return NULL;
	if (grow_one(&g->threads, g->nthreads, &g->cap, sizeof(*g->threads), 16) ||
	    idmap_add(&g->ids, (uint64_t) tid, (uint32_t) g->nthreads)) {
		g->o.error = g->o.error ? g->o.error : -ENOMEM;
		return NULL;
	}
	struct gthread *t = &g->threads[g->nthreads++];
	*t = (struct gthread){.tid = tid};
	make_proc(t);
	return t;
}

void graph_thread(struct graph *g, int64_t tid, const char *comm, size_t comm_len, int64_t cpu)
{
	g->cur_tid = tid;
	g->cpu = cpu;
	if (comm) {
		size_t n = comm_len < COMM_SHOWN ? comm_len : COMM_SHOWN;
		const char *nul = memchr(comm, '\0', n);
		n = nul ? (size_t) (nul - comm) : n;
		memcpy(g->cur_comm, comm, n);
		g->cur_comm[n] = '\0';
	} else {
		g->cur_comm[0] = '\0';
	}
	g->cur = thread_of(g, tid, false);
	if (g->cur && g->cur_comm[0])
		set_comm(g->cur, g->cur_comm);
}

bool graph_knows(struct graph *g, int64_t tid)
{
	return thread_of(g, tid, false) != NULL;
}

static void put_cpu(struct graph *g, int64_t cpu)
{
	if (!g->opts.cpu)
		return;
	outbuf_putc(&g->o, ' ');
	if (cpu >= 0)
		outbuf_s64(&g->o, cpu);
	else
		outbuf_putc(&g->o, '?');
	outbuf_lit(&g->o, ") ");
}

/* ftrace's context-switch lines, when the thread changes from one line to the next. */
static void put_switch(struct graph *g, const struct gthread *t, int64_t cpu)
{
	if (g->last_tid == t->tid)
		return;
	const struct gthread *prev = g->last_tid >= 0 ? thread_of(g, g->last_tid, false) : NULL;
	g->last_tid = t->tid;
	if (!prev)
		return;
	outbuf_lit(&g->o, " ------------------------------------------\n");
	put_cpu(g, cpu);
	put_proc(&g->o, prev);
	outbuf_lit(&g->o, " => ");
	put_proc(&g->o, t);
	outbuf_lit(&g->o, "\n ------------------------------------------\n\n");
}

/* ftrace's trace_find_mark. */
static char mark(int64_t ns)
{
	static const struct {
		int64_t over;
		char sym;
	} marks[] = {{1000000000, '$'}, {100000000, '@'}, {10000000, '*'},
	             {1000000, '#'},    {100000, '!'},    {10000, '+'}};
	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
		if (ns > marks[i].over)
			return marks[i].sym;
	return ' ';
}

/* ftrace's print_graph_duration and trace_print_graph_duration: 14 columns, then "|  ";
 * ns < 0: none (spaces). */
static void put_duration(struct outbuf *o, int64_t ns)
{
	if (ns < 0) {
		outbuf_lit(o, "              |  ");
		return;
	}
	outbuf_putc(o, mark(ns));
	outbuf_putc(o, ' ');
	uint64_t us = (uint64_t) ns / 1000, rem = (uint64_t) ns % 1000;
	unsigned len = outbuf_fmt_u64(o->buf + o->len, us);
	o->len += len;
	if (len < 7) { /* no more than 7 digits: the nanoseconds' first ones */
		unsigned dec = 7 - len < 3 ? 7 - len : 3;
		char three[3];
		outbuf_fmt_u64_pad(three, rem, 3);
		outbuf_putc(o, '.');
		outbuf_put(o, three, dec);
		len += dec + 1;
	}
	outbuf_lit(o, " us ");
	for (; len < 8; len++)
		outbuf_putc(o, ' ');
	outbuf_lit(o, "|  ");
}

/* Everything of a line up to its text, with room reserved for the text (n bytes). */
static int line_start(struct graph *g, struct gthread *t, int64_t cpu, int64_t ns, uint32_t indent,
                      size_t n)
{
	if (outbuf_room(&g->o, 2 * LINE_MAX_FIXED + 2 * (size_t) indent + n + 64))
		return -1;
	put_switch(g, t, cpu);
	put_cpu(g, cpu);
	put_proc(&g->o, t);
	outbuf_lit(&g->o, " | ");
	put_duration(&g->o, ns);
	memset(g->o.buf + g->o.len, ' ', 2 * (size_t) indent);
	g->o.len += 2 * (size_t) indent;
	g->lines++;
	return 0;
}

static const char *name_of(struct graph *g, const struct calls_span *s, size_t *len)
{
	int64_t ts = s->begin != INT64_MIN ? s->begin : s->end;
	const char *n = g->opts.name ? g->opts.name(g->opts.name_data, s->proc, s->addr, ts) : NULL;
	if (!n)
		n = "?";
	*len = strlen(n);
	return n;
}

/* The held entry as `func() {`. */
static void flush_pending(struct graph *g)
{
	if (!g->pending)
		return;
	g->pending = false;
	struct gthread *t = thread_of(g, g->pend.tid, false);
	size_t len;
	const char *name = name_of(g, &g->pend, &len);
	if (!t || line_start(g, t, g->pend_cpu, -1, g->pend.depth, len))
		return;
	outbuf_put(&g->o, name, len);
	outbuf_lit(&g->o, "() {\n");
}

/* A call's thread: the current one (graph_thread's), known from now on with its name. */
static struct gthread *span_thread(struct graph *g, int64_t tid)
{
	if (g->cur && g->cur->tid == tid)
		return g->cur;
	struct gthread *t = thread_of(g, tid, true);
	if (t && g->cur_tid == tid) {
		g->cur = t;
		set_comm(t, g->cur_comm);
	}
	return t;
}

static bool shown(const struct graph *g, uint32_t depth)
{
	return !g->opts.max_depth || depth < g->opts.max_depth;
}

void graph_enter(void *data, const struct calls_span *s)
{
	struct graph *g = data;
	struct gthread *t = span_thread(g, s->tid);
	if (!t)
		return;
	t->depth = s->depth + 1;
	if (!shown(g, s->depth))
		return;
	flush_pending(g);
	g->pending = true;
	g->pend = *s;
	g->pend_cpu = g->cpu;
}

void graph_leave(void *data, const struct calls_span *s)
{
	struct graph *g = data;
	struct gthread *t = span_thread(g, s->tid);
	if (!t)
		return;
	t->depth = s->depth;
	if (!shown(g, s->depth) || (s->flags & CALLS_NO_EXIT)) {
		if (s->flags & CALLS_NO_EXIT)
			flush_pending(g);
		return;
	}
	size_t len;
	const char *name = name_of(g, s, &len);
	if (g->pending && g->pend.tid == s->tid && g->pend.depth == s->depth && !s->flags) {
		g->pending = false;
		if (line_start(g, t, g->pend_cpu, s->end - s->begin, s->depth, len))
			return;
		outbuf_put(&g->o, name, len);
		outbuf_lit(&g->o, "();\n");
		return;
	}
	flush_pending(g);
	if (line_start(g, t, g->cpu, s->flags ? -1 : s->end - s->begin, s->depth, len + 16))
		return;
	if (!s->flags) {
		outbuf_lit(&g->o, "}\n");
		return;
	}
	outbuf_lit(&g->o, "} /* ");
	outbuf_put(&g->o, name, len);
	if (s->flags & CALLS_EXIT_LOST)
		outbuf_lit(&g->o, " (exit lost)");
	else if (s->flags & CALLS_UNWOUND)
		outbuf_lit(&g->o, " (unwound)");
	outbuf_lit(&g->o, " */\n");
}

void graph_comment(struct graph *g, const struct spoor_event *ev)
{
	struct gthread *t = g->cur;
	if (!t || !shown(g, t->depth ? t->depth - 1 : 0))
		return;
	flush_pending(g);
	const char *name = spoor_event_name(ev);
	size_t len = strlen(name);
	if (line_start(g, t, g->cpu, -1, t->depth, len + 8))
		return;
	outbuf_lit(&g->o, "/* ");
	outbuf_put(&g->o, name, len);
	outbuf_putc(&g->o, ':');
	if (ftrace_format_fields(&g->o, ev) || outbuf_room(&g->o, 4))
		return;
	outbuf_lit(&g->o, " */\n");
}

void graph_lost(struct graph *g, int64_t cpu, uint64_t n)
{
	flush_pending(g);
	if (outbuf_room(&g->o, 2 * LINE_MAX_FIXED))
		return;
	if (cpu >= 0) {
		outbuf_lit(&g->o, "CPU:");
		outbuf_s64(&g->o, cpu);
	} else {
		const char *comm = g->cur ? g->cur->comm : g->cur_comm;
		if (comm[0])
			outbuf_put(&g->o, comm, strlen(comm));
		else
			outbuf_lit(&g->o, "<...>");
		outbuf_putc(&g->o, '-');
		outbuf_s64(&g->o, g->cur_tid);
	}
	if (n == GRAPH_LOST_UNKNOWN) {
		outbuf_lit(&g->o, " [LOST EVENTS]\n");
	} else {
		outbuf_lit(&g->o, " [LOST ");
		outbuf_u64(&g->o, n);
		outbuf_lit(&g->o, " EVENTS]\n");
	}
	g->lines++;
}

int graph_error(const struct graph *g)
{
	return g->o.error;
}

uint64_t graph_lines(const struct graph *g)
{
	return g->lines;
}

int graph_free(struct graph *g)
{
	if (!g)
		return 0;
	flush_pending(g);
	int rc = outbuf_flush(&g->o);
	if (!rc)
		rc = g->o.error;
	outbuf_fini(&g->o);
	idmap_free(&g->ids);
	free(g->threads);
	free(g);
	return rc;
}
