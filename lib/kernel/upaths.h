/* SPDX-License-Identifier: MIT */
/*
 * upaths.h: the file paths that system calls take. ftrace's sys_enter_openat records the
 * path as a user-space pointer, and this kernel refuses event probes that would read the
 * string; uprobes on the C library's path-taking functions read it instead. They appear
 * in -k patterns as the system "libc" (-k libc, -k libc:unlink*) and in the trace as
 * libc_NAME { path, ... } events: libc_openat { dfd, path, flags }, libc_unlinkat ...
 *
 * Uprobes are global (uprobe_events): the session's live in a group of its own, named after
 * its instance (spoor_PID_N), and are removed at the end; the groups of spoor processes
 * that died are removed at the next start. They see calls made through the C library
 * only: not those of static binaries, nor raw syscall(2).
 */
#ifndef KERNEL_UPATHS_H
#define KERNEL_UPATHS_H

#include <stdbool.h>
#include <stddef.h>

#include "select.h"

#define UPATHS_SYSTEM "libc"

struct upaths;

/* Whether a -k pattern names the libc system ("libc" or "libc:PATTERN"). */
bool upaths_pattern(const char *pattern);
/* The function names there are probes for, NULL-terminated. */
extern const char *const upaths_functions[];
/* Make the probes the patterns ask for in group `group` and add their events (system:
 * the group) to events. A pattern matching no function is an error. */
int upaths_create(struct upaths **out, const char *root, const char *group,
                  const char *const *patterns, size_t n, struct kevent_list *events, char *err,
                  size_t errlen);
/* Remove the probes (once nothing has them enabled: after the instance is gone). */
void upaths_remove(struct upaths *u);
/* Remove the groups spoor_PID_N of processes that are gone. */
void upaths_remove_stale(const char *root);

#endif
