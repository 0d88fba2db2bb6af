/* SPDX-License-Identifier: MIT */
/*
 * test-reader.c: the public reader (spoor/trace.h) on the synthetic traces that
 * tests/data/gen-ctf.py writes at test time. Every expected value comes from the tables of
 * tests/data/SYNTH.md (or is computed from the rules stated there), never from spoor.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "check.h"
#include "spoor/trace.h"
#include "synth-expect.h"
#include "warn-append.h"

static char dir[512]; /* where gen-ctf.py writes the traces */

static struct spoor_reader *open_trace(const char *name)
{
	char path[700], *msg = NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	const char *paths[] = {path};
	struct spoor_reader *r = NULL;
	int rc = spoor_reader_open(paths, 1, &r, &msg);
	CHECK_CTX("open %s", name);
	if (!CHECK_EQ_S64(rc, 0))
		printf("  %s\n", msg ? msg : "(no message)");
	free(msg);
	return r;
}

/* ---- a digest of every value, to compare traces with each other ---- */

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const uint8_t *) p)[i]) * 0x100000001B3ull;
	return h;
}

static uint64_t digest_field(uint64_t h, const struct spoor_field *f)
{
	struct spoor_field c;
	h = mix(h, &f->kind, sizeof(f->kind));
	if (f->name)
		h = mix(h, f->name, strlen(f->name));
	if (f->label)
		h = mix(h, f->label, strlen(f->label));
	if (f->kind == SPOOR_FIELD_STRING)
		h = mix(h, f->v.str.ptr, f->v.str.len);
	else if (f->kind == SPOOR_FIELD_SIGNED || f->kind == SPOOR_FIELD_UNSIGNED ||
	         f->kind == SPOOR_FIELD_FLOAT)
		h = mix(h, &f->v, 8);
	for (uint32_t i = 0; i < f->count && f->kind != SPOOR_FIELD_STRING; i++)
		if (spoor_field_child(f, i, &c))
			h = digest_field(h, &c);
	return h;
}

static uint64_t digest_event(const struct spoor_event *ev)
{
	uint64_t h = mix(0xCBF29CE484222325ull, spoor_event_name(ev), strlen(spoor_event_name(ev)));
	int64_t ts = spoor_event_timestamp(ev), cpu = spoor_event_cpu(ev);
	struct spoor_field f;
	h = mix(mix(h, &ts, 8), &cpu, 8);
	for (int s = 0; s < SPOOR_SCOPE_COUNT; s++)
		for (int i = 0; spoor_event_field_at(ev, (enum spoor_scope) s, i, &f); i++)
			h = digest_field(h, &f);
	return h;
}

/* Read a whole synth trace, checking every event; fills digests. */
static void read_synth(const char *name, uint64_t digests[22])
{
	struct spoor_reader *r = open_trace(name);
	unsigned n = 0;
	int rc;

	if (!r)
		return;
	while ((rc = spoor_reader_next(r, &E)) == 1) {
		if (n < 22) {
			check_event(n, name);
			digests[n] = digest_event(E);
		}
		n++;
	}
	CHECK_CTX("%s: whole trace", name);
	CHECK_EQ_S64(rc, 0);
	CHECK_EQ_U64(n, 22);
	CHECK_EQ_U64(spoor_reader_damaged(r), 0);
	CHECK_EQ_U64(spoor_reader_trace_count(r), 1);
	CHECK_STR(spoor_reader_trace_env(r, 0, "hostname"), "synth-host");
	CHECK_STR(spoor_reader_trace_env(r, 0, "domain"), "synthetic");
	CHECK_STR(spoor_reader_trace_env(r, 0, "synth_version"), "1");
	CHECK(spoor_reader_trace_env(r, 0, "nope") == NULL);
	/* SYNTH.md packet table: channel0_0 has 3 packets (384 + 384 + 256 bytes) and reports 5
	 * discarded events; channel0_1 has 2 packets (640 + 256 bytes) */
	if (CHECK_EQ_U64(spoor_reader_stream_count(r), 2))
		for (size_t s = 0; s < 2; s++) {
			struct spoor_stream_info si;
			spoor_reader_stream_info(r, s, &si);
			bool first = strstr(si.path, "/channel0_0") != NULL;
			CHECK(first || strstr(si.path, "/channel0_1"));
			CHECK_EQ_S64(si.cpu, first ? 0 : 1);
			CHECK_EQ_U64(si.stream_class_id, 0);
			CHECK_EQ_U64(si.packets, first ? 3 : 2);
			CHECK_EQ_U64(si.bytes, first ? 1024 : 896);
			CHECK_EQ_U64(si.discarded, first ? 5 : 0);
			CHECK(!si.damaged);
		}
	/* 15 event classes: ids 0..13 and 40 */
	CHECK_EQ_U64(spoor_reader_event_class_count(r), 15);
	for (size_t i = 0; i < spoor_reader_event_class_count(r); i++) {
		const struct spoor_event_class *ec = spoor_reader_event_class(r, i);
		CHECK_EQ_U64(spoor_event_class_index(ec), i);
		if (!strcmp(spoor_event_class_name(ec), "synth:big_id"))
			CHECK_EQ_U64(spoor_event_class_id(ec), 40);
		if (!strcmp(spoor_event_class_name(ec), "synth:ints")) {
			CHECK_EQ_U64(spoor_event_class_id(ec), 0);
			CHECK_EQ_S64(
			    spoor_event_class_field_index(ec, SPOOR_SCOPE_PAYLOAD, "net32"), 10);
			CHECK_EQ_S64(spoor_event_class_field_index(ec, SPOOR_SCOPE_PAYLOAD, "no"),
			             -1);
			CHECK_EQ_S64(spoor_event_class_field_index(
			                 ec, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, "vtid"),
			             0);
		}
	}
	spoor_reader_close(r);
}

/* ---- hooks, ranges, unordered ---- */

struct counter {
	unsigned n, stop_at;
	int64_t last_ts;
};

static int count_hook(const struct spoor_event *ev, void *data)
{
	struct counter *c = data;
	c->n++;
	c->last_ts = spoor_event_timestamp(ev);
	return c->stop_at && c->n == c->stop_at ? 42 : 0;
}

static int seq_hook(const struct spoor_event *ev, void *data)
{
	struct spoor_field f;
	if (spoor_event_field(ev, SPOOR_SCOPE_PAYLOAD, "len", &f))
		*(uint64_t *) data = f.v.u;
	return 0;
}

static void test_hooks(void)
{
	static const struct {
		const char *pattern;
		unsigned want;
	} pats[] = {{"synth:tie", 4}, {"synth:v*", 4},    {"*s", 10},
	            {"*", 22},        {"synth:[be]*", 5}, {"nothing*", 0}};
	struct counter c[6] = {{0}};
	uint64_t len = 0;
	struct spoor_reader *r = open_trace("synth-le");

	if (!r)
		return;
	for (int i = 0; i < 6; i++)
		CHECK_EQ_S64(spoor_reader_add_hook(r, pats[i].pattern, count_hook, &c[i]), 0);
	spoor_reader_add_hook(r, "synth:sequences", seq_hook, &len);
	CHECK_EQ_S64(spoor_reader_run(r), 0);
	for (int i = 0; i < 6; i++) {
		CHECK_CTX("hook %s", pats[i].pattern);
		CHECK_EQ_U64(c[i].n, pats[i].want);
	}
	CHECK_CTX("hooks");
	CHECK_EQ_U64(len, 3); /* fields decode inside a hook */
	CHECK_EQ_S64(c[3].last_ts, BASE_NS + 1373742824);
	spoor_reader_close(r);

	/* a hook returning non-zero stops the run with its value */
	struct counter stop = {0, 3, 0}, other = {0};
	if (!(r = open_trace("synth-le")))
		return;
	spoor_reader_add_hook(r, "*", count_hook, &stop);
	spoor_reader_add_hook(r, "synth:tie", count_hook, &other);
	CHECK_CTX("hook stops the run");
	CHECK_EQ_S64(spoor_reader_run(r), 42);
	CHECK_EQ_U64(stop.n, 3);
	CHECK_EQ_S64(stop.last_ts, BASE_NS + 1073741814); /* the third event: bitfields */
	CHECK_EQ_U64(other.n, 0);
	spoor_reader_close(r);
}

static void test_range_and_unordered(const uint64_t digests[22])
{
	for (int ordered = 1; ordered >= 0; ordered--) {
		/* [bitfields, tie-1]: events 3..10 of the merged order, bounds included */
		struct spoor_reader *r = open_trace("synth-le");
		unsigned n = 0, seen[22] = {0};
		if (!r)
			return;
		spoor_reader_set_ordered(r, ordered);
		spoor_reader_set_range(r, BASE_NS + 1073741814, BASE_NS + 1073746824);
		CHECK_CTX("range, %s", ordered ? "ordered" : "unordered");
		while (spoor_reader_next(r, &E) == 1) {
			int64_t ts = spoor_event_timestamp(E);
			CHECK(ts >= BASE_NS + 1073741814 && ts <= BASE_NS + 1073746824);
			if (ordered && n < 8)
				CHECK_STR(spoor_event_name(E), order[2 + n].name);
			n++;
		}
		CHECK_EQ_U64(n, 8);
		spoor_reader_close(r);

		/* whole trace: the same multiset of events as the merged order */
		if (!(r = open_trace("synth-le")))
			return;
		spoor_reader_set_ordered(r, ordered);
		n = 0;
		while (spoor_reader_next(r, &E) == 1) {
			uint64_t d = digest_event(E);
			unsigned k = 0;
			while (k < 22 && (seen[k] || digests[k] != d))
				k++;
			CHECK_CTX("unordered: event %u (%s)", n, spoor_event_name(E));
			if (CHECK(k < 22))
				seen[k] = 1;
			n++;
		}
		CHECK_EQ_U64(n, 22);
		spoor_reader_close(r);
	}
}

/* A range steps over the packets that end before it: the same events as reading the whole
 * trace and keeping those in the range, the same loss counts, and fewer packets decoded.
 * Every event's time is tried as the begin (synth-le: 3 + 2 packets). */
static void test_range_skips_packets(const uint64_t digests[22])
{
	int64_t ts[22];
	struct spoor_reader *r = open_trace("synth-le");
	unsigned n = 0;
	if (!r)
		return;
	while (n < 22 && spoor_reader_next(r, &E) == 1)
		ts[n++] = spoor_event_timestamp(E);
	spoor_reader_close(r);
	CHECK_CTX("skip: whole trace");
	if (!CHECK_EQ_U64(n, 22))
		return;
	uint64_t most = 0;
	for (unsigned b = 0; b < 22; b++) {
		if (!(r = open_trace("synth-le")))
			return;
		spoor_reader_set_range(r, ts[b], INT64_MAX);
		unsigned k = b; /* ties: the first event of the same time */
		while (k > 0 && ts[k - 1] == ts[b])
			k--;
		CHECK_CTX("skip: begin at event %u", b);
		while (spoor_reader_next(r, &E) == 1) {
			if (CHECK(k < 22))
				CHECK_EQ_U64(digest_event(E), digests[k]);
			k++;
		}
		CHECK_EQ_U64(k, 22);
		CHECK_EQ_U64(spoor_reader_damaged(r), 0);
		uint64_t skipped = 0, discarded = 0;
		for (size_t i = 0; i < spoor_reader_stream_count(r); i++) {
			struct spoor_stream_info si;
			spoor_reader_stream_info(r, i, &si);
			CHECK(si.skipped_packets <= si.packets && si.skipped_bytes <= si.bytes);
			skipped += si.skipped_packets;
			discarded += si.discarded;
		}
		CHECK_EQ_U64(discarded, 5); /* channel0_0's losses, whether its packets were read */
		most = skipped > most ? skipped : most;
		spoor_reader_close(r);
	}
	CHECK_CTX("skip: some begin steps over packets");
	CHECK(most >= 2);
}

/* Two traces at once; ranges with hooks; the edges of the field API. */
static void test_misc(void)
{
	char a[700], b[700], *msg = NULL;
	const char *paths[] = {a, b};
	struct spoor_reader *r = NULL;
	unsigned k[2] = {0, 0}, n = 0;
	int64_t last = INT64_MIN;

	snprintf(a, sizeof(a), "%s/synth-le", dir);
	snprintf(b, sizeof(b), "%s/synth-be", dir);
	CHECK_CTX("two traces");
	if (!CHECK_EQ_S64(spoor_reader_open(paths, 2, &r, &msg), 0)) {
		free(msg);
		return;
	}
	CHECK_EQ_U64(spoor_reader_trace_count(r), 2);
	CHECK_EQ_U64(spoor_reader_stream_count(r), 4);
	CHECK_EQ_U64(spoor_reader_event_class_count(r), 30);
	while (spoor_reader_next(r, &E) == 1) {
		size_t t = spoor_event_trace(E);
		CHECK(spoor_event_timestamp(E) >= last); /* merged across the traces */
		last = spoor_event_timestamp(E);
		if (CHECK(t < 2) && k[t] < 22) { /* each trace's events in SYNTH.md's order */
			CHECK_STR(spoor_event_name(E), order[k[t]].name);
			CHECK_EQ_U64(spoor_event_cycles(E), order[k[t]].cycles);
			CHECK_EQ_S64(spoor_event_cpu(E), order[k[t]].cpu);
		}
		k[t < 2 ? t : 0]++;
		n++;
	}
	CHECK(n == 44 && k[0] == 22 && k[1] == 22);
	CHECK_EQ_S64(spoor_reader_next(r, &E), 0); /* and stays at the end */
	spoor_reader_close(r);

	/* a range also bounds hooks: [tie-1, tie-2] holds events 9..22, the four ties */
	struct counter all = {0}, ties = {0};
	if (!(r = open_trace("synth-le")))
		return;
	spoor_reader_set_range(r, BASE_NS + 1073746824, BASE_NS + 1373742824);
	spoor_reader_add_hook(r, "*", count_hook, &all);
	spoor_reader_add_hook(r, "synth:tie", count_hook, &ties);
	CHECK_CTX("range and hooks");
	CHECK_EQ_S64(spoor_reader_run(r), 0);
	CHECK_EQ_U64(all.n, 14);
	CHECK_EQ_U64(ties.n, 4);
	spoor_reader_close(r);
	if (!(r = open_trace("synth-le")))
		return;
	spoor_reader_set_range(r, BASE_NS + 1373742824, BASE_NS + 1073746824);
	CHECK_CTX("empty range");
	CHECK_EQ_S64(spoor_reader_next(r, &E), 0);
	spoor_reader_close(r);

	/* the first event, synth:ints: 11 payload fields, scalars have no children */
	struct spoor_field f, c;
	if (!(r = open_trace("synth-le")) || !CHECK_EQ_S64(spoor_reader_next(r, &E), 1)) {
		spoor_reader_close(r);
		return;
	}
	CHECK_CTX("field API edges");
	CHECK(spoor_event_field_at(E, SPOOR_SCOPE_PAYLOAD, 10, &f) && f.v.u == 305419896);
	CHECK_STR(f.name, "net32");
	CHECK(!spoor_event_field_at(E, SPOOR_SCOPE_PAYLOAD, 11, &f));
	CHECK(!spoor_event_field_at(E, SPOOR_SCOPE_PAYLOAD, -1, &f));
	CHECK(!spoor_event_field(E, SPOOR_SCOPE_PAYLOAD, "nope", &f));
	CHECK(!spoor_event_field(E, SPOOR_SCOPE_EVENT_CONTEXT, "ctx_a", &f)); /* no such scope */
	CHECK(spoor_event_field(E, SPOOR_SCOPE_STREAM_EVENT_CONTEXT, "_vtid", &f) && f.v.s == 100);
	CHECK(spoor_event_field(E, SPOOR_SCOPE_PAYLOAD, "i8", &f) && !spoor_field_child(&f, 0, &c));
	CHECK(f.label == NULL && f.count == 0);
	spoor_reader_close(r);
}

/* SYNTH.md, synth-large: 16-bit ids with 32-bit extended ids, a 32-bit clock wrap */
static void test_large(void)
{
	static const struct {
		const char *name;
		uint64_t cycles, id, seq;
		const char *s;
	} large[8] = {
	    {"large:small_id", 4294967246ull, 0, 1, NULL},
	    {"large:small_id", 4294967306ull, 0, 2, NULL}, /* 32-bit wrap */
	    {"large:id_65535", 4294967316ull, 65535, 3, NULL},
	    {"large:id_65536", 4294967326ull, 65536, 4, NULL},
	    {"large:str", 9294967326ull, 1, 0, "after a 5 s gap"},
	    {"large:id_4000000000", 10294967396ull, 4000000000ull, 5, NULL},
	    {"large:small_id", 10294967496ull, 0, 6, NULL},
	    {"large:str", 10294967596ull, 1, 0, "last"},
	};
	struct spoor_reader *r = open_trace("synth-large");
	unsigned n = 0;

	while (r && spoor_reader_next(r, &E) == 1) {
		if (n < 8) {
			snprintf(evctx, sizeof(evctx), "synth-large event %u", n + 1);
			CHECK_CTX("%s", evctx);
			CHECK_STR(spoor_event_name(E), large[n].name);
			CHECK_EQ_U64(spoor_event_cycles(E), large[n].cycles);
			CHECK_EQ_S64(spoor_event_timestamp(E), BASE_NS + (int64_t) large[n].cycles);
			CHECK_EQ_U64(spoor_event_class_id(spoor_event_class(E)), large[n].id);
			if (large[n].s)
				str_("s", large[n].s);
			else
				u_("seq", large[n].seq);
		}
		n++;
	}
	CHECK_CTX("synth-large");
	CHECK_EQ_U64(n, 8);
	spoor_reader_close(r);
}

/* synth-enums (gen-ctf.py): every label that holds a value, in the order of the labels'
 * first declaration; f.label is the first */
static void expect_labels(enum spoor_scope scope, const char *field, const char *const *want)
{
	struct spoor_field f;
	CHECK_CTX("%s: labels of %s", spoor_event_name(E), field);
	if (!CHECK(spoor_event_field(E, scope, field, &f)))
		return;
	CHECK(f.label == want[0] || (f.label && want[0] && !strcmp(f.label, want[0])));
	uint32_t i = 0;
	for (; want[i]; i++)
		CHECK_STR(spoor_field_label(&f, i), want[i]);
	CHECK(spoor_field_label(&f, i) == NULL);
}

static void test_enum_labels(void)
{
	struct spoor_reader *r = open_trace("synth-enums");
	const enum spoor_scope P = SPOOR_SCOPE_PAYLOAD;
	if (!r)
		return;
	if (CHECK_EQ_S64(spoor_reader_next(r, &E), 1)) { /* enums:ranges */
		expect_labels(P, "proto_high", (const char *[]){"_unknown", NULL});
		expect_labels(P, "proto_tcp", (const char *[]){"_tcp", NULL});
		expect_labels(P, "overlap", (const char *[]){"A", NULL});
		expect_labels(P, "three", (const char *[]){"P", "Q", "R", NULL});
		expect_labels(P, "second_range", (const char *[]){"P", NULL});
		expect_labels(P, "none", (const char *[]){NULL});
	}
	if (CHECK_EQ_S64(spoor_reader_next(r, &E), 1)) { /* enums:signed */
		expect_labels(P, "two_neg", (const char *[]){"NEG", "SMALL", NULL});
		expect_labels(P, "later_range", (const char *[]){"NEG", "BIG", NULL});
		expect_labels(P, "implicit_c", (const char *[]){"C", NULL});
		expect_labels(P, "packed_two", (const char *[]){"M", "P", NULL});
		expect_labels(P, "s64_min", (const char *[]){"MIN", "NEGS", NULL});
		expect_labels(P, "u64_top", (const char *[]){"HIGH", "TOP", NULL});
	}
	if (CHECK_EQ_S64(spoor_reader_next(r, &E), 1)) { /* enums:forms */
		expect_labels(P, "int_x", (const char *[]){"X", NULL});
		expect_labels(P, "colour_a", (const char *[]){"RED", NULL});
	}
	struct spoor_field f;
	CHECK_CTX("spoor_field_label on a plain integer");
	if (CHECK(spoor_event_field(E, P, "n", &f)))
		CHECK(spoor_field_label(&f, 0) == NULL);
	spoor_reader_close(r);
}

/* ---- damaged and invalid traces ---- */

struct warnings {
	unsigned n;
	char first[400];
};

static void on_warn(void *data, const char *message)
{
	struct warnings *w = data;
	if (!w->n++)
		snprintf(w->first, sizeof(w->first), "%s", message);
}

static void test_open_errors(void)
{
	static const char *names[] = {"bad-empty", "bad-not-a-trace", "no-such-dir"};
	char path[700], *msg;
	const char *paths[] = {path};

	for (int i = 0; i < 3; i++) {
		struct spoor_reader *r = (struct spoor_reader *) 1;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (i == 0)
			mkdir(path, 0755); /* the generator makes it; git could not keep it */
		msg = NULL;
		CHECK_CTX("%s", names[i]);
		int rc = spoor_reader_open(paths, 1, &r, &msg);
		if (i < 2) /* no metadata file */
			CHECK(rc == -SPOOR_ENOTTRACE || rc == -SPOOR_EEMPTY);
		else
			CHECK(rc < 0);
		CHECK(r == NULL);
		if (!CHECK(msg && strstr(msg, names[i])))
			printf("  message: %s\n", msg ? msg : "(none)");
		free(msg);
	}
}

/* A syntax error inside one event class's fields: that class's metadata is parsed when its
 * first event comes, so the trace opens, the class has no fields, and its streams stop there
 * with the metadata error (file, line and column), after the events before it. */
static void test_bad_class_metadata(void)
{
	char path[700], want[64] = "(EXPECTED unreadable)";
	unsigned line, col, n = 0;
	char warnings[WARN_APPEND_SIZE] = ""; /* EXPECTED is read as a stream too: it warns first */

	snprintf(path, sizeof(path), "%s/bad-metadata-syntax/EXPECTED", dir);
	FILE *fp = fopen(path, "r");
	if (fp && fscanf(fp, "%u:%u", &line, &col) == 2)
		snprintf(want, sizeof(want), "line %u, column %u", line, col);
	if (fp)
		fclose(fp);
	struct spoor_reader *r = open_trace("bad-metadata-syntax");
	if (!r)
		return;
	CHECK_CTX("bad-metadata-syntax");
	for (size_t c = 0; c < spoor_reader_event_class_count(r); c++) {
		const struct spoor_event_class *ec = spoor_reader_event_class(r, c);
		if (!strcmp(spoor_event_class_name(ec), "synth:floats"))
			CHECK_EQ_S64(spoor_event_class_field_index(ec, SPOOR_SCOPE_PAYLOAD, "pad3"),
			             -1);
	}
	spoor_reader_set_warn(r, on_warn_append, warnings);
	while (spoor_reader_next(r, &E) == 1)
		n++;
	CHECK(n > 0);
	CHECK(spoor_reader_damaged(r) > 0);
	snprintf(path, sizeof(path), "bad-metadata-syntax/metadata: %s: ", want);
	if (!CHECK(strstr(warnings, path)))
		printf("  warnings: %s (want %s)\n", warnings, path);
	spoor_reader_close(r);
}

/* A damaged trace: the events before the damage come out (merged), the damage is counted
 * and reported once through the callback, naming the stream file and an offset. */
static void test_damaged(const char *name, const char *file, unsigned first0, unsigned max0,
                         unsigned n1, const char *offset)
{
	struct spoor_reader *r = open_trace(name);
	struct warnings w = {0};
	unsigned k0 = 0, k1 = 0, i0 = 0, i1 = 0;

	if (!r)
		return;
	spoor_reader_set_warn(r, on_warn, &w);
	while (spoor_reader_next(r, &E) == 1) {
		/* walk SYNTH.md's merged order per cpu: each stream's events in file order */
		int cpu = (int) spoor_event_cpu(E);
		unsigned *at = cpu ? &i1 : &i0;
		while (*at < 22 && order[*at].cpu != cpu)
			(*at)++;
		CHECK_CTX("%s: event %u of cpu %d", name, cpu ? k1 : k0, cpu);
		if (CHECK(*at < 22)) {
			CHECK_STR(spoor_event_name(E), order[*at].name);
			CHECK_EQ_U64(spoor_event_cycles(E), order[*at].cycles);
		}
		(*at)++;
		++*(cpu ? &k1 : &k0);
	}
	CHECK_CTX("%s", name);
	CHECK(k0 >= first0 && k0 <= max0);
	if (k0 < first0 || k0 > max0)
		printf("  %u events of channel0_0, want %u to %u\n", k0, first0, max0);
	CHECK_EQ_U64(k1, n1);
	CHECK(spoor_reader_damaged(r) > 0);
	CHECK_EQ_U64(w.n, spoor_reader_damaged(r));
	if (!CHECK(strstr(w.first, file) && strstr(w.first, offset)))
		printf("  warning: %s (want %s, %s)\n", w.first, file, offset);
	for (size_t s = 0; s < spoor_reader_stream_count(r); s++) {
		struct spoor_stream_info si;
		spoor_reader_stream_info(r, s, &si);
		CHECK_EQ_U64(si.damaged, strstr(si.path, file) != NULL);
	}
	spoor_reader_close(r);
}

int main(void)
{
	const char *data = getenv("SPOOR_TEST_DATA"), *tmp = getenv("TMPDIR");
	char cmd[1600];
	uint64_t le[22] = {0}, be[22] = {0}, pk[22] = {0};

	snprintf(dir, sizeof(dir), "%s/spoor-test-reader-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!data || !mkdtemp(dir)) {
		printf("SPOOR_TEST_DATA not set or no temporary directory\n");
		return 1;
	}
	snprintf(cmd, sizeof(cmd),
	         "python3 '%s/gen-ctf.py' '%s' && python3 '%s/gen-ctf.py' --bad '%s'", data, dir,
	         data, dir);
	CHECK_CTX("gen-ctf.py");
	if (CHECK_EQ_S64(system(cmd), 0)) {
		read_synth("synth-le", le);
		read_synth("synth-be", be);
		read_synth("synth-packetized", pk);
		CHECK_CTX("same events in synth-le, synth-be and synth-packetized");
		CHECK(!memcmp(le, be, sizeof(le)));
		CHECK(!memcmp(le, pk, sizeof(le)));
		for (int i = 1; i < 22; i++) /* the digests tell events apart */
			CHECK(le[i] != le[i - 1]);
		test_hooks();
		test_range_and_unordered(le);
		test_range_skips_packets(le);
		test_large();
		test_enum_labels();
		test_misc();
		test_open_errors();
		test_bad_class_metadata();
		/* SYNTH.md "Damaged traces"; channel0_0 has 5 + 6 + 7 events in its packets */
		test_damaged("bad-truncated", "channel0_0", 6, 7, 4, "offset");
		test_damaged("bad-magic", "channel0_0", 5, 5, 4, "offset 384");
		test_damaged("bad-header", "channel0_0", 11, 18, 4, "offset");
		test_damaged("bad-content-size", "channel0_1", 18, 18, 0, "offset");
		test_damaged("bad-missing-stream", "channel0_1", 18, 18, 0, "offset");
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	check_context[0] = '\0';
	return check_done();
}
