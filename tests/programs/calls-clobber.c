/* SPDX-License-Identifier: MIT */
/* calls-clobber.c: preloaded after libspoor-calls (tests/cli/record-calls-regs.sh), its
 * spoor_reserve comes before libspoor-ust's: it zeroes every vector register (vzeroall: all
 * of %ymm0-15), as any C code may, then passes the call on. libspoor-calls calls it on its
 * general path, which must keep a traced function's vector arguments and result. */
#include <dlfcn.h>
#include <stddef.h>

struct spoor_event_desc;
struct spoor_reservation;
int spoor_reserve(const struct spoor_event_desc *ev, size_t size, struct spoor_reservation *r);

__attribute__((visibility("default"))) int spoor_reserve(const struct spoor_event_desc *ev,
                                                         size_t size, struct spoor_reservation *r)
{
	static int (*real)(const struct spoor_event_desc *, size_t, struct spoor_reservation *);
	if (!real)
		real = (int (*)(const struct spoor_event_desc *, size_t,
		                struct spoor_reservation *)) dlsym(RTLD_NEXT, "spoor_reserve");
	if (__builtin_cpu_supports("avx"))
		__asm__ volatile("vzeroall" ::: "memory");
	return real ? real(ev, size, r) : 0;
}
