/* SPDX-License-Identifier: MIT */
/*
 * fuzz-metadata.c: libFuzzer target for trace metadata: the input is the bytes of a
 * `metadata` file, plain TSDL or LTTng packetized. It is turned into text
 * (ctf_metadata_decode), parsed and compiled into decoding plans (ctf_trace_load_metadata),
 * then the model is walked the way the reader walks it (each event class made ready: its
 * deferred scopes parsed, its plans compiled), and everything is freed. The lazy parse must
 * agree with the eager one (check_lazy), and with itself reading every event block token by
 * token (check_scan); scopes are stepped over as they were a byte at a time (check_skip).
 *
 * Seeds: corpus/metadata/. Dictionary of TSDL tokens: tsdl.dict.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/metadata-read.h"
#include "ctf/trace.h"
#include "ctf/tsdl-lex.h"
#include "ctf/tsdl-parse.h"
#include "../unit/meta-same.h"

static volatile uint64_t sink;

/* Event blocks read from the raw text (tsdl-scan.c) give what reading them token by token
 * gives: the same answer, the same error at the same place, the same classes. */
static void check_scan(const char *text, size_t len)
{
	struct ctf_meta scanned = {0}, tokens = {0};
	struct tsdl_error se, te;
	int src = tsdl_parse_lazy(text, len, &scanned, &se);
	int trc = tsdl_parse_lazy_tokens(text, len, &tokens, &te);

	if (src != trc || se.line != te.line || se.col != te.col || strcmp(se.msg, te.msg))
		abort();
	if (!src && !same_classes(&scanned, &tokens))
		abort();
	ctf_meta_free(&scanned);
	ctf_meta_free(&tokens);
}

/* The lazy parse, its deferred scopes then parsed, accepts the text exactly when the eager
 * parse does, with the same fields in each class. */
static void check_lazy(const char *text, size_t len)
{
	struct ctf_meta eager = {0}, lazy = {0};
	struct tsdl_error err;
	bool eager_ok = tsdl_parse(text, len, &eager, &err) == 0;
	bool lazy_ok = tsdl_parse_lazy(text, len, &lazy, &err) == 0;

	for (unsigned s = 0; lazy_ok && s < lazy.nstreams; s++)
		for (unsigned e = 0; lazy_ok && e < lazy.streams[s]->nevents; e++)
			lazy_ok = tsdl_parse_deferred(&lazy, lazy.streams[s]->events[e], &err) == 0;
	if (eager_ok != lazy_ok)
		abort();
	for (unsigned s = 0; eager_ok && s < eager.nstreams; s++) {
		const struct ctf_stream_class *a = eager.streams[s], *b = lazy.streams[s];
		if (a->nevents != b->nevents)
			abort();
		for (unsigned e = 0; e < a->nevents; e++) {
			const struct ctf_event_class *x = a->events[e], *y = b->events[e];
			if (!x->fields != !y->fields || !x->context != !y->context ||
			    (x->fields && x->fields->s.n != y->fields->s.n) ||
			    (x->context && x->context->s.n != y->context->s.n))
				abort();
		}
	}
	ctf_meta_free(&eager);
	ctf_meta_free(&lazy);
}

/* tsdl_lex_skip_to_semicolon as it was before it looked at 16 bytes at a time: one byte at a
 * time, lines counted on the way. The reference it must agree with. */
static int reference_skip_to_semicolon(struct tsdl_lexer *lx)
{
	static const unsigned char special[256] = {
	    ['\n'] = 1, ['"'] = 1, ['\''] = 1, ['/'] = 1, ['{'] = 1, ['}'] = 1, [';'] = 1,
	};
	const char *p = lx->pos, *end = lx->end, *last_nl = NULL;
	unsigned lines = 0;
	size_t depth = 0;

	for (;; p++) {
		while (p < end && !special[(unsigned char) *p])
			p++;
		if (p >= end)
			return -1;
		char c = *p;
		if (c == '\n') {
			lines++;
			last_nl = p;
		} else if (c == '{') {
			depth++;
		} else if (c == '}') {
			if (!depth)
				return -1;
			depth--;
		} else if (c == ';') {
			if (!depth)
				break;
		} else if (c == '"' || c == '\'') {
			const char *q = p + 1;
			while (q < end && *q != c) {
				if (*q == '\\' && q + 1 < end)
					q++;
				if (*q == '\n')
					return -1;
				q++;
			}
			if (q >= end)
				return -1;
			p = q;
		} else if (p + 1 < end && p[1] == '*') {
			const char *q = p + 2;
			while (q + 1 < end && !(q[0] == '*' && q[1] == '/')) {
				if (*q == '\n') {
					lines++;
					last_nl = q;
				}
				q++;
			}
			if (q + 1 >= end)
				return -1;
			p = q + 1;
		} else if (p + 1 < end && p[1] == '/') {
			while (p + 1 < end && p[1] != '\n')
				p++;
		}
	}
	lx->col = last_nl ? (unsigned) (p - last_nl) : lx->col + (unsigned) (p - lx->pos);
	lx->line += lines;
	lx->pos = p;
	return 0;
}

/* The scopes stepped over end where the reference says, from the start of the text and from
 * its first braces. */
static void check_skip(const char *text, size_t len)
{
	const char *from = text, *end = text + len;

	for (int n = 0; from && n < 64; n++) {
		struct tsdl_lexer a, b;
		tsdl_lex_init(&a, text, len);
		a.pos = from;
		a.line = 3;
		a.col = 5;
		b = a;
		int ra = tsdl_lex_skip_to_semicolon(&a), rb = reference_skip_to_semicolon(&b);
		if (ra != rb || a.pos != b.pos || a.line != b.line || a.col != b.col)
			abort();
		from = end - from > 1 ? memchr(from + 1, '{', (size_t) (end - from - 1)) : NULL;
	}
}

/* What the reader does with a loaded model besides decoding: look-ups by id and name. */
static void walk_model(const struct ctf_trace *t)
{
	const struct ctf_meta *m = &t->meta;

	sink += m->nenv + m->nclocks + (m->packet_header ? m->packet_header->s.n : 0);
	sink += ctf_meta_env(m, "hostname") != NULL;
	for (unsigned s = 0; s < m->nstreams; s++) {
		const struct ctf_stream_class *sc = m->streams[s];
		if (ctf_meta_stream(m, sc->id) == NULL)
			abort(); /* a declared stream class must be found by its id */
		for (unsigned e = 0; e < sc->nevents; e++) {
			struct ctf_event_class *ec = sc->events[e];
			if (ctf_stream_event(sc, ec->id) == NULL)
				abort(); /* likewise for event classes */
			sink += strlen(ec->name);
			int rc = ctf_event_class_ready(ec);
			if (rc != ctf_event_class_ready(ec) || (rc == 0) != (ec->plan != NULL))
				abort(); /* once, and the same answer after */
			if (!rc && ec->fields)
				sink +=
				    (uint64_t) ctf_struct_find(ec->fields, "x", ec->fields->s.n);
		}
		/* Ids that are not declared must not be found, nor crash the look-up. */
		sink += ctf_stream_event(sc, UINT64_MAX) != NULL;
		sink += ctf_stream_event(sc, sc->by_id_len) != NULL;
	}
	sink += ctf_meta_stream(m, UINT64_MAX) != NULL;
}

/* A trace whose metadata is the same text shares the model (meta-share.h): the same
 * classes, each made ready once, through the model's, with the same answer. */
static void check_shared(struct ctf_trace *t, const char *text, size_t len)
{
	struct ctf_trace *u = calloc(1, sizeof(*u));
	char err[512];

	if (!u)
		return;
	if (ctf_trace_load_among(u, &t, 1, text, len, err, sizeof(err)) || u->model != t ||
	    u->meta.nstreams != t->meta.nstreams)
		abort();
	for (unsigned s = 0; s < t->meta.nstreams; s++)
		for (unsigned e = 0; e < t->meta.streams[s]->nevents; e++) {
			struct ctf_event_class *x = t->meta.streams[s]->events[e];
			struct ctf_event_class *y = u->meta.streams[s]->events[e];
			int rc = ctf_event_class_ready(y);
			if (x->id != y->id || strcmp(x->name, y->name) || rc != x->error ||
			    y->plan != x->plan || (!rc && !x->plan))
				abort();
		}
	ctf_trace_free(u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = NULL, err[512] = "";
	size_t len = 0;

	if (ctf_metadata_decode(data, size, &text, &len, err, sizeof(err)) == 0) {
		check_lazy(text, len);
		check_scan(text, len);
		check_skip(text, len);
		struct ctf_trace *t = calloc(1, sizeof(*t));
		if (t) {
			if (ctf_trace_load_metadata(t, text, len, err, sizeof(err)) == 0) {
				check_shared(t, text, len);
				walk_model(t);
			}
			ctf_trace_free(t);
		}
	}
	free(text);
	return 0;
}
