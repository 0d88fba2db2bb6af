/* SPDX-License-Identifier: MIT */
/* warn-append.h: a reader's warnings gathered into one text (spoor_reader_set_warn), one a
 * line, for the tests that look for one among them. */
#ifndef TESTS_WARN_APPEND_H
#define TESTS_WARN_APPEND_H

#include <stdio.h>
#include <string.h>

#define WARN_APPEND_SIZE 2000 /* the text's size */

static inline void on_warn_append(void *data, const char *message)
{
	char *all = data;
	size_t n = strlen(all);
	snprintf(all + n, WARN_APPEND_SIZE - n, "%s\n", message);
}

#endif
