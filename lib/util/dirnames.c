/* SPDX-License-Identifier: MIT */
/* dirnames.c: a folder's non-hidden names, sorted (dirnames.h). */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dirnames.h"

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

int dirnames(const char *dir, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	char **v = NULL;
	size_t cap = 0;
	int rc = 0;
	struct dirent *de;

	*names = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 16;
			char **bigger = realloc(v, cap * sizeof(*v));
			if (!bigger) {
				rc = -ENOMEM;
				break;
			}
			v = bigger;
		}
		if (!(v[*n] = strdup(de->d_name))) {
			rc = -ENOMEM;
			break;
		}
		++*n;
	}
	closedir(d);
	if (rc) {
		dirnames_free(v, *n);
		*n = 0;
		return rc;
	}
	if (*n)
		qsort(v, *n, sizeof(*v), name_cmp);
	*names = v;
	return 0;
}

void dirnames_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}
