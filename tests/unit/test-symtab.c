/* SPDX-License-Identifier: MIT */
/*
 * test-symtab.c: address -> function (lib/elf/elf-symtab.c) on this very program, whose
 * functions' run-time addresses it knows: a static function (only in .symtab), the same
 * program stripped with its debug file under a private .build-id root (and a debug file of
 * another build-id there, refused), libc's aliases, and cut copies of the file.
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "find-libc.h"
#include "elf/elf-symtab.h"
#include "util/mapfile.h"

/* Only in .symtab: static, and big enough to hold an offset of 5. */
__attribute__((noinline)) static int static_victim(int x)
{
	volatile int v = x;
	for (int i = 0; i < 3; i++)
		v = v * 7 + i;
	return v;
}

/* A global function, in .dynsym too when exported; not only in .symtab. */
int symtab_global_victim(int x);
__attribute__((noinline)) int symtab_global_victim(int x)
{
	return static_victim(x) + 1;
}

static char self[4096];
static uint64_t self_bias;

static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
	(void) size;
	(void) data;
	self_bias = info->dlpi_addr; /* the first entry is the program */
	return 1;
}

static uint64_t object_addr(const void *fn)
{
	return (uint64_t) (uintptr_t) fn - self_bias;
}

static void check_victim(const struct elf_symtab *st, bool found)
{
	uint64_t off = 99, a = object_addr((const void *) static_victim);
	const struct elf_func *f = elf_symtab_lookup(st, a, &off);
	if (!found) {
		CHECK(!f || strcmp(f->name, "static_victim"));
		return;
	}
	if (CHECK(f)) {
		CHECK_STR(f->name, "static_victim");
		CHECK_EQ_U64(off, 0);
		CHECK(f->size > 5);
	}
	f = elf_symtab_lookup(st, a + 5, &off);
	if (CHECK(f))
		CHECK_STR(f->name, "static_victim"), CHECK_EQ_U64(off, 5);
	f = elf_symtab_lookup(st, object_addr((const void *) symtab_global_victim), &off);
	if (CHECK(f))
		CHECK_STR(f->name, "symtab_global_victim");
}

static void test_self(void)
{
	struct elf_symtab st;
	CHECK_EQ_S64(elf_symtab_open(&st, self, ""), 0);
	CHECK(st.has_symtab && !st.debug_file && st.n > 10);
	for (size_t i = 1; i < st.n; i++)
		CHECK(st.funcs[i - 1].addr <= st.funcs[i].addr);
	check_victim(&st, true);
	uint64_t off;
	CHECK(!elf_symtab_lookup(&st, 0, &off));
	const struct elf_func *last = &st.funcs[st.n - 1];
	if (last->size)
		CHECK(!elf_symtab_lookup(&st, last->addr + last->size, &off));
	elf_symtab_free(&st);
	CHECK(symtab_global_victim(1) != 0);
}

static int run(const char *cmd)
{
	int rc = system(cmd);
	if (rc)
		printf("  `%s` exited %d\n", cmd, rc);
	return rc;
}

/* The program stripped, its debug file found by build-id (and one of another id refused). */
static void test_debug_file(void)
{
	char dir[] = "/tmp/test-symtab-XXXXXX", cmd[20000], stripped[4200], dbg[4300];
	struct elf_symtab st;

	if (!CHECK(mkdtemp(dir)))
		return;
	snprintf(stripped, sizeof(stripped), "%s/stripped", dir);
	snprintf(cmd, sizeof(cmd), "objcopy --only-keep-debug '%s' %s/dbg && strip -s -o %s '%s'",
	         self, dir, stripped, self);
	if (run(cmd)) {
		printf("SKIP the debug file: objcopy and strip are needed\n");
		return;
	}
	CHECK_EQ_S64(elf_symtab_open(&st, stripped, dir), 0);
	CHECK(!st.has_symtab && st.build_id_len >= 8);
	check_victim(&st, false); /* no debug file there yet */
	char hex[2 * ELF_BUILD_ID_MAX + 1];
	for (size_t i = 0; i < st.build_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", st.build_id[i]);
	elf_symtab_free(&st);
	snprintf(dbg, sizeof(dbg), "%s/.build-id/%.2s", dir, hex);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp /bin/sh %s/%s.debug", dbg, dbg, hex + 2);
	if (!CHECK(run(cmd) == 0))
		return;
	CHECK_EQ_S64(elf_symtab_open(&st, stripped, dir), 0); /* another build-id: refused */
	CHECK(!st.has_symtab && !st.debug_file);
	check_victim(&st, false);
	elf_symtab_free(&st);
	snprintf(cmd, sizeof(cmd), "mv %s/dbg %s/%s.debug", dir, dbg, hex + 2);
	if (!CHECK(run(cmd) == 0))
		return;
	CHECK_EQ_S64(elf_symtab_open(&st, stripped, dir), 0);
	CHECK(st.has_symtab && st.debug_file && strstr(st.debug_file, hex + 2));
	check_victim(&st, true);
	elf_symtab_free(&st);
	CHECK_EQ_S64(elf_symtab_open(&st, stripped, ""), 0); /* "": no debug files */
	check_victim(&st, false);
	elf_symtab_free(&st);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	run(cmd);
}

/* getpid and sched_yield (weak) have global aliases __getpid and __sched_yield: the names
 * without underscores show. */
static void test_libc(void)
{
	struct dl_phdr_info libc = {0};
	struct elf_symtab st;
	uint64_t off;

	if (!CHECK(dl_iterate_phdr(find_libc, &libc) == 1))
		return;
	CHECK_EQ_S64(elf_symtab_open(&st, libc.dlpi_name, ""), 0);
	static const char *const fns[] = {"getpid", "unlinkat", "sched_yield"};
	for (size_t i = 0; i < 3; i++) {
		void *code = dlsym(RTLD_DEFAULT, fns[i]);
		const struct elf_func *f =
		    elf_symtab_lookup(&st, (uint64_t) (uintptr_t) code - libc.dlpi_addr, &off);
		if (CHECK(f))
			CHECK_STR(f->name, fns[i]), CHECK_EQ_U64(off, 0);
	}
	for (size_t i = 0; i < st.n; i++)
		CHECK(!strchr(st.funcs[i].name, '@') && st.funcs[i].name[0]);
	elf_symtab_free(&st);
}

/* Cut copies: an error or a table, never a read outside (ASan's run). */
static void test_cut(void)
{
	struct mapfile mf;
	struct elf_symtab st;

	if (!CHECK(mapfile_open(&mf, self) == 0))
		return;
	size_t cuts[] = {0, 3, 63, 64, 100, mf.size / 3, mf.size / 2, mf.size - 64, mf.size - 1};
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		unsigned char *copy = malloc(cuts[i] + 1);
		memcpy(copy, mf.data, cuts[i]);
		int rc = elf_symtab_read(&st, copy, cuts[i]);
		CHECK_CTX("cut at %zu", cuts[i]);
		CHECK(rc < 0 ? st.err[0] != 0 : true);
		uint64_t off;
		for (size_t k = 0; k < st.n; k++)
			CHECK(elf_symtab_lookup(&st, st.funcs[k].addr, &off));
		elf_symtab_free(&st);
		free(copy);
	}
	CHECK_CTX("%s", "");
	check_context[0] = '\0';
	CHECK(elf_symtab_open(&st, "/nonexistent/file", NULL) == -ENOENT &&
	      strstr(st.err, "/nonexistent/file"));
	elf_symtab_free(&st);
	mapfile_close(&mf);
}

int main(void)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return 1;
	self[n] = '\0';
	dl_iterate_phdr(find_self, NULL);
	test_self();
	test_debug_file();
	test_libc();
	test_cut();
	return check_done();
}
