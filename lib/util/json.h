/* SPDX-License-Identifier: MIT */
/* json.h: the bits of JSON output the commands and spoor view share. */
#ifndef UTIL_JSON_H
#define UTIL_JSON_H

#include <stddef.h>
#include <stdio.h>

/* A JSON string literal: quotes, backslashes and control characters escaped; NULL as "". */
void json_string(FILE *out, const char *s);
/* The same for len bytes (NULs among them escaped). */
void json_string_n(FILE *out, const char *s, size_t len);

#endif
