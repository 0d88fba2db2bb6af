/* SPDX-License-Identifier: MIT */
/*
 * test-idmap.c: the analyses' key -> index map (lib/analysis/idmap.h) on the key patterns
 * traces give it: tids handed out in order, tids with a stride, large and "negative" keys,
 * packed pairs. Every key must map to its value through the map's growth, absent keys must
 * not be found, and patterned keys must not build long probe chains. And runhash
 * (util/runhash.h), which keeps runs of consecutive tids in neighbouring slots.
 */
#include <stdlib.h>

#include "analysis/idmap.h"
#include "check.h"

/* The longest distance of a key from its home slot. */
static size_t longest_probe(const struct idmap *m)
{
	size_t worst = 0;
	for (size_t i = 0; i < m->cap; i++)
		if (m->tab[i].used) {
			size_t d = (i - idmap_hash(m, m->tab[i].key, m->cap)) & (m->cap - 1);
			worst = d > worst ? d : worst;
		}
	return worst;
}

static void pattern_in(const char *name, bool runs, uint64_t first, uint64_t stride, uint32_t n)
{
	struct idmap m = {.runs = runs};
	CHECK_CTX("%s%s", name, runs ? " (runs)" : "");
	for (uint32_t i = 0; i < n; i++)
		if (!CHECK_EQ_S64(idmap_add(&m, first + i * stride, i), 0))
			break;
	CHECK_EQ_U64(m.used, n);
	uint32_t wrong = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t *v = idmap_find(&m, first + i * stride);
		wrong += !v || *v != i;
	}
	CHECK_EQ_U64(wrong, 0);
	/* keys between or beyond the ones added are absent */
	uint32_t found = 0;
	for (uint32_t i = 0; i < n; i++)
		found += stride > 1 && idmap_find(&m, first + i * stride + 1) != NULL;
	found += idmap_find(&m, first + (uint64_t) n * stride) != NULL;
	CHECK_EQ_U64(found, 0);
	/* at most half full: a chain of more than a few dozen slots means clustering */
	size_t worst = longest_probe(&m);
	if (!CHECK(worst < 64))
		printf("  longest probe %zu for %u keys in %zu slots\n", worst, n, m.cap);
	idmap_free(&m);
	CHECK(m.tab == NULL && m.cap == 0 && m.runs == runs);
}

static void pattern(const char *name, uint64_t first, uint64_t stride, uint32_t n)
{
	pattern_in(name, false, first, stride, n);
}

static size_t slot_of(const struct idmap *m, uint64_t key)
{
	const uint32_t *v = idmap_find(m, key);
	return v ? (size_t) ((const char *) v - (const char *) m->tab) / sizeof(*m->tab) : SIZE_MAX;
}

/* A map of tids with runs: 16 consecutive tids in 16 neighbouring slots. */
static void test_runs(void)
{
	struct idmap m = {.runs = true};
	CHECK_CTX("runs");
	for (uint32_t i = 0; i < 1000; i++)
		CHECK_EQ_S64(idmap_add(&m, 7000 + i, i), 0);
	uint32_t apart = 0;
	size_t first = slot_of(&m, 7008);
	for (uint64_t tid = 7008; tid < 7024; tid++)
		apart += slot_of(&m, tid) != ((first + (tid - 7008)) & (m.cap - 1));
	CHECK_EQ_U64(apart, 0);
	idmap_free(&m);
}

static void test_runhash(void)
{
	CHECK_CTX("runhash");
	for (size_t cap = 1; cap <= (1u << 20); cap *= 2) {
		uint32_t out = 0, apart = 0;
		for (uint64_t k = 0; k < 4096; k++) {
			uint64_t key = k * 0x10001ull + (cap << 7);
			out += runhash(key, cap) >= cap || fibhash(key, cap) >= (cap > 1 ? cap : 1);
		}
		/* a run of 16 tids on 16 neighbouring slots */
		for (uint64_t tid = 32; tid < 48 && cap >= RUNHASH_RUN; tid++)
			apart += runhash(tid, cap) != runhash(32, cap) + (tid - 32);
		CHECK_EQ_U64(out, 0);
		CHECK_EQ_U64(apart, 0);
	}
	/* the runs themselves spread: 4096 runs over 4096 run slots hit more than half */
	size_t cap = 4096 * RUNHASH_RUN;
	uint8_t *hit = calloc(4096, 1);
	uint32_t distinct = 0;
	for (uint64_t run = 0; run < 4096 && hit; run++) {
		size_t r = runhash(run * RUNHASH_RUN * 4096, cap) / RUNHASH_RUN; /* strided */
		distinct += !hit[r];
		hit[r] = 1;
	}
	free(hit);
	CHECK(distinct > 2048);
}

int main(void)
{
	struct idmap empty = {0};
	CHECK_CTX("empty");
	CHECK(idmap_find(&empty, 0) == NULL);
	pattern("tids in order", 1, 1, 100000);
	pattern("tids from 4194000 (pid_max)", 4194000, 1, 5000);
	pattern("stride 16", 16, 16, 50000);
	pattern("stride 4096", 0, 4096, 50000);
	pattern("stride 2^20", 0, 1u << 20, 20000);
	pattern("packed pairs (call << 32 | errno)", 1ull << 32, 1ull << 32, 20000);
	pattern("negative keys", (uint64_t) -100000, 1, 100000);
	pattern_in("tids in order", true, 1, 1, 100000);
	pattern_in("tids from 4194000 (pid_max)", true, 4194000, 1, 5000);
	pattern_in("stride 4096", true, 0, 4096, 50000);
	test_runs();
	test_runhash();
	check_context[0] = '\0';
	return check_done();
}
