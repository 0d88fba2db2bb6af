/* SPDX-License-Identifier: MIT */
/*
 * cache-place.c: where a trace's timeline cache lives, and the fingerprint that tells
 * whether it is stale (cache.h).
 */
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "timeline/cache-format.h"
#include "timeline/cache.h"
#include "util/dirnames.h"

#define MAX_DEPTH 17 /* the reader searches folders 16 deep */

/* FNV-1a, 64 bits: a fingerprint, not a defence (who can write the trace can write the
 * cache beside it). */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}
#define FNV_START 0xcbf29ce484222325ull

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/* What the walk gathers: the hash, and the permissions every file grants. */
struct facts {
	uint64_t h;
	mode_t mode;
};

/* Every regular, non-hidden file under dir (rel: its path from the trace argument), in
 * name order: its path, size and mtime into the hash, its mode into the common one. */
static int walk(const char *dir, const char *rel, int depth, struct facts *f)
{
	char **names;
	size_t n;
	int rc = dirnames(dir, &names, &n);
	for (size_t i = 0; !rc && i < n; i++) {
		char path[PATH_MAX], sub[PATH_MAX];
		struct stat st;
		if (snprintf(path, sizeof(path), "%s/%s", dir, names[i]) >= (int) sizeof(path) ||
		    snprintf(sub, sizeof(sub), "%s/%s", rel, names[i]) >= (int) sizeof(sub))
			rc = -ENAMETOOLONG;
		else if (stat(path, &st))
			continue;
		else if (S_ISREG(st.st_mode)) {
			int64_t facts[3] = {(int64_t) st.st_size, (int64_t) st.st_mtim.tv_sec,
			                    (int64_t) st.st_mtim.tv_nsec};
			f->h = fnv(f->h, sub, strlen(sub) + 1);
			f->h = fnv(f->h, facts, sizeof(facts));
			f->mode &= st.st_mode;
		} else if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH) {
			rc = walk(path, sub, depth + 1, f);
		}
	}
	dirnames_free(names, n);
	return rc;
}

int tl_cache_facts_of(const char *const *paths, size_t npaths, uint64_t *fp, mode_t *mode)
{
	uint32_t version = TLC_VERSION;
	struct facts f = {fnv(FNV_START, &version, sizeof(version)), 0666};
	for (size_t i = 0; i < npaths; i++) {
		f.h = fnv(f.h, &i, sizeof(i));
		int rc = walk(paths[i], ".", 0, &f);
		if (rc)
			return rc;
	}
	*fp = f.h;
	if (mode)
		*mode = f.mode;
	return 0;
}

int tl_cache_fingerprint_of(const char *const *paths, size_t npaths, uint64_t *fp)
{
	return tl_cache_facts_of(paths, npaths, fp, NULL);
}

/* A hash of the sorted real paths, as 16 hex digits. */
static int paths_hash(const char *const *paths, size_t npaths, char hex[17])
{
	char **real = calloc(npaths ? npaths : 1, sizeof(*real));
	int rc = real ? 0 : -ENOMEM;
	for (size_t i = 0; !rc && i < npaths; i++)
		if (!(real[i] = realpath(paths[i], NULL)))
			rc = -errno;
	if (!rc) {
		qsort(real, npaths, sizeof(*real), str_cmp);
		uint64_t h = FNV_START;
		for (size_t i = 0; i < npaths; i++)
			h = fnv(h, real[i], strlen(real[i]) + 1);
		snprintf(hex, 17, "%016llx", (unsigned long long) h);
	}
	for (size_t i = 0; real && i < npaths; i++)
		free(real[i]);
	free(real);
	return rc;
}

/* $XDG_CACHE_HOME/spoor, else ~/.cache/spoor (malloc'd), or NULL. */
static char *user_folder(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	char *dir = NULL;
	if (xdg && xdg[0] == '/') {
		if (asprintf(&dir, "%s/spoor", xdg) < 0)
			dir = NULL;
		return dir;
	}
	const char *home = getenv("HOME");
	if (!home || home[0] != '/') {
		struct passwd *pw = getpwuid(geteuid());
		home = pw ? pw->pw_dir : NULL;
	}
	if (home && home[0] == '/' && asprintf(&dir, "%s/.cache/spoor", home) < 0)
		dir = NULL;
	return dir;
}

int tl_cache_places(const char *const *paths, size_t npaths, char **beside, char **user)
{
	char hex[17];
	*beside = *user = NULL;
	if (!npaths)
		return -EINVAL;
	int rc = paths_hash(paths, npaths, hex);
	if (rc)
		return rc;
	int n = npaths == 1 ? asprintf(beside, "%s/.spoor-view.cache", paths[0])
	                    : asprintf(beside, "%s/.spoor-view-%s.cache", paths[0], hex);
	if (n < 0) {
		*beside = NULL;
		return -ENOMEM;
	}
	char *dir = user_folder();
	if (dir && asprintf(user, "%s/view-%s.cache", dir, hex) < 0)
		*user = NULL;
	free(dir);
	return 0;
}
