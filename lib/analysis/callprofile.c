/* SPDX-License-Identifier: MIT */
/* callprofile.c: per-function call statistics (see callprofile.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "callprofile.h"
#include "idmap.h"
#include "util/grow.h"

struct callprofile {
	struct loadmap *lm;
	struct callprofile_row *rows; /* name: NULL until callprofile_rows */
	int64_t *ids;                 /* each row's loadmap name id */
	size_t n, cap;
	struct idmap by_id;
	int error;
};

struct callprofile *callprofile_new(struct loadmap *lm)
{
	struct callprofile *p = calloc(1, sizeof(*p));
	if (p)
		p->lm = lm;
	return p;
}

void callprofile_free(struct callprofile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free((char *) p->rows[i].name);
	free(p->rows);
	free(p->ids);
	idmap_free(&p->by_id);
	free(p);
}

int callprofile_error(const struct callprofile *p)
{
	return p->error;
}

void callprofile_leave(void *data, const struct calls_span *s)
{
	struct callprofile *p = data;
	int64_t id =
	    loadmap_name_id(p->lm, s->proc, s->addr, s->begin != INT64_MIN ? s->begin : s->end);
	if (id < 0) {
		p->error = (int) id;
		return;
	}
	uint32_t *at = idmap_find(&p->by_id, (uint64_t) id);
	struct callprofile_row *r;
	if (at) {
		r = &p->rows[*at];
	} else {
		size_t cap = p->cap;
		if (grow_one(&p->rows, p->n, &cap, sizeof(*p->rows), 64) ||
		    grow_one(&p->ids, p->n, &p->cap, sizeof(*p->ids), 64) ||
		    idmap_add(&p->by_id, (uint64_t) id, (uint32_t) p->n)) {
			p->error = -ENOMEM;
			return;
		}
		p->ids[p->n] = id;
		r = &p->rows[p->n++];
		*r = (struct callprofile_row){0};
	}
	if (s->flags) {
		r->partial++;
		return;
	}
	int64_t d = s->end - s->begin;
	r->hits++;
	r->total += d;
	r->self += d - s->children;
	welford_add(&r->w, (double) d);
}

static enum callprofile_sort sort_key;

static int by_key(const void *a, const void *b)
{
	const struct callprofile_row *x = a, *y = b;
	double u = 0, v = 0;
	switch (sort_key) {
	case CP_TOTAL: u = (double) x->total, v = (double) y->total; break;
	case CP_HITS: u = (double) x->hits, v = (double) y->hits; break;
	case CP_AVG: u = x->w.mean, v = y->w.mean; break;
	case CP_SELF: u = (double) x->self, v = (double) y->self; break;
	case CP_NAME: break;
	}
	if (u != v)
		return u > v ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct callprofile_row *) a)->name,
	              ((const struct callprofile_row *) b)->name);
}

size_t callprofile_rows(struct callprofile *p, enum callprofile_sort sort,
                        const struct callprofile_row **rows)
{
	if (p->n && !p->rows[0].name) { /* first time: names, then one row per name */
		for (size_t i = 0; i < p->n; i++)
			if (!(p->rows[i].name = strdup(loadmap_name_text(p->lm, p->ids[i]))))
				p->rows[i].name = strdup("?");
		qsort(p->rows, p->n, sizeof(*p->rows), by_name);
		size_t k = 0;
		for (size_t i = 0; i < p->n; i++) {
			struct callprofile_row *r = &p->rows[i];
			if (k && r->name && p->rows[k - 1].name &&
			    !strcmp(r->name, p->rows[k - 1].name)) {
				struct callprofile_row *m = &p->rows[k - 1];
				m->hits += r->hits;
				m->partial += r->partial;
				m->total += r->total;
				m->self += r->self;
				welford_combine(&m->w, &r->w);
				free((char *) r->name);
				continue;
			}
			p->rows[k++] = *r;
		}
		p->n = k;
		idmap_free(&p->by_id); /* ids no longer index rows: no more leaves */
	}
	sort_key = sort;
	qsort(p->rows, p->n, sizeof(*p->rows), by_key);
	*rows = p->rows;
	return p->n;
}
