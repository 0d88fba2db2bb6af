/* SPDX-License-Identifier: MIT */
/* tsdl-lex.h: tokens of CTF 1.8's Trace Stream Description Language. */
#ifndef CTF_TSDL_LEX_H
#define CTF_TSDL_LEX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum tsdl_tok {
	TOK_EOF,
	TOK_IDENT,
	TOK_INT,
	TOK_STRING,
	TOK_PUNCT, /* one of { } [ ] ( ) ; , = : < > . - + * and := ... */
	TOK_ERROR,
};

struct tsdl_token {
	enum tsdl_tok kind;
	const char *start; /* into the source text */
	size_t len;
	uint64_t ival; /* TOK_INT */
	unsigned line, col;
};

struct tsdl_lexer {
	const char *src, *end, *pos;
	unsigned line, col;
	const char *error; /* static message when kind == TOK_ERROR */
};

/* The lexer's character classes (C locale), one look-up per byte: for scanners of raw text
 * (tsdl-scan.c) that must read it exactly as the lexer does. */
enum { TSDL_C_SPACE = 1, TSDL_C_ALPHA = 2, TSDL_C_DIGIT = 4, TSDL_C_PUNCT = 8 };
extern const unsigned char tsdl_cclass[256];

void tsdl_lex_init(struct tsdl_lexer *lx, const char *src, size_t len);
struct tsdl_token tsdl_lex_next(struct tsdl_lexer *lx);
/* Step over text without making tokens, up to the ';' that ends it outside braces, where lx
 * is left (line and column kept). Strings and comments are stepped over whole, as the lexer
 * reads them. -1 (lx unchanged) when the text has no such end or holds a string or comment
 * the lexer would reject: the caller reads it token by token to report the error. */
int tsdl_lex_skip_to_semicolon(struct tsdl_lexer *lx);
/* Move lx forward to p (in its text), counting the lines stepped over. */
void tsdl_lex_jump(struct tsdl_lexer *lx, const char *p);
/* Compare a token with a punctuation or keyword spelling (inline: with a literal, the
 * length is a constant and most tokens fail the first compare). */
static inline int tsdl_tok_is(const struct tsdl_token *t, const char *s)
{
	size_t n = strlen(s);
	return (t->kind == TOK_PUNCT || t->kind == TOK_IDENT) && t->len == n &&
	       !memcmp(t->start, s, n);
}

#endif
