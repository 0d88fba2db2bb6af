/* SPDX-License-Identifier: MIT */
/*
 * <lttng/ust-api-compat.h> for programs written for LTTng-UST, built against spoor
 * (docs/compatibility.md, "LTTng-UST programs"). As in LTTng-UST 2.13: the names of the
 * API before 2.13 (tracepoint(), TRACEPOINT_EVENT, ctf_*, ...) are defined unless
 * LTTNG_UST_COMPAT_API_VERSION is defined above 0; the LTTNG_UST_ / lttng_ust_ names
 * always are.
 */
#ifndef SPOOR_LTTNG_UST_API_COMPAT_H
#define SPOOR_LTTNG_UST_API_COMPAT_H

#ifndef LTTNG_UST_COMPAT_API_VERSION
#define LTTNG_UST_COMPAT_API_VERSION 0
#endif
/* Whether the names of API version `major` are kept. */
#define LTTNG_UST_COMPAT_API(major) (LTTNG_UST_COMPAT_API_VERSION <= (major))

#endif
