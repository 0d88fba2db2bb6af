/* SPDX-License-Identifier: MIT */
/*
 * lineplan.h: how one event class's line is printed, worked out once per class and format:
 * which scopes and members are shown, the literal text around each value, and the quickest
 * printer for each value's type.
 */
#ifndef FORMAT_LINEPLAN_H
#define FORMAT_LINEPLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "spoor/trace.h"
#include "ctf/types.h"

enum line_kind { LK_UDEC, LK_SDEC, LK_STRING, LK_OTHER };

struct line_item {
	const struct ctf_type *type;
	uint32_t member; /* index in the scope's struct */
	uint8_t kind;    /* enum line_kind */
	uint16_t lead_len;
	const char *lead; /* text before the value: ", name = " or " name=" */
};

struct line_scope {
	enum spoor_scope scope;
	const char *open, *close; /* around the members ("{", " }") */
	uint8_t open_len, close_len;
	uint32_t n;
	struct line_item *items;
};

struct line_plan {
	uint32_t nscopes;
	struct line_scope scopes[4];
};

/* Build the plan of ec's line in format (SPOOR_FORMAT_*). NULL when out of memory. */
struct line_plan *line_plan_new(const struct ctf_stream_class *sc, struct ctf_event_class *ec,
                                int format);
void line_plan_free(struct line_plan *p);

#endif
