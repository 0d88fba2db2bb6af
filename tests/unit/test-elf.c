/* SPDX-License-Identifier: MIT */
/*
 * test-elf.c: the ELF event reader (lib/elf/) on files built here byte by byte, for the
 * cases real binaries (tests/cli/list.sh) do not show: each way a pointer reaches the file
 * (stored, relative relocation, symbol relocation, undefined symbol), a file without program
 * headers, the gABI's extended section numbering, descriptors larger than today's, and the
 * caps: a long name, and descriptors that share data to make the reader allocate far more
 * than the file holds.
 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "find-libc.h"
#include "elf/elf-events.h"
#include "elf/elf-symbol.h"
#include "util/mapfile.h"
#include "spoor/spoor.h"

#define DATA  0x100 /* file offset of the data: the headers come before */
#define VBASE 0x400000

/* An ELF file under construction: data, then what finish() appends. */
struct elfb {
	unsigned char *b;
	size_t len, cap;
	bool pie;            /* pointers as R_X86_64_RELATIVE, 0 in the data */
	uint64_t rel[64][3]; /* offset, info, addend */
	uint64_t sym[4][2];  /* value, section index (0: undefined); symbol 0 is null */
	size_t nrel, nsym;
	size_t events_off, events_len;
	bool no_phdrs, extended; /* no PT_LOAD; section counts in section 0 */
};

static void put(struct elfb *e, size_t off, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		e->b[off + i] = (unsigned char) (v >> 8 * i);
}

static size_t grab(struct elfb *e, size_t n)
{
	e->len = (e->len + 7) & ~(size_t) 7;
	if (e->len + n > e->cap) {
		size_t cap = 2 * (e->len + n);
		e->b = realloc(e->b, cap);
		memset(e->b + e->cap, 0, cap - e->cap);
		e->cap = cap;
	}
	e->len += n;
	return e->len - n;
}

static struct elfb *start(bool pie)
{
	struct elfb *e = calloc(1, sizeof(*e));
	e->pie = pie;
	e->nsym = 1;
	grab(e, DATA);
	return e;
}

static uint64_t vaddr(size_t off)
{
	return VBASE + off;
}

static uint64_t str(struct elfb *e, const char *s)
{
	size_t off = grab(e, strlen(s) + 1);
	memcpy(e->b + off, s, strlen(s) + 1);
	return vaddr(off);
}

static void ptr(struct elfb *e, size_t off, uint64_t target)
{
	if (e->pie && target) {
		if (e->nrel == 64)
			abort();
		uint64_t *r = e->rel[e->nrel++];
		r[0] = vaddr(off), r[1] = R_X86_64_RELATIVE, r[2] = target;
	} else {
		put(e, off, target, 8);
	}
}

/* n fields, all alike: an int, or an enum with the entries at entries (nentries). */
static uint64_t fields(struct elfb *e, const char *name, size_t n, uint64_t entries,
                       uint32_t nentries)
{
	uint64_t nm = str(e, name);
	size_t off = grab(e, 40 * (n + 1));
	for (size_t i = 0; i < n; i++) {
		unsigned char *f = e->b + off + 40 * i;
		ptr(e, off + 40 * i, nm);
		f[8] = entries ? SPOOR_FK_ENUM : SPOOR_FK_INT, f[9] = 4, f[10] = 1, f[11] = 10;
		ptr(e, off + 40 * i + 24, entries);
		put(e, off + 40 * i + 32, nentries, 4);
	}
	return vaddr(off);
}

static uint64_t entries(struct elfb *e, uint32_t n)
{
	uint64_t label = str(e, "on");
	size_t off = grab(e, 24 * n);
	for (uint32_t i = 0; i < n; i++) {
		ptr(e, off + 24 * i, label);
		put(e, off + 24 * i + 8, i, 8);
		put(e, off + 24 * i + 16, i, 8);
	}
	return vaddr(off);
}

/* Descriptors last, back to back: the spoor_events section. */
static size_t event(struct elfb *e, uint64_t prov, uint64_t name, uint64_t flds, uint32_t nf,
                    uint32_t size)
{
	size_t off = grab(e, size);
	if (!e->events_len)
		e->events_off = off;
	e->events_len += size;
	put(e, off, size, 4);
	ptr(e, off + 8, prov);
	ptr(e, off + 16, name);
	ptr(e, off + 24, flds);
	put(e, off + 32, nf, 4);
	put(e, off + 40, 1, 4);
	return off;
}

static void shdr(struct elfb *e, size_t at, uint32_t name, uint32_t type, uint64_t flags,
                 size_t off, size_t size, uint32_t link, uint64_t entsize)
{
	put(e, at, name, 4);
	put(e, at + 4, type, 4);
	put(e, at + 8, flags, 8);
	put(e, at + 16, flags & SHF_ALLOC ? vaddr(off) : 0, 8);
	put(e, at + 24, off, 8);
	put(e, at + 32, size, 8);
	put(e, at + 40, link, 4);
	put(e, at + 56, entsize, 8);
}

static const char names[] = "\0spoor_events\0.rela.dyn\0.dynsym\0.shstrtab\0.data";

/* Headers, relocations, symbols and section headers; the file is e->b[0, e->len). */
static void finish(struct elfb *e)
{
	size_t data_end = e->len;
	size_t rela = grab(e, 24 * e->nrel);
	for (size_t i = 0; i < e->nrel; i++)
		for (int k = 0; k < 3; k++)
			put(e, rela + 24 * i + 8 * k, e->rel[i][k], 8);
	size_t syms = grab(e, 24 * e->nsym);
	for (size_t i = 1; i < e->nsym; i++) {
		put(e, syms + 24 * i + 6, e->sym[i][1], 2);
		put(e, syms + 24 * i + 8, e->sym[i][0], 8);
	}
	size_t strs = grab(e, sizeof(names));
	memcpy(e->b + strs, names, sizeof(names));
	size_t sh = grab(e, 6 * 64);
	if (e->extended) {
		put(e, sh + 32, 6, 8); /* section 0: the count, and the names' index */
		put(e, sh + 40, 4, 4);
	}
	shdr(e, sh + 64, 1, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, e->events_off, e->events_len, 0,
	     0);
	shdr(e, sh + 128, 14, SHT_RELA, SHF_ALLOC, rela, 24 * e->nrel, 3, 24);
	shdr(e, sh + 192, 24, SHT_DYNSYM, SHF_ALLOC, syms, 24 * e->nsym, 4, 24);
	shdr(e, sh + 256, 32, SHT_STRTAB, 0, strs, sizeof(names), 0, 0);
	shdr(e, sh + 320, 42, SHT_PROGBITS, SHF_ALLOC, DATA, data_end - DATA, 0, 0);
	memcpy(e->b, ELFMAG, SELFMAG);
	e->b[EI_CLASS] = ELFCLASS64, e->b[EI_DATA] = ELFDATA2LSB, e->b[EI_VERSION] = EV_CURRENT;
	put(e, 16, e->pie ? ET_DYN : ET_EXEC, 2);
	put(e, 18, EM_X86_64, 2);
	put(e, 20, EV_CURRENT, 4);
	put(e, 32, 64, 8);
	put(e, 40, sh, 8);
	put(e, 52, 64, 2);
	put(e, 54, 56, 2);
	put(e, 56, e->no_phdrs ? 0 : 1, 2);
	put(e, 58, 64, 2);
	put(e, 60, e->extended ? 0 : 6, 2);
	put(e, 62, e->extended ? SHN_XINDEX : 4, 2);
	put(e, 64, PT_LOAD, 4);
	put(e, 64 + 16, VBASE, 8);
	put(e, 64 + 32, data_end, 8);
	put(e, 64 + 40, data_end, 8);
}

static int read_built(struct elfb *e, struct elf_events *ev)
{
	finish(e);
	int rc = elf_events_read(ev, e->b, e->len);
	free(e->b);
	free(e);
	return rc;
}

/* One event "p:ev": an int32 x and an enum (uint8, hex) s of 3 entries. */
static struct elfb *two_fields(bool pie)
{
	struct elfb *e = start(pie);
	uint64_t en = entries(e, 3), x = str(e, "x"), s = str(e, "s");
	size_t off = grab(e, 3 * 40);
	unsigned char *f = e->b + off;
	f[8] = SPOOR_FK_INT, f[9] = 4, f[10] = 1, f[11] = 10;
	f[48] = SPOOR_FK_ENUM, f[49] = 1, f[50] = 0, f[51] = 16;
	ptr(e, off, x);
	ptr(e, off + 40, s);
	ptr(e, off + 64, en);
	put(e, off + 72, 3, 4);
	uint64_t p = str(e, "p"), n = str(e, "ev");
	event(e, p, n, vaddr(off), 2, 56);
	return e;
}

static void check_two_fields(struct elf_events *ev, int rc)
{
	if (!CHECK_EQ_S64(rc, 0) || !CHECK_EQ_U64(ev->n, 1)) {
		printf("  message: %s\n", ev->err);
		return;
	}
	const struct spoor_event_desc *d = ev->evs[0];
	CHECK_STR(d->provider, "p");
	CHECK_STR(d->name, "ev");
	CHECK_EQ_U64(d->struct_size, sizeof(*d));
	CHECK_EQ_U64(d->max_align, 1);
	if (!CHECK_EQ_U64(d->nfields, 2))
		return;
	const struct spoor_field_desc *x = &d->fields[0], *s = &d->fields[1];
	CHECK_STR(x->name, "x");
	CHECK(x->kind == SPOOR_FK_INT && x->size == 4 && x->is_signed && x->base == 10);
	CHECK(!x->entries && !x->nentries);
	CHECK_STR(s->name, "s");
	CHECK(s->kind == SPOOR_FK_ENUM && s->size == 1 && !s->is_signed && s->base == 16);
	if (CHECK_EQ_U64(s->nentries, 3))
		for (uint32_t k = 0; k < 3; k++) {
			CHECK_STR(s->entries[k].label, "on");
			CHECK(s->entries[k].lo == k && s->entries[k].hi == k);
		}
	CHECK_STR(d->fields[2].name, NULL);
}

static void test_pointers(void)
{
	struct elf_events ev;
	int rc;

	CHECK_CTX("stored pointers (ET_EXEC)");
	rc = read_built(two_fields(false), &ev);
	check_two_fields(&ev, rc);
	elf_events_free(&ev);

	CHECK_CTX("relative relocations (ET_DYN)");
	rc = read_built(two_fields(true), &ev);
	check_two_fields(&ev, rc);
	elf_events_free(&ev);

	CHECK_CTX("no program headers: the allocated sections map addresses");
	struct elfb *e = two_fields(true);
	e->no_phdrs = true;
	rc = read_built(e, &ev);
	check_two_fields(&ev, rc);
	elf_events_free(&ev);

	CHECK_CTX("extended section numbering");
	e = two_fields(false);
	e->extended = true;
	rc = read_built(e, &ev);
	check_two_fields(&ev, rc);
	elf_events_free(&ev);

	/* the name pointer as R_X86_64_64 against a symbol: defined, then undefined */
	for (int defined = 1; defined >= 0; defined--) {
		CHECK_CTX("symbol relocation, %s symbol", defined ? "defined" : "undefined");
		e = start(true);
		uint64_t f = fields(e, "x", 1, 0, 0), p = str(e, "p"), n = str(e, "xxev");
		size_t d = event(e, p, 0, f, 1, 56);
		e->sym[1][0] = n, e->sym[1][1] = defined ? 5 : SHN_UNDEF;
		e->nsym = 2;
		uint64_t *r = e->rel[e->nrel++];
		r[0] = vaddr(d + 16), r[1] = (uint64_t) 1 << 32 | R_X86_64_64, r[2] = 2;
		rc = read_built(e, &ev);
		if (defined && CHECK_EQ_S64(rc, 0) && CHECK_EQ_U64(ev.n, 1))
			CHECK_STR(ev.evs[0]->name, "ev");
		if (!defined) {
			CHECK_EQ_S64(rc, -SPOOR_EDECODE);
			CHECK(strstr(ev.err, "event p:") == NULL &&
			      strstr(ev.err, "name: a NULL pointer"));
		}
		elf_events_free(&ev);
	}
}

static void test_layout(void)
{
	struct elf_events ev;

	CHECK_CTX("larger descriptors (a later version) and an event without fields");
	struct elfb *e = start(false);
	uint64_t f = fields(e, "x", 1, 0, 0), p = str(e, "p"), a = str(e, "a"), b = str(e, "b");
	event(e, p, a, 0, 0, 72);
	event(e, p, b, f, 1, 56);
	int rc = read_built(e, &ev);
	if (CHECK_EQ_S64(rc, 0) && CHECK_EQ_U64(ev.n, 2)) {
		CHECK_STR(ev.evs[0]->name, "a");
		CHECK_EQ_U64(ev.evs[0]->nfields, 0);
		CHECK(ev.evs[0]->fields && !ev.evs[0]->fields[0].name);
		CHECK_STR(ev.evs[1]->name, "b");
		CHECK_EQ_U64(ev.evs[1]->nfields, 1);
	}
	elf_events_free(&ev);

	CHECK_CTX("no spoor_events descriptors: no events, no error");
	e = start(false);
	e->events_off = e->len;
	rc = read_built(e, &ev);
	CHECK_EQ_S64(rc, 0);
	CHECK_EQ_U64(ev.n, 0);
	elf_events_free(&ev);
}

static void test_caps(void)
{
	struct elf_events ev;
	char name[200];

	CHECK_CTX("a name of 129 bytes");
	memset(name, 'n', 129);
	name[129] = '\0';
	struct elfb *e = start(true);
	uint64_t p = str(e, "p"), n = str(e, name);
	event(e, p, n, 0, 0, 56);
	int rc = read_built(e, &ev);
	CHECK_EQ_S64(rc, -SPOOR_ELIMIT);
	CHECK(strstr(ev.err, "name: the string at address") && strstr(ev.err, "longer than 128"));
	elf_events_free(&ev);

	/* 1024 fields sharing one enum of 4096 entries: 4 M entries from 100 KB of file */
	CHECK_CTX("descriptors sharing data");
	e = start(false);
	uint64_t en = entries(e, 4096);
	uint64_t f = fields(e, "s", 1024, en, 4096);
	p = str(e, "p"), n = str(e, "ev");
	event(e, p, n, f, 1024, 56);
	rc = read_built(e, &ev);
	CHECK_EQ_S64(rc, -SPOOR_ELIMIT);
	CHECK(strstr(ev.err, "event p:ev, field s: the descriptors exceed"));
	CHECK_EQ_U64(ev.n, 0);
	elf_events_free(&ev);
}

static void test_fields(void)
{
	static const struct {
		unsigned char kind, size, text;
		uint32_t nentries;
		const char *err;
	} bad[] = {
	    {9, 4, 0, 0, "not a field spoor can describe (kind 9"},
	    {SPOOR_FK_INT, 3, 0, 0, "not a field spoor can describe (kind 0, size 3"},
	    {SPOOR_FK_ARRAY, 4, 1, 0, "not a field spoor can describe"},
	    {SPOOR_FK_INT, 4, 0, 2, "enum entries on a field that is not an enum"},
	    {SPOOR_FK_ENUM, 4, 0, 0, "an enum with 0 entries"},
	};
	struct elf_events ev;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_CTX("bad field %zu", i);
		struct elfb *e = start(false);
		uint64_t f = fields(e, "x", 1, 0, 0), p = str(e, "p"), n = str(e, "ev");
		unsigned char *fd = e->b + (f - VBASE);
		fd[8] = bad[i].kind, fd[9] = bad[i].size, fd[13] = bad[i].text;
		put(e, f - VBASE + 32, bad[i].nentries, 4);
		event(e, p, n, f, 1, 56);
		int rc = read_built(e, &ev);
		CHECK_EQ_S64(rc, -SPOOR_EDECODE);
		if (!CHECK(strstr(ev.err, bad[i].err) && strstr(ev.err, "event p:ev, field x: ")))
			printf("  message: %s\n", ev.err);
		elf_events_free(&ev);
	}
	check_context[0] = '\0';
}

/* The file offset found for a function holds the code this process runs at that
 * function's address (uprobes take file offsets: lib/kernel/upaths.c). */
static void test_function_offset(void)
{
	struct dl_phdr_info libc = {0};
	struct mapfile mf;
	struct elf_image im;
	uint64_t vaddr, off;

	if (!CHECK(dl_iterate_phdr(find_libc, &libc) == 1) ||
	    !CHECK(mapfile_open(&mf, libc.dlpi_name) == 0))
		return;
	CHECK(elf_image_open(&im, mf.data, mf.size) == 0);
	static const char *const fns[] = {"unlinkat", "openat", "rename"};
	for (size_t i = 0; i < 3; i++) {
		const unsigned char *code = dlsym(RTLD_DEFAULT, fns[i]);
		if (!CHECK(code && elf_image_function(&im, fns[i], &vaddr, &off) == 1))
			continue;
		CHECK(libc.dlpi_addr + vaddr == (uintptr_t) code);
		CHECK(off + 16 <= mf.size && !memcmp(mf.data + off, code, 16));
	}
	CHECK(elf_image_function(&im, "no_such_function_here", &vaddr, &off) == 0);
	elf_image_close(&im);
	/* cut before its section headers: an error, nothing read outside */
	CHECK(elf_image_open(&im, mf.data, mf.size / 2) < 0 ||
	      elf_image_function(&im, "unlinkat", &vaddr, &off) <= 0);
	elf_image_close(&im);
	mapfile_close(&mf);
}

int main(void)
{
	test_function_offset();
	test_pointers();
	test_layout();
	test_caps();
	test_fields();
	return check_done();
}
