/* SPDX-License-Identifier: MIT */
/*
 * fuzz-events.c: the event descriptions a traced program sends to `spoor record` (untrusted
 * text, lib/ipc/proto.h). Whatever the parser accepts must become metadata that the reader
 * parses: that round trip is checked, so the fuzzer finds disagreements, not only crashes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/meta-write.h"
#include "ctf/trace.h"
#include "record/events.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct rec_events ev = {0};
	char err[200];

	if (rec_events_parse(&ev, (const char *) data, size, err, sizeof(err))) {
		rec_events_free(&ev); /* what earlier messages left (none here) and the array */
		return 0;
	}
	struct meta_trace t = {.clock = {"tsc", "fuzz", {0}, 1000000000, 0, 0},
	                       .packed = (int) (size & 1)};
	char *text = NULL;
	size_t len = 0;
	if (!ctf_meta_write(&t, (const struct spoor_event_desc *const *) ev.evs, ev.n, &text,
	                    &len)) {
		struct ctf_trace *tr = calloc(1, sizeof(*tr));
		char perr[400] = "";
		if (ctf_trace_load_metadata(tr, text, len, perr, sizeof(perr)) ||
		    ctf_trace_ready_all(tr, perr, sizeof(perr))) {
			fprintf(stderr, "accepted events gave metadata the reader rejects: %s\n",
			        perr);
			abort();
		}
		ctf_trace_free(tr);
	}
	free(text);
	rec_events_free(&ev);
	return 0;
}
