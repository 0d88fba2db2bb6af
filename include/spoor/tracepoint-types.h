/* SPDX-License-Identifier: MIT */
/*
 * tracepoint-types.h: what a declared event looks like to the runtime: its descriptor and
 * its fields' descriptors. The SPOOR_EVENT macros (tracepoint.h) generate these; the session
 * turns them into CTF metadata.
 *
 * These structs are shared between an instrumented program and libspoor, possibly of
 * different versions: they start with their size and only ever grow at the end.
 */
#ifndef SPOOR_TRACEPOINT_TYPES_H
#define SPOOR_TRACEPOINT_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum spoor_fk {
	SPOOR_FK_INT,      /* size bytes, is_signed, base, big_endian */
	SPOOR_FK_FLOAT,    /* size 4 or 8 */
	SPOOR_FK_STRING,   /* NUL-terminated */
	SPOOR_FK_ARRAY,    /* length elements of an integer of size bytes (text: chars) */
	SPOOR_FK_SEQUENCE, /* a length (uint32, or length_size bytes), then that many elements */
	SPOOR_FK_ENUM,     /* an integer shown through entries */
};

struct spoor_enum_entry {
	const char *label;
	int64_t lo, hi; /* inclusive; as unsigned when the integer is unsigned */
};

struct spoor_field_desc {
	const char *name;
	uint8_t kind; /* enum spoor_fk */
	uint8_t size; /* bytes of the integer or float, or of one element */
	uint8_t is_signed;
	uint8_t base;       /* 10 or 16 */
	uint8_t big_endian; /* network byte order: the value is stored as given */
	uint8_t text;       /* an array or sequence of bytes shown as a string */
	uint32_t length;    /* SPOOR_FK_ARRAY */
	const struct spoor_enum_entry *entries;
	uint32_t nentries;
	/* SPOOR_FK_SEQUENCE: the size in bytes of the length, an unsigned integer written
	 * before the elements; 0 for spoor's own uint32 (LTTng-UST's length type). It sits in
	 * what was the struct's tail padding: its size, an array's stride, is unchanged, and
	 * descriptors compiled before it hold a zero there. */
	uint8_t length_size;
};

struct spoor_event_desc {
	uint32_t struct_size; /* sizeof(struct spoor_event_desc) where it was compiled */
	/* Non-zero while a session records this event: read at every call site, so it is
	 * the first member and nothing else shares its use. */
	volatile int32_t enabled;
	const char *provider;
	const char *name;
	const struct spoor_field_desc *fields;
	uint32_t nfields;
	uint32_t id;        /* assigned when registered */
	uint32_t max_align; /* bytes: the payload's alignment */
	void *probes;       /* run-time callbacks (spoor_probe_register), owned by libspoor-ust */
};

/* Bits of spoor_event_desc.enabled. */
#define SPOOR_ENABLED_RECORD 1 /* a session records the event */
#define SPOOR_ENABLED_PROBES 2 /* callbacks are attached */

/*
 * The inline ABI: what the emit path that SPOOR_EVENT inlines into a program reads and
 * writes in the runtime's memory (docs/instrumenting.md, "The inline path and its ABI").
 * Its version is in bits 24..30 of every recorded event's `enabled` word, set by the
 * runtime only while the inline path may write the event (exactly one session records it,
 * no probes, an id below 31): a program built against another version finds another
 * number there and calls spoor_reserve/spoor_commit, whose interface does not change.
 * Anything below that changes (these structs, spoor__thread_rings and spoor__paused, the
 * packet's compact event header, the meaning of those bits) takes a new version number.
 * Version 1 (2026-11-26, a few hours) also checked the slot's generation at each event.
 */
#define SPOOR_INLINE_ABI_VERSION   2
#define SPOOR_ENABLED_INLINE_SHIFT 24
#define SPOOR_MAX_SLOTS            16 /* sessions one program records into at once */

/* The head of a thread's ring of one slot. Only the thread writes it, but for `room`. */
struct spoor_ring_fast {
	uint64_t busy;  /* odd inside an emit (a signal handler's emit drops); twice the events */
	uint64_t off;   /* bytes committed in the packet */
	uint64_t room;  /* the packet's size while the inline path may write into it; else 0, or
	                   1 once the ring is no longer its slot's (set by any thread) */
	uint64_t clock; /* the timestamp (TSC) of the last event */
	char *pkt;      /* the packet in progress */
	uint64_t *pub;  /* the ring's shared header: write_pos, then last_ts (published) */
};

/* The calling thread's rings, by slot (initial-exec TLS of libspoor-ust). */
struct spoor_thread_rings {
	struct spoor_ring_fast *slot[SPOOR_MAX_SLOTS];
};

#ifdef __cplusplus
}
#endif
#endif
