/* SPDX-License-Identifier: MIT */
/* elf-symbol.c: looks a function up in .dynsym/.dynstr (see elf-symbol.h). */
#include <errno.h>
#include <string.h>

#include "elf-symbol.h"
#include "spoor/spoor.h"

#define SYM_SIZE  24 /* Elf64_Sym */
#define STT_FUNC  2
#define STT_IFUNC 10 /* resolved at load time: its address is the resolver's, not usable */
#define SHN_UNDEF 0

int elf_image_dynsym(struct elf_image *im, struct elf_section *syms, struct elf_section *strs)
{
	int rc = elf_image_section(im, ".dynsym", syms);
	if (rc <= 0)
		return rc;
	if ((rc = elf_image_section(im, ".dynstr", strs)) <= 0)
		return rc;
	if (syms->off > im->size || syms->size > im->size - syms->off || strs->off > im->size ||
	    strs->size > im->size - strs->off)
		return -SPOOR_ETRUNCATED;
	return 1;
}

int elf_image_function(struct elf_image *im, const char *name, uint64_t *vaddr, uint64_t *off)
{
	struct elf_section syms, strs;
	int rc = elf_image_dynsym(im, &syms, &strs);
	if (rc <= 0)
		return rc;
	size_t len = strlen(name);
	for (uint64_t at = syms.off; at + SYM_SIZE <= syms.off + syms.size; at += SYM_SIZE) {
		const unsigned char *p = im->data + at;
		uint64_t noff = elf_rd(p, 4), value = elf_rd(p + 8, 8);
		unsigned type = p[4] & 0xf, shndx = (unsigned) elf_rd(p + 6, 2);
		if (type != STT_FUNC || shndx == SHN_UNDEF || noff >= strs.size ||
		    strs.size - noff <= len)
			continue;
		const char *n = (const char *) im->data + strs.off + noff;
		if (memcmp(n, name, len) || n[len]) /* .dynstr names carry no @VERSION */
			continue;
		for (size_t r = 0; r < im->nregions; r++) {
			const struct elf_region *g = &im->regions[r];
			if (value >= g->vaddr && value - g->vaddr < g->size) {
				*vaddr = value;
				*off = g->off + (value - g->vaddr);
				return 1;
			}
		}
		return -ENOEXEC;
	}
	return 0;
}
