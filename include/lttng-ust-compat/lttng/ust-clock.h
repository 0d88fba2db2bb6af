/* SPDX-License-Identifier: MIT */
/*
 * <lttng/ust-clock.h>: LTTng-UST's clock plug-in API: spoor's clock is the TSC or CLOCK_MONOTONIC.
 * It has no counterpart in spoor's LTTng-UST compatibility headers (docs/compatibility.md,
 * "LTTng-UST programs"): a program that uses it needs LTTng-UST, and says so at build
 * time rather than finding LTTng-UST's own header, if installed, among spoor's.
 */
#error                                                                                             \
    "<lttng/ust-clock.h> is not part of spoor's LTTng-UST compatibility (docs/compatibility.md, \"LTTng-UST programs\")"
