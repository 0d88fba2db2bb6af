/* SPDX-License-Identifier: MIT */
/*
 * fuzz-gentp.c: a template given to `spoor gen-tp` (untrusted text, lib/gentp/). The input
 * is libFuzzer's heap copy of exactly its size, so AddressSanitizer sees any read past its
 * end. An error must say where, inside the text; whatever is accepted is written as the
 * header and the C file (into memory), and must keep what tp-parse.h promises.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gentp/tp-emit.h"
#include "gentp/tp-parse.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz-gentp: a promise broken: %s\n", what);
		abort();
	}
}

static int is_ident(const char *s)
{
	if (!s || !*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct tp_template t;
	struct tp_error err;
	size_t lines = 1;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	int rc = tp_parse((const char *) data, size, &t, &err);
	if (rc) {
		check(rc == -22 || rc == -12, "an error code");
		check(err.line >= 1 && err.line <= lines && err.col >= 1, "the error's place");
		check(memchr(err.msg, '\0', sizeof(err.msg)) && err.msg[0], "the error's text");
		tp_template_free(&t);
		return 0;
	}
	size_t events = 0;
	for (size_t i = 0; i < t.n; i++) {
		const struct tp_item *it = &t.items[i];
		if (it->kind == TP_ITEM_DIRECTIVE) {
			check(it->text && it->text[0] == '#', "a directive");
			continue;
		}
		events += it->kind == TP_ITEM_EVENT;
		check(is_ident(it->provider) && is_ident(it->name), "names");
		check(it->kind == TP_ITEM_ENUM ? it->nentries > 0 : it->args && *it->args,
		      "entries");
		for (size_t f = 0; it->kind != TP_ITEM_ENUM && f < it->fields.n; f++) {
			const struct tp_field *x = &it->fields.v[f];
			check(x->macro && x->expr, "a field");
			check(!x->macro->spoor || is_ident(x->name), "a field's name");
		}
	}
	check(events > 0, "an event");
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	check(out != NULL, "memory");
	check(!tp_emit_header(&t, "FUZZ_H", "fuzz.tp", out) && !tp_emit_c("fuzz.h", "fuzz.tp", out),
	      "the output");
	fclose(out);
	check(strstr(buf, "#endif /* FUZZ_H */") != NULL, "the header's end");
	free(buf);
	tp_template_free(&t);
	return 0;
}
