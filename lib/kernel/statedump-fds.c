/* SPDX-License-Identifier: MIT */
/*
 * statedump-fds.c: a process's open files as lttng_statedump_file_descriptor events, in
 * descriptor order: the path /proc/PID/fd/N links to (what the kernel's d_path gives
 * lttng-modules: "socket:[...]", "pipe:[...]", "anon_inode:..." for those), the open flags
 * from /proc/PID/fdinfo/N (close-on-exec included, as lttng-modules adds it), and the file
 * mode's read and write bits, which those flags give (the kernel's other f_mode bits are
 * not in /proc).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "statedump-lttng-int.h"

#define FMODE_READ      0x1
#define FMODE_WRITE     0x2
#define FMODE_PATH      0x4000
#define FMODE_NONOTIFY_ 0x4000000 /* lttng-modules leaves this internal flag out */

static unsigned int read_flags(const char *proc, int pid, int fd)
{
	char path[600], line[256];
	unsigned int flags = 0;
	snprintf(path, sizeof(path), "%s/%d/fdinfo/%d", proc, pid, fd);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "flags: %o", &flags) == 1)
			break;
	if (f)
		fclose(f);
	return flags & ~(unsigned int) FMODE_NONOTIFY_;
}

static unsigned int fmode_of(unsigned int flags)
{
	if (flags & O_PATH)
		return FMODE_PATH;
	switch (flags & O_ACCMODE) {
	case O_RDONLY: return FMODE_READ;
	case O_WRONLY: return FMODE_WRITE;
	default: return FMODE_READ | FMODE_WRITE;
	}
}

static int by_number(const void *a, const void *b)
{
	int x = *(const int *) a, y = *(const int *) b;
	return (x > y) - (x < y);
}

void sdl_file_descriptors(struct sdl *d, const struct proc_task *t, int64_t file_table)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/%d/fd", d->roots->proc, t->pid);
	DIR *dir = opendir(path);
	if (!dir)
		return; /* gone, or not ours to read */
	int *fds = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);
		if (*end || fd < 0 || e->d_name[0] == '\0')
			continue;
		if (n == cap) {
			int *v = realloc(fds, (cap = cap * 2 + 64) * sizeof(*v));
			if (!v)
				break;
			fds = v;
		}
		fds[n++] = (int) fd;
	}
	closedir(dir);
	if (n)
		qsort(fds, n, sizeof(*fds), by_number);
	for (size_t i = 0; i < n; i++) {
		char link[600], target[4096];
		snprintf(link, sizeof(link), "%s/%d/fd/%d", d->roots->proc, t->pid, fds[i]);
		ssize_t len = readlink(link, target, sizeof(target) - 1);
		if (len < 0)
			continue; /* closed meanwhile */
		target[len] = '\0';
		unsigned int flags = read_flags(d->roots->proc, t->pid, fds[i]);
		union ksynth_val v[] = {{.i = file_table},      {.i = fds[i]}, {.i = flags},
		                        {.i = fmode_of(flags)}, {.s = target}, {.i = t->pid}};
		sdl_emit(d, SDL_FILE_DESCRIPTOR, t->tid, v);
	}
	free(fds);
}
