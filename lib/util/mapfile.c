/* SPDX-License-Identifier: MIT */
/* mapfile.c: mmap a file for reading; the reader never writes to its input. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mapfile.h"

int mapfile_open(struct mapfile *mf, const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	mf->data = NULL;
	mf->size = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		int rc = -errno;
		close(fd);
		return rc;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if (st.st_size > 0) {
		void *p = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			int rc = -errno;
			close(fd);
			return rc;
		}
		madvise(p, (size_t) st.st_size, MADV_SEQUENTIAL);
		mf->data = p;
		mf->size = (size_t) st.st_size;
	}
	close(fd);
	return 0;
}

void mapfile_close(struct mapfile *mf)
{
	if (mf->data)
		munmap((void *) mf->data, mf->size);
	mf->data = NULL;
	mf->size = 0;
}
