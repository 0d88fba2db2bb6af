/* SPDX-License-Identifier: MIT */
/*
 * stream.h: walks one stream file packet by packet and event by event.
 *
 * The event header is decoded by ctf_stream_next(); the contexts and payload only on
 * demand (ctf_stream_decode), else skipped on the next call, without decoding when their
 * layout is fixed.
 */
#ifndef CTF_STREAM_H
#define CTF_STREAM_H

#include <stdbool.h>

#include "decode.h"
#include "trace.h"
#include "util/mapfile.h"

struct ctf_stream {
	struct ctf_trace *trace;
	const char *path;
	size_t index;
	struct mapfile mf;
	/* the packet being read */
	uint64_t pkt_off;
	uint64_t pkt_bytes;
	uint64_t cut_bytes; /* the packet's declared size when the file ends inside it */
	struct bitsrc src;
	struct ctf_stream_class *sc;
	const struct stream_class_plans *scp;
	struct val_table pkt_table, ev_table;
	struct decoder dec;
	uint64_t clock;
	int64_t cpu;
	uint64_t stream_id; /* stream class id */
	uint64_t instance_id;
	bool has_instance_id;
	uint64_t discarded_counter; /* last events_discarded value seen */
	uint64_t discarded;         /* total reported */
	uint64_t packets, bytes;
	bool in_packet, done, damaged;
	char error[320];
	/* the current event */
	struct ctf_event_class *ec;
	const struct event_class_plans *ecp;
	uint64_t ts_cycles;
	int64_t ts_ns;
	int decoded;       /* last scope decoded (enum spoor_scope) */
	uint64_t ev_start; /* bit offset of the event in its packet */
};

/* Map the file and read its first packet header, to learn the stream class, the cpu and the
 * stream instance id. Errors name the file and offset in s->error. */
int ctf_stream_open(struct ctf_stream *s, struct ctf_trace *t, const char *path, size_t index);
void ctf_stream_close(struct ctf_stream *s);
/* A stream that ended at the end of its file, remapped if the file grew since (a live
 * trace, written a whole packet at a time): 1 when there is more to read. */
int ctf_stream_grow(struct ctf_stream *s);
/* After an event id the metadata did not declare (-SPOOR_ENOEVENT): the stream stopped on
 * that event's header; once the id is declared (ctf_trace_graft), it can go on from it. */
void ctf_stream_undamage(struct ctf_stream *s);
/* Advance to the next event: 1 (event ready), 0 (end of stream), or < 0 (damage: the stream
 * is marked done and damaged, s->error says where). */
int ctf_stream_next(struct ctf_stream *s);
/* Decode the current event up to and including scope. 0 or < 0 (damage, as above). */
int ctf_stream_decode(struct ctf_stream *s, int scope);
/* A root-level integer or text field of a scope not decoded yet, read in place when the
 * layouts allow (decode_peek); false: decode the scope instead. */
bool ctf_stream_peek(const struct ctf_stream *s, int scope, int index, struct val *v);

#endif
