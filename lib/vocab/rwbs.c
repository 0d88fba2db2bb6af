/* SPDX-License-Identifier: MIT */
/* rwbs.c: the kernel's rwbs text as lttng-modules' flags (see rwbs.h). */
#include <string.h>

#include "rwbs.h"

/* A letter blk_fill_rwbs writes for an operation (a leading F before one is a preflush) */
static int is_op(char c)
{
	return c && strchr("WDFRNZ", c) != NULL;
}

uint32_t vocab_rwbs_flags(const char *s, size_t len)
{
	size_t n = strnlen(s, len), i = 0;
	uint32_t flags = 0;
	if (n >= 2 && s[0] == 'F' && is_op(s[1])) {
		flags |= VOCAB_RWBS_PREFLUSH;
		i = 1;
	}
	if (i < n && is_op(s[i])) {
		switch (s[i++]) {
		case 'W':
			if (i < n && s[i] == 'Z')
				i++; /* write-zeroes: no flag in LTTng */
			else
				flags |= VOCAB_RWBS_WRITE;
			break;
		case 'D':
			flags |= VOCAB_RWBS_DISCARD;
			if (i < n && s[i] == 'E') { /* secure erase */
				flags |= VOCAB_RWBS_SECURE;
				i++;
			}
			break;
		case 'F': flags |= VOCAB_RWBS_FLUSH; break;
		case 'R': flags |= VOCAB_RWBS_READ; break;
		case 'Z': /* a zoned operation, two letters (reset-all three: ZRA): no flag */
			if (i < n && s[i++] == 'R' && i < n && s[i] == 'A')
				i++;
			break;
		default: break; /* N: none */
		}
	}
	for (; i < n; i++)
		switch (s[i]) {
		case 'F': flags |= VOCAB_RWBS_FUA; break;
		case 'A': flags |= VOCAB_RWBS_RAHEAD; break;
		case 'S': flags |= VOCAB_RWBS_SYNC; break;
		case 'M': flags |= VOCAB_RWBS_META; break;
		default: break; /* U (atomic) and what a later kernel adds: no flag */
		}
	return flags;
}
