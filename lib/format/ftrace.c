/* SPDX-License-Identifier: MIT */
/* ftrace.c: ftrace's text layout (see ftrace.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"

/* common_flags bits (kernel/trace/trace.h) */
enum {
	FL_IRQS_OFF = 0x01,
	FL_NEED_RESCHED_LAZY = 0x02,
	FL_NEED_RESCHED = 0x04,
	FL_HARDIRQ = 0x08,
	FL_SOFTIRQ = 0x10,
	FL_PREEMPT_RESCHED = 0x20,
	FL_NMI = 0x40,
	FL_BH_OFF = 0x80,
};

struct class_cols {
	bool resolved;
	int flags, preempt, pid, vtid;
};

struct ftrace_format {
	struct threads *threads;
	const struct spoor_reader *r;
	struct class_cols *cols;
	size_t ncols;
};

struct ftrace_format *ftrace_format_new(void)
{
	return calloc(1, sizeof(struct ftrace_format));
}

void ftrace_format_free(struct ftrace_format *ff)
{
	if (!ff)
		return;
	threads_free(ff->threads);
	free(ff->cols);
	free(ff);
}

/* The reader is known from the first event. */
static bool ready(struct ftrace_format *ff, const struct spoor_event *ev)
{
	if (ff->threads)
		return true;
	ff->r = spoor_event_reader(ev);
	ff->threads = threads_new(ff->r);
	ff->ncols = spoor_reader_event_class_count(ff->r);
	ff->cols = calloc(ff->ncols + 1, sizeof(*ff->cols));
	return ff->threads && ff->cols;
}

void ftrace_format_note(struct ftrace_format *ff, const struct spoor_event *ev)
{
	if (ready(ff, ev))
		threads_update(ff->threads, ev);
}

static bool int_at(const struct spoor_event *ev, enum spoor_scope scope, int idx, int64_t *v)
{
	struct spoor_field f;
	if (idx < 0 || !spoor_event_field_at(ev, scope, idx, &f))
		return false;
	return spoor_field_int(&f, v);
}

/* The five columns of trace_print_lat_fmt(). */
static void flag_columns(char out[6], uint64_t flags, uint64_t preempt)
{
	bool bh_off = flags & FL_BH_OFF, nmi = flags & FL_NMI, hard = flags & FL_HARDIRQ,
	     soft = flags & FL_SOFTIRQ;
	out[0] = (flags & FL_IRQS_OFF) && bh_off ? 'D'
	         : (flags & FL_IRQS_OFF)         ? 'd'
	         : bh_off                        ? 'b'
	                                         : '.';
	switch (flags & (FL_NEED_RESCHED | FL_NEED_RESCHED_LAZY | FL_PREEMPT_RESCHED)) {
	case FL_NEED_RESCHED | FL_NEED_RESCHED_LAZY | FL_PREEMPT_RESCHED: out[1] = 'B'; break;
	case FL_NEED_RESCHED | FL_PREEMPT_RESCHED: out[1] = 'N'; break;
	case FL_NEED_RESCHED_LAZY | FL_PREEMPT_RESCHED: out[1] = 'L'; break;
	case FL_NEED_RESCHED | FL_NEED_RESCHED_LAZY: out[1] = 'b'; break;
	case FL_NEED_RESCHED: out[1] = 'n'; break;
	case FL_PREEMPT_RESCHED: out[1] = 'p'; break;
	case FL_NEED_RESCHED_LAZY: out[1] = 'l'; break;
	default: out[1] = '.'; break;
	}
	out[2] = nmi && hard ? 'Z' : nmi ? 'z' : hard && soft ? 'H' : hard ? 'h' : soft ? 's' : '.';
	static const char hex[] = "0123456789abcdef";
	out[3] = preempt & 0xf ? hex[preempt & 0xf] : '.';
	out[4] = preempt & 0xf0 ? hex[(preempt >> 4) & 0xf] : '.';
	out[5] = '\0';
}

static int put_value(struct outbuf *o, const struct spoor_field *f, int depth)
{
	char num[40];
	int n;
	switch (f->kind) {
	case SPOOR_FIELD_SIGNED: n = snprintf(num, sizeof(num), "%" PRId64, f->v.s); break;
	case SPOOR_FIELD_UNSIGNED:
		n = snprintf(num, sizeof(num), f->base == 16 ? "0x%" PRIx64 : "%" PRIu64, f->v.u);
		break;
	case SPOOR_FIELD_FLOAT: n = snprintf(num, sizeof(num), "%g", f->v.f); break;
	case SPOOR_FIELD_STRING: {
		size_t len = f->v.str.len;
		const char *nul = memchr(f->v.str.ptr, '\0', len);
		return outbuf_str(o, f->v.str.ptr, nul ? (size_t) (nul - f->v.str.ptr) : len);
	}
	case SPOOR_FIELD_STRUCT:
	case SPOOR_FIELD_ARRAY:
	case SPOOR_FIELD_VARIANT: {
		if (depth > 16 || outbuf_str(o, "{", 1))
			return -1;
		for (uint32_t i = 0; i < f->count; i++) {
			struct spoor_field c;
			if (!spoor_field_child(f, i, &c))
				break;
			if (i && outbuf_str(o, ",", 1))
				return -1;
			if (c.name && f->kind == SPOOR_FIELD_STRUCT &&
			    (outbuf_str(o, c.name, strlen(c.name)) || outbuf_str(o, "=", 1)))
				return -1;
			if (put_value(o, &c, depth + 1))
				return -1;
		}
		return outbuf_str(o, "}", 1);
	}
	default: return 0;
	}
	return outbuf_str(o, num, (size_t) n);
}

static struct class_cols *cols_of(struct ftrace_format *ff, const struct spoor_event *ev)
{
	const struct spoor_event_class *ec = spoor_event_class(ev);
	size_t ci = spoor_event_class_index(ec);
	if (ci >= ff->ncols)
		return NULL;
	struct class_cols *c = &ff->cols[ci];
	if (!c->resolved) {
		c->resolved = true;
		c->flags = spoor_event_class_field_index(ec, SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
		                                         "common_flags");
		c->preempt = spoor_event_class_field_index(ec, SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
		                                           "common_preempt_count");
		c->pid = spoor_event_class_field_index(ec, SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
		                                       "common_pid");
		c->vtid = spoor_event_class_field_index(ec, SPOOR_SCOPE_PACKET_CONTEXT, "vtid");
	}
	return c;
}

int ftrace_format_event(struct ftrace_format *ff, struct outbuf *o, const struct spoor_event *ev)
{
	if (!ready(ff, ev))
		return -1;
	threads_update(ff->threads, ev);
	struct class_cols *c = cols_of(ff, ev);
	if (!c)
		return -1;
	int64_t tid = -1, flags = -1, preempt = 0;
	char fl[6] = ".....";
	if (int_at(ev, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, c->pid, &tid)) {
		if (int_at(ev, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, c->flags, &flags))
			int_at(ev, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, c->preempt, &preempt);
	} else {
		int_at(ev, SPOOR_SCOPE_PACKET_CONTEXT, c->vtid, &tid);
	}
	if (flags >= 0)
		flag_columns(fl, (uint64_t) flags, (uint64_t) preempt);
	const char *comm = tid >= 0 ? threads_comm(ff->threads, tid) : NULL;
	int64_t cpu = spoor_event_cpu(ev);
	int64_t ns = spoor_event_clock_ns(ev);
	if (ns < 0)
		ns = 0;
	char head[128], cpus[24];
	if (cpu >= 0)
		snprintf(cpus, sizeof(cpus), "%03" PRId64, cpu);
	else
		strcpy(cpus, "???");
	int n =
	    snprintf(head, sizeof(head), "%16s-%-7" PRId64 " [%s] %s %5" PRId64 ".%06" PRId64 ": ",
	             comm ? comm : "<...>", tid, cpus, fl, ns / 1000000000, ns % 1000000000 / 1000);
	const char *name = spoor_event_name(ev);
	if (outbuf_str(o, head, (size_t) n) || outbuf_str(o, name, strlen(name)) ||
	    outbuf_str(o, ":", 1))
		return -1;
	if (ftrace_format_fields(o, ev))
		return -1;
	return outbuf_str(o, "\n", 1);
}

int ftrace_format_fields(struct outbuf *o, const struct spoor_event *ev)
{
	struct spoor_field f;
	for (int i = 0; spoor_event_field_at(ev, SPOOR_SCOPE_PAYLOAD, i, &f); i++) {
		if (outbuf_str(o, " ", 1) ||
		    (f.name && (outbuf_str(o, f.name, strlen(f.name)) || outbuf_str(o, "=", 1))) ||
		    put_value(o, &f, 0))
			return -1;
	}
	return 0;
}
