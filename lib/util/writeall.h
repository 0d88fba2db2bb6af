/* SPDX-License-Identifier: MIT */
/* writeall.h: write a whole buffer to a file, across short writes and signals. */
#ifndef UTIL_WRITEALL_H
#define UTIL_WRITEALL_H

#include <stddef.h>

/* 0, or -errno (-ENOSPC when the file takes nothing more). */
int write_all(int fd, const void *buf, size_t n);

#endif
