/* SPDX-License-Identifier: MIT */
/*
 * functions-tsdl.c: bench/functions.sh's real call-heavy workload, a program of spoor's
 * own: lib/ctf's TSDL parser (lexer, recursive-descent parser, type model) over a generated
 * metadata text of EVENTS event classes, ROUNDS times, built with each kind of hook.
 *
 *   functions-tsdl EVENTS ROUNDS
 *
 * Prints `ns=T classes=N`, T the calling thread's CPU time for the parsing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctf/tsdl-parse.h"
#include "ctf/types.h"

static long long now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static char *metadata(int events, size_t *len)
{
	size_t cap = 4096 + (size_t) events * 512, n = 0;
	char *t = malloc(cap);
	n += (size_t) snprintf(
	    t + n, cap - n,
	    "/* CTF 1.8 */\n"
	    "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	    "trace { major = 1; minor = 8; byte_order = le;\n"
	    "  packet.header := struct { uint32_t magic; uint32_t stream_id; }; };\n"
	    "clock { name = c; freq = 1000000000; };\n"
	    "typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := "
	    "ts_t;\n"
	    "stream { id = 0; event.header := struct { uint32_t id; ts_t timestamp; };\n"
	    "  packet.context := struct { uint64_t content_size; uint64_t packet_size; }; };\n");
	for (int i = 0; i < events; i++)
		n += (size_t) snprintf(
		    t + n, cap - n,
		    "event { name = \"provider:event_%d\"; id = %d; stream_id = 0;\n"
		    "  fields := struct { uint32_t fd; uint64_t len;\n"
		    "    integer { size = 16; align = 8; signed = true; base = 16; } flags;\n"
		    "    string path; uint8_t n; uint32_t vals[n];\n"
		    "    enum : uint8_t { A, B = 3, C = 5 ... 9 } state; }; };\n",
		    i, i);
	*len = n;
	return t;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return fprintf(stderr, "usage: functions-tsdl EVENTS ROUNDS\n"), 2;
	size_t len;
	char *text = metadata(atoi(argv[1]), &len);
	int rounds = atoi(argv[2]);
	size_t classes = 0;
	long long t0 = now();
	for (int r = 0; r < rounds; r++) {
		struct ctf_meta m;
		struct tsdl_error err;
		memset(&m, 0, sizeof(m));
		if (tsdl_parse(text, len, &m, &err)) {
			fprintf(stderr, "functions-tsdl: line %d: %s\n", (int) err.line, err.msg);
			return 1;
		}
		for (unsigned s = 0; s < m.nstreams; s++)
			classes += m.streams[s]->nevents;
		ctf_meta_free(&m);
	}
	printf("ns=%lld classes=%zu\n", now() - t0, classes);
	free(text);
	return 0;
}
