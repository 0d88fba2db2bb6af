/* SPDX-License-Identifier: MIT */
/*
 * <lttng/tracepoint.h> for programs written for LTTng-UST, built against spoor
 * (docs/compatibility.md, "LTTng-UST programs"; `pkg-config --cflags --libs
 * spoor-lttng-ust` puts this folder first on the include path and links libspoor-ust).
 *
 * LTTng-UST's declarations expand onto spoor's own (spoor/tracepoint.h), so an event has
 * one emit path, spoor's, inline path included:
 *
 *   TRACEPOINT_EVENT(p, e, TP_ARGS(T a, ...), TP_FIELDS(ctf_...))
 *                                      SPOOR_EVENT(p, e, (T a, ...), spoor_field_...)
 *   TRACEPOINT_EVENT_CLASS / _INSTANCE one field list and emit body, a descriptor per
 *                                      instance
 *   TRACEPOINT_ENUM                    a spoor_enum_entry array
 *   tracepoint(), tracepoint_enabled(), do_tracepoint()
 *                                      spoor_trace(), spoor_enabled(), the emit function
 *   TRACEPOINT_DEFINE                  SPOOR_CREATE_PROBES: the descriptors live in that
 *                                      file and register when its object loads
 *   TRACEPOINT_CREATE_PROBES, TRACEPOINT_PROBE_DYNAMIC_LINKAGE, TRACEPOINT_LOGLEVEL,
 *   TRACEPOINT_MODEL_EMF_URI           taken and ignored
 *
 * A provider header is read once: <lttng/tracepoint-event.h> does not read it again.
 * LTTng-UST 2.13's own names (LTTNG_UST_TRACEPOINT_EVENT, lttng_ust_tracepoint(),
 * lttng_ust_field_*, ...) are the definitions; the older names are aliases of them, kept
 * unless LTTNG_UST_COMPAT_API_VERSION says otherwise (ust-api-compat.h).
 */
#ifndef SPOOR_LTTNG_TRACEPOINT_H
#define SPOOR_LTTNG_TRACEPOINT_H

#include <lttng/ust-api-compat.h>

#if LTTNG_UST_COMPAT_API(0) && defined(TRACEPOINT_DEFINE) && !defined(LTTNG_UST_TRACEPOINT_DEFINE)
#define LTTNG_UST_TRACEPOINT_DEFINE
#endif
#if defined(LTTNG_UST_TRACEPOINT_DEFINE) && !defined(SPOOR_CREATE_PROBES)
#define SPOOR_CREATE_PROBES
#endif
#include <spoor/tracepoint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- call sites ---- */

#define lttng_ust_tracepoint_enabled(provider, name) spoor_enabled(provider, name)
/* Without the check (the caller made it): the runtime drops an event nobody records. */
#define lttng_ust_do_tracepoint(provider, name, ...) SPOOR__EMIT_NAME(provider, name)(__VA_ARGS__)
#define lttng_ust_tracepoint(provider, name, ...)    spoor_trace(provider, name, __VA_ARGS__)

/* ---- arguments: LTTng's `type, name` pairs as a prototype ---- */

/* TP_ARGS(int, a, char *, b) is kept in parentheses, so that it passes as one argument. */
#define LTTNG_UST_TP_ARGS(...)   (__VA_ARGS__)
#define LTTNG_UST_TP_FIELDS(...) __VA_ARGS__

#define SPOOR__LT_NARGS(...)                                                                       \
	SPOOR__LT_NARGS_(__VA_ARGS__, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5,   \
	                 4, 3, 2, 1, 0)
#define SPOOR__LT_NARGS_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16,    \
                         _17, _18, _19, _20, N, ...)                                               \
	N
/* `SPOOR__LT_PROTO args`: (T a, U b), or (void) for TP_ARGS() and TP_ARGS(void). */
#define SPOOR__LT_PROTO(...)                                  SPOOR__CAT(SPOOR__LT_PROTO, SPOOR__LT_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define SPOOR__LT_PROTO1(a)                                   (void)
#define SPOOR__LT_PROTO2(a, b)                                (a b)
#define SPOOR__LT_PROTO4(a, b, c, d)                          (a b, c d)
#define SPOOR__LT_PROTO6(a, b, c, d, e, f)                    (a b, c d, e f)
#define SPOOR__LT_PROTO8(a, b, c, d, e, f, g, h)              (a b, c d, e f, g h)
#define SPOOR__LT_PROTO10(a, b, c, d, e, f, g, h, i, j)       (a b, c d, e f, g h, i j)
#define SPOOR__LT_PROTO12(a, b, c, d, e, f, g, h, i, j, k, l) (a b, c d, e f, g h, i j, k l)
#define SPOOR__LT_PROTO14(a, b, c, d, e, f, g, h, i, j, k, l, m, n)                                \
	(a b, c d, e f, g h, i j, k l, m n)
#define SPOOR__LT_PROTO16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)                          \
	(a b, c d, e f, g h, i j, k l, m n, o p)
#define SPOOR__LT_PROTO18(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r)                    \
	(a b, c d, e f, g h, i j, k l, m n, o p, q r)
#define SPOOR__LT_PROTO20(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t)              \
	(a b, c d, e f, g h, i j, k l, m n, o p, q r, s t)
/* `SPOOR__LT_NAMES args`: the names, each after a comma (to follow a first argument). */
#define SPOOR__LT_NAMES(...) SPOOR__CAT(SPOOR__LT_NAMES, SPOOR__LT_NARGS(__VA_ARGS__))(__VA_ARGS__)
#define SPOOR__LT_NAMES1(a)
#define SPOOR__LT_NAMES2(a, b)                                            , b
#define SPOOR__LT_NAMES4(a, b, c, d)                                      , b, d
#define SPOOR__LT_NAMES6(a, b, c, d, e, f)                                , b, d, f
#define SPOOR__LT_NAMES8(a, b, c, d, e, f, g, h)                          , b, d, f, h
#define SPOOR__LT_NAMES10(a, b, c, d, e, f, g, h, i, j)                   , b, d, f, h, j
#define SPOOR__LT_NAMES12(a, b, c, d, e, f, g, h, i, j, k, l)             , b, d, f, h, j, l
#define SPOOR__LT_NAMES14(a, b, c, d, e, f, g, h, i, j, k, l, m, n)       , b, d, f, h, j, l, n
#define SPOOR__LT_NAMES16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p) , b, d, f, h, j, l, n, p
#define SPOOR__LT_NAMES18(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r)                    \
	, b, d, f, h, j, l, n, p, r
#define SPOOR__LT_NAMES20(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t)              \
	, b, d, f, h, j, l, n, p, r, t
/* An event class's emit function takes the instance's descriptor first. */
#define SPOOR__LT_CPROTO(...)                                                                      \
	(struct spoor_event_desc *                                                                 \
	 spoor__d SPOOR__CAT(SPOOR__LT_CPROTO, SPOOR__LT_NARGS(__VA_ARGS__))(__VA_ARGS__))
#define SPOOR__LT_CPROTO1(a)
#define SPOOR__LT_CPROTO2(a, b)                                , a b
#define SPOOR__LT_CPROTO4(a, b, c, d)                          , a b, c d
#define SPOOR__LT_CPROTO6(a, b, c, d, e, f)                    , a b, c d, e f
#define SPOOR__LT_CPROTO8(a, b, c, d, e, f, g, h)              , a b, c d, e f, g h
#define SPOOR__LT_CPROTO10(a, b, c, d, e, f, g, h, i, j)       , a b, c d, e f, g h, i j
#define SPOOR__LT_CPROTO12(a, b, c, d, e, f, g, h, i, j, k, l) , a b, c d, e f, g h, i j, k l
#define SPOOR__LT_CPROTO14(a, b, c, d, e, f, g, h, i, j, k, l, m, n)                               \
	, a b, c d, e f, g h, i j, k l, m n
#define SPOOR__LT_CPROTO16(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p)                         \
	, a b, c d, e f, g h, i j, k l, m n, o p
#define SPOOR__LT_CPROTO18(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r)                   \
	, a b, c d, e f, g h, i j, k l, m n, o p, q r
#define SPOOR__LT_CPROTO20(a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t)             \
	, a b, c d, e f, g h, i j, k l, m n, o p, q r, s t

/* ---- fields: LTTng-UST 2.13's names onto spoor's field kinds ---- */

#define lttng_ust_field_integer(T, item, src)             spoor_field_int(T, item, src)
#define lttng_ust_field_integer_hex(T, item, src)         spoor_field_hex(T, item, src)
#define lttng_ust_field_integer_network(T, item, src)     spoor_field_network(T, item, src)
#define lttng_ust_field_integer_network_hex(T, item, src) spoor_field_network_hex(T, item, src)
#define lttng_ust_field_float(T, item, src)               spoor_field_float(T, item, src)
#define lttng_ust_field_string(item, src)                 spoor_field_string(item, src)
#define lttng_ust_field_array(T, item, src, n)            spoor_field_array(T, item, src, n)
#define lttng_ust_field_array_hex(T, item, src, n)        spoor_field_array_hex(T, item, src, n)
#define lttng_ust_field_array_network(T, item, src, n)    spoor_field_array_network(T, item, src, n)
#define lttng_ust_field_array_network_hex(T, item, src, n)                                         \
	spoor_field_array_network_hex(T, item, src, n)
#define lttng_ust_field_array_text(T, item, src, n) spoor_field_array_text_of(T, item, src, n)
#define lttng_ust_field_sequence(T, item, src, LT, len)                                            \
	spoor_field_sequence_lt(T, item, src, LT, len)
#define lttng_ust_field_sequence_hex(T, item, src, LT, len)                                        \
	spoor_field_sequence_lt_hex(T, item, src, LT, len)
#define lttng_ust_field_sequence_network(T, item, src, LT, len)                                    \
	spoor_field_sequence_lt_network(T, item, src, LT, len)
#define lttng_ust_field_sequence_network_hex(T, item, src, LT, len)                                \
	spoor_field_sequence_lt_network_hex(T, item, src, LT, len)
#define lttng_ust_field_sequence_text(T, item, src, LT, len)                                       \
	spoor_field_sequence_lt_text(item, src, LT, len)
#define lttng_ust_field_enum(provider, name, T, item, src)                                         \
	spoor_field_enum(T, item, src, SPOOR__LT_ENUM_NAME(provider, name))
/* Not recorded (LTTng-UST keeps them for its filters, which spoor does not have); the
 * expression is not evaluated. */
#define lttng_ust_field_integer_nowrite(T, item, src)
#define lttng_ust_field_float_nowrite(T, item, src)
#define lttng_ust_field_string_nowrite(item, src)
#define lttng_ust_field_array_nowrite(T, item, src, n)
#define lttng_ust_field_array_nowrite_hex(T, item, src, n)
#define lttng_ust_field_array_network_nowrite(T, item, src, n)
#define lttng_ust_field_array_network_nowrite_hex(T, item, src, n)
#define lttng_ust_field_array_text_nowrite(T, item, src, n)
#define lttng_ust_field_sequence_nowrite(T, item, src, LT, len)
#define lttng_ust_field_sequence_nowrite_hex(T, item, src, LT, len)
#define lttng_ust_field_sequence_network_nowrite(T, item, src, LT, len)
#define lttng_ust_field_sequence_network_nowrite_hex(T, item, src, LT, len)
#define lttng_ust_field_sequence_text_nowrite(T, item, src, LT, len)
#define lttng_ust_field_enum_nowrite(provider, name, T, item, src)
#define lttng_ust_field_unused(src)
#define lttng_ust_field_unused_nowrite(src)

/* ---- enumerations ---- */

#define SPOOR__LT_ENUM_NAME(provider, name)                                                        \
	SPOOR__CAT(SPOOR__CAT(spoor__lttng_enum_, provider), SPOOR__CAT(__, name))
#define LTTNG_UST_TP_ENUM_VALUES(...)             __VA_ARGS__
#define lttng_ust_field_enum_value(label, v)      (VALUE, label, v, v)
#define lttng_ust_field_enum_range(label, lo, hi) (RANGE, label, lo, hi)
#define lttng_ust_field_enum_auto(label)          (AUTO, label, 0, 0)
/* An automatic value follows the previous entry's last one (CTF; the first is 0): the
 * entries are numbered (__COUNTER__) and each has an enumerator in a C enum, whose own
 * rule of "previous plus one" gives the automatic ones their values. */
#define SPOOR__LTE_NUM_A(...) (__COUNTER__, __VA_ARGS__) SPOOR__LTE_NUM_B
#define SPOOR__LTE_NUM_B(...) (__COUNTER__, __VA_ARGS__) SPOOR__LTE_NUM_A
#define SPOOR__LTE_NUM_A_END
#define SPOOR__LTE_NUM_B_END
#define SPOOR__LTE_HI(c)                    SPOOR__CAT(spoor__lttng_enum_hi_, c)
#define SPOOR__LTE_DECL(c, kind, l, lo, hi) SPOOR__LTE_DECL_##kind(c, lo, hi)
#define SPOOR__LTE_DECL_VALUE(c, lo, hi)    SPOOR__LTE_HI(c) = (hi),
#define SPOOR__LTE_DECL_RANGE(c, lo, hi)    SPOOR__LTE_HI(c) = (hi),
#define SPOOR__LTE_DECL_AUTO(c, lo, hi)     SPOOR__LTE_HI(c),
#define SPOOR__LTE_DECL_A(...)              SPOOR__LTE_DECL(__VA_ARGS__) SPOOR__LTE_DECL_B
#define SPOOR__LTE_DECL_B(...)              SPOOR__LTE_DECL(__VA_ARGS__) SPOOR__LTE_DECL_A
#define SPOOR__LTE_DECL_A_END
#define SPOOR__LTE_DECL_B_END
#define SPOOR__LTE_ENTRY(c, kind, l, lo, hi) SPOOR__LTE_ENTRY_##kind(c, l, lo, hi)
#define SPOOR__LTE_ENTRY_VALUE(c, l, lo, hi) {l, (int64_t) (lo), (int64_t) (hi)},
#define SPOOR__LTE_ENTRY_RANGE(c, l, lo, hi) {l, (int64_t) (lo), (int64_t) (hi)},
#define SPOOR__LTE_ENTRY_AUTO(c, l, lo, hi)                                                        \
	{l, (int64_t) SPOOR__LTE_HI(c), (int64_t) SPOOR__LTE_HI(c)},
#define SPOOR__LTE_ENTRY_A(...) SPOOR__LTE_ENTRY(__VA_ARGS__) SPOOR__LTE_ENTRY_B
#define SPOOR__LTE_ENTRY_B(...) SPOOR__LTE_ENTRY(__VA_ARGS__) SPOOR__LTE_ENTRY_A
#define SPOOR__LTE_ENTRY_A_END
#define SPOOR__LTE_ENTRY_B_END
#define SPOOR__LTE_DEFINE(array, numbered)                                                         \
	enum { SPOOR__END(SPOOR__LTE_DECL_A numbered) };                                           \
	static const struct spoor_enum_entry array[]                                               \
	    __attribute__((unused)) = {SPOOR__END(SPOOR__LTE_ENTRY_A numbered)};

#ifdef SPOOR_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_ENUM(provider, name, values)                                          \
	SPOOR__LTE_DEFINE(SPOOR__LT_ENUM_NAME(provider, name), SPOOR__END(SPOOR__LTE_NUM_A values))
#else /* only the descriptors' file reads the entries */
#define LTTNG_UST_TRACEPOINT_ENUM(provider, name, values)
#endif

/* ---- events ---- */

#define LTTNG_UST_TRACEPOINT_EVENT(provider, name, args, fields)                                   \
	SPOOR_EVENT(provider, name, SPOOR__LT_PROTO args, fields)

#define SPOOR__LT_CFIELDS(provider, name)                                                          \
	SPOOR__CAT(SPOOR__CAT(spoor__lttng_cfields_, provider), SPOOR__CAT(__, name))
#define SPOOR__LT_CEMIT(provider, name)                                                            \
	SPOOR__CAT(SPOOR__CAT(spoor__lttng_cemit_, provider), SPOOR__CAT(__, name))
/* A class: its fields and its emit body, for the descriptor its instance passes. */
#define LTTNG_UST_TRACEPOINT_EVENT_CLASS(provider, name, args, fields)                             \
	SPOOR__DEFINE_FIELDS(SPOOR__LT_CFIELDS(provider, name), fields)                            \
	static inline __attribute__((always_inline, unused)) void SPOOR__LT_CEMIT(provider, name)  \
	    SPOOR__LT_CPROTO args                                                                  \
	    SPOOR__EMIT_BODY(spoor__d, fields)
#define LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(cprovider, cname, provider, name, args)                \
	SPOOR__DEFINE_DESC_OF(provider, name, SPOOR__LT_CFIELDS(cprovider, cname))                 \
	static inline __attribute__((always_inline, unused)) void SPOOR__EMIT_NAME(provider, name) \
	    SPOOR__LT_PROTO args                                                                   \
	{                                                                                          \
		SPOOR__LT_CEMIT(cprovider, cname)                                                  \
		(&SPOOR__DESC_NAME(provider, name) SPOOR__LT_NAMES args);                          \
	}

/* Taken and ignored: spoor has no log levels for events, and no model URIs. */
#define LTTNG_UST_TRACEPOINT_LOGLEVEL(provider, name, loglevel)
#define LTTNG_UST_TRACEPOINT_MODEL_EMF_URI(provider, name, uri)

enum {
	LTTNG_UST_TRACEPOINT_LOGLEVEL_EMERG = 0,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_ALERT = 1,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_CRIT = 2,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR = 3,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING = 4,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_NOTICE = 5,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO = 6,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_SYSTEM = 7,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROGRAM = 8,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROCESS = 9,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_MODULE = 10,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_UNIT = 11,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_FUNCTION = 12,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE = 13,
	LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG = 14,
};

/* ---- the names before LTTng-UST 2.13 ---- */

#if LTTNG_UST_COMPAT_API(0)
#define tracepoint             lttng_ust_tracepoint
#define do_tracepoint          lttng_ust_do_tracepoint
#define tracepoint_enabled     lttng_ust_tracepoint_enabled
#define TP_ARGS                LTTNG_UST_TP_ARGS
#define TP_FIELDS              LTTNG_UST_TP_FIELDS
#define TP_ENUM_VALUES         LTTNG_UST_TP_ENUM_VALUES
#define TRACEPOINT_EVENT       LTTNG_UST_TRACEPOINT_EVENT
#define TRACEPOINT_EVENT_CLASS LTTNG_UST_TRACEPOINT_EVENT_CLASS
#define TRACEPOINT_EVENT_INSTANCE(provider, cname, name, args)                                     \
	LTTNG_UST_TRACEPOINT_EVENT_INSTANCE(provider, cname, provider, name, args)
#define TRACEPOINT_ENUM          LTTNG_UST_TRACEPOINT_ENUM
#define TRACEPOINT_LOGLEVEL      LTTNG_UST_TRACEPOINT_LOGLEVEL
#define TRACEPOINT_MODEL_EMF_URI LTTNG_UST_TRACEPOINT_MODEL_EMF_URI

#define ctf_integer                      lttng_ust_field_integer
#define ctf_integer_hex                  lttng_ust_field_integer_hex
#define ctf_integer_network              lttng_ust_field_integer_network
#define ctf_integer_network_hex          lttng_ust_field_integer_network_hex
#define ctf_integer_nowrite              lttng_ust_field_integer_nowrite
#define ctf_float                        lttng_ust_field_float
#define ctf_float_nowrite                lttng_ust_field_float_nowrite
#define ctf_array                        lttng_ust_field_array
#define ctf_array_hex                    lttng_ust_field_array_hex
#define ctf_array_network                lttng_ust_field_array_network
#define ctf_array_network_hex            lttng_ust_field_array_network_hex
#define ctf_array_text                   lttng_ust_field_array_text
#define ctf_array_nowrite                lttng_ust_field_array_nowrite
#define ctf_array_nowrite_hex            lttng_ust_field_array_nowrite_hex
#define ctf_array_network_nowrite        lttng_ust_field_array_network_nowrite
#define ctf_array_network_nowrite_hex    lttng_ust_field_array_network_nowrite_hex
#define ctf_array_text_nowrite           lttng_ust_field_array_text_nowrite
#define ctf_sequence                     lttng_ust_field_sequence
#define ctf_sequence_hex                 lttng_ust_field_sequence_hex
#define ctf_sequence_network             lttng_ust_field_sequence_network
#define ctf_sequence_network_hex         lttng_ust_field_sequence_network_hex
#define ctf_sequence_text                lttng_ust_field_sequence_text
#define ctf_sequence_nowrite             lttng_ust_field_sequence_nowrite
#define ctf_sequence_nowrite_hex         lttng_ust_field_sequence_nowrite_hex
#define ctf_sequence_network_nowrite     lttng_ust_field_sequence_network_nowrite
#define ctf_sequence_network_nowrite_hex lttng_ust_field_sequence_network_nowrite_hex
#define ctf_sequence_text_nowrite        lttng_ust_field_sequence_text_nowrite
#define ctf_string                       lttng_ust_field_string
#define ctf_string_nowrite               lttng_ust_field_string_nowrite
#define ctf_unused                       lttng_ust_field_unused
#define ctf_unused_nowrite               lttng_ust_field_unused_nowrite
#define ctf_enum                         lttng_ust_field_enum
#define ctf_enum_nowrite                 lttng_ust_field_enum_nowrite
#define ctf_enum_value                   lttng_ust_field_enum_value
#define ctf_enum_range                   lttng_ust_field_enum_range
#define ctf_enum_auto                    lttng_ust_field_enum_auto

#define TRACE_EMERG          LTTNG_UST_TRACEPOINT_LOGLEVEL_EMERG
#define TRACE_ALERT          LTTNG_UST_TRACEPOINT_LOGLEVEL_ALERT
#define TRACE_CRIT           LTTNG_UST_TRACEPOINT_LOGLEVEL_CRIT
#define TRACE_ERR            LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR
#define TRACE_WARNING        LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING
#define TRACE_NOTICE         LTTNG_UST_TRACEPOINT_LOGLEVEL_NOTICE
#define TRACE_INFO           LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO
#define TRACE_DEBUG_SYSTEM   LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_SYSTEM
#define TRACE_DEBUG_PROGRAM  LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROGRAM
#define TRACE_DEBUG_PROCESS  LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_PROCESS
#define TRACE_DEBUG_MODULE   LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_MODULE
#define TRACE_DEBUG_UNIT     LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_UNIT
#define TRACE_DEBUG_FUNCTION LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_FUNCTION
#define TRACE_DEBUG_LINE     LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE
#define TRACE_DEBUG          LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG
#endif

#ifdef __cplusplus
}
#endif
#endif /* SPOOR_LTTNG_TRACEPOINT_H */

/* Read at every inclusion: a file that asks for the descriptors after this header (or
 * spoor's) was first included without them would get none, silently. */
#if LTTNG_UST_COMPAT_API(0) && defined(TRACEPOINT_DEFINE) && !defined(SPOOR_CREATE_PROBES)
#error                                                                                             \
    "TRACEPOINT_DEFINE must be defined before the first #include of <lttng/tracepoint.h> (or <spoor/tracepoint.h>) in this file"
#endif
#if defined(LTTNG_UST_TRACEPOINT_DEFINE) && !defined(SPOOR_CREATE_PROBES)
#error                                                                                             \
    "LTTNG_UST_TRACEPOINT_DEFINE must be defined before the first #include of <lttng/tracepoint.h> (or <spoor/tracepoint.h>) in this file"
#endif
