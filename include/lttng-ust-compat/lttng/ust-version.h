/* SPDX-License-Identifier: MIT */
/*
 * <lttng/ust-version.h> for programs written for LTTng-UST, built against spoor
 * (docs/compatibility.md, "LTTng-UST programs"): the API these headers give is LTTng-UST
 * 2.13's, so a program that picks its spellings by version picks 2.13's.
 */
#ifndef SPOOR_LTTNG_UST_VERSION_H
#define SPOOR_LTTNG_UST_VERSION_H

#define LTTNG_UST_MAJOR_VERSION      2
#define LTTNG_UST_MINOR_VERSION      13
#define LTTNG_UST_PATCHLEVEL_VERSION 0
#define LTTNG_UST_VERSION            "2.13.0"

#endif
