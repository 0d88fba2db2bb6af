/* SPDX-License-Identifier: MIT */
/*
 * kpaths.h: in the LTTng layout, the paths that -k libc captured (upaths.h) written into the
 * system call that follows, as strings where LTTng writes strings: syscall_entry_openat's
 * filename is the path the C library's open or openat was called with.
 *
 * Per CPU, the last libc_* event's paths wait with their thread's id. The next path-taking
 * system call entry of that thread on that CPU takes them (and ends the wait) when the
 * function makes that call (open: open or openat; rmdir: rmdir or unlinkat; ...); any other
 * gets empty strings. So a path is written when the thread goes from the C library
 * function to its system call on one CPU with no other thread's C library call in between
 * on that CPU, which is the common case; a thread moved to another CPU between the two, a
 * static binary, a raw syscall(2), or a session without -k libc: empty strings.
 */
#ifndef KERNEL_KPATHS_H
#define KERNEL_KPATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KPATH_MAX 4096 /* what a uprobe's ustring holds: PATH_MAX */

struct kpath_slot {
	int32_t tid;
	int8_t fn; /* the C library function (upaths_functions), -1: none waits */
	uint16_t len[2];
	char s[2][KPATH_MAX];
};

/* The function of a libc_NAME event, or -1. */
int kpaths_function(const char *event_name);
/* The path-taking system call NAME (sys_enter_NAME's), or -1. */
int kpaths_call(const char *name);
/* The paths of function fn, called by tid, wait in s (strings cut to KPATH_MAX - 1). */
void kpaths_capture(struct kpath_slot *s, int fn, int32_t tid, const char *const str[2],
                    const size_t len[2]);
/* What system call `call` of thread tid takes: the waiting paths, or NULL (empty strings). */
const struct kpath_slot *kpaths_take(struct kpath_slot *s, int call, int32_t tid);

#endif
