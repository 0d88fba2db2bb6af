/* SPDX-License-Identifier: MIT */
/*
 * tp-lex.h: a tracepoint template (`spoor gen-tp`, lttng-gen-tp's .tp files) as C tokens:
 * identifiers, numbers, string and character literals, punctuation one byte at a time, and
 * preprocessor lines whole. Comments are dropped. The template is untrusted text: anything
 * that is not C is an error with its line and column.
 */
#ifndef GENTP_TP_LEX_H
#define GENTP_TP_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest template read: thousands of events take a few hundred KiB, and the tokens
 * of the largest take a bounded amount of memory (about 20 bytes a byte at worst). */
#define TP_MAX_TEXT (4u << 20)

enum tp_tok_kind {
	TP_IDENT,
	TP_NUMBER,
	TP_STRING,    /* "..." with its quotes */
	TP_CHAR,      /* '...' with its quotes */
	TP_PUNCT,     /* one byte */
	TP_DIRECTIVE, /* a line starting with '#', continuations and comments included */
	TP_EOF,
};

struct tp_tok {
	uint8_t kind;       /* enum tp_tok_kind */
	bool space_before;  /* whitespace or a comment between it and the token before */
	uint32_t off, len;  /* its bytes in the text */
	uint32_t line, col; /* 1-based; columns in bytes */
};

/* Where and what went wrong (the parser's errors too). */
struct tp_error {
	uint32_t line, col;
	char msg[240];
};

struct tp_tokens {
	struct tp_tok *tok; /* n tokens, then a TP_EOF at the end of the text */
	size_t n;
};

/* 0, or -EINVAL with *err said (or -ENOMEM). On success free tok with tp_tokens_free. */
int tp_lex(const char *text, size_t len, struct tp_tokens *out, struct tp_error *err);
void tp_tokens_free(struct tp_tokens *t);
/* Is token t this one-byte punctuation? */
static inline bool tp_is_punct(const char *text, const struct tp_tok *t, char c)
{
	return t->kind == TP_PUNCT && text[t->off] == c;
}

#endif
