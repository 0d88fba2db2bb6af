/* SPDX-License-Identifier: MIT */
/*
 * instance.h: the session's private tracefs instance (instances/spoor-PID-N). Every
 * setting spoor makes lives in it, so the global instance is never touched, two sessions
 * do not meet, and removing the instance undoes everything.
 */
#ifndef KERNEL_INSTANCE_H
#define KERNEL_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct kinstance;

/* Where tracefs is (SPOOR_TRACEFS for tests, else the usual places, mounting it at
 * /sys/kernel/tracing when it is nowhere). */
int kinstance_find_tracefs(char *root, size_t cap, char *err, size_t errlen);

/* Find (or mount) tracefs, check that we may use it, remove instances left by spoor
 * processes that died, and create a new instance: spoor-PID-N, or spoor-PID-N-NAME with a
 * name (a daemon's session: its characters other than letters, digits and '_' become '_',
 * cut at 32). */
int kinstance_create(struct kinstance **out, const char *name, char *err, size_t errlen);
/* Whether the instance's file exists (features this kernel may lack: snapshot...). */
bool kinstance_has(const struct kinstance *k, const char *file);
/* The instance's directory, and the tracefs root. */
const char *kinstance_dir(const struct kinstance *k);
const char *kinstance_root(const struct kinstance *k);

/* Write `value` to the instance file `file` (relative to its directory). On failure err
 * says what the kernel refused, with the instance's error_log line when it has one. */
int kinstance_write(struct kinstance *k, const char *file, const char *value, bool append,
                    char *err, size_t errlen);

int kinstance_set_clock(struct kinstance *k, const char *clock, char *err, size_t errlen);
int kinstance_set_buffer_kb(struct kinstance *k, unsigned long kb, char *err, size_t errlen);
int kinstance_enable(struct kinstance *k, const char *system, const char *event, char *err,
                     size_t errlen);
int kinstance_filter(struct kinstance *k, const char *system, const char *event, const char *expr,
                     char *err, size_t errlen);
/* The function tracer, limited to the functions matching the patterns (ftrace's
 * set_ftrace_filter syntax: begin*, *middle*, *end, :mod:NAME) and to pids when given. */
int kinstance_function_tracer(struct kinstance *k, const char *const *patterns, size_t n,
                              const pid_t *pids, size_t npids, char *err, size_t errlen);
int kinstance_tracing_on(struct kinstance *k, bool on);

/* Remove the instance (the kernel frees its buffers) and free k. */
void kinstance_destroy(struct kinstance *k);

#endif
