/* SPDX-License-Identifier: MIT */
/* find-libc.h: this process's libc as the loader mapped it (its path and load bias), for the
 * ELF tests that check what they read of the file against the running code. */
#ifndef TEST_FIND_LIBC_H
#define TEST_FIND_LIBC_H

#include <link.h>
#include <string.h>

/* dl_iterate_phdr's callback: copies libc's entry into *(struct dl_phdr_info *) data. */
static int find_libc(struct dl_phdr_info *info, size_t size, void *data)
{
	(void) size;
	const char *base = strrchr(info->dlpi_name, '/');
	if (!base || strncmp(base + 1, "libc.so", 7))
		return 0;
	*(struct dl_phdr_info *) data = *info;
	return 1;
}

#endif
