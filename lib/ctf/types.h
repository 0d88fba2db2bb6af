/* SPDX-License-Identifier: MIT */
/*
 * types.h: the CTF 1.8 type tree and trace model built from TSDL metadata.
 *
 * Everything here is allocated in the trace's arena and immutable once the metadata is
 * parsed, but for event classes' deferred scopes, filled in when first needed. Types are
 * shared (a typealias is the same object under another name).
 */
#ifndef CTF_TYPES_H
#define CTF_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "util/arena.h"

enum ctf_kind {
	CTF_INT,
	CTF_FLOAT,
	CTF_STRING,
	CTF_ENUM,
	CTF_STRUCT,
	CTF_VARIANT,
	CTF_ARRAY,
	CTF_SEQUENCE,
};

enum ctf_byte_order { CTF_BO_NATIVE, CTF_BO_LE, CTF_BO_BE };

/* Display base, as babeltrace2 prints it. */
enum ctf_base { CTF_BASE_DEC = 10, CTF_BASE_HEX = 16, CTF_BASE_OCT = 8, CTF_BASE_BIN = 2 };

struct ctf_clock;
struct ctf_type;
struct tsdl_alias;

/* A label's range. The entries of one label are adjacent, in the order the labels are first
 * declared, and share one label pointer (babeltrace2 groups a label's ranges into one
 * mapping); lo <= hi. */
struct ctf_enum_entry {
	const char *label;
	int64_t lo, hi; /* compared as unsigned when the container is unsigned */
};

struct ctf_field {
	const char *name;  /* as written in the metadata */
	const char *shown; /* as readers show it: one leading underscore dropped */
	struct ctf_type *type;
	unsigned shown_len;
	/* text output caches: 1 babeltrace2 shows the member, -1 hides it, 0 unknown;
	 * [0] anywhere, [1] at the root of a packet context */
	signed char visible[2];
};

/* An unresolved reference to another field: a sequence length or a variant tag. */
struct ctf_path {
	const char *text;
};

struct ctf_type {
	enum ctf_kind kind;
	unsigned align; /* bits */
	union {
		struct {
			unsigned size; /* bits, 1..64 */
			bool is_signed;
			enum ctf_byte_order bo;
			enum ctf_base base;
			bool text;             /* encoding UTF8/ASCII */
			const char *map_clock; /* clock name, or NULL */
		} i;
		struct {
			unsigned exp_dig, mant_dig;
			enum ctf_byte_order bo;
		} f;
		struct {
			struct ctf_type *container; /* a CTF_INT */
			struct ctf_enum_entry *entries;
			unsigned n;
		} e;
		struct {
			struct ctf_field *fields;
			unsigned n;
		} s; /* struct and variant */
		struct {
			struct ctf_type *elem;
			uint64_t len;         /* CTF_ARRAY */
			struct ctf_path path; /* CTF_SEQUENCE: the length field */
		} a;
	};
	struct ctf_path tag; /* CTF_VARIANT */
	signed char shown;   /* text output: 1 babeltrace2 shows it, -1 hides it, 0 unknown */
	signed char scope_shown[2]; /* the same for a whole scope; [1]: as a packet context */
};

struct ctf_clock {
	const char *name;
	const char *description;
	uint8_t uuid[16];
	bool has_uuid;
	uint64_t freq;
	int64_t offset_s;
	uint64_t offset; /* cycles */
	uint64_t precision;
	bool absolute;
};

struct ctf_env_entry {
	const char *key;
	const char *text; /* the value as text */
	bool is_string;
	int64_t value; /* when an integer */
};

/* A scope whose type text is parsed on first need (tsdl_parse_lazy, tsdl_parse_deferred):
 * where the text starts, and how many top-level type names were declared before it.
 * line 0: nothing deferred. */
struct ctf_deferred {
	uint32_t off, line, col, naliases;
};

struct ctf_trace;

struct ctf_event_class {
	const char *name;
	size_t name_len;
	uint64_t id;
	uint64_t stream_id;
	bool has_loglevel;
	int64_t loglevel;
	const char *emf_uri;
	struct ctf_type *context; /* may be NULL */
	struct ctf_type *fields;  /* may be NULL */
	size_t global_index;      /* dense across all traces of a reader */
	void *plan;               /* decode plans, built by plan.c */
	bool pass_over; /* nobody reads it: ctf_stream_next steps over (reader_pass_over) */
	/* context and fields until ctf_event_class_ready parses them, in this trace's metadata;
	 * then plan is set, or error and error_msg say why the class cannot be read */
	struct ctf_deferred lazy_context, lazy_fields;
	struct ctf_trace *trace;
	int error;
	const char *error_msg;
	/* the class of the model this trace shares (meta-share.h): made ready in its place,
	 * once for every trace sharing it; NULL when the class is this trace's own */
	struct ctf_event_class *shared;
};

struct ctf_stream_class {
	uint64_t id;
	bool has_id;
	struct ctf_type *packet_context;
	struct ctf_type *event_header;
	struct ctf_type *event_context;
	struct ctf_event_class **events; /* in metadata order */
	unsigned nevents, cap_events;
	struct ctf_event_class **by_id; /* dense lookup for small ids, built after parsing */
	uint64_t by_id_len;
	/* per id below by_id_len, for classes passed over (ctf_event_class.pass_over) whose
	 * rest after the header is a fixed number of bytes: that number of bits plus one,
	 * filled as they are met (stream.c); 0 otherwise. NULL when nothing is passed over. */
	uint32_t *pass_skip;
	const struct ctf_clock *clock; /* default clock: the one event timestamps map to */
	void *plan;
};

/* A value of the metadata text that may differ between traces that share the rest
 * (meta-share.h): the trace's UUID, a clock's offset, offset_s or UUID, an env value. */
enum ctf_var_kind { CTF_VAR_TRACE_UUID, CTF_VAR_CLOCK, CTF_VAR_ENV };
struct ctf_var {
	uint32_t off, len; /* the value's text, up to the ';' after it */
	uint32_t line, col;
	uint8_t kind;   /* enum ctf_var_kind */
	bool line_ends; /* only blanks follow the ';' on its line: its length may change */
	uint32_t index; /* CTF_VAR_CLOCK: the clock's; CTF_VAR_ENV: the entry's */
	const char *key;
};

struct ctf_meta {
	struct arena arena;
	unsigned major, minor;
	uint8_t uuid[16];
	bool has_uuid;
	enum ctf_byte_order bo; /* CTF_BO_LE or CTF_BO_BE once parsed */
	struct ctf_type *packet_header;
	struct ctf_env_entry *env;
	unsigned nenv, cap_env;
	struct ctf_clock **clocks;
	unsigned nclocks, cap_clocks;
	struct ctf_stream_class **streams;
	unsigned nstreams, cap_streams;
	/* what deferred scopes are parsed with: the text, the top-level type names */
	const char *text;
	size_t text_len;
	struct tsdl_alias *aliases;
	/* integer bodies parsed so far (tsdl-parse.c: int_memo_find) */
	struct ctf_int_memo *int_memo;
	unsigned nint_memo;
	/* the values of text that may differ in a trace sharing this model, in text order */
	struct ctf_var *vars;
	unsigned nvars, cap_vars;
};

/* An `integer {...}` body of the metadata text, from '{' to '}', and the type it makes. */
struct ctf_int_memo {
	const char *body;
	size_t len;
	struct ctf_type type;
};

struct ctf_type *ctf_type_new(struct arena *a, enum ctf_kind kind);
struct ctf_stream_class *ctf_meta_stream(const struct ctf_meta *m, uint64_t id);
struct ctf_event_class *ctf_stream_event(const struct ctf_stream_class *sc, uint64_t id);
/* sc->by_id from sc->events, when the ids are dense enough (ctf_stream_event trusts it for
 * ids below by_id_len): 0, or -ENOMEM with no table (look-ups take the slow way). */
int ctf_stream_index_ids(struct arena *a, struct ctf_stream_class *sc);
const struct ctf_clock *ctf_meta_clock(const struct ctf_meta *m, const char *name);
const char *ctf_meta_env(const struct ctf_meta *m, const char *key);
/* A field of a struct by name (as written or as shown), or -1. */
int ctf_struct_find(const struct ctf_type *t, const char *name, unsigned upto);
/* Babeltrace's view: an 8-bit text integer as array or sequence element is a string. */
bool ctf_type_is_text_array(const struct ctf_type *t);
/* An enum's entries as read, put in the order ctf_enum_entry describes: reversed ranges
 * turned round (as babeltrace 1 does), a label's ranges gathered after its first one. 0 or
 * -ENOMEM. */
int ctf_enum_group(struct arena *a, struct ctf_type *t);
/* The next label whose ranges hold v (the container's raw bits), from entry *at on, and *at
 * past that label's entries; NULL when no further label holds it. Start with *at = 0: the
 * labels come in babeltrace2's order. */
const char *ctf_enum_next_label(const struct ctf_type *t, uint64_t v, unsigned *at);
/* Resolve native byte order once the trace's is known. */
enum ctf_byte_order ctf_bo(const struct ctf_meta *m, enum ctf_byte_order bo);

#endif
