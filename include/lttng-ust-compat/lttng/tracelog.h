/* SPDX-License-Identifier: MIT */
/*
 * <lttng/tracelog.h> for programs written for LTTng-UST, built against spoor
 * (docs/compatibility.md, "LTTng-UST programs"): lttng_ust_tracelog(level, fmt, ...)
 * records the formatted message with its place as LTTng-UST 2.13 names it, an event
 * `lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR` (one per level) of the fields
 * line, file, func and msg. The level is a value here, not a name pasted into another:
 * TRACE_ERR (the name before 2.13, which 2.13's own macro no longer takes) works too, and
 * so does a level known only at run time.
 */
#ifndef SPOOR_LTTNG_TRACELOG_H
#define SPOOR_LTTNG_TRACELOG_H

#include <stdarg.h>

#include <lttng/tracepoint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* By level, LTTNG_UST_TRACEPOINT_LOGLEVEL_EMERG (0) to _DEBUG (14). */
SPOOR_API extern struct spoor_event_desc *const spoor_lttng_tracelog_events[15];
SPOOR_API void spoor_lttng_tracelog(int level, const char *file, int line, const char *func,
                                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
SPOOR_API void spoor_lttng_vtracelog(int level, const char *file, int line, const char *func,
                                     const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

static inline __attribute__((always_inline, unused)) int spoor__lt_tracelog_recorded(int level)
{
	return (unsigned) level < 15 && SPOOR__ENABLED(spoor_lttng_tracelog_events[level]);
}

#define lttng_ust_tracelog(level, fmt, ...)                                                        \
	do {                                                                                       \
		if (spoor__lt_tracelog_recorded(level))                                            \
			spoor_lttng_tracelog(level, __FILE__, __LINE__, __func__, fmt,             \
			                     ##__VA_ARGS__);                                       \
	} while (0)
#define lttng_ust_vtracelog(level, fmt, ap)                                                        \
	do {                                                                                       \
		if (spoor__lt_tracelog_recorded(level))                                            \
			spoor_lttng_vtracelog(level, __FILE__, __LINE__, __func__, fmt, ap);       \
	} while (0)

#if LTTNG_UST_COMPAT_API(0)
#define tracelog lttng_ust_tracelog
#endif

#ifdef __cplusplus
}
#endif
#endif
