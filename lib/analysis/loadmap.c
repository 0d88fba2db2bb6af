/* SPDX-License-Identifier: MIT */
/*
 * loadmap.c: each process's objects and the names of its addresses (see loadmap.h). Fields
 * as LTTng-UST 2.13 writes them (lttng-ust-statedump-provider.h, ust_dl.h): bin_info
 * { baddr, memsz, path, is_pic, has_build_id, has_debug_link }, dlopen { baddr, memsz,
 * flags, path, has_build_id, has_debug_link }, build_id { baddr, build_id[] }, dlclose
 * { baddr }. baddr is where the object's first loadable segment was mapped.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idmap.h"
#include "elf/elf-symtab.h"
#include "ctf/stream.h"
#include "loadmap.h"
#include "reader/reader.h" /* fields read in place */
#include "util/grow.h"

enum kind { K_NONE, K_BIN_INFO, K_DLOPEN, K_BUILD_ID, K_DLCLOSE };

struct lm_class {
	bool resolved;
	uint8_t kind;
	int8_t vpid_scope;
	int vpid; /* the vpid context's index, -1: none */
};

/* One object file, read once for every process that maps it. */
struct lm_file {
	char *path;
	unsigned char build_id[ELF_BUILD_ID_MAX];
	size_t build_id_len;
	bool ok; /* its functions can name addresses */
	struct elf_symtab st;
};

/* An object from the event that mapped it to the one that unmapped it: [begin, end). */
struct lm_object {
	uint64_t baddr, memsz;
	int64_t begin, end;
	char *path;
	unsigned char build_id[ELF_BUILD_ID_MAX];
	size_t build_id_len;
	bool is_pic;
	int32_t file; /* index in files, -1 until first needed */
};

/* A name resolved for the map between two changes: the same address may name another
 * function after a dlclose and a dlopen. */
struct lm_name {
	uint32_t text; /* offset in the pool */
	uint32_t gen;  /* the map's generation it holds for */
};

struct lm_proc {
	uint64_t key;
	struct lm_object *objs; /* in the order they were mapped */
	size_t n, cap;
	int64_t *changes; /* the times the map changed: generation g began at changes[g - 1] */
	size_t nchanges, cap_changes;
	struct idmap names; /* address -> index in cache */
	struct lm_name *cache;
	size_t ncache, cap_cache;
};

struct loadmap {
	const struct spoor_reader *r;
	char *debug_root;
	struct lm_class *classes;
	size_t nclasses;
	struct lm_proc *procs;
	size_t nprocs, cap_procs;
	struct idmap proc_ids;
	struct lm_file *files;
	size_t nfiles, cap_files;
	struct elf_symtab nm; /* loadmap_add_nm's */
	char *pool;
	size_t pool_len, pool_cap;
	void (*warn)(void *data, const char *msg);
	void *warn_data;
	/* the process of the last packet whose context holds the vpid: its events share it */
	const void *memo_stream;
	uint64_t memo_packet, memo_proc;
};

struct loadmap *loadmap_new(const struct spoor_reader *r, const char *debug_root)
{
	struct loadmap *lm = calloc(1, sizeof(*lm));
	if (!lm)
		return NULL;
	lm->r = r;
	lm->nclasses = spoor_reader_event_class_count(r);
	lm->classes = calloc(lm->nclasses + 1, sizeof(*lm->classes));
	if (!lm->classes || (debug_root && !(lm->debug_root = strdup(debug_root)))) {
		loadmap_free(lm);
		return NULL;
	}
	return lm;
}

static void clear_objects(struct lm_proc *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->objs[i].path);
	p->n = 0;
}

void loadmap_free(struct loadmap *lm)
{
	if (!lm)
		return;
	for (size_t i = 0; i < lm->nprocs; i++) {
		clear_objects(&lm->procs[i]);
		free(lm->procs[i].objs);
		free(lm->procs[i].changes);
		free(lm->procs[i].cache);
		idmap_free(&lm->procs[i].names);
	}
	for (size_t i = 0; i < lm->nfiles; i++) {
		free(lm->files[i].path);
		elf_symtab_free(&lm->files[i].st);
	}
	free(lm->procs);
	free(lm->files);
	idmap_free(&lm->proc_ids);
	elf_symtab_free(&lm->nm);
	free(lm->classes);
	free(lm->pool);
	free(lm->debug_root);
	free(lm);
}

void loadmap_set_warn(struct loadmap *lm, void (*warn)(void *data, const char *msg), void *data)
{
	lm->warn = warn;
	lm->warn_data = data;
}

static struct lm_class *class_of(struct loadmap *lm, size_t ci)
{
	static const struct {
		const char *name;
		enum kind kind;
	} names[] = {
	    {"lttng_ust_statedump:bin_info", K_BIN_INFO},
	    {"lttng_ust_dl:dlopen", K_DLOPEN},
	    {"lttng_ust_dl:dlmopen", K_DLOPEN},
	    {"lttng_ust_statedump:build_id", K_BUILD_ID},
	    {"lttng_ust_dl:build_id", K_BUILD_ID},
	    {"lttng_ust_dl:dlclose", K_DLCLOSE},
	};
	static const enum spoor_scope scopes[] = {SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_PACKET_CONTEXT};
	struct lm_class *k = &lm->classes[ci < lm->nclasses ? ci : lm->nclasses];
	if (k->resolved || ci >= lm->nclasses)
		return k;
	const struct spoor_event_class *ec = spoor_reader_event_class(lm->r, ci);
	const char *name = spoor_event_class_name(ec);
	k->resolved = true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i].name))
			k->kind = (uint8_t) names[i].kind;
	k->vpid = -1;
	for (int s = 0; s < 3 && k->vpid < 0; s++)
		if ((k->vpid = spoor_event_class_field_index(ec, scopes[s], "vpid")) >= 0)
			k->vpid_scope = (int8_t) scopes[s];
	return k;
}

bool loadmap_reads(struct loadmap *lm, size_t class_index)
{
	return class_of(lm, class_index)->kind != K_NONE;
}

uint64_t loadmap_process(struct loadmap *lm, const struct spoor_event *ev)
{
	/* a stream whose packet context holds the vpid has it there for all its classes */
	if (lm->memo_stream == ev->s && lm->memo_packet == ev->s->packets)
		return lm->memo_proc;
	struct lm_class *k = class_of(lm, reader_event_class_index(ev));
	bool per_packet = k->vpid >= 0 && k->vpid_scope == SPOOR_SCOPE_PACKET_CONTEXT;
	int64_t vpid = 0;
	if (k->vpid >= 0 && !reader_field_int(ev, (enum spoor_scope) k->vpid_scope, k->vpid, &vpid))
		vpid = 0;
	uint64_t proc = (uint64_t) spoor_event_trace(ev) << 32 | (uint32_t) vpid;
	if (per_packet) {
		lm->memo_stream = ev->s;
		lm->memo_packet = ev->s->packets;
		lm->memo_proc = proc;
	}
	return proc;
}

static struct lm_proc *proc_of(struct loadmap *lm, uint64_t key, bool add)
{
	uint32_t *i = idmap_find(&lm->proc_ids, key);
	if (i)
		return &lm->procs[*i];
	if (!add || grow_one(&lm->procs, lm->nprocs, &lm->cap_procs, sizeof(*lm->procs), 4) ||
	    idmap_add(&lm->proc_ids, key, (uint32_t) lm->nprocs))
		return NULL;
	struct lm_proc *p = &lm->procs[lm->nprocs++];
	*p = (struct lm_proc){.key = key};
	return p;
}

static bool field_u64(const struct spoor_event *ev, const char *name, uint64_t *v)
{
	struct spoor_field f;
	int64_t x;
	if (!spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, name, &f) || !spoor_field_int(&f, &x))
		return false;
	*v = (uint64_t) x;
	return true;
}

/* The object mapped at baddr now (the last one mapped there, not unmapped), or NULL. */
static struct lm_object *object_at(struct lm_proc *p, uint64_t baddr)
{
	for (size_t i = p->n; i--;)
		if (p->objs[i].baddr == baddr && p->objs[i].end == INT64_MAX)
			return &p->objs[i];
	return NULL;
}

static int changed(struct lm_proc *p, int64_t ts)
{
	if (grow_one(&p->changes, p->nchanges, &p->cap_changes, sizeof(*p->changes), 8))
		return -ENOMEM;
	p->changes[p->nchanges++] = ts;
	return 0;
}

/* bin_info (loaded before the trace: from the beginning of time, unless it replaces an
 * object seen before) or dlopen (from its time). */
static int add_object(struct lm_proc *p, const struct spoor_event *ev, bool dlopen)
{
	uint64_t baddr, memsz = 0, pic = dlopen; /* a dlopen'ed object is a shared one: PIC */
	struct spoor_field f;
	int64_t ts = spoor_event_timestamp(ev);
	if (!field_u64(ev, "baddr", &baddr) ||
	    !spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, "path", &f) || f.kind != SPOOR_FIELD_STRING)
		return 0; /* not the event we know: passed over */
	field_u64(ev, "memsz", &memsz);
	field_u64(ev, "is_pic", &pic);
	struct lm_object *old = object_at(p, baddr);
	if (old && !dlopen && strlen(old->path) == f.v.str.len &&
	    !memcmp(old->path, f.v.str.ptr, f.v.str.len))
		return 0; /* a later state dump: the same object */
	if (old)
		old->end = ts;
	char *path = strndup(f.v.str.ptr, f.v.str.len);
	if (!path || grow_one(&p->objs, p->n, &p->cap, sizeof(*p->objs), 8) || changed(p, ts)) {
		free(path);
		return -ENOMEM;
	}
	p->objs[p->n++] = (struct lm_object){.baddr = baddr,
	                                     .memsz = memsz,
	                                     .begin = dlopen || old ? ts : INT64_MIN,
	                                     .end = INT64_MAX,
	                                     .path = path,
	                                     .is_pic = pic != 0,
	                                     .file = -1};
	return 0;
}

static int set_build_id(struct lm_proc *p, const struct spoor_event *ev)
{
	uint64_t baddr;
	struct spoor_field f, b;
	struct lm_object *o;
	if (!field_u64(ev, "baddr", &baddr) || !(o = object_at(p, baddr)) ||
	    !spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, "build_id", &f) ||
	    f.kind != SPOOR_FIELD_ARRAY || f.count > ELF_BUILD_ID_MAX)
		return 0;
	int64_t v;
	for (uint32_t i = 0; i < f.count; i++) {
		if (!spoor_field_child(&f, i, &b) || !spoor_field_int(&b, &v))
			return 0;
		o->build_id[i] = (unsigned char) v;
	}
	o->build_id_len = f.count;
	o->file = -1;
	return changed(p, spoor_event_timestamp(ev));
}

int loadmap_update(struct loadmap *lm, const struct spoor_event *ev)
{
	struct lm_class *k = class_of(lm, spoor_event_class_index(spoor_event_class(ev)));
	if (k->kind == K_NONE)
		return 0;
	struct lm_proc *p = proc_of(lm, loadmap_process(lm, ev), true);
	if (!p)
		return -ENOMEM;
	uint64_t baddr;
	struct lm_object *o;
	switch (k->kind) {
	case K_BIN_INFO: return add_object(p, ev, false);
	case K_DLOPEN: return add_object(p, ev, true);
	case K_BUILD_ID: return set_build_id(p, ev);
	case K_DLCLOSE:
		if (!field_u64(ev, "baddr", &baddr) || !(o = object_at(p, baddr)))
			return 0;
		o->end = spoor_event_timestamp(ev);
		return changed(p, o->end);
	}
	return 0;
}

static void say(struct loadmap *lm, const char *fmt, const char *path, const char *detail)
{
	char msg[4400];
	if (!lm->warn)
		return;
	snprintf(msg, sizeof(msg), fmt, path, detail);
	lm->warn(lm->warn_data, msg);
}

/* The file of an object, opened the first time an address needs it. */
static struct lm_file *file_of(struct loadmap *lm, struct lm_object *o)
{
	if (o->file >= 0)
		return &lm->files[o->file];
	for (size_t i = 0; i < lm->nfiles; i++) {
		struct lm_file *f = &lm->files[i];
		if (!strcmp(f->path, o->path) && f->build_id_len == o->build_id_len &&
		    !memcmp(f->build_id, o->build_id, o->build_id_len)) {
			o->file = (int32_t) i;
			return f;
		}
	}
	if (grow_one(&lm->files, lm->nfiles, &lm->cap_files, sizeof(*lm->files), 8))
		return NULL;
	struct lm_file *f = &lm->files[lm->nfiles];
	*f = (struct lm_file){.path = strdup(o->path), .build_id_len = o->build_id_len};
	if (!f->path)
		return NULL;
	memcpy(f->build_id, o->build_id, o->build_id_len);
	o->file = (int32_t) lm->nfiles++;
	if (elf_symtab_open(&f->st, o->path, lm->debug_root)) {
		say(lm, "%s: %s: addresses shown", o->path, f->st.err);
	} else if (o->build_id_len && (f->st.build_id_len != o->build_id_len ||
	                               memcmp(f->st.build_id, o->build_id, o->build_id_len))) {
		say(lm, "%s: %s: addresses shown", o->path,
		    "not the file the trace saw (another build-id)");
	} else if (!f->st.n) {
		say(lm, "%s: %s: addresses shown", o->path, "no symbols (stripped)");
	} else {
		f->ok = true;
	}
	return f;
}

/* Append a name to the pool: its offset, or (size_t) -1 out of memory. */
static size_t pool_printf(struct loadmap *lm, const char *name, size_t len, uint64_t off,
                          bool hex_only)
{
	size_t need = len + 24;
	if (lm->pool_len + need > lm->pool_cap) {
		size_t cap = lm->pool_cap ? 2 * lm->pool_cap : 65536;
		while (cap < lm->pool_len + need)
			cap *= 2;
		char *p = realloc(lm->pool, cap);
		if (!p)
			return (size_t) -1;
		lm->pool = p;
		lm->pool_cap = cap;
	}
	char *at = lm->pool + lm->pool_len;
	int n;
	if (hex_only)
		n = snprintf(at, need, "0x%" PRIx64, off);
	else if (off)
		n = snprintf(at, need, "%.*s+0x%" PRIx64, (int) len, name, off);
	else
		n = snprintf(at, need, "%.*s", (int) len, name);
	size_t start = lm->pool_len;
	lm->pool_len += (size_t) n + 1;
	return start;
}

/* The object of p holding addr at ts (the last mapped), or NULL. */
static struct lm_object *object_of(struct lm_proc *p, uint64_t addr, int64_t ts)
{
	for (size_t i = p->n; i--;) {
		struct lm_object *o = &p->objs[i];
		if (addr - o->baddr < o->memsz && o->begin <= ts && ts < o->end)
			return o;
	}
	return NULL;
}

static size_t resolve(struct loadmap *lm, struct lm_proc *p, uint64_t addr, int64_t ts)
{
	struct lm_object *o = object_of(p, addr, ts);
	const struct elf_func *fn;
	uint64_t off; /* into the function: not shown (-pg's hooks give the mcount call's) */
	if (o) {
		struct lm_file *f = file_of(lm, o);
		if (!f)
			return (size_t) -1;
		uint64_t vaddr = o->is_pic ? addr - o->baddr + f->st.load_vaddr : addr;
		if (f->ok && (fn = elf_symtab_lookup(&f->st, vaddr, &off)))
			return pool_printf(lm, fn->name, strlen(fn->name), 0, false);
		const char *base = strrchr(o->path, '/');
		base = base ? base + 1 : o->path;
		return pool_printf(lm, base, strlen(base), addr - o->baddr, false);
	}
	if ((fn = elf_symtab_lookup(&lm->nm, addr, &off)))
		return pool_printf(lm, fn->name, strlen(fn->name), 0, false);
	return pool_printf(lm, NULL, 0, addr, true);
}

/* The map's generation at ts: how many changes came at or before it. */
static uint32_t generation(const struct lm_proc *p, int64_t ts)
{
	size_t lo = 0, hi = p->nchanges;
	if (hi && p->changes[hi - 1] <= ts)
		return (uint32_t) hi; /* the common case: now */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->changes[mid] <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t) lo;
}

int64_t loadmap_name_id(struct loadmap *lm, uint64_t proc, uint64_t addr, int64_t ts)
{
	struct lm_proc *p = proc_of(lm, proc, true);
	if (!p)
		return -ENOMEM;
	uint32_t gen = generation(p, ts), *have = idmap_find(&p->names, addr);
	if (have && p->cache[*have].gen == gen)
		return p->cache[*have].text;
	size_t at = resolve(lm, p, addr, ts);
	if (at == (size_t) -1 || at > UINT32_MAX)
		return -ENOMEM;
	if (have) {
		p->cache[*have] = (struct lm_name){(uint32_t) at, gen};
		return (int64_t) at;
	}
	if (grow_one(&p->cache, p->ncache, &p->cap_cache, sizeof(*p->cache), 256) ||
	    idmap_add(&p->names, addr, (uint32_t) p->ncache))
		return -ENOMEM;
	p->cache[p->ncache++] = (struct lm_name){(uint32_t) at, gen};
	return (int64_t) at;
}

const char *loadmap_name_text(const struct loadmap *lm, int64_t id)
{
	return lm->pool + id;
}

const char *loadmap_name(struct loadmap *lm, uint64_t proc, uint64_t addr, int64_t ts)
{
	int64_t id = loadmap_name_id(lm, proc, addr, ts);
	return id < 0 ? NULL : lm->pool + id;
}

static int nm_cmp(const void *a, const void *b)
{
	const struct elf_func *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* nm's lines: every symbol, so that a function ends where the next symbol starts (nm
 * without -S gives no sizes); size 1 marks a function, 0 anything else, until then. Names
 * are pool offsets until all are read. */
static int nm_read(FILE *in, struct elf_symtab *st)
{
	char line[4096], name[4000], type;
	size_t cap = 0;
	uint64_t addr;
	while (fgets(line, sizeof(line), in)) {
		if (sscanf(line, "%" SCNx64 " %c %3999s", &addr, &type, name) != 3)
			continue;
		size_t len = strlen(name) + 1;
		if (grow_one(&st->funcs, st->n, &cap, sizeof(*st->funcs), 256))
			return -ENOMEM;
		while (st->pool_len + len > st->pool_cap) {
			size_t c = st->pool_cap ? 2 * st->pool_cap : 65536;
			char *p = realloc(st->pool, c);
			if (!p)
				return -ENOMEM;
			st->pool = p;
			st->pool_cap = c;
		}
		memcpy(st->pool + st->pool_len, name, len);
		st->funcs[st->n++] = (struct elf_func){addr, strchr("tTwWi", type) != NULL,
		                                       (const char *) (uintptr_t) st->pool_len};
		st->pool_len += len;
	}
	return 0;
}

int loadmap_add_nm(struct loadmap *lm, const char *path, char *err, size_t errlen)
{
	struct elf_symtab *st = &lm->nm;
	FILE *in = fopen(path, "r");
	if (!in) {
		int rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return rc;
	}
	elf_symtab_free(st);
	int rc = nm_read(in, st);
	fclose(in);
	if (rc) {
		elf_symtab_free(st);
		snprintf(err, errlen, "%s: out of memory", path);
		return rc;
	}
	qsort(st->funcs, st->n, sizeof(*st->funcs), nm_cmp);
	size_t n = 0;
	for (size_t i = 0; i < st->n; i++) {
		struct elf_func f = st->funcs[i];
		if (!f.size)
			continue;
		f.name = st->pool + (uintptr_t) f.name;
		size_t j = i + 1;
		while (j < st->n && st->funcs[j].addr == f.addr)
			j++;
		f.size = j < st->n ? st->funcs[j].addr - f.addr : 1;
		st->funcs[n++] = f;
	}
	st->n = n;
	return 0;
}
