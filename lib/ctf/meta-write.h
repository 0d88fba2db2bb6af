/* SPDX-License-Identifier: MIT */
/*
 * meta-write.h: the CTF 1.8 metadata (TSDL text) of spoor's user-space tracer, written from
 * the event descriptors of include/spoor/tracepoint-types.h. spoor's reader and babeltrace2
 * (2.0.4) both read it.
 *
 * ABI contract: the layout below is fixed. spoor's ring buffer writes exactly this, so any
 * change here is a change of the stream format and must be made on both sides.
 *
 *   trace: CTF 1.8, the given uuid, byte_order = le (the writer's host: asserted below).
 *     Every integer has its natural alignment (align = size) unless said otherwise.
 *     packet.header := struct {
 *             uint32_t magic;               0xC1FC1FC1
 *             uint8_t  uuid[16];            the trace uuid
 *             uint32_t stream_id;           0
 *             uint64_t stream_instance_id;
 *     };
 *   env: one entry per struct meta_env (strings quoted and escaped, integers bare).
 *   clock: one, with precision = 1 and absolute = FALSE; the unsigned typealiases
 *     uint27_clock_NAME_t, uint32_clock_NAME_t and uint64_clock_NAME_t map to it
 *     (map = clock.NAME.value), as LTTng writes them.
 *   stream: one, id 0:
 *     packet.context := struct {
 *             uint64_clock_NAME_t timestamp_begin;
 *             uint64_clock_NAME_t timestamp_end;
 *             uint64_t content_size;        bits
 *             uint64_t packet_size;         bits
 *             uint64_t packet_seq_num;
 *             uint64_t events_discarded;
 *             uint32_t vpid;                (or the meta_trace's packet_u32 names)
 *             uint32_t vtid;
 *             uint64_t events_overwritten;  user space only (no packet_u32): of the
 *                                           events_discarded, those in packets the
 *                                           flight recorder overwrote (cumulative)
 *     };
 *     event.context := struct { ... };   only with meta_trace.event_context
 *     event.header := LTTng's compact header (uint5_t and uint27 have align = 1):
 *             struct {
 *                     enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
 *                     variant <id> {
 *                             struct { uint27_clock_NAME_t timestamp; } compact;
 *                             struct { uint32_t id; uint64_clock_NAME_t timestamp; } extended;
 *                     } v;
 *             } align(8);
 *     The extended struct is 64-bit aligned (its uint64), so an extended header pads from the
 *     5-bit id to the next 64-bit boundary of the packet, as does its timestamp.
 *   event (one per descriptor): name = "PROVIDER:NAME" ("NAME" when the provider is empty,
 *     as for kernel events), id = desc->id, stream_id = 0, and
 *     fields := struct { ... } with one member per field descriptor, named with a leading
 *     underscore (readers drop one, as for LTTng, so TSDL keywords are valid field names):
 *       INT       integer { size = 8*size; align = 8*size; signed; encoding = none; base;
 *                 [byte_order = be;] } _name;
 *       FLOAT     floating_point { exp_dig = 8|11; mant_dig = 24|53; align = 32|64;
 *                 [byte_order = be;] } _name;
 *       STRING    string _name;                               (NUL-terminated, byte aligned)
 *       ARRAY     <element integer> _name[length];            (text: encoding = UTF8)
 *       SEQUENCE  integer { size = 32; align = 32; signed = 0; ... } __name_length;
 *                 <element integer> _name[ __name_length ];
 *       ENUM      enum : <integer> { "label" = lo ... hi, "x" = 5, ... } _name;
 *     The payload struct is aligned to its largest member alignment, each member to its own:
 *     all offsets count from the start of the packet.
 */
#ifndef CTF_META_WRITE_H
#define CTF_META_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "spoor/tracepoint-types.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "spoor's tracer writes little-endian traces: byte_order = le in the metadata");

/* An env entry: `key = "str";` when is_str, else `key = num;`. key is an identifier. */
struct meta_env {
	const char *key;
	const char *str;
	int64_t num;
	int is_str;
};

/* The trace's one clock. name is an identifier (it names typealiases too); description may
 * be NULL. */
struct meta_clock {
	const char *name;
	const char *description;
	uint8_t uuid[16];
	uint64_t freq; /* Hz, not 0 */
	int64_t offset_s;
	uint64_t offset; /* cycles, added to offset_s */
};

struct meta_trace {
	uint8_t uuid[16];
	const struct meta_env *env;
	size_t nenv;
	struct meta_clock clock;
	/* Every event field, and the extended event header's id and timestamp, byte-aligned:
	 * the layout spoor's tracer writes (no padding; x86-64 and arm64 read unaligned data at
	 * full speed). 0: natural alignment, as LTTng does on other architectures. */
	int packed;
	/* The uint32_t members that end the packet context; NULL: "vpid", "vtid" (user
	 * space). The kernel's streams have "cpu_id". */
	const char *const *packet_u32;
	size_t npacket_u32;
	/* The stream's event.context members, in order (ints only); none when 0. The kernel's
	 * common fields (flags, preempt count, pid) live here. */
	const struct spoor_field_desc *event_context;
	size_t nevent_context;
};

/*
 * The whole metadata: TSDL text starting with the CTF 1.8 signature comment line, in a
 * malloc'd NUL-terminated string (caller frees); *len (may be NULL) gets its length.
 * Returns 0, -ENOMEM, or -EINVAL for something it cannot describe: an unknown kind, an
 * integer size other than 1, 2, 4 or 8 bytes, a float size other than 4 or 8, a base other
 * than 2, 8, 10 or 16 (0 means 10), a text element wider than a byte, a NULL or non-identifier
 * name, an enum without entries or with lo > hi, two members of one payload with the same
 * name, two events with the same id, a clock without a name or frequency.
 */
int ctf_meta_write(const struct meta_trace *t, const struct spoor_event_desc *const *events,
                   size_t nevents, char **text, size_t *len);

/* The same for one more event class, to append to an existing metadata file when a provider
 * is registered later (dlopen): just its `event { ... };` block. */
int ctf_meta_write_event(const struct spoor_event_desc *ev, int packed, char **text, size_t *len);

#endif
