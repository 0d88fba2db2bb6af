/* SPDX-License-Identifier: MIT */
/* calls-tp.h: the events of function tracing (docs/functions.md), under LTTng-UST's names and
 * fields, so that LTTng's tools and Trace Compass read spoor's traces and spoor reads LTTng's:
 * liblttng-ust-cyg-profile's entries and exits, the state dump's load map
 * (lttng_ust_statedump:*) and liblttng-ust-dl's (lttng_ust_dl:*). Their ids follow this
 * order: the entry and exit come first, so they get the compact header and the inline path. */
/* Event declarations are laid out by hand. */
/* clang-format off */
#ifndef CALLS_CALLS_TP_H
#define CALLS_CALLS_TP_H

#include "spoor/tracepoint.h"

/* addr: the function's run-time address; call_site: the return address in its caller. */
SPOOR_EVENT(lttng_ust_cyg_profile, func_entry,
	    SPOOR_ARGS(uint64_t addr, uint64_t call_site),
	    SPOOR_FIELDS(spoor_field_hex(uint64_t, addr, addr)
			 spoor_field_hex(uint64_t, call_site, call_site)))
SPOOR_EVENT(lttng_ust_cyg_profile, func_exit,
	    SPOOR_ARGS(uint64_t addr, uint64_t call_site),
	    SPOOR_FIELDS(spoor_field_hex(uint64_t, addr, addr)
			 spoor_field_hex(uint64_t, call_site, call_site)))
/* --calls-min: one event at the exit of a call that lasted long enough; duration in the
 * trace clock's cycles (the entry was at this event's time - duration). */
SPOOR_EVENT(spoor_calls, call,
	    SPOOR_ARGS(uint64_t addr, uint64_t call_site, uint64_t duration),
	    SPOOR_FIELDS(spoor_field_hex(uint64_t, addr, addr)
			 spoor_field_hex(uint64_t, call_site, call_site)
			 spoor_field_int(uint64_t, duration, duration)))

/* The load map at start. baddr: where the first loadable segment is mapped; memsz: the
 * span of the loadable segments. */
SPOOR_EVENT(lttng_ust_statedump, start, SPOOR_ARGS(void), SPOOR_FIELDS())
SPOOR_EVENT(lttng_ust_statedump, bin_info,
	    SPOOR_ARGS(uint64_t baddr, uint64_t memsz, const char *path, uint8_t is_pic,
		       uint8_t has_build_id, uint8_t has_debug_link),
	    SPOOR_FIELDS(spoor_field_hex(uint64_t, baddr, baddr)
			 spoor_field_int(uint64_t, memsz, memsz)
			 spoor_field_string(path, path)
			 spoor_field_int(uint8_t, is_pic, is_pic)
			 spoor_field_int(uint8_t, has_build_id, has_build_id)
			 spoor_field_int(uint8_t, has_debug_link, has_debug_link)))
SPOOR_EVENT(lttng_ust_statedump, build_id,
	    SPOOR_ARGS(uint64_t baddr, const uint8_t *id, uint32_t len),
	    SPOOR_FIELDS(spoor_field_hex(uint64_t, baddr, baddr)
			 spoor_field_sequence(uint8_t, build_id, id, len)))
SPOOR_EVENT(lttng_ust_statedump, end, SPOOR_ARGS(void), SPOOR_FIELDS())

/* Objects loaded and unloaded later (dlopen, dlclose). */
SPOOR_EVENT(lttng_ust_dl, dlopen,
	    SPOOR_ARGS(uint64_t baddr, uint64_t memsz, int32_t flags, const char *path,
		       uint8_t has_build_id, uint8_t has_debug_link),
	    SPOOR_FIELDS(spoor_field_hex(uint64_t, baddr, baddr)
			 spoor_field_int(uint64_t, memsz, memsz)
			 spoor_field_hex(int32_t, flags, flags)
			 spoor_field_string(path, path)
			 spoor_field_int(uint8_t, has_build_id, has_build_id)
			 spoor_field_int(uint8_t, has_debug_link, has_debug_link)))
SPOOR_EVENT(lttng_ust_dl, build_id,
	    SPOOR_ARGS(uint64_t baddr, const uint8_t *id, uint32_t len),
	    SPOOR_FIELDS(spoor_field_hex(uint64_t, baddr, baddr)
			 spoor_field_sequence(uint8_t, build_id, id, len)))
SPOOR_EVENT(lttng_ust_dl, dlclose,
	    SPOOR_ARGS(uint64_t baddr),
	    SPOOR_FIELDS(spoor_field_hex(uint64_t, baddr, baddr)))

/* An exception on its way (unwind.c: every throw, rethrow, std::rethrow_exception), in the
 * call that threw it. exception: the address of its object, the same when it is rethrown. */
SPOOR_EVENT(spoor_calls, throw,
	    SPOOR_ARGS(uint64_t exception),
	    SPOOR_FIELDS(spoor_field_hex(uint64_t, exception, exception)))

#endif
/* clang-format on */
