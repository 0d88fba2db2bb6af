/* SPDX-License-Identifier: MIT */
/* partitions.c: /proc/partitions saved with the kernel trace (see partitions.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "partitions.h"

int partitions_write(const char *kernel_trace_dir)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", kernel_trace_dir, PARTITIONS_FILE);
	FILE *in = fopen("/proc/partitions", "re");
	if (!in)
		return -errno;
	FILE *out = fopen(path, "we");
	if (!out) {
		int rc = -errno;
		fclose(in);
		return rc;
	}
	char buf[4096];
	size_t n;
	int rc = 0;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n) {
			rc = errno ? -errno : -EIO;
			break;
		}
	if (!rc && ferror(in))
		rc = -EIO;
	if (fclose(out) && !rc)
		rc = errno ? -errno : -EIO;
	fclose(in);
	if (rc)
		unlink(path);
	return rc;
}
