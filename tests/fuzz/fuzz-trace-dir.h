/* SPDX-License-Identifier: MIT */
/*
 * fuzz-trace-dir.h: what the fuzz targets that read a whole trace share (fuzz-packets,
 * fuzz-analyses). Include it once, from the target's source file, after defining FUZZ_NAME.
 *
 *   - A per-process temporary trace directory, $TMPDIR/spoor-FUZZ_NAME.PID.XXXXXX, holding
 *     the target's fixed metadata and one stream file (channel0_0) that each input
 *     overwrites: trace_dir_init() once, write_file(stream_path, ...) per input. It is
 *     removed at exit; a crash leaves it behind, so that dead processes' directories are
 *     removed at the next start.
 *   - The stream file held in a malloc'd buffer of exactly its size rather than an mmap'd one
 *     (the target links with -Wl,--wrap=mapfile_open,--wrap=mapfile_close, see meson.build),
 *     so that AddressSanitizer sees any read past the end of the file: an mmap'd file stays
 *     readable, as zeros, up to the end of its last page.
 */
#ifndef FUZZ_TRACE_DIR_H
#define FUZZ_TRACE_DIR_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/mapfile.h"

#ifndef FUZZ_NAME
#error "define FUZZ_NAME (the target's name) before including fuzz-trace-dir.h"
#endif

/* ---- reading the stream file from the heap ---- */

int __real_mapfile_open(struct mapfile *mf, const char *path);
void __real_mapfile_close(struct mapfile *mf);
int __wrap_mapfile_open(struct mapfile *mf, const char *path);
void __wrap_mapfile_close(struct mapfile *mf);

int __wrap_mapfile_open(struct mapfile *mf, const char *path)
{
	int rc = __real_mapfile_open(mf, path);

	if (rc || !mf->size)
		return rc;
	size_t size = mf->size;
	unsigned char *copy = malloc(size);
	if (!copy) {
		__real_mapfile_close(mf);
		return -ENOMEM;
	}
	memcpy(copy, mf->data, size);
	__real_mapfile_close(mf);
	mf->data = copy;
	mf->size = size;
	return 0;
}

void __wrap_mapfile_close(struct mapfile *mf)
{
	free((void *) mf->data);
	mf->data = NULL;
	mf->size = 0;
}

/* ---- the trace directory ---- */

static char dir_path[4096], meta_path[4200], stream_path[4200];

static void cleanup(void)
{
	if (stream_path[0])
		unlink(stream_path);
	if (meta_path[0])
		unlink(meta_path);
	if (dir_path[0])
		rmdir(dir_path);
}

static void die(const char *what)
{
	fprintf(stderr, FUZZ_NAME ": %s: %s\n", what, strerror(errno));
	abort();
}

static void write_file(const char *path, const void *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	const unsigned char *p = data;

	if (fd < 0)
		die(path);
	while (size) {
		ssize_t n = write(fd, p, size);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die(path);
		p += n;
		size -= (size_t) n;
	}
	if (close(fd))
		die(path);
}

/* A crash ends the process without atexit handlers: remove the directories that earlier,
 * dead processes left behind (their pid is in the name). */
static void remove_stale_dirs(const char *tmp)
{
	static const char *const files[] = {"metadata", "channel0_0"};
	DIR *d = opendir(tmp);
	struct dirent *de;
	char path[4200];

	if (!d)
		return;
	while ((de = readdir(d))) {
		long pid;
		int end = 0;
		if (sscanf(de->d_name, "spoor-" FUZZ_NAME ".%ld.%*6[A-Za-z0-9]%n", &pid, &end) !=
		        1 ||
		    !end || de->d_name[end] || pid <= 0)
			continue;
		if (kill((pid_t) pid, 0) == 0 || errno != ESRCH)
			continue; /* the process still runs */
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			snprintf(path, sizeof(path), "%s/%s/%s", tmp, de->d_name, files[i]);
			unlink(path);
		}
		snprintf(path, sizeof(path), "%s/%s", tmp, de->d_name);
		rmdir(path);
	}
	closedir(d);
}

/* Make this process's directory and write the metadata there (from LLVMFuzzerInitialize). */
static void trace_dir_init(const char *metadata, size_t size)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	remove_stale_dirs(tmp);
	snprintf(dir_path, sizeof(dir_path), "%s/spoor-" FUZZ_NAME ".%ld.XXXXXX", tmp,
	         (long) getpid());
	if (!mkdtemp(dir_path)) {
		dir_path[0] = '\0';
		die("mkdtemp");
	}
	atexit(cleanup);
	snprintf(meta_path, sizeof(meta_path), "%s/metadata", dir_path);
	snprintf(stream_path, sizeof(stream_path), "%s/channel0_0", dir_path);
	write_file(meta_path, metadata, size);
}

#endif
