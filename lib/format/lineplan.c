/* SPDX-License-Identifier: MIT */
/* lineplan.c: builds an event class's line plan (see lineplan.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lineplan.h"
#include "reader/reader.h"
#include "values.h"

static uint8_t kind_of(const struct ctf_type *t)
{
	if (t->kind == CTF_INT && t->i.base == CTF_BASE_DEC)
		return t->i.is_signed ? LK_SDEC : LK_UDEC;
	if (t->kind == CTF_STRING || ctf_type_is_text_array(t))
		return LK_STRING;
	return LK_OTHER;
}

static int build_scope(struct line_scope *ls, const struct ctf_type *t, bool babeltrace, bool pc)
{
	ls->items = calloc(t->s.n + 1, sizeof(*ls->items));
	if (!ls->items)
		return -1;
	for (unsigned i = 0; i < t->s.n; i++) {
		const struct ctf_field *f = &t->s.fields[i];
		if (!fmt_member_shown(t, i, pc))
			continue;
		struct line_item *it = &ls->items[ls->n];
		size_t len = f->shown_len + 5;
		char *lead = calloc(1, len + 32); /* read 32 bytes at a time by the renderer */
		if (!lead)
			return -1;
		if (babeltrace)
			len = (size_t) sprintf(lead, "%s%s = ", ls->n ? ", " : " ", f->shown);
		else
			len = (size_t) sprintf(lead, " %s=", f->shown);
		it->lead = lead;
		it->lead_len = (uint16_t) len;
		it->type = f->type;
		it->member = i;
		it->kind = kind_of(f->type);
		ls->n++;
	}
	if (babeltrace) {
		ls->open = "{";
		ls->open_len = 1;
		ls->close = " }";
		ls->close_len = 2;
	} else {
		ls->open = ls->close = "";
	}
	return 0;
}

struct line_plan *line_plan_new(const struct ctf_stream_class *sc, struct ctf_event_class *ec,
                                int format)
{
	static const enum spoor_scope order[] = {SPOOR_SCOPE_PACKET_CONTEXT,
	                                         SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
	                                         SPOOR_SCOPE_EVENT_CONTEXT, SPOOR_SCOPE_PAYLOAD};
	bool babeltrace = format == SPOOR_FORMAT_BABELTRACE;
	struct line_plan *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	/* spoor's text line leaves the packet context out: its cpu id is printed up front */
	for (unsigned k = babeltrace ? 0 : 1; k < 4; k++) {
		const struct ctf_type *t = reader_class_scope_type(sc, ec, order[k]);
		bool pc = order[k] == SPOOR_SCOPE_PACKET_CONTEXT;
		if (babeltrace ? !fmt_scope_shown(t, pc) : !t)
			continue;
		struct line_scope *ls = &p->scopes[p->nscopes++];
		ls->scope = order[k];
		if (build_scope(ls, t, babeltrace, pc)) {
			line_plan_free(p);
			return NULL;
		}
	}
	return p;
}

void line_plan_free(struct line_plan *p)
{
	if (!p)
		return;
	for (unsigned k = 0; k < p->nscopes; k++) {
		for (unsigned i = 0; i < p->scopes[k].n; i++)
			free((char *) p->scopes[k].items[i].lead);
		free(p->scopes[k].items);
	}
	free(p);
}
