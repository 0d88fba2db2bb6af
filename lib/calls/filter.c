/* SPDX-License-Identifier: MIT */
/*
 * filter.c: which functions are traced, as ftrace's set_ftrace_filter and
 * set_graph_function say it: --calls=GLOB,... (only these; `!GLOB` leaves out,
 * `:lib:NAME` every function of a library, `GLOB:lib:NAME` those of it), --calls-exclude,
 * --calls-graph (the roots: they and what they call).
 *
 * Decided once per address, on its first call: the object that holds it (dladdr), that
 * object's functions (lib/elf/elf-symtab: .symtab, .dynsym, or the debug file of its
 * build-id; read once per object), the name of the function holding the address, the
 * patterns. The answer goes into a table that the hooks read without a lock: a filtered-out
 * function then costs its hook and one look-up.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fnmatch.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "calls.h"
#include "elf/elf-symtab.h"

struct pattern {
	char *name; /* glob of function names */
	char *lib;  /* glob of object file names, or NULL: any */
	bool out;   /* leaves out (!GLOB, --calls-exclude) */
};

struct object {
	const void *base; /* dladdr's dli_fbase */
	const char *file; /* its file name, after the last '/' */
	struct elf_symtab st;
	bool read;
};

static struct pattern *patterns, *roots;
static size_t npatterns, nroots;
static bool have_include;

/* decisions kept; the rest are decided again at each call */
#define SLOTS (1u << CALLS_DECIDED_BITS)
struct calls_decided *calls_decided;
static size_t used;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct object *objects;
static size_t nobjects;
static __thread bool deciding; /* a signal handler's call meanwhile is not traced */

/* "a,!b,c:lib:d" into *v (out: every pattern leaves out). */
static void parse(const char *list, bool out, struct pattern **v, size_t *n)
{
	char *copy = list ? strdup(list) : NULL;
	for (char *save = NULL, *p = copy ? strtok_r(copy, ",", &save) : NULL; p;
	     p = strtok_r(NULL, ",", &save)) {
		struct pattern *bigger = realloc(*v, (*n + 1) * sizeof(**v));
		if (!bigger)
			break;
		*v = bigger;
		struct pattern *pt = &bigger[(*n)++];
		pt->out = out || *p == '!';
		p += *p == '!';
		char *lib = strstr(p, ":lib:");
		pt->lib = lib ? strdup(lib + 5) : NULL;
		if (lib)
			*lib = '\0';
		pt->name = strdup(*p ? p : "*");
	}
	free(copy);
}

void calls_filter_init(void)
{
	if (!calls_cfg.names)
		return;
	parse(calls_cfg.include, false, &patterns, &npatterns);
	parse(calls_cfg.exclude, true, &patterns, &npatterns);
	parse(calls_cfg.graph, false, &roots, &nroots);
	for (size_t i = 0; i < npatterns; i++)
		have_include |= !patterns[i].out;
	struct calls_decided *table = mmap(NULL, SLOTS * sizeof(*table), PROT_READ | PROT_WRITE,
	                                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	calls_decided = table == MAP_FAILED ? NULL : table;
}

/* The library glob matches the file name whole, or up to its ".so" (libfoo: libfoo.so.1). */
static bool lib_matches(const char *glob, const char *file)
{
	if (!fnmatch(glob, file, 0))
		return true;
	const char *so = strstr(file, ".so");
	if (!so)
		return false;
	char head[256];
	size_t n =
	    (size_t) (so - file) < sizeof(head) - 1 ? (size_t) (so - file) : sizeof(head) - 1;
	memcpy(head, file, n);
	head[n] = '\0';
	return !fnmatch(glob, head, 0);
}

static bool matches(const struct pattern *p, const char *name, const char *file)
{
	if (p->lib && !lib_matches(p->lib, file))
		return false;
	if (!name) /* no symbol: only a whole library's pattern takes it */
		return !strcmp(p->name, "*");
	return !fnmatch(p->name, name, 0);
}

static const char *name_of(uint64_t addr, const char **file)
{
	Dl_info info;
	if (!dladdr((void *) addr, &info) || !info.dli_fbase)
		return NULL;
	struct object *o = NULL;
	for (size_t i = 0; i < nobjects && !o; i++)
		if (objects[i].base == info.dli_fbase)
			o = &objects[i];
	if (!o) {
		struct object *bigger = realloc(objects, (nobjects + 1) * sizeof(*bigger));
		if (!bigger)
			return NULL;
		objects = bigger;
		o = &objects[nobjects++];
		*o = (struct object){.base = info.dli_fbase};
		/* the program's name is as it was run (relative, maybe): its file is this one */
		const char *path = !info.dli_fname ? ""
		                   : !strcmp(info.dli_fname, program_invocation_name)
		                       ? "/proc/self/exe"
		                       : info.dli_fname;
		const char *named = info.dli_fname ? info.dli_fname : "";
		const char *slash = strrchr(named, '/');
		o->file = strdup(slash ? slash + 1 : named);
		o->read = !elf_symtab_open(&o->st, path, NULL);
	}
	*file = o->file ? o->file : "";
	if (!o->read)
		return NULL;
	uint64_t off;
	uint64_t at = addr - (uint64_t) o->base + o->st.load_vaddr;
	const struct elf_func *f = elf_symtab_lookup(&o->st, at, &off);
	return f ? f->name : NULL;
}

static uint32_t decide(uint64_t addr)
{
	const char *file = "", *name = name_of(addr, &file);
	bool in = !have_include;
	for (size_t i = 0; i < npatterns; i++)
		if (matches(&patterns[i], name, file)) {
			if (patterns[i].out)
				return 0;
			in = true;
		}
	uint32_t flags = in ? CALLS_TRACE : 0;
	for (size_t i = 0; i < nroots; i++)
		if (name && matches(&roots[i], name, file))
			flags |= CALLS_ROOT;
	return flags;
}

uint32_t calls_filter_decide(uint64_t addr)
{
	uint32_t flags;
	if (calls_decided_get(addr, &flags))
		return flags;
	if (deciding)
		return 0;
	deciding = true;
	pthread_mutex_lock(&lock);
	flags = decide(addr);
	if (calls_decided && used < SLOTS / 2) {
		struct calls_decided *s = calls_decided_first(addr);
		for (unsigned probe = 0; probe < CALLS_DECIDED_PROBES;
		     probe++, s = calls_decided_next(s)) {
			if (s->addr == addr)
				break;
			if (!s->addr) {
				s->flags = flags;
				__atomic_store_n(&s->addr, addr, __ATOMIC_RELEASE);
				used++;
				break;
			}
		}
	}
	pthread_mutex_unlock(&lock);
	deciding = false;
	return flags;
}
