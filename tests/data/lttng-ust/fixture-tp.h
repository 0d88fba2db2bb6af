/*
 * LTTng-UST 2.13 tracepoint provider "spoor_fixture".
 *
 * Used only to generate the CTF trace fixtures under tests/data/traces/
 * (see README.md and record.sh in this directory).  Together the events
 * cover every field kind the classic TRACEPOINT_EVENT API can emit.
 */
/* Event declarations are laid out by hand. */
/* clang-format off */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER spoor_fixture

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./fixture-tp.h"

#if !defined(SPOOR_FIXTURE_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define SPOOR_FIXTURE_TP_H

#include <lttng/tracepoint.h>
#include <endian.h>
#include <stdint.h>

/* Signed enum: single values, ranges, negative values and two overlapping
 * ranges (17 maps to both "TEENS" and "OVERLAP_15_25").  Values such as 5,
 * -5 or 30 map to no label. */
TRACEPOINT_ENUM(spoor_fixture, signed_enum,
	TP_ENUM_VALUES(
		ctf_enum_value("ZERO", 0)
		ctf_enum_value("ONE", 1)
		ctf_enum_value("MINUS_ONE", -1)
		ctf_enum_range("NEG_RANGE", -100, -10)
		ctf_enum_range("TEENS", 10, 19)
		ctf_enum_range("OVERLAP_15_25", 15, 25)
		ctf_enum_value("MILLION", 1000000)
	)
)

/* Unsigned enum (uint8_t container): 201..254 map to no label. */
TRACEPOINT_ENUM(spoor_fixture, unsigned_enum,
	TP_ENUM_VALUES(
		ctf_enum_value("LOW", 0)
		ctf_enum_range("MID", 1, 127)
		ctf_enum_range("HIGH", 128, 200)
		ctf_enum_value("MAX", 255)
	)
)

/* Plain signed and unsigned integers of every width. */
TRACEPOINT_EVENT(spoor_fixture, integers,
	TP_ARGS(int8_t, s8, int16_t, s16, int32_t, s32, int64_t, s64,
		uint8_t, u8, uint16_t, u16, uint32_t, u32, uint64_t, u64),
	TP_FIELDS(
		ctf_integer(int8_t, s8, s8)
		ctf_integer(int16_t, s16, s16)
		ctf_integer(int32_t, s32, s32)
		ctf_integer(int64_t, s64, s64)
		ctf_integer(uint8_t, u8, u8)
		ctf_integer(uint16_t, u16, u16)
		ctf_integer(uint32_t, u32, u32)
		ctf_integer(uint64_t, u64, u64)
	)
)

/*
 * Hexadecimal display base and network (big-endian) byte order.
 * ctf_integer_network*() record the bytes of their argument as-is and declare
 * them big-endian, i.e. the argument must already be in network byte order
 * (like htons(port)); hence the htobe*() below, so that a reader shows the
 * logical value.
 */
TRACEPOINT_EVENT(spoor_fixture, hex_network,
	TP_ARGS(int64_t, s, uint64_t, u),
	TP_FIELDS(
		ctf_integer_hex(uint8_t, hex_u8, (uint8_t) u)
		ctf_integer_hex(int32_t, hex_s32, (int32_t) s)
		ctf_integer_hex(uint64_t, hex_u64, u)
		ctf_integer_network(uint16_t, net_u16, htobe16((uint16_t) u))
		ctf_integer_network(int32_t, net_s32, htobe32((uint32_t) s))
		ctf_integer_network(uint32_t, net_u32, htobe32((uint32_t) u))
		ctf_integer_network(int64_t, net_s64, htobe64((uint64_t) s))
		ctf_integer_network_hex(uint32_t, net_hex_u32, htobe32((uint32_t) u))
	)
)

TRACEPOINT_EVENT(spoor_fixture, floats,
	TP_ARGS(float, f, double, d),
	TP_FIELDS(
		ctf_float(float, f32, f)
		ctf_float(double, f64, d)
	)
)

TRACEPOINT_EVENT(spoor_fixture, strings,
	TP_ARGS(const char *, varying, const char *, indexed),
	TP_FIELDS(
		ctf_string(varying, varying)
		ctf_string(fixed, "q=\" bs=\\ tab=\t nl=\n utf8=caf\xc3\xa9")
		ctf_string(indexed, indexed)
		ctf_string(empty, "")
	)
)

/* anet must point to big-endian (network order) elements, see above. */
TRACEPOINT_EVENT(spoor_fixture, arrays,
	TP_ARGS(const int32_t *, a32, const uint8_t *, a8,
		const uint32_t *, anet, const char *, text),
	TP_FIELDS(
		ctf_array(int32_t, arr_s32, a32, 4)
		ctf_array(uint8_t, arr_u8, a8, 3)
		ctf_array_hex(uint8_t, arr_hex_u8, a8, 3)
		ctf_array_network(uint32_t, arr_net_u32, anet, 2)
		ctf_array_text(char, arr_text, text, 8)
	)
)

TRACEPOINT_EVENT(spoor_fixture, sequences,
	TP_ARGS(const int16_t *, s16, unsigned int, n16,
		const uint64_t *, u64, unsigned int, n64,
		const char *, text, unsigned int, ntext),
	TP_FIELDS(
		ctf_sequence(int16_t, seq_s16, s16, unsigned int, n16)
		ctf_sequence(uint64_t, seq_u64, u64, unsigned int, n64)
		ctf_sequence_text(char, seq_text, text, unsigned int, ntext)
	)
)

TRACEPOINT_EVENT(spoor_fixture, enums,
	TP_ARGS(int, se, uint8_t, ue),
	TP_FIELDS(
		ctf_enum(spoor_fixture, signed_enum, int, enum_signed, se)
		ctf_enum(spoor_fixture, unsigned_enum, uint8_t, enum_unsigned, ue)
	)
)

/* Benchmark shapes. */
TRACEPOINT_EVENT(spoor_fixture, two_ints,
	TP_ARGS(uint64_t, a, uint64_t, b),
	TP_FIELDS(
		ctf_integer(uint64_t, a, a)
		ctf_integer(uint64_t, b, b)
	)
)

TRACEPOINT_EVENT(spoor_fixture, ints_string,
	TP_ARGS(int, a, int, b, const char *, s),
	TP_FIELDS(
		ctf_integer(int, a, a)
		ctf_integer(int, b, b)
		ctf_string(s, s)
	)
)

#endif /* SPOOR_FIXTURE_TP_H */

#include <lttng/tracepoint-event.h>
/* clang-format on */
