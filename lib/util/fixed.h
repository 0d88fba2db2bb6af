/* SPDX-License-Identifier: MIT */
/*
 * fixed.h: a double with a fixed number of decimals, the same bytes as printf's "%.*f".
 *
 * Analyses print tables of thousands of rows, a dozen numbers each: printf's floating-point
 * path is most of their output's cost. The value is rounded here from its exact binary
 * value, ties to even, as glibc rounds it; what this does not cover (NaN, infinities, 2^53
 * and more, more than 9 decimals) goes to snprintf.
 */
#ifndef UTIL_FIXED_H
#define UTIL_FIXED_H

#include <stddef.h>

#define FIXED_MAX 330 /* bytes fixed_format may write, its NUL included (DBL_MAX: 309 digits) */

/* x as "%.*f" with decimals, NUL-terminated into buf (FIXED_MAX bytes): its length. */
size_t fixed_format(char *buf, double x, unsigned decimals);

#define SHORTEST_MAX 32 /* bytes fixed_shortest may write, its NUL included */

/* A finite x in the fewest significant digits (15 to 17, "%.*g") that read back as x:
 * 0.1, not 0.10000000000000001 (JSON and SQL results). NUL-terminated into buf
 * (SHORTEST_MAX bytes): its length. */
size_t fixed_shortest(char *buf, double x);

#endif
