/* SPDX-License-Identifier: MIT */
/* settings.c: the environment spoor record sets (cmds/record-calls.c), read once at load; and
 * the library's start: events registered, load map written, hooks made live. */
#include <stdlib.h>
#include <string.h>

#include "calls.h"

struct calls_settings calls_cfg;

static const char *nonempty(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static uint64_t number(const char *name)
{
	const char *v = getenv(name);
	return v ? strtoull(v, NULL, 10) : 0;
}

static void read_settings(void)
{
	struct calls_settings *c = &calls_cfg;
	c->include = nonempty("SPOOR_CALLS");
	if (c->include && !strcmp(c->include, "*"))
		c->include = NULL; /* everything: no look-up at all */
	c->exclude = nonempty("SPOOR_CALLS_EXCLUDE");
	c->graph = nonempty("SPOOR_CALLS_GRAPH");
	c->depth = (uint32_t) number("SPOOR_CALLS_DEPTH");
	c->min = number("SPOOR_CALLS_MIN");
	const char *clock = getenv("SPOOR_CALLS_CLOCK");
	c->mono = clock && !strcmp(clock, "mono");
	c->names = c->include || c->exclude || c->graph;
	c->counted = c->graph || c->depth || c->min;
	c->stateful = c->names || c->counted;
}

/* After libspoor-ust's constructors (a dependency's run first), before the program's. */
__attribute__((constructor)) static void calls_start(void)
{
	read_settings();
	calls_filter_init();
	calls_loadmap_start();
}
