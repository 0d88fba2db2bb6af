/* SPDX-License-Identifier: MIT */
/*
 * elf-symtab.c: the functions of one ELF object (see elf-symtab.h). Symbol tables: System V
 * gABI, "Symbol Table"; the build-id note: NT_GNU_BUILD_ID, name "GNU"; debug files by
 * build-id: GDB's "Separate Debug Files" (ROOT/.build-id/xx/rest.debug, the first byte in
 * hex as the folder).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-image.h"
#include "elf-symtab.h"
#include "spoor/spoor.h"
#include "util/mapfile.h"

#define SYM_SIZE        24 /* Elf64_Sym */
#define SHT_SYMTAB      2
#define SHT_NOTE        7
#define SHT_DYNSYM      11
#define STT_FUNC        2
#define STT_GNU_IFUNC   10
#define STB_LOCAL       0
#define STB_GLOBAL      1
#define STB_WEAK        2
#define NT_GNU_BUILD_ID 3
#define MAX_FUNCS       (1u << 24)
#define MAX_NAME        16384 /* longer names (C++'s at their worst) are passed over */
#define DEFAULT_ROOT    "/usr/lib/debug"

/* A symbol while the tables are read: its name as an offset into the pool. */
struct raw {
	uint64_t addr, size;
	size_t name;
	unsigned bind;
};

struct gather {
	struct raw *r;
	size_t n, cap;
};

static int fail(struct elf_symtab *st, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct elf_symtab *st, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(st->err, sizeof(st->err), fmt, ap);
	va_end(ap);
	return code;
}

/* A name into the pool, its @VERSION cut off; its offset, or (size_t) -1 out of memory. */
static size_t pool_add(struct elf_symtab *st, const char *s, size_t len)
{
	const char *at = memchr(s, '@', len);
	if (at)
		len = (size_t) (at - s);
	if (st->pool_len + len + 1 > st->pool_cap) {
		size_t cap = st->pool_cap ? 2 * st->pool_cap : 4096;
		while (cap < st->pool_len + len + 1)
			cap *= 2;
		char *p = realloc(st->pool, cap);
		if (!p)
			return (size_t) -1;
		st->pool = p;
		st->pool_cap = cap;
	}
	size_t off = st->pool_len;
	memcpy(st->pool + off, s, len);
	st->pool[off + len] = '\0';
	st->pool_len += len + 1;
	return off;
}

/* The defined functions of one symbol table section. */
static int read_table(struct elf_symtab *st, struct elf_image *im, const struct elf_section *t,
                      struct gather *g)
{
	struct elf_section strs;
	int rc;

	if (t->entsize != SYM_SIZE)
		return fail(st, -ENOEXEC, "symbol table entry size %" PRIu64 ", not %u", t->entsize,
		            SYM_SIZE);
	if ((rc = elf_image_section_at(im, t->link, &strs)))
		return fail(st, rc, "the symbol table's names: %s", im->err);
	if (strs.type == 8 /* SHT_NOBITS */)
		return 0; /* a debug file's copy of .dynstr: nothing there */
	const char *names = (const char *) im->data + strs.off;
	for (uint64_t k = 1; k < t->size / SYM_SIZE; k++) {
		const unsigned char *p = im->data + t->off + k * SYM_SIZE;
		uint64_t noff = elf_rd(p, 4), value = elf_rd(p + 8, 8);
		unsigned type = p[4] & 0xf, bind = p[4] >> 4, shndx = (unsigned) elf_rd(p + 6, 2);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || !shndx || !value ||
		    noff >= strs.size)
			continue;
		const char *name = names + noff;
		const char *end = memchr(name, '\0', strs.size - noff);
		/* no name, or only a version ("@V"): nothing to call the function */
		if (!end || end == name || *name == '@' || end - name > MAX_NAME)
			continue;
		if (g->n == g->cap) {
			if (g->cap >= MAX_FUNCS)
				return fail(st, -SPOOR_ELIMIT, "more than %u functions", MAX_FUNCS);
			size_t cap = g->cap ? 2 * g->cap : 256;
			struct raw *r = realloc(g->r, cap * sizeof(*r));
			if (!r)
				return fail(st, -ENOMEM, "out of memory");
			g->r = r;
			g->cap = cap;
		}
		size_t at = pool_add(st, name, (size_t) (end - name));
		if (at == (size_t) -1)
			return fail(st, -ENOMEM, "out of memory");
		g->r[g->n++] = (struct raw){value, elf_rd(p + 16, 8), at, bind};
	}
	return 0;
}

size_t elf_note_build_id(const unsigned char *p, uint64_t left, unsigned char id[ELF_BUILD_ID_MAX])
{
	while (left >= 12) {
		uint64_t namesz = elf_rd(p, 4), descsz = elf_rd(p + 4, 4), type = elf_rd(p + 8, 4);
		uint64_t name_pad = (namesz + 3) & ~(uint64_t) 3,
		         desc_pad = (descsz + 3) & ~(uint64_t) 3;
		if (name_pad > left - 12 || desc_pad > left - 12 - name_pad)
			return 0;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + 12, "GNU", 4) && descsz &&
		    descsz <= ELF_BUILD_ID_MAX) {
			memcpy(id, p + 12 + name_pad, descsz);
			return descsz;
		}
		p += 12 + name_pad + desc_pad;
		left -= 12 + name_pad + desc_pad;
	}
	return 0;
}

/* The build-id from the first NT_GNU_BUILD_ID note of the SHT_NOTE sections. */
static void read_build_id(struct elf_symtab *st, const struct elf_image *im,
                          const struct elf_section *s)
{
	if (!st->build_id_len)
		st->build_id_len = elf_note_build_id(im->data + s->off, s->size, st->build_id);
}

/* Every symbol table and note of one image. */
static int read_image(struct elf_symtab *st, struct elf_image *im, struct gather *g)
{
	struct elf_section s;
	int rc;

	for (uint32_t i = 1; i < im->shnum; i++) {
		if ((rc = elf_image_section_at(im, i, &s)))
			return fail(st, rc, "%s", im->err);
		if (s.type == SHT_SYMTAB || s.type == SHT_DYNSYM) {
			if ((rc = read_table(st, im, &s, g)))
				return rc;
			st->has_symtab |= s.type == SHT_SYMTAB;
		} else if (s.type == SHT_NOTE) {
			read_build_id(st, im, &s);
		}
	}
	return 0;
}

/* The name look-ups show of an address's aliases: not local (a local alias is libc's
 * internal __GI_ name), fewer leading underscores (getpid, a weak alias, over __getpid),
 * global before weak, shorter, by name. */
static unsigned bind_rank(unsigned bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
}

static const char *sort_pool; /* qsort has no user pointer: the pool while sorting */

static int raw_cmp(const void *a, const void *b)
{
	const struct raw *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if ((x->bind == STB_LOCAL) != (y->bind == STB_LOCAL))
		return x->bind == STB_LOCAL ? 1 : -1;
	const char *m = sort_pool + x->name, *n = sort_pool + y->name;
	size_t um = strspn(m, "_"), un = strspn(n, "_");
	if (um != un)
		return um < un ? -1 : 1;
	if (bind_rank(x->bind) != bind_rank(y->bind))
		return bind_rank(x->bind) < bind_rank(y->bind) ? -1 : 1;
	size_t lm = strlen(m), ln = strlen(n);
	if (lm != ln)
		return lm < ln ? -1 : 1;
	return strcmp(m, n);
}

/* Sorted, one entry per (address, name) (the larger size kept), names as pointers. */
static int finish(struct elf_symtab *st, struct gather *g)
{
	sort_pool = st->pool;
	if (g->n > 1)
		qsort(g->r, g->n, sizeof(*g->r), raw_cmp);
	st->funcs = malloc((g->n ? g->n : 1) * sizeof(*st->funcs));
	if (!st->funcs)
		return fail(st, -ENOMEM, "out of memory");
	for (size_t i = 0; i < g->n; i++) {
		const struct raw *r = &g->r[i];
		const char *name = st->pool + r->name;
		/* a twin from the other table sorts near it: look over this address's names */
		struct elf_func *same = NULL;
		for (size_t k = st->n; k-- && st->funcs[k].addr == r->addr;)
			if (!strcmp(st->funcs[k].name, name))
				same = &st->funcs[k];
		if (same) {
			if (r->size > same->size)
				same->size = r->size;
			continue;
		}
		st->funcs[st->n++] = (struct elf_func){r->addr, r->size, name};
	}
	return 0;
}

static int open_image(struct elf_symtab *st, struct elf_image *im, const unsigned char *data,
                      size_t size)
{
	int rc = elf_image_open(im, data, size);
	if (rc)
		return fail(st, rc, "%s", im->err);
	if (im->nregions)
		st->load_vaddr = im->regions[0].vaddr;
	return 0;
}

int elf_symtab_read(struct elf_symtab *st, const unsigned char *data, size_t size)
{
	struct elf_image im;
	struct gather g = {0};

	*st = (struct elf_symtab){0};
	int rc = open_image(st, &im, data, size);
	if (!rc)
		rc = read_image(st, &im, &g);
	if (!rc)
		rc = finish(st, &g);
	elf_image_close(&im);
	free(g.r);
	return rc;
}

/* The build-id of an image, alone. */
static void image_build_id(struct elf_symtab *st, struct elf_image *im)
{
	struct elf_section s;
	for (uint32_t i = 1; i < im->shnum; i++)
		if (!elf_image_section_at(im, i, &s) && s.type == SHT_NOTE)
			read_build_id(st, im, &s);
}

/* The debug file of the object's build-id, if it has the same build-id: its .symtab joins
 * the object's .dynsym. Its faults are passed over: the object still has its dynamic
 * symbols. */
static void read_debug_file(struct elf_symtab *st, const char *root, struct gather *g)
{
	char path[4096], hex[2 * ELF_BUILD_ID_MAX + 1];
	struct mapfile mf;
	struct elf_image im;
	struct elf_symtab dbg = {0};

	for (size_t i = 0; i < st->build_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", st->build_id[i]);
	if (st->build_id_len < 2 ||
	    (size_t) snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s.debug", root, hex,
	                      hex + 2) >= sizeof(path) ||
	    mapfile_open(&mf, path))
		return;
	if (!open_image(&dbg, &im, mf.data, mf.size)) {
		image_build_id(&dbg, &im);
		size_t before = g->n;
		if (dbg.build_id_len == st->build_id_len &&
		    !memcmp(dbg.build_id, st->build_id, st->build_id_len)) {
			if (read_image(st, &im, g)) {
				g->n = before; /* what came before its fault is dropped too */
				st->has_symtab = false;
				st->err[0] = '\0';
			} else if (st->has_symtab) {
				st->debug_file = strdup(path);
			}
		}
	}
	elf_image_close(&im);
	mapfile_close(&mf);
}

int elf_symtab_open(struct elf_symtab *st, const char *path, const char *debug_root)
{
	struct mapfile mf;
	struct elf_image im;
	struct gather g = {0};

	*st = (struct elf_symtab){0};
	int rc = mapfile_open(&mf, path);
	if (rc)
		return fail(st, rc, "%s: %s", path, spoor_strerror(rc));
	if (!(rc = open_image(st, &im, mf.data, mf.size)))
		rc = read_image(st, &im, &g);
	elf_image_close(&im);
	mapfile_close(&mf);
	if (!rc && !st->has_symtab && (!debug_root || *debug_root))
		read_debug_file(st, debug_root ? debug_root : DEFAULT_ROOT, &g);
	if (!rc)
		rc = finish(st, &g);
	free(g.r);
	if (rc) {
		char msg[sizeof(st->err)];
		snprintf(msg, sizeof(msg), "%s", st->err);
		fail(st, rc, "%s: %s", path, msg);
	}
	return rc;
}

const struct elf_func *elf_symtab_lookup(const struct elf_symtab *st, uint64_t addr,
                                         uint64_t *offset)
{
	size_t lo = 0, hi = st->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (st->funcs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	uint64_t start = st->funcs[lo - 1].addr, size = 0;
	size_t first = lo - 1;
	for (; first > 0 && st->funcs[first - 1].addr == start; first--)
		;
	for (size_t k = first; k < lo; k++)
		if (st->funcs[k].size > size)
			size = st->funcs[k].size;
	if (size && addr - start >= size)
		return NULL;
	*offset = addr - start;
	return &st->funcs[first];
}

void elf_symtab_free(struct elf_symtab *st)
{
	free(st->funcs);
	free(st->pool);
	free(st->debug_file);
	st->funcs = NULL;
	st->pool = NULL;
	st->debug_file = NULL;
	st->n = st->pool_len = st->pool_cap = 0;
}
