/* SPDX-License-Identifier: MIT */
/*
 * timeline-query.c: the timeline cache's cost on a trace (lib/timeline/cache.h, query.h):
 * what `spoor view` does for its first picture and for each zoom or pan.
 *
 *   bench-timeline-query [--px N] TRACE...
 *
 * Opens (building when stale: time it by removing TRACE/.spoor-view.cache first) the cache,
 * then draws "frames": rows' tl_query_spans and tl_query_marks at N pixels (1500) over the
 * whole trace and over windows 10x, 100x, ... narrower at 9 places: every row with the
 * pages kept, every row with tl_cache_release after each frame (as `spoor view` does after
 * each request), and a screenful of rows. Prints the open's time, the cache's size and
 * spans, per zoom the median and slowest frame and the rects per frame, each pass's peak
 * memory (VmHWM: the server's, which maps the cache), the traces' size, and the builder's
 * peak.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "timeline/cache.h"
#include "timeline/query.h"

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static long status_kb(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;
	size_t n = strlen(key);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n))
			kb = strtol(line + n + 1, NULL, 10);
	if (f)
		fclose(f);
	return kb;
}

/* The peak resident memory (VmHWM) starts again from now (proc(5): clear_refs). */
static void reset_peak(void)
{
	FILE *f = fopen("/proc/self/clear_refs", "w");
	if (f) {
		fputs("5", f);
		fclose(f);
	}
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *) a, y = *(const int64_t *) b;
	return x < y ? -1 : x > y;
}

/* Frames of nr rows from r0 (the CPU rows, the last ones, always in) over windows of a
 * div-th of the trace, at 9 places. */
static void frames(struct tl_cache *c, size_t r0, size_t nr, size_t rows, uint32_t px, int64_t div,
                   bool release, struct tl_rect *rects, struct tl_markrect *marks)
{
	enum { FRAMES = 9 };
	int64_t dur = tl_cache_duration(c), w = dur / div, ns[FRAMES];
	uint64_t total = 0;
	for (int f = 0; f < FRAMES; f++) {
		int64_t t0 = (dur - w) / (FRAMES - 1) * f, t1 = t0 + w;
		int64_t s = now_ns();
		for (size_t i = 0; i < nr; i++) {
			size_t r = tl_cache_row(c, rows - 1 - i)->kind == TL_ROW_CPU ? rows - 1 - i
			                                                             : r0 + i;
			total += tl_query_spans(c, r, t0, t1, px, rects, 2 * (size_t) px + 2);
			total += tl_query_marks(c, r, t0, t1, px, marks, px + 1);
		}
		ns[f] = now_ns() - s;
		if (release)
			tl_cache_release(c);
	}
	qsort(ns, FRAMES, sizeof(*ns), cmp64);
	printf("1/%-10" PRId64 " %8d %10.2f %10.2f %12" PRIu64 "\n", div, FRAMES,
	       ns[FRAMES / 2] / 1e6, ns[FRAMES - 1] / 1e6, total / FRAMES);
}

int main(int argc, char **argv)
{
	uint32_t px = 1500;
	int first = 1;
	if (argc > 2 && !strcmp(argv[1], "--px")) {
		px = (uint32_t) atoi(argv[2]);
		first = 3;
	}
	if (first >= argc || !px) {
		fprintf(stderr, "usage: bench-timeline-query [--px N] TRACE...\n");
		return 2;
	}
	struct tl_cache *c = NULL;
	char *err = NULL;
	int64_t t = now_ns();
	if (tl_cache_open((const char *const *) argv + first, (size_t) (argc - first), &c, &err)) {
		fprintf(stderr, "bench-timeline-query: %s\n", err ? err : "cannot open");
		return 1;
	}
	int64_t open_ns = now_ns() - t;
	struct stat st;
	long long cache_bytes = stat(tl_cache_path(c), &st) ? -1 : (long long) st.st_size;
	size_t rows = tl_cache_rows(c);
	int64_t dur = tl_cache_duration(c);
	uint64_t spans = 0, nmarks = 0;
	for (size_t r = 0; r < rows; r++) {
		spans += tl_cache_row(c, r)->spans;
		nmarks += tl_cache_row(c, r)->marks;
	}
	printf("open (built if stale) %.3f s; cache %s: %lld bytes, %zu rows, %" PRIu64
	       " spans (%.1f bytes each), %" PRIu64 " marks, duration %.6f s\n",
	       open_ns / 1e9, tl_cache_path(c), cache_bytes, rows, spans,
	       spans ? (double) cache_bytes / (double) spans : 0, nmarks, dur / 1e9);

	struct tl_rect *rects = malloc((2 * (size_t) px + 2) * sizeof(*rects));
	struct tl_markrect *marks = malloc((px + 1) * sizeof(*marks));
	size_t screen = rows < 60 ? rows : 60;
	static const struct {
		const char *what;
		bool screen, release;
	} passes[] = {
	    {"every row, pages kept", false, false},
	    {"every row, tl_cache_release after each frame", false, true},
	    {"a screen of 60 rows (the CPUs, threads from the middle), released", true, true},
	};
	for (size_t k = 0; k < sizeof(passes) / sizeof(*passes); k++) {
		tl_cache_release(c);
		reset_peak();
		size_t r0 = passes[k].screen ? (rows - screen) / 2 : 0,
		       nr = passes[k].screen ? screen : rows;
		printf("\n%s:\n%-12s %8s %10s %10s %12s\n", passes[k].what, "window", "frames",
		       "median ms", "max ms", "rects/frame");
		for (int64_t div = 1; div <= 1000000 && dur / div > 0; div *= 10)
			frames(c, r0, nr, rows, px, div, passes[k].release, rects, marks);
		printf("peak resident memory of the pass (VmHWM) %ld kB\n", status_kb("VmHWM:"));
	}
	/* the rate strip: every class at once, and each of the 8 busiest alone */
	double *bins = malloc(px * sizeof(*bins));
	int64_t s = now_ns();
	tl_query_rate(c, SIZE_MAX, 0, dur + 1, px, bins);
	int64_t all_ns = now_ns() - s;
	size_t busiest[8] = {0}, nb = 0;
	for (size_t k = 0; k < tl_cache_classes(c); k++) {
		size_t at = nb < 8 ? nb++ : 7;
		if (nb == 8 && tl_cache_class_events(c, k) <= tl_cache_class_events(c, busiest[7]))
			continue;
		for (;
		     at && tl_cache_class_events(c, busiest[at - 1]) < tl_cache_class_events(c, k);
		     at--)
			busiest[at] = busiest[at - 1];
		busiest[at] = k;
	}
	s = now_ns();
	for (size_t k = 0; k < nb; k++)
		tl_query_rate(c, busiest[k], 0, dur + 1, px, bins);
	printf("\nrates at %u bins: every class summed %.2f ms; the %zu busiest classes %.2f ms\n",
	       px, all_ns / 1e6, nb, (now_ns() - s) / 1e6);
	free(bins);

	long long trace_bytes = 0;
	for (int i = first; i < argc; i++) {
		char cmd[4200];
		snprintf(cmd, sizeof(cmd), "du -sb --exclude='.spoor-view*' '%s'", argv[i]);
		FILE *p = popen(cmd, "r");
		long long b = 0;
		if (p && fscanf(p, "%lld", &b) == 1)
			trace_bytes += b;
		if (p)
			pclose(p);
	}
	printf("\nthe traces: %lld bytes\n", trace_bytes);
	struct rusage ru;
	if (!getrusage(RUSAGE_CHILDREN, &ru)) /* the builder's, when it ran (and du's) */
		printf("the cache builder's peak (a child: the trace's mapped pages too) %ld kB\n",
		       ru.ru_maxrss);
	free(rects);
	free(marks);
	tl_cache_close(c);
	return 0;
}
