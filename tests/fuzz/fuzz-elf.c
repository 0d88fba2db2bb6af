/* SPDX-License-Identifier: MIT */
/*
 * fuzz-elf.c: an executable or shared library given to `spoor list -u` (untrusted bytes,
 * lib/elf/). The input is libFuzzer's heap copy of exactly its size, so AddressSanitizer sees
 * any read past its end. Whatever the reader accepts is checked whole (every string and
 * entry touched) and must become metadata the CTF reader parses, as for fuzz-events. The
 * same bytes go to the function table (elf-symtab.h): sorted, named, each found again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf/meta-write.h"
#include "ctf/trace.h"
#include "elf/elf-events.h"
#include "elf/elf-symtab.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz-elf: accepted descriptors break a promise: %s\n", what);
		abort();
	}
}

/* What elf-events.h promises of each descriptor it returns. */
static void check_event(struct spoor_event_desc *d, uint32_t id)
{
	check(d->struct_size == sizeof(*d) && d->provider && d->name && d->fields, "event");
	check(strlen(d->provider) && strlen(d->name) && d->max_align <= 8, "event names");
	for (uint32_t f = 0; f < d->nfields; f++) {
		const struct spoor_field_desc *fd = &d->fields[f];
		check(fd->name && strlen(fd->name) > 0, "field name");
		check(fd->kind == SPOOR_FK_ENUM ? fd->entries && fd->nentries : !fd->entries,
		      "enum entries");
		for (uint32_t e = 0; e < fd->nentries; e++)
			check(strlen(fd->entries[e].label) < 4096, "label");
	}
	check(!d->fields[d->nfields].name, "the closing empty field");
	d->id = id; /* as registration would: the metadata needs distinct ids */
}

/* What elf-symtab.h promises of the function table. */
static void check_symtab(const unsigned char *data, size_t size)
{
	struct elf_symtab st;
	uint64_t off;

	if (elf_symtab_read(&st, data, size))
		check(st.err[0] != 0, "a symbol table error leaves a message");
	for (size_t i = 0; i < st.n; i++) {
		const struct elf_func *f = &st.funcs[i];
		check(f->name[0] && !strchr(f->name, '@'), "a function's name");
		check(!i || st.funcs[i - 1].addr <= f->addr, "functions sorted by address");
		const struct elf_func *g = elf_symtab_lookup(&st, f->addr, &off);
		check(g && g->addr == f->addr && off == 0, "each function found at its address");
	}
	elf_symtab_free(&st);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct elf_events ev;

	check_symtab(data, size);

	if (elf_events_read(&ev, data, size)) {
		check(ev.n == 0 && !ev.evs && ev.err[0], "an error leaves a message and no events");
		elf_events_free(&ev);
		return 0;
	}
	for (size_t i = 0; i < ev.n; i++)
		check_event(ev.evs[i], (uint32_t) i);
	struct meta_trace t = {.clock = {"tsc", "fuzz", {0}, 1000000000, 0, 0}, .packed = 1};
	char *text = NULL;
	size_t len = 0;
	if (ev.n && !ctf_meta_write(&t, (const struct spoor_event_desc *const *) ev.evs, ev.n,
	                            &text, &len)) {
		struct ctf_trace *tr = calloc(1, sizeof(*tr));
		char perr[400] = "";
		if (ctf_trace_load_metadata(tr, text, len, perr, sizeof(perr)) ||
		    ctf_trace_ready_all(tr, perr, sizeof(perr))) {
			fprintf(stderr, "listed events gave metadata the reader rejects: %s\n",
			        perr);
			abort();
		}
		ctf_trace_free(tr);
	}
	free(text);
	elf_events_free(&ev);
	return 0;
}
