/* SPDX-License-Identifier: MIT */
/*
 * test-meta-share.c: traces whose metadata are the same but for their UUID, clock offsets
 * and environment share one model (lib/ctf/meta-share.c, ctf_trace_open_among), each with
 * its own values; any other difference, or a value whose change would move the places the
 * model records, gives a model of its own; a live trace whose metadata grows changes no
 * other. On the traces of tests/data/gen-ctf.py, edited here.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "check.h"
#include "ctf/trace.h"
#include "reader/reader.h"
#include "warn-append.h"

static char dir[512]; /* gen-ctf.py's traces, and the copies made here */

static char *read_text(const char *path)
{
	FILE *fp = fopen(path, "rb");
	char *text = NULL;
	long n;

	if (fp && !fseek(fp, 0, SEEK_END) && (n = ftell(fp)) >= 0 && !fseek(fp, 0, SEEK_SET) &&
	    (text = calloc(1, (size_t) n + 1)) && fread(text, 1, (size_t) n, fp) != (size_t) n) {
		free(text);
		text = NULL;
	}
	if (fp)
		fclose(fp);
	return text;
}

/* dir/to: the stream files of dir/from and its metadata with each edits[2k] (once) made
 * edits[2k+1]; false when an edit finds nothing to change. */
static bool copy_trace(const char *from, const char *to, const char *const *edits, size_t n)
{
	char cmd[2000], path[700];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/%s' && cp -r '%s/%s' '%s/%s'", dir, to, dir, from,
	         dir, to);
	if (system(cmd) != 0)
		return false;
	snprintf(path, sizeof(path), "%s/%s/metadata", dir, to);
	char *text = read_text(path);
	for (size_t k = 0; text && k + 1 < n; k += 2) {
		char *at = strstr(text, edits[k]);
		if (!at) {
			free(text);
			return false;
		}
		size_t head = (size_t) (at - text), cut = strlen(edits[k]),
		       add = strlen(edits[k + 1]);
		char *out = malloc(strlen(text) - cut + add + 1);
		memcpy(out, text, head);
		memcpy(out + head, edits[k + 1], add);
		strcpy(out + head + add, at + cut);
		free(text);
		text = out;
	}
	FILE *fp = text ? fopen(path, "wb") : NULL;
	bool ok = fp && fputs(text, fp) >= 0;
	if (fp)
		ok = !fclose(fp) && ok;
	free(text);
	return ok;
}

static struct ctf_trace *open_among(const char *name, struct ctf_trace *const *known, size_t n)
{
	char path[700], err[600] = "";
	struct ctf_trace *t = NULL;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK_CTX("open %s", name);
	if (!CHECK_EQ_S64(ctf_trace_open_among(path, known, n, &t, err, sizeof(err)), 0))
		printf("  %s\n", err);
	return t;
}

static size_t nclasses(const struct ctf_trace *t)
{
	size_t n = 0;
	for (unsigned s = 0; s < t->meta.nstreams; s++)
		n += t->meta.streams[s]->nevents;
	return n;
}

/* The edits of a copy of synth-le that may share its model: a longer clock offset, the
 * trace's and the clock's UUIDs, a longer hostname, another integer in the environment. */
static const char *const copy_edits[] = {
    "offset = 123456789;",
    "offset = 9123456789;",
    "uuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a564\"",
    "uuid = \"2a6422d0-6cee-11e0-8c08-cb07d7b3a599\"",
    "uuid = \"9a1d0e2c-5c1f-4e0f-9c4b-4a1f3b2c1d00\"",
    "uuid = \"9a1d0e2c-5c1f-4e0f-9c4b-4a1f3b2c1d77\"",
    "hostname = \"synth-host\";",
    "hostname = \"a-much-longer-host-name\";",
    "synth_version = 1;",
    "synth_version = \"two\";",
};

static void test_shared(void)
{
	CHECK_CTX("copy");
	if (!CHECK(copy_trace("synth-le", "copy", copy_edits, 10)) ||
	    !CHECK(copy_trace("synth-le", "copy2", copy_edits, 2)))
		return;
	struct ctf_trace *a = open_among("synth-le", NULL, 0);
	struct ctf_trace *b = a ? open_among("copy", &a, 1) : NULL;
	if (!b) {
		ctf_trace_free(a);
		return;
	}
	CHECK_CTX("copy shares synth-le's model");
	CHECK(b->model == a && a->sharers == 1);
	CHECK(b->meta.text == a->meta.text);
	CHECK_EQ_U64(nclasses(b), nclasses(a));
	/* its own values; synth-le's as they were */
	CHECK_EQ_U64(b->meta.uuid[15], 0x99);
	CHECK_EQ_U64(a->meta.uuid[15], 0x64);
	CHECK_EQ_U64(b->meta.clocks[0]->uuid[15], 0x77);
	CHECK_EQ_U64(a->meta.clocks[0]->uuid[15], 0x00);
	CHECK_EQ_U64(b->meta.clocks[0]->offset, 9123456789u);
	CHECK_EQ_U64(a->meta.clocks[0]->offset, 123456789u);
	CHECK_EQ_S64(b->meta.clocks[0]->offset_s, 1700000000);
	CHECK(b->meta.streams[0]->clock == b->meta.clocks[0]);
	const struct stream_class_plans *pa = a->meta.streams[0]->plan,
	                                *pb = b->meta.streams[0]->plan;
	CHECK_EQ_S64(pb->clock_offset_ns - pa->clock_offset_ns, 9000000000);
	CHECK_STR(b->hostname, "a-much-longer-host-name");
	CHECK_STR(a->hostname, "synth-host");
	CHECK_STR(ctf_meta_env(&b->meta, "synth_version"), "two");
	CHECK_STR(ctf_meta_env(&a->meta, "synth_version"), "1");
	CHECK_STR(ctf_meta_env(&b->meta, "domain"), "synthetic");

	/* a third copy shares the model itself, not the copy's copy of it */
	struct ctf_trace *known[] = {a, b};
	struct ctf_trace *c = open_among("copy2", known, 2);
	CHECK_CTX("copy2 shares synth-le's model");
	CHECK(c && c->model == a && a->sharers == 2);

	/* synth-le freed first: its arena holds the model, which the copies still read */
	ctf_trace_free(a);
	CHECK_CTX("the copy's classes, made ready through the model");
	char err[600] = "";
	if (!CHECK_EQ_S64(ctf_trace_ready_all(b, err, sizeof(err)), 0))
		printf("  %s\n", err);
	const struct ctf_stream_class *sb = b->meta.streams[0];
	for (unsigned e = 0; e < sb->nevents; e++) {
		const struct ctf_event_class *ec = sb->events[e];
		CHECK(ec->trace == b && ec->shared && ec->shared->trace == a);
		CHECK(ec->plan && ec->plan == ec->shared->plan);
		CHECK(ec->fields == ec->shared->fields);
	}
	ctf_trace_free(b);
	if (c) {
		CHECK_EQ_S64(ctf_trace_ready_all(c, err, sizeof(err)), 0);
		CHECK(c->meta.streams[0]->events[0]->fields != NULL);
	}
	ctf_trace_free(c);
}

/* Copies that must have a model of their own, and read their own text. */
static void test_not_shared(void)
{
	static const struct {
		const char *name, *why;
		const char *edits[4];
	} cases[] = {
	    {"field", "a field's name", {"minus_one;", "minus_two;"}},
	    {"freq", "the clock's frequency", {"freq = 1000000000;", "freq = 1000000001;"}},
	    {"precision",
	     "a value that is not one of a trace's own",
	     {"precision = 1;", "precision = 2;"}},
	    /* a longer value that would move what follows on its line */
	    {"oneline",
	     "a longer value with more on its line",
	     {"offset_s = 1700000000;\n\toffset = 123456789;",
	      "offset_s = 170000000; offset = 123456789;"}},
	};
	struct ctf_trace *a = open_among("synth-le", NULL, 0);

	for (size_t i = 0; a && i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_CTX("not shared: %s", cases[i].why);
		if (!CHECK(copy_trace("synth-le", cases[i].name, cases[i].edits, 2)))
			continue;
		struct ctf_trace *b = open_among(cases[i].name, &a, 1);
		CHECK_CTX("not shared: %s", cases[i].why);
		CHECK(b && !b->model && b->meta.text != a->meta.text && !a->sharers);
		if (b && !strcmp(cases[i].name, "oneline"))
			CHECK_EQ_S64(b->meta.clocks[0]->offset_s, 170000000);
		ctf_trace_free(b);
	}
	ctf_trace_free(a);

	/* the same two on one line: a value of the same length may change there */
	CHECK_CTX("one line");
	const char *line[] = {"offset_s = 1700000000;\n\toffset = 123456789;",
	                      "offset_s = 1700000000; offset = 123456789;"};
	const char *same_len[] = {"offset_s = 1700000000;\n\toffset = 123456789;",
	                          "offset_s = 1700000009; offset = 123456789;"};
	if (!CHECK(copy_trace("synth-le", "line-a", line, 2)) ||
	    !CHECK(copy_trace("synth-le", "line-b", same_len, 2)))
		return;
	a = open_among("line-a", NULL, 0);
	struct ctf_trace *b = a ? open_among("line-b", &a, 1) : NULL;
	CHECK_CTX("one line: a value of the same length shares the model");
	CHECK(b && b->model == a);
	CHECK(b && b->meta.clocks[0]->offset_s == 1700000009);
	ctf_trace_free(b);
	ctf_trace_free(a);

	/* a value of the wrong kind: parsed on its own, and its error reported */
	const char *bad[] = {"hostname = \"synth-host\";", "hostname = struct { int a; };"};
	CHECK_CTX("bad env value");
	if (!CHECK(copy_trace("synth-le", "bad-env", bad, 2)))
		return;
	a = open_among("synth-le", NULL, 0);
	char path[700], err[600] = "";
	snprintf(path, sizeof(path), "%s/bad-env", dir);
	b = NULL;
	CHECK_CTX("bad env value: the parser's error");
	CHECK(ctf_trace_open_among(path, &a, 1, &b, err, sizeof(err)) < 0 && !b);
	if (!CHECK(strstr(err, "bad-env/metadata: line 30")))
		printf("  %s\n", err);
	CHECK(a && !a->sharers);
	ctf_trace_free(a);
}

/* A class whose fields are bad metadata: the copy's error names the copy's file, at the
 * line and column of the model's. */
static void test_class_error(void)
{
	char err_a[600] = "", err_b[600] = "";
	const char *edits[] = {"offset = 123456789;", "offset = 9123456789;"};

	CHECK_CTX("class error");
	if (!CHECK(copy_trace("bad-metadata-syntax", "bad-copy", edits, 2)))
		return;
	struct ctf_trace *a = open_among("bad-metadata-syntax", NULL, 0);
	struct ctf_trace *b = a ? open_among("bad-copy", &a, 1) : NULL;
	CHECK_CTX("class error");
	if (b && CHECK(b->model == a)) {
		CHECK(ctf_trace_ready_all(b, err_b, sizeof(err_b)) < 0);
		CHECK(ctf_trace_ready_all(a, err_a, sizeof(err_a)) < 0);
		const char *da = strstr(err_a, "/metadata: line "),
		           *db = strstr(err_b, "/metadata: line ");
		CHECK(da && db && !strcmp(da, db));
		if (!CHECK(strstr(err_b, "bad-copy/metadata: line ")))
			printf("  %s\n", err_b);
	}
	ctf_trace_free(b);
	ctf_trace_free(a);
}

/* Metadata that grows: the classes grafted into one trace are not the others'. */
static void test_graft(void)
{
	const char *grow[] = {"event {\n\tname = \"synth:big_id\";\n\tid = 40;",
	                      "event {\n\tname = \"synth:later\";\n\tid = 41;\n\tstream_id = 0;\n"
	                      "};\n\nevent {\n\tname = \"synth:big_id\";\n\tid = 40;"};
	CHECK_CTX("graft");
	if (!CHECK(copy_trace("synth-le", "copy", copy_edits, 10)) ||
	    !CHECK(copy_trace("synth-le", "grown", grow, 2)))
		return;
	struct ctf_trace *a = open_among("synth-le", NULL, 0);
	struct ctf_trace *b = a ? open_among("copy", &a, 1) : NULL;
	struct ctf_trace *grown = open_among("grown", NULL, 0);
	if (!b || !grown) {
		ctf_trace_free(a);
		ctf_trace_free(b);
		ctf_trace_free(grown);
		return;
	}
	size_t before = nclasses(a);
	CHECK_CTX("graft into synth-le");
	CHECK_EQ_U64(ctf_trace_graft(a, grown), 1);
	CHECK_EQ_U64(nclasses(a), before + 1);
	CHECK(ctf_stream_event(a->meta.streams[0], 41) != NULL);
	CHECK_CTX("the copy sharing its model has not grown");
	CHECK_EQ_U64(nclasses(b), before);
	CHECK(ctf_stream_event(b->meta.streams[0], 41) == NULL);
	/* a trace opened afterwards shares the model as its text says, not the grown one */
	struct ctf_trace *known[] = {a, b};
	struct ctf_trace *c = open_among("copy", known, 2);
	CHECK_CTX("opened after the graft");
	CHECK(c && c->model == a && nclasses(c) == before);
	ctf_trace_free(c);
	ctf_trace_free(b);
	ctf_trace_free(a);
}

/* Live: two traces of the same metadata, which lacks a class both streams use; one trace's
 * metadata grows to declare it. That trace's events all come, the other's stop at it. */
static void test_live(void)
{
	char path[700], warnings[WARN_APPEND_SIZE] = "";
	const char *cut = "event {\n\tname = \"synth:big_id\";";
	const char *later[] = {"offset = 123456789;", "offset = 123456790;"};

	CHECK_CTX("live");
	snprintf(path, sizeof(path), "%s/synth-le/metadata", dir);
	char *text = read_text(path), *at = text ? strstr(text, cut) : NULL;
	if (!CHECK(at)) {
		free(text);
		return;
	}
	char *block = strdup(at);
	*at = '\0';
	char live[600], cmd[4000];
	snprintf(live, sizeof(live), "%s/live", dir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s' && cp -r '%s/synth-le' '%s/a'",
	         live, live, dir, live);
	CHECK(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/a/metadata", live);
	FILE *fp = fopen(path, "w");
	CHECK(fp && fputs(text, fp) >= 0 && !fclose(fp));
	CHECK(copy_trace("live/a", "live/b", later, 2));

	struct spoor_reader *r = NULL;
	char *msg = NULL;
	if (!CHECK_EQ_S64(spoor_reader_open_live(live, &r, &msg), 0)) {
		free(msg);
		free(text);
		free(block);
		return;
	}
	spoor_reader_set_warn(r, on_warn_append, warnings);
	CHECK_EQ_S64(spoor_reader_live_refresh(r, INT64_MIN), 0);
	size_t classes = spoor_reader_event_class_count(r);
	CHECK(classes > 0 && classes % 2 == 0);
	/* now a's metadata declares the class */
	fp = fopen(path, "a");
	CHECK(fp && fputs(block, fp) >= 0 && !fclose(fp));
	CHECK_EQ_S64(spoor_reader_live_refresh(r, INT64_MAX), 0);
	const struct spoor_event *ev;
	unsigned big[2] = {0}, all[2] = {0};
	while (spoor_reader_next(r, &ev) == 1) {
		size_t t = spoor_event_class(ev)->trace;
		if (t < 2) {
			all[t]++;
			big[t] += !strcmp(spoor_event_name(ev), "synth:big_id");
		}
	}
	CHECK_CTX("live: the grown trace");
	CHECK_EQ_U64(big[0], 1);
	CHECK_EQ_U64(all[0], 22); /* SYNTH.md: synth-le's events */
	CHECK_CTX("live: the other");
	CHECK_EQ_U64(big[1], 0);
	CHECK(all[1] > 0 && all[1] < 22);
	CHECK_EQ_U64(spoor_reader_event_class_count(r), classes + 1);
	for (size_t c = 0; c < spoor_reader_event_class_count(r); c++) {
		const struct spoor_event_class *k = spoor_reader_event_class(r, c);
		if (!strcmp(spoor_event_class_name(k), "synth:big_id"))
			CHECK_EQ_U64(k->trace, 0);
	}
	CHECK_EQ_U64(spoor_reader_damaged(r), 1);
	if (!CHECK(strstr(warnings, "live/b/channel0_0")))
		printf("  warnings: %s\n", warnings);
	spoor_reader_close(r);
	free(text);
	free(block);
}

int main(void)
{
	const char *data = getenv("SPOOR_TEST_DATA"), *tmp = getenv("TMPDIR");
	char cmd[1600];

	snprintf(dir, sizeof(dir), "%s/spoor-test-meta-share-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!data || !mkdtemp(dir)) {
		printf("SPOOR_TEST_DATA not set or no temporary directory\n");
		return 1;
	}
	snprintf(cmd, sizeof(cmd),
	         "python3 '%s/gen-ctf.py' '%s' >/dev/null && python3 '%s/gen-ctf.py' --bad '%s' "
	         ">/dev/null",
	         data, dir, data, dir);
	CHECK_CTX("gen-ctf.py");
	if (CHECK_EQ_S64(system(cmd), 0)) {
		test_shared();
		test_not_shared();
		test_class_error();
		test_graft();
		test_live();
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	check_context[0] = '\0';
	return check_done();
}
