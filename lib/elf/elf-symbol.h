/* SPDX-License-Identifier: MIT */
/* elf-symbol.h: a function's address in an ELF image's dynamic symbol table, as a file
 * offset (what uprobes take), for a shared library read as untrusted bytes. */
#ifndef ELF_ELF_SYMBOL_H
#define ELF_ELF_SYMBOL_H

#include <stdint.h>

#include "elf-image.h"

/* The defined function `name` (any version): 1 with its virtual address and file offset,
 * 0 when there is none, or a negative code (im->err says why). */
int elf_image_function(struct elf_image *im, const char *name, uint64_t *vaddr, uint64_t *off);
/* The dynamic symbol table and its strings, both inside the file: 1, 0 when there is none,
 * or a negative code. */
int elf_image_dynsym(struct elf_image *im, struct elf_section *syms, struct elf_section *strs);

#endif
