/* SPDX-License-Identifier: MIT */
/*
 * elf-image.h: an ELF64 little-endian x86-64 executable or shared library, read as untrusted
 * bytes: its sections by name, its virtual addresses mapped to file bytes through the
 * loadable segments, and pointers stored in its data resolved as the dynamic loader would
 * (a relocation at the address, else the value stored there).
 *
 * Every offset, size and count is checked against the file; nothing is ever read outside
 * data[0, size). A failing call leaves a message in im->err.
 */
#ifndef ELF_ELF_IMAGE_H
#define ELF_ELF_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* A range of virtual addresses held by file bytes. */
struct elf_region {
	uint64_t vaddr;
	uint64_t off;   /* file offset */
	uint64_t size;  /* bytes present in the file (clipped when the file is truncated) */
	uint64_t whole; /* bytes the headers promise (p_filesz) */
};

/* A pointer slot the loader fills in: at vaddr, the value (addend, or symbol + addend). */
struct elf_reloc {
	uint64_t vaddr;
	uint64_t value;
};

struct elf_section {
	uint64_t addr, off, size;
	uint32_t type;
	uint32_t link; /* a symbol table's string table: a section index */
	uint64_t entsize;
};

struct elf_image {
	const unsigned char *data; /* borrowed: must outlive the image */
	size_t size;
	uint64_t shoff;
	uint32_t shnum, shstrndx;
	struct elf_region *regions; /* sorted by vaddr */
	size_t nregions;
	struct elf_reloc *relocs; /* sorted by vaddr */
	size_t nrelocs;
	char err[256];
};

/*
 * Check the headers and gather segments and relocations. 0, or a negative code with a
 * message in im->err: -ENOEXEC (not ELF, or malformed headers), -SPOOR_EUNSUPPORTED (ELF32,
 * big-endian, another machine, an object file), -SPOOR_ETRUNCATED, -SPOOR_ELIMIT, -ENOMEM.
 * elf_image_close frees what open allocated, whatever it returned.
 */
int elf_image_open(struct elf_image *im, const unsigned char *data, size_t size);
void elf_image_close(struct elf_image *im);

/* The first section named name: 1 (in *out), 0 when there is none, or a negative code. */
int elf_image_section(struct elf_image *im, const char *name, struct elf_section *out);

/* Section i (0 < i < im->shnum) in *out: 0, or -SPOOR_ETRUNCATED when its bytes (unless it
 * is SHT_NOBITS) are not all in the file. */
int elf_image_section_at(struct elf_image *im, uint32_t i, struct elf_section *out);

/* The file bytes at [vaddr, vaddr + len), in *p. 0 or a negative code. */
int elf_image_map(struct elf_image *im, uint64_t vaddr, uint64_t len, const unsigned char **p);

/* The pointer the loader puts at vaddr, whose 8 file bytes are at stored. Never fails. */
uint64_t elf_image_pointer(const struct elf_image *im, uint64_t vaddr, const unsigned char *stored);

/* The NUL-terminated string at vaddr, at most max bytes before the NUL, in *s (pointing into
 * the file data). 0 or a negative code. */
int elf_image_string(struct elf_image *im, uint64_t vaddr, size_t max, const char **s);

/* Little-endian reads from checked file bytes. */
static inline uint64_t elf_rd(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;
	while (n--)
		v = v << 8 | p[n];
	return v;
}

#endif
