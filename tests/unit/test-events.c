/* SPDX-License-Identifier: MIT */
/*
 * test-events.c: the EVENTS text a traced program sends (lib/ipc/proto.h), as
 * lib/record/events.c parses it: a field line with or without a sequence's length type,
 * and the lines it must refuse.
 */
#include <stdbool.h>
#include <string.h>

#include "check.h"
#include "record/events.h"

static int parse(const char *text, struct rec_events *e)
{
	char err[256] = "";
	int rc = rec_events_parse(e, text, strlen(text), err, sizeof(err));
	if (rc)
		CHECK(err[0] != '\0');
	return rc;
}

static void test_length_type(void)
{
	struct rec_events e = {0};

	CHECK_CTX("nine numbers, then ten");
	if (!CHECK_EQ_S64(parse("event 0 p a 1 2\n"
	                        "field old 4 2 1 10 0 0 0 0\n"
	                        "field wide 4 2 1 16 0 0 0 0 8\n",
	                        &e),
	                  0) ||
	    !CHECK_EQ_U64(e.n, 1))
		return;
	const struct spoor_field_desc *f = e.evs[0]->fields;
	CHECK_EQ_U64(f[0].length_size, 0);
	CHECK_EQ_U64(f[1].length_size, 8);
	CHECK_EQ_U64(f[1].base, 16);
	rec_events_free(&e);
	CHECK_CTX("%s", "");
}

static void test_refused(void)
{
	static const char *const bad[] = {
	    "field s 4 2 1 10 0 0 0 0 8 1\n", /* eleven numbers */
	    "field s 4 2 1 10 0 0 0 0 8 x\n", /* something after the tenth */
	    "field s 4 2 1 10 0 0 0 0 3\n",   /* a length of 3 bytes */
	    "field s 4 2 1 10 0 0 0 0 16\n",  /* a length of 16 bytes */
	    "field s 4 2 1 10 0 0 0 0 258\n", /* 2 in a byte: no wrap-around */
	    "field s 4 2 1 10 0 0 0 0 -1\n",  /* negative */
	    "field i 0 4 1 10 0 0 0 0 4\n",   /* a length type on an integer */
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[128] = "event 0 p a 1 1\n";
		struct rec_events e = {0};
		strcat(text, bad[i]);
		CHECK_CTX("%s", bad[i]);
		CHECK_EQ_S64(parse(text, &e), -1);
		CHECK_EQ_U64(e.n, 0);
		rec_events_free(&e);
	}
	CHECK_CTX("%s", "");
}

int main(void)
{
	test_length_type();
	test_refused();
	return check_done();
}
