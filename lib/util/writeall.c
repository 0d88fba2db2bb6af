/* SPDX-License-Identifier: MIT */
#include "writeall.h"

#include <errno.h>
#include <unistd.h>

int write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w ? -errno : -ENOSPC;
		p += w;
		n -= (size_t) w;
	}
	return 0;
}
