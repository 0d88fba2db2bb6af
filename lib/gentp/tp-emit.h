/* SPDX-License-Identifier: MIT */
/*
 * tp-emit.h: a parsed template (tp-parse.h) written as a provider for spoor's API, as
 * lttng-gen-tp writes one for LTTng-UST's: a header of SPOOR_EVENTs, which call sites
 * include, and a C file that defines SPOOR_CREATE_PROBES and includes it.
 */
#ifndef GENTP_TP_EMIT_H
#define GENTP_TP_EMIT_H

#include <stddef.h>
#include <stdio.h>

#include "gentp/tp-parse.h"

/* The header: `guard` its include guard (tp_guard), `source` the template's name for its
 * first comment. 0, or -EIO when out failed. */
int tp_emit_header(const struct tp_template *t, const char *guard, const char *source, FILE *out);
/* The C file, which includes `header` (a name the compiler finds beside it). */
int tp_emit_c(const char *header, const char *source, FILE *out);
/* lttng-gen-tp's include guard for a header's file name: its base name in capitals, every
 * other byte than a letter or digit an underscore. */
void tp_guard(const char *header, char *buf, size_t cap);

#endif
