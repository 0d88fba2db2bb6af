/* SPDX-License-Identifier: MIT */
/*
 * trace.h: read CTF 1.8 traces (spoor's own and LTTng's), event by event or through hooks.
 *
 * A reader opens one or several trace directories (or folders holding traces, searched
 * recursively), merges all their streams in timestamp order and hands out one event at a
 * time. Nothing is decoded that nobody asks for: the event header is always read, the
 * contexts and payload only when a field is looked at or a hook for that class runs.
 *
 * Lifetimes: a `struct spoor_event` and every `struct spoor_field` taken from it are borrowed
 * views that live until the next call to spoor_reader_next() or the end of the hook they were
 * given to. Event classes and strings returned by info calls live as long as the reader.
 */
#ifndef SPOOR_TRACE_H
#define SPOOR_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "spoor.h"

#ifdef __cplusplus
extern "C" {
#endif

struct spoor_reader;
struct spoor_event;
struct spoor_event_class;

/* The scopes an event's fields live in, in the order CTF lays them out. */
enum spoor_scope {
	SPOOR_SCOPE_PACKET_CONTEXT,
	SPOOR_SCOPE_EVENT_HEADER,
	SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
	SPOOR_SCOPE_EVENT_CONTEXT,
	SPOOR_SCOPE_PAYLOAD,
	SPOOR_SCOPE_COUNT
};

enum spoor_field_kind {
	SPOOR_FIELD_NONE,
	SPOOR_FIELD_SIGNED,   /* v.s */
	SPOOR_FIELD_UNSIGNED, /* v.u */
	SPOOR_FIELD_FLOAT,    /* v.f */
	SPOOR_FIELD_STRING,   /* v.str: not NUL-terminated, use len (up to a char array's
	                       * first NUL: its padding is not text) */
	SPOOR_FIELD_STRUCT,   /* count members, see spoor_field_child() */
	SPOOR_FIELD_ARRAY,    /* count elements (fixed arrays and sequences) */
	SPOOR_FIELD_VARIANT,  /* one child: the selected option */
};

/* A decoded field: a borrowed view (see the lifetime note above). */
struct spoor_field {
	enum spoor_field_kind kind;
	const char *name;  /* NULL for array elements */
	const char *label; /* enumerations: the first label matching the value, or NULL */
	uint32_t count;    /* members, elements or 1 (variant) */
	uint8_t base;      /* integers: the base the metadata asks to show them in (10, 16...) */
	union {
		int64_t s;
		uint64_t u;
		double f;
		struct {
			const char *ptr;
			size_t len;
		} str;
	} v;
	const void *priv[3]; /* reader-internal: type, value table, index */
};

/* Open TRACE directories (or folders that hold traces). On failure *out is NULL and, when
 * errmsg is not NULL, *errmsg gets a malloc'd description naming the file (caller frees). */
SPOOR_API int spoor_reader_open(const char *const *paths, size_t npaths, struct spoor_reader **out,
                                char **errmsg);
/* Free the reader. NULL is a no-op. */
SPOOR_API void spoor_reader_close(struct spoor_reader *r);

/* Damage found while reading (a corrupt packet, a truncated file) does not stop the other
 * streams: the damaged stream ends there, the callback gets a one-line message naming the
 * file and offset, and spoor_reader_damaged() counts it. Without a callback: stderr. */
typedef void (*spoor_warn_fn)(void *data, const char *message);
SPOOR_API void spoor_reader_set_warn(struct spoor_reader *r, spoor_warn_fn fn, void *data);
SPOOR_API unsigned spoor_reader_damaged(const struct spoor_reader *r);

/* Only deliver events with begin_ns <= timestamp <= end_ns (ns since the clock origin).
 * Packets that end before begin_ns are stepped over without decoding their events (their
 * losses still count; damage inside them goes unseen): a range late in a big trace costs
 * little more than the range. */
SPOOR_API void spoor_reader_set_range(struct spoor_reader *r, int64_t begin_ns, int64_t end_ns);
/* false: deliver streams one after another, unmerged (faster for order-free counting). */
SPOOR_API void spoor_reader_set_ordered(struct spoor_reader *r, bool ordered);

/* Next event: 1 and *ev set, 0 at the end, or a negative error code. */
SPOOR_API int spoor_reader_next(struct spoor_reader *r, const struct spoor_event **ev);

/* Hooks by event class (LTTV's hooks by event id): the pattern is a shell wildcard on the
 * event name, matched once against every class when spoor_reader_run() starts. A hook that
 * returns non-zero stops the run with that value. Classes without hooks are skipped without
 * decoding their payload. */
typedef int (*spoor_hook_fn)(const struct spoor_event *ev, void *data);
SPOOR_API int spoor_reader_add_hook(struct spoor_reader *r, const char *pattern, spoor_hook_fn fn,
                                    void *data);
SPOOR_API int spoor_reader_run(struct spoor_reader *r);

/* What was opened. Indices are dense and stable for the reader's life. */
SPOOR_API size_t spoor_reader_trace_count(const struct spoor_reader *r);
SPOOR_API const char *spoor_reader_trace_path(const struct spoor_reader *r, size_t trace);
/* An env entry of the trace's metadata as text (integers are printed), or NULL. */
SPOOR_API const char *spoor_reader_trace_env(const struct spoor_reader *r, size_t trace,
                                             const char *key);

struct spoor_stream_info {
	const char *path; /* the stream file */
	size_t trace;     /* index of its trace */
	int64_t cpu;      /* packet context cpu_id, or -1 */
	uint64_t stream_class_id;
	uint64_t packets;   /* packets read so far */
	uint64_t bytes;     /* bytes of packets read so far */
	uint64_t discarded; /* events the tracer reported discarded, so far */
	bool damaged;       /* reading stopped on damage */
	/* of the discarded events, those in packets spoor's flight recorder overwrote */
	uint64_t overwritten;
	uint64_t packets_lost; /* packets missing (gaps in packet_seq_num), so far */
	/* the losses lie between these times (ns from the clock origin; 0 when none) */
	int64_t lost_begin_ns, lost_end_ns;
	/* the packets read so far span these times (0 without a clock) */
	int64_t begin_ns, end_ns;
	/* of the packets and bytes, those stepped over whole, their events not decoded,
	 * because they end before the range's begin (spoor_reader_set_range) */
	uint64_t skipped_packets, skipped_bytes;
};
SPOOR_API size_t spoor_reader_stream_count(const struct spoor_reader *r);
SPOOR_API void spoor_reader_stream_info(const struct spoor_reader *r, size_t stream,
                                        struct spoor_stream_info *info);

/* Every event class of every trace, indexed densely (use it to index arrays). */
SPOOR_API size_t spoor_reader_event_class_count(const struct spoor_reader *r);
SPOOR_API const struct spoor_event_class *spoor_reader_event_class(const struct spoor_reader *r,
                                                                   size_t index);
SPOOR_API const char *spoor_event_class_name(const struct spoor_event_class *ec);
SPOOR_API uint64_t spoor_event_class_id(const struct spoor_event_class *ec);
SPOOR_API size_t spoor_event_class_index(const struct spoor_event_class *ec);
/* The ordinal of a top-level field of a scope, or -1: resolve once, then use
 * spoor_event_field_at() per event. */
SPOOR_API int spoor_event_class_field_index(const struct spoor_event_class *ec,
                                            enum spoor_scope scope, const char *name);

/* The current event. */
SPOOR_API const struct spoor_reader *spoor_event_reader(const struct spoor_event *ev);
SPOOR_API const struct spoor_event_class *spoor_event_class(const struct spoor_event *ev);
SPOOR_API const char *spoor_event_name(const struct spoor_event *ev);
SPOOR_API bool spoor_event_has_timestamp(const struct spoor_event *ev);
SPOOR_API int64_t spoor_event_timestamp(const struct spoor_event *ev); /* ns from origin */
SPOOR_API uint64_t spoor_event_cycles(const struct spoor_event *ev);   /* raw clock value */
/* The raw clock value in ns, without the clock's offset: time since the clock's own zero
 * (boot, for the kernel's clocks and the TSC), as ftrace prints it. */
SPOOR_API int64_t spoor_event_clock_ns(const struct spoor_event *ev);
SPOOR_API int64_t spoor_event_cpu(const struct spoor_event *ev); /* -1: unknown */
/* Events the stream's tracer reported lost up to this event's packet (a running total: an
 * increase from one event to the next of a stream means events are missing between them). */
SPOOR_API uint64_t spoor_event_discarded(const struct spoor_event *ev);
SPOOR_API size_t spoor_event_stream(const struct spoor_event *ev);
SPOOR_API size_t spoor_event_trace(const struct spoor_event *ev);
/* Fields: false if absent (or the event data is corrupt: see spoor_reader_damaged()). */
SPOOR_API bool spoor_event_field_at(const struct spoor_event *ev, enum spoor_scope scope, int index,
                                    struct spoor_field *out);
SPOOR_API bool spoor_event_field(const struct spoor_event *ev, enum spoor_scope scope,
                                 const char *name, struct spoor_field *out);
/* An integer field's value (signed or unsigned, as an int64): false for other kinds. */
static inline bool spoor_field_int(const struct spoor_field *f, int64_t *v)
{
	if (f->kind == SPOOR_FIELD_SIGNED)
		*v = f->v.s;
	else if (f->kind == SPOOR_FIELD_UNSIGNED)
		*v = (int64_t) f->v.u;
	else
		return false;
	return true;
}
/* Member or element i of a compound field (struct, array, variant). */
SPOOR_API bool spoor_field_child(const struct spoor_field *f, uint32_t i, struct spoor_field *out);
/* Label i of an enumeration field: every label whose ranges hold the value, in the order the
 * labels are first declared (babeltrace2's), label 0 being f->label; NULL past the last. */
SPOOR_API const char *spoor_field_label(const struct spoor_field *f, uint32_t i);

/* Text output of events. A formatter buffers its output and writes it to fd. */
enum spoor_format {
	SPOOR_FORMAT_TEXT,       /* spoor's compact line: time, cpu, name, fields */
	SPOOR_FORMAT_BABELTRACE, /* babeltrace2's default text, with --clock-gmt timestamps */
	SPOOR_FORMAT_FTRACE      /* ftrace's: TASK-PID [CPU] FLAGS SECONDS: EVENT: fields */
};
struct spoor_formatter;
SPOOR_API int spoor_formatter_new(enum spoor_format format, int fd, struct spoor_formatter **out);
/* Append one event's line; flushes to fd when the buffer is full. */
SPOOR_API int spoor_formatter_event(struct spoor_formatter *f, const struct spoor_event *ev);
/* An event that is not printed but may carry state a format keeps (thread names for
 * SPOOR_FORMAT_FTRACE). */
SPOOR_API void spoor_formatter_skip(struct spoor_formatter *f, const struct spoor_event *ev);
SPOOR_API int spoor_formatter_flush(struct spoor_formatter *f);
/* Flushes, then frees. NULL is a no-op. Returns the flush result. */
SPOOR_API int spoor_formatter_free(struct spoor_formatter *f);

#ifdef __cplusplus
}
#endif
#endif
