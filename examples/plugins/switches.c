/* SPDX-License-Identifier: MIT */
/*
 * switches.c: an example analysis plug-in (include/spoor/plugin.h): context switches per
 * CPU and the busiest threads by times switched in, named from the trace, plus the count
 * of events of any name given in SPOOR_SWITCHES_COUNT (a shell wildcard).
 *
 *   cc -shared -fPIC $(pkg-config --cflags spoor) -o switches.so examples/plugins/switches.c
 *   spoor analyze --plugin ./switches.so TRACE
 */
#include <spoor/plugin.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CPUS 1024
#define MAX_TIDS 65536

struct state {
	struct spoor_plugin_host *host;
	uint64_t per_cpu[MAX_CPUS];
	uint64_t *per_tid; /* times switched in, by tid (tids beyond MAX_TIDS not kept) */
	uint64_t named;
	const char *pattern;
};

static void on_switch(void *data, const struct spoor_plugin_event *e)
{
	struct state *s = data;
	int64_t next;
	if (e->cpu >= 0 && e->cpu < MAX_CPUS)
		s->per_cpu[e->cpu]++;
	/* slot 5 of a switch is next_tid (next_pid in ftrace's names): the host maps both */
	if (s->host->slot_int(e, 5, &next) && next > 0 && next < MAX_TIDS)
		s->per_tid[next]++;
}

static void on_named(void *data, const struct spoor_plugin_event *e)
{
	(void) e;
	((struct state *) data)->named++;
}

static void *init(struct spoor_plugin_host *h)
{
	struct state *s = calloc(1, sizeof(*s));
	if (!s || !(s->per_tid = calloc(MAX_TIDS, sizeof(*s->per_tid)))) {
		free(s);
		return NULL;
	}
	s->host = h;
	if (h->on_kind(h, SPOOR_KIND_SCHED_SWITCH, on_switch, s)) {
		free(s->per_tid);
		free(s);
		return NULL;
	}
	s->pattern = getenv("SPOOR_SWITCHES_COUNT");
	if (s->pattern && h->on_name(h, s->pattern, on_named, s)) {
		free(s->per_tid);
		free(s);
		return NULL;
	}
	return s;
}

static int report(void *data, struct spoor_plugin_host *h, FILE *out, bool json)
{
	struct state *s = data;
	uint64_t total = 0;
	for (int c = 0; c < MAX_CPUS; c++)
		total += s->per_cpu[c];
	/* the 5 threads switched in most often */
	int64_t top[5] = {0};
	for (int64_t t = 1; t < MAX_TIDS; t++)
		for (int k = 0; k < 5; k++)
			if (s->per_tid[t] > s->per_tid[top[k]]) {
				memmove(top + k + 1, top + k, (4 - (size_t) k) * sizeof(*top));
				top[k] = t;
				break;
			}
	if (json) {
		fprintf(out, "{\"plugin\": \"switches\", \"switches\": %llu, \"per_cpu\": {",
		        (unsigned long long) total);
		for (int c = 0, first = 1; c < MAX_CPUS; c++)
			if (s->per_cpu[c]) {
				fprintf(out, "%s\"%d\": %llu", first ? "" : ", ", c,
				        (unsigned long long) s->per_cpu[c]);
				first = 0;
			}
		fprintf(out, "}, \"named\": %llu}\n", (unsigned long long) s->named);
		return 0;
	}
	fprintf(out, "switches: %llu\n", (unsigned long long) total);
	for (int c = 0; c < MAX_CPUS; c++)
		if (s->per_cpu[c])
			fprintf(out, "  cpu %d: %llu\n", c, (unsigned long long) s->per_cpu[c]);
	fprintf(out, "most switched in:\n");
	for (int k = 0; k < 5 && top[k]; k++) {
		const char *comm = h->task_comm(h, top[k]);
		fprintf(out, "  %-16s tid %-7lld %llu\n", comm ? comm : "?", (long long) top[k],
		        (unsigned long long) s->per_tid[top[k]]);
	}
	if (s->pattern)
		fprintf(out, "events matching '%s': %llu\n", s->pattern,
		        (unsigned long long) s->named);
	return 0;
}

static void fini(void *data)
{
	struct state *s = data;
	free(s->per_tid);
	free(s);
}

SPOOR_PLUGIN_EXPORT const struct spoor_plugin spoor_plugin = {
    .size = sizeof(struct spoor_plugin),
    .abi = SPOOR_PLUGIN_ABI,
    .name = "switches",
    .summary = "context switches per CPU and the threads switched in most",
    .init = init,
    .report = report,
    .fini = fini,
};
