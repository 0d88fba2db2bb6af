/* SPDX-License-Identifier: MIT */
/*
 * <lttng/tracepoint-event.h> for programs written for LTTng-UST, built against spoor
 * (docs/compatibility.md, "LTTng-UST programs"). A provider header includes it at its end,
 * outside its include guard, so that LTTng-UST reads the header again to make its probes.
 * spoor's events are whole after one reading (<lttng/tracepoint.h>): the header is not
 * read again, and TRACEPOINT_CREATE_PROBES, TRACEPOINT_INCLUDE and TRACEPOINT_PROVIDER,
 * which LTTng-UST reads here, are not needed.
 */
#include <lttng/tracepoint.h>
