/* SPDX-License-Identifier: MIT */
/*
 * ftrace.h: ftrace's text layout (the `trace` file, `trace-cmd report`):
 *            TASK-PID     [CPU] FLAGS  SECONDS.USECS: EVENT: name=value ...
 * TASK is the thread's name at that moment, from the trace (model/threads.h); FLAGS are the
 * irqs-off, need-resched, hardirq/softirq, preempt-depth and migrate-disable columns the
 * kernel derives from common_flags and common_preempt_count; SECONDS is the clock's own
 * time (since boot for the kernel's clocks). User-space events print their vtid and the
 * program's name, and dots for the flags the kernel alone knows.
 */
#ifndef FORMAT_FTRACE_H
#define FORMAT_FTRACE_H

#include "model/threads.h"
#include "spoor/trace.h"
#include "util/outbuf.h"

struct ftrace_format;

struct ftrace_format *ftrace_format_new(void);
void ftrace_format_free(struct ftrace_format *ff);
/* Learn thread names from an event that is not printed. */
void ftrace_format_note(struct ftrace_format *ff, const struct spoor_event *ev);
/* One line; -1 when out of memory. */
int ftrace_format_event(struct ftrace_format *ff, struct outbuf *o, const struct spoor_event *ev);
/* The payload as ftrace shows it, ` name=value` each (spoor graph's comments too). */
int ftrace_format_fields(struct outbuf *o, const struct spoor_event *ev);

#endif
