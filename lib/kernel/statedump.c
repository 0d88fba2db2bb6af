/* SPDX-License-Identifier: MIT */
/* statedump.c: /proc's threads as statedump_process events (see statedump.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "statedump.h"

const struct spoor_field_desc statedump_fields[4] = {
    {.name = "tid", .kind = SPOOR_FK_INT, .size = 4, .is_signed = 1, .base = 10},
    {.name = "pid", .kind = SPOOR_FK_INT, .size = 4, .is_signed = 1, .base = 10},
    {.name = "ppid", .kind = SPOOR_FK_INT, .size = 4, .is_signed = 1, .base = 10},
    {.name = "name", .kind = SPOOR_FK_STRING},
};

/* comm and ppid from /proc/PID/task/TID/stat: "tid (comm) state ppid ...", where comm may
 * hold spaces and parentheses: it ends at the last ')'. */
static int read_stat(const char *path, char *comm, size_t cap, int *ppid)
{
	char buf[512];
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
	if (len >= cap)
		len = cap - 1;
	memcpy(comm, open + 1, len);
	comm[len] = '\0';
	char state;
	return sscanf(close + 1, " %c %d", &state, ppid) == 2 ? 0 : -1;
}

static void put_int(uint8_t *o, int64_t v, unsigned size)
{
	memcpy(o, &v, size); /* little-endian: the low bytes */
}

static int emit(struct kpacket *p, const struct kclasses *cs, uint32_t id, uint64_t ts, int tid,
                int pid, int ppid, const char *comm)
{
	size_t clen = strlen(comm) + 1;
	uint8_t *o = kpacket_begin_event(p, id, ts, 64 + 12 + clen);
	if (!o)
		return -1;
	uint8_t *start = o;
	for (size_t i = 0; i < cs->ncontext; i++) {
		const struct spoor_field_desc *f = &cs->context[i];
		put_int(o, !strcmp(f->name, "common_pid") ? tid : 0, f->size);
		o += f->size;
	}
	put_int(o, tid, 4);
	put_int(o + 4, pid, 4);
	put_int(o + 8, ppid, 4);
	memcpy(o + 12, comm, clen);
	kpacket_end_event(p, (size_t) (o + 12 + clen - start));
	return 0;
}

long statedump_write(struct kpacket *p, const struct kclasses *cs, uint32_t id, uint64_t ts,
                     const char *proc_root)
{
	long count = 0;
	DIR *procs = opendir(proc_root);
	if (!procs)
		return -1;
	struct dirent *pe;
	while ((pe = readdir(procs))) {
		char *end;
		long pid = strtol(pe->d_name, &end, 10);
		if (*end || pid <= 0)
			continue;
		char path[600];
		snprintf(path, sizeof(path), "%s/%ld/task", proc_root, pid);
		DIR *tasks = opendir(path);
		if (!tasks)
			continue; /* gone meanwhile */
		struct dirent *te;
		while ((te = readdir(tasks))) {
			long tid = strtol(te->d_name, &end, 10);
			if (*end || tid <= 0)
				continue;
			char comm[64];
			int ppid;
			snprintf(path, sizeof(path), "%s/%ld/task/%ld/stat", proc_root, pid, tid);
			if (read_stat(path, comm, sizeof(comm), &ppid))
				continue;
			if (emit(p, cs, id, ts, (int) tid, (int) pid, ppid, comm) == 0)
				count++;
		}
		closedir(tasks);
	}
	closedir(procs);
	return count;
}
