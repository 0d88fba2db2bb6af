/* SPDX-License-Identifier: MIT */
/*
 * fuzz-metadata.c: libFuzzer target for trace metadata: the input is the bytes of a
 * `metadata` file, plain TSDL or LTTng packetized. It is turned into text
 * (ctf_metadata_decode), parsed and compiled into decoding plans (ctf_trace_load_metadata),
 * then the model is walked the way the reader walks it (each event class made ready: its
 * deferred scopes parsed, its plans compiled), and everything is freed. The lazy parse must
 * agree with the eager one (check_lazy).
 *
 * Seeds: corpus/metadata/. Dictionary of TSDL tokens: tsdl.dict.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/metadata-read.h"
#include "ctf/trace.h"
#include "ctf/tsdl-parse.h"

static volatile uint64_t sink;

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = NULL, err[512] = "";
	size_t len = 0;

	if (ctf_metadata_decode(data, size, &text, &len, err, sizeof(err)) == 0) {
		check_lazy(text, len);
		struct ctf_trace *t = calloc(1, sizeof(*t));
		if (t) {
			if (ctf_trace_load_metadata(t, text, len, err, sizeof(err)) == 0)
				walk_model(t);
			ctf_trace_free(t);
		}
	}
	free(text);
	return 0;
}
