/* SPDX-License-Identifier: MIT */
/*
 * test-tef.c: the Trace Event Format writer's pieces: JSON string literals from untrusted
 * bytes (util/json: escapes, UTF-8 kept when well formed, U+FFFD for each byte that is
 * not), and times as µs with exact ns decimals (timeline/tef).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "timeline/tef.h"
#include "util/json.h"

/* What json_string_buf writes for s[0..n). */
static const char *literal(const char *s, size_t n)
{
	static char got[1 << 16];
	struct outbuf o; /* big enough never to be flushed (to no file) */
	if (!CHECK(outbuf_init(&o, -1, sizeof(got) - 1) == 0) || !CHECK(json_string_buf(&o, s, n) == 0))
		return "";
	memcpy(got, o.buf, o.len);
	got[o.len] = 0;
	outbuf_fini(&o);
	return got;
}

#define LIT(s) literal((s), sizeof(s) - 1)

static void strings(void)
{
	CHECK_STR(LIT(""), "\"\"");
	CHECK_STR(LIT("plain text"), "\"plain text\"");
	CHECK_STR(LIT("q\"b\\s/"), "\"q\\\"b\\\\s/\"");
	CHECK_STR(LIT("\n\t\r\b\f"), "\"\\n\\t\\r\\u0008\\u000c\"");
	CHECK_STR(LIT("\x01\x1f\x7f"), "\"\\u0001\\u001f\\u007f\"");
	CHECK_STR(literal("a\0b", 3), "\"a\\u0000b\"");
	/* well-formed UTF-8 goes through: 2, 3 and 4 bytes */
	CHECK_STR(LIT("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xbe"),
	          "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xbe\"");
	/* anything else: U+FFFD per byte, and the next byte starts afresh */
	CHECK_STR(LIT("\xff"), "\"\\ufffd\"");
	CHECK_STR(LIT("\xc3"), "\"\\ufffd\"");                 /* cut short at the end */
	CHECK_STR(LIT("\xc3("), "\"\\ufffd(\"");               /* bad continuation */
	CHECK_STR(LIT("\xc0\xaf"), "\"\\ufffd\\ufffd\"");      /* overlong '/' */
	CHECK_STR(LIT("\xe0\x80\xaf"), "\"\\ufffd\\ufffd\\ufffd\""); /* overlong */
	CHECK_STR(LIT("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\""); /* a surrogate */
	CHECK_STR(LIT("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* > U+10FFFF */
	CHECK_STR(LIT("\x80x"), "\"\\ufffdx\"");               /* a lone continuation */
	/* a long one: room for the worst case */
	char big[3000];
	memset(big, '"', sizeof(big));
	const char *got = literal(big, sizeof(big));
	CHECK_EQ_U64(strlen(got), 2 * sizeof(big) + 2);
}

/* An event's text as tef writes it (into a memfd, read back). */
static const char *event_text(int64_t ts, int64_t dur, int64_t busy)
{
	static char got[512];
	int fd = memfd_create("tef", 0);
	struct tef t;
	if (!CHECK(fd >= 0) || !CHECK(tef_open(&t, fd) == 0))
		return "";
	tef_event(&t, 'X', 1, 2, ts);
	tef_us(&t, "dur", dur);
	tef_object(&t, "args");
	tef_decimal(&t, "%", busy, 4);
	tef_str(&t, "s", "\"", 1);
	tef_close(&t);
	tef_close(&t);
	CHECK(tef_finish(&t, NULL, NULL) == 0);
	tef_free(&t);
	ssize_t n = pread(fd, got, sizeof(got) - 1, 0);
	close(fd);
	got[n > 0 ? n : 0] = 0;
	char *ev = strstr(got, "{\"ph\"");
	char *end = ev ? strstr(ev, "}}") : NULL;
	if (!CHECK(ev && end))
		return "";
	end[2] = 0;
	return ev;
}

static void times(void)
{
	CHECK_STR(event_text(0, 1, 1000000),
	          "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":0.001,"
	          "\"args\":{\"%\":100,\"s\":\"\\\"\"}}");
	CHECK_STR(event_text(1234567, 10, 5),
	          "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":1234.567,\"dur\":0.01,"
	          "\"args\":{\"%\":0.0005,\"s\":\"\\\"\"}}");
	/* 100 days in ns: still exact as three decimals */
	CHECK_STR(event_text(8640000000000001, 1000, 0),
	          "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":8640000000000.001,\"dur\":1,"
	          "\"args\":{\"%\":0,\"s\":\"\\\"\"}}");
	CHECK_STR(event_text(-1500, 0, 0),
	          "{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":-1.5,\"dur\":0,"
	          "\"args\":{\"%\":0,\"s\":\"\\\"\"}}");
}

/* json_string_n (a FILE) writes the same, in chunks that never split a UTF-8 sequence. */
static void file_strings(void)
{
	char in[4998], *got = NULL, want[40000];
	size_t len = 0;
	for (size_t i = 0; i < sizeof(in); i++) /* 'a', then "é" (2 bytes) shifted by one */
		in[i] = i % 3 == 0 ? 'a' : i % 3 == 1 ? '\xc3' : '\xa9';
	for (int cut = 0; cut < 3; cut++) {
		FILE *f = open_memstream(&got, &len);
		json_string_n(f, in + cut, sizeof(in) - (size_t) cut);
		fclose(f);
		snprintf(want, sizeof(want), "%s", literal(in + cut, sizeof(in) - (size_t) cut));
		CHECK_CTX("shifted by %d", cut);
		CHECK_STR(got, want);
		CHECK(!strstr(got, "\\ufffd") == (cut != 2));
		free(got);
	}
	check_context[0] = 0;
}

int main(void)
{
	strings();
	file_strings();
	times();
	return check_done();
}
