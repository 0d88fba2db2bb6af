/* SPDX-License-Identifier: MIT */
/*
 * loadmap.c: the objects mapped in the process (program, libraries, vDSO), as LTTng-UST
 * records them, so that addresses in function events resolve to names after the fact:
 * at start every object (lttng_ust_statedump:start, bin_info, build_id, end), after each
 * dlopen the objects new since the last look (lttng_ust_dl:dlopen, build_id: a library's
 * dependencies too), after each dlclose those gone (lttng_ust_dl:dlclose).
 * baddr is where the first loadable segment is mapped, memsz the span of the loadable
 * segments, both from the headers in memory; the build-id from the note in memory.
 * has_debug_link is always 0 (the .gnu_debuglink section is not mapped).
 */
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calls-tp.h"
#include "calls.h"
#include "elf/elf-symtab.h"

struct object {
	uint64_t bias, baddr, memsz;
	uint8_t is_pic, idlen;
	uint8_t id[ELF_BUILD_ID_MAX];
	char *path;
};

struct objects {
	struct object *v;
	size_t n, cap;
	bool exe_seen;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t *known; /* the baddr of each object last seen */
static size_t nknown;

static void build_id(const struct dl_phdr_info *info, struct object *o)
{
	for (int j = 0; j < info->dlpi_phnum && !o->idlen; j++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[j];
		if (ph->p_type == PT_NOTE)
			o->idlen = (uint8_t) elf_note_build_id(
			    (const unsigned char *) (info->dlpi_addr + ph->p_vaddr), ph->p_memsz,
			    o->id);
	}
}

/* In the loader's lock: only gather (an event could make the thread's ring, which takes
 * locks of its own). */
static int gather(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct objects *os = arg;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int j = 0; j < info->dlpi_phnum; j++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[j];
		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_vaddr < lo)
			lo = ph->p_vaddr;
		if (ph->p_vaddr + ph->p_memsz > hi)
			hi = ph->p_vaddr + ph->p_memsz;
	}
	if (hi <= lo)
		return 0;
	if (os->n == os->cap) {
		size_t cap = os->cap ? 2 * os->cap : 32;
		struct object *bigger = realloc(os->v, cap * sizeof(*bigger));
		if (!bigger)
			return 1;
		os->v = bigger;
		os->cap = cap;
	}
	struct object *o = &os->v[os->n];
	*o = (struct object){
	    .bias = info->dlpi_addr, .baddr = info->dlpi_addr + lo, .memsz = hi - lo};
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *) o->baddr; /* offset 0 is mapped first */
	o->is_pic = !memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_type == ET_DYN;
	build_id(info, o);
	char path[PATH_MAX];
	const char *name = info->dlpi_name;
	if (!name || !*name) { /* the program comes first; any other nameless one: a vDSO */
		ssize_t n = os->exe_seen ? -1 : readlink("/proc/self/exe", path, sizeof(path) - 1);
		os->exe_seen = true;
		if (n > 0)
			path[n] = '\0';
		else
			strcpy(path, "[vdso]");
	} else if (!realpath(name, path)) {
		snprintf(path, sizeof(path), "[%s]", name);
	}
	if (!(o->path = strdup(path)))
		return 1;
	os->n++;
	return 0;
}

static void gather_all(struct objects *os)
{
	*os = (struct objects){0};
	dl_iterate_phdr(gather, os);
}

static void free_all(struct objects *os)
{
	for (size_t i = 0; i < os->n; i++)
		free(os->v[i].path);
	free(os->v);
}

/* known := the objects of os. */
static void remember(const struct objects *os)
{
	uint64_t *v = realloc(known, (os->n ? os->n : 1) * sizeof(*v));
	if (!v)
		return;
	known = v;
	for (size_t i = 0; i < os->n; i++)
		known[i] = os->v[i].baddr;
	nknown = os->n;
}

static bool listed(const struct objects *os, uint64_t baddr)
{
	for (size_t i = 0; i < os->n; i++)
		if (os->v[i].baddr == baddr)
			return true;
	return false;
}

static bool was_known(uint64_t baddr)
{
	for (size_t i = 0; i < nknown; i++)
		if (known[i] == baddr)
			return true;
	return false;
}

void calls_loadmap_start(void)
{
	struct objects os;
	pthread_mutex_lock(&lock);
	gather_all(&os);
	spoor_trace(lttng_ust_statedump, start);
	for (size_t i = 0; i < os.n; i++) {
		const struct object *o = &os.v[i];
		spoor_trace(lttng_ust_statedump, bin_info, o->baddr, o->memsz, o->path, o->is_pic,
		            o->idlen > 0, 0);
		if (o->idlen)
			spoor_trace(lttng_ust_statedump, build_id, o->baddr, o->id, o->idlen);
	}
	spoor_trace(lttng_ust_statedump, end);
	remember(&os);
	for (size_t i = 0; i < os.n; i++)
		calls_patch_object(os.v[i].bias, os.v[i].path);
	pthread_mutex_unlock(&lock);
	free_all(&os);
}

void calls_loadmap_update(int flags, bool opened)
{
	struct objects os;
	pthread_mutex_lock(&lock);
	gather_all(&os);
	if (opened)
		for (size_t i = 0; i < os.n; i++) {
			const struct object *o = &os.v[i];
			if (was_known(o->baddr))
				continue;
			spoor_trace(lttng_ust_dl, dlopen, o->baddr, o->memsz, flags, o->path,
			            o->idlen > 0, 0);
			if (o->idlen)
				spoor_trace(lttng_ust_dl, build_id, o->baddr, o->id, o->idlen);
			calls_patch_object(o->bias, o->path);
		}
	else
		for (size_t i = 0; i < nknown; i++)
			if (!listed(&os, known[i]))
				spoor_trace(lttng_ust_dl, dlclose, known[i]);
	remember(&os);
	pthread_mutex_unlock(&lock);
	free_all(&os);
}
