/* SPDX-License-Identifier: MIT */
/*
 * patch.c: -fpatchable-function-entry=5 and -pg -mfentry -mnop-mcount -mrecord-mcount: the
 * compiler leaves 5 bytes of nops at each function's entry and the linker lists them
 * (__patchable_function_entries; __mcount_loc), so a program ships with tracing compiled in
 * and pays a few nops per call while it is off. When tracing starts, and in each object a
 * dlopen brings, the nops of every function the filters let through become a jump to the
 * function's thunk (mcount.h), mapped near the object (a jump reaches +-2 GiB), which
 * calls the hooks (mcount.S) and the function's body so that every return is predicted;
 * functions filtered out keep their nops: they cost nothing.
 *
 * The sites are patched while the object's text is writable for a moment. At start the
 * program runs only its constructors; after a dlopen, a thread already running the new
 * library's code (its constructors may have started one) could be inside a function's
 * nops as they change: not guarded against.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elf/elf-image.h"
#include "mcount.h"
#include "util/mapfile.h"

static const unsigned char nops5[5] = {0x90, 0x90, 0x90, 0x90, 0x90}; /* gcc's */
/* nopl disp8(%rax,%rax,1), any displacement: -mnop-mcount's, clang's patchable entry (8) */
static const unsigned char nopl5[4] = {0x0f, 0x1f, 0x44, 0x00};

/* The section's run-time address and size in the object mapped with load bias `bias`: 1,
 * or 0 when it has none. */
static int find_sites(struct elf_image *im, uint64_t bias, const char *name, uint64_t **v,
                      size_t *n)
{
	struct elf_section s;
	if (elf_image_section(im, name, &s) != 1 || !s.addr || s.size < 8)
		return 0;
	*v = (uint64_t *) (bias + s.addr); /* the loader relocated its pointers */
	*n = s.size / 8;
	return 1;
}

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

uint64_t calls_thunk_areas[CALLS_THUNK_AREAS][2];
unsigned calls_nthunk_areas;

/* Bytes within a jump's reach of [lo, hi), writable: asked for below the object, then
 * further down, then above it. */
static unsigned char *area_near(uint64_t lo, uint64_t hi, size_t bytes)
{
	uint64_t page = (uint64_t) sysconf(_SC_PAGESIZE), reach = (1ull << 31) - (1ull << 20);
	for (int k = 0; k < 16; k++) {
		uint64_t off = ((1ull << 20) << (k % 8)) + bytes; /* 1 MiB .. 128 MiB away */
		uint64_t want = k < 8 ? (lo > off ? lo - off : 0) : hi + off;
		unsigned char *p = mmap((void *) (want & ~(page - 1)), bytes,
		                        PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		uint64_t a = (uint64_t) p, b = a + bytes;
		if (distance(a, lo) < reach && distance(b, hi) < reach && distance(a, hi) < reach &&
		    distance(b, lo) < reach)
			return p;
		munmap(p, bytes);
	}
	return NULL;
}

static void put_rel32(unsigned char *at, unsigned char op, uint64_t to)
{
	int32_t rel = (int32_t) ((int64_t) to - (int64_t) ((uint64_t) at + 5));
	at[0] = op;
	memcpy(at + 1, &rel, 4);
}

/* `jmp *0(%rip); .quad to` */
static void put_far_jump(unsigned char *at, uint64_t to)
{
	static const unsigned char jmp[6] = {0xff, 0x25, 0, 0, 0, 0};
	memcpy(at, jmp, sizeof(jmp));
	memcpy(at + 6, &to, 8);
}

/* The thunk of the function whose patched entry is at site (mcount.h): its calls go to the
 * jumps at the area's start. */
static void put_thunk(unsigned char *t, const unsigned char *area, uint64_t site)
{
	static const unsigned char up[5] = {0x48, 0x8d, 0x64, 0x24, 0x08};   /* lea 8(%rsp) */
	static const unsigned char down[5] = {0x48, 0x8d, 0x64, 0x24, 0xf8}; /* lea -8(%rsp) */
	memset(t, 0xcc, CALLS_THUNK_BYTES);                                  /* int3 */
	put_rel32(t, 0xe8, (uint64_t) area);
	memcpy(t + 5, up, 5);
	put_rel32(t + 10, 0xe8, site + 5);
	memcpy(t + CALLS_THUNK_RETURN, down, 5);
	put_rel32(t + 20, 0xe8, (uint64_t) area + CALLS_THUNK_BYTES);
	t[25] = 0xc3; /* ret */
}

/* The nops of a listed site, or NULL. clang's -fsanitize=function puts the function's
 * signature first, jumped over (`jmp .+8`): the list has the function's start, the nops
 * follow the signature. */
static unsigned char *nops_at(unsigned char *site)
{
	if (site && site[0] == 0xeb && site[1] == 0x06)
		site += 8;
	return site && (!memcmp(site, nops5, 5) || !memcmp(site, nopl5, 4)) ? site : NULL;
}

/* Patch the sites of one list: those the filters let through and that hold the nops. */
static unsigned patch_sites(const uint64_t *v, size_t n)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t site = (uint64_t) nops_at((unsigned char *) v[i]);
		if (site) {
			lo = site < lo ? site : lo;
			hi = site + 5 > hi ? site + 5 : hi;
			count++;
		}
	}
	if (lo >= hi || calls_nthunk_areas == CALLS_THUNK_AREAS)
		return 0;
	long page = sysconf(_SC_PAGESIZE);
	size_t bytes = ((count + 2) * CALLS_THUNK_BYTES + (size_t) page - 1) & ~(size_t) (page - 1);
	unsigned char *area = area_near(lo, hi, bytes);
	if (!area)
		return 0;
	uint64_t first = lo & ~(uint64_t) (page - 1);
	size_t len = (size_t) (hi - first);
	if (mprotect((void *) first, len, PROT_READ | PROT_WRITE | PROT_EXEC)) {
		munmap(area, bytes);
		return 0;
	}
	put_far_jump(area, (uint64_t) calls_thunk_entry);
	put_far_jump(area + CALLS_THUNK_BYTES, (uint64_t) calls_thunk_exit);
	unsigned char *t = area + 2 * CALLS_THUNK_BYTES;
	for (size_t i = 0; i < n; i++) {
		unsigned char *site = nops_at((unsigned char *) v[i]);
		if (!site)
			continue;
		if (!(calls_decide(calls_entry_of((uint64_t) site)) & CALLS_TRACE))
			continue;
		put_thunk(t, area, (uint64_t) site);
		put_rel32(site, 0xe9, (uint64_t) t); /* jmp */
		t += CALLS_THUNK_BYTES;
	}
	mprotect(area, bytes, PROT_READ | PROT_EXEC);
	mprotect((void *) first, len, PROT_READ | PROT_EXEC);
	unsigned k = calls_nthunk_areas;
	calls_thunk_areas[k][0] = (uint64_t) area;
	calls_thunk_areas[k][1] = (uint64_t) t;
	__atomic_store_n(&calls_nthunk_areas, k + 1, __ATOMIC_RELEASE);
	return (unsigned) ((t - area) / CALLS_THUNK_BYTES - 2);
}

void calls_patch_object(uint64_t bias, const char *path)
{
	struct mapfile mf;
	if (path[0] != '/' || mapfile_open(&mf, path))
		return;
	struct elf_image im;
	if (!elf_image_open(&im, mf.data, mf.size)) {
		static const char *const sections[] = {"__patchable_function_entries",
		                                       "__mcount_loc"};
		for (size_t k = 0; k < 2; k++) {
			uint64_t *v;
			size_t n;
			if (find_sites(&im, bias, sections[k], &v, &n))
				patch_sites(v, n);
		}
	}
	elf_image_close(&im);
	mapfile_close(&mf);
}
