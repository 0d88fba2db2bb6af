/* SPDX-License-Identifier: MIT */
/* types.c: constructors and look-ups over the CTF trace model. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "types.h"

struct ctf_type *ctf_type_new(struct arena *a, enum ctf_kind kind)
{
	struct ctf_type *t = arena_alloc(a, sizeof(*t));

	if (t)
		t->kind = kind;
	return t;
}

struct label_at {
	const char *label;
	unsigned i;
};

static int by_label_then_index(const void *a, const void *b)
{
	const struct label_at *x = a, *y = b;
	int c = strcmp(x->label, y->label);
	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* Gather each label's entries after its first one (sorted, run_of: n each, scratch). */
static int gather_labels(struct arena *a, struct ctf_type *t, struct label_at *sorted,
                         unsigned *run_of)
{
	unsigned n = t->e.n;
	const struct ctf_enum_entry *en = t->e.entries;
	bool repeated = false;

	for (unsigned i = 0; i < n; i++) {
		sorted[i] = (struct label_at){en[i].label, i};
		run_of[i] = UINT32_MAX;
	}
	qsort(sorted, n, sizeof(*sorted), by_label_then_index);
	/* each label's run in sorted starts at its first declaration */
	for (unsigned k = 0; k < n; k++) {
		if (!k || strcmp(sorted[k].label, sorted[k - 1].label))
			run_of[sorted[k].i] = k;
		else
			repeated = true;
	}
	if (!repeated) /* the usual case: nothing to gather */
		return 0;
	struct ctf_enum_entry *out = arena_alloc(a, n * sizeof(*out));
	if (!out)
		return -ENOMEM;
	unsigned m = 0;
	for (unsigned i = 0; i < n; i++)
		for (unsigned k = run_of[i];
		     k < n && (k == run_of[i] || run_of[sorted[k].i] == UINT32_MAX); k++) {
			out[m] = en[sorted[k].i];
			out[m++].label = en[i].label;
		}
	t->e.entries = out;
	return 0;
}

int ctf_enum_group(struct arena *a, struct ctf_type *t)
{
	bool is_signed = t->e.container->i.is_signed;
	unsigned n = t->e.n;
	struct ctf_enum_entry *en = t->e.entries;

	for (unsigned i = 0; i < n; i++) {
		bool reversed =
		    is_signed ? en[i].lo > en[i].hi : (uint64_t) en[i].lo > (uint64_t) en[i].hi;
		if (reversed) {
			int64_t lo = en[i].lo;
			en[i].lo = en[i].hi;
			en[i].hi = lo;
		}
	}
	if (n < 2)
		return 0;
	struct label_at *sorted = malloc(n * sizeof(*sorted));
	unsigned *run_of = malloc(n * sizeof(*run_of));
	int rc = sorted && run_of ? gather_labels(a, t, sorted, run_of) : -ENOMEM;
	free(sorted);
	free(run_of);
	return rc;
}

const char *ctf_enum_next_label(const struct ctf_type *t, uint64_t v, unsigned *at)
{
	bool is_signed = t->e.container->i.is_signed;
	const struct ctf_enum_entry *en = t->e.entries;
	unsigned n = t->e.n, e = *at;

	while (e < n) {
		const char *label = en[e].label;
		bool in = false;
		for (; e < n && en[e].label == label; e++)
			in |= is_signed ? (int64_t) v >= en[e].lo && (int64_t) v <= en[e].hi
			                : v >= (uint64_t) en[e].lo && v <= (uint64_t) en[e].hi;
		if (in) {
			*at = e;
			return label;
		}
	}
	*at = n;
	return NULL;
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

int ctf_stream_index_ids(struct arena *a, struct ctf_stream_class *sc)
{
	uint64_t max = 0;

	for (unsigned i = 0; i < sc->nevents; i++)
		max = sc->events[i]->id > max ? sc->events[i]->id : max;
	sc->by_id = NULL;
	sc->by_id_len = 0;
	if (!sc->nevents || max >= 4 * (uint64_t) sc->nevents + 1024)
		return 0;
	struct ctf_event_class **by_id = arena_alloc(a, (max + 1) * sizeof(*by_id));
	if (!by_id)
		return -ENOMEM;
	for (unsigned i = 0; i < sc->nevents; i++)
		by_id[sc->events[i]->id] = sc->events[i];
	sc->by_id = by_id;
	sc->by_id_len = max + 1;
	return 0;
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
