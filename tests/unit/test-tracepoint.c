/* SPDX-License-Identifier: MIT */
/*
 * test-tracepoint.c: the SPOOR_EVENT API without a session: every field kind compiles and
 * lays out its payload as the metadata says; probes see each emit with its payload, stop
 * seeing it once unregistered, and stay correct while threads emit and a writer registers
 * and unregisters (run under TSan by tests/run-sanitizers.sh).
 */
#define SPOOR_CREATE_PROBES
#include <spoor/tracepoint.h>

#include <pthread.h>
#include <sched.h>
#include <errno.h>
#include <stdatomic.h>

#include "check.h"

static const struct spoor_enum_entry colours[] = {{"RED", 0, 0}, {"GREEN", 1, 5}};

/* clang-format off */
SPOOR_EVENT(t, every,
	    SPOOR_ARGS(int8_t a, uint16_t b, int32_t c, uint64_t d, double e, float f, const char *s,
		       const uint8_t *arr, const int32_t *seq, uint32_t n, const char *txt, int col,
		       uint32_t net),
	    SPOOR_FIELDS(spoor_field_int(int8_t, a, a)
			 spoor_field_int(uint16_t, b, b)
			 spoor_field_hex(int32_t, c, c)
			 spoor_field_int(uint64_t, d, d)
			 spoor_field_float(double, e, e)
			 spoor_field_float(float, f, f)
			 spoor_field_string(s, s)
			 spoor_field_array(uint8_t, arr, arr, 3)
			 spoor_field_sequence(int32_t, seq, seq, n)
			 spoor_field_array_text(txt, txt, 4)
			 spoor_field_sequence_text(stxt, txt, 2)
			 spoor_field_enum(int32_t, col, col, colours)
			 spoor_field_network(uint32_t, net, net)))
/* clang-format on */

/* The kinds LTTng-UST's ctf_* macros need beyond those: hex and network arrays, network
 * hex integers, sequences with a length of their own type. */
/* clang-format off */
SPOOR_EVENT(t, lttng,
	    SPOOR_ARGS(uint32_t nh, const uint16_t *a, const int16_t *seq, long n, const char *txt,
		       size_t ntxt),
	    SPOOR_FIELDS(spoor_field_network_hex(uint32_t, nh, nh)
			 spoor_field_array_hex(uint16_t, ah, a, 2)
			 spoor_field_array_network(uint16_t, an, a, 2)
			 spoor_field_array_network_hex(uint16_t, anh, a, 2)
			 spoor_field_sequence_lt(int16_t, s, seq, uint8_t, n)
			 spoor_field_sequence_lt_hex(int16_t, sh, seq, long, n)
			 spoor_field_sequence_lt_network(int16_t, sn, seq, uint16_t, n)
			 spoor_field_sequence_lt_network_hex(int16_t, snh, seq, uint64_t, n)
			 spoor_field_sequence_lt_text(st, txt, size_t, ntxt)))
/* clang-format on */

SPOOR_EVENT(t, neg, SPOOR_ARGS(const int16_t *seq, int n),
            SPOOR_FIELDS(spoor_field_sequence_lt(int16_t, s, seq, int, n)))

/* clang-format off */
SPOOR_EVENT(t, pair, SPOOR_ARGS(uint64_t x, uint64_t y),
	    SPOOR_FIELDS(spoor_field_int(uint64_t, x, x) spoor_field_int(uint64_t, y, y)))
/* clang-format on */

struct seen {
	atomic_ulong calls;
	atomic_int dead; /* set once unregistered: a call after that is a bug */
	atomic_int late;
	unsigned char payload[256];
	size_t size;
};

static void probe(void *data, const struct spoor_event_desc *ev, const void *payload, size_t size)
{
	struct seen *s = data;
	(void) ev;
	if (atomic_load(&s->dead))
		atomic_store(&s->late, 1);
	atomic_fetch_add(&s->calls, 1);
	if (size <= sizeof(s->payload) && atomic_load(&s->calls) == 1) {
		memcpy(s->payload, payload, size);
		s->size = size;
	}
}

static void test_descriptors(void)
{
	const struct spoor_event_desc *d = spoor_event_desc(t, every);
	CHECK_STR(d->provider, "t");
	CHECK_STR(d->name, "every");
	CHECK_EQ_U64(d->nfields, 13);
	CHECK_EQ_U64(d->max_align, 1); /* packed */
	CHECK_EQ_U64(d->fields[0].is_signed, 1);
	CHECK_EQ_U64(d->fields[1].is_signed, 0);
	CHECK_EQ_U64(d->fields[2].base, 16);
	CHECK_EQ_U64(d->fields[4].kind, SPOOR_FK_FLOAT);
	CHECK_EQ_U64(d->fields[4].size, 8);
	CHECK_EQ_U64(d->fields[6].kind, SPOOR_FK_STRING);
	CHECK_EQ_U64(d->fields[7].length, 3);
	CHECK_EQ_U64(d->fields[8].kind, SPOOR_FK_SEQUENCE);
	CHECK_EQ_U64(d->fields[9].text, 1);
	CHECK_EQ_U64(d->fields[11].nentries, 2);
	CHECK_EQ_U64(d->fields[12].big_endian, 1);
	CHECK_EQ_U64(spoor_event_desc(t, pair)->max_align, 1);
	/* no session: not recording */
	CHECK(!spoor_enabled(t, every));
}

static void test_probe_payload(void)
{
	struct seen s = {0};
	uint8_t arr[3] = {7, 8, 9};
	int32_t seq[2] = {-1, 2};

	CHECK_EQ_S64(spoor_probe_register(spoor_event_desc(t, every), probe, &s), 0);
	CHECK(spoor_enabled(t, every));
	spoor_trace(t, every, -5, 600, -2, 1ull << 40, 0.5, 2.0f, "hi", arr, seq, 2, "abcd", 3,
	            0x01020304);
	CHECK_EQ_U64(atomic_load(&s.calls), 1);
	/* the CTF layout, packed: a@0 b@1 c@3 d@7 e@15 f@23 s@27 ("hi\0") arr@30 seqlen@33
	 * seq@37 txt@45 stxtlen@49 stxt@53 col@55 net@59, 63 bytes */
	const unsigned char *p = s.payload;
	int32_t c;
	uint64_t d;
	uint32_t n, net;
	memcpy(&c, p + 3, 4);
	memcpy(&d, p + 7, 8);
	memcpy(&n, p + 33, 4);
	memcpy(&net, p + 59, 4);
	CHECK_EQ_S64((int8_t) p[0], -5);
	CHECK_EQ_S64(c, -2);
	CHECK_EQ_U64(d, 1ull << 40);
	CHECK(!memcmp(p + 27, "hi", 3));
	CHECK_EQ_U64(p[30], 7);
	CHECK_EQ_U64(n, 2);
	CHECK(!memcmp(p + 45, "abcd", 4));
	CHECK(!memcmp(p + 53, "ab", 2));
	CHECK_EQ_U64(net, 0x01020304);
	CHECK_EQ_U64(s.size, 63);
	CHECK_EQ_S64(spoor_probe_unregister(spoor_event_desc(t, every), probe, &s), 0);
	CHECK(!spoor_enabled(t, every));
	spoor_trace(t, every, 0, 0, 0, 0, 0, 0, "", arr, seq, 0, "abcd", 0, 0);
	CHECK_EQ_U64(atomic_load(&s.calls), 1);
	CHECK_EQ_S64(spoor_probe_unregister(spoor_event_desc(t, every), probe, &s), -ENOENT);
}

static void test_lttng_kinds(void)
{
	const struct spoor_event_desc *d = spoor_event_desc(t, lttng);
	static const struct {
		uint8_t kind, size, is_signed, base, be, text, lsize;
		uint32_t length;
	} want[] = {
	    {SPOOR_FK_INT, 4, 0, 16, 1, 0, 0, 0},
	    {SPOOR_FK_ARRAY, 2, 0, 16, 0, 0, 0, 2},
	    {SPOOR_FK_ARRAY, 2, 0, 10, 1, 0, 0, 2},
	    {SPOOR_FK_ARRAY, 2, 0, 16, 1, 0, 0, 2},
	    {SPOOR_FK_SEQUENCE, 2, 1, 10, 0, 0, 1, 0},
	    {SPOOR_FK_SEQUENCE, 2, 1, 16, 0, 0, 8, 0},
	    {SPOOR_FK_SEQUENCE, 2, 1, 10, 1, 0, 2, 0},
	    {SPOOR_FK_SEQUENCE, 2, 1, 16, 1, 0, 8, 0},
	    {SPOOR_FK_SEQUENCE, 1, (char) -1 < 0, 10, 0, 1, 8, 0},
	};

	if (!CHECK_EQ_U64(d->nfields, 9))
		return;
	for (unsigned i = 0; i < 9; i++) {
		const struct spoor_field_desc *f = &d->fields[i];
		CHECK_CTX("field %s", f->name);
		CHECK_EQ_U64(f->kind, want[i].kind);
		CHECK_EQ_U64(f->size, want[i].size);
		CHECK_EQ_U64(f->is_signed, want[i].is_signed);
		CHECK_EQ_U64(f->base, want[i].base);
		CHECK_EQ_U64(f->big_endian, want[i].be);
		CHECK_EQ_U64(f->text, want[i].text);
		CHECK_EQ_U64(f->length, want[i].length);
		CHECK_EQ_U64(f->length_size, want[i].lsize);
	}
	CHECK_CTX("%s", "");

	struct seen s = {0};
	uint16_t a[2] = {0x0102, 0x0304};
	int16_t seq[3] = {-1, 2, -3};
	CHECK_EQ_S64(spoor_probe_register(spoor_event_desc(t, lttng), probe, &s), 0);
	spoor_trace(t, lttng, 0xa1b2c3d4, a, seq, 3, "hey", 3);
	/* the lengths in their own types, before their elements: nh@0 ah@4 an@8 anh@12
	 * s: len u8 @16, 6 bytes @17; sh: len long @23, @31; sn: len u16 @37, @39;
	 * snh: len u64 @45, @53; st: len size_t @59, "hey" @67; 70 bytes */
	const unsigned char *p = s.payload;
	uint32_t nh;
	int64_t lsh;
	uint16_t lsn;
	uint64_t lsnh, lst;
	int16_t v;
	memcpy(&nh, p, 4);
	memcpy(&lsh, p + 23, 8);
	memcpy(&lsn, p + 37, 2);
	memcpy(&lsnh, p + 45, 8);
	memcpy(&lst, p + 59, 8);
	memcpy(&v, p + 21, 2);
	CHECK_EQ_U64(nh, 0xa1b2c3d4);
	CHECK_EQ_U64(p[16], 3);
	CHECK_EQ_S64(v, -3);
	CHECK_EQ_S64(lsh, 3);
	CHECK_EQ_U64(lsn, 3);
	CHECK_EQ_U64(lsnh, 3);
	CHECK_EQ_U64(lst, 3);
	CHECK(!memcmp(p + 67, "hey", 3));
	CHECK_EQ_U64(s.size, 70);
	CHECK_EQ_S64(spoor_probe_unregister(spoor_event_desc(t, lttng), probe, &s), 0);

	/* a negative length is an empty sequence */
	struct seen z = {0};
	int32_t len;
	CHECK_EQ_S64(spoor_probe_register(spoor_event_desc(t, neg), probe, &z), 0);
	spoor_trace(t, neg, seq, -2);
	memcpy(&len, z.payload, 4);
	CHECK_EQ_S64(len, 0);
	CHECK_EQ_U64(z.size, 4);
	CHECK_EQ_S64(spoor_probe_unregister(spoor_event_desc(t, neg), probe, &z), 0);
}

static atomic_int stop;

static void *emitter(void *arg)
{
	uint64_t i = 0;
	(void) arg;
	while (!atomic_load(&stop))
		spoor_trace(t, pair, i++, 42);
	return NULL;
}

static void test_concurrent_unregister(void)
{
	pthread_t th[3];
	struct seen s[8];

	for (int i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, emitter, NULL);
	int late = 0;
	unsigned long total = 0;
	for (int round = 0; round < 200; round++) {
		struct seen *x = &s[round % 8];
		memset(x, 0, sizeof(*x));
		spoor_probe_register(spoor_event_desc(t, pair), probe, x);
		/* let the emitters reach the probe (bounded: they may be descheduled) */
		for (int spin = 0; spin < 100000 && !atomic_load(&x->calls); spin++)
			sched_yield();
		spoor_probe_unregister(spoor_event_desc(t, pair), probe, x);
		atomic_store(&x->dead, 1); /* from here on, no call may reach x */
		for (volatile int spin = 0; spin < 2000; spin++)
			;
		late |= atomic_load(&x->late);
		total += atomic_load(&x->calls);
	}
	atomic_store(&stop, 1);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	CHECK_EQ_S64(late, 0);
	CHECK(total > 0);
	CHECK(!spoor_enabled(t, pair));
}

int main(void)
{
	test_descriptors();
	test_probe_payload();
	test_lttng_kinds();
	test_concurrent_unregister();
	return check_done();
}
