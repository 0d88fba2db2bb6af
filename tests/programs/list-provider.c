/* SPDX-License-Identifier: MIT */
/*
 * list-provider.c: a shared library for `spoor list -u`: the field kinds and flags hello
 * lacks, and an enum table that is exported rather than static, so that the pointer to it is
 * a symbol relocation (R_X86_64_64) instead of a relative one.
 */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>

__attribute__((visibility("default"))) extern const struct spoor_enum_entry list_level_entries[3];
const struct spoor_enum_entry list_level_entries[3] = {
    {"low", -5, -1},
    {"zero", 0, 0},
    {"high", 1, 100},
};
static const struct spoor_enum_entry list_big_entries[] = {
    {"max", (int64_t) UINT64_MAX, (int64_t) UINT64_MAX},
};

/* clang-format off */
SPOOR_EVENT(listprov, packet,
	    SPOOR_ARGS(uint32_t addr, uint16_t port, float ratio, int level, uint64_t big),
	    SPOOR_FIELDS(spoor_field_network(uint32_t, addr, addr)
			 spoor_field_network(uint16_t, port, port)
			 spoor_field_float(float, ratio, ratio)
			 spoor_field_enum(int16_t, level, level, list_level_entries)
			 spoor_field_enum(uint64_t, big, big, list_big_entries)))
SPOOR_EVENT(listprov, flag, SPOOR_ARGS(int on), SPOOR_FIELDS(spoor_field_hex(uint8_t, on, on)))
/* clang-format on */

__attribute__((visibility("default"))) void list_run(void);
void list_run(void)
{
	spoor_trace(listprov, packet, 0x0100007f, 0x5000, 0.5f, -3, UINT64_MAX);
	spoor_trace(listprov, flag, 1);
}
