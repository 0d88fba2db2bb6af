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
	/* O_NONBLOCK: a FIFO in the file's place is refused, not waited on */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	mf->data = NULL;
	mf->size = 0;
	if (fd < 0)
		return -errno;
	int rc = mapfile_map_fd(mf, fd);
	close(fd);
	return rc;
}

int mapfile_map_fd(struct mapfile *mf, int fd)
{
	struct stat st;

	mf->data = NULL;
	mf->size = 0;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	if (st.st_size > 0) {
		void *p = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED)
			return -errno;
		madvise(p, (size_t) st.st_size, MADV_SEQUENTIAL);
		mf->data = p;
		mf->size = (size_t) st.st_size;
	}
	return 0;
}

void mapfile_close(struct mapfile *mf)
{
	if (mf->data)
		munmap((void *) mf->data, mf->size);
	mf->data = NULL;
	mf->size = 0;
}
