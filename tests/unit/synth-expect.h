/* SPDX-License-Identifier: MIT */
/*
 * synth-expect.h: the test oracle of test-reader.c: the events of synth-le / synth-be /
 * synth-packetized as tests/data/SYNTH.md lists them (merged order, timestamps, cpus,
 * field values), and the checks of one event's fields through the public field API.
 * Values are copied from SYNTH.md's tables or computed from the rules it states.
 */
#ifndef SPOOR_TEST_SYNTH_EXPECT_H
#define SPOOR_TEST_SYNTH_EXPECT_H

#include "check.h"
#include "spoor/trace.h"

#define BASE_NS 1700000000123456789ll /* SYNTH.md: ns = 1700000000123456789 + cycles */

static const struct spoor_event *E; /* the event being checked */
static char evctx[120];             /* names the event in failure messages */

/* SYNTH.md, "Global (merged) order": name, cycles, cpu, vtid */
static const struct {
	const char *name;
	uint64_t cycles;
	int cpu, vtid;
} order[22] = {
    {"synth:ints", 1073740924, 0, 100},      {"synth:all_sizes", 1073741424, 1, 200},
    {"synth:bitfields", 1073741814, 0, 100}, {"synth:bases", 1073741829, 0, 100},
    {"synth:enums", 1073741924, 0, 100},     {"synth:floats", 1073742024, 0, 100},
    {"synth:strings", 1073742824, 0, 101},   {"synth:arrays", 1073743824, 0, 101},
    {"synth:tie", 1073746824, 0, 101},       {"synth:tie", 1073746824, 1, 200},
    {"synth:ints", 1173741924, 1, 201},      {"synth:sequences", 1273746824, 0, 101},
    {"synth:big_id", 1273746924, 0, 101},    {"synth:nested", 1273747024, 0, 101},
    {"synth:variant", 1373741924, 0, 102},   {"synth:variant", 1373742024, 0, 102},
    {"synth:variant", 1373742124, 0, 102},   {"synth:variant", 1373742124, 0, 102},
    {"synth:context", 1373742224, 0, 102},   {"synth:empty", 1373742324, 0, 102},
    {"synth:tie", 1373742824, 0, 102},       {"synth:tie", 1373742824, 1, 201},
};

/* ---- field checks on E ---- */

static bool get(enum spoor_scope scope, const char *name, struct spoor_field *f)
{
	CHECK_CTX("%s, field %s", evctx, name);
	return CHECK(spoor_event_field(E, scope, name, f));
}

static bool child(const struct spoor_field *f, uint32_t i, struct spoor_field *out)
{
	return CHECK(spoor_field_child(f, i, out));
}

static void is_s(const struct spoor_field *f, int64_t want)
{
	CHECK_EQ_U64(f->kind, SPOOR_FIELD_SIGNED);
	CHECK_EQ_S64(f->v.s, want);
}

static void is_u(const struct spoor_field *f, uint64_t want)
{
	CHECK_EQ_U64(f->kind, SPOOR_FIELD_UNSIGNED);
	CHECK_EQ_U64(f->v.u, want);
}

static void is_str(const struct spoor_field *f, const char *want)
{
	if (CHECK_EQ_U64(f->kind, SPOOR_FIELD_STRING))
		CHECK_STRN(f->v.str.ptr, f->v.str.len, want);
}

/* A payload field: signed, unsigned, string. */
#define PAYLOAD_CHECK(fn, name, want)                                                              \
	do {                                                                                       \
		struct spoor_field f_;                                                             \
		if (get(SPOOR_SCOPE_PAYLOAD, (name), &f_))                                         \
			fn(&f_, (want));                                                           \
	} while (0)
static void s_(const char *name, int64_t want)
{
	PAYLOAD_CHECK(is_s, name, want);
}
static void u_(const char *name, uint64_t want)
{
	PAYLOAD_CHECK(is_u, name, want);
}
static void str_(const char *name, const char *want)
{
	PAYLOAD_CHECK(is_str, name, want);
}

static void f_(const char *name, double want)
{
	struct spoor_field f;
	if (get(SPOOR_SCOPE_PAYLOAD, name, &f) && CHECK_EQ_U64(f.kind, SPOOR_FIELD_FLOAT))
		CHECK_EQ_F64(f.v.f, want);
}

static void enum_(const char *name, const char *label, int64_t value, bool is_signed)
{
	struct spoor_field f;
	if (!get(SPOOR_SCOPE_PAYLOAD, name, &f))
		return;
	if (is_signed)
		is_s(&f, value);
	else
		is_u(&f, (uint64_t) value);
	CHECK_STR(f.label, label);
}

/* An array field of unsigned (or, with is_signed, signed) integers. */
static void arr_(const struct spoor_field *f, unsigned n, const int64_t *want, bool is_signed)
{
	struct spoor_field e;
	if (!CHECK_EQ_U64(f->kind, SPOOR_FIELD_ARRAY) || !CHECK_EQ_U64(f->count, n))
		return;
	for (unsigned i = 0; i < n; i++)
		if (child(f, i, &e)) {
			CHECK(e.name == NULL);
			if (is_signed)
				is_s(&e, want[i]);
			else
				is_u(&e, (uint64_t) want[i]);
		}
	CHECK(!spoor_field_child(f, n, &e));
}

static void arr(const char *name, unsigned n, const int64_t *want, bool is_signed)
{
	struct spoor_field f;
	if (get(SPOOR_SCOPE_PAYLOAD, name, &f))
		arr_(&f, n, want, is_signed);
}

/* the top n bits of a 64-bit pattern as an n-bit unsigned / two's complement number */
static uint64_t top_bits(uint64_t pattern, unsigned n)
{
	return pattern >> (64 - n);
}

static int64_t top_bits_signed(uint64_t pattern, unsigned n)
{
	uint64_t v = top_bits(pattern, n);
	if (n < 64 && (v >> (n - 1)))
		return (int64_t) v - (int64_t) ((uint64_t) 1 << (n - 1)) -
		       (int64_t) ((uint64_t) 1 << (n - 1));
	return (int64_t) v;
}

static void check_ints(int second)
{
	static const char *names[] = {"i8",  "u8",  "i16",       "u16", "i32",  "u32",
	                              "i64", "u64", "minus_one", "big", "net32"};
	static const bool sgn[] = {1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 0};
	static const uint64_t v[2][11] = {
	    {(uint64_t) -128, 255, (uint64_t) -32768, 65535, (uint64_t) INT32_MIN, 4294967295u,
	     (uint64_t) INT64_MIN, UINT64_MAX, (uint64_t) -1, 1234567890123ull, 305419896},
	    {1, 2, 3, 4, 5, 6, 7, 8, 0, (uint64_t) -1234567890123ll, 2712847316u},
	};
	for (int i = 0; i < 11; i++)
		if (sgn[i])
			s_(names[i], (int64_t) v[second][i]);
		else
			u_(names[i], v[second][i]);
}

static void check_payload(unsigned idx)
{
	struct spoor_field f, g, h;
	char name[8];

	switch (idx) {
	case 0: check_ints(0); break;
	case 10: check_ints(1); break;
	case 1:
		for (unsigned n = 1; n <= 64; n++) {
			snprintf(name, sizeof(name), "u%u", n);
			u_(name, top_bits(0xFEDCBA9876543210ull, n));
			snprintf(name, sizeof(name), "s%u", n);
			s_(name, top_bits_signed(0xDEADBEEFCAFEBABEull, n));
		}
		u_("u13", 8155); /* spot checks of the computation against SYNTH.md's table */
		s_("s13", -1067);
		s_("s64", -2401053089206453570ll);
		break;
	case 2: {
		static const char *n[] = {"b_u1",  "b_s3",  "b_u5",  "b_s13", "b_u27",
		                          "b_s33", "b_u33", "b_u64", "b_s64", "b_u7",
		                          "b_s1",  "b_u2",  "after"};
		static const int64_t v[] = {1,
		                            -3,
		                            21,
		                            -4000,
		                            100000000,
		                            -3000000000ll,
		                            8589934591ll,
		                            (int64_t) 18364758544493064720ull,
		                            -2,
		                            100,
		                            -1,
		                            2,
		                            171};
		for (int i = 0; i < 13; i++)
			if (n[i][2] == 's')
				s_(n[i], v[i]);
			else
				u_(n[i], (uint64_t) v[i]);
		break;
	}
	case 3:
		u_("hex32", 3735928559u), u_("hex64", 3405705229u), s_("hex_neg", -1);
		u_("oct16", 493), u_("oct_zero", 0), u_("bin8", 37), u_("bin13", 4097);
		u_("hex5", 31), s_("hex_s13", -2), s_("dec_neg", -42);
		break;
	case 4:
		enum_("e_zero", "ZERO", 0, false), enum_("e_range", "ONE_TO_TEN", 7, false);
		enum_("e_quoted", "with space", 42, false), enum_("e_unknown", NULL, 99, false);
		enum_("e_neg", "NEG", -50, true), enum_("e_s_unknown", NULL, 1000, true);
		enum_("e_auto_f", "F", 30, false), enum_("e_auto_d", "D", 11, false);
		enum_("e_bits", "BLUE", 2, false);
		break;
	case 5:
		f_("f32", 1.5), f_("f32_neg", (double) -0.1f), f_("f64", 3.141592653589793);
		f_("f64_tiny", 1e-300), f_("f64_big", -2.5e10), u_("pad3", 5),
		    f_("f32_packed", 0.25);
		break;
	case 6:
		str_("s_empty", ""), str_("s_plain", "hello");
		str_("s_special", "quote\" backslash\\ newline\n tab\t end");
		str_("s_utf8", "h\xc3\xa9llo w\xc3\xb6rld \xe2\x82\xac"), u_("bits3", 5);
		str_("s_after_bits", "aligned");
		break;
	case 7:
		arr("a_u16", 4, (const int64_t[]){1, 2, 3, 65535}, false);
		arr("a_s8", 3, (const int64_t[]){-1, 0, 127}, true);
		str_("a_text", "abc"), str_("a_text_full", "ABCDEFGH");
		arr("a_bits", 5, (const int64_t[]){0, 1, 2, 5, 7}, false);
		arr("a_hex", 2, (const int64_t[]){171, 15}, false);
		if (get(SPOOR_SCOPE_PAYLOAD, "a_2d", &f) && CHECK_EQ_U64(f.count, 2)) {
			if (child(&f, 0, &g))
				arr_(&g, 3, (const int64_t[]){1, 2, 3}, false);
			if (child(&f, 1, &g))
				arr_(&g, 3, (const int64_t[]){4, 5, 6}, false);
		}
		break;
	case 8:
	case 9:
	case 20:
	case 21:
		u_("cpu", (uint64_t) order[idx].cpu), str_("note", idx < 10 ? "tie-1" : "tie-2");
		break;
	case 11:
		u_("len", 3), arr("seq_u32", 3, (const int64_t[]){10, 20, 4000000000ll}, false);
		u_("len0", 0), arr("seq_empty", 0, NULL, true), u_("after_empty", 119);
		u_("tlen", 5), str_("seq_text", "hello"), u_("slen", 2);
		if (get(SPOOR_SCOPE_PAYLOAD, "seq_str", &f) && CHECK_EQ_U64(f.count, 2)) {
			if (child(&f, 0, &g))
				is_str(&g, "x");
			if (child(&f, 1, &g))
				is_str(&g, "yz");
		}
		if (get(SPOOR_SCOPE_PAYLOAD, "seq_struct", &f) && CHECK_EQ_U64(f.count, 3))
			for (unsigned i = 0; i < 3; i++)
				if (child(&f, i, &g) && CHECK_EQ_U64(g.kind, SPOOR_FIELD_STRUCT)) {
					if (child(&g, 0, &h))
						CHECK_STR(h.name, "a"), is_u(&h, i + 1);
					if (child(&g, 1, &h))
						CHECK_STR(h.name, "b"),
						    is_s(&h, -(int64_t) (i + 1));
				}
		break;
	case 12: u_("val", 72623859790382856ull); break;
	case 13:
		if (get(SPOOR_SCOPE_PAYLOAD, "outer", &f) &&
		    CHECK_EQ_U64(f.kind, SPOOR_FIELD_STRUCT) && CHECK_EQ_U64(f.count, 3)) {
			if (child(&f, 0, &g))
				CHECK_STR(g.name, "a"), is_u(&g, 1);
			if (child(&f, 1, &g) && CHECK_EQ_U64(g.count, 2)) {
				if (child(&g, 0, &h))
					CHECK_STR(h.name, "b"), is_s(&h, -2);
				if (child(&g, 1, &h))
					CHECK_STR(h.name, "c"), is_str(&h, "in");
			}
			if (child(&f, 2, &g))
				arr_(&g, 2, (const int64_t[]){3, 4}, false);
			CHECK(!spoor_field_child(&f, 3, &g));
		}
		if (get(SPOOR_SCOPE_PAYLOAD, "aligned", &f) && child(&f, 0, &g))
			CHECK_STR(g.name, "x"), is_u(&g, 5);
		u_("tail", 6);
		break;
	case 14:
	case 15:
	case 16:
	case 17: {
		static const char *labels[] = {"INT", "STR", "DBL", "REC"};
		unsigned k = idx - 14;
		enum_("tag", labels[k], k, false);
		u_("after", 238);
		if (!get(SPOOR_SCOPE_PAYLOAD, "v", &f) ||
		    !CHECK_EQ_U64(f.kind, SPOOR_FIELD_VARIANT) || !child(&f, 0, &g))
			break;
		CHECK(!spoor_field_child(&f, 1, &h));
		CHECK_STR(g.name, labels[k]);
		if (k == 0)
			is_s(&g, -7);
		else if (k == 1)
			is_str(&g, "variant str");
		else if (k == 2 && CHECK_EQ_U64(g.kind, SPOOR_FIELD_FLOAT))
			CHECK_EQ_F64(g.v.f, 0.5);
		else if (k == 3 && CHECK_EQ_U64(g.kind, SPOOR_FIELD_STRUCT)) {
			if (child(&g, 0, &h))
				is_u(&h, 2);
			if (child(&g, 1, &h))
				arr_(&h, 2, (const int64_t[]){100, 200}, false);
		}
		break;
	}
	case 18:
		if (get(SPOOR_SCOPE_EVENT_CONTEXT, "ctx_a", &f))
			is_u(&f, 77);
		if (get(SPOOR_SCOPE_EVENT_CONTEXT, "ctx_s", &f))
			is_str(&f, "ctx");
		u_("x", 9);
		break;
	case 19:
		CHECK_CTX("%s", evctx);
		CHECK(!spoor_event_field(E, SPOOR_SCOPE_PAYLOAD, "x", &f));
		CHECK(!spoor_event_field_at(E, SPOOR_SCOPE_PAYLOAD, 0, &f));
		break;
	}
}

/* SYNTH.md, "Event layout": the compact header holds the id and the clock's low 27 bits;
 * the extended one id 31, then the 32-bit id and the 64-bit timestamp. */
static void check_header(unsigned idx, uint64_t id, bool extended)
{
	struct spoor_field f, g, h;

	if (get(SPOOR_SCOPE_EVENT_HEADER, "id", &f)) {
		is_u(&f, extended ? 31 : id);
		CHECK_STR(f.label, extended ? "extended" : "compact");
	}
	if (!get(SPOOR_SCOPE_EVENT_HEADER, "v", &f) || !child(&f, 0, &g))
		return;
	CHECK_STR(g.name, extended ? "extended" : "compact");
	if (extended && child(&g, 0, &h))
		is_u(&h, id);
	if (child(&g, extended ? 1 : 0, &h))
		is_u(&h, extended ? order[idx].cycles : order[idx].cycles & 0x7FFFFFF);
}

/* SYNTH.md packet table */
static void check_packet(uint64_t begin, uint64_t end, uint64_t content, uint64_t bytes,
                         uint64_t discarded)
{
	static const char *names[] = {"timestamp_begin", "timestamp_end", "content_size",
	                              "packet_size", "events_discarded"};
	const uint64_t want[] = {begin, end, content, bytes * 8, discarded};
	struct spoor_field f;

	for (int i = 0; i < 5; i++)
		if (get(SPOOR_SCOPE_PACKET_CONTEXT, names[i], &f))
			is_u(&f, want[i]);
}

/* Common checks of event number idx of SYNTH.md's merged order. */
static void check_event(unsigned idx, const char *trace)
{
	struct spoor_field f;

	snprintf(evctx, sizeof(evctx), "%s event %u (%s)", trace, idx + 1, order[idx].name);
	CHECK_CTX("%s", evctx);
	CHECK_STR(spoor_event_name(E), order[idx].name);
	CHECK(spoor_event_has_timestamp(E));
	CHECK_EQ_U64(spoor_event_cycles(E), order[idx].cycles);
	CHECK_EQ_S64(spoor_event_timestamp(E), BASE_NS + (int64_t) order[idx].cycles);
	CHECK_EQ_S64(spoor_event_cpu(E), order[idx].cpu);
	CHECK_EQ_U64(spoor_event_trace(E), 0);
	if (get(SPOOR_SCOPE_PACKET_CONTEXT, "cpu_id", &f))
		is_u(&f, (uint64_t) order[idx].cpu);
	if (get(SPOOR_SCOPE_STREAM_EVENT_CONTEXT, "vtid", &f)) { /* `_vtid`, shown without _ */
		CHECK_STR(f.name, "vtid");
		is_s(&f, order[idx].vtid);
	}
	check_payload(idx);
	if (idx == 0)
		check_packet(1073740824, 1073742124, 2275, 384, 0);
	else if (idx == 19)
		check_packet(1373741824, 1373743824, 1504, 256, 5);
	else if (idx == 21)
		check_packet(1173741824, 1373743324, 1216, 256, 0);
	/* event headers (in synth-le only: one report per event is enough): ints compact,
	 * bases compact with value 5 (wrapped), tie-1 of cpu 1 compact with value 5000
	 * (wrapped), sequences and tie-2 of cpu 1 extended, big_id extended (id 40) */
	static const struct {
		unsigned idx;
		uint64_t id;
		bool extended;
	} hdrs[] = {{0, 0, false}, {3, 3, false},  {9, 13, false},
	            {11, 8, true}, {12, 40, true}, {21, 13, true}};
	for (unsigned i = 0; i < sizeof(hdrs) / sizeof(hdrs[0]); i++)
		if (hdrs[i].idx == idx && !strcmp(trace, "synth-le"))
			check_header(idx, hdrs[i].id, hdrs[i].extended);
}

#endif
