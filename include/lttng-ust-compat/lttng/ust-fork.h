/* SPDX-License-Identifier: MIT */
/*
 * <lttng/ust-fork.h>: LTTng-UST's fork and setuid hooks (liblttng-ust-fork): spoor's runtime
 * follows fork(2) on its own. It has no counterpart in spoor's LTTng-UST compatibility headers
 * (docs/compatibility.md, "LTTng-UST programs"): a program that uses it needs LTTng-UST, and says
 * so at build time rather than finding LTTng-UST's own header, if installed, among spoor's.
 */
#error                                                                                             \
    "<lttng/ust-fork.h> is not part of spoor's LTTng-UST compatibility (docs/compatibility.md, \"LTTng-UST programs\")"
