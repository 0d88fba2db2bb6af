/* SPDX-License-Identifier: MIT */
/*
 * meta-share.c: a trace's metadata compared with a model's text, the values that may differ
 * (ctf_var) read from it by the parser, and the model's classes copied for it. The texts are
 * compared byte for byte between those values, so everything the model holds but them was
 * read from the same bytes; a value may change length only at the end of its line, so
 * every place the model records (lines and columns of deferred scopes, for their errors) is
 * the trace's too.
 */
#include <errno.h>
#include <string.h>

#include "meta-share.h"
#include "tsdl-parse.h"

/* m's own env and clocks, copies of like's, for the values to go into. */
static int copy_values(struct ctf_meta *m, const struct ctf_meta *like)
{
	struct arena *a = &m->arena;

	if (like->nenv && !(m->env = arena_alloc(a, like->nenv * sizeof(*m->env))))
		return -ENOMEM;
	if (like->nenv)
		memcpy(m->env, like->env, like->nenv * sizeof(*m->env));
	m->cap_env = like->nenv;
	if (like->nclocks && !(m->clocks = arena_alloc(a, like->nclocks * sizeof(*m->clocks))))
		return -ENOMEM;
	for (unsigned i = 0; i < like->nclocks; i++) {
		if (!(m->clocks[i] = arena_alloc(a, sizeof(**m->clocks))))
			return -ENOMEM;
		*m->clocks[i] = *like->clocks[i];
	}
	m->cap_clocks = like->nclocks;
	return 0;
}

/* How much of like's text follows its last var: most of it (the event classes). */
static size_t tail_len(const struct ctf_meta *like)
{
	const struct ctf_var *last = like->nvars ? &like->vars[like->nvars - 1] : NULL;
	return like->text_len - (last ? last->off + last->len : 0);
}

/* Whether text ends as like's does after its last var: compared first, so that a model
 * of other event classes costs one memcmp up to where they differ, and no parsing. */
static bool same_tail(const struct ctf_meta *like, const char *text, size_t len)
{
	size_t n = tail_len(like);
	return len >= n && !memcmp(like->text + like->text_len - n, text + len - n, n);
}

/* Whether text (whose tail is like's) is like's but at its vars, whose values go into m. */
static bool same_text(struct ctf_meta *m, const struct ctf_meta *like, const char *text, size_t len)
{
	size_t a = 0, b = 0, end;

	for (unsigned i = 0; i < like->nvars; i++) {
		const struct ctf_var *v = &like->vars[i];
		size_t n = v->off - a;
		if (len - b < n || memcmp(like->text + a, text + b, n))
			return false;
		b += n;
		if (tsdl_parse_var(m, v, text, len, b, &end) ||
		    (end - b != v->len && !v->line_ends) || memchr(text + b, '\n', end - b))
			return false;
		a = v->off + v->len;
		b = end;
	}
	return len - b == tail_len(like);
}

/* A copy of a class of the model, made ready through it (trace.c). */
static void copy_class(struct ctf_event_class *to, const struct ctf_event_class *from)
{
	*to = (struct ctf_event_class){
	    .name = from->name,
	    .name_len = from->name_len,
	    .id = from->id,
	    .stream_id = from->stream_id,
	    .has_loglevel = from->has_loglevel,
	    .loglevel = from->loglevel,
	    .emf_uri = from->emf_uri,
	    .shared = from->shared ? from->shared : (struct ctf_event_class *) from,
	};
}

static struct ctf_clock *own_clock(const struct ctf_meta *m, const struct ctf_meta *like,
                                   const struct ctf_clock *c)
{
	for (unsigned i = 0; i < like->nclocks; i++)
		if (like->clocks[i] == c)
			return m->clocks[i];
	return NULL;
}

static int copy_streams(struct ctf_meta *m, const struct ctf_meta *like)
{
	struct arena *a = &m->arena;

	if (like->nstreams && !(m->streams = arena_alloc(a, like->nstreams * sizeof(*m->streams))))
		return -ENOMEM;
	m->cap_streams = like->nstreams;
	for (unsigned s = 0; s < like->nstreams; s++) {
		const struct ctf_stream_class *from = like->streams[s];
		struct ctf_stream_class *to = arena_alloc(a, sizeof(*to));
		unsigned n = from->nevents;
		struct ctf_event_class *classes = n ? arena_alloc(a, n * sizeof(*classes)) : NULL;
		if (!to ||
		    (n && (!classes || !(to->events = arena_alloc(a, n * sizeof(*to->events))))))
			return -ENOMEM;
		to->id = from->id;
		to->has_id = from->has_id;
		to->packet_context = from->packet_context;
		to->event_header = from->event_header;
		to->event_context = from->event_context;
		to->clock = own_clock(m, like, from->clock);
		for (unsigned e = 0; e < n; e++) {
			copy_class(&classes[e], from->events[e]);
			to->events[e] = &classes[e];
		}
		to->nevents = to->cap_events = n;
		if (ctf_stream_index_ids(a, to))
			return -ENOMEM;
		m->streams[s] = to;
	}
	return 0;
}

int ctf_meta_share(struct ctf_meta *m, const struct ctf_meta *like, const char *text, size_t len)
{
	int rc;

	if (!like->text || !same_tail(like, text, len))
		return 1; /* not a lazily parsed model, or not the same classes */
	*m = *like;
	m->arena = (struct arena){.limit = like->arena.limit};
	m->env = NULL;
	m->clocks = NULL;
	m->streams = NULL;
	if ((rc = copy_values(m, like)) == 0)
		rc = same_text(m, like, text, len) ? copy_streams(m, like) : 1;
	if (rc) {
		arena_free_all(&m->arena);
		memset(m, 0, sizeof(*m));
	}
	return rc;
}
