/* SPDX-License-Identifier: MIT */
/* tsdl-scan.h: the attributes of an event block read from the raw text, without tokens. */
#ifndef CTF_TSDL_SCAN_H
#define CTF_TSDL_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A place in the text: where a token starts, as the lexer numbers it. */
struct tsdl_place {
	const char *at; /* NULL: not seen */
	unsigned line, col;
};

/* What a block `event {...};` says, as tsdl_parse_lazy would record it. */
struct tsdl_event_scan {
	const char *name, *emf_uri; /* string contents, no escapes; NULL when not given */
	size_t name_len, emf_uri_len;
	uint64_t id, stream_id;
	bool has_stream_id, has_loglevel;
	int64_t loglevel;
	/* `struct` of `fields := struct {...};` and `context := ...`, stepped over */
	struct tsdl_place fields, context;
	struct tsdl_place first;      /* the first token inside the braces */
	struct tsdl_place close;      /* the '}' that ends the block */
	struct tsdl_place semicolon;  /* the ';' after it (not seen: after something else) */
	struct tsdl_place next_event; /* an `event` keyword after the ';' */
};

/* Read an event block from just after its `event` keyword, at `at` (line, col), up to the
 * ';' after it and the keyword of a next event block; the text must end with a NUL, at end. -1 when
 * the block holds anything the scanner does not know (an other attribute, another form of value,
 * escapes, a scope given twice, text the lexer would reject...): the parser's token path, the
 * reference, reads it then. The scanner never reports errors. */
int tsdl_scan_event(const char *at, const char *end, unsigned line, unsigned col,
                    struct tsdl_event_scan *ev);

#endif
