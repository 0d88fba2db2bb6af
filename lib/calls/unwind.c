/* SPDX-License-Identifier: MIT */
/*
 * unwind.c: C++ exceptions through functions whose return goes through the trampoline (-pg,
 * -mfentry, patched entries: mcount.c). The unwinder finds each frame's caller by its return
 * address; the trampoline's has no unwind table, so it would stop there and the program end
 * in std::terminate. So while an exception is on its way, every frame of the thread's shadow
 * stack has its original return address back on the stack. Where the exception lands (a
 * catch, or a cleanup: the destructors of a frame it passes, which end in _Unwind_Resume),
 * the frames whose return addresses lay below the landing frame have ended: their exits are
 * written then, and they are popped. At a catch, the frames still live get the trampoline's
 * address back, so that their returns are traced as before.
 *
 * The hooks take the place of the unwinder's and the C++ runtime's (the library is
 * preloaded) and call them through dlsym(RTLD_NEXT):
 *   _Unwind_RaiseException  every throw: __cxa_throw; __cxa_rethrow, through
 *                           _Unwind_Resume_or_Rethrow; std::rethrow_exception; other
 *                           languages' throws. Each writes spoor_calls:throw, with every
 *                           hook, so that a reader sees where it came from;
 *   __gxx_personality_v0    C++'s, and __gcc_personality_v0 C's (-fexceptions), asked by the
 *                           unwinder about each frame: the one that says "land here" gives
 *                           the landing frame exactly (its CFA), before any code runs there;
 *   _Unwind_Resume          the end of a cleanup, where the exception goes on: the frames
 *                           hooked again meanwhile (a destructor's calls) unhooked;
 *   __cxa_begin_catch       a C++ catch, catch (...) too: the frames still live hooked again
 *                           (also called before std::terminate when nothing catches);
 *   pthread_exit            whose unwinding runs the cleanups as an exception does.
 * The last two also end the frames below the caller, for landings that no hooked
 * personality saw. A thread's exceptions touch its own shadow stack only.
 * -finstrument-functions needs none of this: the compiler calls the exit hook in each
 * function's cleanup.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <unwind.h>

#include "calls-tp.h"
#include "mcount.h"

void *__cxa_begin_catch(void *e);
_Unwind_Reason_Code __gxx_personality_v0(int version, _Unwind_Action actions, uint64_t cls,
                                         struct _Unwind_Exception *e, struct _Unwind_Context *ctx);
_Unwind_Reason_Code __gcc_personality_v0(int version, _Unwind_Action actions, uint64_t cls,
                                         struct _Unwind_Exception *e, struct _Unwind_Context *ctx);

/* The next definition of name (the unwinder's, the C++ runtime's), looked up once. */
static void *next(void **cache, const char *name)
{
	void *fn = __atomic_load_n(cache, __ATOMIC_RELAXED);
	if (__builtin_expect(fn != NULL, 1))
		return fn;
	fn = dlsym(RTLD_NEXT, name);
	if (!fn) {
		static const char msg[] = "spoor: libspoor-calls: the unwinder's functions are "
		                          "missing\n";
		if (write(2, msg, sizeof(msg) - 1) < 0)
			abort();
		abort();
	}
	__atomic_store_n(cache, fn, __ATOMIC_RELAXED);
	return fn;
}

/* The calling thread's shadow stack, if it has frames. */
static struct calls_thread *frames(void)
{
	struct calls_thread *t = calls_self;
	return t != NULL && t != CALLS_ENDED && t->n ? t : NULL;
}

/* Where the hook that says it has its own return address: just below the stack pointer of
 * the frame that called the hook, so a frame whose return address lay at or below it has
 * ended. */
#define HERE() ((uint64_t) __builtin_frame_address(0) + 8)

/* Each frame's slot from the trampoline's address (or a patched function's thunk's:
 * mcount.h) to its original one (original), or to the trampoline's (a patched function that
 * an exception passed by then returns through the trampoline, which finds its frame the
 * same way). Only slots that hold the one expected are written: a frame between its push
 * and its take-over has no slot yet, and -finstrument-functions' frames none at all. */
static void put_back(struct calls_thread *t, bool original)
{
	for (uint32_t i = t->n; i-- > 0;) {
		struct calls_frame *f = &t->f[i];
		if (f->slot == UINT64_MAX || f->slot == 0)
			continue;
		uint64_t *slot = (uint64_t *) f->slot;
		if (original ? calls_is_return(*slot) : *slot == f->site)
			*slot = original ? f->site : (uint64_t) calls_return;
	}
}

/* The exception goes on from a frame whose return addresses lie above `here`: those below
 * have ended (a longjmp's, or the exception's), the others show the unwinder their own. */
static void unhook(uint64_t here)
{
	struct calls_thread *t = frames();
	if (t) {
		calls_drop_left(t, here);
		put_back(t, true);
	}
}

/* It lands in a frame whose return addresses lie above `here`: the frames below have ended,
 * the others are traced again. */
static void rehook(uint64_t here)
{
	struct calls_thread *t = frames();
	if (t) {
		calls_drop_left(t, here);
		put_back(t, false);
	}
}

CALLS_API _Unwind_Reason_Code _Unwind_RaiseException(struct _Unwind_Exception *e)
{
	static void *cache;
	_Unwind_Reason_Code (*real)(struct _Unwind_Exception *) =
	    next(&cache, "_Unwind_RaiseException");
	spoor_trace(spoor_calls, throw, (uint64_t) e);
	unhook(HERE());
	_Unwind_Reason_Code rc = real(e);
	/* nothing catches it: the thrower goes on (to std::terminate, for C++) */
	rehook(HERE());
	return rc;
}

CALLS_API void _Unwind_Resume(struct _Unwind_Exception *e)
{
	static void *cache;
	void (*real)(struct _Unwind_Exception *) = next(&cache, "_Unwind_Resume");
	unhook(HERE());
	real(e);
	__builtin_unreachable();
}

/* pthread_exit unwinds the thread's stack as an exception that nothing catches would (a
 * forced unwind: C++ destructors run on the way) up to the thread's start. Its cleanups
 * land as an exception's; the calls above the last end with the thread, without an exit.
 * (pthread_cancel's unwinding starts inside the C library: not taken over.) */
CALLS_API void pthread_exit(void *ret)
{
	static void *cache;
	void (*real)(void *) = next(&cache, "pthread_exit");
	unhook(HERE());
	real(ret);
	__builtin_unreachable();
}

CALLS_API void *__cxa_begin_catch(void *e)
{
	static void *cache;
	void *(*real)(void *) = next(&cache, "__cxa_begin_catch");
	rehook(HERE());
	return real(e);
}

/* The personality says where the exception lands (the second pass's "install context"):
 * in the frame of ctx, whose stack pointer at its call is what _Unwind_GetCFA gives there
 * (libgcc's and LLVM's libunwind alike: the CFA of the frame it called). The frames whose
 * return addresses lie below it end now, before the landing pad runs. */
static _Unwind_Reason_Code landing(_Unwind_Reason_Code rc, _Unwind_Action actions,
                                   struct _Unwind_Context *ctx)
{
	static void *cache;
	struct calls_thread *t;
	if (rc == _URC_INSTALL_CONTEXT && (actions & _UA_CLEANUP_PHASE) && (t = frames())) {
		_Unwind_Word (*cfa)(struct _Unwind_Context *) = next(&cache, "_Unwind_GetCFA");
		calls_drop_left(t, cfa(ctx) - 8);
	}
	return rc;
}

/* Both personalities the same way: the real one's answer, and where it lands. */
#define PERSONALITY(name)                                                                          \
	CALLS_API _Unwind_Reason_Code name(int version, _Unwind_Action actions, uint64_t cls,      \
	                                   struct _Unwind_Exception *e,                            \
	                                   struct _Unwind_Context *ctx)                            \
	{                                                                                          \
		static void *cache;                                                                \
		_Unwind_Personality_Fn real = next(&cache, #name);                                 \
		return landing(real(version, actions, cls, e, ctx), actions, ctx);                 \
	}
PERSONALITY(__gxx_personality_v0)
PERSONALITY(__gcc_personality_v0)
