/* SPDX-License-Identifier: MIT */
/*
 * table.h: one row of an aligned text table, built in a buffer and written whole. A
 * sched report has thousands of rows of a dozen fields: printf's parsing, padding and
 * floating point cost more than the analysis of a million events. Widths follow printf's:
 * a field takes at least |width| bytes, right-aligned (width > 0) or left (width < 0).
 */
#ifndef CMDS_TABLE_H
#define CMDS_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct row {
	FILE *out; /* where row_end writes: stdout when NULL */
	size_t n;
	char buf[1024];
};

void row_str(struct row *r, int width, const char *s);
void row_int(struct row *r, int width, long long v);
void row_uint(struct row *r, int width, unsigned long long v);
/* x as "%*.*f" */
void row_fixed(struct row *r, int width, double x, unsigned decimals);
/* ns as spoor dump prints a time (seconds.nanoseconds), padded as width says */
void row_time(struct row *r, int width, long long ns);
/* text as it is (a separator) */
void row_lit(struct row *r, const char *s);
/* The row and a newline to its stream; r is empty again. */
void row_end(struct row *r);

#endif
