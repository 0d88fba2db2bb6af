/* SPDX-License-Identifier: MIT */
/* select.h: kernel event patterns (`sched`, `irq:*`, `syscalls:sys_enter_openat`,
 * `sched_switch`) resolved against the events tracefs offers. */
#ifndef KERNEL_SELECT_H
#define KERNEL_SELECT_H

#include <stddef.h>

struct kevent_ref {
	char *system, *name;
};

struct kevent_list {
	struct kevent_ref *v;
	size_t n, cap;
};

/*
 * Add the events each pattern names, once each, in tracefs's order. A pattern is
 * SYSTEM (all its events), SYSTEM:EVENT, or EVENT (in any system); both parts take shell
 * wildcards. A pattern matching nothing is an error (-ENOENT, err names it).
 */
int kevents_select(const char *root, const char *const *patterns, size_t n, struct kevent_list *out,
                   char *err, size_t errlen);
/* The same against a listing made once (kevents_all). */
int kevents_match(const struct kevent_list *all, const char *const *patterns, size_t n,
                  struct kevent_list *out, char *err, size_t errlen);
/* Every event tracefs offers. */
int kevents_all(const char *root, struct kevent_list *out);
/* Add one event (nothing when it is there already). 0 or -ENOMEM. */
int kevents_add(struct kevent_list *l, const char *system, const char *name);
/* The system of an event named EVENT or SYSTEM:EVENT in the list, or NULL. */
const struct kevent_ref *kevents_find(const struct kevent_list *l, const char *spec);
void kevents_free(struct kevent_list *l);

#endif
