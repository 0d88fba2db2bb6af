/* SPDX-License-Identifier: MIT */
/*
 * flame.h: each thread's function calls (analysis/calls.h, names through analysis/loadmap.h)
 * as spans by depth, a row per (thread, depth) as in Trace Compass's flame chart and
 * Chrome's: for the view's cache and the Chrome export. One pass: the depth of the calls
 * open when a thread's trace began is known at its end, so a row's depth is given by
 * tl_flame_row after tl_flame_finish; calls come out with the row's number meanwhile.
 *
 * A call whose entry is not in the trace begins at the trace's start when it was open
 * then, else (its entry lost) where the call before it at its depth ended; one whose exit
 * is not (the thread or the trace ends inside it) ends at its thread's last event.
 */
#ifndef TIMELINE_FLAME_H
#define TIMELINE_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/engine.h"

struct tl_call {
	uint32_t row; /* the row's number: dense from 0, in the order rows appear */
	int64_t tid;
	int64_t begin, end; /* relative ns (as states.h's spans) */
	uint32_t function;  /* its name: tl_flame_function_name */
	uint8_t flags;      /* enum calls_flag's first three */
};

/* The function at an address: one per (process, address, function) the calls gave, so that
 * an event that names the address (a func_entry's addr) is named as its call is. */
struct tl_address {
	uint64_t proc; /* analysis/loadmap.h's process: trace << 32 | vpid */
	uint64_t addr;
	int64_t from;      /* relative ns: the first call there under that name */
	uint32_t function; /* tl_flame_function_name */
};

struct tl_flame_callbacks {
	void *data;
	/* a call as it ends: per row in time order, not overlapping */
	void (*call)(void *data, const struct tl_call *c);
};

struct tl_flame;

/* Hooks itself to the engine, before an_engine_run. 0 with *out NULL when the trace has no
 * function entries, exits or whole calls; 0 or -ENOMEM. */
int tl_flame_new(struct an_engine *e, const struct tl_flame_callbacks *cb, struct tl_flame **out);
/* After an_engine_run: the calls still open end (once). 0 or -ENOMEM. */
int tl_flame_finish(struct tl_flame *f);
void tl_flame_free(struct tl_flame *f);
/* Out of memory at some point: some calls are missing. */
bool tl_flame_oom(const struct tl_flame *f);

/* After tl_flame_finish: the rows, each a thread's calls at one depth (0: outermost). */
size_t tl_flame_rows(const struct tl_flame *f);
void tl_flame_row(const struct tl_flame *f, uint32_t row, int64_t *tid, uint32_t *depth);
/* The functions' names, numbered as tl_call.function. */
size_t tl_flame_functions(const struct tl_flame *f);
const char *tl_flame_function_name(const struct tl_flame *f, uint32_t i);
/* After tl_flame_finish: the addresses, sorted by process, address, then from. */
size_t tl_flame_addresses(const struct tl_flame *f);
const struct tl_address *tl_flame_address(const struct tl_flame *f, size_t i);

#endif
