/* SPDX-License-Identifier: MIT */
/* calls.h: what the files of libspoor-calls share (docs/functions.md, "Recording"): the
 * settings spoor record passes in the environment, the per-thread shadow stack, the
 * decision per function, and the load map. */
#ifndef CALLS_CALLS_H
#define CALLS_CALLS_H

#include <stdbool.h>
#include <stdint.h>

#define CALLS_HIDDEN __attribute__((visibility("hidden")))
#define CALLS_API    __attribute__((visibility("default")))

struct calls_settings {
	/* 0: every call recorded as it comes (entry and exit events, no state per call);
	 * else the hooks go through calls_enter/calls_exit */
	bool stateful;
	/* --calls-depth, --calls-graph or --calls-min: calls_enter/calls_exit count or time
	 * each call (else -pg's hooks take the calls through mcount-fast.c) */
	bool counted;
	bool mono;      /* the trace clock is CLOCK_MONOTONIC in ns, not the TSC */
	bool names;     /* the name filters or --calls-graph decide per function */
	uint32_t depth; /* --calls-depth: 0 for no limit */
	uint64_t min;   /* --calls-min in the trace clock's units: 0 for entries and exits */
	const char *include, *exclude, *graph; /* comma-separated globs (or NULL) */
};
extern CALLS_HIDDEN struct calls_settings calls_cfg;

/* One call in flight on a thread. */
struct calls_frame {
	uint64_t addr;  /* the function (as the events say it) */
	uint64_t site;  /* the return address in the caller */
	uint64_t slot;  /* -pg: where that return address lives on the stack; else 0 */
	uint64_t ts;    /* --calls-min: the entry's time */
	uint32_t flags; /* CALLS_* below */
};
#define CALLS_RECORDED 1u /* its entry counted towards the depth (and events were written) */
#define CALLS_ROOT     2u /* a --calls-graph function */

#define CALLS_FRAMES 8192 /* deeper calls go unrecorded (their entry and exit both) */

struct calls_thread {
	uint32_t n;     /* frames in flight: f[0, n), of CALLS_FRAMES */
	uint32_t depth; /* recorded calls in flight */
	uint32_t graph; /* --calls-graph functions in flight */
	struct calls_frame f[];
};
/* The calling thread's shadow stack (thread.c): NULL until its first call, then
 * CALLS_ENDED once the thread is ending or when it could not be made. */
extern __thread struct calls_thread *calls_self __attribute__((tls_model("initial-exec")))
CALLS_HIDDEN;
#define CALLS_ENDED ((struct calls_thread *) 1)
struct calls_thread *calls_thread_make(void) CALLS_HIDDEN;

/* The calling thread's shadow stack, made on first use; NULL once the thread is ending or
 * when it cannot be made (the calls then go unrecorded). Async-signal-safe. */
static inline struct calls_thread *calls_thread_get(void)
{
	struct calls_thread *t = calls_self;
	if (__builtin_expect(t != NULL && t != CALLS_ENDED, 1))
		return t;
	return t ? NULL : calls_thread_make();
}

/* Push a frame for addr called from site, or NULL when the stack is full. A signal
 * handler that comes meanwhile pushes above it and pops back to it: the frame is counted
 * before it is written, and its slot matches nothing yet. */
static inline struct calls_frame *calls_push(struct calls_thread *t, uint64_t addr, uint64_t site)
{
	uint32_t n = t->n;
	if (__builtin_expect(n >= CALLS_FRAMES, 0))
		return NULL;
	struct calls_frame *f = &t->f[n];
	f->slot = UINT64_MAX;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t->n = n + 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	f->addr = addr;
	f->site = site;
	return f;
}

/* Per function, decided once (filter.c). */
#define CALLS_TRACE 1u /* the name filters let it through */
uint32_t calls_filter_decide(uint64_t addr) CALLS_HIDDEN;
void calls_filter_init(void) CALLS_HIDDEN;

/* The decisions made (filter.c fills it), read without a lock: open addressing, a few
 * probes from the address's hash. */
struct calls_decided {
	uint64_t addr; /* 0: free */
	uint32_t flags;
};
#define CALLS_DECIDED_BITS   17
#define CALLS_DECIDED_PROBES 8
extern struct calls_decided *calls_decided CALLS_HIDDEN; /* NULL: none kept */

static inline struct calls_decided *calls_decided_first(uint64_t addr)
{
	return &calls_decided[(addr * 0x9e3779b97f4a7c15ull) >> (64 - CALLS_DECIDED_BITS)];
}
static inline struct calls_decided *calls_decided_next(struct calls_decided *s)
{
	return s + 1 < calls_decided + (1u << CALLS_DECIDED_BITS) ? s + 1 : calls_decided;
}

/* addr's flags when decided already: 1; else 0. */
static inline int calls_decided_get(uint64_t addr, uint32_t *flags)
{
	if (__builtin_expect(calls_decided == NULL, 0))
		return 0;
	struct calls_decided *s = calls_decided_first(addr);
	for (unsigned probe = 0; probe < CALLS_DECIDED_PROBES; probe++, s = calls_decided_next(s)) {
		uint64_t a = __atomic_load_n(&s->addr, __ATOMIC_ACQUIRE);
		if (a == addr) {
			*flags = s->flags;
			return 1;
		}
		if (!a)
			break;
	}
	return 0;
}

/* flags of addr (CALLS_TRACE, CALLS_ROOT): with no name filter, every function traced and
 * none looked up. */
static inline uint32_t calls_decide(uint64_t addr)
{
	return calls_cfg.names ? calls_filter_decide(addr) : CALLS_TRACE;
}

/* Whether --calls-graph and --calls-depth let a call of decision d be recorded now:
 * CALLS_RECORDED, with d's CALLS_ROOT. */
static inline uint32_t calls_recorded(const struct calls_thread *t, uint32_t d)
{
	uint32_t root = d & CALLS_ROOT;
	bool in = (!calls_cfg.graph || t->graph || root) &&
	          (!calls_cfg.depth || t->depth < calls_cfg.depth);
	return root | (in ? CALLS_RECORDED : 0);
}
/* A recorded call counted in (dir 1) or out (-1) of the depth and the graph. */
static inline void calls_count(struct calls_thread *t, uint32_t flags, int dir)
{
	t->depth += (uint32_t) dir;
	t->graph += (uint32_t) (flags & CALLS_ROOT ? dir : 0);
}

/* Entry and exit with state (settings.stateful, and every -pg call). calls_enter returns
 * the frame pushed (to fill slot), or NULL when the call is not followed. */
struct calls_frame *calls_enter(struct calls_thread *t, uint64_t addr, uint64_t site,
                                uint32_t decision) CALLS_HIDDEN;
/* The exit of frame i, and first of those above it (left by a longjmp), innermost first:
 * their events as decided at their entries; all popped. */
void calls_exit(struct calls_thread *t, uint32_t i) CALLS_HIDDEN;

/* -pg's return trampoline (mcount.S): a traced call's return address, while it runs. */
void calls_return(void) CALLS_HIDDEN;
/* The exits of the frames that a longjmp or an exception left: those whose return address
 * lived at or below slot, on the stack that slot is on (mcount.c); all popped. */
void calls_drop_left(struct calls_thread *t, uint64_t slot) CALLS_HIDDEN;

/* The trace clock now (TSC or CLOCK_MONOTONIC ns, as the session's). */
uint64_t calls_now(void) CALLS_HIDDEN;

/* The load map: every loaded object at start (lttng_ust_statedump:*), then the changes
 * after a dlopen or dlclose (lttng_ust_dl:*). */
void calls_loadmap_start(void) CALLS_HIDDEN;
void calls_loadmap_update(int dlopen_flags, bool opened) CALLS_HIDDEN;

/* -fpatchable-function-entry's and -mnop-mcount's sites of the object at path, mapped with
 * load bias `bias`, made calls to __fentry__ (those the filters let through). */
void calls_patch_object(uint64_t bias, const char *path) CALLS_HIDDEN;

#endif
