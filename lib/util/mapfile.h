/* SPDX-License-Identifier: MIT */
/* mapfile.h: a whole file mapped read-only (empty files give size 0 and no mapping). */
#ifndef UTIL_MAPFILE_H
#define UTIL_MAPFILE_H

#include <stddef.h>

struct mapfile {
	const unsigned char *data;
	size_t size;
};

int mapfile_open(struct mapfile *mf, const char *path);
/* The regular file open at fd (which stays the caller's, open or closed). */
int mapfile_map_fd(struct mapfile *mf, int fd);
void mapfile_close(struct mapfile *mf);

#endif
