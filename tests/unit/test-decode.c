/* SPDX-License-Identifier: MIT */
/*
 * test-decode.c: plans compiled from TSDL (ctf_trace_load_metadata) run by decode_scope over
 * hand-built bytes. Layouts (bit positions after alignment) are worked out by hand in the
 * comments; the bytes are written with a bit writer that follows CTF 1.8 section 4.1.5
 * directly (LE: value LSB first from the low bit of each byte; BE: MSB first from the high
 * bit), and a few are spelled out as literal bytes too.
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "ctf/decode.h"
#include "ctf/stream.h"
#include "ctf/trace.h"
#include "spoor/spoor.h"

static struct ctf_trace *trace;
static char err[400];
static struct bitsrc src;
static struct val_table tab;
static struct decoder dec;
static uint64_t clk;
static const struct ctf_type *cur; /* the payload type of the current event */

static int load(const char *tsdl)
{
	ctf_trace_free(trace);
	trace = calloc(1, sizeof(*trace));
	err[0] = '\0';
	int rc = ctf_trace_load_metadata(trace, tsdl, strlen(tsdl), err, sizeof(err));
	if (!rc)
		rc = ctf_trace_ready_all(trace, err, sizeof(err));
	if (rc)
		printf("  load: %s\n", err);
	return rc;
}

static struct ctf_event_class *event(const char *name)
{
	struct ctf_stream_class *sc = trace->meta.nstreams ? trace->meta.streams[0] : NULL;
	for (unsigned e = 0; sc && e < sc->nevents; e++)
		if (!strcmp(sc->events[e]->name, name))
			return sc->events[e];
	return NULL;
}

static const struct plan *payload(const char *name)
{
	struct ctf_event_class *ec = event(name);
	if (!CHECK(ec && ec->plan))
		return NULL;
	cur = ec->fields;
	return ((const struct event_class_plans *) ec->plan)->payload;
}

static void start(const uint8_t *buf, size_t len, uint64_t pos, uint64_t end_bits)
{
	src = (struct bitsrc){buf, len, pos, end_bits};
	val_table_reset(&tab);
	memset(&dec, 0, sizeof(dec));
	dec.src = &src;
	dec.table = &tab;
	dec.clock = &clk;
}

static const struct val *kid(const struct val *v, unsigned i)
{
	return &tab.v[tab.kids[v->kids + i]];
}

/* A top-level payload field by name. */
static const struct val *fld(const char *name)
{
	int i = ctf_struct_find(cur, name, cur->s.n);
	uint32_t root = dec.scope_root[SPOOR_SCOPE_PAYLOAD];
	if (!CHECK(i >= 0 && root != VAL_NONE)) {
		static const struct val none;
		return &none;
	}
	return kid(&tab.v[root], (unsigned) i);
}

static void put(uint8_t *b, uint64_t pos, unsigned size, uint64_t v, bool be)
{
	for (unsigned i = 0; i < size; i++) {
		uint64_t at = pos + i;
		unsigned bit = (unsigned) (v >> (be ? size - 1 - i : i)) & 1u;
		unsigned sh = be ? 7 - at % 8 : at % 8;
		b[at / 8] = (uint8_t) ((b[at / 8] & ~(1u << sh)) | bit << sh);
	}
}

#define U8  "typealias integer { size = 8; align = 8; } := u8;\n"
#define TXT "integer { size = 8; align = 8; encoding = UTF8; }"

/* Aligned and unaligned integers, in a trace of each byte order; fields without a
 * byte_order take the trace's. */
static void test_integers(void)
{
	static const struct {
		const char *decl;
		unsigned pos, size;
		bool explicit_other; /* byte_order set to the other order */
		bool is_signed;
		uint64_t value;
	} f[] = {
	    {"u8 a;", 0, 8, false, false, 0xAB},
	    {"integer { size = 16; align = 16; } b;", 16, 16, false, false, 0x1234},
	    {"integer { size = 16; align = 16; byte_order = %s; } c;", 32, 16, true, false, 0xBEEF},
	    {"integer { size = 3; align = 1; signed = true; } d;", 48, 3, false, true,
	     (uint64_t) -3},
	    {"integer { size = 13; align = 1; } e;", 51, 13, false, false, 0x1ABC},
	    {"integer { size = 32; align = 32; signed = true; byte_order = %s; } f;", 64, 32, true,
	     true, (uint64_t) -123456789},
	    {"integer { size = 64; align = 8; } g;", 96, 64, false, false, 0x0123456789ABCDEFull},
	    {"integer { size = 5; align = 1; byte_order = %s; } h;", 160, 5, true, false, 0x15},
	    {"integer { size = 11; align = 1; byte_order = %s; } i;", 165, 11, true, false, 0x5A5},
	    {"integer { size = 33; align = 1; signed = true; } j;", 176, 33, false, true,
	     (uint64_t) -4294967296ll},
	    {"u8 k;", 216, 8, false, false, 0x7F},
	};
	const unsigned n = sizeof(f) / sizeof(f[0]);

	for (int trace_be = 0; trace_be < 2; trace_be++) {
		char tsdl[2048], *p = tsdl;
		p += sprintf(p,
		             "trace { major = 1; minor = 8; byte_order = %s; };\n" U8
		             "event { name = \"ints\"; fields := struct {\n",
		             trace_be ? "be" : "le");
		for (unsigned i = 0; i < n; i++) {
			p += sprintf(p, f[i].decl, trace_be ? "le" : "be");
			*p++ = '\n';
		}
		strcpy(p, "}; };\n");
		CHECK_CTX("integers, %s trace", trace_be ? "be" : "le");
		if (!CHECK_EQ_S64(load(tsdl), 0))
			continue;
		const struct plan *pl = payload("ints");
		/* the struct aligns on its largest member (32 bits): start 5 bits in, read from 32
		 */
		for (unsigned shift = 0; shift <= 32; shift += 32) {
			uint8_t buf[40];
			memset(buf, 0xEE, sizeof(buf)); /* padding must not matter */
			for (unsigned i = 0; i < n; i++)
				put(buf, shift + f[i].pos, f[i].size, f[i].value,
				    f[i].explicit_other ? !trace_be : trace_be);
			if (trace_be) { /* b is big-endian here, c little-endian */
				CHECK_EQ_U64(buf[shift / 8 + 2], 0x12);
				CHECK_EQ_U64(buf[shift / 8 + 4], 0xEF);
			} else {
				CHECK_EQ_U64(buf[shift / 8 + 2], 0x34);
				CHECK_EQ_U64(buf[shift / 8 + 4], 0xBE);
			}
			start(buf, sizeof(buf), shift ? 5 : 0, sizeof(buf) * 8);
			if (!CHECK_EQ_S64(decode_scope(&dec, pl, SPOOR_SCOPE_PAYLOAD), 0))
				continue;
			CHECK_EQ_U64(src.pos, shift + 224);
			for (unsigned i = 0; i < n; i++) {
				char name[2] = {(char) ('a' + i), 0};
				CHECK_CTX("integers, %s trace, field %s, shift %u",
				          trace_be ? "be" : "le", name, shift);
				CHECK_EQ_U64(fld(name)->u, f[i].value);
			}
		}
	}
}

static void test_strings(void)
{
	static const uint8_t buf[] = "hi\0\0\x42"
	                             "abc\0\0xyz"
	                             "ABCD"
	                             "\x99"
	                             "tail-no-nul";

	CHECK_CTX("strings and text arrays");
	if (!CHECK_EQ_S64(
	        load("trace { major = 1; minor = 8; byte_order = le; };\n" U8
	             "event { name = \"s\"; fields := struct { string s1; string s2; u8 b;\n" TXT
	             " txt[8]; " TXT " full[4]; u8 tail; }; };\n"
	             "event { name = \"t\"; id = 1; fields := struct { u8 a; string s; }; };\n"),
	        0))
		return;
	const struct plan *pl = payload("s");
	start(buf, sizeof(buf) - 1, 0, (sizeof(buf) - 1) * 8);
	if (CHECK_EQ_S64(decode_scope(&dec, pl, SPOOR_SCOPE_PAYLOAD), 0)) {
		CHECK_STRN(fld("s1")->str, fld("s1")->len, "hi");
		CHECK(fld("s1")->str == (const char *) buf); /* a view into the data */
		CHECK_STRN(fld("s2")->str, fld("s2")->len, "");
		CHECK_EQ_U64(fld("b")->u, 0x42);
		CHECK_STRN(fld("txt")->str, fld("txt")->len, "abc"); /* stops at the first NUL */
		CHECK_STRN(fld("full")->str, fld("full")->len, "ABCD");
		CHECK_EQ_U64(fld("tail")->u, 0x99);
		CHECK_EQ_U64(src.pos, 18 * 8);
	}
	/* a string whose NUL lies beyond the content end (though inside the buffer) */
	static const uint8_t s2[] = "\x01"
	                            "abc\0";
	start(s2, sizeof(s2), 0, 3 * 8);
	CHECK_EQ_S64(decode_scope(&dec, payload("t"), SPOOR_SCOPE_PAYLOAD), -SPOOR_ETRUNCATED);
	CHECK(dec.error != NULL);
	start(buf + 18, 11, 0, 11 * 8); /* "tail-no-nul": no NUL at all */
	CHECK_EQ_S64(decode_scope(&dec, payload("t"), SPOOR_SCOPE_PAYLOAD), -SPOOR_ETRUNCATED);
}

static void test_sequences(void)
{
	CHECK_CTX("sequences");
	if (!CHECK_EQ_S64(
	        load("trace { major = 1; minor = 8; byte_order = le; };\n" U8
	             "typealias integer { size = 16; align = 16; } := u16;\n"
	             "event { name = \"q\"; context := struct { u8 clen; };\n"
	             "  fields := struct { u8 n; u16 seq[n];\n"
	             "    struct { u8 m; u8 inner_seq[n]; u8 own[m]; } nested;\n"
	             "    u8 abs[event.fields.n]; u8 cseq[event.context.clen]; u8 cseq2[clen];\n"
	             "    " TXT " tseq[n]; u8 deep[event.fields.nested.m];\n"
	             "    struct { u8 k; u8 d[k]; u8 o[n]; } items[2]; }; };\n"
	             "event { name = \"z\"; id = 1; fields := struct { u8 z; u16 empty[z]; u8 "
	             "after; }; };\n"
	             "event { name = \"neg\"; id = 2; fields := struct {\n"
	             "  integer { size = 8; align = 8; signed = true; } l; u8 s[l]; }; };\n"
	             "event { name = \"big\"; id = 3; fields := struct { u8 l; u16 s[l]; }; };\n"
	             "event { name = \"bigt\"; id = 4; fields := struct { u8 l; " TXT
	             " s[l]; }; };\n"),
	        0))
		return;
	/* context: clen at byte 0. Payload aligns on 16 bits: n at 2, seq at 4..9, nested.m at
	 * 10, inner_seq 11..13, own 14..15, abs 16..18, cseq 19..20, cseq2 21..22, tseq 23..25,
	 * deep 26..27, items[0] {k 28, d 29, o 30..32}, items[1] {k 33, d 34..35, o 36..38} */
	static const uint8_t buf[] = {2,    0xEE, 3,    0xEE, 10,  0,   20,   0,    30, 0,
	                              2,    7,    8,    9,    100, 101, 1,    2,    3,  0xC0,
	                              0xC1, 0xD0, 0xD1, 'x',  'y', 'z', 0x5A, 0x5B, 1,  0xA,
	                              4,    5,    6,    2,    0xB, 0xC, 7,    8,    9};
	struct ctf_event_class *ec = event("q");
	const struct event_class_plans *ep = ec->plan;
	start(buf, sizeof(buf), 0, sizeof(buf) * 8);
	cur = ec->fields;
	if (!CHECK_EQ_S64(decode_scope(&dec, ep->context, SPOOR_SCOPE_EVENT_CONTEXT), 0) ||
	    !CHECK_EQ_S64(decode_scope(&dec, ep->payload, SPOOR_SCOPE_PAYLOAD), 0))
		return;
	CHECK_EQ_U64(src.pos, sizeof(buf) * 8);
	const struct val *v = fld("seq");
	if (CHECK_EQ_U64(v->len, 3)) {
		CHECK_EQ_U64(kid(v, 0)->u, 10);
		CHECK_EQ_U64(kid(v, 2)->u, 30);
	}
	const struct val *nested = fld("nested"), *in = kid(nested, 1), *own = kid(nested, 2);
	CHECK_EQ_U64(kid(nested, 0)->u, 2);
	if (CHECK_EQ_U64(in->len, 3)) /* length from the outer struct's n */
		CHECK_EQ_U64(kid(in, 2)->u, 9);
	if (CHECK_EQ_U64(own->len, 2)) /* length from its sibling m */
		CHECK_EQ_U64(kid(own, 1)->u, 101);
	if (CHECK_EQ_U64(fld("abs")->len, 3))
		CHECK_EQ_U64(kid(fld("abs"), 2)->u, 3);
	if (CHECK_EQ_U64(fld("cseq")->len, 2))
		CHECK_EQ_U64(kid(fld("cseq"), 1)->u, 0xC1);
	if (CHECK_EQ_U64(fld("cseq2")->len, 2))
		CHECK_EQ_U64(kid(fld("cseq2"), 0)->u, 0xD0);
	CHECK_STRN(fld("tseq")->str, fld("tseq")->len, "xyz");
	if (CHECK_EQ_U64(fld("deep")->len, 2))
		CHECK_EQ_U64(kid(fld("deep"), 1)->u, 0x5B);
	const struct val *it0 = kid(fld("items"), 0), *it1 = kid(fld("items"), 1);
	CHECK(kid(it0, 1)->len == 1 && kid(kid(it0, 1), 0)->u == 0xA);
	CHECK(kid(it1, 1)->len == 2 && kid(kid(it1, 1), 1)->u == 0xC);
	CHECK(kid(it0, 2)->len == 3 && kid(kid(it0, 2), 2)->u == 6);
	CHECK(kid(it1, 2)->len == 3 && kid(kid(it1, 2), 0)->u == 7);

	/* an empty sequence is still aligned: z at 0, padding at 1, after at 2 */
	static const uint8_t zb[] = {0, 0xEE, 119};
	start(zb, sizeof(zb), 0, sizeof(zb) * 8);
	if (CHECK_EQ_S64(decode_scope(&dec, payload("z"), SPOOR_SCOPE_PAYLOAD), 0)) {
		CHECK_EQ_U64(fld("empty")->len, 0);
		CHECK_EQ_U64(fld("after")->u, 119);
	}
	/* lengths beyond the data: an error, no crash, no huge allocation */
	static const uint8_t nb[] = {0xFF, 1, 2, 3};
	start(nb, sizeof(nb), 0, sizeof(nb) * 8);
	CHECK_EQ_S64(decode_scope(&dec, payload("neg"), SPOOR_SCOPE_PAYLOAD), -SPOOR_EDECODE);
	static const uint8_t bb[10] = {200, 0, 1, 0, 2, 0, 3, 0, 4, 0};
	start(bb, sizeof(bb), 0, sizeof(bb) * 8);
	CHECK_EQ_S64(decode_scope(&dec, payload("big"), SPOOR_SCOPE_PAYLOAD), -SPOOR_ETRUNCATED);
	CHECK(dec.error != NULL);
	start(bb, sizeof(bb), 0, sizeof(bb) * 8);
	CHECK_EQ_S64(decode_scope(&dec, payload("bigt"), SPOOR_SCOPE_PAYLOAD), -SPOOR_ETRUNCATED);
	uint8_t four[10]; /* l = 4: the u16s take bytes 2..9 */
	memcpy(four, bb, sizeof(four));
	four[0] = 4;
	start(four, sizeof(four), 0, 9 * 8);
	CHECK_EQ_S64(decode_scope(&dec, payload("big"), SPOOR_SCOPE_PAYLOAD), -SPOOR_ETRUNCATED);
	start(four, sizeof(four), 0, 10 * 8);
	CHECK_EQ_S64(decode_scope(&dec, payload("big"), SPOOR_SCOPE_PAYLOAD), 0);
	/* an integer running past the end (after_empty needs bits 16..24) */
	start(zb, sizeof(zb), 0, 20);
	CHECK_EQ_S64(decode_scope(&dec, payload("z"), SPOOR_SCOPE_PAYLOAD), -SPOOR_ETRUNCATED);
}

static void test_variants(void)
{
	CHECK_CTX("variants");
	if (!CHECK_EQ_S64(
	        load("trace { major = 1; minor = 8; byte_order = le; };\n" U8
	             "event { name = \"v\"; fields := struct {\n"
	             "  enum : integer { size = 3; align = 1; } { INT = 0, STR = 1, DBL = 2, REC = "
	             "3, NONE = 4,"
	             " RANGE = 5 ... 6 } tag;\n"
	             "  variant <tag> { integer { size = 32; align = 32; signed = true; } INT; "
	             "string STR;\n"
	             "    floating_point { exp_dig = 11; mant_dig = 53; align = 64; } DBL;\n"
	             "    struct { u8 n; integer { size = 16; align = 16; } items[n]; } REC; u8 "
	             "_RANGE; } v;\n"
	             "  u8 after; }; };\n"
	             "event { name = \"sv\"; id = 1; fields := struct {\n"
	             "  enum : integer { size = 8; align = 8; signed = true; } { NEG = -10 ... -1, "
	             "POS = 0 ... 10 } t;\n"
	             "  variant <t> { u8 NEG; integer { size = 16; align = 8; } POS; } v; }; };\n"),
	        0))
		return;
	const struct plan *pl = payload("v");
	uint8_t b[24];

	/* INT: tag in bits 0..2, the option aligned on 32 bits: -7 at 4..7, after at 8 */
	memset(b, 0, sizeof(b));
	put(b, 0, 3, 0, false);
	put(b, 32, 32, (uint64_t) -7, false);
	b[8] = 238;
	start(b, sizeof(b), 0, sizeof(b) * 8);
	if (CHECK_EQ_S64(decode_scope(&dec, pl, SPOOR_SCOPE_PAYLOAD), 0)) {
		CHECK_EQ_U64(fld("v")->len, 0); /* option index */
		CHECK_EQ_S64(kid(fld("v"), 0)->s, -7);
		CHECK_EQ_U64(fld("after")->u, 238);
	}
	/* STR at byte 1 */
	memset(b, 0, sizeof(b));
	b[0] = 1;
	memcpy(b + 1, "variant str", 12);
	b[13] = 238;
	start(b, sizeof(b), 0, sizeof(b) * 8);
	if (CHECK_EQ_S64(decode_scope(&dec, pl, SPOOR_SCOPE_PAYLOAD), 0)) {
		CHECK_EQ_U64(fld("v")->len, 1);
		CHECK_STRN(kid(fld("v"), 0)->str, kid(fld("v"), 0)->len, "variant str");
		CHECK_EQ_U64(fld("after")->u, 238);
	}
	/* DBL at 8..15 (0.5 = 0x3FE0000000000000) */
	memset(b, 0, sizeof(b));
	b[0] = 2;
	b[15] = 0x3F;
	b[14] = 0xE0;
	b[16] = 238;
	start(b, sizeof(b), 0, sizeof(b) * 8);
	if (CHECK_EQ_S64(decode_scope(&dec, pl, SPOOR_SCOPE_PAYLOAD), 0)) {
		CHECK_EQ_F64(kid(fld("v"), 0)->f, 0.5);
		CHECK_EQ_U64(fld("after")->u, 238);
	}
	/* REC (aligned on 16): n = 2 at 2, items at 4..7 */
	static const uint8_t rec[] = {3, 0xEE, 2, 0xEE, 100, 0, 200, 0, 238};
	start(rec, sizeof(rec), 0, sizeof(rec) * 8);
	if (CHECK_EQ_S64(decode_scope(&dec, pl, SPOOR_SCOPE_PAYLOAD), 0)) {
		const struct val *r = kid(fld("v"), 0);
		CHECK_EQ_U64(fld("v")->len, 3);
		CHECK_EQ_U64(kid(r, 0)->u, 2);
		if (CHECK_EQ_U64(kid(r, 1)->len, 2))
			CHECK_EQ_U64(kid(kid(r, 1), 1)->u, 200);
		CHECK_EQ_U64(fld("after")->u, 238);
	}
	/* RANGE = 5 ... 6 selects the option named _RANGE (one leading underscore dropped) */
	static const uint8_t rng[] = {6, 0x42, 238};
	start(rng, sizeof(rng), 0, sizeof(rng) * 8);
	if (CHECK_EQ_S64(decode_scope(&dec, pl, SPOOR_SCOPE_PAYLOAD), 0)) {
		CHECK_EQ_U64(fld("v")->len, 4);
		CHECK_EQ_U64(kid(fld("v"), 0)->u, 0x42);
	}
	/* NONE (4): a label without an option; 7: no label at all */
	for (uint8_t tag = 4; tag <= 7; tag += 3) {
		uint8_t nb[8] = {tag, 1, 2, 3, 4, 5, 6, 7};
		start(nb, sizeof(nb), 0, sizeof(nb) * 8);
		CHECK_EQ_S64(decode_scope(&dec, pl, SPOOR_SCOPE_PAYLOAD), -SPOOR_EDECODE);
		CHECK(dec.error != NULL);
	}
	/* a signed tag: -5 is in NEG = -10 ... -1 */
	static const uint8_t sb[] = {0xFB, 0x11, 0x05, 0x22, 0x33};
	start(sb, sizeof(sb), 0, sizeof(sb) * 8);
	if (CHECK_EQ_S64(decode_scope(&dec, payload("sv"), SPOOR_SCOPE_PAYLOAD), 0)) {
		CHECK_EQ_U64(fld("v")->len, 0);
		CHECK_EQ_U64(kid(fld("v"), 0)->u, 0x11);
	}
	start(sb + 2, 3, 0, 24); /* t = 5: POS */
	if (CHECK_EQ_S64(decode_scope(&dec, payload("sv"), SPOOR_SCOPE_PAYLOAD), 0))
		CHECK_EQ_U64(kid(fld("v"), 0)->u, 0x3322);
}

/* CTF 1.8 section 8: an N-bit clock field replaces the low N bits of the clock, adding 2^N
 * when the value is below the current low bits. */
static void test_clock(void)
{
	CHECK_CTX("clock");
	if (!CHECK_EQ_S64(
	        load("trace { major = 1; minor = 8; byte_order = le; };\n"
	             "clock { name = c; };\n"
	             "typealias integer { size = 64; align = 8; map = clock.c.value; } := ts64;\n"
	             "stream { event.header := struct { integer { size = 5; align = 1; } id;\n"
	             "  integer { size = 27; align = 1; map = clock.c.value; } timestamp;\n"
	             "  ts64 full; };\n"
	             "  packet.context := struct { ts64 timestamp_begin; }; };\n"
	             "event { name = \"e\"; id = 7; };\n"),
	        0))
		return;
	const struct stream_class_plans *sp = trace->meta.streams[0]->plan;
	static const struct {
		uint64_t before, value, after;
	} cases[] = {
	    {0x7FFFFF0, 5, 0x8000005},           /* wraps */
	    {0x107FFFFF0ull, 5, 0x108000005ull}, /* wraps, high bits kept */
	    {0x10, 0x20, 0x20},                  /* no wrap */
	    {0x100000005ull, 5, 0x100000005ull}, /* equal: no wrap */
	    {0x3FFFF818, 0x7FFFC7C, 0x3FFFFC7C}, /* SYNTH.md: first event of channel0_0 */
	    {1073741814, 5, 1073741829},         /* SYNTH.md: synth:bases wraps */
	    {0x40000000 - 10, 0x7FFFFFF, 0x3FFFFFFF},
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t b[16] = {0};
		put(b, 0, 5, 7, false);
		put(b, 5, 27, cases[i].value, false);
		start(b, 4, 0, 32); /* the 64-bit `full` is not there: stop after timestamp */
		clk = cases[i].before;
		CHECK_CTX("clock case %u", i);
		CHECK_EQ_S64(decode_scope(&dec, sp->event_header, SPOOR_SCOPE_EVENT_HEADER),
		             -SPOOR_ETRUNCATED);
		CHECK_EQ_U64(clk, cases[i].after);
		CHECK(dec.has_event_id && dec.event_id == 7);
	}
	/* a 64-bit clock field replaces the value */
	static const uint8_t full[12] = {0xA7, 0,    0,    0,    0x88, 0x77,
	                                 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
	start(full, sizeof(full), 0, sizeof(full) * 8);
	clk = 0x7FFFFF0;
	CHECK_CTX("clock, 64 bits");
	if (CHECK_EQ_S64(decode_scope(&dec, sp->event_header, SPOOR_SCOPE_EVENT_HEADER), 0))
		CHECK_EQ_U64(clk, 0x1122334455667788ull);
	/* the packet context's timestamps are the stream reader's business: no clock update */
	start(full + 4, 8, 0, 64);
	clk = 42;
	CHECK_EQ_S64(decode_scope(&dec, sp->packet_context, SPOOR_SCOPE_PACKET_CONTEXT), 0);
	CHECK_EQ_U64(clk, 42);
	CHECK(!sp->event_header->fixed);
}

/* LTTng's compact event header: decode_scope keeps its values like any scope's (decode.h:
 * "appending to d->table; sets scope_root"), so fields of later scopes can refer to it. */
static void test_lttng_header(void)
{
	CHECK_CTX("lttng header");
	if (!CHECK_EQ_S64(
	        load("trace { major = 1; minor = 8; byte_order = le; };\n" U8
	             "clock { name = c; };\n"
	             "typealias integer { size = 27; align = 1; map = clock.c.value; } := ts27;\n"
	             "typealias integer { size = 64; align = 8; map = clock.c.value; } := ts64;\n"
	             "stream { event.header := struct {\n"
	             "  enum : integer { size = 5; align = 1; } { compact = 0 ... 30, extended = "
	             "31 } id;\n"
	             "  variant <id> { struct { ts27 timestamp; } compact;\n"
	             "    struct { integer { size = 32; align = 8; } id; ts64 timestamp; } "
	             "extended; } v;\n"
	             "  } align(8); };\n"
	             "event { name = \"e\"; id = 3; fields := struct { u8 "
	             "s[stream.event.header.id]; }; };\n"),
	        0))
		return;
	const struct stream_class_plans *sp = trace->meta.streams[0]->plan;
	struct ctf_event_class *ec = event("e");
	/* compact: id 3, timestamp 5 (u32 LE = 3 | 5 << 5), then s = {7, 8, 9} */
	static const uint8_t b[] = {0xA3, 0, 0, 0, 7, 8, 9};
	start(b, sizeof(b), 0, sizeof(b) * 8);
	clk = 0x7FFFFF0;
	if (!CHECK_EQ_S64(decode_scope(&dec, sp->event_header, SPOOR_SCOPE_EVENT_HEADER), 0))
		return;
	CHECK(dec.has_event_id && dec.event_id == 3);
	CHECK_EQ_U64(clk, 0x8000005);
	CHECK_EQ_U64(src.pos, 32);
	uint32_t root = dec.scope_root[SPOOR_SCOPE_EVENT_HEADER];
	if (CHECK(root != VAL_NONE && root < tab.n && tab.v[root].len == 2)) {
		CHECK_EQ_U64(kid(&tab.v[root], 0)->u, 3);
		const struct val *v = kid(&tab.v[root], 1);
		CHECK_EQ_U64(v->len, 0); /* option: compact */
		CHECK_EQ_U64(kid(kid(v, 0), 0)->u, 5);
	}
	cur = ec->fields;
	if (CHECK_EQ_S64(decode_scope(&dec, ((const struct event_class_plans *) ec->plan)->payload,
	                              SPOOR_SCOPE_PAYLOAD),
	                 0) &&
	    CHECK_EQ_U64(fld("s")->len, 3))
		CHECK_EQ_U64(kid(fld("s"), 2)->u, 9);
}

/* decode_skip on a fixed layout must land where decoding lands. */
static void test_fixed(void)
{
	CHECK_CTX("fixed layout");
	if (!CHECK_EQ_S64(
	        load("trace { major = 1; minor = 8; byte_order = be; };\n" U8
	             "event { name = \"flat\"; fields := struct { u8 a;\n"
	             "  integer { size = 32; align = 32; } b; integer { size = 16; align = 16; } "
	             "c;\n"
	             "  u8 arr[3]; " TXT " txt[2]; integer { size = 3; align = 1; } bits[5];\n"
	             "  enum : u8 { X = 1 } e; u8 none[0]; }; };\n"
	             "event { name = \"str\"; id = 1; fields := struct { u8 a; string s; }; };\n"
	             "event { name = \"seq\"; id = 2; fields := struct { u8 n; u8 s[n]; }; };\n"),
	        0))
		return;
	const struct plan *pl = payload("flat");
	/* a 0..8, b 32..64, c 64..80, arr 80..104, txt 104..120, bits 120..135, e 136..144 */
	if (CHECK(pl->fixed)) {
		CHECK_EQ_U64(pl->fixed_align, 32);
		CHECK_EQ_U64(pl->fixed_bits, 144);
	}
	CHECK(!payload("str")->fixed);
	CHECK(!payload("seq")->fixed);
	static const char *names[] = {"flat", "str", "seq"};
	uint8_t b[64];
	for (unsigned i = 0; i < sizeof(b); i++)
		b[i] = (uint8_t) (i % 7 + 1); /* no NULs until the end, small lengths */
	b[sizeof(b) - 1] = 0;
	for (unsigned k = 0; k < 3; k++)
		for (uint64_t at = 0; at < 48; at += 5) {
			const struct plan *p = payload(names[k]);
			CHECK_CTX("fixed layout: %s from bit %llu", names[k],
			          (unsigned long long) at);
			start(b, sizeof(b), at, sizeof(b) * 8);
			CHECK_EQ_S64(decode_scope(&dec, p, SPOOR_SCOPE_PAYLOAD), 0);
			uint64_t decoded = src.pos;
			start(b, sizeof(b), at, sizeof(b) * 8);
			CHECK_EQ_S64(decode_skip(&dec, p, SPOOR_SCOPE_PAYLOAD), 0);
			CHECK_EQ_U64(src.pos, decoded);
			if (k == 0)
				CHECK_EQ_U64(decoded, ((at + 31) & ~31ull) + 144);
		}
	CHECK_CTX("fixed layout: truncated");
	start(b, sizeof(b), 0, 100);
	CHECK_EQ_S64(decode_skip(&dec, pl, SPOOR_SCOPE_PAYLOAD), -SPOOR_ETRUNCATED);
}

/* ---- a member after a variable-size one (plan_one_var) ---- */

#define ONE_VAR_TSDL                                                                               \
	U8 "typealias integer { size = 16; align = 8; } := u16;\n"                                 \
	   "typealias integer { size = 32; align = 8; } := u32;\n"                                 \
	   "trace { major = 1; minor = 8; byte_order = le;\n"                                      \
	   "  packet.header := struct { u32 magic; }; };\n"                                        \
	   "typealias integer { size = 32; align = 8; signed = true; } := s32;\n"                  \
	   "stream { packet.context := struct { u32 content_size; u32 packet_size; };\n"           \
	   "  event.header := struct { u8 id; }; };\n"                                             \
	   "event { name = \"seq\"; id = 0; fields := struct {\n"                                  \
	   "  u32 tid; u8 n; s32 v[n]; s32 pid;\n"                                                 \
	   "  u16 more; }; };\n"                                                                   \
	   "event { name = \"str\"; id = 1; fields := struct { string name; u32 flags; u16 mode; " \
	   "}; };\n"                                                                               \
	   "event { name = \"text\"; id = 2; fields := struct { u16 n; " TXT                       \
	   " t[n]; u32 after; }; };\n"                                                             \
	   "event { name = \"neg\"; id = 3; fields := struct {\n"                                  \
	   "  integer { size = 16; align = 8; signed = true; } n; u8 s[n]; u8 after; }; };\n"      \
	   "event { name = \"last\"; id = 4; fields := struct { u8 a; string s; }; };\n"           \
	   "event { name = \"neg8\"; id = 7; fields := struct {\n"                                 \
	   "  integer { size = 8; align = 8; signed = true; } n; u8 s[n]; u8 after; }; };\n"       \
	   "event { name = \"bits\"; id = 5; fields := struct {\n"                                 \
	   "  integer { size = 3; align = 1; } n; u8 s[n]; u8 after; }; };\n"                      \
	   "event { name = \"wide\"; id = 6; fields := struct { u8 n; u8 s[n];\n"                  \
	   "  integer { size = 32; align = 32; } after; }; };\n"

/* What decode_scope makes of payload p in b[0..len) from bit at to end, against the ways
 * around it: decode_skip (one_var's or the skip program's) lands where it lands or fails as
 * it fails, with its message; decode_skip_payload says whether it succeeds; a peek of each
 * root member gives the decoded value, and nothing when a decode fails and the member is past
 * the variable one. */
static void agree(const char *name, const uint8_t *b, size_t len, uint64_t at, uint64_t end)
{
	const struct plan *p = payload(name);
	if (!p)
		return;
	start(b, len, at, end);
	int rc = decode_scope(&dec, p, SPOOR_SCOPE_PAYLOAD);
	uint64_t decoded = src.pos, root = dec.scope_root[SPOOR_SCOPE_PAYLOAD];
	const char *why = dec.error;
	CHECK_CTX("one var: %s from bit %llu to %llu (decode: %d)", name, (unsigned long long) at,
	          (unsigned long long) end, rc);
	start(b, len, at, end);
	CHECK_EQ_S64(decode_skip(&dec, p, SPOOR_SCOPE_PAYLOAD), rc);
	CHECK_EQ_U64(src.pos, decoded);
	if (rc)
		CHECK_STR(dec.error, why);
	start(b, len, at, end);
	uint64_t pos = at;
	CHECK_EQ_U64(decode_skip_payload(&dec, p, &pos), rc == 0);
	CHECK_EQ_U64(pos, rc ? at : decoded);
	for (uint32_t i = 0; i < p->ops[0].arg; i++) {
		struct val v;
		int code = -1;
		start(b, len, at, end);
		bool peeked = decode_peek_member(&dec, p, at, (int) i, &v, &code);
		bool after = p->has_one_var && i >= p->one_var.first_tail;
		if (rc) {
			if (after)
				CHECK(!peeked);
			continue;
		}
		/* decode again for the values: the peeks reset the table */
		start(b, len, at, end);
		decode_scope(&dec, p, SPOOR_SCOPE_PAYLOAD);
		const struct val *want = kid(&tab.v[root], i);
		if (p->ops[p->skip_members[i].op].code == OP_INT && CHECK(peeked)) {
			CHECK_EQ_S64(code, OP_INT);
			CHECK_EQ_U64(v.u, want->u);
		}
	}
}

/* agree() at every content end up to len bytes, from a byte-aligned start and from one a few
 * bits in (the root aligns on a byte: the first member moves to the next one). */
static void agree_all(const char *name, const uint8_t *b, size_t len)
{
	for (uint64_t at = 0; at <= 3; at += 3)
		for (uint64_t end = at; end <= len * 8; end++)
			agree(name, b, len, at, end);
}

static void test_one_var(void)
{
	CHECK_CTX("one var");
	if (!CHECK_EQ_S64(load(ONE_VAR_TSDL), 0))
		return;
	static const char *shaped[] = {"seq", "str", "text", "neg", "last", "neg8"};
	for (unsigned i = 0; i < 6; i++) {
		CHECK_CTX("one var: %s", shaped[i]);
		CHECK(payload(shaped[i])->has_one_var);
	}
	/* a length of 3 bits, a tail aligned past a byte: the skip program's */
	CHECK(payload("bits")->skip && !payload("bits")->has_one_var);
	CHECK(payload("wide")->skip && !payload("wide")->has_one_var);
	const struct plan *seq = payload("seq");
	CHECK_EQ_U64(seq->one_var.first_tail, 3);
	CHECK_EQ_U64(seq->one_var.var_bit, 40);

	/* seq: tid 0x11223344, n 2, v {-1, 7}, pid -5, more 0xBEEF; then padding */
	uint8_t b[64] = {0x44, 0x33, 0x22, 0x11, 2,    0xFF, 0xFF, 0xFF, 0xFF, 7,   0,
	                 0,    0,    0xFB, 0xFF, 0xFF, 0xFF, 0xEF, 0xBE, 0xAA, 0xAA};
	struct val v;
	int code;
	start(b, 21, 0, 21 * 8);
	if (CHECK(decode_peek_skip(&dec, seq, 0, 3, &v, &code))) {
		CHECK_EQ_S64(code, OP_INT);
		CHECK_EQ_S64(v.s, -5);
	}
	if (CHECK(decode_peek_member(&dec, seq, 0, 4, &v, &code)))
		CHECK_EQ_U64(v.u, 0xBEEF);
	CHECK_EQ_S64(decode_skip(&dec, seq, SPOOR_SCOPE_PAYLOAD), 0);
	CHECK_EQ_U64(src.pos, 19 * 8);
	agree_all("seq", b, 21);
	b[4] = 0; /* empty */
	agree_all("seq", b, 21);
	b[4] = 200; /* past the end of the data */
	agree_all("seq", b, 21);

	/* str: "ab", flags 9, mode 0x1234; then "ab" with no NUL before the end */
	static const uint8_t str[] = {'a', 'b', 0, 9, 0, 0, 0, 0x34, 0x12, 'x'};
	agree_all("str", str, sizeof(str));
	static const uint8_t nonul[] = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'};
	agree_all("str", nonul, sizeof(nonul));
	agree_all("last", str, sizeof(str));

	/* text: n 3, "xyz", after 0xCAFE; then n 0xFFFF */
	uint8_t text[] = {3, 0, 'x', 'y', 'z', 0xFE, 0xCA, 0, 0, 0};
	agree_all("text", text, sizeof(text));
	text[0] = text[1] = 0xFF;
	agree_all("text", text, sizeof(text));

	/* neg: n 2, s {5, 6}, after 7; then n -1 (a decode error of its own) */
	uint8_t neg[] = {2, 0, 5, 6, 7, 0};
	agree_all("neg", neg, sizeof(neg));
	neg[0] = neg[1] = 0xFF;
	agree_all("neg", neg, sizeof(neg));
	start(neg, sizeof(neg), 0, sizeof(neg) * 8);
	CHECK_EQ_S64(decode_skip(&dec, payload("neg"), SPOOR_SCOPE_PAYLOAD), -SPOOR_EDECODE);
	CHECK_STR(dec.error, "negative sequence length");
	/* -1, whose 255 bytes as unsigned would be there */
	static uint8_t neg8[300] = {0xFF};
	for (uint64_t end = 0; end <= sizeof(neg8) * 8; end += 8)
		agree("neg8", neg8, sizeof(neg8), 0, end);

	/* the shapes the skip program keeps */
	uint8_t bits[] = {2, 5, 6, 7, 0, 0, 0, 0, 0xD, 0xC, 0xB, 0xA, 0};
	agree_all("bits", bits, sizeof(bits));
	agree_all("wide", bits, sizeof(bits));

	/* a value table near its limit: no answer once the decode could fail (2 values per
	 * member and element, and 32 to spare), as the skip program's */
	const struct {
		const char *name;
		uint8_t *b;
		size_t len;
		uint32_t values; /* 2 * (members + elements) + 32 */
		int peek;
	} limit[] = {{"seq", b, 21, 2 * (5 + 2) + 32, 3},
	             {"bits", bits, sizeof(bits), 2 * (3 + 2) + 32, 2}};
	b[4] = 2;
	for (unsigned k = 0; k < 2; k++)
		for (uint32_t spare = 0; spare < 2; spare++) {
			const struct plan *p = payload(limit[k].name);
			uint64_t pos = 0;
			CHECK_CTX("one var: %s, %u values short of the limit", limit[k].name,
			          spare);
			start(limit[k].b, limit[k].len, 0, limit[k].len * 8);
			tab.n = DECODE_MAX_VALS - limit[k].values + 1 - spare;
			CHECK_EQ_U64(decode_skip_payload(&dec, p, &pos), spare);
			CHECK_EQ_U64(decode_peek_member(&dec, p, 0, limit[k].peek, &v, &code),
			             spare);
			tab.n = 0;
		}
}

/* ---- the same through the stream reader, on a stream file ---- */

struct file {
	uint8_t b[512];
	size_t n;
};

static void put_le(struct file *f, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		f->b[f->n++] = (uint8_t) (v >> 8 * i);
}

static void put_seq_event(struct file *f, uint8_t n, int32_t pid)
{
	put_le(f, 0, 1); /* id */
	put_le(f, 100 + n, 4);
	put_le(f, n, 1);
	for (unsigned k = 0; k < n && k < 4; k++)
		put_le(f, k, 4);
	put_le(f, (uint32_t) pid, 4);
	put_le(f, 0xBEEF, 2);
}

/* One packet: a seq event, a str event, a seq event nobody reads, then what `last` puts; the
 * content ends `cut` bytes before the packet does. Returns where the last event starts. */
static size_t write_stream(const char *path, void (*last)(struct file *), size_t cut)
{
	struct file f = {.n = 0};
	put_le(&f, 0xC1FC1FC1, 4);
	put_le(&f, 0, 8); /* sizes, below */
	put_seq_event(&f, 2, -5);
	put_le(&f, 1, 1);
	memcpy(f.b + f.n, "open\0", 5);
	f.n += 5;
	put_le(&f, 9, 4);
	put_le(&f, 0x1234, 2);
	put_seq_event(&f, 1, 77);
	size_t last_at = f.n;
	last(&f);
	uint32_t bits = (uint32_t) (f.n * 8);
	memcpy(f.b + 4, &(uint32_t){bits - (uint32_t) cut * 8}, 4);
	memcpy(f.b + 8, &bits, 4);
	FILE *out = fopen(path, "wb");
	if (CHECK(out != NULL)) {
		fwrite(f.b, 1, f.n, out);
		fclose(out);
	}
	return last_at;
}

static void last_long_seq(struct file *f)
{
	put_le(f, 0, 1);
	put_le(f, 5, 4);
	put_le(f, 200, 1); /* 800 bytes of sequence: past the packet */
	put_le(f, 1, 4);
}

static void last_open_string(struct file *f)
{
	put_le(f, 1, 1);
	memcpy(f->b + f->n, "no-nul", 6);
	f->n += 6;
}

static void last_cut_tail(struct file *f)
{
	put_seq_event(f, 1, 3); /* the content ends inside pid (cut 4 bytes) */
}

/* Read the file: peeking the tail's members (decode false) or decoding each payload (true);
 * the events seen and the damage report. */
static unsigned read_stream(const char *path, bool decode, char *error, size_t errlen)
{
	struct ctf_stream s;
	unsigned n = 0;
	int rc;

	if (!CHECK_EQ_S64(ctf_stream_open(&s, trace, path, 0), 0))
		return 0;
	while ((rc = ctf_stream_next(&s)) > 0) {
		struct val v;
		int code;
		bool str = !strcmp(s.ec->name, "str");
		n++;
		if (decode) {
			if (ctf_stream_decode(&s, SPOOR_SCOPE_PAYLOAD) < 0)
				break;
			continue;
		}
		/* the third event is stepped over unread; the last ones are damaged */
		bool peeked = ctf_stream_peek_op(&s, SPOOR_SCOPE_PAYLOAD, str ? 1 : 3, &v, &code);
		if (n == 1 && CHECK(peeked))
			CHECK_EQ_S64(v.s, -5);
		if (n == 2 && CHECK(peeked))
			CHECK_EQ_U64(v.u, 9);
		if (n == 4)
			CHECK(!peeked);
		if (n == 2 && CHECK(ctf_stream_peek_op(&s, SPOOR_SCOPE_PAYLOAD, 2, &v, &code)))
			CHECK_EQ_U64(v.u, 0x1234);
	}
	snprintf(error, errlen, "%s", s.error);
	ctf_stream_close(&s);
	return n;
}

static void test_stream_one_var(void)
{
	static const struct {
		void (*last)(struct file *);
		size_t cut, at; /* content cut short by; the failure's offset in the last event */
		const char *what;
	} cases[] = {
	    {last_long_seq, 0, 6, "array or sequence longer than the data left"},
	    {last_open_string, 0, 1, "string without its terminating NUL"},
	    {last_cut_tail, 4, 10, "integer runs past the packet content"},
	};
	char dir[] = "/tmp/spoor-test-decode.XXXXXX", path[64];

	CHECK_CTX("stream one var");
	if (!CHECK(mkdtemp(dir) != NULL) || !CHECK_EQ_S64(load(ONE_VAR_TSDL), 0))
		return;
	snprintf(path, sizeof(path), "%s/stream", dir);
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		char peeked[320], decoded[320], want[400];
		CHECK_CTX("stream one var: case %u", c);
		size_t last = write_stream(path, cases[c].last, cases[c].cut);
		snprintf(want, sizeof(want), "%s: offset %zu: %s", path, last + cases[c].at,
		         cases[c].what);
		CHECK_EQ_U64(read_stream(path, false, peeked, sizeof(peeked)), 4);
		CHECK_EQ_U64(read_stream(path, true, decoded, sizeof(decoded)), 4);
		CHECK_STR(peeked, want);
		CHECK_STR(decoded, want);
	}
	unlink(path);
	rmdir(dir);
}

/* References that do not resolve are metadata errors, found when plans are compiled. */
static void test_plan_errors(void)
{
	static const char *bad[] = {
	    "fields := struct { u8 s[nope]; };",
	    "fields := struct { string l; u8 s[l]; };",
	    "fields := struct { u8 t; variant <t> { u8 a; } v; };",
	    "fields := struct { variant <missing> { u8 a; } v; };",
	    "fields := struct { u8 s[event.context.x]; };",
	    "fields := struct { u8 s[later]; u8 later; };",
	};
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char tsdl[512];
		snprintf(tsdl, sizeof(tsdl),
		         "trace { major = 1; minor = 8; byte_order = le; };\n" U8
		         "event { name = \"bad%u\"; %s };\n",
		         i, bad[i]);
		CHECK_CTX("plan error: %s", bad[i]);
		ctf_trace_free(trace);
		trace = calloc(1, sizeof(*trace));
		err[0] = '\0';
		/* the plans of an event class are compiled when it is first needed */
		CHECK_EQ_S64(ctf_trace_load_metadata(trace, tsdl, strlen(tsdl), err, sizeof(err)),
		             0);
		CHECK_EQ_S64(ctf_trace_ready_all(trace, err, sizeof(err)), -SPOOR_EMETA_SEMANTIC);
		char name[16];
		snprintf(name, sizeof(name), "bad%u", i);
		if (!CHECK(strstr(err, name) != NULL))
			printf("  message: %s\n", err);
	}
}

int main(void)
{
	test_integers();
	test_strings();
	test_sequences();
	test_variants();
	test_clock();
	test_lttng_header();
	test_fixed();
	test_one_var();
	test_stream_one_var();
	test_plan_errors();
	ctf_trace_free(trace);
	val_table_free(&tab);
	check_context[0] = '\0';
	return check_done();
}
