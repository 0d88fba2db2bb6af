/* SPDX-License-Identifier: MIT */
/*
 * kpacket.h: one CTF stream file of a kernel trace, written packet by packet. The layout
 * is spoor's (lib/ctf/meta-write.h, packed) with a cpu_id ending the packet context:
 *   0  header: magic, uuid[16], stream_id = 0, stream_instance_id
 *   32 context: timestamp_begin, timestamp_end, content_size, packet_size (bits; equal:
 *      no padding), packet_seq_num, events_discarded (running total), uint32 cpu_id
 *   84 events: LTTng's compact header when the id is below 31 and less than 2^27 ticks
 *      passed since the stream's previous event, else the extended one.
 */
#ifndef KERNEL_KPACKET_H
#define KERNEL_KPACKET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KPACKET_HEADER           84
#define KPACKET_EVENT_HEADER_MAX 13

struct kpacket {
	int fd;
	char *path;
	uint8_t uuid[16];
	uint64_t instance_id;
	uint32_t cpu_id;
	uint8_t *buf;
	size_t len, cap, pending; /* pending: end of the event begun, not yet ended */
	uint64_t ts_begin, last_ts, pending_ts;
	uint64_t first_ts;   /* the first packet written's timestamp_begin */
	uint64_t prev_begin; /* the last packet written's (with seq > 0; carried across chunks) */
	uint64_t step;       /* a nanosecond in ticks, or 0 (spoor convert: its input's
	                      * beginnings kept): see kpacket_begin_at */
	bool grow;           /* the packet grows rather than closes when full: see below */
	uint64_t seq, discarded, discarded_written;
	uint64_t events, packets, bytes; /* events: all; the rest: as written to the file */
	uint64_t packet_events, events_written;
	int werr; /* the first write error: the stream stops there */
};

int kpacket_open(struct kpacket *p, const char *path, const uint8_t uuid[16], uint64_t instance_id,
                 uint32_t cpu_id, size_t cap);
/* Write an event's header; returns where its body (context, payload) goes, with room for
 * `body_max` bytes, or NULL when body_max cannot fit an empty packet or writing failed.
 * Timestamps going back are clamped: CTF streams are ordered. A full packet is written and
 * the event begins the next, but with grow its buffer doubles instead (the state dump's
 * stream: a dump, its events all of one time, is one packet whatever its size, because
 * babeltrace2 reverses packets of one beginning from a chunk it merges into another). */
uint8_t *kpacket_begin_event(struct kpacket *p, uint32_t id, uint64_t ts, size_t body_max);
/* Commit the event begun with a body of `body_len` bytes (not calling it drops it). */
void kpacket_end_event(struct kpacket *p, size_t body_len);
/* Events the kernel lost before the next one: closes the packet so the loss shows between
 * the right packets. */
void kpacket_add_discarded(struct kpacket *p, uint64_t n);
/* Before the stream's first event: its first packet begins at ts (the session's start, or
 * where the stream's previous chunk ended) rather than at that event. With kpacket_extend,
 * every stream of a trace spans the session, as LTTng's do: babeltrace 1, lttng-analyses
 * (and babeltrace2's --stream-intersection) read only the time every stream spans. An
 * event stamped before ts would be stamped ts: callers pass a time before all of them.
 * Never back: a ts before the last event's (or the last packet's end) is ignored.
 * With a step (the recorder's), a packet begins where the one before ended, but never where
 * the one before began (after a packet of one time: the state dump's), a step later when
 * its first event allows: babeltrace2 merges a stream's packets from the chunks of a trace
 * by their beginnings in ns, each one put before those that begin with it, which swapped
 * such two packets (the later one first, then time going back: an error). */
void kpacket_begin_at(struct kpacket *p, uint64_t ts);
/* Write the packet in progress, then an empty packet from the last event (or the begin,
 * for a stream without events) up to ts. Nothing when ts is not after the last event. */
int kpacket_extend(struct kpacket *p, uint64_t ts);
/* Write the packet in progress, if it has anything. */
int kpacket_flush(struct kpacket *p);
/* Write the packet in progress, empty or not, ending at ts (at its last event when that is
 * later): spoor convert's packets end where its input's did. */
int kpacket_flush_at(struct kpacket *p, uint64_t ts);
/* Flush and close; -errno of the first write error, or 0. */
int kpacket_close(struct kpacket *p);

#endif
