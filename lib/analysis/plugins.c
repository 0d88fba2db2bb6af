/* SPDX-License-Identifier: MIT */
/* plugins.c: analysis plug-ins: dlopen, the host's function table, hooks through the engine. */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plugins.h"
#include "spoor/plugin.h"

_Static_assert((int) KEV_COUNT == (int) SPOOR_KIND_COUNT, "plugin.h mirrors kvocab.h's kinds");
_Static_assert((int) KEV_SYSCALL_EXIT == (int) SPOOR_KIND_SYSCALL_EXIT, "same numbering");
_Static_assert((int) KEV_BLOCK_COMPLETE == (int) SPOOR_KIND_BLOCK_COMPLETE, "same numbering");

/* A plug-in's hook, carried through the engine's (fn, data). */
struct bridge {
	spoor_plugin_hook fn;
	void *state;
	struct bridge *next;
};

struct loaded {
	void *dl;
	const struct spoor_plugin *p;
	void *state;
	struct spoor_plugin_host host;
	struct an_plugins *owner;
};

struct an_plugins {
	struct an_engine *e;
	struct loaded *v;
	size_t n;
	struct bridge *bridges;
};

static void call(void *data, const struct an_event *a)
{
	const struct bridge *b = data;
	struct spoor_plugin_event pe = {
	    a->ev, (int) a->kind, a->ts, a->cpu, a->tid, a->cls ? a->cls->syscall : NULL, a};
	b->fn(b->state, &pe);
}

static struct bridge *bridge(struct spoor_plugin_host *h, spoor_plugin_hook fn, void *state)
{
	struct loaded *l = h->priv;
	struct bridge *b = malloc(sizeof(*b));
	if (!b)
		return NULL;
	*b = (struct bridge){fn, state, l->owner->bridges};
	l->owner->bridges = b;
	return b;
}

static int host_on_kind(struct spoor_plugin_host *h, int kind, spoor_plugin_hook fn, void *state)
{
	struct loaded *l = h->priv;
	struct bridge *b = bridge(h, fn, state);
	return b ? an_engine_on(l->owner->e, (enum kev) kind, call, b) : -ENOMEM;
}

static int host_on_name(struct spoor_plugin_host *h, const char *pattern, spoor_plugin_hook fn,
                        void *state)
{
	struct loaded *l = h->priv;
	struct bridge *b = bridge(h, fn, state);
	return b ? an_engine_on_name(l->owner->e, pattern, call, b) : -ENOMEM;
}

static bool host_slot_int(const struct spoor_plugin_event *e, int slot, int64_t *v)
{
	const struct an_event *a = e->priv;
	return slot >= 0 && slot < KSLOTS && a->cls && kv_int(a->ev, a->cls, slot, v);
}

static bool host_slot_str(const struct spoor_plugin_event *e, int slot, const char **s, size_t *len)
{
	const struct an_event *a = e->priv;
	return slot >= 0 && slot < KSLOTS && a->cls && kv_str(a->ev, a->cls, slot, s, len);
}

static struct an_engine *engine_of(struct spoor_plugin_host *h)
{
	return ((struct loaded *) h->priv)->owner->e;
}

static const char *host_task_comm(struct spoor_plugin_host *h, int64_t tid)
{
	return an_task_comm(engine_of(h), tid);
}

static int64_t host_task_pid(struct spoor_plugin_host *h, int64_t tid)
{
	return an_task_pid(engine_of(h), tid);
}

static int64_t host_cpu_task(struct spoor_plugin_host *h, int64_t cpu)
{
	return an_cpu_task(engine_of(h), cpu);
}

static bool host_task_selected(struct spoor_plugin_host *h, int64_t tid)
{
	return an_task_selected(engine_of(h), tid);
}

static bool host_cpu_selected(struct spoor_plugin_host *h, int64_t cpu)
{
	return an_cpu_selected(engine_of(h), cpu);
}

static void host_span(struct spoor_plugin_host *h, int64_t *b, int64_t *e)
{
	an_span(engine_of(h), b, e);
}

static uint64_t host_events_lost(struct spoor_plugin_host *h)
{
	return an_events_lost(engine_of(h));
}

static int load_one(struct an_plugins *ps, const char *path, char *err, size_t errlen)
{
	struct loaded *l = &ps->v[ps->n];
	*l = (struct loaded){.owner = ps};
	/* a bare name would be searched in the library path: make it a path */
	char buf[4096];
	if (!strchr(path, '/')) {
		snprintf(buf, sizeof(buf), "./%s", path);
		path = buf;
	}
	l->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!l->dl) {
		snprintf(err, errlen, "cannot load plug-in %s: %s", path, dlerror());
		return -ENOENT;
	}
	l->p = dlsym(l->dl, SPOOR_PLUGIN_SYMBOL);
	if (!l->p) {
		snprintf(err, errlen, "%s is not a spoor plug-in: no '%s' symbol", path,
		         SPOOR_PLUGIN_SYMBOL);
		dlclose(l->dl);
		return -EINVAL;
	}
	if (l->p->abi != SPOOR_PLUGIN_ABI || l->p->size < sizeof(struct spoor_plugin) ||
	    !l->p->init || !l->p->report) {
		snprintf(err, errlen,
		         "%s: plug-in ABI %u (size %u) is not the one this spoor knows (%u), or it "
		         "has no init or report",
		         path, l->p->abi, l->p->size, SPOOR_PLUGIN_ABI);
		dlclose(l->dl);
		return -EINVAL;
	}
	l->host = (struct spoor_plugin_host){
	    .size = sizeof(struct spoor_plugin_host),
	    .abi = SPOOR_PLUGIN_ABI,
	    .priv = l,
	    .on_kind = host_on_kind,
	    .on_name = host_on_name,
	    .slot_int = host_slot_int,
	    .slot_str = host_slot_str,
	    .field = spoor_event_field,
	    .field_child = spoor_field_child,
	    .event_name = spoor_event_name,
	    .task_comm = host_task_comm,
	    .task_pid = host_task_pid,
	    .cpu_task = host_cpu_task,
	    .task_selected = host_task_selected,
	    .cpu_selected = host_cpu_selected,
	    .span = host_span,
	    .events_lost = host_events_lost,
	    .field_label = spoor_field_label,
	};
	ps->n++; /* from here on, free() unloads it */
	l->state = l->p->init(&l->host);
	if (!l->state) {
		snprintf(err, errlen, "plug-in %s (%s) failed to start", path,
		         l->p->name ? l->p->name : "?");
		return -EINVAL;
	}
	return 0;
}

int an_plugins_load(struct an_engine *e, const char *const *paths, size_t n,
                    struct an_plugins **out, char *err, size_t errlen)
{
	struct an_plugins *ps = calloc(1, sizeof(*ps));
	*out = NULL;
	if (!ps || !(ps->v = calloc(n + 1, sizeof(*ps->v)))) {
		free(ps);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ps->e = e;
	an_engine_want_threads(e); /* a plug-in may ask for any task's name */
	for (size_t i = 0; i < n; i++) {
		int rc = load_one(ps, paths[i], err, errlen);
		if (rc) {
			an_plugins_free(ps);
			return rc;
		}
	}
	*out = ps;
	return 0;
}

int an_plugins_report(struct an_plugins *ps, FILE *out, bool json)
{
	int failed = 0;
	for (size_t i = 0; ps && i < ps->n; i++) {
		struct loaded *l = &ps->v[i];
		if (l->state && l->p->report(l->state, &l->host, out, json))
			failed++;
	}
	return failed;
}

void an_plugins_free(struct an_plugins *ps)
{
	if (!ps)
		return;
	for (size_t i = 0; i < ps->n; i++) {
		struct loaded *l = &ps->v[i];
		if (l->state && l->p->fini)
			l->p->fini(l->state);
		dlclose(l->dl);
	}
	while (ps->bridges) {
		struct bridge *b = ps->bridges;
		ps->bridges = b->next;
		free(b);
	}
	free(ps->v);
	free(ps);
}
