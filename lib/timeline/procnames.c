/* SPDX-License-Identifier: MIT */
/* procnames.c: user-space threads' names from their contexts (see procnames.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/idmap.h"
#include "procnames.h"
#include "util/grow.h"

struct pclass {
	int8_t name_scope, pid_scope;
	int name_index, pid_index; /* -1: none */
};

struct pname {
	int64_t pid;
	char name[17]; /* LTTng-UST's procname: a char array of 17 */
};

struct tl_procnames {
	struct pclass *classes;
	struct pname *names;
	size_t nnames, capnames;
	struct idmap by_tid;
	int64_t last; /* the previous event's thread: named already */
	bool oom;
};

void tl_context_field(const struct spoor_event_class *ec, const char *name, int8_t *scope,
                      int *index)
{
	static const enum spoor_scope scopes[] = {SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_EVENT_CONTEXT};
	*index = -1;
	for (size_t i = 0; i < 2 && *index < 0; i++) {
		*scope = (int8_t) scopes[i];
		*index = spoor_event_class_field_index(ec, scopes[i], name);
	}
}

static void on_user_event(void *data, const struct an_event *ev)
{
	struct tl_procnames *p = data;
	if (ev->tid == p->last || ev->tid < 0)
		return;
	p->last = ev->tid;
	if (idmap_find(&p->by_tid, (uint64_t) ev->tid))
		return;
	const struct pclass *k = &p->classes[ev->class_index];
	struct spoor_field f;
	struct pname n = {.pid = -1};
	if (!spoor_event_field_at(ev->ev, (enum spoor_scope) k->name_scope, k->name_index, &f) ||
	    f.kind != SPOOR_FIELD_STRING)
		return;
	size_t len = strnlen(f.v.str.ptr, f.v.str.len < 16 ? f.v.str.len : 16);
	memcpy(n.name, f.v.str.ptr, len);
	if (k->pid_index >= 0 &&
	    spoor_event_field_at(ev->ev, (enum spoor_scope) k->pid_scope, k->pid_index, &f))
		spoor_field_int(&f, &n.pid);
	if (p->nnames >= UINT32_MAX ||
	    grow_one(&p->names, p->nnames, &p->capnames, sizeof(*p->names), 64) ||
	    idmap_add(&p->by_tid, (uint64_t) ev->tid, (uint32_t) p->nnames)) {
		p->oom = true;
		return;
	}
	p->names[p->nnames++] = n;
}

int tl_procnames_new(struct an_engine *e, struct tl_procnames **out)
{
	const struct spoor_reader *r = an_reader(e);
	size_t n = spoor_reader_event_class_count(r);
	struct tl_procnames *p = calloc(1, sizeof(*p));
	*out = NULL;
	if (!p || !(p->classes = calloc(n + 1, sizeof(*p->classes)))) {
		free(p);
		return -ENOMEM;
	}
	p->by_tid.runs = true;
	p->last = -1;
	bool any = false;
	int rc = 0;
	for (size_t c = 0; c < n && !rc; c++) {
		const struct spoor_event_class *ec = spoor_reader_event_class(r, c);
		const char *domain = spoor_reader_trace_env(r, ec->trace, "domain");
		struct pclass *k = &p->classes[c];
		if (!domain || strcmp(domain, "ust"))
			continue;
		tl_context_field(ec, "procname", &k->name_scope, &k->name_index);
		tl_context_field(ec, "vpid", &k->pid_scope, &k->pid_index);
		if (k->name_index >= 0) {
			any = true;
			rc = an_engine_on_class(e, c, on_user_event, p);
		}
	}
	if (rc || !any) {
		tl_procnames_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

void tl_procnames_free(struct tl_procnames *p)
{
	if (!p)
		return;
	free(p->classes);
	free(p->names);
	idmap_free(&p->by_tid);
	free(p);
}

const char *tl_procnames_name(const struct tl_procnames *p, int64_t tid, int64_t *pid)
{
	const uint32_t *i = p ? idmap_find(&p->by_tid, (uint64_t) tid) : NULL;
	*pid = i ? p->names[*i].pid : -1;
	return i ? p->names[*i].name : NULL;
}

int tl_procnames_status(const struct tl_procnames *p)
{
	return p && p->oom ? -ENOMEM : 0;
}
