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
	/* read in place (line_plan.in_place): bytes from the scope's start; how (enum
	 * plan_fast: an integer of len bytes, a char array of len bytes; PLAN_FAST_NONE: the
	 * scope's string, the last member) */
	uint32_t off, len;
	uint8_t fast;
};

struct line_scope {
	enum spoor_scope scope;
	const char *open, *close; /* around the members ("{", " }") */
	uint8_t open_len, close_len;
	uint32_t n;
	struct line_item *items;
	/* in place: the bits from the scope's start that must be in the packet, and where
	 * its last member, a string, starts (UINT32_MAX: none) */
	uint64_t need;
	uint32_t string_off;
};

struct line_plan {
	uint32_t nscopes;
	struct line_scope scopes[4];
	/* Every scope but the packet context's is read in place, without decoding, when its
	 * start is known (ctf_stream_scope_start) and it is whole in the packet: its root
	 * members are integers and char arrays at fixed offsets (plan_member.fast), the last
	 * one maybe a string, and every member shown prints as a decimal or a string. */
	bool in_place;
};

/* Build the plan of ec's line in format (SPOOR_FORMAT_*). NULL when out of memory. */
struct line_plan *line_plan_new(const struct ctf_stream_class *sc, struct ctf_event_class *ec,
                                int format);
void line_plan_free(struct line_plan *p);

#endif
