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
 * names a thread from the trace, `spoor.snapshot(NAME)` has the host write out session
 * NAME's flight recorder (script_on_snapshot); `map(NAME)` gives an aggregation (prelude.c).
 * Only classes with a handler are decoded.
 */
#ifndef SCRIPT_SCRIPT_H
#define SCRIPT_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/engine.h"

extern const char script_prelude[];

struct script;

/* Load the script and hook its handlers into the engine, then run its start(). err gets
 * "FILE:LINE: message" for a syntax or run-time error. */
int script_load(struct an_engine *e, const char *path, struct script **out, char *err,
                size_t errlen);
/* The same in two steps, for a live session, whose events the script chooses: load and
 * run the script's body; then, with the session started, bind its handlers and run its
 * start(). Classes a live trace gains later are bound as they come. */
int script_open(const char *path, struct script **out, char *err, size_t errlen);
int script_attach(struct script *s, struct an_engine *e, char *err, size_t errlen);
/* Whether the script has a handler for an event of this name (as the trace names it);
 * without catch_all, on() patterns made only of wildcards ("*") do not count. */
bool script_handles(struct script *s, const char *name, bool catch_all);
/* The user-space event patterns its handlers stand for, each ended by a NUL, into out;
 * the length, or 0 when they do not fit (then take every event). */
size_t script_event_patterns(struct script *s, char *out, size_t cap);
/* spoor.snapshot(NAME)'s work: 0 with a report in text, or -1 with why (cap bytes). */
typedef int script_snapshot_fn(void *arg, const char *name, char *text, size_t cap);
void script_on_snapshot(struct script *s, script_snapshot_fn *fn, void *arg);
/* Whether it called spoor.stop(). */
bool script_stopped(const struct script *s);
/* After the pass: 0, or -1 with err set when a handler failed during it (the pass stopped
 * there). */
int script_error(const struct script *s, char *err, size_t errlen);
/* Run finish() and print the maps the script did not print. */
int script_finish(struct script *s, char *err, size_t errlen);
/* How many handler calls ran. */
unsigned long long script_calls(const struct script *s);
void script_free(struct script *s);

#endif
