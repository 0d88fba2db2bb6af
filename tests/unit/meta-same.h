/* SPDX-License-Identifier: MIT */
/*
 * meta-same.h: whether two metadata models hold the same event classes (what the parser
 * records of each block before its scopes are parsed). Shared by test-tsdl.c and
 * fuzz-metadata.c, which both compare reading event blocks from the raw text (tsdl-scan.c)
 * with reading them token by token.
 */
#ifndef TESTS_META_SAME_H
#define TESTS_META_SAME_H

#include <stdbool.h>
#include <string.h>

#include "ctf/trace.h"

static inline bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* The event classes of two models. */
static inline bool same_classes(const struct ctf_meta *a, const struct ctf_meta *b)
{
	if (a->nstreams != b->nstreams)
		return false;
	for (unsigned s = 0; s < a->nstreams; s++) {
		const struct ctf_stream_class *sa = a->streams[s], *sb = b->streams[s];
		if (sa->id != sb->id || sa->nevents != sb->nevents)
			return false;
		for (unsigned e = 0; e < sa->nevents; e++) {
			const struct ctf_event_class *x = sa->events[e], *y = sb->events[e];
			if (!same_text(x->name, y->name) || x->name_len != y->name_len ||
			    x->id != y->id || x->stream_id != y->stream_id ||
			    x->has_loglevel != y->has_loglevel || x->loglevel != y->loglevel ||
			    !same_text(x->emf_uri, y->emf_uri) || !x->fields != !y->fields ||
			    !x->context != !y->context ||
			    memcmp(&x->lazy_fields, &y->lazy_fields, sizeof(x->lazy_fields)) ||
			    memcmp(&x->lazy_context, &y->lazy_context, sizeof(x->lazy_context)))
				return false;
		}
	}
	return true;
}

#endif
