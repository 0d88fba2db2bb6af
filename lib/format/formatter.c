/* SPDX-License-Identifier: MIT */
/*
 * formatter.c: one text line per event, in spoor's compact layout or in babeltrace2's
 * default layout (plugins/text/pretty: timestamp, delta, hostname, name, then the packet
 * context, stream event context, event context and payload scopes).
 */
#include <errno.h>
#include <stdlib.h>

#include "ctf/trace.h"
#include "ftrace.h"
#include "lineplan.h"
#include "reader/reader.h"
#include "values.h"

#define NSEC_PER_SEC 1000000000LL

struct spoor_formatter {
	enum spoor_format format;
	struct outbuf out;
	bool have_last;
	int64_t last_ns;
	struct line_plan **plans; /* by event class index, built on first use */
	size_t nplans;
	/* The packet context is the same for every event of a packet: its text is kept per
	 * stream and reused until the stream moves to another packet. */
	struct packet_text {
		uint64_t packet;
		char *text;
		size_t len;
	} * packet_text;
	size_t nstreams;
	struct ftrace_format *ftrace;
	int64_t text_sec; /* the second whose "HH:MM:SS." is in sec_text */
	char sec_text[9];
	/* spoor's format: the second whose "S." is in time_text (time_len bytes) */
	int64_t time_sec;
	uint8_t time_len;
	char time_text[24];
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
	f->text_sec = f->time_sec = -1;
	if (format == SPOOR_FORMAT_FTRACE && !(f->ftrace = ftrace_format_new())) {
		outbuf_fini(&f->out);
		free(f);
		return -ENOMEM;
	}
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
	for (size_t i = 0; i < f->nplans; i++)
		line_plan_free(f->plans[i]);
	free(f->plans);
	for (size_t i = 0; i < f->nstreams; i++)
		free(f->packet_text[i].text);
	free(f->packet_text);
	ftrace_format_free(f->ftrace);
	free(f);
	return rc;
}

/* babeltrace2's wall-clock time, UTC, including its handling of negative times. */
static void put_wall_time(struct spoor_formatter *f, struct outbuf *o, int64_t ns)
{
	int64_t sec = ns / NSEC_PER_SEC, nsec = ns % NSEC_PER_SEC;

	if (ns < 0) { /* babeltrace2 falls back to [-sec.ns] for times before the epoch */
		outbuf_time(o, ns);
		return;
	}
	if (sec != f->text_sec) { /* events come many to a second: format it once */
		struct outbuf t = {.buf = f->sec_text, .cap = sizeof(f->sec_text)};
		uint64_t day = (uint64_t) sec % 86400;
		outbuf_u64_pad(&t, day / 3600, 2);
		outbuf_putc(&t, ':');
		outbuf_u64_pad(&t, day / 60 % 60, 2);
		outbuf_putc(&t, ':');
		outbuf_u64_pad(&t, day % 60, 2);
		outbuf_putc(&t, '.');
		f->text_sec = sec;
	}
	outbuf_put(o, f->sec_text, 9);
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
		put_wall_time(f, o, ns);
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
	/* babeltrace2's defaults show the trace's hostname, procname and vpid, joined by ':' */
	const struct ctf_trace *t = reader_event_trace(ev);
	bool dom = false;
	if (t->hostname) {
		if (outbuf_str(o, t->hostname, t->hostname_len))
			return -1;
		dom = true;
	}
	if (t->procname) {
		if ((dom && outbuf_str(o, ":", 1)) ||
		    outbuf_str(o, t->procname, strlen(t->procname)))
			return -1;
		dom = true;
	}
	if (t->has_vpid) {
		if (outbuf_room(o, 26))
			return -1;
		if (dom)
			outbuf_putc(o, ':');
		outbuf_putc(o, '(');
		outbuf_s64(o, t->vpid);
		outbuf_putc(o, ')');
		dom = true;
	}
	if (dom && outbuf_str(o, " ", 1))
		return -1;
	const struct ctf_event_class *ec = ev->s->ec;
	if (outbuf_room(o, ec->name_len + 2))
		return -1;
	outbuf_put(o, ec->name, ec->name_len);
	outbuf_lit(o, ": ");
	return 0;
}

static const struct line_plan *plan_for(struct spoor_formatter *f, const struct spoor_event *ev)
{
	size_t c = ev->s->ec->global_index;

	if (!f->plans) {
		f->nplans = spoor_reader_event_class_count(ev->r);
		f->plans = calloc(f->nplans + 1, sizeof(*f->plans));
		if (!f->plans)
			return NULL;
	}
	if (c >= f->nplans)
		return NULL;
	if (!f->plans[c])
		f->plans[c] = line_plan_new(ev->s->sc, ev->s->ec, (int) f->format);
	return f->plans[c];
}

static struct packet_text *packet_text_of(struct spoor_formatter *f, const struct spoor_event *ev)
{
	if (!f->packet_text) {
		f->nstreams = spoor_reader_stream_count(ev->r);
		f->packet_text = calloc(f->nstreams + 1, sizeof(*f->packet_text));
		if (!f->packet_text)
			return NULL;
	}
	return ev->s->index < f->nstreams ? &f->packet_text[ev->s->index] : NULL;
}

static void keep_packet_text(struct packet_text *pt, uint64_t packet, const char *text, size_t len)
{
	char *copy = realloc(pt->text, len ? len : 1);

	if (!copy)
		return;
	memcpy(copy, text, len);
	pt->text = copy;
	pt->len = len;
	pt->packet = packet;
}

/* Where each scope of an in-place line starts in the packet (at[k]; NULL for the packet
 * context) and the length of its string if it ends with one (slen[k]): false when the
 * line must be decoded (a scope's start not known, or not whole in the packet, which the
 * decode reports as damage). */
static bool locate_scopes(const struct line_plan *lp, const struct ctf_stream *s,
                          const uint8_t **at, size_t *slen)
{
	uint64_t end = s->src.end_bits;

	for (unsigned k = 0; k < lp->nscopes; k++) {
		const struct line_scope *ls = &lp->scopes[k];
		at[k] = NULL;
		if (ls->scope == SPOOR_SCOPE_PACKET_CONTEXT)
			continue;
		uint64_t pos = ctf_stream_scope_start(s, ls->scope);
		if (pos > end || ls->need > end - pos)
			return false;
		at[k] = s->src.base + pos / 8;
		if (ls->string_off != UINT32_MAX) {
			const uint8_t *str = at[k] + ls->string_off;
			const uint8_t *nul = memchr(str, 0, end / 8 - (pos / 8 + ls->string_off));
			if (!nul)
				return false;
			slen[k] = (size_t) (nul - str);
		}
	}
	return true;
}

/* The scopes of a line. 1 when the event's data is damaged (the line is dropped). */
static int render_scopes(struct spoor_formatter *f, const struct spoor_event *ev,
                         const struct line_plan *lp, size_t line_start)
{
	struct outbuf *o = &f->out;
	unsigned printed = 0;
	const uint8_t *at[4];
	size_t slen[4];
	bool in_place = lp->in_place && locate_scopes(lp, ev->s, at, slen);

	for (unsigned k = 0; k < lp->nscopes; k++) {
		const struct line_scope *ls = &lp->scopes[k];
		const struct val_table *tab = NULL;
		uint32_t root = 0;
		const uint8_t *base = in_place ? at[k] : NULL;
		if (!base && reader_scope_values(ev, ls->scope, &tab, &root)) {
			o->len = line_start;
			return 1;
		}
		if (!base && root == VAL_NONE)
			continue;
		if (outbuf_room(o, ls->open_len + 2))
			return -1;
		if (printed++ && ls->open_len)
			outbuf_lit(o, ", ");
		struct packet_text *pt =
		    ls->scope == SPOOR_SCOPE_PACKET_CONTEXT ? packet_text_of(f, ev) : NULL;
		if (pt && pt->text && pt->packet == ev->s->packets) {
			if (outbuf_str(o, pt->text, pt->len))
				return -1;
			continue;
		}
		size_t scope_start = o->len;
		uint64_t flushes = o->flushes;
		outbuf_put(o, ls->open, ls->open_len);
		const uint32_t *kids = base ? NULL : tab->kids + tab->v[root].kids;
		for (uint32_t i = 0; i < ls->n; i++) {
			const struct line_item *it = &ls->items[i];
			uint32_t vi = base ? 0 : kids[it->member];
			const struct val *v = base ? NULL : &tab->v[vi];
			/* Room for a 32-byte lead copy and a number: one fixed-size copy is
			 * cheaper than a call for a few bytes. */
			if (outbuf_room(o, it->lead_len + 56u))
				return -1;
			if (it->lead_len <= 32) {
				memcpy(o->buf + o->len, it->lead, 32);
				o->len += it->lead_len;
			} else {
				outbuf_put(o, it->lead, it->lead_len);
			}
			if (base) { /* in place: a decimal or a string (lineplan.c: place_scope) */
				const uint8_t *p = base + it->off;
				int rc = 0;
				switch (it->fast) {
				case PLAN_FAST_UINT:
					outbuf_u64(o,
					           (uint64_t) ctf_load_int(p, it->fast, it->len));
					break;
				case PLAN_FAST_SINT:
					outbuf_s64(o, ctf_load_int(p, it->fast, it->len));
					break;
				case PLAN_FAST_TEXT:
					rc = fmt_string(o, (const char *) p,
					                strnlen((const char *) p, it->len));
					break;
				default: rc = fmt_string(o, (const char *) p, slen[k]);
				}
				if (rc)
					return -1;
				continue;
			}
			switch (it->kind) {
			case LK_UDEC: outbuf_u64(o, v->u); break;
			case LK_SDEC: outbuf_s64(o, v->s); break;
			case LK_STRING:
				if (fmt_string(o, v->str, v->len))
					return -1;
				break;
			default:
				if (fmt_value(o, it->type, tab, vi, 1))
					return -1;
			}
		}
		if (outbuf_str(o, ls->close, ls->close_len))
			return -1;
		if (pt && o->flushes == flushes)
			keep_packet_text(pt, ev->s->packets, o->buf + scope_start,
			                 o->len - scope_start);
	}
	return outbuf_str(o, "\n", 1);
}

static int babeltrace_event(struct spoor_formatter *f, const struct spoor_event *ev)
{
	size_t line_start = f->out.len;
	const struct line_plan *lp = plan_for(f, ev);

	if (!lp || babeltrace_header(f, ev))
		return -1;
	return render_scopes(f, ev, lp, line_start);
}

/* A time as outbuf_time writes it (OUTBUF_TIME_MAX bytes of room), its seconds formatted
 * once per second: events come many to a second. */
static void put_time(struct spoor_formatter *f, struct outbuf *o, int64_t ns)
{
	if (ns < 0) {
		outbuf_time(o, ns);
		return;
	}
	int64_t sec = ns / NSEC_PER_SEC;
	if (sec != f->time_sec) {
		f->time_len = (uint8_t) outbuf_fmt_u64(f->time_text, (uint64_t) sec);
		f->time_text[f->time_len++] = '.';
		f->time_sec = sec;
	}
	memcpy(o->buf + o->len, f->time_text, sizeof(f->time_text)); /* 12 bytes at most */
	o->len += f->time_len;
	outbuf_u64_pad(o, (uint64_t) (ns % NSEC_PER_SEC), 9);
}

/* spoor's own line: seconds.nanoseconds, cpu, name, then `field=value` for the contexts and
 * the payload. Shorter than babeltrace2's and easy to cut and grep. */
static int text_event(struct spoor_formatter *f, const struct spoor_event *ev)
{
	struct outbuf *o = &f->out;
	size_t line_start = o->len;
	const struct line_plan *lp = plan_for(f, ev);

	if (!lp || outbuf_room(o, 64))
		return -1;
	if (reader_event_has_timestamp(ev)) {
		put_time(f, o, reader_event_timestamp(ev));
		outbuf_putc(o, ' ');
	}
	if (spoor_event_cpu(ev) >= 0) {
		outbuf_lit(o, "cpu");
		outbuf_u64(o, (uint64_t) spoor_event_cpu(ev));
		outbuf_putc(o, ' ');
	}
	const struct ctf_event_class *ec = ev->s->ec;
	if (outbuf_room(o, ec->name_len + 1))
		return -1;
	outbuf_put(o, ec->name, ec->name_len);
	outbuf_putc(o, ':');
	return render_scopes(f, ev, lp, line_start);
}

int spoor_formatter_event(struct spoor_formatter *f, const struct spoor_event *ev)
{
	int rc = f->format == SPOOR_FORMAT_BABELTRACE ? babeltrace_event(f, ev)
	         : f->format == SPOOR_FORMAT_FTRACE   ? ftrace_format_event(f->ftrace, &f->out, ev)
	                                              : text_event(f, ev);

	if (rc < 0)
		return f->out.error ? f->out.error : -ENOMEM;
	return 0;
}

void spoor_formatter_skip(struct spoor_formatter *f, const struct spoor_event *ev)
{
	if (f->ftrace)
		ftrace_format_note(f->ftrace, ev);
}
