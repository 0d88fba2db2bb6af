/* SPDX-License-Identifier: MIT */
/* calls-count-dladdr.c: preloaded after libspoor-calls (tests/cli/record-calls.sh), its
 * dladdr comes before the C library's: each call is counted and passed on, and the count
 * goes to stderr at exit as "PROGRAM: dladdr N" (libspoor-calls looks a function's name up
 * through dladdr: only when a name filter asks for it). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

static unsigned long calls;

__attribute__((visibility("default"))) int dladdr(const void *addr, Dl_info *info)
{
	static int (*real)(const void *, Dl_info *);
	if (!real)
		real = (int (*)(const void *, Dl_info *)) dlsym(RTLD_NEXT, "dladdr");
	__atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
	return real ? real(addr, info) : 0;
}

__attribute__((destructor)) static void report(void)
{
	fprintf(stderr, "%s: dladdr %lu\n", program_invocation_short_name, calls);
}
