/* SPDX-License-Identifier: MIT */
/*
 * fuzz-packets.c: libFuzzer target for stream (packet and event) decoding.
 *
 * The metadata is fixed (below, an LTTng-like trace: packet header with magic, uuid and
 * stream_id; LTTng packet context; the compact and large event headers; event classes
 * covering integers, bit-fields, floats, enums, strings, text arrays, arrays, sequences,
 * variants, nested and aligned structs, fixed and variable payloads, members after a sequence
 * or a string, event contexts and references across scopes). The fuzz input is the one stream file
 * of that trace. It is written to a per-process temporary directory (the same path for every input)
 * and read:
 *
 *   1. with the internal stream API, decoding every scope of every event
 *      (ctf_stream_next + ctf_stream_decode(SPOOR_SCOPE_PAYLOAD));
 *   2. again with the internal API, decoding nothing, so that every event is skipped
 *      (decode_skip, fixed layouts). Both passes must deliver the same number of events
 *      and agree on whether the stream is damaged: a difference aborts (it would make
 *      `spoor stats` and `spoor dump` disagree). In both, every event's time must lie
 *      within its packet's bounds and not before the event ahead of it (anything else is
 *      damage, never delivered);
 *   3. when the stream has events, with the public reader (spoor_reader_open on the
 *      directory), printing every event with the babeltrace2-style and the text formatters
 *      (to /dev/null) and walking every field with spoor_event_field_at() and
 *      spoor_field_child(). The reader must deliver as many events as the stream API;
 *   4. then with the classes of even index passed over (reader_pass_over, as the analyses
 *      do): it must deliver exactly the events of odd index that pass 3 delivered.
 *
 * The seeds in corpus/packets/ are written by make-packet-seeds.py, which reads the
 * metadata from this file (between the BEGIN/END METADATA markers): keep both in step.
 *
 * SPOOR_FUZZ_VERBOSE=1 prints the events (babeltrace2 format) to stdout and the reader's
 * warnings to stderr, e.g. to check a seed:  SPOOR_FUZZ_VERBOSE=1 ./fuzz-packets SEED
 *
 * The fuzz build links with -Wl,--wrap=mapfile_open,--wrap=mapfile_close (see meson.build
 * and fuzz-trace-dir.h): the stream file is then held in a malloc'd buffer of exactly its
 * size instead of an mmap'd one, so that AddressSanitizer sees any read past the end of the
 * file (an mmap'd file stays readable, as zeros, up to the end of its last page).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctf/stream.h"
#include "ctf/trace.h"
#include "reader/reader.h"
#include "spoor/trace.h"

#define FUZZ_NAME "fuzz-packets"
#include "fuzz-trace-dir.h"

/* BEGIN METADATA */
static const char metadata_text[] =
    "/* CTF 1.8 */\n"
    "\n"
    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
    "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
    "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
    "typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n"
    "\n"
    "trace {\n"
    "\tmajor = 1;\n"
    "\tminor = 8;\n"
    "\tuuid = \"5f0dd3a1-7c2e-4b8a-9d61-0a1b2c3d4e5f\";\n"
    "\tbyte_order = le;\n"
    "\tpacket.header := struct {\n"
    "\t\tuint32_t magic;\n"
    "\t\tuint8_t  uuid[16];\n"
    "\t\tuint32_t stream_id;\n"
    "\t};\n"
    "};\n"
    "\n"
    "env {\n"
    "\tdomain = \"ust\";\n"
    "\ttracer_name = \"lttng-ust\";\n"
    "\ttracer_major = 2;\n"
    "\ttracer_minor = 13;\n"
    "\thostname = \"fuzz-host\";\n"
    "};\n"
    "\n"
    "clock {\n"
    "\tname = \"monotonic\";\n"
    "\tuuid = \"0c1d2e3f-4a5b-4c6d-8e7f-8091a2b3c4d5\";\n"
    "\tdescription = \"Monotonic Clock\";\n"
    "\tfreq = 1000000000; /* Frequency, in Hz */\n"
    "\toffset = 1700000000123456789;\n"
    "};\n"
    "\n"
    "clock {\n"
    "\tname = \"slow\";\n"
    "\tdescription = \"A 32768 Hz clock\";\n"
    "\tfreq = 32768;\n"
    "\toffset_s = 1700000000;\n"
    "\toffset = 100;\n"
    "\tabsolute = TRUE;\n"
    "};\n"
    "\n"
    "typealias integer {\n"
    "\tsize = 27; align = 1; signed = false;\n"
    "\tmap = clock.monotonic.value;\n"
    "} := uint27_clock_monotonic_t;\n"
    "\n"
    "typealias integer {\n"
    "\tsize = 64; align = 8; signed = false;\n"
    "\tmap = clock.monotonic.value;\n"
    "} := uint64_clock_monotonic_t;\n"
    "\n"
    "typealias integer {\n"
    "\tsize = 32; align = 8; signed = false;\n"
    "\tmap = clock.slow.value;\n"
    "} := uint32_clock_slow_t;\n"
    "\n"
    "typealias integer {\n"
    "\tsize = 64; align = 8; signed = false;\n"
    "\tmap = clock.slow.value;\n"
    "} := uint64_clock_slow_t;\n"
    "\n"
    "struct packet_context {\n"
    "\tuint64_clock_monotonic_t timestamp_begin;\n"
    "\tuint64_clock_monotonic_t timestamp_end;\n"
    "\tuint64_t content_size;\n"
    "\tuint64_t packet_size;\n"
    "\tunsigned long events_discarded;\n"
    "\tuint32_t cpu_id;\n"
    "};\n"
    "\n"
    "struct event_header_compact {\n"
    "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
    "\tvariant <id> {\n"
    "\t\tstruct {\n"
    "\t\t\tuint27_clock_monotonic_t timestamp;\n"
    "\t\t} compact;\n"
    "\t\tstruct {\n"
    "\t\t\tuint32_t id;\n"
    "\t\t\tuint64_clock_monotonic_t timestamp;\n"
    "\t\t} extended;\n"
    "\t} v;\n"
    "} align(8);\n"
    "\n"
    "struct event_header_large {\n"
    "\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
    "\tvariant <id> {\n"
    "\t\tstruct {\n"
    "\t\t\tuint32_clock_slow_t timestamp;\n"
    "\t\t} compact;\n"
    "\t\tstruct {\n"
    "\t\t\tuint32_t id;\n"
    "\t\t\tuint64_clock_slow_t timestamp;\n"
    "\t\t} extended;\n"
    "\t} v;\n"
    "} align(8);\n"
    "\n"
    "typedef integer { size = 8; align = 8; signed = false; } row3_t[3];\n"
    "\n"
    "stream {\n"
    "\tid = 0;\n"
    "\tevent.header := struct event_header_compact;\n"
    "\tpacket.context := struct packet_context;\n"
    "\tevent.context := struct {\n"
    "\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _vtid;\n"
    "\t};\n"
    "};\n"
    "\n"
    "stream {\n"
    "\tid = 1;\n"
    "\tevent.header := struct event_header_large;\n"
    "\tpacket.context := struct {\n"
    "\t\tuint64_clock_slow_t timestamp_begin;\n"
    "\t\tuint64_clock_slow_t timestamp_end;\n"
    "\t\tuint64_t content_size;\n"
    "\t\tuint64_t packet_size;\n"
    "\t\tuint64_t packet_seq_num;\n"
    "\t\tuint16_t events_discarded;\n"
    "\t\tuint32_t cpu_id;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:ints\";\n"
    "\tid = 0;\n"
    "\tstream_id = 0;\n"
    "\tloglevel = 13;\n"
    "\tfields := struct {\n"
    "\t\tinteger { size = 8; align = 8; signed = 1; } i8;\n"
    "\t\tinteger { size = 8; align = 8; signed = 0; } u8;\n"
    "\t\tinteger { size = 16; align = 16; signed = 1; } i16;\n"
    "\t\tinteger { size = 16; align = 16; signed = 0; } u16;\n"
    "\t\tinteger { size = 32; align = 32; signed = 1; } i32;\n"
    "\t\tinteger { size = 32; align = 32; signed = 0; } u32;\n"
    "\t\tinteger { size = 64; align = 64; signed = 1; } i64;\n"
    "\t\tinteger { size = 64; align = 64; signed = 0; } u64;\n"
    "\t\tinteger { size = 32; align = 8; signed = 0; byte_order = be; } net32;\n"
    "\t\tinteger { size = 64; align = 8; signed = 1; byte_order = network; base = 16; } "
    "net_hex64;\n"
    "\t\tinteger { size = 16; align = 8; signed = 0; base = 8; } oct16;\n"
    "\t\tinteger { size = 8; align = 8; signed = 0; base = 2; } bin8;\n"
    "\t\tinteger { size = 32; align = 8; signed = 1; base = 16; } hex_neg;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:bitfields\";\n"
    "\tid = 1;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tinteger { size = 1; align = 1; signed = false; } b_u1;\n"
    "\t\tinteger { size = 3; align = 1; signed = true; } b_s3;\n"
    "\t\tinteger { size = 5; align = 1; signed = false; } b_u5;\n"
    "\t\tinteger { size = 13; align = 1; signed = true; base = 16; } b_s13;\n"
    "\t\tinteger { size = 27; align = 1; signed = false; } b_u27;\n"
    "\t\tinteger { size = 33; align = 1; signed = true; } b_s33;\n"
    "\t\tinteger { size = 64; align = 1; signed = false; } b_u64;\n"
    "\t\tinteger { size = 64; align = 1; signed = true; } b_s64;\n"
    "\t\tinteger { size = 7; align = 1; signed = false; base = 2; } b_u7;\n"
    "\t\tuint8_t after;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:floats\";\n"
    "\tid = 2;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tfloating_point { exp_dig = 8; mant_dig = 24; align = 32; } f32;\n"
    "\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 64; } f64;\n"
    "\t\tinteger { size = 3; align = 1; signed = false; } pad3;\n"
    "\t\tfloating_point { exp_dig = 8; mant_dig = 24; align = 1; } f32_packed;\n"
    "\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 1; } f64_packed;\n"
    "\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 8; byte_order = be; } f64_be;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:enums\";\n"
    "\tid = 3;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tenum : uint8_t { ZERO = 0, ONE_TO_TEN = 1 ... 10, \"with space\" = 42, LAST = 255 } "
    "e_u8;\n"
    "\t\tenum : integer { size = 16; align = 16; signed = true; } { NEG = -100 ... -1, ZERO = 0, "
    "POS = 1 ... 100 } e_s16;\n"
    "\t\tenum : integer { size = 3; align = 1; signed = false; } { RED, GREEN, BLUE = 4, LAST } "
    "e_bits;\n"
    "\t\tenum : integer { size = 64; align = 8; signed = false; } { HUGE = 18446744073709551615 } "
    "e_u64;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:strings\";\n"
    "\tid = 4;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tstring s_first;\n"
    "\t\tinteger { size = 3; align = 1; signed = false; } bits3;\n"
    "\t\tstring { encoding = ASCII; } s_second;\n"
    "\t\tuint8_t after;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:arrays\";\n"
    "\tid = 5;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; } a_text[8];\n"
    "\t\tinteger { size = 16; align = 16; signed = false; } a_u16[4];\n"
    "\t\tinteger { size = 3; align = 1; signed = false; } a_bits[5];\n"
    "\t\trow3_t a_2d[2];\n"
    "\t\tinteger { size = 8; align = 8; signed = false; base = 16; } a_hex[2];\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:sequences\";\n"
    "\tid = 6;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tuint8_t len;\n"
    "\t\tinteger { size = 32; align = 32; signed = false; } seq_u32[len];\n"
    "\t\tuint16_t tlen;\n"
    "\t\tinteger { size = 8; align = 8; signed = 0; encoding = UTF8; } seq_text[tlen];\n"
    "\t\tinteger { size = 3; align = 1; signed = false; } slen;\n"
    "\t\tstring seq_str[slen];\n"
    "\t\tstruct { uint8_t a; integer { size = 16; align = 16; signed = true; } b; } "
    "seq_struct[len];\n"
    "\t\tinteger { size = 5; align = 1; signed = false; } seq_bits[event.fields.len];\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:variant\";\n"
    "\tid = 7;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tenum : integer { size = 3; align = 1; signed = false; } { INT = 0, STR = 1, DBL = 2, REC "
    "= 3 } tag;\n"
    "\t\tvariant <tag> {\n"
    "\t\t\tinteger { size = 32; align = 32; signed = true; } INT;\n"
    "\t\t\tstring STR;\n"
    "\t\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 64; } DBL;\n"
    "\t\t\tstruct {\n"
    "\t\t\t\tuint8_t n;\n"
    "\t\t\t\tinteger { size = 16; align = 16; signed = false; } items[n];\n"
    "\t\t\t} REC;\n"
    "\t\t} v;\n"
    "\t\tuint8_t after;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:nested\";\n"
    "\tid = 8;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tstruct {\n"
    "\t\t\tinteger { size = 16; align = 16; signed = false; } a;\n"
    "\t\t\tstruct {\n"
    "\t\t\t\tinteger { size = 32; align = 32; signed = true; } b;\n"
    "\t\t\t\tuint8_t c[2];\n"
    "\t\t\t} inner;\n"
    "\t\t} outer;\n"
    "\t\tstruct { uint8_t x; } align(64) aligned;\n"
    "\t\tuint8_t tail;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:empty\";\n"
    "\tid = 9;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct { };\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:context\";\n"
    "\tid = 10;\n"
    "\tstream_id = 0;\n"
    "\tcontext := struct {\n"
    "\t\tuint32_t ctx_a;\n"
    "\t\tstring ctx_s;\n"
    "\t\tuint8_t n;\n"
    "\t};\n"
    "\tfields := struct {\n"
    "\t\tuint8_t x;\n"
    "\t\tuint16_t vals[event.context.n];\n"
    "\t\tenum : uint8_t { NUM = 0, TEXT = 1 } sel;\n"
    "\t\tvariant <sel> {\n"
    "\t\t\tuint32_t NUM;\n"
    "\t\t\tstring TEXT;\n"
    "\t\t} choice;\n"
    "\t\tinteger { size = 32; align = 8; signed = 1; } per_cpu[stream.packet.context.cpu_id];\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:seq_tail\";\n"
    "\tid = 11;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tuint32_t tid;\n"
    "\t\tuint8_t n;\n"
    "\t\tinteger { size = 32; align = 8; signed = 1; } vals[n];\n"
    "\t\tinteger { size = 32; align = 8; signed = 1; } pid;\n"
    "\t\tuint16_t more;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:str_tail\";\n"
    "\tid = 12;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tstring name;\n"
    "\t\tuint32_t flags;\n"
    "\t\tuint16_t mode;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:text_tail\";\n"
    "\tid = 13;\n"
    "\tstream_id = 0;\n"
    "\tfields := struct {\n"
    "\t\tuint16_t n;\n"
    "\t\tinteger { size = 8; align = 8; signed = 0; encoding = UTF8; } t[n];\n"
    "\t\tuint32_t after;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"fuzz:big_id\";\n"
    "\tid = 40;\n"
    "\tstream_id = 0;\n"
    "\tmodel.emf.uri = \"http://example.com/fuzz\";\n"
    "\tfields := struct {\n"
    "\t\tuint64_t val;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"slow:msg\";\n"
    "\tid = 0;\n"
    "\tstream_id = 1;\n"
    "\tfields := struct {\n"
    "\t\tstring msg;\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"slow:blob\";\n"
    "\tid = 1;\n"
    "\tstream_id = 1;\n"
    "\tfields := struct {\n"
    "\t\tuint32_t len;\n"
    "\t\tuint8_t data[len];\n"
    "\t};\n"
    "};\n"
    "\n"
    "event {\n"
    "\tname = \"slow:far\";\n"
    "\tid = 100000;\n"
    "\tstream_id = 1;\n"
    "\tfields := struct {\n"
    "\t\tinteger { size = 64; align = 64; signed = true; } v;\n"
    "\t};\n"
    "};\n";
/* END METADATA */

/* ---- set-up, once per process ---- */

static struct ctf_trace *trace;
static int out_fd = -1, null_fd = -1;
static bool verbose, after_damage;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[512] = "";

	verbose = getenv("SPOOR_FUZZ_VERBOSE") && *getenv("SPOOR_FUZZ_VERBOSE") == '1';
	/* keep using an event after damage unless told not to (SPOOR_FUZZ_AFTER_DAMAGE=0) */
	after_damage =
	    !(getenv("SPOOR_FUZZ_AFTER_DAMAGE") && *getenv("SPOOR_FUZZ_AFTER_DAMAGE") == '0');
	trace_dir_init(metadata_text, sizeof(metadata_text) - 1);

	trace = calloc(1, sizeof(*trace));
	if (!trace)
		die("calloc");
	if (ctf_trace_load_metadata(trace, metadata_text, sizeof(metadata_text) - 1, err,
	                            sizeof(err))) {
		fprintf(stderr, "fuzz-packets: the embedded metadata does not load: %s\n", err);
		abort();
	}
	null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null_fd < 0)
		die("/dev/null");
	out_fd = verbose ? STDOUT_FILENO : null_fd;
	return 0;
}

/* ---- 1 and 2: the internal stream API ---- */

struct pass_result {
	uint64_t events;
	bool damaged;
};

static struct pass_result stream_pass(bool decode)
{
	struct ctf_stream s;
	struct pass_result res = {0, false};
	int rc;

	if (ctf_stream_open(&s, trace, stream_path, 0) == 0) {
		uint64_t last = 0;
		while ((rc = ctf_stream_next(&s)) > 0) {
			/* a time out of order is damage: none is delivered */
			if (s.ts_cycles < last || s.ts_cycles < s.clock_min ||
			    s.ts_cycles > s.clock_max) {
				fprintf(stderr,
				        "fuzz-packets: event %llu at %llu cycles, after %llu, its "
				        "packet's bounds [%llu, %llu]\n",
				        (unsigned long long) res.events,
				        (unsigned long long) s.ts_cycles, (unsigned long long) last,
				        (unsigned long long) s.clock_min,
				        (unsigned long long) s.clock_max);
				abort();
			}
			last = s.ts_cycles;
			res.events++;
			if (decode && ctf_stream_decode(&s, SPOOR_SCOPE_PAYLOAD) < 0)
				break;
		}
	}
	res.damaged = s.damaged;
	ctf_stream_close(&s);
	return res;
}

/* ---- 3: the public reader, formatters and field accessors ---- */

static volatile uint64_t sink;
static unsigned long budget; /* fields left to visit for this input */

static void walk(const struct spoor_field *f, int depth)
{
	struct spoor_field child;

	if (!budget || depth > 64)
		return;
	budget--;
	if (f->name)
		sink += (unsigned char) f->name[0];
	if (f->label)
		sink += (unsigned char) f->label[0];
	switch (f->kind) {
	case SPOOR_FIELD_SIGNED:
	case SPOOR_FIELD_UNSIGNED: sink += f->v.u; break;
	case SPOOR_FIELD_FLOAT: sink += (uint64_t) (f->v.f != f->v.f); break;
	case SPOOR_FIELD_STRING:
		/* Touch every byte: AddressSanitizer checks the view is inside the data. */
		for (size_t i = 0; i < f->v.str.len; i++)
			sink += (unsigned char) f->v.str.ptr[i];
		break;
	case SPOOR_FIELD_STRUCT:
	case SPOOR_FIELD_ARRAY:
	case SPOOR_FIELD_VARIANT:
		for (uint32_t i = 0; i < f->count && budget; i++)
			if (spoor_field_child(f, i, &child))
				walk(&child, depth + 1);
		/* Out of range: must say no, not read out of bounds. */
		if (spoor_field_child(f, f->count, &child))
			abort();
		break;
	default: break;
	}
}

static void on_warning(void *data, const char *message)
{
	if (verbose)
		fprintf(stderr, "warning: %s\n", message);
}

/*
 * An event stays usable after its data turned out damaged, until the next
 * spoor_reader_next() (a bug once: tests/fuzz/corpus/packets/regress-use-after-damage), so
 * by default this pass keeps using it: its name, the other formatter, its fields.
 * SPOOR_FUZZ_AFTER_DAMAGE=0 stops at the first damage instead.
 */
static uint64_t odd_events; /* of reader_pass: events whose class index is odd */

static uint64_t reader_pass(void)
{
	uint64_t events = 0;
	odd_events = 0;
	const char *paths[] = {dir_path};
	struct spoor_reader *r;
	struct spoor_formatter *bt = NULL, *text = NULL;
	const struct spoor_event *ev;
	char *errmsg = NULL;

	int rc = spoor_reader_open(paths, 1, &r, &errmsg);
	if (rc) {
		/* The metadata is valid and stream damage is not an open error. */
		fprintf(stderr, "fuzz-packets: spoor_reader_open: %s\n",
		        errmsg ? errmsg : spoor_strerror(rc));
		abort();
	}
	spoor_reader_set_warn(r, on_warning, NULL);
	if (spoor_formatter_new(SPOOR_FORMAT_BABELTRACE, out_fd, &bt) ||
	    spoor_formatter_new(SPOOR_FORMAT_TEXT, null_fd, &text))
		die("spoor_formatter_new");
	budget = 1u << 16;
	while (spoor_reader_next(r, &ev) > 0) {
		events++;
		unsigned damaged = spoor_reader_damaged(r);
#define USABLE() (after_damage || spoor_reader_damaged(r) == damaged)
		sink += (uint64_t) spoor_event_timestamp(ev) + spoor_event_cycles(ev) +
		        (uint64_t) spoor_event_cpu(ev) + strlen(spoor_event_name(ev));
		const struct spoor_event_class *ec = spoor_event_class(ev);
		sink += spoor_event_class_id(ec) + spoor_event_class_index(ec);
		odd_events += spoor_event_class_index(ec) % 2;
		spoor_formatter_event(bt, ev);
		if (USABLE())
			spoor_formatter_event(text, ev);
		for (int scope = 0; scope < SPOOR_SCOPE_COUNT && USABLE(); scope++) {
			struct spoor_field f;
			for (int i = 0;
			     budget && USABLE() && spoor_event_field_at(ev, scope, i, &f); i++)
				walk(&f, 0);
		}
		if (USABLE())
			sink += strlen(spoor_event_name(ev));
#undef USABLE
	}
	for (size_t i = 0; i < spoor_reader_stream_count(r); i++) {
		struct spoor_stream_info info;
		spoor_reader_stream_info(r, i, &info);
		sink += info.packets + info.bytes + info.discarded + info.damaged;
	}
	sink += spoor_reader_damaged(r);
	spoor_formatter_free(bt);
	spoor_formatter_free(text);
	spoor_reader_close(r);
	return events;
}

/* Pass 4: the classes of even index passed over inside the stream. */
static uint64_t pass_over_pass(void)
{
	const char *paths[] = {dir_path};
	struct spoor_reader *r;
	const struct spoor_event *ev;
	uint64_t events = 0;

	if (spoor_reader_open(paths, 1, &r, NULL))
		abort();
	spoor_reader_set_warn(r, on_warning, NULL);
	size_t n = spoor_reader_event_class_count(r);
	bool *pass = calloc(n + 1, sizeof(*pass));
	if (!pass)
		die("calloc");
	for (size_t c = 0; c < n; c++)
		pass[c] = c % 2 == 0;
	if (!reader_pass_over(r, pass, n, INT64_MIN, INT64_MAX))
		abort();
	while (spoor_reader_next(r, &ev) > 0) {
		if (spoor_event_class_index(spoor_event_class(ev)) % 2 == 0)
			abort(); /* a class passed over was delivered */
		events++;
		sink += (uint64_t) spoor_event_timestamp(ev);
	}
	free(pass);
	spoor_reader_close(r);
	return events;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	write_file(stream_path, data, size);

	struct pass_result decoded = stream_pass(true);
	struct pass_result skipped = stream_pass(false);
	if (decoded.events != skipped.events || decoded.damaged != skipped.damaged) {
		fprintf(stderr,
		        "fuzz-packets: decoding and skipping disagree: %llu events%s when every "
		        "scope is decoded, %llu events%s when they are skipped\n",
		        (unsigned long long) decoded.events, decoded.damaged ? " (damaged)" : "",
		        (unsigned long long) skipped.events, skipped.damaged ? " (damaged)" : "");
		abort();
	}
	if (verbose)
		fprintf(stderr, "fuzz-packets: %llu events, %s\n",
		        (unsigned long long) decoded.events, decoded.damaged ? "damaged" : "clean");
	/* The reader parses the metadata again on open (most of its cost): only worth it when
	 * there is an event to print. Deterministic, as libFuzzer wants. */
	if (decoded.events) {
		uint64_t n = reader_pass();
		if (n != decoded.events) {
			fprintf(
			    stderr,
			    "fuzz-packets: the reader delivers %llu events, the stream API %llu\n",
			    (unsigned long long) n, (unsigned long long) decoded.events);
			abort();
		}
		uint64_t odd = pass_over_pass();
		if (odd != odd_events) {
			fprintf(stderr,
			        "fuzz-packets: passing over even classes delivers %llu events, the "
			        "reader delivered %llu of odd classes\n",
			        (unsigned long long) odd, (unsigned long long) odd_events);
			abort();
		}
	}
	return 0;
}
