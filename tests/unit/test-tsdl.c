/* SPDX-License-Identifier: MIT */
/*
 * test-tsdl.c: the TSDL parser (ctf/tsdl-parse.h) and metadata packets (ctf/metadata-read.h).
 * Expected values, alignments and error positions are worked out by hand from the CTF 1.8
 * spec and from the input texts below (columns are 1-based, one per byte).
 */
#include <stdlib.h>

#include "check.h"
#include "ctf/metadata-read.h"
#include "ctf/tsdl-parse.h"
#include "ctf/tsdl-scan.h"
#include "meta-same.h"
#include "spoor/spoor.h"

#define TRACE_LE "trace { major = 1; minor = 8; byte_order = le; };\n"
#define TRACE_BE "trace { major = 1; minor = 8; byte_order = be; };\n"
#define U8       "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"

static struct ctf_meta meta;
static struct tsdl_error perr;

/* tsdl_parse_lazy reads most event blocks from the raw text (tsdl-scan.c): the same answer,
 * error and classes as reading each block token by token. */
static void check_scan(const char *text, size_t len)
{
	struct ctf_meta scanned = {0}, tokens = {0};
	struct tsdl_error se, te;
	int src = tsdl_parse_lazy(text, len, &scanned, &se);
	int trc = tsdl_parse_lazy_tokens(text, len, &tokens, &te);

	if (!CHECK_EQ_S64(src, trc) || !CHECK_EQ_U64(se.line, te.line) ||
	    !CHECK_EQ_U64(se.col, te.col) || !CHECK_STR(se.msg, te.msg))
		printf("  scanned: %u:%u %s\n  tokens: %u:%u %s\n", se.line, se.col, se.msg,
		       te.line, te.col, te.msg);
	if (!src && !trc)
		CHECK(same_classes(&scanned, &tokens));
	ctf_meta_free(&scanned);
	ctf_meta_free(&tokens);
}

/* The lazy parse (event scopes stepped over), then every deferred scope parsed: the same
 * answer as the eager parse, the same error at the same place. */
static void check_lazy(const char *text, size_t len, int want, const struct tsdl_error *e)
{
	struct ctf_meta m = {0};
	struct tsdl_error le;
	int rc = tsdl_parse_lazy(text, len, &m, &le);

	for (unsigned s = 0; !rc && s < m.nstreams; s++)
		for (unsigned k = 0; !rc && k < m.streams[s]->nevents; k++)
			rc = tsdl_parse_deferred(&m, m.streams[s]->events[k], &le);
	if (!CHECK_EQ_S64(rc, want) || !CHECK_EQ_U64(le.line, e->line) ||
	    !CHECK_EQ_U64(le.col, e->col) || !CHECK_STR(le.msg, e->msg))
		printf("  lazy: %u:%u %s\n", le.line, le.col, le.msg);
	ctf_meta_free(&m);
	check_scan(text, len);
}

static int parse_len(const char *text, size_t len)
{
	ctf_meta_free(&meta);
	memset(&meta, 0, sizeof(meta));
	int rc = tsdl_parse(text, len, &meta, &perr);
	check_lazy(text, len, rc, &perr);
	return rc;
}

static int parse(const char *text)
{
	return parse_len(text, strlen(text));
}

static struct ctf_event_class *event(const char *name)
{
	for (unsigned s = 0; s < meta.nstreams; s++)
		for (unsigned e = 0; e < meta.streams[s]->nevents; e++)
			if (!strcmp(meta.streams[s]->events[e]->name, name))
				return meta.streams[s]->events[e];
	return NULL;
}

/* Member `name` of a struct or variant type (NULL if absent). */
static const struct ctf_type *member(const struct ctf_type *t, const char *name)
{
	if (!t || (t->kind != CTF_STRUCT && t->kind != CTF_VARIANT))
		return NULL;
	int i = ctf_struct_find(t, name, t->s.n);
	return i < 0 ? NULL : t->s.fields[i].type;
}

/* Field f of event e, declared with `decl` after `prelude` (in a big-endian trace). */
static const struct ctf_type *one_field(const char *prelude, const char *decl)
{
	char text[1024];
	snprintf(text, sizeof(text), TRACE_BE "%sevent { name = \"e\"; fields := struct { %s }; };",
	         prelude, decl);
	CHECK_CTX("%s", decl);
	if (!CHECK_EQ_S64(parse(text), 0)) {
		printf("  parse error %u:%u %s\n", perr.line, perr.col, perr.msg);
		return NULL;
	}
	const struct ctf_type *t = event("e") ? member(event("e")->fields, "f") : NULL;
	CHECK(t != NULL);
	return t;
}

/* Scalar types: kind, size (bits; exp_dig + mant_dig for floats), alignment (default: 8
 * when size % 8 == 0, else 1), signedness, base, byte order (resolved: the trace is
 * big-endian) and text encoding. */
#define I(attrs)  "integer { " attrs " } f;"
#define FP(attrs) "floating_point { " attrs " } f;"
static const struct {
	const char *decl;
	enum ctf_kind kind;
	unsigned size, align, sgn, base;
	enum ctf_byte_order bo;
	bool text;
} scalars[] = {
    {I("size = 1;"), CTF_INT, 1, 1, 0, 10, CTF_BO_BE, 0},
    {I("size = 3; signed = 1;"), CTF_INT, 3, 1, 1, 10, CTF_BO_BE, 0},
    {I("size = 8; signed = true;"), CTF_INT, 8, 8, 1, 10, CTF_BO_BE, 0},
    {I("size = 13; signed = TRUE;"), CTF_INT, 13, 1, 1, 10, CTF_BO_BE, 0},
    {I("size = 16; signed = false;"), CTF_INT, 16, 8, 0, 10, CTF_BO_BE, 0},
    {I("size = 27; signed = 0;"), CTF_INT, 27, 1, 0, 10, CTF_BO_BE, 0},
    {I("size = 33; signed = true;"), CTF_INT, 33, 1, 1, 10, CTF_BO_BE, 0},
    {I("size = 64;"), CTF_INT, 64, 8, 0, 10, CTF_BO_BE, 0},
    {I("size = 64; align = 64;"), CTF_INT, 64, 64, 0, 10, CTF_BO_BE, 0},
    {I("size = 5; align = 32;"), CTF_INT, 5, 32, 0, 10, CTF_BO_BE, 0},
    {I("size = 32; align = 1;"), CTF_INT, 32, 1, 0, 10, CTF_BO_BE, 0},
    {I("size = 0x10; align = 010;"), CTF_INT, 16, 8, 0, 10, CTF_BO_BE, 0},
    {I("size = 32; byte_order = le;"), CTF_INT, 32, 8, 0, 10, CTF_BO_LE, 0},
    {I("size = 32; byte_order = be;"), CTF_INT, 32, 8, 0, 10, CTF_BO_BE, 0},
    {I("size = 32; byte_order = network;"), CTF_INT, 32, 8, 0, 10, CTF_BO_BE, 0},
    {I("size = 32; byte_order = native;"), CTF_INT, 32, 8, 0, 10, CTF_BO_BE, 0},
    {I("size = 8; align = 8; encoding = UTF8;"), CTF_INT, 8, 8, 0, 10, CTF_BO_BE, 1},
    {I("size = 8; align = 8; encoding = ASCII;"), CTF_INT, 8, 8, 0, 10, CTF_BO_BE, 1},
    {I("size = 8; align = 8; encoding = none;"), CTF_INT, 8, 8, 0, 10, CTF_BO_BE, 0},
    {FP("exp_dig = 8; mant_dig = 24;"), CTF_FLOAT, 32, 8, 0, 0, CTF_BO_BE, 0},
    {FP("exp_dig = 11; mant_dig = 53; byte_order = le; align = 64;"), CTF_FLOAT, 64, 64, 0, 0,
     CTF_BO_LE, 0},
    {FP("exp_dig = 8; mant_dig = 24; align = 1;"), CTF_FLOAT, 32, 1, 0, 0, CTF_BO_BE, 0},
    {"string f;", CTF_STRING, 0, 8, 0, 0, 0, 0},
    {"string { encoding = ASCII; } f;", CTF_STRING, 0, 8, 0, 0, 0, 0},
};

static void test_scalars(void)
{
	static const char *bases[] = {"decimal dec d i u 10", "hexadecimal hex x X p 16",
	                              "octal oct o 8", "binary b 2"};
	static const unsigned base_values[] = {10, 16, 8, 2};
	const struct ctf_type *t;
	char decl[100], words[40];

	for (unsigned b = 0; b < 4; b++) {
		strcpy(words, bases[b]);
		for (char *w = strtok(words, " "); w; w = strtok(NULL, " ")) {
			snprintf(decl, sizeof(decl), I("size = 16; base = %s;"), w);
			if ((t = one_field("", decl)))
				CHECK_EQ_U64(t->i.base, base_values[b]);
		}
	}

	for (unsigned i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++) {
		if (!(t = one_field("", scalars[i].decl)) ||
		    !CHECK_EQ_U64(t->kind, scalars[i].kind))
			continue;
		CHECK_EQ_U64(t->align, scalars[i].align);
		if (t->kind == CTF_INT) {
			CHECK_EQ_U64(t->i.size, scalars[i].size);
			CHECK_EQ_U64(t->i.is_signed, scalars[i].sgn);
			CHECK_EQ_U64(t->i.base, scalars[i].base);
			CHECK_EQ_U64(ctf_bo(&meta, t->i.bo), scalars[i].bo);
			CHECK_EQ_U64(t->i.text, scalars[i].text);
			CHECK(!t->i.map_clock);
		} else if (t->kind == CTF_FLOAT) {
			CHECK_EQ_U64(t->f.exp_dig + t->f.mant_dig, scalars[i].size);
			CHECK_EQ_U64(t->f.mant_dig, scalars[i].size == 32 ? 24 : 53);
			CHECK_EQ_U64(ctf_bo(&meta, t->f.bo), scalars[i].bo);
		}
	}
	if ((t = one_field("", I("size = 16;")))) /* no byte_order: native, resolved later */
		CHECK_EQ_U64(t->i.bo, CTF_BO_NATIVE);
	if ((t = one_field("clock { name = mono; };\n", I("size = 27; map = clock.mono.value;"))))
		CHECK_STR(t->i.map_clock, "mono");
	/* typealias with a multi-word name; the integer object is shared by every use */
	if ((t = one_field(
	         "typealias integer { size = 64; align = 8; signed = false; base = hex; } "
	         ":= unsigned long;\n",
	         "unsigned long f; unsigned long g[2];"))) {
		CHECK(t->kind == CTF_INT && t->i.size == 64 && t->i.base == CTF_BASE_HEX);
		const struct ctf_type *g = member(event("e")->fields, "g");
		if (CHECK(g && g->kind == CTF_ARRAY))
			CHECK(g->a.elem == t);
	}
}

struct entry {
	const char *label;
	int64_t lo, hi;
};

/* An enum with exactly these n entries, in order. */
static void check_enum(const struct ctf_type *t, unsigned n, const struct entry *want)
{
	if (!CHECK(t && t->kind == CTF_ENUM) || !CHECK_EQ_U64(t->e.n, n))
		return;
	for (unsigned i = 0; i < n; i++) {
		CHECK_CTX("enum entry %u", i);
		CHECK_STR(t->e.entries[i].label, want[i].label);
		CHECK_EQ_S64(t->e.entries[i].lo, want[i].lo);
		CHECK_EQ_S64(t->e.entries[i].hi, want[i].hi);
	}
}

static void test_enums(void)
{
	const char *text =
	    TRACE_LE U8 "typealias integer { size = 16; align = 16; signed = true; } := s16;\n"
	                "enum color : uint8_t { RED, GREEN, BLUE };\n"
	                "event { name = \"e\"; fields := struct {\n"
	                "  enum : uint8_t { ZERO = 0, ONE_TO_TEN = 1 ... 10, \"with space\" = 42, "
	                "LAST = 255 } e1;\n"
	                "  enum : s16 { NEG = -100 ... -1, ZERO = 0, POS = 1 ... 100 } e2;\n"
	                "  enum : uint8_t { A, B, C = 10, D, E = 20 ... 29, F, } e3;\n"
	                "  enum : integer { size = 3; } { RED = 0, GREEN = 1, BLUE = 2 } e4;\n"
	                "  enum color c1; enum color c2;\n"
	                "}; };\n";

	CHECK_CTX("enums");
	if (!CHECK_EQ_S64(parse(text), 0)) {
		printf("  %u:%u %s\n", perr.line, perr.col, perr.msg);
		return;
	}
	const struct ctf_type *f = event("e")->fields;
	const struct ctf_type *e1 = member(f, "e1"), *e2 = member(f, "e2"), *e4 = member(f, "e4");
	check_enum(
	    e1, 4,
	    (const struct entry[]){
	        {"ZERO", 0, 0}, {"ONE_TO_TEN", 1, 10}, {"with space", 42, 42}, {"LAST", 255, 255}});
	check_enum(e2, 3,
	           (const struct entry[]){{"NEG", -100, -1}, {"ZERO", 0, 0}, {"POS", 1, 100}});
	/* implicit values continue from the previous entry's end */
	check_enum(member(f, "e3"), 6,
	           (const struct entry[]){{"A", 0, 0},
	                                  {"B", 1, 1},
	                                  {"C", 10, 10},
	                                  {"D", 11, 11},
	                                  {"E", 20, 29},
	                                  {"F", 30, 30}});
	check_enum(e4, 3, (const struct entry[]){{"RED", 0, 0}, {"GREEN", 1, 1}, {"BLUE", 2, 2}});
	CHECK_CTX("enums");
	if (CHECK(e1 && e2 && e4)) {
		CHECK(e1->e.container->i.size == 8 && e1->align == 8);
		CHECK(e2->e.container->i.is_signed && e2->align == 16);
		CHECK(e4->e.container->i.size == 3 && e4->align == 1);
	}
	/* a named enum is one type, reused */
	CHECK(member(f, "c1") && member(f, "c1") == member(f, "c2"));
	check_enum(member(f, "c1"), 3,
	           (const struct entry[]){{"RED", 0, 0}, {"GREEN", 1, 1}, {"BLUE", 2, 2}});
	/* without a container, the `int` typealias is the container */
	const struct ctf_type *t =
	    one_field("typealias integer { size = 32; align = 32; signed = true; } := int;\n",
	              "enum { X, Y = 5 } f;");
	check_enum(t, 2, (const struct entry[]){{"X", 0, 0}, {"Y", 5, 5}});
	if (t && t->kind == CTF_ENUM)
		CHECK(t->e.container->i.size == 32 && t->e.container->i.is_signed);
}

/* A label on several ranges is one mapping: its ranges gathered after its first declaration
 * (the printers and variants walk labels in that order), reversed ranges turned round. */
static void test_enum_labels(void)
{
	CHECK_CTX("enum labels on several ranges");
	const struct ctf_type *t = one_field(
	    U8,
	    "enum : uint8_t { \"_unknown\" = 0 ... 5, \"_tcp\" = 6, \"_unknown\" = 7 ... 255 } f;");
	check_enum(
	    t, 3, (const struct entry[]){{"_unknown", 0, 5}, {"_unknown", 7, 255}, {"_tcp", 6, 6}});
	if (CHECK(t && t->kind == CTF_ENUM && t->e.n == 3))
		CHECK(t->e.entries[0].label == t->e.entries[1].label);
	t = one_field("typealias integer { size = 16; align = 16; signed = true; } := s16;\n",
	              "enum : s16 { NEG = -1000 ... -1, BIG = 100 ... 32767, ZERO = 0, NEG = 500, "
	              "BIG = 7 } f;");
	check_enum(t, 5,
	           (const struct entry[]){{"NEG", -1000, -1},
	                                  {"NEG", 500, 500},
	                                  {"BIG", 100, 32767},
	                                  {"BIG", 7, 7},
	                                  {"ZERO", 0, 0}});
	unsigned at = 0;
	if (t && t->kind == CTF_ENUM) {
		CHECK_STR(ctf_enum_next_label(t, 500, &at), "NEG");
		CHECK_STR(ctf_enum_next_label(t, 500, &at), "BIG");
		CHECK(ctf_enum_next_label(t, 500, &at) == NULL);
		at = 0;
		CHECK_STR(ctf_enum_next_label(t, (uint64_t) -5, &at), "NEG");
		CHECK(ctf_enum_next_label(t, (uint64_t) -5, &at) == NULL);
		at = 0;
		CHECK(ctf_enum_next_label(t, (uint64_t) -2000, &at) == NULL);
	}
	/* babeltrace 1 turns a reversed range round (babeltrace2 aborts on it) */
	t = one_field(U8, "enum : uint8_t { R = 100 ... 90, S = 250 ... 3 } f;");
	check_enum(t, 2, (const struct entry[]){{"R", 90, 100}, {"S", 3, 250}});
	t = one_field("typealias integer { size = 8; align = 8; signed = true; } := s8;\n",
	              "enum : s8 { R = 5 ... -5, A = -3, B } f;");
	check_enum(t, 3, (const struct entry[]){{"R", -5, 5}, {"A", -3, -3}, {"B", -2, -2}});
}

static void test_compound(void)
{
	const char *text = TRACE_LE U8
	    "typealias integer { size = 16; align = 16; signed = false; } := uint16_t;\n"
	    "typealias integer { size = 32; align = 32; signed = true; } := s32;\n"
	    "struct point { uint16_t x; uint16_t y; };\n"
	    "variant opt { s32 INT; string STR; };\n"
	    "typedef uint8_t row3_t[3];\n"
	    "typedef uint16_t pair_t[2], single_t;\n"
	    "event { name = \"e\"; fields := struct {\n"
	    "  struct { uint8_t x; } align(64) aligned;\n"
	    "  struct { uint8_t a; uint16_t b; } plain;\n"
	    "  struct { } empty;\n"
	    "  struct point p1; struct point p2;\n"
	    "  enum : integer { size = 3; } { INT = 0, STR = 1, DBL = 2 } tag;\n"
	    "  variant <tag> { s32 INT; string STR; floating_point { exp_dig = 11; mant_dig = 53; "
	    "} DBL; } v;\n"
	    "  variant opt <tag> v2;\n"
	    "  row3_t a_2d[2];\n"
	    "  uint8_t m[2][3];\n"
	    "  pair_t pr; single_t sg;\n"
	    "  uint8_t len;\n"
	    "  uint16_t seq[len];\n"
	    "  string strs[len];\n"
	    "  uint8_t seq2d[len][4];\n"
	    "  uint8_t abs[event.fields.len];\n"
	    "}; };\n";
	int rc = parse(text);

	CHECK_CTX("compound types");
	if (!CHECK_EQ_S64(rc, 0)) {
		printf("  %u:%u %s\n", perr.line, perr.col, perr.msg);
		return;
	}
	const struct ctf_type *f = event("e")->fields, *t;
	CHECK(f->kind == CTF_STRUCT && f->s.n == 17);
	CHECK_EQ_U64(f->align, 64); /* the largest member alignment */
	if ((t = member(f, "aligned")) && CHECK(t->kind == CTF_STRUCT))
		CHECK(t->align == 64 && t->s.n == 1);
	if ((t = member(f, "plain")) && CHECK(t->kind == CTF_STRUCT))
		CHECK_EQ_U64(t->align, 16);
	if ((t = member(f, "empty")) && CHECK(t->kind == CTF_STRUCT))
		CHECK(t->s.n == 0 && t->align == 1);
	const struct ctf_type *p1 = member(f, "p1"), *p2 = member(f, "p2");
	if (CHECK(p1 && p2 && p1->kind == CTF_STRUCT)) {
		CHECK(p1 == p2 && p1->s.n == 2 && p1->align == 16);
		CHECK_STR(p1->s.fields[1].name, "y");
	}
	if ((t = member(f, "v")) && CHECK(t->kind == CTF_VARIANT)) {
		CHECK_STR(t->tag.text, "tag");
		CHECK_STR(t->s.fields[2].name, "DBL");
		CHECK(t->s.n == 3 && t->s.fields[2].type->kind == CTF_FLOAT);
		CHECK_EQ_U64(t->align, 1); /* a variant has no alignment of its own */
	}
	if ((t = member(f, "v2")) && CHECK(t->kind == CTF_VARIANT)) {
		CHECK_STR(t->tag.text, "tag");
		CHECK_STR(t->s.fields[0].name, "INT");
		CHECK(t->s.n == 2 && t->s.fields[0].type->i.size == 32);
	}
	/* row3_t a_2d[2] and m[2][3]: two arrays of three bytes (outer dimension first) */
	const char *two_by_three[] = {"a_2d", "m"};
	for (int k = 0; k < 2; k++)
		if ((t = member(f, two_by_three[k])) && CHECK(t->kind == CTF_ARRAY)) {
			CHECK(t->a.len == 2 && t->align == 8);
			const struct ctf_type *e = t->a.elem;
			CHECK(e->kind == CTF_ARRAY && e->a.len == 3 && e->a.elem->kind == CTF_INT &&
			      e->a.elem->i.size == 8);
		}
	if ((t = member(f, "pr")) && CHECK(t->kind == CTF_ARRAY))
		CHECK(t->a.len == 2 && t->align == 16);
	if ((t = member(f, "sg")))
		CHECK_EQ_U64(t->kind, CTF_INT);
	if ((t = member(f, "seq")) && CHECK(t->kind == CTF_SEQUENCE)) {
		CHECK_STR(t->a.path.text, "len");
		CHECK(t->a.elem->i.size == 16 && t->align == 16);
	}
	if ((t = member(f, "strs")) && CHECK(t->kind == CTF_SEQUENCE))
		CHECK_EQ_U64(t->a.elem->kind, CTF_STRING);
	if ((t = member(f, "seq2d")) && CHECK(t->kind == CTF_SEQUENCE)) {
		CHECK_STR(t->a.path.text, "len");
		CHECK(t->a.elem->kind == CTF_ARRAY && t->a.elem->a.len == 4);
	}
	if ((t = member(f, "abs")) && CHECK(t->kind == CTF_SEQUENCE))
		CHECK_STR(t->a.path.text, "event.fields.len");
}

static void test_blocks(void)
{
	const char *text =
	    "/* a comment */ // and a line comment\n"
	    "trace {\n\tmajor = 1;\n\tminor = 8;\n"
	    "\tuuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\";\n\tbyte_order = be;\n"
	    "\tpacket.header := struct { integer { size = 32; align = 8; } magic; "
	    "integer { size = 8; align = 8; } uuid[16]; integer { size = 32; align = 8; } "
	    "stream_id; };\n"
	    "};\n"
	    "env { hostname = \"synth-host\"; domain = \"synthetic\"; synth_version = 1; neg = -5; "
	    "};\n"
	    "clock { name = monotonic; uuid = \"9a1d0e2c-5c1f-4e0f-9c4b-4a1f3b2c1d00\";\n"
	    "\tdescription = \"Monotonic Clock\"; freq = 1000000000; precision = 1;\n"
	    "\toffset_s = 1700000000; offset = 123456789; absolute = FALSE; };\n"
	    "clock { name = \"other\"; freq = 1000; offset_s = -3; absolute = true; };\n" U8
	    "typealias integer { size = 27; align = 1; map = clock.monotonic.value; } := ts27;\n"
	    "stream { id = 0;\n"
	    "\tevent.header := struct { enum : integer { size = 5; } { compact = 0 ... 30, "
	    "extended = 31 } id; "
	    "variant <id> { struct { ts27 timestamp; } compact; struct { uint8_t id; } extended; } "
	    "v; } align(8);\n"
	    "\tpacket.context := struct { uint8_t cpu_id; };\n"
	    "\tevent.context := struct { integer { size = 32; align = 8; signed = true; } _vtid; "
	    "};\n"
	    "};\n"
	    "stream { id = 1; };\n"
	    "event { name = \"a:b\"; id = 0; stream_id = 0; loglevel = 13; model.emf.uri = "
	    "\"http://x\";\n"
	    "\tcontext := struct { uint8_t c; }; fields := struct { uint8_t x; }; };\n"
	    "event { name = a_c; id = 40; stream_id = 0; };\n"
	    "event { name = \"in1\"; id = 0; stream_id = 1; };\n"
	    "callsite { name = \"a:b\"; func = \"f\"; file = \"f.c\"; line = 10; ip = 0x1234; };\n";
	int rc = parse(text);

	CHECK_CTX("blocks");
	if (!CHECK_EQ_S64(rc, 0)) {
		printf("  %u:%u %s\n", perr.line, perr.col, perr.msg);
		return;
	}
	static const uint8_t uuid[16] = {0x2a, 0x64, 0x22, 0xd0, 0x6c, 0xee, 0x11, 0xe0,
	                                 0x8c, 0x08, 0xcb, 0x07, 0xd7, 0xb3, 0xa5, 0x64};
	CHECK(meta.major == 1 && meta.minor == 8);
	CHECK(meta.has_uuid && !memcmp(meta.uuid, uuid, 16));
	CHECK_EQ_U64(meta.bo, CTF_BO_BE);
	if (CHECK(meta.packet_header != NULL)) {
		CHECK_EQ_U64(meta.packet_header->s.n, 3);
		const struct ctf_type *u = member(meta.packet_header, "uuid");
		CHECK(u && u->kind == CTF_ARRAY && u->a.len == 16);
	}
	CHECK_EQ_U64(meta.nenv, 4);
	CHECK_STR(ctf_meta_env(&meta, "hostname"), "synth-host");
	CHECK_STR(ctf_meta_env(&meta, "domain"), "synthetic");
	CHECK_STR(ctf_meta_env(&meta, "synth_version"), "1");
	CHECK_STR(ctf_meta_env(&meta, "neg"), "-5");
	CHECK(ctf_meta_env(&meta, "nope") == NULL);
	for (unsigned i = 0; i < meta.nenv; i++)
		if (!strcmp(meta.env[i].key, "synth_version"))
			CHECK(!meta.env[i].is_string && meta.env[i].value == 1);
		else if (!strcmp(meta.env[i].key, "neg"))
			CHECK_EQ_S64(meta.env[i].value, -5);
		else
			CHECK(meta.env[i].is_string);

	CHECK_EQ_U64(meta.nclocks, 2);
	const struct ctf_clock *c = ctf_meta_clock(&meta, "monotonic");
	if (CHECK(c != NULL)) {
		static const uint8_t cu[16] = {0x9a, 0x1d, 0x0e, 0x2c, 0x5c, 0x1f, 0x4e, 0x0f,
		                               0x9c, 0x4b, 0x4a, 0x1f, 0x3b, 0x2c, 0x1d, 0x00};
		CHECK(c->has_uuid && !memcmp(c->uuid, cu, 16));
		CHECK_STR(c->description, "Monotonic Clock");
		CHECK(c->freq == 1000000000 && c->precision == 1 && !c->absolute);
		CHECK(c->offset_s == 1700000000 && c->offset == 123456789);
	}
	const struct ctf_clock *o = ctf_meta_clock(&meta, "other");
	CHECK(o && o->freq == 1000 && o->offset_s == -3 && o->absolute && !o->has_uuid);

	CHECK_EQ_U64(meta.nstreams, 2);
	struct ctf_stream_class *s0 = ctf_meta_stream(&meta, 0), *s1 = ctf_meta_stream(&meta, 1);
	if (CHECK(s0 && s1)) {
		CHECK(s0->clock == c); /* the event header's timestamp maps to monotonic */
		CHECK(s1->clock == NULL);
		CHECK(s0->event_header->align == 8 && s0->event_header->s.n == 2);
		CHECK(member(s0->packet_context, "cpu_id") != NULL);
		if (CHECK(s0->event_context && s0->event_context->s.n == 1)) {
			CHECK_STR(s0->event_context->s.fields[0].name, "_vtid");
			CHECK_STR(s0->event_context->s.fields[0].shown, "vtid");
		}
		CHECK(s0->nevents == 2 && s1->nevents == 1);
		struct ctf_event_class *ab = ctf_stream_event(s0, 0),
		                       *ac = ctf_stream_event(s0, 40);
		if (CHECK(ab && ac)) {
			CHECK_STR(ab->name, "a:b");
			CHECK(ab->has_loglevel && ab->loglevel == 13);
			CHECK_STR(ab->emf_uri, "http://x");
			CHECK(ab->context && member(ab->context, "c"));
			CHECK(member(ab->fields, "x") != NULL);
			CHECK_STR(ac->name, "a_c");
			CHECK(!ac->has_loglevel && !ac->fields && !ac->context);
		}
		CHECK(ctf_stream_event(s0, 1) == NULL);
		struct ctf_event_class *in1 = ctf_stream_event(s1, 0);
		CHECK(in1 && !strcmp(in1->name, "in1"));
	}

	/* no stream block: events go to an implicit stream class 0; one stream block: the
	 * event without stream_id belongs to it */
	CHECK_CTX("implicit stream");
	if (CHECK_EQ_S64(parse(TRACE_LE "event { name = \"e\"; };"), 0)) {
		CHECK_EQ_U64(meta.nstreams, 1);
		CHECK(event("e") && ctf_stream_event(meta.streams[0], 0) == event("e"));
	}
	if (CHECK_EQ_S64(parse(TRACE_LE "stream { id = 3; }; event { name = \"e\"; id = 2; };"),
	                 0)) {
		CHECK_EQ_U64(meta.nstreams, 1);
		CHECK(ctf_stream_event(meta.streams[0], 2) == event("e"));
		CHECK_EQ_U64(event("e")->stream_id, 3);
	}
}

/* TSDL in LTTng's metadata packets: 37-byte header, then a slice of text, then padding. */
static size_t make_packets(unsigned char *out, const char *text, int be, unsigned npkt,
                           unsigned pad)
{
	size_t len = strlen(text), off = 0;

	for (unsigned i = 0; i < npkt; i++) {
		size_t from = len * i / npkt, to = len * (i + 1) / npkt, body = to - from;
		uint32_t vals[2] = {(uint32_t) ((37 + body) * 8),
		                    (uint32_t) ((37 + body + pad) * 8)};
		unsigned char *h = out + off;
		memset(h, 0, 37 + body + pad);
		uint32_t fields[] = {0x75D11D57u, vals[0], vals[1]};
		unsigned at[] = {0, 24, 28};
		for (int f = 0; f < 3; f++)
			for (int b = 0; b < 4; b++)
				h[at[f] + b] =
				    (unsigned char) (fields[f] >> (be ? 24 - 8 * b : 8 * b));
		for (int b = 0; b < 16; b++)
			h[4 + b] = (unsigned char) (0xA0 + b);
		h[35] = 1;
		h[36] = 8;
		memcpy(h + 37, text + from, body);
		off += 37 + body + pad;
	}
	return off;
}

static void test_packetized(void)
{
	const char *text = TRACE_LE U8
	    "event { name = \"e\"; fields := struct { uint8_t some_field; string s; }; };\n";
	static unsigned char buf[8192];
	char err[256], *out = NULL;
	size_t len = 0;

	for (int be = 0; be < 2; be++)
		for (unsigned npkt = 1; npkt <= 7; npkt += 3) {
			CHECK_CTX("packetized, %s, %u packets", be ? "be" : "le", npkt);
			size_t n = make_packets(buf, text, be, npkt, 11 * npkt);
			err[0] = '\0';
			int rc = ctf_metadata_decode(buf, n, &out, &len, err, sizeof(err));
			if (!CHECK_EQ_S64(rc, 0)) {
				printf("  %s\n", err);
				continue;
			}
			CHECK_STRN(out, len, text);
			CHECK_EQ_U64(out[len], 0);
			CHECK_EQ_S64(parse(out), 0); /* out is NUL-terminated */
			CHECK(event("e") && member(event("e")->fields, "some_field"));
			free(out);
			out = NULL;
		}

	CHECK_CTX("plain metadata");
	if (CHECK_EQ_S64(ctf_metadata_decode((const unsigned char *) text, strlen(text), &out, &len,
	                                     err, sizeof(err)),
	                 0)) {
		CHECK_STRN(out, len, text);
		free(out);
	}

	/* damage: the message names the offset of the bad packet */
	size_t n = make_packets(buf, text, 0, 3, 5);
	size_t second = 37 + strlen(text) / 3 + 5;
	CHECK_CTX("bad metadata packets");
	buf[second] ^= 0xFF;
	err[0] = '\0';
	CHECK_EQ_S64(ctf_metadata_decode(buf, n, &out, &len, err, sizeof(err)),
	             -SPOOR_EMETA_PACKET);
	char want[64];
	snprintf(want, sizeof(want), "offset %zu", second);
	if (!CHECK(strstr(err, want) != NULL))
		printf("  message: %s (want %s)\n", err, want);
	buf[second] ^= 0xFF;
	CHECK_EQ_S64(ctf_metadata_decode(buf, n - 1, &out, &len, err, sizeof(err)),
	             -SPOOR_EMETA_PACKET);
	CHECK_EQ_S64(ctf_metadata_decode(buf, second + 20, &out, &len, err, sizeof(err)),
	             -SPOOR_EMETA_PACKET);
	uint32_t psize = (uint32_t) buf[28] | (uint32_t) buf[29] << 8 | (uint32_t) buf[30] << 16;
	for (int b = 0; b < 4; b++) /* content_size of packet 0 = its packet_size + 8 bits */
		buf[24 + b] = (uint8_t) ((psize + 8) >> (8 * b));
	CHECK_EQ_S64(ctf_metadata_decode(buf, n, &out, &len, err, sizeof(err)),
	             -SPOOR_EMETA_PACKET);
	n = make_packets(buf, text, 1, 2, 0);
	buf[32] = 1; /* compression_scheme */
	CHECK_EQ_S64(ctf_metadata_decode(buf, n, &out, &len, err, sizeof(err)),
	             -SPOOR_EUNSUPPORTED);
}

/* A bad text, the error code, and the accepted positions (line, column), by hand. */
static void expect_error(const char *text, int code, unsigned line, const unsigned *cols,
                         const char *what)
{
	CHECK_CTX("error: %s", what);
	int rc = parse(text);
	CHECK_EQ_S64(rc, code);
	CHECK_EQ_U64(perr.line, line);
	bool col_ok = false;
	for (const unsigned *c = cols; *c; c++)
		col_ok |= perr.col == *c;
	if (!CHECK(col_ok))
		printf("  column %u (first accepted: %u); message: %s\n", perr.col, cols[0],
		       perr.msg);
	CHECK(perr.msg[0] != '\0');
}

static void test_errors(void)
{
	const int SYN = -SPOOR_EMETA_SYNTAX, SEM = -SPOOR_EMETA_SEMANTIC;

	expect_error(TRACE_LE "typealias integer { size = 8; align = 8 signed = false; } := u8;\n",
	             SYN, 2, (unsigned[]){41, 0}, "missing ';'");
	CHECK(strstr(perr.msg, ";") != NULL);
	expect_error(TRACE_LE "event { name = \"e\"; fields := struct { foo_t x; }; };\n", SEM, 2,
	             (unsigned[]){40, 0}, "unknown type");
	CHECK(strstr(perr.msg, "foo_t") != NULL);
	expect_error("trace { major = 1; minor = 8; byte_order = middle; };\n", SEM, 1,
	             (unsigned[]){44, 0}, "bad byte_order");
	expect_error(TRACE_LE "typealias integer { size = 8; } := u8;\n  /* no end\nevent { };\n",
	             SYN, 3, (unsigned[]){3, 0}, "unterminated comment");
	expect_error(TRACE_LE "typealias integer { size = 0; } := z;\n", SEM, 2,
	             (unsigned[]){28, 0}, "integer size 0");
	/* the event block (its keyword or first attribute) or the stream_id attribute/value */
	expect_error(TRACE_LE "stream { id = 0; };\nevent { name = \"e\"; stream_id = 3; };\n", SEM,
	             3, (unsigned[]){1, 9, 21, 33, 0}, "undeclared stream");
	expect_error(TRACE_LE U8
	             "event { name = \"e\"; fields := struct { enum { A, B } x; }; };\n",
	             SEM, 3, (unsigned[]){40, 45, 0}, "enum without container");
	expect_error(TRACE_LE U8
	             "event { name = \"e\"; fields := struct { enum : uint8_t { } x; }; };\n",
	             SEM, 3, (unsigned[]){57, 0}, "enum without entries (CTF 1.8 section 4.1.8)");
	expect_error(TRACE_LE "env { a = \"abc;\n};\n", SYN, 2, (unsigned[]){11, 0},
	             "unterminated string");
	expect_error(TRACE_LE "typealias integer { size = 8; base = 7; } := u8;\n", SEM, 2,
	             (unsigned[]){38, 0}, "invalid base 7");
	expect_error(TRACE_LE "typealias integer { size = 8; align = 3; } := u8;\n", SEM, 2,
	             (unsigned[]){39, 0}, "align not a power of two");
	expect_error(TRACE_LE "event { name = \"e\"; fields := struct { struct nope x; }; };\n",
	             SEM, 2, (unsigned[]){47, 40, 0}, "unknown struct");
	expect_error(TRACE_LE "typealias integer { size = 8; } := u8 @;\n", SYN, 2,
	             (unsigned[]){39, 0}, "bad character");
	expect_error("trace { major = 2; minor = 0; byte_order = le; };\n", SEM, 1,
	             (unsigned[]){17, 9, 1, 48, 0}, "CTF 2");
	expect_error(TRACE_LE "event { name = \"e\"; fields := struct { integer { size = 8; } x;\n",
	             SYN, 3, (unsigned[]){1, 0}, "end of text inside a struct");
	CHECK_CTX("errors without position");
	CHECK_EQ_S64(parse("trace { major = 1; minor = 8; };\n"), SEM);
	CHECK_EQ_S64(parse(TRACE_LE "event { name = \"e\"; }; event { name = \"f\"; };\n"), SEM);
	CHECK_EQ_S64(parse(TRACE_LE "event { fields := struct { string s; }; };\n"), SEM);
	CHECK_EQ_S64(parse(TRACE_LE "event { name = \"e\"; fields := struct { floating_point "
	                            "{ exp_dig = 5; mant_dig = 11; } h; }; };\n"),
	             SEM);
	CHECK_EQ_S64(parse(TRACE_LE "stream { id = 1; }; stream { id = 1; };\n"), SEM);
}

/* Texts cut anywhere, each in a heap buffer of its exact size (no NUL after it), so that
 * valgrind or ASan see any read past the end: all are syntax errors. */
static void test_truncated_texts(void)
{
	static const char *cuts[] = {
	    TRACE_LE "env { a = \"abc\\",
	    TRACE_LE "env { a = \"abc",
	    TRACE_LE "/* open *",
	    TRACE_LE "typealias integer { size = 0x",
	    TRACE_LE "typealias integer { size = 8",
	    TRACE_LE "event { name = \"e\"; fields := struct { integer { size = 8; } x[",
	    TRACE_LE "enum e : integer { size = 8; } { A = 1 ..",
	    TRACE_LE "env { a = 'x",
	};
	for (unsigned i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		size_t n = strlen(cuts[i]);
		char *buf = malloc(n);
		if (!buf)
			abort();
		memcpy(buf, cuts[i], n);
		CHECK_CTX("cut text: %s", cuts[i] + strlen(TRACE_LE));
		CHECK_EQ_S64(parse_len(buf, n), -SPOOR_EMETA_SYNTAX);
		free(buf);
	}
}

/* TSDL_MAX_DEPTH counts nested type definitions: `levels` nested structs (the payload
 * struct included), one per line from line 3, the innermost empty. */
static int parse_nested(unsigned levels)
{
	char *text = malloc(128 + 16 * (size_t) levels), *p = text;
	if (!text)
		abort();
	p += sprintf(p, TRACE_LE "event { name = \"deep\"; fields :=\n");
	for (unsigned i = 0; i < levels; i++)
		p += sprintf(p, "struct {\n");
	for (unsigned i = levels; i > 1; i--)
		p += sprintf(p, "} s;\n");
	sprintf(p, "}; };\n");
	int rc = parse(text);
	free(text);
	return rc;
}

static void test_depth(void)
{
	CHECK_CTX("nesting: 20 structs");
	CHECK_EQ_S64(parse_nested(20), 0);
	CHECK_CTX("nesting: TSDL_MAX_DEPTH structs");
	if (!CHECK_EQ_S64(parse_nested(TSDL_MAX_DEPTH), 0))
		printf("  %u:%u %s\n", perr.line, perr.col, perr.msg);
	CHECK_CTX("nesting: 60 structs");
	CHECK_EQ_S64(parse_nested(60), -SPOOR_EMETA_SEMANTIC);
	/* the first definition beyond the limit: struct number TSDL_MAX_DEPTH + 1, on line
	 * 2 + TSDL_MAX_DEPTH + 1 */
	CHECK_EQ_U64(perr.line, 2 + TSDL_MAX_DEPTH + 1);
	CHECK_EQ_U64(perr.col, 1);
	CHECK_CTX("nesting: 100000 structs");
	CHECK_EQ_S64(parse_nested(100000), -SPOOR_EMETA_SEMANTIC); /* no stack overflow */
}

/* Type names declared inside a struct are local to it (CTF 1.8 section 7.3.1). */
static void test_scopes(void)
{
	CHECK_CTX("scopes: typealias inside a struct");
	CHECK_EQ_S64(
	    parse(TRACE_LE
	          "event { name = \"a\"; fields := struct { typealias integer { size = 8; } "
	          ":= in_t; in_t x; }; };\n"
	          "event { name = \"b\"; id = 1; fields := struct { in_t y; }; };\n"),
	    -SPOOR_EMETA_SEMANTIC);
	CHECK_EQ_U64(perr.line, 3);
	CHECK_CTX("scopes: typealias and named struct inside a struct");
	CHECK_EQ_S64(
	    parse(TRACE_LE
	          "event { name = \"a\"; fields := struct { typealias integer { size = 8; } "
	          ":= in_t; struct inner { in_t v; } s; in_t x; }; };\n"
	          "event { name = \"b\"; id = 1; fields := struct { in_t y; }; };\n"),
	    -SPOOR_EMETA_SEMANTIC);
	CHECK_EQ_U64(perr.line, 3);
	/* an inner alias shadows an outer one only inside its struct */
	CHECK_CTX("scopes: shadowing");
	if (CHECK_EQ_S64(parse(TRACE_LE
	                       "typealias integer { size = 8; align = 8; } := x_t;\n"
	                       "event { name = \"a\"; fields := struct {\n"
	                       "  typealias integer { size = 32; align = 8; } := x_t;\n"
	                       "  struct s { x_t v; } inner; x_t after; }; };\n"
	                       "event { name = \"b\"; id = 1; fields := struct { x_t y; }; };\n"),
	                 0)) {
		const struct ctf_type *a = member(event("a")->fields, "after");
		const struct ctf_type *y = member(event("b")->fields, "y");
		if (CHECK(a && y)) {
			CHECK_EQ_U64(a->i.size, 32);
			CHECK_EQ_U64(y->i.size, 8);
		}
	}
}

/* tsdl_parse_lazy steps over event scopes (`struct {...}`), which tsdl_parse_deferred parses
 * later with the type names declared before them. parse() compares both ways on every text;
 * here, what only the lazy way shows. */
static void test_lazy(void)
{
	static const char text[] = TRACE_LE U8
	    "event { name = \"a\"; fields := struct { uint8_t x; /* }\n; */ 'q\\'}'; };\n"
	    "  context := struct { uint8_t c; }; };\n"
	    "typealias integer { size = 16; align = 8; signed = false; } := uint8_t;\n"
	    "event { name = \"b\"; id = 1; fields := struct { uint8_t y; }; };\n"
	    "event { name = \"c\"; id = 2; fields := struct { uint8_t z; } } };\n";
	struct ctf_meta m = {0};
	struct tsdl_error e;

	CHECK_CTX("lazy: stepped over, parsed later");
	/* the stray `'q\'}'` is an error in a's fields, found when they are parsed; the error
	 * after c's fields is at its place (line 8), the lines of the comment counted */
	CHECK_EQ_S64(tsdl_parse_lazy(text, sizeof(text) - 1, &m, &e), -SPOOR_EMETA_SYNTAX);
	CHECK_EQ_U64(e.line, 8);
	CHECK_EQ_U64(e.col, 61);
	ctf_meta_free(&m);
	memset(&m, 0, sizeof(m));
	size_t good = strstr(text, "event { name = \"c\"") - text;
	if (!CHECK_EQ_S64(tsdl_parse_lazy(text, good, &m, &e), 0))
		return;
	struct ctf_event_class *a = m.streams[0]->events[0], *b = m.streams[0]->events[1];
	CHECK(!a->fields && !a->context && a->lazy_fields.line == 3 && a->lazy_context.line == 5);
	CHECK_EQ_S64(tsdl_parse_deferred(&m, b, &e), 0);
	const struct ctf_type *y = b->fields ? member(b->fields, "y") : NULL;
	if (CHECK(y != NULL))
		CHECK_EQ_U64(y->i.size, 16); /* the uint8_t declared before b */
	CHECK_EQ_S64(tsdl_parse_deferred(&m, a, &e), -SPOOR_EMETA_SYNTAX);
	CHECK_EQ_U64(e.line, 4);
	CHECK_EQ_U64(e.col, 6);
	CHECK_EQ_S64(tsdl_parse_deferred(&m, a, &e), -SPOOR_EMETA_SYNTAX); /* again the same */
	CHECK_EQ_U64(e.col, 6);
	ctf_meta_free(&m);

	CHECK_CTX("lazy: a scope declared twice");
	memset(&m, 0, sizeof(m));
	static const char twice[] = TRACE_LE U8 "event { name = \"t\";\n"
	                                        "  fields := struct { uint8_t first; };\n"
	                                        "  fields := struct { uint8_t second; }; };\n";
	if (CHECK_EQ_S64(tsdl_parse_lazy(twice, sizeof(twice) - 1, &m, &e), 0) &&
	    CHECK_EQ_S64(tsdl_parse_deferred(&m, m.streams[0]->events[0], &e), 0))
		CHECK(member(m.streams[0]->events[0]->fields, "second") != NULL);
	ctf_meta_free(&m);
	expect_error(TRACE_LE U8 "event { name = \"t\";\n"
	                         "  fields := struct { nope_t first; };\n"
	                         "  fields := struct { uint8_t second; }; };\n",
	             -SPOOR_EMETA_SEMANTIC, 4, (unsigned[]){22, 0}, "the first one still checked");
}

/* Integer bodies are parsed once per trace and copied after (tsdl-parse.c: int_memo): the
 * copies are whole and apart, the lines after them counted, and a body whose first '}' is
 * not its end (in a comment) is parsed each time. */
static void test_int_memo(void)
{
	static const char text[] = TRACE_LE
	    "clock { name = c; freq = 1000; };\n"
	    "event { name = \"a\"; id = 0; fields := struct {\n"
	    "  integer { size = 16; align = 8;\n signed = 1; base = 16; map = clock.c.value; } x;\n"
	    "  integer { size = 8; /* } */ align = 32; } y; }; };\n"
	    "event { name = \"b\"; id = 1; fields := struct {\n"
	    "  integer { size = 16; align = 8;\n signed = 1; base = 16; map = clock.c.value; } x;\n"
	    "  integer { size = 8; /* } */ align = 32; } y; }; };\n"
	    "event { name = \"c\"; id = 2; fields := struct {\n"
	    "  integer { size = 16; align = 8;\n signed = 1; base = 16; map = clock.c.value; } x;\n"
	    "  nope_t z; }; };\n";
	struct ctf_meta m = {0};
	struct tsdl_error e;

	CHECK_CTX("integer bodies parsed once");
	if (!CHECK_EQ_S64(tsdl_parse_lazy(text, sizeof(text) - 1, &m, &e), 0))
		return;
	struct ctf_event_class **ev = m.streams[0]->events;
	const struct ctf_type *x[2], *y[2];
	for (int i = 0; i < 2; i++) {
		if (!CHECK_EQ_S64(tsdl_parse_deferred(&m, ev[i], &e), 0))
			goto out;
		x[i] = member(ev[i]->fields, "x");
		y[i] = member(ev[i]->fields, "y");
		if (!CHECK(x[i] && y[i]))
			goto out;
		CHECK_EQ_U64(x[i]->i.size, 16);
		CHECK_EQ_U64(x[i]->align, 8);
		CHECK(x[i]->i.is_signed && x[i]->i.base == CTF_BASE_HEX);
		CHECK(x[i]->i.map_clock && !strcmp(x[i]->i.map_clock, "c"));
		CHECK_EQ_U64(y[i]->i.size, 8);
		CHECK_EQ_U64(y[i]->align, 32);
	}
	CHECK(m.nint_memo == 1); /* x's body; y's holds a comment */
	CHECK(x[0] != x[1]);     /* a copy each: output marks types one by one */
	CHECK_EQ_S64(tsdl_parse_deferred(&m, ev[2], &e), -SPOOR_EMETA_SEMANTIC);
	CHECK_EQ_U64(e.line, 14); /* after a body copied, its newline counted */
	CHECK_EQ_U64(e.col, 3);
out:
	ctf_meta_free(&m);
}

#define STREAM0 "stream { id = 0; };\n"

/* What tsdl_scan_event makes of the event block in text (from its `event` keyword): 0 when it
 * reads it all, -1 when it leaves it to the token path. */
static int scan_block(const char *text)
{
	const char *kw = strstr(text + strlen(TRACE_LE U8 STREAM0), "event");
	struct tsdl_event_scan ev;

	return tsdl_scan_event(kw + 5, text + strlen(text), 1, 1, &ev);
}

/* Event blocks that tsdl_parse_lazy reads from the raw text, or leaves to the token path;
 * parse() checks that each text gives what the token path and the eager parse give. */
static void test_scan(void)
{
	static const struct {
		const char *block;
		bool scanned;
	} blocks[] = {
	    {"event{name=\"a\";id=1;stream_id=0;fields:=struct{uint8_t x;};};", true},
	    {"event \t\r\n{\r\n\tname\v=\f\"a\" ;\r\n\tid = 2 ;\r\n}\r\n;\r\n", true},
	    {"event { /* { ; */ name /* } */ = // ;\n \"a\" /**/; id = 3; } /* ; */ ;", true},
	    {"event { fields := struct { uint8_t x; }; stream_id = 0; context := struct "
	     "{ uint8_t c; }; id = 4; name = \"a\"; loglevel = 13; model.emf.uri = \"u{;}\"; };",
	     true},
	    {"event { model.emf.uri = \"a{;}'b\"; name = \"a\"; fields := struct { enum : uint8_t "
	     "{ \"x;}\" = 0, 'q{' = 1 "
	     "} e; /* } */ // }\n uint8_t y; } align(8); };",
	     true},
	    {"event { name = \"\"; id = 0; name = \"a\"; id = 999999999999999999; };", true},
	    {"event { name = a; };", false},
	    {"event { name = 'a'; };", false},
	    {"event { name = \"a\\x\"; };", false},
	    {"event { name = \"a\"; id = 0x10; };", false},
	    {"event { name = \"a\"; id = 010; };", false},
	    {"event { name = \"a\"; id = 12u; };", false},
	    {"event { name = \"a\"; id = 1000000000000000000; };", false},
	    {"event { name = \"a\"; loglevel = -1; };", false},
	    {"event { name = \"a\"; model . emf.uri = \"u\"; };", false},
	    {"event { name = \"a\"; model.emf.uri := \"u\"; };", false},
	    {"event { name = \"a\"; names = 1; };", false},
	    {"event { name = \"a\"; fields := struct { uint8_t x; }; fields := struct { uint8_t y; "
	     "}; };",
	     false},
	    {"event { name = \"a\"; fields := struct s { uint8_t x; }; };", false},
	    {"event { name = \"a\"; fields := integer { size = 8; }; };", false},
	    {"event { name = \"a\"; fields = 1; };", false},
	    {"event { name = \"a\"; fields : = struct { uint8_t x; }; };", false},
	};
	char text[512];

	for (unsigned i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		snprintf(text, sizeof(text), TRACE_LE U8 STREAM0 "%s\n", blocks[i].block);
		CHECK_CTX("scan: %s", blocks[i].block);
		CHECK_EQ_S64(scan_block(text), blocks[i].scanned ? 0 : -1);
		int rc = parse(text);
		if (blocks[i].scanned && CHECK_EQ_S64(rc, 0))
			CHECK(event("a") != NULL);
	}
	CHECK_CTX("scan: blocks in a row");
	if (CHECK_EQ_S64(
	        parse(TRACE_LE U8 STREAM0
	              "event { name = \"a\"; };event{name=\"b\";id=1;};/**/event { name = c; "
	              "id = 2; };\n event { name = \"d\"; id = 3; } ; typealias integer "
	              "{ size = 16; } := u16; event { name = \"e\"; id = 4; };"),
	        0))
		CHECK(event("a") && event("b") && event("c") && event("d") && event("e"));
	CHECK_CTX("scan: a NUL in the text, a blank to the lexer");
	static const char nul[] = TRACE_LE U8 "event {\0 name = \"a\"; };\n";
	struct tsdl_event_scan ev;
	const char *kw = strstr(nul, "event") + 5;
	CHECK_EQ_S64(tsdl_scan_event(kw, nul + sizeof(nul) - 1, 1, 1, &ev), 0);
	CHECK_EQ_S64(parse_len(nul, sizeof(nul) - 1), 0);

	/* a scope of thousands of 16-byte chunks (more than a byte counter holds), with its
	 * braces, comments and newlines at every offset: the error after it on the right line */
	CHECK_CTX("scan: a long scope");
	size_t cap = 512 * 1024, n = 0;
	char *big = malloc(cap);
	if (!big)
		abort();
	n += (size_t) snprintf(big, cap,
	                       TRACE_LE U8 STREAM0 "event { name = \"a\"; fields := struct {\n");
	for (int i = 0; i < 4000; i++) {
		const char *gap = i % 3 ? "" : "\n\n";
		int k = snprintf(big + n, cap - n, "%*s/* { */ struct { uint8_t x; } s%d;%s\n",
		                 i % 17, "", i, gap);
		n += (size_t) k;
	}
	unsigned line = 1;
	for (size_t i = 0; i < n; i++)
		line += big[i] == '\n';
	n += (size_t) snprintf(big + n, cap - n, "}; };\nevent { name = \"b\"; id = x; };\n");
	CHECK_EQ_S64(parse_len(big, n), -SPOOR_EMETA_SEMANTIC);
	CHECK_EQ_U64(perr.line, line + 1);
	free(big);

	/* errors: the same ones, at the same places, as the token path (checked by parse) */
	static const char *bad[] = {
	    "event { name = \"a\"; id = 1 };",
	    "event { name = \"a\nb\"; };",
	    "event { name = \"a\"; /* open };",
	    "event { name = \"a\"; id = 99999999999999999999; };",
	    "event { name = \"a\"; id = 1a; };",
	    "event {\n  id = 1; };",
	    "event { };",
	    "event { name = \"a\"; stream_id = 5; };",
	    "event { name = \"a\"; };\nevent { name = \"b\"; };",
	    "event { name = \"a\"; fields := struct { uint8_t x; } };",
	    "event { name = \"a\"; fields := struct { uint8_t x; }; } x;",
	    "event { name = \"a\"; fields := struct { uint8_t x; \"open }; };",
	    "event { name = \"a\"; } /* open",
	    "event { name = \"a\"; }",
	    "event { name = \"a\"; } ; }",
	    "event { name = \"a\";",
	    "event { name = \"a\"; fields := struct { nope_t x; }; };",
	    "event { name = \"a\"; context := struct { uint8_t c; };\n fields := struct { nope_t "
	    "x; "
	    "}; };",
	    "event name = \"a\"; };",
	    "event { name = \"a\"; fields := struct { uint8_t x; }; context := integer { size = 8; "
	    "}; };",
	    /* blocks one after the other, read from the raw text or not */
	    "event { name = \"a\"; };event{name=\"b\";id=1;};/**/event { name = c; id = 2; };\n"
	    "event { name = \"d\"; id = 3; };\n event { name = \"e\"; id = 3; };",
	    "event { name = \"a\"; }; event { name = \"b\"; id = 1; }; event x;",
	    "event { name = \"a\"; }; events { name = \"b\"; };",
	    "event { name = \"a\"; }; event",
	    "event { name = \"a\"; }; event {",
	    "event { name = \"a\"; }; /* open",
	    "event { name = \"a\"; }; event { name = \"b\"; id = 1; }; event { id = 2; };",
	    "event { name = \"a\"; }; event { name = \"b\"; stream_id = 1; };",
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text), TRACE_LE U8 STREAM0 "%s\n", bad[i]);
		CHECK_CTX("scan, error: %s", bad[i]);
		CHECK(parse(text) != 0);
	}
}

int main(void)
{
	test_scalars();
	test_enums();
	test_enum_labels();
	test_compound();
	test_blocks();
	test_packetized();
	test_errors();
	test_truncated_texts();
	test_depth();
	test_scopes();
	test_lazy();
	test_int_memo();
	test_scan();
	ctf_meta_free(&meta);
	check_context[0] = '\0';
	return check_done();
}
