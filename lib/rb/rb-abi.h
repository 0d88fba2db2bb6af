/* SPDX-License-Identifier: MIT */
/*
 * rb-abi.h: the shared-memory layout of a ring buffer, the contract between the traced
 * program (the producer, one thread per buffer) and the consumer (spoor record).
 *
 * A buffer is one memfd: this header, then num_subbufs sub-buffers of subbuf_size bytes.
 * Each sub-buffer is a CTF packet as it lies in memory (packet header and context first,
 * see lib/ctf/meta-write.h), so the consumer writes it to disk as it is.
 *
 * Sequence numbers, not indices: sub-buffer n lives at index n % num_subbufs. The producer
 * publishes `produced` (sub-buffers closed) and, for the packet in progress, `open_seq`,
 * `write_pos` and `last_ts` after every event, so the consumer can read committed events
 * of a producer that died mid-packet. The consumer publishes `consumed`. In discard mode
 * the producer never opens sub-buffer n while n - consumed >= num_subbufs; in overwrite
 * mode it opens it anyway, first marking the slot's state as holding no closed packet.
 *
 * Events are counted where it costs nothing per event: each packet's state says how many
 * events the thread had committed before it opened and when it closed, so the consumer
 * knows exactly how many events were in the packets it never read (overwritten), and a
 * packet's events_discarded how many the producer dropped (ring full, an event too big,
 * a signal handler interrupting an emit).
 *
 * The consumer trusts nothing here: every size and offset is checked against the mapping.
 * The struct records its size (header_size) and its layout version (abi_version): fields
 * may move between versions, and the consumer refuses a buffer of another version.
 */
#ifndef RB_RB_ABI_H
#define RB_RB_ABI_H

#include <stdatomic.h>
#include <stdint.h>

#define RB_MAGIC       0x42525053u /* "SPRB" */
#define RB_ABI_VERSION 2
#define RB_MAX_SUBBUFS 1024
#define RB_MIN_SUBBUF  4096u
#define RB_MAX_SUBBUF  (64u << 20)

enum rb_mode { RB_DISCARD = 0, RB_OVERWRITE = 1 };

struct rb_subbuf_state {
	_Atomic uint64_t seq;          /* sequence number of the packet closed here, + 1; 0 while
	                                  the producer writes a packet here */
	_Atomic uint64_t content_size; /* bytes */
	_Atomic uint64_t events_begin; /* events the thread committed before this packet */
	_Atomic uint64_t events_end;   /* ... and when it was closed */
};

struct rb_header {
	uint32_t magic;
	uint32_t header_size; /* sizeof(struct rb_header) + state array, as written */
	uint32_t abi_version;
	uint32_t mode; /* enum rb_mode */
	uint64_t subbuf_size;
	uint32_t num_subbufs;
	uint32_t tid;
	uint64_t data_offset; /* of sub-buffer 0, page-aligned */
	/* producer → consumer */
	_Atomic uint64_t produced; /* packets closed */
	_Atomic uint64_t open_seq; /* the packet in progress, if open_valid */
	_Atomic uint64_t open_valid;
	_Atomic uint64_t write_pos; /* bytes committed in the packet in progress */
	_Atomic uint64_t last_ts;   /* timestamp of the last committed event */
	_Atomic uint64_t discarded; /* events dropped so far */
	_Atomic uint64_t first_ts;  /* timestamp_begin of packet 0 */
	/* consumer → producer */
	_Atomic uint64_t consumed; /* packets taken */
	_Atomic uint32_t consumer_waiting;
	uint32_t pad;
	struct rb_subbuf_state sb[]; /* num_subbufs */
};

/* The packet header and context every sub-buffer starts with (lib/ctf/meta-write.h). */
struct rb_packet_start {
	uint32_t magic; /* 0xC1FC1FC1 */
	uint8_t uuid[16];
	uint32_t stream_id;
	uint64_t stream_instance_id;
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t content_size; /* bits */
	uint64_t packet_size;  /* bits */
	uint64_t packet_seq_num;
	uint64_t events_discarded; /* producer: dropped; written: dropped + overwritten */
	uint32_t vpid;
	uint32_t vtid;
	uint64_t events_overwritten; /* written by the consumer (cumulative); 0 in the ring */
};

#define RB_PACKET_MAGIC 0xC1FC1FC1u

static inline uint64_t rb_header_bytes(uint32_t num_subbufs)
{
	uint64_t h =
	    sizeof(struct rb_header) + (uint64_t) num_subbufs * sizeof(struct rb_subbuf_state);
	return (h + 4095) & ~(uint64_t) 4095;
}

#endif
