/*
 * LTTng-UST 2.13 tracepoint provider "api213", in 2.13's own names only: the programs
 * that include it define LTTNG_UST_COMPAT_API_VERSION 1 first, so the earlier names
 * (TRACEPOINT_EVENT, ctf_*, tracepoint(), ...) are not defined. See README.md.
 */
/* Event declarations are laid out by hand. */
/* clang-format off */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER api213

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./api213-tp.h"

#if !defined(API213_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define API213_TP_H

#include <lttng/tracepoint.h>
#include <stddef.h>
#include <stdint.h>

/* Automatic values: 0, 1, then one past the range's end. */
LTTNG_UST_TRACEPOINT_ENUM(api213, level,
	LTTNG_UST_TP_ENUM_VALUES(
		lttng_ust_field_enum_auto("LOW")
		lttng_ust_field_enum_auto("MID")
		lttng_ust_field_enum_range("HIGH", 10, 20)
		lttng_ust_field_enum_auto("TOP")
		lttng_ust_field_enum_value("NEGATIVE", -3)
	)
)

/* Sequences whose lengths have types of their own, hex and network elements. */
LTTNG_UST_TRACEPOINT_EVENT(api213, lengths,
	LTTNG_UST_TP_ARGS(const uint16_t *, v, size_t, n, unsigned int, m, uint8_t, k),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_sequence(uint16_t, by_size, v, size_t, n)
		lttng_ust_field_sequence_hex(uint16_t, by_uint, v, unsigned int, m)
		lttng_ust_field_sequence_network(uint16_t, by_u8, v, uint8_t, k)
		lttng_ust_field_sequence_network_hex(uint16_t, net_hex, v, unsigned short, k)
		lttng_ust_field_sequence_text(char, text, (const char *) v, unsigned long, n)
		lttng_ust_field_array_network_hex(uint16_t, arr, v, 2)
		lttng_ust_field_integer_nowrite(int, hidden, m)
	)
)

LTTNG_UST_TRACEPOINT_EVENT_CLASS(api213, msg_class,
	LTTNG_UST_TP_ARGS(int, code, const char *, text, int, lvl),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer_hex(int, code, code)
		lttng_ust_field_string(text, text)
		lttng_ust_field_enum(api213, level, int8_t, lvl, lvl)
	)
)
LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(api213, msg_class, api213, info,
	LTTNG_UST_TP_ARGS(int, code, const char *, text, int, lvl))
LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(api213, msg_class, api213, warn,
	LTTNG_UST_TP_ARGS(int, code, const char *, text, int, lvl))
LTTNG_UST_TRACEPOINT_LOGLEVEL(api213, warn, LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING)
LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(api213, warn, "http://example.com/warn")

LTTNG_UST_TRACEPOINT_EVENT(api213, empty, LTTNG_UST_TP_ARGS(), LTTNG_UST_TP_FIELDS())

#endif /* API213_TP_H */

#include <lttng/tracepoint-event.h>
/* clang-format on */
