/* SPDX-License-Identifier: MIT */
/*
 * test-metawrite.c: the tracer's metadata writer (lib/ctf/meta-write.h).
 *
 * 1. Descriptors covering every field kind are written out, parsed back with spoor's TSDL
 *    parser, and the model is compared with what the descriptors say (the mapping rules of
 *    meta-write.h, restated here).
 * 2. Descriptors the format cannot carry are refused with -EINVAL.
 * 3. End to end: a trace directory with that metadata (plus one event class appended with
 *    ctf_meta_write_event(), as for a provider registered later) and one stream file built
 *    here byte by byte (the layout of meta-write.h: natural alignment counted from the packet
 *    start) is read with the public reader, every value checked, and, when babeltrace2 is
 *    installed, its text output is compared with spoor's SPOOR_FORMAT_BABELTRACE output.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "ctf/meta-write.h"
#include "ctf/trace.h"
#include "spoor/trace.h"

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* ---- descriptors ---- */

#define FINT(n, sz, sg, b, be)                                                                     \
	{                                                                                          \
		.name = (n), .kind = SPOOR_FK_INT, .size = (sz), .is_signed = (sg), .base = (b),   \
		.big_endian = (be)                                                                 \
	}
#define FFLOAT(n, sz, be)                                                                          \
	{                                                                                          \
		.name = (n), .kind = SPOOR_FK_FLOAT, .size = (sz), .big_endian = (be)              \
	}
#define FSTR(n)                                                                                    \
	{                                                                                          \
		.name = (n), .kind = SPOOR_FK_STRING                                               \
	}
#define FARR(n, sz, sg, b, be, tx, len)                                                            \
	{                                                                                          \
		.name = (n), .kind = SPOOR_FK_ARRAY, .size = (sz), .is_signed = (sg), .base = (b), \
		.big_endian = (be), .text = (tx), .length = (len)                                  \
	}
#define FSEQ(n, sz, sg, b, be, tx)                                                                 \
	{                                                                                          \
		.name = (n), .kind = SPOOR_FK_SEQUENCE, .size = (sz), .is_signed = (sg),           \
		.base = (b), .big_endian = (be), .text = (tx)                                      \
	}
#define FENUM(n, sz, sg, e)                                                                        \
	{                                                                                          \
		.name = (n), .kind = SPOOR_FK_ENUM, .size = (sz), .is_signed = (sg), .base = 10,   \
		.entries = (e), .nentries = N_ELEMS(e)                                             \
	}
#define EVENT(p, n, f, i)                                                                          \
	{                                                                                          \
		.struct_size = sizeof(struct spoor_event_desc), .provider = (p), .name = (n),      \
		.fields = (f), .nfields = N_ELEMS(f), .id = (i)                                    \
	}

static const char quoted_label[] = "say \"hi\" \\o/";

static const struct spoor_enum_entry state_entries[] = {
    {"NEG", -100, -1},
    {"ZERO", 0, 0},
    {"SMALL", 1, 10},
    {quoted_label, 42, 42},
};
static const struct spoor_enum_entry flag_entries[] = {
    {"LOW", 0, 99},
    {"LOW", 110, 127}, /* a label on two ranges, written as given */
    {"HIGH", 100, 109},
    {"HIGH", 128, 255},
};
static const struct spoor_enum_entry big_entries[] = {
    {"ONE", 1, 1},
    {"HUGE", (int64_t) 0xFFFFFFFFFFFFFF00ull, (int64_t) UINT64_MAX},
};

static const struct spoor_field_desc ints_fields[] = {
    FINT("s8", 1, 1, 10, 0),     FINT("hex16", 2, 0, 16, 0),
    FINT("s32", 4, 1, 10, 0),    FINT("u64", 8, 0, 10, 0),
    FINT("net32", 4, 0, 10, 1),  FINT("string", 4, 1, 10, 0), /* TSDL keywords as field names */
    FINT("struct", 1, 0, 10, 0), FINT("align", 2, 1, 16, 1),
};
static const struct spoor_field_desc floats_fields[] = {
    FFLOAT("f32", 4, 0),
    FFLOAT("f64", 8, 0),
    FFLOAT("integer", 4, 1),
};
static const struct spoor_field_desc strings_fields[] = {
    FSTR("msg"),
    FARR("text", 1, 1, 10, 0, 1, 8),
    FARR("hexarr", 2, 0, 16, 0, 0, 3),
    FARR("netarr", 4, 0, 10, 1, 0, 2),
    FSTR("enum"),
};
static const struct spoor_field_desc seqs_fields[] = {
    FSEQ("text", 1, 1, 10, 0, 1),
    FSEQ("vals", 2, 1, 10, 0, 0),
    FSEQ("nets", 4, 0, 16, 1, 0),
    FINT("variant", 1, 0, 10, 0),
};
static const struct spoor_field_desc enums_fields[] = {
    FENUM("state", 4, 1, state_entries),
    FENUM("flags", 1, 0, flag_entries),
    FENUM("big", 8, 0, big_entries),
};
static const struct spoor_field_desc late_fields[] = {
    FINT("x", 4, 0, 10, 0),
    FSTR("typealias"),
};

static struct spoor_event_desc ev_ints = EVENT("app", "ints", ints_fields, 0);
static struct spoor_event_desc ev_floats = EVENT("app", "floats", floats_fields, 1);
static struct spoor_event_desc ev_strings = EVENT("app", "strings", strings_fields, 2);
static struct spoor_event_desc ev_seqs = EVENT("app", "seqs", seqs_fields, 3);
static struct spoor_event_desc ev_enums = EVENT("app", "enums", enums_fields, 40);
static struct spoor_event_desc ev_empty = {
    .struct_size = sizeof(struct spoor_event_desc), .provider = "app", .name = "empty", .id = 5};
static struct spoor_event_desc ev_late = EVENT("late", "probe", late_fields, 41);

static const struct spoor_event_desc *const all_events[] = {
    &ev_ints, &ev_floats, &ev_strings, &ev_seqs, &ev_enums, &ev_empty,
};

static const struct meta_env env[] = {
    {.key = "hostname", .str = "testhost", .is_str = 1},
    {.key = "domain", .str = "ust", .is_str = 1},
    {.key = "tracer_name", .str = "spoor", .is_str = 1},
    {.key = "tracer_major", .num = 0},
    {.key = "negative", .num = -17},
    {.key = "quoted", .str = "a \"b\" \\c", .is_str = 1},
};

#define CLOCK_OFFSET_S 1700000000
#define CLOCK_OFFSET   123456789u

static const struct meta_trace trace_desc = {
    .uuid = {0x2a, 0x6b, 0x1f, 0x00, 0x93, 0x44, 0x4c, 0x1d, 0xa0, 0x17, 0x55, 0xe2, 0x0b, 0x9c,
             0xf1, 0x07},
    .env = env,
    .nenv = N_ELEMS(env),
    .clock = {.name = "monotonic",
              .description = "Monotonic \"Clock\"",
              .uuid = {0xf2, 0x13, 0x79, 0xfd, 0xdf, 0xed, 0x4a, 0xab, 0xa1, 0xe1, 0x2c, 0x95, 0x25,
                       0x19, 0x37, 0xbe},
              .freq = 1000000000,
              .offset_s = CLOCK_OFFSET_S,
              .offset = CLOCK_OFFSET},
};

/* ---- part 1: the model the reader parses ---- */

static void check_int_type(const struct ctf_meta *m, const struct ctf_type *t, unsigned bits,
                           unsigned align, bool is_signed, bool be, unsigned base, bool text)
{
	if (!CHECK_EQ_U64(t->kind, CTF_INT))
		return;
	CHECK_EQ_U64(t->i.size, bits);
	CHECK_EQ_U64(t->align, align);
	CHECK_EQ_U64(t->i.is_signed, is_signed);
	CHECK_EQ_U64(ctf_bo(m, t->i.bo), be ? CTF_BO_BE : CTF_BO_LE);
	CHECK_EQ_U64(t->i.base, base);
	CHECK_EQ_U64(t->i.text, text);
	CHECK(t->i.map_clock == NULL);
}

static void check_field_int(const struct ctf_meta *m, const struct ctf_type *t,
                            const struct spoor_field_desc *f, bool text)
{
	check_int_type(m, t, 8u * f->size, 8u * f->size, f->is_signed, f->big_endian,
	               f->base ? f->base : 10, text);
}

static const struct ctf_field *member(const struct ctf_type *st, unsigned i)
{
	return i < st->s.n ? &st->s.fields[i] : NULL;
}

static void check_name(const struct ctf_field *fld, const char *written, const char *shown)
{
	if (!CHECK(fld != NULL))
		return;
	CHECK_STR(fld->name, written);
	CHECK_STR(fld->shown, shown);
}

/* One event class against its descriptor. */
static void check_class(const struct ctf_meta *m, const struct ctf_event_class *ec,
                        const struct spoor_event_desc *d)
{
	char want[200];

	snprintf(want, sizeof(want), "%s:%s", d->provider, d->name);
	CHECK_CTX("class %s", want);
	CHECK_STR(ec->name, want);
	CHECK_EQ_U64(ec->name_len, strlen(want));
	CHECK_EQ_U64(ec->id, d->id);
	CHECK_EQ_U64(ec->stream_id, 0);
	CHECK(ec->context == NULL);
	if (!CHECK(ec->fields != NULL) || !CHECK_EQ_U64(ec->fields->kind, CTF_STRUCT))
		return;
	const struct ctf_type *st = ec->fields;
	unsigned k = 0, max_align = 1;
	for (uint32_t i = 0; i < d->nfields; i++) {
		const struct spoor_field_desc *f = &d->fields[i];
		char written[80], len_name[80];
		const struct ctf_field *fld;
		CHECK_CTX("class %s, field %s", want, f->name);
		snprintf(written, sizeof(written), "_%s", f->name);
		if (f->kind == SPOOR_FK_SEQUENCE) {
			snprintf(len_name, sizeof(len_name), "__%s_length", f->name);
			fld = member(st, k++);
			check_name(fld, len_name, len_name + 1);
			if (fld)
				check_int_type(m, fld->type, 32, 32, false, false, 10, false);
			max_align = max_align > 32 ? max_align : 32;
		}
		fld = member(st, k++);
		check_name(fld, written, f->name);
		if (!fld)
			continue;
		const struct ctf_type *t = fld->type;
		switch (f->kind) {
		case SPOOR_FK_INT: check_field_int(m, t, f, false); break;
		case SPOOR_FK_FLOAT:
			if (!CHECK_EQ_U64(t->kind, CTF_FLOAT))
				break;
			CHECK_EQ_U64(t->f.exp_dig, f->size == 4 ? 8 : 11);
			CHECK_EQ_U64(t->f.mant_dig, f->size == 4 ? 24 : 53);
			CHECK_EQ_U64(t->align, 8u * f->size);
			CHECK_EQ_U64(ctf_bo(m, t->f.bo), f->big_endian ? CTF_BO_BE : CTF_BO_LE);
			break;
		case SPOOR_FK_STRING:
			CHECK_EQ_U64(t->kind, CTF_STRING);
			CHECK_EQ_U64(t->align, 8);
			break;
		case SPOOR_FK_ARRAY:
			if (!CHECK_EQ_U64(t->kind, CTF_ARRAY))
				break;
			CHECK_EQ_U64(t->a.len, f->length);
			CHECK_EQ_U64(t->align, 8u * f->size);
			check_field_int(m, t->a.elem, f, f->text);
			CHECK_EQ_U64(ctf_type_is_text_array(t), f->text);
			break;
		case SPOOR_FK_SEQUENCE:
			if (!CHECK_EQ_U64(t->kind, CTF_SEQUENCE))
				break;
			CHECK_STR(t->a.path.text, len_name);
			CHECK_EQ_U64(t->align, 8u * f->size);
			check_field_int(m, t->a.elem, f, f->text);
			CHECK_EQ_U64(ctf_type_is_text_array(t), f->text);
			break;
		case SPOOR_FK_ENUM:
			if (!CHECK_EQ_U64(t->kind, CTF_ENUM))
				break;
			check_field_int(m, t->e.container, f, false);
			CHECK_EQ_U64(t->align, 8u * f->size);
			if (!CHECK_EQ_U64(t->e.n, f->nentries))
				break;
			for (unsigned e = 0; e < t->e.n; e++) {
				CHECK_STR(t->e.entries[e].label, f->entries[e].label);
				CHECK_EQ_S64(t->e.entries[e].lo, f->entries[e].lo);
				CHECK_EQ_S64(t->e.entries[e].hi, f->entries[e].hi);
			}
			break;
		}
		unsigned a = f->kind == SPOOR_FK_STRING ? 8 : 8u * f->size;
		max_align = max_align > a ? max_align : a;
	}
	CHECK_CTX("class %s", want);
	CHECK_EQ_U64(st->s.n, k);
	CHECK_EQ_U64(st->align, max_align);
	CHECK_CTX("%s", "");
}

static void check_uuid(const uint8_t *got, const uint8_t *want)
{
	CHECK(!memcmp(got, want, 16));
}

static void check_model(const struct ctf_trace *tr, size_t nclasses)
{
	const struct ctf_meta *m = &tr->meta;

	CHECK_CTX("trace");
	CHECK_EQ_U64(m->major, 1);
	CHECK_EQ_U64(m->minor, 8);
	CHECK(m->has_uuid);
	check_uuid(m->uuid, trace_desc.uuid);
	CHECK_EQ_U64(m->bo, CTF_BO_LE);

	/* packet header: natural alignment, unsigned */
	const struct ctf_type *ph = m->packet_header;
	static const struct {
		const char *name;
		unsigned size;
	} ph_fields[] = {{"magic", 32}, {"uuid", 8}, {"stream_id", 32}, {"stream_instance_id", 64}};
	if (CHECK(ph != NULL) && CHECK_EQ_U64(ph->s.n, 4))
		for (unsigned i = 0; i < 4; i++) {
			const struct ctf_field *fld = member(ph, i);
			const struct ctf_type *t = fld->type;
			CHECK_CTX("packet header %s", ph_fields[i].name);
			CHECK_STR(fld->name, ph_fields[i].name);
			if (i == 1) {
				if (CHECK_EQ_U64(t->kind, CTF_ARRAY) && CHECK_EQ_U64(t->a.len, 16))
					t = t->a.elem;
			}
			check_int_type(m, t, ph_fields[i].size, ph_fields[i].size, false, false, 10,
			               false);
		}
	CHECK_CTX("trace");
	for (int r = 0; r <= ROLE_STREAM_INSTANCE_ID; r++)
		CHECK_EQ_S64(tr->header_role[r], r);

	/* env */
	if (CHECK_EQ_U64(m->nenv, N_ELEMS(env)))
		for (unsigned i = 0; i < m->nenv; i++) {
			CHECK_CTX("env %s", env[i].key);
			CHECK_STR(m->env[i].key, env[i].key);
			CHECK_EQ_U64(m->env[i].is_string, env[i].is_str);
			if (env[i].is_str) {
				CHECK_STR(m->env[i].text, env[i].str);
			} else {
				CHECK_EQ_S64(m->env[i].value, env[i].num);
			}
		}
	CHECK_CTX("trace");
	CHECK_STR(ctf_meta_env(m, "quoted"), "a \"b\" \\c");
	CHECK_STR(tr->hostname, "testhost");

	/* clock */
	const struct ctf_clock *c = NULL;
	if (CHECK_EQ_U64(m->nclocks, 1))
		c = m->clocks[0];
	if (c) {
		CHECK_CTX("clock");
		CHECK_STR(c->name, "monotonic");
		CHECK_STR(c->description, "Monotonic \"Clock\"");
		CHECK(c->has_uuid);
		check_uuid(c->uuid, trace_desc.clock.uuid);
		CHECK_EQ_U64(c->freq, 1000000000);
		CHECK_EQ_S64(c->offset_s, CLOCK_OFFSET_S);
		CHECK_EQ_U64(c->offset, CLOCK_OFFSET);
		CHECK_EQ_U64(c->precision, 1);
		CHECK(!c->absolute);
	}

	/* the stream class */
	CHECK_CTX("stream");
	if (!CHECK_EQ_U64(m->nstreams, 1))
		return;
	const struct ctf_stream_class *sc = m->streams[0];
	CHECK(sc->has_id);
	CHECK_EQ_U64(sc->id, 0);
	CHECK(sc->clock == c);
	CHECK(sc->event_context == NULL);
	static const struct {
		const char *name;
		unsigned size;
		bool clock;
	} pc_fields[] = {
	    {"timestamp_begin", 64, true},
	    {"timestamp_end", 64, true},
	    {"content_size", 64, false},
	    {"packet_size", 64, false},
	    {"packet_seq_num", 64, false},
	    {"events_discarded", 64, false},
	    {"vpid", 32, false},
	    {"vtid", 32, false},
	    {"events_overwritten", 64, false},
	};
	const struct ctf_type *pc = sc->packet_context;
	if (CHECK(pc != NULL) && CHECK_EQ_U64(pc->s.n, N_ELEMS(pc_fields)))
		for (unsigned i = 0; i < N_ELEMS(pc_fields); i++) {
			const struct ctf_type *t = pc->s.fields[i].type;
			CHECK_CTX("packet context %s", pc_fields[i].name);
			CHECK_STR(pc->s.fields[i].name, pc_fields[i].name);
			if (!CHECK_EQ_U64(t->kind, CTF_INT))
				continue;
			CHECK_EQ_U64(t->i.size, pc_fields[i].size);
			CHECK_EQ_U64(t->align, pc_fields[i].size);
			CHECK(!t->i.is_signed);
			CHECK_STR(t->i.map_clock, pc_fields[i].clock ? "monotonic" : NULL);
		}
	const struct stream_class_plans *sp = sc->plan;
	if (CHECK(sp != NULL)) {
		CHECK_CTX("stream roles");
		CHECK_EQ_S64(sp->role[ROLE_TIMESTAMP_BEGIN], 0);
		CHECK_EQ_S64(sp->role[ROLE_TIMESTAMP_END], 1);
		CHECK_EQ_S64(sp->role[ROLE_CONTENT_SIZE], 2);
		CHECK_EQ_S64(sp->role[ROLE_PACKET_SIZE], 3);
		CHECK_EQ_S64(sp->role[ROLE_PACKET_SEQ_NUM], 4);
		CHECK_EQ_S64(sp->role[ROLE_EVENTS_DISCARDED], 5);
		CHECK_EQ_S64(sp->role[ROLE_CPU_ID], -1);
		CHECK_EQ_S64(sp->role[ROLE_EVENTS_OVERWRITTEN], 8);
		CHECK_EQ_U64(sp->clock_freq, 1000000000);
		CHECK_EQ_S64(sp->clock_offset_ns,
		             (int64_t) CLOCK_OFFSET_S * 1000000000 + CLOCK_OFFSET);
	}

	/* the event header: LTTng's compact one */
	CHECK_CTX("event header");
	const struct ctf_type *eh = sc->event_header;
	if (CHECK(eh != NULL) && CHECK_EQ_U64(eh->kind, CTF_STRUCT) && CHECK_EQ_U64(eh->s.n, 2)) {
		CHECK_EQ_U64(eh->align, 8);
		const struct ctf_type *id = eh->s.fields[0].type, *v = eh->s.fields[1].type;
		CHECK_STR(eh->s.fields[0].name, "id");
		CHECK_STR(eh->s.fields[1].name, "v");
		if (CHECK_EQ_U64(id->kind, CTF_ENUM) && CHECK_EQ_U64(id->e.n, 2)) {
			CHECK_EQ_U64(id->align, 1);
			CHECK_EQ_U64(id->e.container->i.size, 5);
			CHECK(!id->e.container->i.is_signed);
			CHECK_STR(id->e.entries[0].label, "compact");
			CHECK_EQ_S64(id->e.entries[0].lo, 0);
			CHECK_EQ_S64(id->e.entries[0].hi, 30);
			CHECK_STR(id->e.entries[1].label, "extended");
			CHECK_EQ_S64(id->e.entries[1].lo, 31);
			CHECK_EQ_S64(id->e.entries[1].hi, 31);
		}
		if (CHECK_EQ_U64(v->kind, CTF_VARIANT) && CHECK_EQ_U64(v->s.n, 2)) {
			CHECK_STR(v->tag.text, "id");
			const struct ctf_type *cmp = v->s.fields[0].type,
			                      *ext = v->s.fields[1].type;
			CHECK_STR(v->s.fields[0].name, "compact");
			CHECK_STR(v->s.fields[1].name, "extended");
			if (CHECK_EQ_U64(cmp->s.n, 1)) {
				const struct ctf_type *ts = cmp->s.fields[0].type;
				CHECK_STR(cmp->s.fields[0].name, "timestamp");
				CHECK_EQ_U64(ts->i.size, 27);
				CHECK_EQ_U64(ts->align, 1);
				CHECK_STR(ts->i.map_clock, "monotonic");
			}
			if (CHECK_EQ_U64(ext->s.n, 2)) {
				const struct ctf_type *eid = ext->s.fields[0].type;
				const struct ctf_type *ts = ext->s.fields[1].type;
				CHECK_STR(ext->s.fields[0].name, "id");
				CHECK_EQ_U64(eid->i.size, 32);
				CHECK_EQ_U64(eid->align, 32);
				CHECK(eid->i.map_clock == NULL);
				CHECK_STR(ext->s.fields[1].name, "timestamp");
				CHECK_EQ_U64(ts->i.size, 64);
				CHECK_EQ_U64(ts->align, 64);
				CHECK_STR(ts->i.map_clock, "monotonic");
				CHECK_EQ_U64(ext->align, 64);
			}
		}
	}

	/* the event classes, in metadata order */
	CHECK_CTX("events");
	if (!CHECK_EQ_U64(sc->nevents, nclasses))
		return;
	for (size_t i = 0; i < nclasses; i++) {
		const struct spoor_event_desc *d =
		    i < N_ELEMS(all_events) ? all_events[i] : &ev_late;
		check_class(m, sc->events[i], d);
		CHECK(ctf_stream_event(sc, d->id) == sc->events[i]);
	}
}

static void test_parse(void)
{
	char *text = NULL, *late = NULL, err[400] = "";
	size_t len = 0, late_len = 0;

	CHECK_CTX("ctf_meta_write");
	int rc = ctf_meta_write(&trace_desc, all_events, N_ELEMS(all_events), &text, &len);
	if (!CHECK_EQ_S64(rc, 0) || !CHECK(text != NULL))
		return;
	CHECK_EQ_U64(len, strlen(text));
	CHECK(!strncmp(text, "/* CTF 1.8 */\n", 14));
	/* a few spellings the layout states */
	CHECK(strstr(text, "\t\t\t\"ZERO\" = 0,\n") != NULL);
	CHECK(strstr(text, "\t\t\t\"NEG\" = -100 ... -1,\n") != NULL);
	CHECK(strstr(text, "\"HUGE\" = 18446744073709551360 ... 18446744073709551615,") != NULL);
	CHECK(strstr(text, "\"say \\\"hi\\\" \\\\o/\" = 42,") != NULL);
	CHECK(strstr(text, "\t\tinteger { size = 32; align = 32; signed = 0; encoding = none; "
	                   "base = 10; } __nets_length;\n"
	                   "\t\tinteger { size = 32; align = 32; signed = 0; encoding = none; "
	                   "base = 16; byte_order = be; } _nets[ __nets_length ];\n") != NULL);
	CHECK(strstr(text, "\t\tinteger { size = 32; align = 32; signed = 1; encoding = none; "
	                   "base = 10; } _string;\n") != NULL);
	CHECK(strstr(text, "\t\tinteger { size = 16; align = 16; signed = 1; encoding = none; "
	                   "base = 16; byte_order = be; } _align;\n") != NULL);
	CHECK(strstr(text,
	             "\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 64; } _f64;\n") !=
	      NULL);
	CHECK(strstr(text, "\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; "
	                   "base = 10; } _text[8];\n") != NULL);
	CHECK(strstr(text, "\t\tstring _enum;\n") != NULL);
	CHECK(strstr(text, "\tquoted = \"a \\\"b\\\" \\\\c\";\n") != NULL);
	CHECK(strstr(text, "} align(8);") != NULL);

	CHECK_CTX("ctf_meta_write_event");
	rc = ctf_meta_write_event(&ev_late, 0, &late, &late_len);
	if (CHECK_EQ_S64(rc, 0) && CHECK(late != NULL)) {
		CHECK_EQ_U64(late_len, strlen(late));
		static const char head[] =
		    "event {\n\tname = \"late:probe\";\n\tid = 41;\n\tstream_id = 0;\n";
		CHECK(!strncmp(late, head, sizeof(head) - 1));
		CHECK(strstr(late, "trace") == NULL && strstr(late, "stream {") == NULL);
	}
	/* the event block alone is what ctf_meta_write writes for the same descriptor */
	char *one = NULL, *whole = NULL;
	const struct spoor_event_desc *late_only[] = {&ev_late};
	if (CHECK_EQ_S64(ctf_meta_write(&trace_desc, late_only, 1, &whole, NULL), 0) &&
	    CHECK_EQ_S64(ctf_meta_write_event(&ev_late, 0, &one, NULL), 0)) {
		size_t nw = strlen(whole), no = strlen(one);
		CHECK(nw > no && !strcmp(whole + nw - no, one));
	}
	free(one);
	free(whole);

	/* Parse: first the metadata alone, then with the late event appended. */
	for (int pass = 0; pass < 2; pass++) {
		struct ctf_trace *tr = calloc(1, sizeof(*tr));
		size_t n = len + (pass ? late_len : 0);
		char *all = malloc(n + 1);
		if (!CHECK(tr && all) || (pass && !late)) {
			free(all);
			free(tr);
			continue;
		}
		memcpy(all, text, len);
		if (pass)
			memcpy(all + len, late, late_len);
		all[n] = '\0';
		CHECK_CTX("parse, pass %d", pass);
		rc = ctf_trace_load_metadata(tr, all, n, err, sizeof(err));
		if (!rc)
			rc = ctf_trace_ready_all(tr, err, sizeof(err));
		if (CHECK_EQ_S64(rc, 0))
			check_model(tr, N_ELEMS(all_events) + (size_t) pass);
		else
			printf("  %s\n", err);
		ctf_trace_free(tr);
		free(all);
	}
	free(late);
	free(text);
	CHECK_CTX("%s", "");
}

/* A sequence's length of its own type (LTTng-UST's ctf_sequence), read back as written. */
static void test_sequence_length(void)
{
	struct spoor_field_desc f[2] = {FSEQ("wide", 2, 1, 10, 0, 0),
	                                FSEQ("small", 1, 0, 10, 0, 1)};
	f[0].length_size = 8;
	f[1].length_size = 1;
	struct spoor_event_desc d = EVENT("p", "seqs", f, 3);
	const struct spoor_event_desc *evs[] = {&d};
	char *text = NULL, err[400] = "";
	size_t len = 0;

	CHECK_CTX("sequence length types");
	if (!CHECK_EQ_S64(ctf_meta_write(&trace_desc, evs, 1, &text, &len), 0))
		return;
	CHECK(strstr(text, "\t\tinteger { size = 64; align = 64; signed = 0; encoding = none; "
	                   "base = 10; } __wide_length;\n") != NULL);
	CHECK(strstr(text, "\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; "
	                   "base = 10; } __small_length;\n") != NULL);
	struct ctf_trace *tr = calloc(1, sizeof(*tr));
	if (CHECK(tr != NULL)) {
		int rc = ctf_trace_load_metadata(tr, text, len, err, sizeof(err));
		if (!rc)
			rc = ctf_trace_ready_all(tr, err, sizeof(err));
		if (!CHECK_EQ_S64(rc, 0))
			printf("  %s\n", err);
		ctf_trace_free(tr);
	}
	free(text);
	/* sizes a length cannot have */
	f[0].length_size = 3;
	CHECK_EQ_S64(ctf_meta_write(&trace_desc, evs, 1, &text, NULL), -EINVAL);
	f[0].length_size = 16;
	CHECK_EQ_S64(ctf_meta_write(&trace_desc, evs, 1, &text, NULL), -EINVAL);
	CHECK_CTX("%s", "");
}

/* ---- part 2: what the format cannot carry ---- */

static int write_one(const struct spoor_event_desc *d)
{
	const struct spoor_event_desc *evs[] = {d};
	char *text = (char *) 1, *text2 = (char *) 1;
	int rc = ctf_meta_write(&trace_desc, evs, 1, &text, NULL);
	int rc2 = ctf_meta_write_event(d, 0, &text2, NULL);
	CHECK_EQ_S64(rc2, rc);
	if (rc) {
		CHECK(text == NULL);
		CHECK(text2 == NULL);
	} else {
		CHECK(text != NULL && text2 != NULL);
		free(text);
		free(text2);
	}
	return rc;
}

static void test_invalid(void)
{
	struct spoor_field_desc f;
	struct spoor_event_desc d = {
	    .struct_size = sizeof(d), .provider = "p", .name = "n", .fields = &f, .nfields = 1};
	static const struct spoor_enum_entry bad_range[] = {{"X", 5, 4}};
	static const struct spoor_enum_entry too_big[] = {{"X", 0, 256}};
	static const struct spoor_enum_entry null_label[] = {{NULL, 0, 0}};

	CHECK_CTX("invalid: unknown kind");
	f = (struct spoor_field_desc) FINT("a", 4, 0, 10, 0);
	f.kind = 6;
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: int size 3");
	f = (struct spoor_field_desc) FINT("a", 3, 0, 10, 0);
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: int size 16");
	f = (struct spoor_field_desc) FINT("a", 16, 0, 10, 0);
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: float size 2");
	f = (struct spoor_field_desc) FFLOAT("a", 2, 0);
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: array element size 5");
	f = (struct spoor_field_desc) FARR("a", 5, 0, 10, 0, 0, 4);
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: text sequence of 16-bit elements");
	f = (struct spoor_field_desc) FSEQ("a", 2, 0, 10, 0, 1);
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: base 7");
	f = (struct spoor_field_desc) FINT("a", 4, 0, 7, 0);
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: NULL field name");
	f = (struct spoor_field_desc) FINT(NULL, 4, 0, 10, 0);
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: field name with a space");
	f = (struct spoor_field_desc) FINT("a b", 4, 0, 10, 0);
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: enum without entries");
	f = (struct spoor_field_desc) FINT("a", 4, 0, 10, 0);
	f.kind = SPOOR_FK_ENUM;
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: enum lo > hi");
	f = (struct spoor_field_desc) FENUM("a", 4, 1, bad_range);
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: enum value beyond its container");
	f = (struct spoor_field_desc) FENUM("a", 1, 0, too_big);
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	CHECK_CTX("invalid: enum NULL label");
	f = (struct spoor_field_desc) FENUM("a", 1, 0, null_label);
	CHECK_EQ_S64(write_one(&d), -EINVAL);

	CHECK_CTX("valid: base 0 means 10");
	f = (struct spoor_field_desc) FINT("a", 4, 0, 0, 0);
	char *text = NULL;
	if (CHECK_EQ_S64(ctf_meta_write_event(&d, 0, &text, NULL), 0))
		CHECK(strstr(text, "base = 10; } _a;") != NULL);
	free(text);

	CHECK_CTX("invalid: NULL event name, NULL provider, NULL fields");
	f = (struct spoor_field_desc) FINT("a", 4, 0, 10, 0);
	d.name = NULL;
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	d.name = "n";
	d.provider = NULL;
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	d.provider = "p";
	d.fields = NULL;
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	d.fields = &f;
	CHECK_EQ_S64(write_one(NULL), -EINVAL);

	CHECK_CTX("invalid: member names that collide");
	struct spoor_field_desc two[2] = {FSEQ("x", 4, 0, 10, 0, 0),
	                                  FINT("_x_length", 4, 0, 10, 0)};
	d.fields = two;
	d.nfields = 2;
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	two[1].name = "x";
	two[1].kind = SPOOR_FK_INT;
	CHECK_EQ_S64(write_one(&d), -EINVAL);
	two[1].name = "x_length"; /* _x_length differs from __x_length */
	CHECK_EQ_S64(write_one(&d), 0);
	d.fields = &f;
	d.nfields = 1;

	CHECK_CTX("invalid: two events with one id");
	struct spoor_event_desc d2 = d;
	d2.name = "other";
	const struct spoor_event_desc *evs[] = {&d, &d2};
	char *out = (char *) 1;
	CHECK_EQ_S64(ctf_meta_write(&trace_desc, evs, 2, &out, NULL), -EINVAL);
	CHECK(out == NULL);
	d2.id = 1;
	CHECK_EQ_S64(ctf_meta_write(&trace_desc, evs, 2, &out, NULL), 0);
	free(out);

	CHECK_CTX("invalid: trace descriptions");
	struct meta_trace t = trace_desc;
	t.clock.name = NULL;
	CHECK_EQ_S64(ctf_meta_write(&t, evs, 2, &out, NULL), -EINVAL);
	t.clock.name = "not a name";
	CHECK_EQ_S64(ctf_meta_write(&t, evs, 2, &out, NULL), -EINVAL);
	t.clock.name = "monotonic";
	t.clock.freq = 0;
	CHECK_EQ_S64(ctf_meta_write(&t, evs, 2, &out, NULL), -EINVAL);
	t = trace_desc;
	struct meta_env bad_env[] = {{.key = "bad-key", .num = 1}};
	t.env = bad_env;
	t.nenv = 1;
	CHECK_EQ_S64(ctf_meta_write(&t, evs, 2, &out, NULL), -EINVAL);
	bad_env[0] = (struct meta_env){.key = "k", .str = NULL, .is_str = 1};
	CHECK_EQ_S64(ctf_meta_write(&t, evs, 2, &out, NULL), -EINVAL);
	CHECK_EQ_S64(ctf_meta_write(NULL, evs, 2, &out, NULL), -EINVAL);
	CHECK_EQ_S64(ctf_meta_write(&trace_desc, NULL, 2, &out, NULL), -EINVAL);

	CHECK_CTX("valid: no env, no events, no description");
	t = trace_desc;
	t.env = NULL;
	t.nenv = 0;
	t.clock.description = NULL;
	if (CHECK_EQ_S64(ctf_meta_write(&t, NULL, 0, &out, NULL), 0)) {
		struct ctf_trace *tr = calloc(1, sizeof(*tr));
		char err[400] = "";
		if (CHECK(tr != NULL) &&
		    !CHECK_EQ_S64(ctf_trace_load_metadata(tr, out, strlen(out), err, sizeof(err)),
		                  0))
			printf("  %s\n", err);
		ctf_trace_free(tr);
		free(out);
	}
	CHECK_CTX("%s", "");
}

/* ---- part 3: end to end ---- */

/* A bit writer: CTF little-endian bit packing, absolute positions from the packet start. */
struct bw {
	uint8_t buf[4096];
	size_t bit;
};

static void bw_align(struct bw *w, unsigned bits)
{
	w->bit = (w->bit + bits - 1) / bits * bits;
}

static void bw_le(struct bw *w, uint64_t v, unsigned bits)
{
	for (unsigned i = 0; i < bits; i++, w->bit++)
		if ((v >> i) & 1)
			w->buf[w->bit / 8] |= (uint8_t) (1u << (w->bit % 8));
}

static void bw_be(struct bw *w, uint64_t v, unsigned bytes)
{
	CHECK(w->bit % 8 == 0);
	for (unsigned i = 0; i < bytes; i++)
		w->buf[w->bit / 8 + i] = (uint8_t) (v >> (8 * (bytes - 1 - i)));
	w->bit += 8u * bytes;
}

static void bw_bytes(struct bw *w, const void *p, size_t n)
{
	CHECK(w->bit % 8 == 0);
	memcpy(w->buf + w->bit / 8, p, n);
	w->bit += 8 * n;
}

/* An integer of a descriptor: natural alignment, its byte order. */
static void bw_int(struct bw *w, uint64_t v, unsigned bytes, bool be)
{
	bw_align(w, 8 * bytes);
	if (be)
		bw_be(w, v, bytes);
	else
		bw_le(w, v, 8 * bytes);
}

/* The values of one event. */
struct val {
	uint64_t u;    /* INT, ENUM (signed values sign-extended), sequence length */
	double f;      /* FLOAT */
	const char *s; /* STRING, text ARRAY/SEQUENCE */
	uint64_t e[4]; /* ARRAY/SEQUENCE elements */
	const char *label;
};

struct inst {
	const struct spoor_event_desc *d;
	bool extended;
	uint64_t ts;
	struct val v[8];
};

static unsigned field_align(const struct spoor_field_desc *f)
{
	switch (f->kind) {
	case SPOOR_FK_STRING: return 8;
	case SPOOR_FK_SEQUENCE: return 8u * f->size > 32 ? 8u * f->size : 32;
	default: return 8u * f->size;
	}
}

static void write_event(struct bw *w, const struct inst *in)
{
	const struct spoor_event_desc *d = in->d;

	/* header: align(8); 5-bit id; compact: 27-bit timestamp; extended: the 64-bit
	 * aligned struct { uint32 id; uint64 timestamp; } */
	bw_align(w, 8);
	if (in->extended) {
		bw_le(w, 31, 5);
		bw_align(w, 64);
		bw_int(w, d->id, 4, false);
		bw_int(w, in->ts, 8, false);
	} else {
		bw_le(w, d->id, 5);
		bw_le(w, in->ts & ((1u << 27) - 1), 27);
	}
	/* payload: the struct's alignment, then each member's */
	unsigned a = 1;
	for (uint32_t i = 0; i < d->nfields; i++)
		a = field_align(&d->fields[i]) > a ? field_align(&d->fields[i]) : a;
	bw_align(w, a);
	for (uint32_t i = 0; i < d->nfields; i++) {
		const struct spoor_field_desc *f = &d->fields[i];
		const struct val *v = &in->v[i];
		uint32_t n = f->kind == SPOOR_FK_ARRAY ? f->length : (uint32_t) v->u;
		switch (f->kind) {
		case SPOOR_FK_INT:
		case SPOOR_FK_ENUM: bw_int(w, v->u, f->size, f->big_endian); break;
		case SPOOR_FK_FLOAT:
			if (f->size == 4) {
				float x = (float) v->f;
				uint32_t bits;
				memcpy(&bits, &x, 4);
				bw_int(w, bits, 4, f->big_endian);
			} else {
				uint64_t bits;
				memcpy(&bits, &v->f, 8);
				bw_int(w, bits, 8, f->big_endian);
			}
			break;
		case SPOOR_FK_STRING:
			bw_align(w, 8);
			bw_bytes(w, v->s, strlen(v->s) + 1);
			break;
		case SPOOR_FK_SEQUENCE:
			bw_int(w, v->u, 4, false);
			/* fall through */
		case SPOOR_FK_ARRAY:
			if (f->text) {
				char tmp[64] = {0};
				memcpy(tmp, v->s, strlen(v->s));
				bw_align(w, 8);
				bw_bytes(w, tmp, n);
			} else {
				bw_align(w, 8u * f->size);
				for (uint32_t k = 0; k < n; k++)
					bw_int(w, v->e[k], f->size, f->big_endian);
			}
			break;
		}
	}
}

/* Timestamps (cycles at 1 GHz): t3's low 27 bits are near the top, so the compact header
 * of t4 wraps them. t2 needs an extended header (a 5 s gap and id 40), t6 too (id 41); t5
 * uses one though its id (5) would fit a compact header, as a tracer may. */
#define T3          ((40ull << 27) + 0x7F00000)
#define T2          (T3 - 200)
#define T1          (T2 - 5000000000ull)
#define T0          (T1 - 1000)
#define TB          (T0 - 10)
#define T4          (T3 + 100000000)
#define T5          (T4 + 50)
#define T6          (T5 + 20)
#define TE          (T6 + 1000)
#define DISCARDED   3
#define OVERWRITTEN 2 /* of the DISCARDED */
#define VPID        4242
#define VTID        4243

static const struct inst insts[] = {
    {&ev_ints,
     false,
     T0,
     {{.u = (uint64_t) -5},
      {.u = 0xBEEF},
      {.u = (uint64_t) -123456},
      {.u = 0xFEDCBA9876543210ull},
      {.u = 0x01020304},
      {.u = 77},
      {.u = 200},
      {.u = (uint64_t) -2}}},
    {&ev_floats, false, T1, {{.f = 1.5}, {.f = -2.25e10}, {.f = 0.375}}},
    {&ev_enums,
     true,
     T2,
     {{.u = 42, .label = quoted_label},
      {.u = 130, .label = "HIGH"},
      {.u = 0xFFFFFFFFFFFFFFF0ull, .label = "HUGE"}}},
    {&ev_strings,
     false,
     T3,
     {{.s = "hello, \"world\" \\ x"},
      {.s = "abc"},
      {.e = {1, 0xABCD, 0xFFFF}},
      {.e = {0xDEADBEEF, 7}},
      {.s = "kw"}}},
    {&ev_seqs,
     false,
     T4,
     {{.u = 5, .s = "spoor"},
      {.u = 3, .e = {(uint64_t) -1, 2, (uint64_t) -300}},
      {.u = 2, .e = {0x11223344, 0xCAFEBABE}},
      {.u = 9}}},
    {&ev_empty, true, T5, {{0}}},
    {&ev_late, true, T6, {{.u = 0xDEADBEEF}, {.s = "registered later"}}},
};

static uint64_t sign_extend(uint64_t v, unsigned bytes)
{
	if (bytes == 8)
		return v;
	unsigned sh = 64 - 8 * bytes;
	return (uint64_t) ((int64_t) (v << sh) >> sh);
}

static uint64_t truncate_to(uint64_t v, unsigned bytes)
{
	return bytes == 8 ? v : v & ((1ull << (8 * bytes)) - 1);
}

static void check_int_value(const struct spoor_field *got, uint64_t v, unsigned bytes,
                            bool is_signed)
{
	if (is_signed) {
		CHECK_EQ_U64(got->kind, SPOOR_FIELD_SIGNED);
		CHECK_EQ_S64(got->v.s, (int64_t) sign_extend(v, bytes));
	} else {
		CHECK_EQ_U64(got->kind, SPOOR_FIELD_UNSIGNED);
		CHECK_EQ_U64(got->v.u, truncate_to(v, bytes));
	}
}

static void check_values(const struct spoor_event *ev, const struct inst *in)
{
	const struct spoor_event_desc *d = in->d;
	struct spoor_field got, el;

	for (uint32_t i = 0; i < d->nfields; i++) {
		const struct spoor_field_desc *f = &d->fields[i];
		const struct val *v = &in->v[i];
		CHECK_CTX("event %s:%s, field %s", d->provider, d->name, f->name);
		if (!CHECK(spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, f->name, &got)))
			continue;
		CHECK_STR(got.name, f->name);
		switch (f->kind) {
		case SPOOR_FK_INT:
			check_int_value(&got, v->u, f->size, f->is_signed);
			CHECK(got.label == NULL);
			break;
		case SPOOR_FK_ENUM:
			check_int_value(&got, v->u, f->size, f->is_signed);
			CHECK_STR(got.label, v->label);
			break;
		case SPOOR_FK_FLOAT:
			CHECK_EQ_U64(got.kind, SPOOR_FIELD_FLOAT);
			CHECK_EQ_F64(got.v.f, v->f);
			break;
		case SPOOR_FK_STRING:
			CHECK_EQ_U64(got.kind, SPOOR_FIELD_STRING);
			CHECK_STRN(got.v.str.ptr, got.v.str.len, v->s);
			break;
		case SPOOR_FK_ARRAY:
		case SPOOR_FK_SEQUENCE:
			if (f->kind == SPOOR_FK_SEQUENCE) {
				char len_name[80];
				struct spoor_field lf;
				snprintf(len_name, sizeof(len_name), "_%s_length", f->name);
				if (CHECK(
				        spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, len_name, &lf)))
					check_int_value(&lf, v->u, 4, false);
			}
			if (f->text) {
				CHECK_EQ_U64(got.kind, SPOOR_FIELD_STRING);
				CHECK_STRN(got.v.str.ptr, got.v.str.len, v->s);
				break;
			}
			uint32_t n = f->kind == SPOOR_FK_ARRAY ? f->length : (uint32_t) v->u;
			if (!CHECK_EQ_U64(got.kind, SPOOR_FIELD_ARRAY) ||
			    !CHECK_EQ_U64(got.count, n))
				break;
			for (uint32_t k = 0; k < n; k++)
				if (CHECK(spoor_field_child(&got, k, &el)))
					check_int_value(&el, v->e[k], f->size, f->is_signed);
			break;
		}
	}
	/* nothing more: one member per field, two per sequence */
	int members = (int) d->nfields;
	for (uint32_t i = 0; i < d->nfields; i++)
		members += d->fields[i].kind == SPOOR_FK_SEQUENCE;
	CHECK_CTX("event %s:%s", d->provider, d->name);
	CHECK(members == 0 || spoor_event_field_at(ev, SPOOR_SCOPE_PAYLOAD, members - 1, &got));
	CHECK(!spoor_event_field_at(ev, SPOOR_SCOPE_PAYLOAD, members, &got));
}

static int write_file(const char *path, const void *data, size_t n)
{
	FILE *fp = fopen(path, "wb");
	if (!fp)
		return -1;
	size_t w = fwrite(data, 1, n, fp);
	return fclose(fp) || w != n ? -1 : 0;
}

static char *read_fd(int fd, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	ssize_t r;

	while (buf && (r = read(fd, buf + n, cap - n - 1)) > 0) {
		n += (size_t) r;
		if (cap - n < 2) {
			char *bigger = realloc(buf, cap *= 2);
			if (!bigger) {
				free(buf);
				return NULL;
			}
			buf = bigger;
		}
	}
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[1024];

	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t) (colon - path) : strlen(path);
		snprintf(buf, sizeof(buf), "%.*s/%s", (int) n, path, prog);
		if (n && access(buf, X_OK) == 0)
			return true;
		path = colon ? colon + 1 : NULL;
	}
	return false;
}

/* spoor's babeltrace-style text for the whole trace, in process. */
static char *spoor_text(const char *dir, const char *tmp)
{
	char tmpl[600];
	const char *paths[] = {dir};
	struct spoor_reader *r = NULL;
	struct spoor_formatter *f = NULL;
	const struct spoor_event *ev;
	char *out = NULL, *msg = NULL;
	size_t len;
	int rc;

	snprintf(tmpl, sizeof(tmpl), "%s/spoor-metawrite-out-XXXXXX", tmp);
	int fd = mkstemp(tmpl);
	if (!CHECK(fd >= 0))
		return NULL;
	unlink(tmpl);
	if (CHECK_EQ_S64(spoor_reader_open(paths, 1, &r, &msg), 0) &&
	    CHECK_EQ_S64(spoor_formatter_new(SPOOR_FORMAT_BABELTRACE, fd, &f), 0)) {
		while ((rc = spoor_reader_next(r, &ev)) == 1)
			CHECK_EQ_S64(spoor_formatter_event(f, ev), 0);
		CHECK_EQ_S64(rc, 0);
		CHECK_EQ_S64(spoor_formatter_free(f), 0);
		if (CHECK(lseek(fd, 0, SEEK_SET) == 0))
			out = read_fd(fd, &len);
	}
	free(msg);
	spoor_reader_close(r);
	close(fd);
	return out;
}

/* babeltrace2's standard output; its standard error (the warning about the discarded
 * events) is kept in errpath, shown only when something fails. */
static char *babeltrace2_text(const char *dir, const char *errpath, int *status)
{
	char cmd[1400];
	size_t len;

	snprintf(cmd, sizeof(cmd), "babeltrace2 --clock-gmt '%s' 2>'%s'", dir, errpath);
	FILE *p = popen(cmd, "r");
	if (!p)
		return NULL;
	char *out = read_fd(fileno(p), &len);
	*status = pclose(p);
	return out;
}

static void show_file(const char *path)
{
	int fd = open(path, O_RDONLY);
	size_t len;
	char *text = fd >= 0 ? read_fd(fd, &len) : NULL;
	if (text)
		printf("--- babeltrace2's standard error:\n%s", text);
	free(text);
	if (fd >= 0)
		close(fd);
}

static void test_end_to_end(void)
{
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char dir[512], path[600], *text = NULL;
	size_t len;
	struct bw *w = calloc(1, sizeof(*w));

	CHECK_CTX("end to end: setup");
	snprintf(dir, sizeof(dir), "%s/spoor-metawrite-XXXXXX", tmp);
	if (!CHECK(w != NULL) || !CHECK(mkdtemp(dir) != NULL) ||
	    !CHECK_EQ_S64(ctf_meta_write(&trace_desc, all_events, N_ELEMS(all_events), &text, &len),
	                  0)) {
		free(w);
		return;
	}
	/* the metadata, then the block of a provider registered later, appended */
	char *late = NULL;
	size_t late_len = 0;
	snprintf(path, sizeof(path), "%s/metadata", dir);
	CHECK_EQ_S64(write_file(path, text, len), 0);
	free(text);
	if (CHECK_EQ_S64(ctf_meta_write_event(&ev_late, 0, &late, &late_len), 0)) {
		FILE *fp = fopen(path, "ab");
		CHECK(fp && fwrite(late, 1, late_len, fp) == late_len);
		CHECK(fp && fclose(fp) == 0);
	}
	free(late);

	/* the packet: header, context (sizes filled in below), events */
	bw_int(w, 0xC1FC1FC1, 4, false);
	bw_bytes(w, trace_desc.uuid, 16);
	bw_int(w, 0, 4, false); /* stream_id */
	bw_int(w, 0, 8, false); /* stream_instance_id */
	CHECK_EQ_U64(w->bit, 32 * 8);
	bw_int(w, TB, 8, false);
	bw_int(w, TE, 8, false);
	size_t sizes_at = w->bit / 8;
	bw_int(w, 0, 8, false);         /* content_size */
	bw_int(w, 0, 8, false);         /* packet_size */
	bw_int(w, 7, 8, false);         /* packet_seq_num */
	bw_int(w, DISCARDED, 8, false); /* events_discarded */
	bw_int(w, VPID, 4, false);
	bw_int(w, VTID, 4, false);
	bw_int(w, OVERWRITTEN, 8, false); /* events_overwritten */
	CHECK_EQ_U64(w->bit, 96 * 8);
	for (size_t i = 0; i < N_ELEMS(insts); i++)
		write_event(w, &insts[i]);
	uint64_t content = w->bit, packet = (w->bit + 2047) / 2048 * 2048;
	CHECK(packet <= sizeof(w->buf) * 8);
	memcpy(w->buf + sizes_at, &content, 8);
	memcpy(w->buf + sizes_at + 8, &packet, 8);
	snprintf(path, sizeof(path), "%s/channel0_0", dir);
	CHECK_EQ_S64(write_file(path, w->buf, packet / 8), 0);
	/* the compact header of the 5th event wraps its 27-bit timestamp */
	CHECK((T4 & ((1u << 27) - 1)) < (T3 & ((1u << 27) - 1)));

	/* read it back */
	CHECK_CTX("end to end: open");
	const char *paths[] = {dir};
	struct spoor_reader *r = NULL;
	char *msg = NULL;
	int rc = spoor_reader_open(paths, 1, &r, &msg);
	if (!CHECK_EQ_S64(rc, 0)) {
		printf("  %s\n", msg ? msg : "(no message)");
		free(msg);
		free(w);
		return;
	}
	CHECK_EQ_U64(spoor_reader_trace_count(r), 1);
	CHECK_STR(spoor_reader_trace_env(r, 0, "hostname"), "testhost");
	CHECK_STR(spoor_reader_trace_env(r, 0, "negative"), "-17");
	CHECK_EQ_U64(spoor_reader_event_class_count(r), N_ELEMS(all_events) + 1);
	const struct spoor_event *ev;
	size_t n = 0;
	int64_t origin = (int64_t) CLOCK_OFFSET_S * 1000000000 + CLOCK_OFFSET;
	while ((rc = spoor_reader_next(r, &ev)) == 1) {
		if (!CHECK(n < N_ELEMS(insts)))
			break;
		const struct inst *in = &insts[n++];
		char name[100];
		struct spoor_field f;
		snprintf(name, sizeof(name), "%s:%s", in->d->provider, in->d->name);
		CHECK_CTX("end to end: event %zu (%s)", n - 1, name);
		CHECK_STR(spoor_event_name(ev), name);
		CHECK_EQ_U64(spoor_event_class_id(spoor_event_class(ev)), in->d->id);
		CHECK(spoor_event_has_timestamp(ev));
		CHECK_EQ_U64(spoor_event_cycles(ev), in->ts);
		CHECK_EQ_S64(spoor_event_timestamp(ev), origin + (int64_t) in->ts);
		CHECK_EQ_S64(spoor_event_cpu(ev), -1);
		/* the header as decoded */
		if (CHECK(spoor_event_field(ev, SPOOR_SCOPE_EVENT_HEADER, "id", &f))) {
			CHECK_EQ_U64(f.v.u, in->extended ? 31 : in->d->id);
			CHECK_STR(f.label, in->extended ? "extended" : "compact");
		}
		/* the packet context */
		static const char *const pc_names[] = {
		    "timestamp_begin",   "timestamp_end",    "content_size", "packet_size",
		    "packet_seq_num",    "events_discarded", "vpid",         "vtid",
		    "events_overwritten"};
		const uint64_t pc_values[] = {TB,        TE,   content, packet,     7,
		                              DISCARDED, VPID, VTID,    OVERWRITTEN};
		for (unsigned k = 0; k < N_ELEMS(pc_names); k++)
			if (CHECK(
			        spoor_event_field(ev, SPOOR_SCOPE_PACKET_CONTEXT, pc_names[k], &f)))
				CHECK_EQ_U64(f.v.u, pc_values[k]);
		check_values(ev, in);
	}
	CHECK_CTX("end to end: whole trace");
	CHECK_EQ_S64(rc, 0);
	CHECK_EQ_U64(n, N_ELEMS(insts));
	CHECK_EQ_U64(spoor_reader_damaged(r), 0);
	if (CHECK_EQ_U64(spoor_reader_stream_count(r), 1)) {
		struct spoor_stream_info si;
		spoor_reader_stream_info(r, 0, &si);
		CHECK_EQ_U64(si.packets, 1);
		CHECK_EQ_U64(si.bytes, packet / 8);
		CHECK_EQ_U64(si.discarded, DISCARDED);
		CHECK_EQ_U64(si.overwritten, OVERWRITTEN);
		CHECK_EQ_U64(si.stream_class_id, 0);
		CHECK(!si.damaged);
	}
	spoor_reader_close(r);
	free(w);

	/* babeltrace2 reads the same trace and prints what spoor prints */
	CHECK_CTX("end to end: babeltrace2");
	char *mine = spoor_text(dir, tmp);
	CHECK(mine != NULL);
	if (!on_path("babeltrace2")) {
		printf("note: babeltrace2 not on PATH: comparison skipped\n");
	} else {
		int status = -1;
		char errpath[600];
		snprintf(errpath, sizeof(errpath), "%s.bt2-stderr", dir);
		char *theirs = babeltrace2_text(dir, errpath, &status);
		bool ok = CHECK(theirs != NULL) && CHECK(WIFEXITED(status)) &&
		          CHECK_EQ_S64(WEXITSTATUS(status), 0);
		if (ok && mine) {
			size_t lines = 0;
			for (const char *p = theirs; (p = strchr(p, '\n')); p++)
				lines++;
			ok = CHECK_EQ_U64(lines, N_ELEMS(insts));
			if (!CHECK_STR(mine, theirs)) {
				printf("--- spoor:\n%s--- babeltrace2:\n%s---\n", mine, theirs);
				ok = false;
			}
		}
		if (!ok)
			show_file(errpath);
		unlink(errpath);
		free(theirs);
	}
	free(mine);
	/* clean up the trace directory */
	snprintf(path, sizeof(path), "%s/metadata", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/channel0_0", dir);
	unlink(path);
	rmdir(dir);
	CHECK_CTX("%s", "");
}

int main(void)
{
	test_parse();
	test_sequence_length();
	test_invalid();
	test_end_to_end();
	return check_done();
}
