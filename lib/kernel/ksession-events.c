/* SPDX-License-Identifier: MIT */
/* ksession-events.c: kernel events enabled and disabled while tracing runs (ksession.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "instance.h"
#include "kmeta.h"
#include "ksession-int.h"
#include "upaths.h"

/* The events a session always records (ksession.c): disabling a system keeps them. */
static bool keeps_names(const struct kevent_ref *r)
{
	for (size_t i = 0; i < KSESSION_NNAME_EVENTS; i++) {
		const char *n = ksession_name_events[i], *colon = strchr(n, ':');
		if (!strncmp(n, r->system, (size_t) (colon - n)) && !r->system[colon - n] &&
		    !strcmp(colon + 1, r->name))
			return true;
	}
	return false;
}

static struct kevent_ref *find(struct kevent_list *l, const struct kevent_ref *r)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].system, r->system) && !strcmp(l->v[i].name, r->name))
			return &l->v[i];
	return NULL;
}

/* A class for an event the session has not recorded yet, in the metadata before the event
 * can be turned on. On failure the session is as it was. */
static int declare(struct ksession *k, const struct kevent_ref *r, char *err, size_t errlen)
{
	size_t n = k->events.n;
	if (kevents_add(&k->events, r->system, r->name)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	const struct kevent_ref *mine = &k->events.v[n];
	int rc = ksession_load_format(k, mine, err, errlen);
	if (!rc && !(rc = kclasses_append(k->tep, mine, &k->classes, err, errlen))) {
		struct kclass *c = &k->classes.v[k->classes.n - 1];
		if (!(rc = kmeta_append(k->meta_fd, c, err, errlen)))
			return 0;
		k->classes.by_kernel_id[c->kernel_id] = 0;
		free(c->fields);
		free(c->ops);
		k->classes.n--;
	}
	free(k->events.v[n].system);
	free(k->events.v[n].name);
	k->events.n = n;
	return rc;
}

static int refuse_libc(const char *const *events, size_t n, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++)
		if (upaths_pattern(events[i])) {
			snprintf(err, errlen,
			         "-k %s: the libc events (uprobes) are chosen when kernel tracing "
			         "starts, not while it runs",
			         events[i]);
			return -ENOTSUP;
		}
	return 0;
}

static int check_running(const struct ksession *k, char *err, size_t errlen)
{
	if (!k->stopped)
		return 0;
	snprintf(err, errlen, "kernel tracing of this session has ended");
	return -EINVAL;
}

int ksession_enable(struct ksession *k, const char *const *events, size_t n,
                    const char *const *filters, size_t nf, char *err, size_t errlen)
{
	KRIGHTS_OWN(caller);
	int rc;
	if ((rc = check_running(k, err, errlen)) || (rc = refuse_libc(events, n, err, errlen)))
		return rc;
	struct kevent_list all = {0}, want = {0};
	if (kevents_all(kinstance_root(k->inst), &all)) {
		kevents_free(&all);
		snprintf(err, errlen, "cannot list the kernel's events under %s/events",
		         kinstance_root(k->inst));
		return -ENOENT;
	}
	rc = kevents_match(&all, events, n, &want, err, errlen);
	kevents_free(&all);
	for (size_t i = 0; !rc && i < want.n; i++)
		if (!find(&k->events, &want.v[i]))
			rc = declare(k, &want.v[i], err, errlen);
	/* filters first: an event is never on without its filter */
	for (size_t i = 0; !rc && i < nf; i++)
		rc = ksession_apply_filter(k, filters[i], err, errlen);
	for (size_t i = 0; !rc && i < want.n; i++)
		rc = kinstance_enable(k->inst, want.v[i].system, want.v[i].name, err, errlen);
	kevents_free(&want);
	return rc;
}

int ksession_disable(struct ksession *k, const char *const *events, size_t n, char *err,
                     size_t errlen)
{
	KRIGHTS_OWN(caller);
	int rc;
	if ((rc = check_running(k, err, errlen)) || (rc = refuse_libc(events, n, err, errlen)))
		return rc;
	struct kevent_list off = {0};
	for (size_t i = 0; !rc && i < n; i++) {
		rc = kevents_match(&k->events, &events[i], 1, &off, err, errlen);
		if (rc == -ENOENT)
			snprintf(err, errlen, "no kernel event of the session matches '%s'",
			         events[i]);
	}
	for (size_t i = 0; !rc && i < off.n; i++) {
		const struct kevent_ref *r = &off.v[i];
		if (strcmp(r->system, "ftrace") && !keeps_names(r)) {
			char file[300];
			snprintf(file, sizeof(file), "events/%s/%s/enable", r->system, r->name);
			rc = kinstance_write(k->inst, file, "0", false, err, errlen);
		}
	}
	kevents_free(&off);
	return rc;
}
