/* SPDX-License-Identifier: MIT */
/*
 * graph-profile.c: the function profile as ftrace prints it (kernel/trace/ftrace.c:
 * function_stat_headers, function_stat_show): the name cut to 30 characters, the hits, then
 * total, average and s^2 in trace_print_graph_duration's form (s^2 in us^2, as ftrace
 * divides ns^2 by 1000 before printing it as ns), and self time after them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "graph-profile.h"
#include "util/json.h"

/* trace_print_graph_duration: us with up to 7 digits in all, " us ", padded to 8; the
 * last column without its blanks (no trailing space on the line). */
static void duration(int64_t ns, bool last)
{
	uint64_t v = ns < 0 ? 0 : (uint64_t) ns;
	char us[24];
	int len = snprintf(us, sizeof(us), "%" PRIu64, v / 1000);
	printf("%s", us);
	if (len < 7) {
		int dec = 7 - len < 3 ? 7 - len : 3;
		char rem[8];
		snprintf(rem, sizeof(rem), "%03" PRIu64, v % 1000);
		printf(".%.*s", dec, rem);
		len += dec + 1;
	}
	if (last) {
		printf(" us");
		return;
	}
	printf(" us ");
	for (; len < 8; len++)
		putchar(' ');
}

static int64_t s2(const struct callprofile_row *r)
{
	return r->w.n > 1 ? (int64_t) (r->w.m2 / (double) (r->w.n - 1) / 1000) : 0;
}

static void text(const struct callprofile_row *rows, size_t n)
{
	printf("  Function                               Hit    Time            Avg             "
	       "s^2             Self\n"
	       "  --------                               ---    ----            ---             "
	       "---             ----\n");
	for (size_t i = 0; i < n; i++) {
		const struct callprofile_row *r = &rows[i];
		if (!r->hits)
			continue;
		printf("  %-30.30s  %10" PRIu64 "    ", r->name, r->hits);
		duration(r->total, false);
		printf("    ");
		duration((int64_t) (r->total / (int64_t) r->hits), false);
		printf("    ");
		duration(s2(r), false);
		printf("    ");
		duration(r->self, true);
		putchar('\n');
	}
}

static void json(const struct callprofile_row *rows, size_t n)
{
	printf("{\"functions\": [");
	for (size_t i = 0; i < n; i++) {
		const struct callprofile_row *r = &rows[i];
		printf("%s\n  {\"name\": ", i ? "," : "");
		json_string(stdout, r->name);
		printf(", \"hits\": %" PRIu64 ", \"total_ns\": %" PRId64 ", \"avg_ns\": %.1f"
		       ", \"s2_us2\": %.6g, \"self_ns\": %" PRId64 ", \"partial\": %" PRIu64 "}",
		       r->hits, r->total, r->hits ? (double) r->total / (double) r->hits : 0.0,
		       r->w.n > 1 ? r->w.m2 / (double) (r->w.n - 1) / 1e6 : 0.0, r->self,
		       r->partial);
	}
	printf("\n]}\n");
}

int graph_profile_print(struct callprofile *p, enum callprofile_sort sort, bool as_json)
{
	const struct callprofile_row *rows;
	size_t n = callprofile_rows(p, sort, &rows);
	if (as_json)
		json(rows, n);
	else
		text(rows, n);
	return fflush(stdout) || ferror(stdout) ? -EIO : 0;
}
