/* SPDX-License-Identifier: MIT */
/* elf-hooks.h: which function-tracing hooks an ELF object was built with, from its file
 * (untrusted: elf-image.h's rules): `spoor record --calls` refuses a program built with
 * none before running it, and libspoor-calls finds the sites it patches. */
#ifndef ELF_ELF_HOOKS_H
#define ELF_ELF_HOOKS_H

#include "elf-image.h"

enum {
	ELF_HOOK_CYG = 1,        /* -finstrument-functions: __cyg_profile_func_enter */
	ELF_HOOK_MCOUNT = 2,     /* -pg: mcount (or _mcount) */
	ELF_HOOK_FENTRY = 4,     /* -pg -mfentry: __fentry__ */
	ELF_HOOK_PATCHABLE = 8,  /* -fpatchable-function-entry: __patchable_function_entries */
	ELF_HOOK_MCOUNT_LOC = 16 /* -mnop-mcount -mrecord-mcount: __mcount_loc */
};

/* The ELF_HOOK_* bits of the object (its undefined dynamic symbols and its sections): 0 or
 * more, or a negative code. */
int elf_hooks_find(struct elf_image *im);

#endif
