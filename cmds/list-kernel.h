/* SPDX-License-Identifier: MIT */
/* list-kernel.h: `spoor list -k`, the kernel half of cmd-list.c. */
#ifndef CMDS_LIST_KERNEL_H
#define CMDS_LIST_KERNEL_H

#include <stdbool.h>
#include <stdio.h>

/* Print the kernel's trace events to out, one per line (verbose: with their fields). Prints
 * its own errors to stderr; returns the exit status: 0, or 1 on an error. */
int list_kernel(bool verbose, FILE *out);

#endif
