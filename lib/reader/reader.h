/* SPDX-License-Identifier: MIT */
/* reader.h: the reader's internals shared with the formatters (not installed). */
#ifndef READER_READER_H
#define READER_READER_H

#include "ctf/stream.h"
#include "spoor/trace.h"

struct spoor_event_class {
	struct ctf_event_class *ec;
	struct ctf_stream_class *sc;
	size_t trace;
	size_t index;
};

struct spoor_event {
	struct spoor_reader *r;
	struct ctf_stream *s;
};

/* The type of a scope of an event class of a stream class (NULL when absent). */
const struct ctf_type *reader_class_scope_type(const struct ctf_stream_class *sc,
                                               const struct ctf_event_class *ec,
                                               enum spoor_scope scope);
/* The type of a scope of the current event (NULL when the scope is empty). */
const struct ctf_type *reader_scope_type(const struct spoor_event *ev, enum spoor_scope scope);
/* Decode up to scope and return the scope's value table and root (VAL_NONE: empty).
 * Returns < 0 when the event data is damaged. */
int reader_scope_values(const struct spoor_event *ev, enum spoor_scope scope,
                        const struct val_table **table, uint32_t *root);
const struct ctf_trace *reader_event_trace(const struct spoor_event *ev);

#endif
