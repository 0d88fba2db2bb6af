/* SPDX-License-Identifier: MIT */
/*
 * <lttng/ust-getcpu.h>: LTTng-UST's CPU-number plug-in API: spoor's buffers are per thread, not per
 * CPU. It has no counterpart in spoor's LTTng-UST compatibility headers (docs/compatibility.md,
 * "LTTng-UST programs"): a program that uses it needs LTTng-UST, and says so at build
 * time rather than finding LTTng-UST's own header, if installed, among spoor's.
 */
#error                                                                                             \
    "<lttng/ust-getcpu.h> is not part of spoor's LTTng-UST compatibility (docs/compatibility.md, \"LTTng-UST programs\")"
