/* SPDX-License-Identifier: MIT */
/* json.h: the bits of JSON output the commands share. */
#ifndef CMDS_JSON_H
#define CMDS_JSON_H

#include <stdio.h>

/* A JSON string literal: quotes, backslashes and control characters escaped; NULL as "". */
void json_string(FILE *out, const char *s);

#endif
