/* SPDX-License-Identifier: MIT */
/* dl-provider.c: a shared library with its own provider, for the dlopen test. */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>

/* clang-format off */
SPOOR_EVENT(plugin, loaded,
	    SPOOR_ARGS(int generation, const char *name),
	    SPOOR_FIELDS(spoor_field_int(int32_t, generation, generation)
			 spoor_field_string(name, name)))
/* clang-format on */

__attribute__((visibility("default"))) void plugin_run(int generation);
void plugin_run(int generation)
{
	spoor_trace(plugin, loaded, generation, "dl-provider");
}
