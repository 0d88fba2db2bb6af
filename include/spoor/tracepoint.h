/* SPDX-License-Identifier: MIT */
/*
 * tracepoint.h: declare typed events once, emit them from anywhere.
 *
 * A provider header declares its events:
 *
 *     #include <spoor/tracepoint.h>
 *     SPOOR_EVENT(hello, request,
 *             SPOOR_ARGS(int fd, const char *path, size_t len),
 *             SPOOR_FIELDS(spoor_field_int(int32_t, fd, fd)
 *                          spoor_field_string(path, path)
 *                          spoor_field_hex(uint64_t, len, len)))
 *
 * and call sites write `spoor_trace(hello, request, fd, path, n);`, or guard costly argument
 * preparation with `if (spoor_enabled(hello, request)) { ... }`. Exactly one C file defines
 * SPOOR_CREATE_PROBES before including the provider header: it holds the event descriptors
 * and registers them when the program (or the library, for dlopen) is loaded.
 *
 * One SPOOR_EVENT expands, through three named passes over its field list, into: the
 * payload size computation, the write into the ring buffer, and the field descriptors that
 * the session turns into CTF metadata. Fields are packed byte after byte: no padding to
 * compute, write or store, and x86-64 and arm64 read unaligned data at full speed (the
 * metadata says so: align = 8 bits). The field macros expand to tuples
 * `(KIND, type, name, expression, extra)`; a pass walks the tuple sequence with the
 * two-macro alternation below and dispatches on KIND.
 *
 * Cost: disabled, one load and a predictable branch; enabled, the payload is written
 * straight into a per-thread shared-memory buffer with no lock and no system call, and in
 * the common case with no call either: the reservation and commit are inlined (the inline
 * path below; everything else goes through spoor_reserve and spoor_commit).
 */
#ifndef SPOOR_TRACEPOINT_H
#define SPOOR_TRACEPOINT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "spoor.h"
#include "tracepoint-types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the runtime's side (libspoor-ust) ---- */

/* A reservation: in the calling thread's ring buffer, or in a scratch buffer when only
 * probes want the event. */
struct spoor_reservation {
	char *payload; /* where the payload goes: aligned to the event's max_align */
	void *priv;
	const struct spoor_event_desc *ev;
	size_t size;
	int probes;
};

/* The inline path's view of the calling thread's rings, and spoor_tracing_off()'s flag
 * (tracepoint-types.h). */
SPOOR_API extern __thread struct spoor_thread_rings spoor__thread_rings
    __attribute__((tls_model("initial-exec")));
SPOOR_API extern int32_t spoor__paused;

/* Reserve an event of payload_size bytes. Returns 0 when the event must be dropped (no
 * session, tracing paused, buffer full: counted as discarded, or a nested call from a
 * signal handler). Never blocks, never fails otherwise. */
SPOOR_API int spoor_reserve(const struct spoor_event_desc *ev, size_t payload_size,
                            struct spoor_reservation *r);
SPOOR_API void spoor_commit(struct spoor_reservation *r);
/* Register/unregister a provider's descriptors (done by SPOOR_CREATE_PROBES code). */
SPOOR_API void spoor_register_events(struct spoor_event_desc *const *events, size_t n);
SPOOR_API void spoor_unregister_events(struct spoor_event_desc *const *events, size_t n);
/* Probes (the kernel's register_trace_X): callbacks run on every emit of the event, with
 * its payload as laid out in the trace (the field descriptors describe it). Register and
 * unregister at any time from any thread; unregister returns only once no thread can still
 * be running the callback. 0 or -ENOMEM / -ENOENT. */
typedef void (*spoor_probe_fn)(void *data, const struct spoor_event_desc *ev, const void *payload,
                               size_t size);
SPOOR_API int spoor_probe_register(struct spoor_event_desc *ev, spoor_probe_fn fn, void *data);
SPOOR_API int spoor_probe_unregister(struct spoor_event_desc *ev, spoor_probe_fn fn, void *data);
/* The descriptor of an event, for spoor_probe_register. */
#define spoor_event_desc(prov, ev) (&SPOOR__DESC_NAME(prov, ev))

/* ftrace's tracing_off()/tracing_on(): pause and resume recording in this process, e.g. to
 * freeze the flight recorder the moment a bug is seen. */
SPOOR_API void spoor_tracing_off(void);
SPOOR_API void spoor_tracing_on(void);
/* trace_printk: a formatted message as a "spoor:printf" event with one string field. */
SPOOR_API void spoor_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- the inline path ---- */

/* The inline ABI version this program's call sites were built for (tracepoint-types.h);
 * 0 builds them without the inline path: every event calls spoor_reserve/spoor_commit. */
#ifndef SPOOR_INLINE_ABI
#if defined(__x86_64__)
#define SPOOR_INLINE_ABI SPOOR_INLINE_ABI_VERSION
#else
#define SPOOR_INLINE_ABI 0 /* the compact header's timestamp is the TSC */
#endif
#endif

/* One instruction, so that a signal handler cannot come between its read and its write. */
#define SPOOR__BUSY_ADD(b, d)                                                                      \
	__asm__ volatile("addq %1, %0" : "+m"((b)->busy) : "er"((int64_t) (d)) : "memory")

/* An inline reservation, kept in registers. */
struct spoor__inline {
	struct spoor_ring_fast *b;
	uint64_t *pub;
	uint64_t ts, end;
};

/* The common case, without a call: the event recorded by one session's ring of this
 * thread, whose packet has room, in a compact header (the runtime allows it only for ids
 * below 31; here: under 2^27 ticks since the thread's previous event), the thread not
 * inside an emit (a signal handler's), tracing not paused. Returns 1 and where the payload
 * goes, the thread marked busy; else 0, and the caller goes the way of spoor_reserve.
 * spoor__inline_reserve_ring is its second half: b is the calling thread's ring of the
 * event's first slot, or NULL, as spoor__inline_reserve finds it from the event's word
 * (libspoor-calls' hooks find it otherwise). */
static inline __attribute__((always_inline)) int
spoor__inline_reserve_ring(struct spoor_ring_fast *b, const struct spoor_event_desc *ev,
                           size_t size, struct spoor__inline *in, char **payload)
{
#if SPOOR_INLINE_ABI
	if (__builtin_expect(!b || ((b->busy & 1) |
	                            (uint64_t) __atomic_load_n(&spoor__paused, __ATOMIC_RELAXED)),
	                     0))
		return 0;
	/* Taken before the busy mark (0.4 ns less): a signal handler's event meanwhile is
	 * later in the ring, and this one takes its time below. */
	uint64_t ts = __builtin_ia32_rdtsc();
	SPOOR__BUSY_ADD(b, 1); /* from here a signal handler's emit drops its event */
	uint64_t clock = b->clock, off = b->off;
	uint64_t end = off + 4 + size;
	char *p = b->pkt + off;
	ts = ts < clock ? clock : ts; /* time never goes back in a stream */
	/* room: 0 or 1 unless the ring is current and its packet open (tracepoint-types.h) */
	if (__builtin_expect(((ts - clock) >> 27 != 0) |
	                         (end > __atomic_load_n(&b->room, __ATOMIC_RELAXED)),
	                     0)) {
		SPOOR__BUSY_ADD(b, -1);
		return 0;
	}
	in->b = b;
	in->pub = b->pub;
	in->ts = ts;
	in->end = end;
	uint32_t w = ev->id | (uint32_t) ts << 5; /* compact header: 5-bit id, 27-bit time */
	memcpy(p, &w, 4);
	*payload = p + 4;
	return 1;
#else
	(void) b, (void) ev, (void) size, (void) in, (void) payload;
	return 0;
#endif
}

static inline __attribute__((always_inline)) int
spoor__inline_reserve(const struct spoor_event_desc *ev, size_t size, struct spoor__inline *in,
                      char **payload)
{
#if SPOOR_INLINE_ABI
	uint32_t en = (uint32_t) __atomic_load_n(&ev->enabled, __ATOMIC_RELAXED);
	if (__builtin_expect(en >> SPOOR_ENABLED_INLINE_SHIFT != SPOOR_INLINE_ABI, 0))
		return 0;
	struct spoor_ring_fast *b =
	    spoor__thread_rings.slot[(unsigned) __builtin_ctz(en >> 8) & (SPOOR_MAX_SLOTS - 1)];
	return spoor__inline_reserve_ring(b, ev, size, in, payload);
#else
	(void) ev, (void) size, (void) in, (void) payload;
	return 0;
#endif
}

/* The event written: published to the consumer (a program killed now loses nothing
 * committed), counted, and the thread no longer busy. */
static inline __attribute__((always_inline)) void
spoor__inline_commit(const struct spoor__inline *in)
{
	in->b->clock = in->ts;
	in->b->off = in->end;
	__atomic_store_n(&in->pub[1], in->ts, __ATOMIC_RELAXED);
	__atomic_store_n(&in->pub[0], in->end, __ATOMIC_RELEASE); /* after the event's bytes */
	SPOOR__BUSY_ADD(in->b, 1);
}

/* ---- field macros: each is a tuple for the passes ---- */

#define spoor_field_int(T, name, expr) (INT, T, name, (expr), 10)
#define spoor_field_hex(T, name, expr) (INT, T, name, (expr), 16)
/* The value is already in network (big-endian) byte order, as in a sockaddr. */
#define spoor_field_network(T, name, expr)     (NET, T, name, (expr), 10)
#define spoor_field_network_hex(T, name, expr) (NET, T, name, (expr), 16)
#define spoor_field_float(T, name, expr)       (FLOAT, T, name, (expr), 0)
#define spoor_field_string(name, expr)         (STRING, char, name, (expr), 0)
#define spoor_field_array(T, name, expr, n)    (ARRAY, T, name, (expr), n)
#define spoor_field_array_text(name, expr, n)  (ARRAY_TEXT, char, name, (expr), n)
/* Arrays of integers shown in hex, or stored in network byte order (each element). */
#define spoor_field_array_hex(T, name, expr, n)         (ARRAY_X, T, name, (expr), (n, 16, 0, 0))
#define spoor_field_array_network(T, name, expr, n)     (ARRAY_X, T, name, (expr), (n, 10, 1, 0))
#define spoor_field_array_network_hex(T, name, expr, n) (ARRAY_X, T, name, (expr), (n, 16, 1, 0))
/* Text of a byte type T, signed as T is (LTTng-UST's ctf_array_text; spoor_field_array_text's
 * bytes are unsigned). */
#define spoor_field_array_text_of(T, name, expr, n) (ARRAY_X, T, name, (expr), (n, 10, 0, 1))
#define spoor_field_sequence(T, name, expr, len)    (SEQ, T, name, (expr), (len))
#define spoor_field_sequence_text(name, expr, len)  (SEQ_TEXT, char, name, (expr), (len))
/* Sequences whose length is an integer of type LT (LTTng-UST's ctf_sequence*): written
 * before the elements, shown as the field `_NAME_length`, and declared unsigned as CTF
 * wants it (LTTng-UST declares a signed LT signed, which babeltrace2 refuses to read): a
 * negative length records no element.
 * The text one's bytes are chars, signed or not as the compiler has them (as LTTng's). */
#define spoor_field_sequence_lt(T, name, expr, LT, len)                                            \
	(SEQ_LT, T, name, (expr), (LT, (len), 10, 0, 0))
#define spoor_field_sequence_lt_hex(T, name, expr, LT, len)                                        \
	(SEQ_LT, T, name, (expr), (LT, (len), 16, 0, 0))
#define spoor_field_sequence_lt_network(T, name, expr, LT, len)                                    \
	(SEQ_LT, T, name, (expr), (LT, (len), 10, 1, 0))
#define spoor_field_sequence_lt_network_hex(T, name, expr, LT, len)                                \
	(SEQ_LT, T, name, (expr), (LT, (len), 16, 1, 0))
#define spoor_field_sequence_lt_text(name, expr, LT, len)                                          \
	(SEQ_LT, char, name, (expr), (LT, (len), 10, 0, 1))
/* entries: a `static const struct spoor_enum_entry NAME[]` visible where the event is. */
#define spoor_field_enum(T, name, expr, entries) (ENUM, T, name, (expr), entries)

#define SPOOR_ARGS(...)   (__VA_ARGS__)
#define SPOOR_FIELDS(...) __VA_ARGS__

/* ---- pass machinery ---- */

#define SPOOR__CAT(a, b)  SPOOR__CAT_(a, b)
#define SPOOR__CAT_(a, b) a##b
/* Walk a tuple sequence: `SPOOR__END(P_A (x)(y)(z))` expands P(x) P(y) P(z), the A/B macros
 * alternating so neither is re-entered, then pastes _END onto the leftover A or B name. */
#define SPOOR__END(...)  SPOOR__END_(__VA_ARGS__)
#define SPOOR__END_(...) __VA_ARGS__##_END
/* -1 shifted right stays -1 only in a signed type (no compare, so no warning) */
#define SPOOR__SIGNED(T) (((T) ~(T) 0 >> 1) == (T) ~(T) 0)
/* The members of a parenthesised `extra`: `SPOOR__X2 x` is x's second. */
#define SPOOR__X1(a, ...)             a
#define SPOOR__X2(a, b, ...)          b
#define SPOOR__X3(a, b, c, ...)       c
#define SPOOR__X4(a, b, c, d, ...)    d
#define SPOOR__X5(a, b, c, d, e, ...) e

/* Pass 1: payload size. `spoor__s` is the running size. */
#define SPOOR__SIZE(kind, T, name, expr, extra) SPOOR__SIZE_##kind(T, name, expr, extra)
#define SPOOR__SIZE_INT(T, n, e, x)             spoor__s += sizeof(T);
#define SPOOR__SIZE_NET(T, n, e, x)             SPOOR__SIZE_INT(T, n, e, x)
#define SPOOR__SIZE_FLOAT(T, n, e, x)           SPOOR__SIZE_INT(T, n, e, x)
#define SPOOR__SIZE_ENUM(T, n, e, x)            SPOOR__SIZE_INT(T, n, e, x)
/* Strings and sequence lengths are evaluated once, here, and the write copies exactly what
 * was counted: an argument changing meanwhile (another thread) cannot overflow the event. */
#define SPOOR__SIZE_STRING(T, n, e, x)                                                             \
	const char *spoor__str_##n = (e) ? (const char *) (e) : "(null)";                          \
	size_t spoor__len_##n = strlen(spoor__str_##n) + 1;                                        \
	spoor__s += spoor__len_##n;
#define SPOOR__SIZE_ARRAY(T, n, e, x)      spoor__s += sizeof(T) * (x);
#define SPOOR__SIZE_ARRAY_TEXT(T, n, e, x) spoor__s += (x);
#define SPOOR__SIZE_ARRAY_X(T, n, e, x)    spoor__s += sizeof(T) * (SPOOR__X1 x);
#define SPOOR__SIZE_SEQ(T, n, e, x)                                                                \
	uint32_t spoor__len_##n = (uint32_t) (x);                                                  \
	spoor__s += 4 + sizeof(T) * (size_t) spoor__len_##n;
#define SPOOR__SIZE_SEQ_TEXT(T, n, e, x)                                                           \
	uint32_t spoor__len_##n = (uint32_t) (x);                                                  \
	spoor__s += 4 + (size_t) spoor__len_##n;
#define SPOOR__SIZE_SEQ_LT(T, n, e, x)                                                             \
	SPOOR__X1 x spoor__len_##n = (SPOOR__X1 x)(SPOOR__X2 x);                                   \
	spoor__len_##n = spoor__len_##n > 0 ? spoor__len_##n : 0;                                  \
	spoor__s += sizeof(SPOOR__X1 x) + sizeof(T) * (size_t) spoor__len_##n;
#define SPOOR__SIZE_A(...) SPOOR__SIZE(__VA_ARGS__) SPOOR__SIZE_B
#define SPOOR__SIZE_B(...) SPOOR__SIZE(__VA_ARGS__) SPOOR__SIZE_A
#define SPOOR__SIZE_A_END
#define SPOOR__SIZE_B_END

/* Pass 2: the writes, at offsets from the payload start `spoor__p`, packed. */
#define SPOOR__WRITE(kind, T, name, expr, extra) SPOOR__WRITE_##kind(T, name, expr, extra)
#define SPOOR__WRITE_INT(T, n, e, x)                                                               \
	{                                                                                          \
		T spoor__v = (T) (e);                                                              \
		memcpy(spoor__p + spoor__o, &spoor__v, sizeof(T));                                 \
		spoor__o += sizeof(T);                                                             \
	}
#define SPOOR__WRITE_NET(T, n, e, x)   SPOOR__WRITE_INT(T, n, e, x)
#define SPOOR__WRITE_FLOAT(T, n, e, x) SPOOR__WRITE_INT(T, n, e, x)
#define SPOOR__WRITE_ENUM(T, n, e, x)  SPOOR__WRITE_INT(T, n, e, x)
#define SPOOR__WRITE_STRING(T, n, e, x)                                                            \
	{                                                                                          \
		memcpy(spoor__p + spoor__o, spoor__str_##n, spoor__len_##n);                       \
		spoor__o += spoor__len_##n;                                                        \
		spoor__p[spoor__o - 1] = '\0'; /* even if it grew meanwhile */                     \
	}
#define SPOOR__WRITE_ARRAY(T, n, e, x)                                                             \
	{                                                                                          \
		memcpy(spoor__p + spoor__o, (e), sizeof(T) * (x));                                 \
		spoor__o += sizeof(T) * (x);                                                       \
	}
#define SPOOR__WRITE_ARRAY_TEXT(T, n, e, x)                                                        \
	{                                                                                          \
		memcpy(spoor__p + spoor__o, (e), (x));                                             \
		spoor__o += (x);                                                                   \
	}
#define SPOOR__WRITE_ARRAY_X(T, n, e, x) SPOOR__WRITE_ARRAY(T, n, e, SPOOR__X1 x)
#define SPOOR__WRITE_SEQ(T, n, e, x)                                                               \
	{                                                                                          \
		memcpy(spoor__p + spoor__o, &spoor__len_##n, 4);                                   \
		memcpy(spoor__p + spoor__o + 4, (e), sizeof(T) * spoor__len_##n);                  \
		spoor__o += 4 + sizeof(T) * spoor__len_##n;                                        \
	}
#define SPOOR__WRITE_SEQ_TEXT(T, n, e, x)                                                          \
	{                                                                                          \
		memcpy(spoor__p + spoor__o, &spoor__len_##n, 4);                                   \
		memcpy(spoor__p + spoor__o + 4, (e), spoor__len_##n);                              \
		spoor__o += 4 + spoor__len_##n;                                                    \
	}
#define SPOOR__WRITE_SEQ_LT(T, n, e, x)                                                            \
	{                                                                                          \
		size_t spoor__n = sizeof(T) * (size_t) spoor__len_##n;                             \
		memcpy(spoor__p + spoor__o, &spoor__len_##n, sizeof(SPOOR__X1 x));                 \
		memcpy(spoor__p + spoor__o + sizeof(SPOOR__X1 x), (e), spoor__n);                  \
		spoor__o += sizeof(SPOOR__X1 x) + spoor__n;                                        \
	}
#define SPOOR__WRITE_A(...) SPOOR__WRITE(__VA_ARGS__) SPOOR__WRITE_B
#define SPOOR__WRITE_B(...) SPOOR__WRITE(__VA_ARGS__) SPOOR__WRITE_A
#define SPOOR__WRITE_A_END
#define SPOOR__WRITE_B_END

/* Pass 3: field descriptors (static data for the metadata). */
#define SPOOR__DESC(kind, T, name, expr, extra) SPOOR__DESC_##kind(T, name, expr, extra)
#define SPOOR__FD(n, k, T, base, be, text, len, ent, nent)                                         \
	{#n, k, sizeof(T), SPOOR__SIGNED(T), base, be, text, len, ent, nent, 0},
#define SPOOR__DESC_INT(T, n, e, x)        SPOOR__FD(n, SPOOR_FK_INT, T, x, 0, 0, 0, NULL, 0)
#define SPOOR__DESC_NET(T, n, e, x)        SPOOR__FD(n, SPOOR_FK_INT, T, x, 1, 0, 0, NULL, 0)
#define SPOOR__DESC_FLOAT(T, n, e, x)      {#n, SPOOR_FK_FLOAT, sizeof(T), 1, 10, 0, 0, 0, NULL, 0, 0},
#define SPOOR__DESC_STRING(T, n, e, x)     {#n, SPOOR_FK_STRING, 1, 0, 10, 0, 1, 0, NULL, 0, 0},
#define SPOOR__DESC_ARRAY(T, n, e, x)      SPOOR__FD(n, SPOOR_FK_ARRAY, T, 10, 0, 0, x, NULL, 0)
#define SPOOR__DESC_ARRAY_TEXT(T, n, e, x) {#n, SPOOR_FK_ARRAY, 1, 0, 10, 0, 1, x, NULL, 0, 0},
#define SPOOR__DESC_SEQ(T, n, e, x)        SPOOR__FD(n, SPOOR_FK_SEQUENCE, T, 10, 0, 0, 0, NULL, 0)
#define SPOOR__DESC_SEQ_TEXT(T, n, e, x)   {#n, SPOOR_FK_SEQUENCE, 1, 0, 10, 0, 1, 0, NULL, 0, 0},
#define SPOOR__DESC_ARRAY_X(T, n, e, x)                                                            \
	SPOOR__FD(n, SPOOR_FK_ARRAY, T, SPOOR__X2 x, SPOOR__X3 x, SPOOR__X4 x, SPOOR__X1 x, NULL, 0)
#define SPOOR__DESC_SEQ_LT(T, n, e, x)                                                             \
	{#n,                                                                                       \
	 SPOOR_FK_SEQUENCE,                                                                        \
	 sizeof(T),                                                                                \
	 SPOOR__SIGNED(T),                                                                         \
	 SPOOR__X3 x,                                                                              \
	 SPOOR__X4 x,                                                                              \
	 SPOOR__X5 x,                                                                              \
	 0,                                                                                        \
	 NULL,                                                                                     \
	 0,                                                                                        \
	 sizeof(SPOOR__X1 x)},
#define SPOOR__DESC_ENUM(T, n, e, x)                                                               \
	SPOOR__FD(n, SPOOR_FK_ENUM, T, 10, 0, 0, 0, x, (uint32_t) (sizeof(x) / sizeof((x)[0])))
#define SPOOR__DESC_A(...) SPOOR__DESC(__VA_ARGS__) SPOOR__DESC_B
#define SPOOR__DESC_B(...) SPOOR__DESC(__VA_ARGS__) SPOOR__DESC_A
#define SPOOR__DESC_A_END
#define SPOOR__DESC_B_END

#define SPOOR__DESC_NAME(prov, ev) SPOOR__CAT(SPOOR__CAT(spoor__desc_, prov), SPOOR__CAT(__, ev))
#define SPOOR__EMIT_NAME(prov, ev) SPOOR__CAT(SPOOR__CAT(spoor__emit_, prov), SPOOR__CAT(__, ev))
#define SPOOR__FIELDS_NAME(prov, ev)                                                               \
	SPOOR__CAT(SPOOR__CAT(spoor__fields_, prov), SPOOR__CAT(__, ev))

/* ---- the declaration ---- */

#ifdef SPOOR_CREATE_PROBES
/* The one translation unit that owns the descriptors. A field list may serve several
 * events (LTTng-UST's event classes): the fields go in an array of their own. */
#define SPOOR__DEFINE_FIELDS(fname, fields)                                                        \
	static const struct spoor_field_desc fname[] = {                                           \
	    SPOOR__END(SPOOR__DESC_A fields){NULL, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0}};
#define SPOOR__DEFINE_DESC_OF(prov, ev, fname)                                                     \
	struct spoor_event_desc SPOOR__DESC_NAME(prov, ev)                                         \
	    __attribute__((section("spoor_events"), used, aligned(8))) = {                         \
	        sizeof(struct spoor_event_desc),                                                   \
	        0,                                                                                 \
	        #prov,                                                                             \
	        #ev,                                                                               \
	        fname,                                                                             \
	        (uint32_t) (sizeof(fname) / sizeof(struct spoor_field_desc)) - 1,                  \
	        0,                                                                                 \
	        1, /* packed payload: byte-aligned */                                              \
	        NULL,                                                                              \
	};
#else
#define SPOOR__DEFINE_FIELDS(fname, fields)
#define SPOOR__DEFINE_DESC_OF(prov, ev, fname)                                                     \
	extern struct spoor_event_desc SPOOR__DESC_NAME(prov, ev);
#endif
#define SPOOR__DEFINE_DESC(prov, ev, fields)                                                       \
	SPOOR__DEFINE_FIELDS(SPOOR__FIELDS_NAME(prov, ev), fields)                                 \
	SPOOR__DEFINE_DESC_OF(prov, ev, SPOOR__FIELDS_NAME(prov, ev))

/* The body of an emit function: the event of descriptor `desc` from the fields. */
#define SPOOR__EMIT_BODY(desc, fields)                                                             \
	{                                                                                          \
		size_t spoor__s = 0, spoor__o = 0;                                                 \
		struct spoor_reservation spoor__r;                                                 \
		struct spoor__inline spoor__in;                                                    \
		char *spoor__p;                                                                    \
		SPOOR__END(SPOOR__SIZE_A fields)                                                   \
		int spoor__fast = spoor__inline_reserve(desc, spoor__s, &spoor__in, &spoor__p);    \
		if (!spoor__fast) {                                                                \
			if (!spoor_reserve(desc, spoor__s, &spoor__r))                             \
				return;                                                            \
			spoor__p = spoor__r.payload;                                               \
		}                                                                                  \
		SPOOR__END(SPOOR__WRITE_A fields)                                                  \
		(void) spoor__o;                                                                   \
		(void) spoor__p; /* an event without fields writes nothing */                      \
		if (spoor__fast)                                                                   \
			spoor__inline_commit(&spoor__in);                                          \
		else                                                                               \
			spoor_commit(&spoor__r);                                                   \
	}

#define SPOOR_EVENT(prov, ev, args, fields)                                                        \
	SPOOR__DEFINE_DESC(prov, ev, fields)                                                       \
	static inline __attribute__((always_inline, unused)) void SPOOR__EMIT_NAME(prov, ev)       \
	    args SPOOR__EMIT_BODY(&SPOOR__DESC_NAME(prov, ev), fields)

/* Is the event being recorded? One load, one predictable branch. */
#define spoor_enabled(prov, ev) SPOOR__ENABLED(&SPOOR__DESC_NAME(prov, ev))
/* The same by the event's descriptor (LTTng-UST's tracef and tracelog). */
#define SPOOR__ENABLED(desc)                                                                       \
	__builtin_expect(__atomic_load_n(&(desc)->enabled, __ATOMIC_RELAXED) != 0, 0)

#define spoor_trace(prov, ev, ...)                                                                 \
	do {                                                                                       \
		if (spoor_enabled(prov, ev))                                                       \
			SPOOR__EMIT_NAME(prov, ev)(__VA_ARGS__);                                   \
	} while (0)

#ifdef SPOOR_CREATE_PROBES
/* Registration of every descriptor of this object (program or shared library): the
 * descriptors sit in one section, whose bounds the linker provides per object, so dlopen'd
 * providers register on load and unregister on dlclose. */
extern struct spoor_event_desc __start_spoor_events[] __attribute__((weak, visibility("hidden")));
extern struct spoor_event_desc __stop_spoor_events[] __attribute__((weak, visibility("hidden")));
static struct spoor_event_desc *spoor__object_events[1024];
static size_t spoor__object_nevents;
__attribute__((constructor)) static void spoor__register_object(void)
{
	for (struct spoor_event_desc *d = __start_spoor_events;
	     d && d < __stop_spoor_events && spoor__object_nevents < 1024; d++)
		spoor__object_events[spoor__object_nevents++] = d;
	spoor_register_events(spoor__object_events, spoor__object_nevents);
}
__attribute__((destructor)) static void spoor__unregister_object(void)
{
	spoor_unregister_events(spoor__object_events, spoor__object_nevents);
}
#endif

#ifdef __cplusplus
}
#endif
#endif
