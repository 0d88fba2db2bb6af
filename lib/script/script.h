/* SPDX-License-Identifier: MIT */
/*
 * script.h: Lua scripts with per-event handlers (LTT's tracewatch, done again), run by
 * LuaJIT inside the analysis engine's pass (lib/analysis/engine.h):
 *
 *   function sched_switch(e) ... end      -- a handler named after an event
 *   on("sys_enter_*", function(e) ... end) -- or registered with a wildcard
 *   function start() ... end               -- before the first event
 *   function finish() ... end              -- after the last
 *
 * An event reads as e.name, e.ts (ns since the first event read), e.time (seconds since
 * the epoch), e.cpu, e.tid, e.pid, e.comm (from the trace), and its fields by name
 * (payload first, then the contexts). `spoor.stop()` ends the pass, `spoor.comm(tid)`
 * names a thread from the trace; `map(NAME)` gives an aggregation (prelude.c).
 * Only classes with a handler are decoded.
 */
#ifndef SCRIPT_SCRIPT_H
#define SCRIPT_SCRIPT_H

#include <stddef.h>

#include "analysis/engine.h"

extern const char script_prelude[];

struct script;

/* Load the script and hook its handlers into the engine, then run its start(). err gets
 * "FILE:LINE: message" for a syntax or run-time error. */
int script_load(struct an_engine *e, const char *path, struct script **out, char *err,
                size_t errlen);
/* After the pass: 0, or -1 with err set when a handler failed during it (the pass stopped
 * there). */
int script_error(const struct script *s, char *err, size_t errlen);
/* Run finish() and print the maps the script did not print. */
int script_finish(struct script *s, char *err, size_t errlen);
/* How many handler calls ran. */
unsigned long long script_calls(const struct script *s);
void script_free(struct script *s);

#endif
