/* SPDX-License-Identifier: MIT */
/*
 * klayout.h: the names a kernel trace is written under (docs/kernel.md, "The LTTng
 * layout"): spoor's (ftrace's event and field names, its common fields as the event
 * context, tracer_name "spoor") or lttng-modules 2.13's (lib/vocab's table, a tid context,
 * the env Trace Compass and lttng-analyses read). The payload's bytes are the same but
 * for the fields LTTng has not (left out) and its priorities (less 100).
 */
#ifndef KERNEL_KLAYOUT_H
#define KERNEL_KLAYOUT_H

#include <string.h>

enum klayout { KLAYOUT_SPOOR, KLAYOUT_LTTNG };

/* "spoor" or "lttng": 0 and *out set, else -1. */
static inline int klayout_parse(const char *s, enum klayout *out)
{
	if (!strcmp(s, "spoor"))
		*out = KLAYOUT_SPOOR;
	else if (!strcmp(s, "lttng"))
		*out = KLAYOUT_LTTNG;
	else
		return -1;
	return 0;
}

/* klayout_parse's word for l. */
static inline const char *klayout_name(enum klayout l)
{
	return l == KLAYOUT_LTTNG ? "lttng" : "spoor";
}

#endif
