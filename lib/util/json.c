/* SPDX-License-Identifier: MIT */
/* json.c: JSON string literals (the commands' --json output, spoor view's API). */
#include <string.h>

#include "json.h"

void json_string_n(FILE *out, const char *s, size_t len)
{
	fputc('"', out);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char) s[i];
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void json_string(FILE *out, const char *s)
{
	json_string_n(out, s, s ? strlen(s) : 0);
}
