/* SPDX-License-Identifier: MIT */
/* dl.c: dlopen and dlclose, taken over (the library is preloaded) to record the load map's
 * changes (loadmap.c). The real ones are the next definitions, the C library's.
 * The loader sees this library as the caller of dlopen: a program's DT_RUNPATH does not
 * apply to the names it opens (LTTng-UST's liblttng-ust-dl has the same limit). */
#include <dlfcn.h>
#include <stddef.h>

#include "calls.h"

CALLS_API void *dlopen(const char *file, int flags)
{
	static void *(*real)(const char *, int);
	if (!real)
		real = (void *(*) (const char *, int) ) dlsym(RTLD_NEXT, "dlopen");
	void *h = real ? real(file, flags) : NULL;
	if (h)
		calls_loadmap_update(flags, true);
	return h;
}

CALLS_API int dlclose(void *handle)
{
	static int (*real)(void *);
	if (!real)
		real = (int (*)(void *)) dlsym(RTLD_NEXT, "dlclose");
	int rc = real ? real(handle) : -1;
	if (rc == 0)
		calls_loadmap_update(0, false);
	return rc;
}
