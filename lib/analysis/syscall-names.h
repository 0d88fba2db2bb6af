/* SPDX-License-Identifier: MIT */
/* syscall-names.h: names of x86-64 system calls and of errno values, as traces show them. */
#ifndef ANALYSIS_SYSCALL_NAMES_H
#define ANALYSIS_SYSCALL_NAMES_H

#include <stdint.h>

/* The call's name ("read"), or NULL for a number the table lacks. */
const char *sc_x86_64_name(int64_t id);
/* The same, or "syscall ID" in buf for a number the table lacks. */
const char *sc_x86_64_name_or_number(int64_t id, char buf[32]);
/* An errno's symbolic name ("ENOENT"), kernel-internal ones included ("ERESTARTSYS"), or
 * NULL. */
const char *sc_errno_name(int64_t err);

#endif
