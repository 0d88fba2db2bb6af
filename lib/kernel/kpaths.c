/* SPDX-License-Identifier: MIT */
/* kpaths.c: libc's paths into the system calls that follow (see kpaths.h). */
#include <string.h>

#include "kpaths.h"
#include "upaths.h"

/* upaths_functions, in its order; each is also the system call of its name. */
enum {
	F_OPEN,
	F_OPENAT,
	F_CREAT,
	F_TRUNCATE,
	F_UNLINK,
	F_UNLINKAT,
	F_RMDIR,
	F_MKDIR,
	F_MKDIRAT,
	F_RENAME,
	F_RENAMEAT,
	F_RENAMEAT2,
	F_COUNT
};
#define C(f) (1u << (f))
/* The system calls glibc's x86-64 functions make: open and creat go through openat, rmdir
 * may be unlinkat, mkdir mkdirat, rename renameat or renameat2. */
static const uint16_t makes[F_COUNT] = {
    [F_OPEN] = C(F_OPEN) | C(F_OPENAT),
    [F_OPENAT] = C(F_OPENAT),
    [F_CREAT] = C(F_CREAT) | C(F_OPEN) | C(F_OPENAT),
    [F_TRUNCATE] = C(F_TRUNCATE),
    [F_UNLINK] = C(F_UNLINK) | C(F_UNLINKAT),
    [F_UNLINKAT] = C(F_UNLINKAT),
    [F_RMDIR] = C(F_RMDIR) | C(F_UNLINKAT),
    [F_MKDIR] = C(F_MKDIR) | C(F_MKDIRAT),
    [F_MKDIRAT] = C(F_MKDIRAT),
    [F_RENAME] = C(F_RENAME) | C(F_RENAMEAT) | C(F_RENAMEAT2),
    [F_RENAMEAT] = C(F_RENAMEAT) | C(F_RENAMEAT2),
    [F_RENAMEAT2] = C(F_RENAMEAT2),
};

static int index_of(const char *name)
{
	for (int i = 0; i < F_COUNT && upaths_functions[i]; i++)
		if (!strcmp(upaths_functions[i], name))
			return i;
	return -1;
}

int kpaths_function(const char *event_name)
{
	size_t n = strlen(UPATHS_SYSTEM);
	if (strncmp(event_name, UPATHS_SYSTEM, n) || event_name[n] != '_')
		return -1;
	return index_of(event_name + n + 1);
}

int kpaths_call(const char *name)
{
	return index_of(name);
}

void kpaths_capture(struct kpath_slot *s, int fn, int32_t tid, const char *const str[2],
                    const size_t len[2])
{
	s->fn = (int8_t) fn;
	s->tid = tid;
	for (int i = 0; i < 2; i++) {
		size_t n = len[i] < KPATH_MAX ? len[i] : KPATH_MAX - 1;
		memcpy(s->s[i], str[i], n);
		s->len[i] = (uint16_t) n;
	}
}

const struct kpath_slot *kpaths_take(struct kpath_slot *s, int call, int32_t tid)
{
	if (s->fn < 0 || s->tid != tid)
		return NULL;
	int fn = s->fn;
	s->fn = -1;
	return fn < F_COUNT && (makes[fn] >> call & 1) ? s : NULL;
}
