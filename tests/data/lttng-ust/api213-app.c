/*
 * The api213 provider's events, and tracef()/tracelog() messages, in LTTng-UST 2.13's
 * names only (LTTNG_UST_COMPAT_API_VERSION 1); old-names.c adds tracef() and tracelog()
 * under their earlier names. Values are a pure function of the iteration.
 *
 * Usage: api213-app [ITERATIONS [THREADS]]   (defaults: 4 1; THREADS must be 1)
 */
#define LTTNG_UST_COMPAT_API_VERSION 1
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lttng/tracef.h>
#include <lttng/tracelog.h>

#include "api213-tp.h"

void old_names(unsigned i);

static void vlog(int line_level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void vlog(int line_level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (line_level)
		lttng_ust_vtracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE, fmt, ap);
	else
		lttng_ust_vtracef(fmt, ap);
	va_end(ap);
}

int main(int argc, char **argv)
{
	static const uint16_t v[4] = {0x0102, 0xbeef, 7, 0x4142};
	static const int levels[] = {0, 1, 15, 21, -3, 9};
	unsigned long iterations = argc > 1 ? strtoul(argv[1], NULL, 10) : 4;
	char longer[700];

	if (argc > 2 && strcmp(argv[2], "1")) {
		fprintf(stderr, "api213-app: one thread only\n");
		return 2;
	}
	/* longer than a message buffer on the stack is likely to be */
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	for (unsigned i = 0; i < iterations; i++) {
		int lvl = levels[i % (sizeof(levels) / sizeof(levels[0]))];

		lttng_ust_tracepoint(api213, lengths, v, i % 5, i % 3, (uint8_t) (i % 4));
		if (lttng_ust_tracepoint_enabled(api213, info))
			lttng_ust_do_tracepoint(api213, info, (int) i * 4097, "info", lvl);
		lttng_ust_tracepoint(api213, warn, -(int) i, "warn", lvl);
		lttng_ust_tracepoint(api213, empty);
		lttng_ust_tracef("tracef %u: %s", i, i % 2 ? "odd" : "even");
		vlog(0, "vtracef %u", i);
		lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_ERR, "error %u", i);
		lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG, "debug %d", -(int) i);
		vlog(1, "vtracelog %u", i);
		if (i == 1)
			lttng_ust_tracef("%s %u", longer, i);
		old_names(i);
	}
	return 0;
}
