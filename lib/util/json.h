/* SPDX-License-Identifier: MIT */
/*
 * json.h: JSON string literals from untrusted bytes (event and field names, payload
 * strings, thread names), for the commands' --json output, spoor view and spoor export:
 * valid JSON whatever the bytes hold. Quotes, backslashes and control characters (DEL
 * too: Perfetto's JSON reader refuses it raw) are escaped, and each byte that is not part
 * of well-formed UTF-8 becomes U+FFFD, since JSON text is UTF-8.
 */
#ifndef UTIL_JSON_H
#define UTIL_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "outbuf.h"

/* The literal, quotes included; NULL as "". */
void json_string(FILE *out, const char *s);
/* The same for len bytes (NULs among them escaped). */
void json_string_n(FILE *out, const char *s, size_t len);
/* The same into an outbuf: 0, or the outbuf's error. */
int json_string_buf(struct outbuf *o, const char *s, size_t len);

#endif
