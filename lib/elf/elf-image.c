/* SPDX-License-Identifier: MIT */
/*
 * elf-image.c: reads the parts of an ELF64 x86-64 file that locate data without running it:
 * the header, the section headers (names from .shstrtab), the PT_LOAD segments and the
 * dynamic relocations. Layouts: System V gABI, "ELF-64 Object File Format"; relocation
 * types: System V AMD64 psABI, section 4.4. The file is untrusted: each field is read with
 * explicit little-endian loads (no casts to possibly misaligned structs) and checked before
 * it is used as an offset, a size or a count.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf-image.h"
#include "spoor/spoor.h"

#define EHDR_SIZE   64
#define SHDR_SIZE   64
#define PHDR_SIZE   56
#define RELA_SIZE   24
#define SYM_SIZE    24
#define MAX_REGIONS 65536
#define MAX_RELOCS  (1u << 24)

/* A section header, decoded. */
struct shdr {
	uint32_t name, type, link, info;
	uint64_t flags, addr, off, size, entsize;
};

static int fail(struct elf_image *im, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct elf_image *im, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(im->err, sizeof(im->err), fmt, ap);
	va_end(ap);
	return code;
}

/* Does [off, off + len) lie inside the file? (Written so that nothing can overflow.) */
static int in_file(const struct elf_image *im, uint64_t off, uint64_t len)
{
	return off <= im->size && len <= im->size - off;
}

/* Section header i; i < im->shnum, whose table open() checked lies inside the file. */
static void read_shdr(const struct elf_image *im, uint32_t i, struct shdr *s)
{
	const unsigned char *p = im->data + im->shoff + (uint64_t) i * SHDR_SIZE;
	*s = (struct shdr){
	    .name = (uint32_t) elf_rd(p, 4),
	    .type = (uint32_t) elf_rd(p + 4, 4),
	    .flags = elf_rd(p + 8, 8),
	    .addr = elf_rd(p + 16, 8),
	    .off = elf_rd(p + 24, 8),
	    .size = elf_rd(p + 32, 8),
	    .link = (uint32_t) elf_rd(p + 40, 4),
	    .info = (uint32_t) elf_rd(p + 44, 4),
	    .entsize = elf_rd(p + 56, 8),
	};
}

static int check_ident(struct elf_image *im)
{
	const unsigned char *d = im->data;

	if (im->size < SELFMAG || memcmp(d, ELFMAG, SELFMAG))
		return fail(im, -ENOEXEC, "not an ELF file");
	if (im->size > EI_DATA && d[EI_CLASS] != ELFCLASS64)
		return fail(im, -SPOOR_EUNSUPPORTED, "a 32-bit ELF file: spoor reads x86-64 files");
	if (im->size > EI_DATA && d[EI_DATA] != ELFDATA2LSB)
		return fail(im, -SPOOR_EUNSUPPORTED,
		            "a big-endian ELF file: spoor reads x86-64 files");
	if (im->size < EHDR_SIZE)
		return fail(im, -SPOOR_ETRUNCATED,
		            "truncated: the file ends inside the ELF header");
	unsigned type = (unsigned) elf_rd(d + 16, 2), machine = (unsigned) elf_rd(d + 18, 2);
	if (machine != EM_X86_64)
		return fail(im, -SPOOR_EUNSUPPORTED,
		            "ELF machine %u, not x86-64: spoor reads x86-64 files", machine);
	if (type == ET_REL)
		return fail(im, -SPOOR_EUNSUPPORTED,
		            "an object file: list the executable or library it is linked into");
	if (type != ET_EXEC && type != ET_DYN)
		return fail(im, -SPOOR_EUNSUPPORTED,
		            "ELF type %u: not an executable or a shared library", type);
	return 0;
}

/* The section header table, with the gABI's escapes for counts that do not fit the ELF
 * header (the real values then sit in section 0). *phnum may be updated the same way. */
static int read_section_table(struct elf_image *im, uint64_t *phnum)
{
	const unsigned char *d = im->data;
	uint64_t shoff = elf_rd(d + 40, 8), shnum = elf_rd(d + 60, 2);
	uint32_t shstrndx = (uint32_t) elf_rd(d + 62, 2);

	if (!shoff)
		return 0; /* no section headers: elf_image_section says so when asked */
	if (elf_rd(d + 58, 2) != SHDR_SIZE)
		return fail(im, -ENOEXEC, "section header size %u, not %u",
		            (unsigned) elf_rd(d + 58, 2), SHDR_SIZE);
	if (!in_file(im, shoff, SHDR_SIZE))
		return fail(im, -SPOOR_ETRUNCATED,
		            "truncated: the section headers (offset %" PRIu64
		            ") are past the end of the file",
		            shoff);
	im->shoff = shoff;
	struct shdr s0;
	im->shnum = 1;
	read_shdr(im, 0, &s0);
	if (!shnum)
		shnum = s0.size;
	if (shstrndx == SHN_XINDEX)
		shstrndx = s0.link;
	if (*phnum == PN_XNUM)
		*phnum = s0.info;
	if (shnum > (im->size - shoff) / SHDR_SIZE) {
		im->shnum = 0;
		return fail(im, -SPOOR_ETRUNCATED,
		            "truncated: %" PRIu64 " section headers at offset %" PRIu64
		            " do not fit in the file",
		            shnum, shoff);
	}
	im->shnum = (uint32_t) shnum; /* < size / 64: fits */
	im->shstrndx = shstrndx;
	return 0;
}

static int add_region(struct elf_image *im, size_t *cap, uint64_t vaddr, uint64_t off,
                      uint64_t size)
{
	if (im->nregions == *cap) {
		if (*cap >= MAX_REGIONS)
			return fail(im, -SPOOR_ELIMIT, "more than %d loadable segments",
			            MAX_REGIONS);
		size_t n = *cap ? 2 * *cap : 8;
		struct elf_region *r = realloc(im->regions, n * sizeof(*r));
		if (!r)
			return fail(im, -ENOMEM, "out of memory");
		im->regions = r;
		*cap = n;
	}
	/* what the file really holds: a truncated file keeps the part before its end */
	uint64_t have = off > im->size ? 0 : im->size - off;
	im->regions[im->nregions++] =
	    (struct elf_region){vaddr, off, size < have ? size : have, size};
	return 0;
}

static int region_cmp(const void *a, const void *b)
{
	const struct elf_region *x = a, *y = b;
	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

/* Address → file bytes: the PT_LOAD segments, or, in a file without any, the allocated
 * sections (as in a file whose program headers were removed). */
static int read_regions(struct elf_image *im, uint64_t phnum)
{
	uint64_t phoff = elf_rd(im->data + 32, 8);
	size_t cap = 0;
	int rc;

	if (phnum && elf_rd(im->data + 54, 2) != PHDR_SIZE)
		return fail(im, -ENOEXEC, "program header size %u, not %u",
		            (unsigned) elf_rd(im->data + 54, 2), PHDR_SIZE);
	if (phnum && (!in_file(im, phoff, 0) || phnum > (im->size - phoff) / PHDR_SIZE))
		return fail(im, -SPOOR_ETRUNCATED,
		            "truncated: %" PRIu64 " program headers at offset %" PRIu64
		            " do not fit in the file",
		            phnum, phoff);
	for (uint64_t i = 0; i < phnum; i++) {
		const unsigned char *p = im->data + phoff + i * PHDR_SIZE;
		uint64_t filesz = elf_rd(p + 32, 8);
		if (elf_rd(p, 4) == PT_LOAD && filesz &&
		    (rc = add_region(im, &cap, elf_rd(p + 16, 8), elf_rd(p + 8, 8), filesz)))
			return rc;
	}
	bool from_sections = !im->nregions;
	for (uint32_t i = 0; from_sections && i < im->shnum; i++) {
		struct shdr s;
		read_shdr(im, i, &s);
		if ((s.flags & SHF_ALLOC) && s.type != SHT_NOBITS && s.size &&
		    (rc = add_region(im, &cap, s.addr, s.off, s.size)))
			return rc;
	}
	if (im->nregions > 1)
		qsort(im->regions, im->nregions, sizeof(*im->regions), region_cmp);
	return 0;
}

static int add_reloc(struct elf_image *im, size_t *cap, uint64_t vaddr, uint64_t value)
{
	if (im->nrelocs == *cap) {
		if (*cap >= MAX_RELOCS)
			return fail(im, -SPOOR_ELIMIT, "more than %u relocations", MAX_RELOCS);
		size_t n = *cap ? 2 * *cap : 256;
		struct elf_reloc *r = realloc(im->relocs, n * sizeof(*r));
		if (!r)
			return fail(im, -ENOMEM, "out of memory");
		im->relocs = r;
		*cap = n;
	}
	im->relocs[im->nrelocs++] = (struct elf_reloc){vaddr, value};
	return 0;
}

/* The symbol table a relocation section names, if it is one and lies in the file. */
static const unsigned char *symbols(const struct elf_image *im, uint32_t link, uint64_t *nsyms)
{
	struct shdr t;

	*nsyms = 0;
	if (link >= im->shnum)
		return NULL;
	read_shdr(im, link, &t);
	if ((t.type != SHT_DYNSYM && t.type != SHT_SYMTAB) || t.entsize != SYM_SIZE ||
	    !in_file(im, t.off, t.size))
		return NULL;
	*nsyms = t.size / SYM_SIZE;
	return im->data + t.off;
}

/* The pointers of one SHT_RELA section: R_X86_64_RELATIVE (base + addend, the base being 0
 * here), and R_X86_64_64 against a symbol this file defines (a table that is not static). */
static int read_rela(struct elf_image *im, uint32_t index, const struct shdr *s, size_t *cap)
{
	uint64_t nsyms;
	const unsigned char *syms = symbols(im, s->link, &nsyms);
	int rc;

	if (s->entsize != RELA_SIZE)
		return fail(im, -ENOEXEC, "relocation section %u: entry size %" PRIu64 ", not %u",
		            index, s->entsize, RELA_SIZE);
	if (!in_file(im, s->off, s->size))
		return fail(im, -SPOOR_ETRUNCATED,
		            "truncated: relocation section %u ends past the end of the file",
		            index);
	for (uint64_t k = 0; k < s->size / RELA_SIZE; k++) {
		const unsigned char *p = im->data + s->off + k * RELA_SIZE;
		uint64_t info = elf_rd(p + 8, 8), addend = elf_rd(p + 16, 8);
		uint64_t sym = info >> 32, value;
		if (ELF64_R_TYPE(info) == R_X86_64_RELATIVE)
			value = addend;
		else if (ELF64_R_TYPE(info) == R_X86_64_64 && !sym)
			value = addend;
		else if (ELF64_R_TYPE(info) == R_X86_64_64 && sym < nsyms &&
		         elf_rd(syms + sym * SYM_SIZE + 6, 2) != SHN_UNDEF)
			value = elf_rd(syms + sym * SYM_SIZE + 8, 8) + addend;
		else
			continue; /* not a pointer this file can resolve alone */
		if ((rc = add_reloc(im, cap, elf_rd(p, 8), value)))
			return rc;
	}
	return 0;
}

static int reloc_cmp(const void *a, const void *b)
{
	const struct elf_reloc *x = a, *y = b;
	if (x->vaddr != y->vaddr)
		return x->vaddr < y->vaddr ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value; /* same order every run */
}

/* Only allocated relocation sections: the loader's. Others (--emit-relocs) count offsets
 * differently and describe what the loader never does. */
static int read_relocs(struct elf_image *im)
{
	size_t cap = 0;
	int rc;

	for (uint32_t i = 0; i < im->shnum; i++) {
		struct shdr s;
		read_shdr(im, i, &s);
		if (s.type == SHT_RELA && (s.flags & SHF_ALLOC) &&
		    (rc = read_rela(im, i, &s, &cap)))
			return rc;
	}
	if (im->nrelocs > 1)
		qsort(im->relocs, im->nrelocs, sizeof(*im->relocs), reloc_cmp);
	return 0;
}

int elf_image_open(struct elf_image *im, const unsigned char *data, size_t size)
{
	*im = (struct elf_image){.data = data, .size = size};
	int rc = check_ident(im);
	if (rc)
		return rc;
	uint64_t phnum = elf_rd(data + 56, 2);
	if ((rc = read_section_table(im, &phnum)) || (rc = read_regions(im, phnum)))
		return rc;
	return read_relocs(im);
}

void elf_image_close(struct elf_image *im)
{
	free(im->regions);
	free(im->relocs);
	im->regions = NULL;
	im->relocs = NULL;
	im->nregions = im->nrelocs = 0;
}

int elf_image_section(struct elf_image *im, const char *name, struct elf_section *out)
{
	struct shdr names, s;
	size_t len = strlen(name) + 1;

	if (!im->shnum)
		return fail(im, -SPOOR_EUNSUPPORTED,
		            "no section headers (removed by sstrip?): cannot find section %s",
		            name);
	if (im->shstrndx == SHN_UNDEF || im->shstrndx >= im->shnum)
		return fail(im, -ENOEXEC, "no section names (string table index %u of %u)",
		            im->shstrndx, im->shnum);
	read_shdr(im, im->shstrndx, &names);
	if (names.type == SHT_NOBITS || !in_file(im, names.off, names.size))
		return fail(im, -SPOOR_ETRUNCATED,
		            "truncated: the section names are past the end of the file");
	for (uint32_t i = 1; i < im->shnum; i++) {
		read_shdr(im, i, &s);
		if (s.name >= names.size || names.size - s.name < len ||
		    memcmp(im->data + names.off + s.name, name, len))
			continue;
		if (s.type == SHT_NOBITS)
			return fail(im, -ENOEXEC, "section %s holds no data in the file", name);
		if (!in_file(im, s.off, s.size))
			return fail(im, -SPOOR_ETRUNCATED,
			            "truncated: section %s ends past the end of the file", name);
		*out = (struct elf_section){s.addr, s.off, s.size, s.type, s.link, s.entsize};
		return 1;
	}
	return 0;
}

int elf_image_section_at(struct elf_image *im, uint32_t i, struct elf_section *out)
{
	struct shdr s;

	if (i >= im->shnum)
		return fail(im, -ENOEXEC, "no section %u (of %u)", i, im->shnum);
	read_shdr(im, i, &s);
	*out = (struct elf_section){s.addr, s.off, s.size, s.type, s.link, s.entsize};
	if (s.type != SHT_NOBITS && !in_file(im, s.off, s.size))
		return fail(im, -SPOOR_ETRUNCATED,
		            "truncated: section %u ends past the end of the file", i);
	return 0;
}

/* The region holding vaddr (the last one starting at or before it), or NULL. */
static const struct elf_region *find_region(const struct elf_image *im, uint64_t vaddr)
{
	size_t lo = 0, hi = im->nregions;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (im->regions[mid].vaddr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &im->regions[lo - 1] : NULL;
}

int elf_image_map(struct elf_image *im, uint64_t vaddr, uint64_t len, const unsigned char **p)
{
	const struct elf_region *r = find_region(im, vaddr);
	uint64_t d = r ? vaddr - r->vaddr : 0;

	if (r && d < r->size && len <= r->size - d) {
		*p = im->data + r->off + d;
		return 0;
	}
	if (r && d < r->whole && len <= r->whole - d)
		return fail(im, -SPOOR_ETRUNCATED,
		            "truncated: address 0x%" PRIx64 " is past the end of the file", vaddr);
	if (r && d < r->whole)
		return fail(im, -ENOEXEC,
		            "%" PRIu64 " bytes at address 0x%" PRIx64
		            " run past the end of their segment",
		            len, vaddr);
	return fail(im, -ENOEXEC, "address 0x%" PRIx64 " is not in a loadable segment of the file",
	            vaddr);
}

uint64_t elf_image_pointer(const struct elf_image *im, uint64_t vaddr, const unsigned char *stored)
{
	size_t lo = 0, hi = im->nrelocs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (im->relocs[mid].vaddr < vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < im->nrelocs && im->relocs[lo].vaddr == vaddr)
		return im->relocs[lo].value;
	return elf_rd(stored, 8); /* a non-PIE file, or packed (DT_RELR) relocations */
}

int elf_image_string(struct elf_image *im, uint64_t vaddr, size_t max, const char **s)
{
	const unsigned char *p;
	int rc = elf_image_map(im, vaddr, 1, &p);
	if (rc)
		return rc;
	const struct elf_region *r = find_region(im, vaddr);
	uint64_t avail = r->size - (vaddr - r->vaddr);
	if (memchr(p, '\0', avail < (uint64_t) max + 1 ? (size_t) avail : max + 1)) {
		*s = (const char *) p;
		return 0;
	}
	if (avail > max)
		return fail(im, -SPOOR_ELIMIT,
		            "the string at address 0x%" PRIx64 " is longer than %zu bytes", vaddr,
		            max);
	if (r->size < r->whole)
		return fail(im, -SPOOR_ETRUNCATED,
		            "truncated: the string at address 0x%" PRIx64 " runs past the end of "
		            "the file",
		            vaddr);
	return fail(im, -ENOEXEC,
	            "the string at address 0x%" PRIx64 " runs past the end of its segment", vaddr);
}
