/* SPDX-License-Identifier: MIT */
/*
 * formatter.c: one text line per event, in spoor's compact layout or in babeltrace2's
 * default layout (plugins/text/pretty: timestamp, delta, hostname, name, then the packet
 * context, stream event context, event context and payload scopes).
 */
#include <errno.h>
#include <stdlib.h>

#include "ctf/trace.h"
#include "reader/reader.h"
#include "values.h"

#define NSEC_PER_SEC 1000000000LL

struct spoor_formatter {
	enum spoor_format format;
	struct outbuf out;
	bool have_last;
	int64_t last_ns;
};

int spoor_formatter_new(enum spoor_format format, int fd, struct spoor_formatter **out)
{
	struct spoor_formatter *f = calloc(1, sizeof(*f));

	*out = NULL;
	if (!f || outbuf_init(&f->out, fd, 1 << 20)) {
		free(f);
		return -ENOMEM;
	}
	f->format = format;
	*out = f;
	return 0;
}

int spoor_formatter_flush(struct spoor_formatter *f)
{
	return outbuf_flush(&f->out);
}

int spoor_formatter_free(struct spoor_formatter *f)
{
	if (!f)
		return 0;
	int rc = outbuf_flush(&f->out);
	outbuf_fini(&f->out);
	free(f);
	return rc;
}

/* babeltrace2's wall-clock time, UTC, including its handling of negative times. */
static void put_wall_time(struct outbuf *o, int64_t ns)
{
	int64_t sec = ns / NSEC_PER_SEC, nsec = ns % NSEC_PER_SEC;

	if (ns < 0) {
		/* babeltrace2 falls back to [-sec.ns] for times before the epoch. */
		outbuf_putc(o, '-');
		outbuf_u64(o, (uint64_t) -sec);
		outbuf_putc(o, '.');
		outbuf_u64_pad(o, (uint64_t) -nsec, 9);
		return;
	}
	uint64_t day = (uint64_t) sec % 86400;
	outbuf_u64_pad(o, day / 3600, 2);
	outbuf_putc(o, ':');
	outbuf_u64_pad(o, day / 60 % 60, 2);
	outbuf_putc(o, ':');
	outbuf_u64_pad(o, day % 60, 2);
	outbuf_putc(o, '.');
	outbuf_u64_pad(o, (uint64_t) nsec, 9);
}

static int babeltrace_header(struct spoor_formatter *f, const struct spoor_event *ev)
{
	struct outbuf *o = &f->out;

	if (outbuf_room(o, 96))
		return -1;
	if (spoor_event_has_timestamp(ev)) {
		int64_t ns = spoor_event_timestamp(ev);
		outbuf_putc(o, '[');
		put_wall_time(o, ns);
		outbuf_lit(o, "] (");
		if (f->have_last) {
			uint64_t delta = (uint64_t) ns - (uint64_t) f->last_ns;
			outbuf_putc(o, '+');
			outbuf_u64(o, delta / NSEC_PER_SEC);
			outbuf_putc(o, '.');
			outbuf_u64_pad(o, delta % NSEC_PER_SEC, 9);
		} else {
			outbuf_lit(o, "+?.?????????");
		}
		outbuf_lit(o, ") ");
		f->have_last = true;
		f->last_ns = ns;
	}
	const struct ctf_trace *t = reader_event_trace(ev);
	if (t->hostname && (outbuf_str(o, t->hostname, t->hostname_len) || outbuf_str(o, " ", 1)))
		return -1;
	const char *name = spoor_event_name(ev);
	if (outbuf_str(o, name, strlen(name)) || outbuf_str(o, ": ", 2))
		return -1;
	return 0;
}

static const enum spoor_scope printed_scopes[] = {
	SPOOR_SCOPE_PACKET_CONTEXT, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, SPOOR_SCOPE_EVENT_CONTEXT,
	SPOOR_SCOPE_PAYLOAD};

static int babeltrace_event(struct spoor_formatter *f, const struct spoor_event *ev)
{
	struct outbuf *o = &f->out;
	size_t line_start = o->len;
	bool first = true;

	if (babeltrace_header(f, ev))
		return -1;
	for (unsigned k = 0; k < 4; k++) {
		enum spoor_scope scope = printed_scopes[k];
		const struct ctf_type *t = reader_scope_type(ev, scope);
		const struct val_table *tab;
		uint32_t root;
		bool pc = scope == SPOOR_SCOPE_PACKET_CONTEXT;
		if (!fmt_scope_shown(t, pc))
			continue;
		if (reader_scope_values(ev, scope, &tab, &root)) {
			o->len = line_start; /* damaged event: no partial line */
			return 1;
		}
		if (root == VAL_NONE)
			continue;
		if (!first && outbuf_str(o, ", ", 2))
			return -1;
		first = false;
		if (fmt_struct(o, t, tab, root, pc, 0))
			return -1;
	}
	return outbuf_str(o, "\n", 1);
}

/* spoor's own line: seconds.nanoseconds, cpu, name, then `field=value` for the contexts and
 * the payload. Shorter than babeltrace2's and easy to cut and grep. */
static int text_event(struct spoor_formatter *f, const struct spoor_event *ev)
{
	struct outbuf *o = &f->out;
	size_t line_start = o->len;

	if (outbuf_room(o, 64))
		return -1;
	if (spoor_event_has_timestamp(ev)) {
		int64_t ns = spoor_event_timestamp(ev);
		if (ns < 0) {
			outbuf_putc(o, '-');
			ns = -ns;
		}
		outbuf_u64(o, (uint64_t) ns / NSEC_PER_SEC);
		outbuf_putc(o, '.');
		outbuf_u64_pad(o, (uint64_t) ns % NSEC_PER_SEC, 9);
		outbuf_putc(o, ' ');
	}
	if (spoor_event_cpu(ev) >= 0) {
		outbuf_lit(o, "cpu");
		outbuf_u64(o, (uint64_t) spoor_event_cpu(ev));
		outbuf_putc(o, ' ');
	}
	const char *name = spoor_event_name(ev);
	if (outbuf_str(o, name, strlen(name)) || outbuf_str(o, ":", 1))
		return -1;
	for (unsigned k = 1; k < 4; k++) {
		enum spoor_scope scope = printed_scopes[k];
		const struct ctf_type *t = reader_scope_type(ev, scope);
		const struct val_table *tab;
		uint32_t root;
		if (!t || !t->s.n)
			continue;
		if (reader_scope_values(ev, scope, &tab, &root)) {
			o->len = line_start;
			return 1;
		}
		if (root == VAL_NONE)
			continue;
		const struct val *v = &tab->v[root];
		for (unsigned i = 0; i < t->s.n && i < v->len; i++) {
			if (!fmt_member_shown(t, i, false))
				continue;
			const char *fname = t->s.fields[i].shown;
			if (outbuf_str(o, " ", 1) || outbuf_str(o, fname, strlen(fname)) ||
			    outbuf_str(o, "=", 1) ||
			    fmt_value(o, t->s.fields[i].type, tab, tab->kids[v->kids + i], 1))
				return -1;
		}
	}
	return outbuf_str(o, "\n", 1);
}

int spoor_formatter_event(struct spoor_formatter *f, const struct spoor_event *ev)
{
	int rc = f->format == SPOOR_FORMAT_BABELTRACE ? babeltrace_event(f, ev) : text_event(f, ev);

	if (rc < 0)
		return f->out.error ? f->out.error : -ENOMEM;
	return 0;
}
