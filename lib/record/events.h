/* SPDX-License-Identifier: MIT */
/* events.h: event descriptors received from a traced program (untrusted text, proto.h). */
#ifndef RECORD_EVENTS_H
#define RECORD_EVENTS_H

#include <stddef.h>

#include "spoor/tracepoint-types.h"

struct rec_events {
	struct spoor_event_desc **evs; /* owned */
	size_t n, cap;
};

/* Append the events described in text. 0, or -1 with a message in err (then nothing of
 * this text is kept). */
int rec_events_parse(struct rec_events *e, const char *text, size_t len, char *err, size_t errlen);
void rec_events_free(struct rec_events *e);
/* A field the metadata writer can describe: kinds, sizes, bases (also lib/elf's check). */
bool event_field_valid(const struct spoor_field_desc *f);
/* Free one heap-made descriptor (also lib/elf's). */
void event_desc_free(struct spoor_event_desc *d);

#endif
