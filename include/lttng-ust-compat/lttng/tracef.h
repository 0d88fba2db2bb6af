/* SPDX-License-Identifier: MIT */
/*
 * <lttng/tracef.h> for programs written for LTTng-UST, built against spoor
 * (docs/compatibility.md, "LTTng-UST programs"): lttng_ust_tracef(fmt, ...) records the
 * formatted message as LTTng-UST names it, an event `lttng_ust_tracef:event` of one field,
 * `msg` (a sequence of chars). The call site checks whether it is recorded before any
 * formatting; libspoor-ust formats and emits (lib/ust/tracef.c).
 */
#ifndef SPOOR_LTTNG_TRACEF_H
#define SPOOR_LTTNG_TRACEF_H

#include <stdarg.h>

#include <lttng/tracepoint.h>

#ifdef __cplusplus
extern "C" {
#endif

SPOOR_API extern struct spoor_event_desc *const spoor_lttng_tracef_event;
SPOOR_API void spoor_lttng_tracef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
SPOOR_API void spoor_lttng_vtracef(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

#define lttng_ust_tracef(fmt, ...)                                                                 \
	do {                                                                                       \
		if (SPOOR__ENABLED(spoor_lttng_tracef_event))                                      \
			spoor_lttng_tracef(fmt, ##__VA_ARGS__);                                    \
	} while (0)
#define lttng_ust_vtracef(fmt, ap)                                                                 \
	do {                                                                                       \
		if (SPOOR__ENABLED(spoor_lttng_tracef_event))                                      \
			spoor_lttng_vtracef(fmt, ap);                                              \
	} while (0)

#if LTTNG_UST_COMPAT_API(0)
#define tracef lttng_ust_tracef
#endif

#ifdef __cplusplus
}
#endif
#endif
