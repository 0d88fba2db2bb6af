/* SPDX-License-Identifier: MIT */
/*
 * patch.c: -fpatchable-function-entry=5 and -pg -mfentry -mnop-mcount -mrecord-mcount: the
 * compiler leaves 5 bytes of nops at each function's entry and the linker lists them
 * (__patchable_function_entries; __mcount_loc), so a program ships with tracing compiled in
 * and pays a few nops per call while it is off. When tracing starts, and in each object a
 * dlopen brings, the nops of every function the filters let through become a call to
 * __fentry__ (mcount.S), through a stub mapped near the object (a call reaches +-2 GiB);
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

#include "calls.h"
#include "elf/elf-image.h"
#include "util/mapfile.h"

void calls_fentry(void) CALLS_HIDDEN; /* __fentry__ (mcount.S) */

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

/* A page of `jmp *0(%rip); .quad calls_fentry` within a call's reach of [lo, hi): asked for
 * below the object, then further down, then above it. */
static unsigned char *stub_near(uint64_t lo, uint64_t hi)
{
	uint64_t page = (uint64_t) sysconf(_SC_PAGESIZE), reach = (1ull << 31) - (1ull << 20);
	for (int k = 0; k < 16; k++) {
		uint64_t off = (1ull << 20) << (k % 8); /* 1 MiB .. 128 MiB away */
		uint64_t want = k < 8 ? (lo > off ? lo - off : 0) : hi + off;
		unsigned char *p = mmap((void *) (want & ~(page - 1)), page, PROT_READ | PROT_WRITE,
		                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return NULL;
		if (distance((uint64_t) p, lo) < reach && distance((uint64_t) p, hi) < reach) {
			static const unsigned char jmp[6] = {0xff, 0x25, 0, 0, 0, 0};
			uint64_t target = (uint64_t) calls_fentry;
			memcpy(p, jmp, sizeof(jmp));
			memcpy(p + 6, &target, 8);
			if (!mprotect(p, page, PROT_READ | PROT_EXEC))
				return p;
		}
		munmap(p, page);
	}
	return NULL;
}

/* Patch the sites of one list: those the filters let through and that hold the nops. */
static unsigned patch_sites(const uint64_t *v, size_t n)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i]) {
			lo = v[i] < lo ? v[i] : lo;
			hi = v[i] + 5 > hi ? v[i] + 5 : hi;
		}
	if (lo >= hi)
		return 0;
	unsigned char *stub = stub_near(lo, hi);
	if (!stub)
		return 0;
	long page = sysconf(_SC_PAGESIZE);
	uint64_t first = lo & ~(uint64_t) (page - 1);
	size_t len = (size_t) (hi - first);
	if (mprotect((void *) first, len, PROT_READ | PROT_WRITE | PROT_EXEC))
		return 0;
	unsigned patched = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char *site = (unsigned char *) v[i];
		if (!site || (memcmp(site, nops5, 5) && memcmp(site, nopl5, 4)))
			continue;
		if (!(calls_decide((uint64_t) site) & CALLS_TRACE))
			continue;
		int32_t rel = (int32_t) ((int64_t) stub - (int64_t) (v[i] + 5));
		unsigned char call[5] = {0xe8};
		memcpy(call + 1, &rel, 4);
		memcpy(site, call, 5);
		patched++;
	}
	mprotect((void *) first, len, PROT_READ | PROT_EXEC);
	return patched;
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
