/* SPDX-License-Identifier: MIT */
/* upaths.c: uprobes that read the paths given to the C library (see upaths.h). */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf/elf-symbol.h"
#include "upaths.h"
#include "util/mapfile.h"

/* x86-64 SysV: arguments in di, si, dx, cx, r8. */
static const struct {
	const char *name, *args;
} calls[] = {
    {"open", "path=+0(%di):ustring flags=%si:s32"},
    {"openat", "dfd=%di:s32 path=+0(%si):ustring flags=%dx:s32"},
    {"creat", "path=+0(%di):ustring"},
    {"truncate", "path=+0(%di):ustring"},
    {"unlink", "path=+0(%di):ustring"},
    {"unlinkat", "dfd=%di:s32 path=+0(%si):ustring flags=%dx:s32"},
    {"rmdir", "path=+0(%di):ustring"},
    {"mkdir", "path=+0(%di):ustring"},
    {"mkdirat", "dfd=%di:s32 path=+0(%si):ustring"},
    {"rename", "path=+0(%di):ustring newpath=+0(%si):ustring"},
    {"renameat", "dfd=%di:s32 path=+0(%si):ustring newdfd=%dx:s32 newpath=+0(%cx):ustring"},
    {"renameat2", "dfd=%di:s32 path=+0(%si):ustring newdfd=%dx:s32 newpath=+0(%cx):ustring "
                  "flags=%r8:u32"},
};
#define NCALLS (sizeof(calls) / sizeof(calls[0]))

const char *const upaths_functions[] = {
    "open",  "openat",  "creat",  "truncate", "unlink",    "unlinkat", "rmdir",
    "mkdir", "mkdirat", "rename", "renameat", "renameat2", NULL,
};

struct upaths {
	char root[512], group[64];
	bool made[NCALLS];
};

bool upaths_pattern(const char *p)
{
	size_t n = strlen(UPATHS_SYSTEM);
	return !strncmp(p, UPATHS_SYSTEM, n) && (!p[n] || p[n] == ':');
}

static int find_libc(struct dl_phdr_info *info, size_t size, void *data)
{
	(void) size;
	const char *base = strrchr(info->dlpi_name, '/');
	if (base && !strncmp(base + 1, "libc.so", 7)) {
		snprintf(data, 512, "%s", info->dlpi_name);
		return 1;
	}
	return 0;
}

static int write_probe(const char *root, const char *line)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/uprobe_events", root);
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t n = strlen(line);
	int rc = write(fd, line, n) == (ssize_t) n ? 0 : -errno;
	close(fd);
	return rc;
}

static void remove_probe(const char *root, const char *group, const char *name)
{
	char line[256];
	snprintf(line, sizeof(line), "-:%s/%s_%s\n", group, UPATHS_SYSTEM, name);
	write_probe(root, line);
}

static bool wanted(const char *const *patterns, size_t n, const char *name, bool *used)
{
	bool hit = false;
	for (size_t i = 0; i < n; i++) {
		if (!upaths_pattern(patterns[i]))
			continue;
		const char *fn = patterns[i] + strlen(UPATHS_SYSTEM);
		if (!*fn || !fnmatch(fn + 1, name, 0)) {
			used[i] = true;
			hit = true;
		}
	}
	return hit;
}

static int add_event(struct kevent_list *l, const char *group, const char *name)
{
	if (l->n == l->cap) {
		size_t cap = l->cap * 2 + 4;
		struct kevent_ref *v = realloc(l->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	char full[64];
	snprintf(full, sizeof(full), "%s_%s", UPATHS_SYSTEM, name);
	l->v[l->n].system = strdup(group);
	l->v[l->n].name = strdup(full);
	if (!l->v[l->n].system || !l->v[l->n].name)
		return -ENOMEM;
	l->n++;
	return 0;
}

/* Each wanted function's probe: at its file offset in the C library spoor itself uses. */
static int make(struct upaths *u, const char *const *patterns, size_t n, bool *used,
                struct kevent_list *events, char *err, size_t errlen)
{
	char libc[512] = "";
	struct mapfile mf;
	struct elf_image im;

	dl_iterate_phdr(find_libc, libc);
	int rc = libc[0] ? mapfile_open(&mf, libc) : -ENOENT;
	if (rc) {
		snprintf(err, errlen, "cannot read the C library (%s): %s", libc[0] ? libc : "?",
		         strerror(-rc));
		return rc;
	}
	if ((rc = elf_image_open(&im, mf.data, mf.size)))
		snprintf(err, errlen, "%s: %s", libc, im.err);
	for (size_t c = 0; !rc && c < NCALLS; c++) {
		uint64_t vaddr, off;
		if (!wanted(patterns, n, calls[c].name, used))
			continue;
		int found = elf_image_function(&im, calls[c].name, &vaddr, &off);
		if (found <= 0)
			continue; /* this C library lacks it */
		char line[512];
		snprintf(line, sizeof(line), "p:%s/%s_%s %s:0x%llx %s\n", u->group, UPATHS_SYSTEM,
		         calls[c].name, libc, (unsigned long long) off, calls[c].args);
		if ((rc = write_probe(u->root, line))) {
			snprintf(err, errlen,
			         "cannot add a uprobe on %s's %s (%s/uprobe_events): %s%s", libc,
			         calls[c].name, u->root, strerror(-rc),
			         rc == -ENOENT ? " (a kernel without CONFIG_UPROBE_EVENTS)" : "");
			break;
		}
		u->made[c] = true;
		rc = add_event(events, u->group, calls[c].name);
	}
	elf_image_close(&im);
	mapfile_close(&mf);
	return rc;
}

int upaths_create(struct upaths **out, const char *root, const char *group,
                  const char *const *patterns, size_t n, struct kevent_list *events, char *err,
                  size_t errlen)
{
	struct upaths *u = calloc(1, sizeof(*u));
	bool *used = calloc(n + 1, sizeof(*used));
	int rc = u && used ? 0 : -ENOMEM;

	*out = NULL;
	if (!rc) {
		snprintf(u->root, sizeof(u->root), "%s", root);
		snprintf(u->group, sizeof(u->group), "%s", group);
		rc = make(u, patterns, n, used, events, err, errlen);
	}
	for (size_t i = 0; !rc && i < n; i++)
		if (upaths_pattern(patterns[i]) && !used[i]) {
			snprintf(err, errlen,
			         "no C library function matches '%s' (spoor list -k shows the libc "
			         "events)",
			         patterns[i]);
			rc = -ENOENT;
		}
	free(used);
	if (rc) {
		upaths_remove(u);
		return rc;
	}
	*out = u;
	return 0;
}

void upaths_remove(struct upaths *u)
{
	if (!u)
		return;
	for (size_t c = 0; c < NCALLS; c++)
		if (u->made[c])
			remove_probe(u->root, u->group, calls[c].name);
	free(u);
}

void upaths_remove_stale(const char *root)
{
	char path[600], line[1024];
	snprintf(path, sizeof(path), "%s/uprobe_events", root);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	char stale[64][128];
	size_t n = 0;
	while (n < 64 && fgets(line, sizeof(line), f)) {
		int pid;
		char *slash = strchr(line, '/'), *space = strchr(line, ' ');
		if (strncmp(line, "p:spoor_", 8) || !slash || !space || space < slash ||
		    sscanf(line + 8, "%d_", &pid) != 1 || kill(pid, 0) == 0 || errno != ESRCH)
			continue; /* not spoor's, or its spoor is alive */
		snprintf(stale[n++], sizeof(stale[0]), "-:%.*s\n", (int) (space - line - 2),
		         line + 2);
	}
	fclose(f);
	for (size_t i = 0; i < n; i++)
		write_probe(root, stale[i]);
}
