/* SPDX-License-Identifier: MIT */
/* procwalk.c: /proc's threads and their stat files (see procwalk.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procwalk.h"

/* "tid (comm) state ppid pgrp session tty tpgid flags ... processor ...": comm may hold
 * spaces and parentheses, so it ends at the last ')'; processor is the 39th field. */
static int read_stat(const char *dir, struct proc_task *t)
{
	char buf[1024], path[760];
	snprintf(path, sizeof(path), "%s/stat", dir);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *open = strchr(buf, '('), *close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return -1;
	size_t len = (size_t) (close - open - 1);
	if (len >= sizeof(t->comm))
		len = sizeof(t->comm) - 1;
	memcpy(t->comm, open + 1, len);
	t->comm[len] = '\0';
	if (sscanf(close + 1, " %c %d %*d %*d %*d %*d %lu", &t->state, &t->ppid, &t->flags) != 3)
		return -1;
	char *p = close + 2; /* at the state: field 3 */
	t->cpu = -1;
	for (int field = 3; p && field < 39; field++)
		if ((p = strchr(p, ' ')))
			p++;
	if (p)
		t->cpu = atoi(p);
	return 0;
}

static int read_list(const char *s, int *v)
{
	int n = 0;
	char *end;
	for (long x; n < PROC_NS_LEVELS && (x = strtol(s, &end, 10), end != s); s = end)
		v[n++] = (int) x;
	return n;
}

int proc_status(const char *dir, struct proc_status *st)
{
	char path[700], line[512];
	snprintf(path, sizeof(path), "%s/status", dir);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	*st = (struct proc_status){0};
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "NSpid:", 6))
			st->levels = read_list(line + 6, st->nspid);
		else if (!strncmp(line, "NStgid:", 7))
			read_list(line + 7, st->nstgid);
		else if (!strncmp(line, "Uid:", 4))
			st->uid = (unsigned int) strtoul(line + 4, NULL, 10); /* the real id */
		else if (!strncmp(line, "Gid:", 4))
			st->gid = (unsigned int) strtoul(line + 4, NULL, 10);
	}
	fclose(f);
	return st->levels ? 0 : -1;
}

static int by_number(const void *a, const void *b)
{
	long x = *(const long *) a, y = *(const long *) b;
	return (x > y) - (x < y);
}

/* A directory's positive numeric names, sorted (the order /proc gives them in, and
 * lttng-modules' roughly: its processes by creation, their threads leader first);
 * NULL when it cannot be read. */
static long *numbers(const char *path, size_t *n)
{
	DIR *dir = opendir(path);
	if (!dir)
		return NULL;
	size_t cap = 256;
	long *v = malloc(cap * sizeof(*v));
	struct dirent *e;
	*n = 0;
	while (v && (e = readdir(dir))) {
		char *end;
		long x = strtol(e->d_name, &end, 10);
		if (*end || x <= 0)
			continue;
		if (*n == cap) {
			long *w = realloc(v, (cap *= 2) * sizeof(*v));
			if (!w) {
				free(v);
				v = NULL;
				break;
			}
			v = w;
		}
		v[(*n)++] = x;
	}
	closedir(dir);
	if (v && *n)
		qsort(v, *n, sizeof(*v), by_number);
	return v;
}

static long walk_process(const char *proc_root, long pid,
                         int (*fn)(const struct proc_task *t, void *data), void *data)
{
	char path[600], dir[700];
	size_t n;
	snprintf(path, sizeof(path), "%s/%ld/task", proc_root, pid);
	long *tids = numbers(path, &n);
	if (!tids)
		return 0; /* gone meanwhile */
	long count = 0;
	bool first = true;
	for (size_t i = 0; i < n; i++) {
		struct proc_task t = {.tid = (int) tids[i], .pid = (int) pid, .dir = dir};
		snprintf(dir, sizeof(dir), "%s/%ld", path, tids[i]);
		if (read_stat(dir, &t))
			continue;
		t.first = first;
		first = false;
		if (fn(&t, data) == 0)
			count++;
	}
	free(tids);
	return count;
}

long proc_walk(const char *proc_root, int (*fn)(const struct proc_task *t, void *data), void *data)
{
	size_t n;
	long *pids = numbers(proc_root, &n);
	if (!pids)
		return -1;
	long count = 0;
	for (size_t i = 0; i < n; i++)
		count += walk_process(proc_root, pids[i], fn, data);
	free(pids);
	return count;
}
