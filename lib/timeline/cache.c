/* SPDX-License-Identifier: MIT */
/*
 * cache.c: a cache file mapped and checked as untrusted input (every section, row, block
 * index entry and string reference against the file's size), and what it tells. The
 * spans themselves are not read here (that would touch the whole file): the queries
 * stay within each checked block whatever the values in it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "timeline/cache-int.h"
#include "util/mapfile.h"

static int bad(char **errmsg, const char *what)
{
	if (errmsg && asprintf(errmsg, "not a valid timeline cache: %s", what) < 0)
		*errmsg = NULL;
	return -EINVAL;
}

/* A section of count records of size sz lies within the file, at a multiple of 8. */
static bool section_ok(const struct tl_cache *c, const struct tlc_section *s, uint64_t sz)
{
	return s->offset % 8 == 0 && s->offset >= sizeof(struct tlc_header) &&
	       s->offset <= c->size && s->count <= (c->size - s->offset) / sz;
}

static bool string_ok(const struct tl_cache *c, uint32_t off)
{
	return off < c->h->strings.count;
}

static bool run_ok(uint64_t first, uint64_t n, uint64_t count)
{
	return first <= count && n <= count - first;
}

/* Each block of an index lies within the file, past the header, and holds 1..TLC_BLOCK. */
static bool index_ok(const struct tl_cache *c, const struct tlc_block *b, uint64_t n,
                     uint64_t (*block_size)(uint64_t, unsigned))
{
	for (uint64_t i = 0; i < n; i++)
		if (b[i].count < 1 || b[i].count > TLC_BLOCK || b[i].level >= TLC_LEVELS ||
		    b[i].offset % 8 || b[i].offset < sizeof(struct tlc_header) ||
		    b[i].offset > c->size ||
		    block_size(b[i].count, b[i].level) > c->size - b[i].offset)
			return false;
	return true;
}

static int check(struct tl_cache *c, char **errmsg)
{
	const struct tlc_header *h = c->h;

	if (h->version != TLC_VERSION || h->header_size != sizeof(*h))
		return bad(errmsg, "another version");
	if (h->file_size != c->size)
		return bad(errmsg, "truncated");
	if (!section_ok(c, &h->strings, 1) || !section_ok(c, &h->rows, sizeof(struct tlc_row)) ||
	    !section_ok(c, &h->span_index, sizeof(struct tlc_block)) ||
	    !section_ok(c, &h->mark_index, sizeof(struct tlc_block)) ||
	    !section_ok(c, &h->classes, sizeof(struct tlc_class)) ||
	    !section_ok(c, &h->syscalls, sizeof(uint32_t)) ||
	    !section_ok(c, &h->functions, sizeof(uint32_t)) ||
	    !section_ok(c, &h->addresses, sizeof(struct tlc_address)) ||
	    !section_ok(c, &h->damage, sizeof(struct tlc_damage)))
		return bad(errmsg, "a section past the end");
	if (h->rate_bins < 1 || h->rate_bins > TLC_RATE_BINS || h->rate_width < 1 ||
	    !section_ok(c, &h->rates, sizeof(uint32_t)))
		return bad(errmsg, "rate bins");
	if (h->duration < 0)
		return bad(errmsg, "negative duration");
	c->strings = (const char *) c->map + h->strings.offset;
	if (!h->strings.count || c->strings[h->strings.count - 1])
		return bad(errmsg, "strings");
	c->drows = (const void *) (c->map + h->rows.offset);
	c->span_index = (const void *) (c->map + h->span_index.offset);
	c->mark_index = (const void *) (c->map + h->mark_index.offset);
	c->classes = (const void *) (c->map + h->classes.offset);
	c->rates = (const void *) (c->map + h->rates.offset);
	c->syscalls = (const void *) (c->map + h->syscalls.offset);
	c->functions = (const void *) (c->map + h->functions.offset);
	c->addresses = (const void *) (c->map + h->addresses.offset);
	c->damage = (const void *) (c->map + h->damage.offset);
	if (!index_ok(c, c->span_index, h->span_index.count, tlc_span_block_size) ||
	    !index_ok(c, c->mark_index, h->mark_index.count, tlc_mark_block_size))
		return bad(errmsg, "a block past the end");
	for (uint64_t i = 0; i < h->classes.count; i++) {
		const struct tlc_class *k = &c->classes[i];
		if (!string_ok(c, k->name) ||
		    (k->rate != UINT64_MAX && (!run_ok(k->rate, k->bins, h->rates.count) ||
		                               !run_ok(k->bin0, k->bins, h->rate_bins))))
			return bad(errmsg, "classes");
	}
	for (uint64_t i = 0; i < h->syscalls.count; i++)
		if (!string_ok(c, c->syscalls[i]))
			return bad(errmsg, "system call names");
	for (uint64_t i = 0; i < h->functions.count; i++)
		if (!string_ok(c, c->functions[i]))
			return bad(errmsg, "function names");
	for (uint64_t i = 0; i < h->damage.count; i++)
		if (!string_ok(c, c->damage[i].text))
			return bad(errmsg, "damage");
	c->rows = calloc(h->rows.count ? h->rows.count : 1, sizeof(*c->rows));
	if (!c->rows)
		return -ENOMEM;
	for (uint64_t i = 0; i < h->rows.count; i++) {
		const struct tlc_row *r = &c->drows[i];
		if (r->kind > TL_ROW_CALLS || !string_ok(c, r->name) ||
		    !run_ok(r->mark_block0, r->mark_blocks, h->mark_index.count))
			return bad(errmsg, "rows");
		for (unsigned l = 0; l < TLC_LEVELS; l++)
			if (!run_ok(r->block0[l], r->blocks[l], h->span_index.count))
				return bad(errmsg, "rows");
		c->rows[i] = (struct tl_cache_row){.kind = r->kind,
		                                   .id = r->id,
		                                   .pid = r->pid,
		                                   .name = c->strings + r->name,
		                                   .first = r->first,
		                                   .last = r->last,
		                                   .spans = r->spans,
		                                   .marks = r->marks,
		                                   .depth = r->depth};
	}
	return 0;
}

int tl_cache_open_bytes(const void *data, size_t size, struct tl_cache **out, char **errmsg)
{
	struct tl_cache *c = calloc(1, sizeof(*c));
	*out = NULL;
	if (errmsg)
		*errmsg = NULL;
	if (!c)
		return -ENOMEM;
	c->map = data;
	c->size = size;
	c->h = data;
	int rc;
	if (size < sizeof(struct tlc_header) || memcmp(c->h->magic, TLC_MAGIC, 8))
		rc = bad(errmsg, "no header");
	else if ((uintptr_t) data % 8)
		rc = bad(errmsg, "not aligned");
	else
		rc = check(c, errmsg);
	if (rc) {
		free(c->rows);
		free(c);
		return rc;
	}
	*out = c;
	return 0;
}

int tl_cache_open_fd(int fd, const char *path, struct tl_cache **out, char **errmsg)
{
	struct mapfile mf;
	*out = NULL;
	if (errmsg)
		*errmsg = NULL;
	int rc = mapfile_map_fd(&mf, fd);
	if (rc) {
		if (errmsg && asprintf(errmsg, "%s: %s", path, strerror(-rc)) < 0)
			*errmsg = NULL;
		return rc;
	}
	/* queries jump about: no read-ahead (the pages mapped stay the ones read) */
	if (mf.size)
		madvise((void *) mf.data, mf.size, MADV_RANDOM);
	char *why = NULL;
	rc = tl_cache_open_bytes(mf.data, mf.size, out, errmsg ? &why : NULL);
	if (!rc && !((*out)->path = strdup(path))) {
		tl_cache_close(*out);
		*out = NULL;
		rc = -ENOMEM;
	}
	if (rc) {
		mapfile_close(&mf);
		if (errmsg && asprintf(errmsg, "%s: %s", path, why ? why : strerror(-rc)) < 0)
			*errmsg = NULL;
		free(why);
	}
	return rc;
}

int tl_cache_open_file(const char *path, struct tl_cache **out, char **errmsg)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		int rc = -errno;
		*out = NULL;
		if (errmsg && asprintf(errmsg, "%s: %s", path, strerror(-rc)) < 0)
			*errmsg = NULL;
		return rc;
	}
	int rc = tl_cache_open_fd(fd, path, out, errmsg);
	close(fd);
	return rc;
}

void tl_cache_close(struct tl_cache *c)
{
	if (!c)
		return;
	if (c->path) {
		struct mapfile mf = {.data = c->map, .size = c->size};
		mapfile_close(&mf);
	}
	free(c->path);
	free(c->rows);
	free(c);
}

void tl_cache_release(struct tl_cache *c)
{
	if (c && c->path && c->size) /* a mapping of ours (not borrowed bytes) */
		madvise((void *) c->map, c->size, MADV_DONTNEED);
}

const char *tl_cache_path(const struct tl_cache *c)
{
	return c->path;
}

uint64_t tl_cache_fingerprint(const struct tl_cache *c)
{
	return c->h->fingerprint;
}

int64_t tl_cache_origin(const struct tl_cache *c)
{
	return c->h->origin;
}

int64_t tl_cache_duration(const struct tl_cache *c)
{
	return c->h->duration;
}

size_t tl_cache_rows(const struct tl_cache *c)
{
	return c->h->rows.count;
}

const struct tl_cache_row *tl_cache_row(const struct tl_cache *c, size_t i)
{
	return i < c->h->rows.count ? &c->rows[i] : NULL;
}

size_t tl_cache_classes(const struct tl_cache *c)
{
	return c->h->classes.count;
}

const char *tl_cache_class_name(const struct tl_cache *c, size_t i)
{
	return i < c->h->classes.count ? c->strings + c->classes[i].name : NULL;
}

bool tl_cache_class_user(const struct tl_cache *c, size_t i)
{
	return i < c->h->classes.count && c->classes[i].user;
}

uint64_t tl_cache_class_events(const struct tl_cache *c, size_t i)
{
	if (i >= c->h->classes.count || c->classes[i].rate == UINT64_MAX)
		return 0;
	const uint32_t *b = c->rates + c->classes[i].rate;
	uint64_t n = 0;
	for (uint64_t j = 0; j < c->classes[i].bins; j++)
		n += b[j];
	return n;
}

size_t tl_cache_syscalls(const struct tl_cache *c)
{
	return c->h->syscalls.count;
}

const char *tl_cache_syscall_name(const struct tl_cache *c, uint32_t i)
{
	return i < c->h->syscalls.count ? c->strings + c->syscalls[i] : NULL;
}

size_t tl_cache_functions(const struct tl_cache *c)
{
	return c->h->functions.count;
}

const char *tl_cache_function_name(const struct tl_cache *c, uint32_t i)
{
	return i < c->h->functions.count ? c->strings + c->functions[i] : NULL;
}

const char *tl_cache_address_name(const struct tl_cache *c, uint64_t proc, uint64_t addr, int64_t t)
{
	/* the first entry of (proc, addr), then the last of those from t or before; the file
	 * is untrusted: out of order, it answers wrong names, never out of bounds */
	const struct tlc_address *a = c->addresses;
	size_t lo = 0, hi = c->h->addresses.count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (a[mid].proc < proc || (a[mid].proc == proc && a[mid].addr < addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == c->h->addresses.count || a[lo].proc != proc || a[lo].addr != addr)
		return NULL;
	size_t at = lo;
	while (at + 1 < c->h->addresses.count && a[at + 1].proc == proc && a[at + 1].addr == addr &&
	       a[at + 1].from <= t)
		at++;
	return tl_cache_function_name(c, a[at].function);
}

size_t tl_cache_damage(const struct tl_cache *c)
{
	return c->h->damage.count;
}

const char *tl_cache_damage_text(const struct tl_cache *c, size_t i)
{
	return i < c->h->damage.count ? c->strings + c->damage[i].text : NULL;
}

int64_t tl_cache_damage_at(const struct tl_cache *c, size_t i)
{
	return i < c->h->damage.count ? c->damage[i].at : 0;
}

uint64_t tl_cache_lost(const struct tl_cache *c)
{
	return c->h->lost;
}
