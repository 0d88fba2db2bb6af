/* SPDX-License-Identifier: MIT */
/*
 * kernel.c: a session's kernel events (kernel/ksession.h). The patterns and filters are
 * kept from `enable -k`; the tracefs instance is made at the first start that has some,
 * paused at stop, resumed at start, and changed in place while it exists. Every call is
 * made as the session's owner (fsuid_begin): the trace's files are the owner's, while
 * ksession reaches tracefs with the daemon's own rights.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dstate.h"
#include "kernel/instance.h"
#include "kernel/ksession.h"
#include "kernel/select.h"
#include "kernel/upaths.h"
#include "sessions.h"

static int find(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return (int) i;
	return -1;
}

/* Append the strings not yet in v; false when out of room (v as it was). */
static bool add_all(char **v, size_t *n, const char *const *add, size_t na)
{
	size_t was = *n;
	for (size_t i = 0; i < na; i++) {
		if (find(v, *n, add[i]) >= 0)
			continue;
		char *copy = *n < SESSION_MAX_KERNEL ? strdup(add[i]) : NULL;
		if (!copy) {
			while (*n > was)
				free(v[--*n]);
			return false;
		}
		v[(*n)++] = copy;
	}
	return true;
}

/* Before the start: each pattern must name events tracefs has (the `libc` ones are
 * uprobes, made at the start), so that a typo is said at `enable`, not at `start`. */
static int check_patterns(const char *const *events, size_t n, char *err, size_t errlen)
{
	char root[512];
	if (kinstance_find_tracefs(root, sizeof(root), err, errlen))
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct kevent_list found = {0};
		int rc = upaths_pattern(events[i])
		             ? 0
		             : kevents_select(root, &events[i], 1, &found, err, errlen);
		kevents_free(&found);
		if (rc)
			return -1;
	}
	return 0;
}

static int start_kernel(struct daemon *d, struct dsession *s, char *err, size_t errlen)
{
	struct kernel_opts ko = {
	    .events = (const char *const *) s->kevents,
	    .nevents = s->nkevents,
	    .filters = (const char *const *) s->kfilters,
	    .nfilters = s->nkfilters,
	    .buffer_kb = s->kbuffer_kb,
	    .overwrite = s->overwrite,
	    .name = s->name,
	    .layout = s->klayout,
	    .created = s->created,
	};
	fsuid_begin(d, s);
	int rc = ksession_start(&s->kernel, &ko, &d->clock, s->outdir, err, errlen);
	fsuid_end(d);
	if (rc)
		s->kernel = NULL;
	else
		s->totals.kernel = true;
	return rc;
}

int session_enable_kernel(struct daemon *d, struct dsession *s, const char *const *events, size_t n,
                          const char *const *filters, size_t nf, char *err, size_t errlen)
{
	size_t ne = s->nkevents, nfl = s->nkfilters;
	if (!s->kernel && check_patterns(events, n, err, errlen))
		return -1;
	if (!add_all(s->kevents, &s->nkevents, events, n) ||
	    !add_all(s->kfilters, &s->nkfilters, filters, nf)) {
		while (s->nkevents > ne)
			free(s->kevents[--s->nkevents]);
		snprintf(err, errlen, "too many kernel events or filters (up to %d each)",
		         SESSION_MAX_KERNEL);
		return -1;
	}
	int rc = 0;
	if (s->kernel) {
		fsuid_begin(d, s);
		rc = ksession_enable(s->kernel, events, n, filters, nf, err, errlen);
		fsuid_end(d);
	} else if (s->state == SESSION_STARTED)
		rc = start_kernel(d, s, err, errlen);
	if (rc) { /* as it was */
		while (s->nkevents > ne)
			free(s->kevents[--s->nkevents]);
		while (s->nkfilters > nfl)
			free(s->kfilters[--s->nkfilters]);
		return -1;
	}
	return 0;
}

int session_disable_kernel(struct daemon *d, struct dsession *s, const char *const *events,
                           size_t n, char *err, size_t errlen)
{
	/* a running instance knows which events a pattern takes back (`disable -k
	 * sched_wakeup` after `enable -k sched`); before the start, patterns go as they came */
	for (size_t i = 0; !s->kernel && i < n; i++)
		if (find(s->kevents, s->nkevents, events[i]) < 0) {
			snprintf(err, errlen, "kernel events '%s' are not enabled in session %s",
			         events[i], s->name);
			return -1;
		}
	if (s->kernel) {
		fsuid_begin(d, s);
		int rc = ksession_disable(s->kernel, events, n, err, errlen);
		fsuid_end(d);
		if (rc)
			return -1;
	}
	for (size_t i = 0; i < n; i++) {
		int at = find(s->kevents, s->nkevents, events[i]);
		if (at >= 0) {
			free(s->kevents[at]);
			s->kevents[at] = s->kevents[--s->nkevents];
		}
	}
	return 0;
}

int session_kernel_start(struct daemon *d, struct dsession *s, char *err, size_t errlen)
{
	if (s->kernel) {
		fsuid_begin(d, s);
		int rc = ksession_resume(s->kernel);
		fsuid_end(d);
		if (!rc)
			return 0;
		snprintf(err, errlen, "cannot resume the kernel's tracing");
		return -1;
	}
	return s->nkevents ? start_kernel(d, s, err, errlen) : 0;
}

void session_kernel_pause(struct daemon *d, struct dsession *s)
{
	if (!s->kernel)
		return;
	fsuid_begin(d, s);
	if (ksession_pause(s->kernel))
		daemon_log("session %s: cannot pause the kernel's tracing", s->name);
	fsuid_end(d);
}

void session_kernel_finish(struct daemon *d, struct dsession *s)
{
	if (!s->kernel)
		return;
	fsuid_begin(d, s);
	ksession_stop(s->kernel, &s->totals.k);
	ksession_free(s->kernel);
	fsuid_end(d);
	s->kernel = NULL;
}
