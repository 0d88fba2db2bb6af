/* SPDX-License-Identifier: MIT */
/* reader.h: the reader's internals shared with the formatters (not installed). */
#ifndef READER_READER_H
#define READER_READER_H

#include "ctf/stream.h"
#include "spoor/trace.h"

struct spoor_event_class {
	struct ctf_event_class *ec;
	struct ctf_stream_class *sc;
	size_t trace;
	size_t index;
};

struct spoor_event {
	struct spoor_reader *r;
	struct ctf_stream *s;
};

/* The current event's facts without a call through the public API, for loops over every
 * event (the analysis engine): the same values as spoor_event_class_index(spoor_event_class
 * (ev)), spoor_event_timestamp (0 without a clock), spoor_event_cpu, spoor_event_stream and
 * spoor_event_discarded. */
static inline size_t reader_event_class_index(const struct spoor_event *ev)
{
	return ev->s->ec->global_index;
}

static inline int64_t reader_event_timestamp(const struct spoor_event *ev)
{
	return ev->s->ts_ns; /* 0 without a clock (stream.c) */
}

/* spoor_event_has_timestamp */
static inline bool reader_event_has_timestamp(const struct spoor_event *ev)
{
	return ev->s->sc->clock != NULL;
}

static inline int64_t reader_event_cpu(const struct spoor_event *ev)
{
	return ev->s->cpu;
}

static inline size_t reader_event_stream(const struct spoor_event *ev)
{
	return ev->s->index;
}

static inline uint64_t reader_event_discarded(const struct spoor_event *ev)
{
	return ev->s->discarded;
}

/* Whether the current event's stream has lost any event so far (its discarded count may
 * have wrapped back to 0). */
static inline bool reader_event_stream_lost_any(const struct spoor_event *ev)
{
	return ev->s->lost_any;
}

/* spoor_reader_next in line, for loops over every event (the analysis engine): its
 * common case is one call, to the current stream. The reader's state for it, the first
 * member of struct spoor_reader. */
struct reader_run {
	struct ctf_stream *cur; /* the stream of the event last returned, the merge's top (or,
	                           unordered, the stream being read) */
	int64_t limit;          /* the runner-up's time: cur stays on top below it (unordered:
	                           INT64_MAX) */
	bool plain;             /* started, no time range, not live */
	struct spoor_event ev;
};
/* reader_next past its common case: cur's ctf_stream_next returned rc, and either it has no
 * event or the event is not before the runner-up's. */
int reader_next_moved(struct spoor_reader *r, const struct spoor_event **ev, int rc);
/* reader_next's other cases: the first event, time ranges, live and unordered reading. */
int reader_next_general(struct spoor_reader *r, const struct spoor_event **ev);

static inline int reader_next(struct spoor_reader *r, const struct spoor_event **ev)
{
	struct reader_run *run = (struct reader_run *) (void *) r;
	struct ctf_stream *s = run->cur;

	if (__builtin_expect(!run->plain || !s, 0))
		return reader_next_general(r, ev);
	int rc = ctf_stream_next(s);
	if (__builtin_expect(rc > 0 && s->ts_ns < run->limit, 1)) {
		*ev = &run->ev;
		return 1;
	}
	return reader_next_moved(r, ev, rc);
}

/* Classes nobody reads (pass[class index] true, for the first n classes) are stepped over
 * inside their streams: never merged, never delivered. Their events' times within [begin,
 * end] still make up the span (reader_passed_span). Call before the first
 * spoor_reader_next; false (nothing done) in live or unordered mode. */
bool reader_pass_over(struct spoor_reader *r, const bool *pass, size_t n, int64_t begin,
                      int64_t end);
/* Whether the reader is a live one (spoor_reader_open_live). */
bool reader_live(const struct spoor_reader *r);
/* The first and last times of the events passed over; false when there were none. */
bool reader_passed_span(const struct spoor_reader *r, int64_t *first, int64_t *last);
/* A stream's facts at the end of the pass: its cpu (-1 unknown), the events its packets said
 * were discarded so far, and the time of its last event. */
void reader_stream_end(const struct spoor_reader *r, size_t stream, int64_t *cpu,
                       uint64_t *discarded, int64_t *last);

/* The type of a scope of an event class of a stream class (NULL when absent, or when the
 * class's own scopes are bad metadata: ctf_event_class_ready). */
const struct ctf_type *reader_class_scope_type(const struct ctf_stream_class *sc,
                                               struct ctf_event_class *ec, enum spoor_scope scope);
/* The type of a scope of the current event (NULL when the scope is empty). */
const struct ctf_type *reader_scope_type(const struct spoor_event *ev, enum spoor_scope scope);
/* Decode up to scope and return the scope's value table and root (VAL_NONE: empty).
 * Returns < 0 when the event data is damaged. */
int reader_scope_values(const struct spoor_event *ev, enum spoor_scope scope,
                        const struct val_table **table, uint32_t *root);
const struct ctf_trace *reader_event_trace(const struct spoor_event *ev);
/* spoor_event_field_at then spoor_field_int, or then a string field's bytes: the same
 * answers, read in place without filling a spoor_field when the layout allows. */
bool reader_field_int_slow(const struct spoor_event *ev, enum spoor_scope scope, int index,
                           int64_t *v);
static inline bool reader_field_int(const struct spoor_event *ev, enum spoor_scope scope, int index,
                                    int64_t *v)
{
	return (scope == SPOOR_SCOPE_PAYLOAD && ctf_stream_payload_int(ev->s, index, v)) ||
	       ctf_stream_peek_int_fast(ev->s, scope, index, v) ||
	       reader_field_int_slow(ev, scope, index, v);
}
bool reader_field_str_slow(const struct spoor_event *ev, enum spoor_scope scope, int index,
                           const char **s, size_t *len);
static inline bool reader_field_str(const struct spoor_event *ev, enum spoor_scope scope, int index,
                                    const char **s, size_t *len)
{
	return (scope == SPOOR_SCOPE_PAYLOAD && ctf_stream_payload_text(ev->s, index, s, len)) ||
	       ctf_stream_peek_text_fast(ev->s, scope, index, s, len) ||
	       reader_field_str_slow(ev, scope, index, s, len);
}

/* Parts of a trace, read alone (Python's t.parts(), for a task each): a reader of the trace
 * in directory `trace` that reads only its stream file `stream` (a full path, as
 * spoor_stream_info gives it), from byte offset begin (a packet's start) up to end (a later
 * packet's start, or past the file's end), as if the rest were not there. */
int reader_open_part(const char *trace, const char *stream, uint64_t begin, uint64_t end,
                     struct spoor_reader **out, char **errmsg);
/* A stream's packets, one call each, in file order: where each lies and the times its
 * context gives, its events not read (a fresh look at the file: r is not moved). 0; a
 * non-zero return of fn; or the damage that ended the listing (< 0, *errmsg says where,
 * malloc'd). */
typedef int (*reader_packet_fn)(void *data, const struct ctf_packet_span *span);
int reader_stream_packets(const struct spoor_reader *r, size_t stream, reader_packet_fn fn,
                          void *data, char **errmsg);

/* Live mode (spoor watch): a reader of the traces a recording session is writing under dir,
 * in this process, between its writes. It starts empty; each refresh takes in the traces,
 * stream files and packets written since, and lets spoor_reader_next deliver the events up
 * to until_ns (ns from the clock origin), returning 0 at the first later one until the next
 * refresh. Streams and classes keep their numbers; counts only grow. */
int spoor_reader_open_live(const char *dir, struct spoor_reader **out, char **errmsg);
int spoor_reader_live_refresh(struct spoor_reader *r, int64_t until_ns);
/* Give the event just returned back: the next spoor_reader_next returns it again (ordered
 * reading only). */
void spoor_reader_unread(struct spoor_reader *r);
/* Live: how many events came after a later one (written after the watermark passed them). */
uint64_t spoor_reader_live_late(const struct spoor_reader *r);

#endif
