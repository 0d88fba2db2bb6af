/* SPDX-License-Identifier: MIT */
/*
 * procnames.h: user-space threads' names and processes from their events' own contexts
 * (LTTng-UST's procname, the thread's name, and vpid), for the threads the thread model
 * (model/threads.h) does not name: an LTTng-UST per-UID trace has no procname in its env.
 * Each thread's first event's, as the Chrome export takes them: one look-up per event of
 * such a class only when its thread is not the previous event's.
 */
#ifndef TIMELINE_PROCNAMES_H
#define TIMELINE_PROCNAMES_H

#include <stdint.h>

#include "analysis/engine.h"

/* A context field of the class (stream event context, else event context): *index -1
 * when it has none. */
void tl_context_field(const struct spoor_event_class *ec, const char *name, int8_t *scope,
                      int *index);

struct tl_procnames;

/* Hooks the user-space classes with a procname context, before an_engine_run. 0 with *out
 * NULL when there is none; -ENOMEM. */
int tl_procnames_new(struct an_engine *e, struct tl_procnames **out);
void tl_procnames_free(struct tl_procnames *p);
/* After the run: -ENOMEM when a name could not be kept (the cache must not be written
 * with threads left nameless), else 0 (p NULL too). */
int tl_procnames_status(const struct tl_procnames *p);
/* The name of thread tid (NULL: none seen) and its vpid (-1: none). */
const char *tl_procnames_name(const struct tl_procnames *p, int64_t tid, int64_t *pid);

#endif
