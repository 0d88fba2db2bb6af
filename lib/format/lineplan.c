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

/* Whether scope ls (of type t, plan p) reads in place (line_plan.in_place): its items'
 * offsets and the bits it needs. */
static bool place_scope(struct line_scope *ls, const struct ctf_type *t, const struct plan *p)
{
	ls->string_off = UINT32_MAX;
	if (!p || !p->nops || p->ops[0].align % 8 || p->nmembers != t->s.n)
		return false;
	uint64_t need = p->ops[0].min_bits;
	for (uint32_t i = 0; i < p->nmembers; i++) {
		const struct plan_member *m = &p->members[i];
		uint64_t end = m->bit + (uint64_t) m->len * 8;
		if (m->fast == PLAN_FAST_NONE) {
			/* a string can only be last: what follows it has no fixed place */
			if (p->ops[m->op].code != OP_STRING || i + 1 != p->nmembers)
				return false;
			ls->string_off = m->bit / 8;
			end = m->bit + 8;
		}
		if (end > need)
			need = end;
	}
	ls->need = need;
	for (uint32_t k = 0; k < ls->n; k++) {
		struct line_item *it = &ls->items[k];
		const struct plan_member *m = &p->members[it->member];
		bool text = m->fast == PLAN_FAST_TEXT || m->fast == PLAN_FAST_NONE;
		if (it->kind == LK_OTHER || (it->kind == LK_STRING) != text)
			return false;
		it->off = m->bit / 8;
		it->len = m->len;
		it->fast = m->fast;
	}
	return true;
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
	const struct event_class_plans *ep = ec->plan;
	p->in_place = ep != NULL;
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
		if (!pc && p->in_place)
			p->in_place = place_scope(ls, t, ep->scope[order[k]]);
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
