/* SPDX-License-Identifier: MIT */
/* elf-hooks.c: the tracing hooks an object calls (see elf-hooks.h). */
#include <string.h>

#include "elf-hooks.h"
#include "elf-symbol.h"

#define SYM_SIZE  24 /* Elf64_Sym */
#define SHN_UNDEF 0

static const struct {
	const char *name;
	int hook;
} hook_symbols[] = {
    {"__cyg_profile_func_enter", ELF_HOOK_CYG},
    {"mcount", ELF_HOOK_MCOUNT},
    {"_mcount", ELF_HOOK_MCOUNT},
    {"__fentry__", ELF_HOOK_FENTRY},
};

static int undefined_hooks(struct elf_image *im)
{
	struct elf_section syms, strs;
	int rc = elf_image_dynsym(im, &syms, &strs);
	if (rc <= 0)
		return rc;
	int hooks = 0;
	for (uint64_t at = syms.off; at + SYM_SIZE <= syms.off + syms.size; at += SYM_SIZE) {
		const unsigned char *p = im->data + at;
		uint64_t noff = elf_rd(p, 4);
		if (elf_rd(p + 6, 2) != SHN_UNDEF || noff >= strs.size)
			continue;
		const char *n = (const char *) im->data + strs.off + noff;
		size_t room = strs.size - noff;
		for (size_t i = 0; i < sizeof(hook_symbols) / sizeof(hook_symbols[0]); i++) {
			size_t len = strlen(hook_symbols[i].name);
			if (room > len && !memcmp(n, hook_symbols[i].name, len + 1))
				hooks |= hook_symbols[i].hook;
		}
	}
	return hooks;
}

int elf_hooks_find(struct elf_image *im)
{
	int hooks = undefined_hooks(im);
	if (hooks < 0)
		return hooks;
	struct elf_section s;
	int rc = elf_image_section(im, "__patchable_function_entries", &s);
	if (rc < 0)
		return rc;
	if (rc && s.size)
		hooks |= ELF_HOOK_PATCHABLE;
	if ((rc = elf_image_section(im, "__mcount_loc", &s)) < 0)
		return rc;
	if (rc && s.size)
		hooks |= ELF_HOOK_MCOUNT_LOC;
	return hooks;
}
