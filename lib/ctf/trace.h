/* SPDX-License-Identifier: MIT */
/* trace.h: one CTF trace directory: its metadata model, compiled plans and stream files. */
#ifndef CTF_TRACE_H
#define CTF_TRACE_H

#include <stddef.h>

#include "plan.h"
#include "types.h"

/* Ordinals of the packet fields the reader itself interprets (-1: absent). */
enum packet_role {
	ROLE_MAGIC,
	ROLE_UUID,
	ROLE_STREAM_ID,
	ROLE_STREAM_INSTANCE_ID,
	ROLE_TIMESTAMP_BEGIN,
	ROLE_TIMESTAMP_END,
	ROLE_CONTENT_SIZE,
	ROLE_PACKET_SIZE,
	ROLE_EVENTS_DISCARDED,
	ROLE_PACKET_SEQ_NUM,
	ROLE_CPU_ID,
	ROLE_EVENTS_OVERWRITTEN, /* spoor's flight recorder (lib/ctf/meta-write.h) */
	ROLE_COUNT
};

struct stream_class_plans {
	struct plan *packet_context, *event_header, *event_context;
	int role[ROLE_COUNT]; /* packet context roles */
	unsigned discarded_bits;
	int64_t clock_offset_ns; /* the default clock's origin offset, in ns */
	uint64_t clock_freq;
};

/* One fixed-layout scope to step over: align, then bits. */
struct skip_step {
	uint32_t align;
	uint32_t bits;
};

struct event_class_plans {
	struct plan *context, *payload;
	/* The plans of the scopes after the header (stream event context, event context,
	 * payload), indexed by enum spoor_scope. */
	const struct plan *scope[SPOOR_SCOPE_COUNT];
	/* The steps that skip the leading fixed-layout scopes after the header (what
	 * decode_skip would do); fixed when they are all of them, so a reader steps over
	 * the event in a few adds. */
	bool fixed;
	uint8_t nskip;
	struct skip_step skip[3];
	/* fixed, and no step aligns to more than a byte: from a byte boundary the event's
	 * rest is always skip_bits (a multiple of 8) */
	bool byte_skip;
	uint32_t skip_bits;
	/* the payload starts right after the header, aligned to at most a byte */
	bool pay_direct;
	/* where the payload starts, in bytes from the header's end when that end is on a
	 * byte: every scope between them of a fixed layout of whole bytes aligned to at most a
	 * byte, and the payload too (PAY_AT_NONE otherwise): ctf_stream_locate_payload */
	uint32_t pay_at;
	/* Per scope: how many of those steps come before it, when every scope before it has
	 * a fixed layout (PRE_VARIABLE otherwise): where it starts, from the header's end. */
	uint8_t pre[SPOOR_SCOPE_COUNT];
	/* Bit per scope (1 << enum spoor_scope) whose values a later scope refers to, e.g. a
	 * payload sequence sized by a context field: decoded, never stepped over. */
	uint8_t keep;
};
#define PRE_VARIABLE 0xff
#define PAY_AT_NONE  UINT32_MAX

struct ctf_trace {
	char *path;
	size_t index;
	struct ctf_meta meta;
	struct plan *packet_header;
	int header_role[ROLE_COUNT];
	const char *hostname; /* env hostname when it is a string, else NULL */
	size_t hostname_len;
	const char *procname; /* env procname when a string */
	bool has_vpid;        /* env vpid when an integer */
	int64_t vpid;
	char **stream_paths; /* sorted file names' full paths */
	size_t nstream_paths;
	struct ctf_trace *grafted; /* ctf_trace_graft: the newer models event classes came from */
	/* ctf_trace_open_among: the trace whose model (meta-share.h) this one shares, or NULL;
	 * how many share this one's, alive: it is freed with the last of them */
	struct ctf_trace *model;
	unsigned sharers;
	bool released;
};

/* Open the trace in directory `dir` (which holds `metadata`). Error text in err. */
int ctf_trace_open(const char *dir, struct ctf_trace **out, char *err, size_t errlen);
/* The same, sharing the model of one of `known` (the traces opened before it, in this
 * thread; a model is compared with through its own trace, or, once that one has grown
 * (ctf_trace_graft), through those sharing it) whose metadata text is dir's but for the
 * values a trace may change (meta-share.h): its types, text and event classes' plans, made
 * ready once. The traces must be used from one thread; each keeps its own UUID, clocks,
 * env and classes. */
int ctf_trace_open_among(const char *dir, struct ctf_trace *const *known, size_t nknown,
                         struct ctf_trace **out, char *err, size_t errlen);
/* Parse metadata text and compile plans (the part of open that fuzzers exercise). Event
 * classes' context, fields and plans wait for ctf_event_class_ready. */
int ctf_trace_load_metadata(struct ctf_trace *t, const char *text, size_t len, char *err,
                            size_t errlen);
/* ctf_trace_load_metadata, or the model of one of known shared as ctf_trace_open_among
 * does (t->model says which). */
int ctf_trace_load_among(struct ctf_trace *t, struct ctf_trace *const *known, size_t nknown,
                         const char *text, size_t len, char *err, size_t errlen);
/* Parse a class's deferred scopes and compile its plan, once: 0 (ec->plan is set), or the
 * error, the same each time, with ec->error_msg ("DIR/metadata: line L, column C: ..."). Any
 * use of ec->context, ec->fields or ec->plan must come after it. */
int ctf_event_class_ready(struct ctf_event_class *ec);
/* Every class of t ready (what tests and fuzzers check): 0 or the first error, in err. */
int ctf_trace_ready_all(struct ctf_trace *t, char *err, size_t errlen);
/* Free t, or, while traces share its model, once the last of them is freed. */
void ctf_trace_free(struct ctf_trace *t);
/* Metadata that grew (a live trace whose program registered more events): take in the
 * event classes of `newer` (the whole grown metadata, opened anew) that t's stream classes
 * lack, keeping t's classes and streams as they are. newer is taken (freed with t).
 * Returns how many classes were added. */
size_t ctf_trace_graft(struct ctf_trace *t, struct ctf_trace *newer);

/* Cycles to ns with babeltrace2's arithmetic: exact at 1 GHz, through a double otherwise
 * (saturating, as a corrupt clock value must not be undefined behaviour). */
static inline uint64_t ctf_cycles_to_ns(uint64_t freq, uint64_t cycles)
{
	if (freq == 1000000000)
		return cycles;
	double ns = 1e9 * (double) cycles / (double) freq;
	return ns >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t) ns;
}

/* ns from the clock origin for a clock value. Wraps (two's complement) rather than
 * overflowing: only corrupt traces get there. */
static inline int64_t ctf_clock_ns(const struct stream_class_plans *p, uint64_t cycles)
{
	return (int64_t) ((uint64_t) p->clock_offset_ns + ctf_cycles_to_ns(p->clock_freq, cycles));
}

#endif
