/* SPDX-License-Identifier: MIT */
/* select.c: kernel event patterns against tracefs's events/ directory (libtracefs lists it). */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tracefs.h>

#include "select.h"

int kevents_add(struct kevent_list *l, const char *system, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].system, system) && !strcmp(l->v[i].name, name))
			return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct kevent_ref *v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n].system = strdup(system);
	l->v[l->n].name = strdup(name);
	if (!l->v[l->n].system || !l->v[l->n].name) {
		free(l->v[l->n].system);
		free(l->v[l->n].name);
		return -ENOMEM;
	}
	l->n++;
	return 0;
}

/* The systems' directories also hold `enable` and `filter` files, which libtracefs does
 * not list as events; "ftrace" holds the tracers' own formats (function...), which are
 * not tracepoints one can enable. */
static bool skip_system(const char *system)
{
	return !strcmp(system, "ftrace");
}

/* Add the events of `systems` matching the two halves; returns how many matched. */
static long match(char **systems, const char *root, const char *sys_pat, const char *ev_pat,
                  struct kevent_list *out)
{
	long found = 0;
	for (size_t s = 0; systems[s]; s++) {
		if (skip_system(systems[s]) || fnmatch(sys_pat, systems[s], 0))
			continue;
		char **events = tracefs_system_events(root, systems[s]);
		for (size_t e = 0; events && events[e]; e++) {
			if (fnmatch(ev_pat, events[e], 0))
				continue;
			if (kevents_add(out, systems[s], events[e])) {
				tracefs_list_free(events);
				return -ENOMEM;
			}
			found++;
		}
		tracefs_list_free(events);
	}
	return found;
}

/* Add the events of the list matching the two halves; returns how many matched. */
static long match_list(const struct kevent_list *all, const char *sys_pat, const char *ev_pat,
                       struct kevent_list *out)
{
	long found = 0;
	for (size_t i = 0; i < all->n; i++) {
		const struct kevent_ref *r = &all->v[i];
		if (fnmatch(sys_pat, r->system, 0) || fnmatch(ev_pat, r->name, 0))
			continue;
		if (kevents_add(out, r->system, r->name))
			return -ENOMEM;
		found++;
	}
	return found;
}

int kevents_match(const struct kevent_list *all, const char *const *patterns, size_t n,
                  struct kevent_list *out, char *err, size_t errlen)
{
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		const char *p = patterns[i];
		const char *colon = strchr(p, ':');
		long found;
		if (!*p) {
			snprintf(err, errlen, "empty kernel event name");
			rc = -EINVAL;
			break;
		}
		if (colon) {
			char sys[256];
			size_t len = (size_t) (colon - p);
			if (len >= sizeof(sys))
				len = sizeof(sys) - 1;
			memcpy(sys, p, len);
			sys[len] = '\0';
			found = match_list(all, sys, colon[1] ? colon + 1 : "*", out);
		} else {
			/* a system's name, else an event's name in any system */
			found = match_list(all, p, "*", out);
			if (found == 0)
				found = match_list(all, "*", p, out);
		}
		if (found < 0) {
			rc = -ENOMEM;
		} else if (found == 0) {
			snprintf(err, errlen,
			         "no kernel event matches '%s' (see 'spoor list -k' for the events "
			         "this kernel offers)",
			         p);
			rc = -ENOENT;
		}
	}
	return rc;
}

/* tracefs is listed once, then each pattern is matched in memory: a script's few hundred
 * patterns (spoor watch) would otherwise stat every event file hundreds of times. */
int kevents_select(const char *root, const char *const *patterns, size_t n, struct kevent_list *out,
                   char *err, size_t errlen)
{
	struct kevent_list all = {0};
	int rc = kevents_all(root, &all) ? -ENOENT : 0;

	if (rc)
		snprintf(err, errlen, "cannot list the kernel's events under %s/events", root);
	else
		rc = kevents_match(&all, patterns, n, out, err, errlen);
	kevents_free(&all);
	return rc;
}

int kevents_all(const char *root, struct kevent_list *out)
{
	char **systems = tracefs_event_systems(root);
	if (!systems)
		return -ENOENT;
	long found = match(systems, root, "*", "*", out);
	tracefs_list_free(systems);
	return found < 0 ? -ENOMEM : 0;
}

const struct kevent_ref *kevents_find(const struct kevent_list *l, const char *spec)
{
	const char *colon = strchr(spec, ':');
	for (size_t i = 0; i < l->n; i++) {
		const struct kevent_ref *r = &l->v[i];
		if (colon) {
			size_t sl = (size_t) (colon - spec);
			if (strlen(r->system) == sl && !strncmp(r->system, spec, sl) &&
			    !strcmp(r->name, colon + 1))
				return r;
		} else if (!strcmp(r->name, spec)) {
			return r;
		}
	}
	return NULL;
}

void kevents_free(struct kevent_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].system);
		free(l->v[i].name);
	}
	free(l->v);
	*l = (struct kevent_list){0};
}
