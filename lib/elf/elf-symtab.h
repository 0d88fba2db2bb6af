/* SPDX-License-Identifier: MIT */
/*
 * elf-symtab.h: the functions of one ELF object (executable or shared library), sorted by
 * address: from its .symtab (static functions live there) and .dynsym, and, when it has no
 * .symtab, from the separate debug file that its build-id names
 * (ROOT/.build-id/xx/rest.debug, ROOT being /usr/lib/debug unless given). Addresses are the
 * object's own virtual addresses (as in the file); a loaded PIC object at base address B
 * (LTTng's bin_info baddr) runs address A at A - B + load_vaddr.
 *
 * The files are untrusted (elf-image.h's rules): every offset, size and count is checked;
 * names are copied out, so the table outlives the files.
 */
#ifndef ELF_ELF_SYMTAB_H
#define ELF_ELF_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One function symbol. Aliases (several names at one address) are all listed, the one
 * look-ups show first: global or weak before local, then fewer leading underscores, then
 * global before weak, then the shorter name, then by name (getpid over __getpid and
 * __GI___getpid). A name has its @VERSION (.symtab's) cut off. */
struct elf_func {
	uint64_t addr, size; /* size 0: unknown (assembly without .size) */
	const char *name;
};

#define ELF_BUILD_ID_MAX 64

struct elf_symtab {
	struct elf_func *funcs; /* sorted by address, then as above: iterate funcs[0, n) */
	size_t n;
	uint64_t load_vaddr; /* the lowest PT_LOAD address (0 in almost every PIC object) */
	unsigned char build_id[ELF_BUILD_ID_MAX];
	size_t build_id_len; /* 0: no build-id note */
	bool has_symtab;     /* the object's or its debug file's .symtab was read */
	char *debug_file;    /* the debug file the .symtab came from, or NULL */
	char *pool;          /* the names */
	size_t pool_len, pool_cap;
	char err[256];
};

/*
 * The functions of the object at path; debug_root: the folder holding .build-id/ (NULL:
 * /usr/lib/debug; "": no debug files). A debug file is used only when its build-id is the
 * object's; a missing or bad one is passed over (has_symtab stays false).
 * 0, or a negative code with a message in st->err: the object's own errors (not found,
 * not ELF, truncated; a file without either table is not an error: n is 0).
 * elf_symtab_free frees what it allocated, whatever it returned.
 */
int elf_symtab_open(struct elf_symtab *st, const char *path, const char *debug_root);

/* The same for an object already in memory (data outlives the call only), with no debug
 * file: the fuzzer's and the tests' entry. */
int elf_symtab_read(struct elf_symtab *st, const unsigned char *data, size_t size);

/* The function holding addr (an object address) with the offset into it, or NULL: none
 * starts at or before addr, or addr lies past the end of the one that does. */
const struct elf_func *elf_symtab_lookup(const struct elf_symtab *st, uint64_t addr,
                                         uint64_t *offset);

void elf_symtab_free(struct elf_symtab *st);

/* The build-id of the first NT_GNU_BUILD_ID note among the notes at p[0, size) (a note
 * section's or segment's bytes, in the file or in memory) into id: its length, or 0 when
 * there is none or the notes are cut short. */
size_t elf_note_build_id(const unsigned char *p, uint64_t size, unsigned char id[ELF_BUILD_ID_MAX]);

#endif
