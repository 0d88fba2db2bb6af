/* SPDX-License-Identifier: MIT */
/* dirnames.h: the names in a folder, hidden ones left out, in strcmp order. */
#ifndef UTIL_DIRNAMES_H
#define UTIL_DIRNAMES_H

#include <stddef.h>

/* 0 and *names (malloc'd, each name too: dirnames_free), or -errno. */
int dirnames(const char *dir, char ***names, size_t *n);
void dirnames_free(char **names, size_t n);

#endif
