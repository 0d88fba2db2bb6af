/* SPDX-License-Identifier: MIT */
/* plugins.h: loading analysis plug-ins (include/spoor/plugin.h) into an engine's pass. */
#ifndef ANALYSIS_PLUGINS_H
#define ANALYSIS_PLUGINS_H

#include <stdbool.h>
#include <stdio.h>

#include "engine.h"

struct an_plugins;

/* Load the shared objects and run their init (they register hooks). err gets a message. */
int an_plugins_load(struct an_engine *e, const char *const *paths, size_t n,
                    struct an_plugins **out, char *err, size_t errlen);
/* After the pass: each plug-in's report, in load order. Returns how many failed. */
int an_plugins_report(struct an_plugins *p, FILE *out, bool json);
void an_plugins_free(struct an_plugins *p);

#endif
