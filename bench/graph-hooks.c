/* SPDX-License-Identifier: MIT */
/*
 * graph-hooks.c: -finstrument-functions' hooks as LTTng-UST's liblttng-ust-cyg-profile
 * writes them (lttng_ust_cyg_profile:func_entry/func_exit { addr, call_site }), emitted
 * through spoor's tracepoints: the workload of bench/graph.sh, a real spoor trace of
 * millions of calls without spoor record --calls. Linked into a program built with
 * -finstrument-functions (itself built without).
 */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>
#include <stdint.h>

/* clang-format off */
SPOOR_EVENT(lttng_ust_cyg_profile, func_entry, SPOOR_ARGS(void *fn, void *site),
	    SPOOR_FIELDS(spoor_field_hex(uint64_t, addr, (uintptr_t) fn)
			 spoor_field_hex(uint64_t, call_site, (uintptr_t) site)))
SPOOR_EVENT(lttng_ust_cyg_profile, func_exit, SPOOR_ARGS(void *fn, void *site),
	    SPOOR_FIELDS(spoor_field_hex(uint64_t, addr, (uintptr_t) fn)
			 spoor_field_hex(uint64_t, call_site, (uintptr_t) site)))
/* clang-format on */

void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

void __cyg_profile_func_enter(void *fn, void *site)
{
	spoor_trace(lttng_ust_cyg_profile, func_entry, fn, site);
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	spoor_trace(lttng_ust_cyg_profile, func_exit, fn, site);
}
