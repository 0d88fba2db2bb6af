/* SPDX-License-Identifier: MIT */
/* tsdl-parse.h: TSDL text to the CTF trace model (types.h). */
#ifndef CTF_TSDL_PARSE_H
#define CTF_TSDL_PARSE_H

#include <stddef.h>

#include "types.h"

/* Limits: everything sized by the input is capped, so that bad metadata is an error, never a
 * huge allocation or a deep recursion. */
#define TSDL_MAX_TEXT   (64u << 20) /* metadata bytes */
#define TSDL_MAX_DEPTH  48          /* nesting of type definitions */
#define TSDL_MAX_FIELDS 65536       /* members of one struct or variant */
#define TSDL_MAX_ARENA  (512u << 20)

struct tsdl_error {
	unsigned line, col;
	char msg[200];
};

/* Parse metadata text into m (m must be zeroed). 0 or -SPOOR_EMETA_SYNTAX/-SPOOR_EMETA_SEMANTIC
 * with err filled. On error m may hold a partial model: free it with ctf_meta_free(). */
int tsdl_parse(const char *text, size_t len, struct ctf_meta *m, struct tsdl_error *err);
/* The same, but the context and fields of event classes (`struct {...}` ones) are only
 * stepped over, their place kept in the class (ctf_deferred), and the text kept in m: a
 * trace declares hundreds of classes and uses a few. Errors inside them are found by: */
int tsdl_parse_lazy(const char *text, size_t len, struct ctf_meta *m, struct tsdl_error *err);
/* tsdl_parse_lazy with every event block read token by token, never from the raw text
 * (tsdl-scan.c): the reference it must agree with, for the tests. */
int tsdl_parse_lazy_tokens(const char *text, size_t len, struct ctf_meta *m,
                           struct tsdl_error *err);
/* Parse the deferred scopes of ec (a class of m, parsed by tsdl_parse_lazy): 0 (nothing
 * deferred any more) or what tsdl_parse would have said about them. */
int tsdl_parse_deferred(struct ctf_meta *m, struct ctf_event_class *ec, struct tsdl_error *err);
/* A value that may differ in a trace sharing a model (ctf_var, meta-share.h), read from that
 * trace's text at `at` (where var sits in the model's: the text before it is the same) into
 * m, a copy of the model with clocks and env of its own: 0 and the offset of the ';' after
 * the value in *end, or -1 when the text there is not such a value. */
int tsdl_parse_var(struct ctf_meta *m, const struct ctf_var *var, const char *text, size_t len,
                   size_t at, size_t *end);
void ctf_meta_free(struct ctf_meta *m);

#endif
