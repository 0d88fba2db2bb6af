/* SPDX-License-Identifier: MIT */
/* types.c: constructors and look-ups over the CTF trace model. */
#include <string.h>

#include "types.h"

struct ctf_type *ctf_type_new(struct arena *a, enum ctf_kind kind)
{
	struct ctf_type *t = arena_alloc(a, sizeof(*t));

	if (t)
		t->kind = kind;
	return t;
}

struct ctf_stream_class *ctf_meta_stream(const struct ctf_meta *m, uint64_t id)
{
	for (unsigned i = 0; i < m->nstreams; i++)
		if (m->streams[i]->id == id)
			return m->streams[i];
	return NULL;
}

struct ctf_event_class *ctf_stream_event(const struct ctf_stream_class *sc, uint64_t id)
{
	if (id < sc->by_id_len)
		return sc->by_id[id];
	for (unsigned i = 0; i < sc->nevents; i++)
		if (sc->events[i]->id == id)
			return sc->events[i];
	return NULL;
}

const struct ctf_clock *ctf_meta_clock(const struct ctf_meta *m, const char *name)
{
	for (unsigned i = 0; i < m->nclocks; i++)
		if (!strcmp(m->clocks[i]->name, name))
			return m->clocks[i];
	return NULL;
}

const char *ctf_meta_env(const struct ctf_meta *m, const char *key)
{
	for (unsigned i = 0; i < m->nenv; i++)
		if (!strcmp(m->env[i].key, key))
			return m->env[i].text;
	return NULL;
}

int ctf_struct_find(const struct ctf_type *t, const char *name, unsigned upto)
{
	if (upto > t->s.n)
		upto = t->s.n;
	for (unsigned i = 0; i < upto; i++)
		if (!strcmp(t->s.fields[i].name, name))
			return (int) i;
	for (unsigned i = 0; i < upto; i++)
		if (!strcmp(t->s.fields[i].shown, name))
			return (int) i;
	return -1;
}

bool ctf_type_is_text_array(const struct ctf_type *t)
{
	if (t->kind != CTF_ARRAY && t->kind != CTF_SEQUENCE)
		return false;
	const struct ctf_type *e = t->a.elem;
	return e->kind == CTF_INT && e->i.text && e->i.size == 8 && e->align == 8;
}

enum ctf_byte_order ctf_bo(const struct ctf_meta *m, enum ctf_byte_order bo)
{
	return bo == CTF_BO_NATIVE ? m->bo : bo;
}
