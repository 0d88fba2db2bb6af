/* SPDX-License-Identifier: MIT */
/*
 * cmd-stats.c: `spoor stats TRACE...` (LTTV's statistics viewer): events per name, per CPU,
 * per stream and per process (where the trace records pid/tid contexts), the time span,
 * events discarded, and how fast the trace was read.
 *
 * Counting needs no time order, so streams are read one after another, and only the
 * fields it counts by are decoded: payloads are skipped.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "command.h"
#include "util/json.h"
#include "losses.h"
#include "reader/reader.h"
#include "spoor/trace.h"

enum { OPT_BEGIN, OPT_END, OPT_JSON, OPT_HELP };

static const struct cmd_option stats_options[] = {
    [OPT_BEGIN] = {"begin", 0, "TIME",
                   "count only events at or after TIME (ns, or "
                   "seconds.fraction, since the epoch)"},
    [OPT_END] = {"end", 0, "TIME", "count only events at or before TIME"},
    [OPT_JSON] = {"json", 'j', NULL, "print JSON instead of tables"},
    [OPT_HELP] = {"help", 'h', NULL, "show this help"},
    {NULL, 0, NULL, NULL},
};

/* Per process: keyed by (trace, pid), named by the last procname seen. */
struct proc {
	uint64_t key;
	int64_t pid;
	uint64_t count;
	char name[32];
	uint8_t name_len;
	bool used, count_named;
	/* the bytes of the char array the name was last taken from (raw_len 0: none), so that
	 * an event with the same bytes is known to bring the same name in two compares */
	uint8_t raw_len;
	unsigned char raw[32];
};

struct proc_table {
	struct proc *slots;
	size_t cap, n;
	struct proc *last; /* the last one asked for: most events are of the one before's */
};

static struct proc *proc_get(struct proc_table *t, size_t trace, int64_t pid)
{
	uint64_t key = (uint64_t) trace << 40 ^ (uint64_t) pid;

	if (t->last && t->last->key == key)
		return t->last;
	if (t->n * 2 >= t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct proc *slots = calloc(cap, sizeof(*slots));
		if (!slots)
			return NULL;
		for (size_t i = 0; i < t->cap; i++)
			if (t->slots[i].used) {
				size_t j =
				    t->slots[i].key * 0x9E3779B97F4A7C15ull >> 20 & (cap - 1);
				while (slots[j].used)
					j = (j + 1) & (cap - 1);
				slots[j] = t->slots[i];
			}
		free(t->slots);
		t->slots = slots;
		t->cap = cap;
	}
	size_t j = key * 0x9E3779B97F4A7C15ull >> 20 & (t->cap - 1);
	while (t->slots[j].used && t->slots[j].key != key)
		j = (j + 1) & (t->cap - 1);
	if (!t->slots[j].used) {
		t->slots[j] = (struct proc){.key = key, .pid = pid, .used = true};
		t->n++;
	}
	return t->last = &t->slots[j];
}

/* A context field stats counts by, resolved once per event class (index < 0: absent). */
struct field_ref {
	enum spoor_scope scope;
	int index;
};

struct class_fields {
	struct field_ref pid, name;
	/* where they sit when the layouts allow (found at the class's first event) */
	struct ctf_ctx_place pid_at, name_at;
	bool placed;
};

struct stats {
	uint64_t *by_class;
	uint64_t *by_stream;
	uint64_t total;
	int64_t first, last;
	bool any_ts;
	struct class_fields *fields;
	struct proc_table procs;
	bool has_procs;
	struct spoor_reader *r;
};

/* The first of names found in a context: per event (LTTng), or per packet (spoor's
 * per-thread buffers carry vpid and vtid in the packet context). */
static struct field_ref find_field(const struct spoor_event_class *ec, const char *const *names)
{
	static const enum spoor_scope scopes[] = {SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_EVENT_CONTEXT,
	                                          SPOOR_SCOPE_PACKET_CONTEXT};
	for (; *names; names++)
		for (unsigned s = 0; s < 3; s++) {
			int i = spoor_event_class_field_index(ec, scopes[s], *names);
			if (i >= 0)
				return (struct field_ref){scopes[s], i};
		}
	return (struct field_ref){SPOOR_SCOPE_PAYLOAD, -1};
}

static void resolve_fields(struct spoor_reader *r, struct stats *st)
{
	static const char *const pid_names[] = {"vpid", "pid", "vtid", "tid", NULL};
	static const char *const name_names[] = {"procname", "comm", NULL};

	for (size_t c = 0; c < spoor_reader_event_class_count(r); c++) {
		const struct spoor_event_class *ec = spoor_reader_event_class(r, c);
		st->fields[c].pid = find_field(ec, pid_names);
		st->fields[c].name = find_field(ec, name_names);
		if (st->fields[c].pid.index >= 0)
			st->has_procs = true;
	}
}

/* The places of a class's fields, at its first event (its plans are made then). */
static void place_fields(struct class_fields *cf, const struct spoor_event *ev)
{
	const struct ctf_event_class *ec = ev->s->ec;

	if (!ctf_event_class_ctx_place(ec, cf->pid.scope, cf->pid.index, &cf->pid_at) ||
	    cf->pid_at.fast == PLAN_FAST_TEXT)
		cf->pid_at = (struct ctf_ctx_place){0};
	if (!ctf_event_class_ctx_place(ec, cf->name.scope, cf->name.index, &cf->name_at) ||
	    cf->name_at.fast != PLAN_FAST_TEXT)
		cf->name_at = (struct ctf_ctx_place){0};
	cf->placed = true;
}

static inline uint64_t load8(const unsigned char *p)
{
	uint64_t x;
	memcpy(&x, p, 8);
	return x;
}

/* n bytes at a and b the same, for n <= 32: from 16 on, four overlapping 8-byte compares
 * (memcmp would be a call) */
static inline bool same_bytes(const unsigned char *a, const unsigned char *b, size_t n)
{
	if (n < 16)
		return !memcmp(a, b, n);
	const unsigned char *x = a + n - 16, *y = b + n - 16;
	return !((load8(a) ^ load8(b)) | (load8(a + 8) ^ load8(b + 8)) | (load8(x) ^ load8(y)) |
	         (load8(x + 8) ^ load8(y + 8)));
}

/* The process's name from the event's char array of n bytes at raw (or a text of n bytes
 * when raw is NULL): the last name seen wins (exec renames). */
static void take_name(struct proc *p, const unsigned char *raw, const char *name, size_t n)
{
	if (raw) {
		if (p->raw_len == n && same_bytes(p->raw, raw, n))
			return;
		p->raw_len = n <= sizeof(p->raw) ? (uint8_t) n : 0;
		if (p->raw_len)
			memcpy(p->raw, raw, n);
		name = (const char *) raw;
		n = strnlen(name, n);
	} else {
		p->raw_len = 0;
	}
	if (n > sizeof(p->name) - 1)
		n = sizeof(p->name) - 1;
	if (p->name_len != n || memcmp(p->name, name, n)) {
		memcpy(p->name, name, n);
		p->name[n] = '\0';
		p->name_len = (uint8_t) n;
	}
}

static void count_process(struct stats *st, const struct spoor_event *ev, size_t c)
{
	struct class_fields *cf = &st->fields[c];
	int64_t pid;

	if (cf->pid.index < 0)
		return;
	if (!cf->placed)
		place_fields(cf, ev);
	/* in place, without filling a spoor_field, when the layouts allow */
	const uint8_t *at = ctf_stream_ctx_at(ev->s, &cf->pid_at);
	if (at)
		pid = ctf_load_int(at, cf->pid_at.fast, cf->pid_at.len);
	else if (!reader_field_int(ev, cf->pid.scope, cf->pid.index, &pid))
		return;
	size_t trace = spoor_event_trace(ev);
	struct proc *p = proc_get(&st->procs, trace, pid);
	if (!p)
		return;
	p->count++;
	if (!p->count_named && cf->name.index < 0) {
		/* no per-event name: the trace's own (one process per trace, as spoor writes) */
		const char *env = spoor_reader_trace_env(st->r, trace, "procname");
		if (env)
			snprintf(p->name, sizeof(p->name), "%s", env);
		p->name_len = (uint8_t) strlen(p->name);
		p->raw_len = 0;
		p->count_named = true;
	}
	if (cf->name.index < 0)
		return;
	const char *name;
	size_t len;
	if ((at = ctf_stream_ctx_at(ev->s, &cf->name_at)))
		take_name(p, at, NULL, cf->name_at.len);
	else if (reader_field_str(ev, cf->name.scope, cf->name.index, &name, &len))
		take_name(p, NULL, name, len);
}

static int read_all(struct spoor_reader *r, struct stats *st)
{
	const struct spoor_event *ev;
	int rc;

	/* the reader's inline accessors (reader.h): the command links the library statically */
	while ((rc = reader_next(r, &ev)) > 0) {
		size_t c = reader_event_class_index(ev);
		st->by_class[c]++;
		st->by_stream[reader_event_stream(ev)]++;
		st->total++;
		if (reader_event_has_timestamp(ev)) {
			int64_t ts = reader_event_timestamp(ev);
			if (!st->any_ts || ts < st->first)
				st->first = ts;
			if (!st->any_ts || ts > st->last)
				st->last = ts;
			st->any_ts = true;
		}
		if (st->has_procs)
			count_process(st, ev, c);
	}
	return rc;
}

/* ---- output ---- */

struct row {
	const char *name;
	int64_t key;
	uint64_t count;
};

static int row_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct row *) a)->name, ((const struct row *) b)->name);
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->name && y->name && strcmp(x->name, y->name))
		return strcmp(x->name, y->name);
	return x->key < y->key ? -1 : x->key > y->key;
}

static void put_time(FILE *out, int64_t ns)
{
	time_t sec = (time_t) (ns / 1000000000);
	struct tm tm;
	char buf[32];

	gmtime_r(&sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(out, "%s.%09" PRId64, buf, ns % 1000000000);
}

static void print_text(struct spoor_reader *r, const struct stats *st, double secs, FILE *out)
{
	size_t nc = spoor_reader_event_class_count(r), ns = spoor_reader_stream_count(r);
	uint64_t bytes = 0, discarded = 0, overwritten = 0, packets_lost = 0;
	struct spoor_stream_info si;

	for (size_t t = 0; t < spoor_reader_trace_count(r); t++) {
		const char *host = spoor_reader_trace_env(r, t, "hostname");
		const char *domain = spoor_reader_trace_env(r, t, "domain");
		fprintf(out, "Trace %s", spoor_reader_trace_path(r, t));
		if (host || domain)
			fprintf(out, " (%s%s%s)", host ? host : "", host && domain ? ", " : "",
			        domain ? domain : "");
		fputc('\n', out);
	}
	for (size_t s = 0; s < ns; s++) {
		spoor_reader_stream_info(r, s, &si);
		bytes += si.bytes;
		discarded += si.discarded - si.overwritten;
		overwritten += si.overwritten;
		packets_lost += si.packets_lost;
	}
	if (st->any_ts) {
		fprintf(out, "Time span: ");
		put_time(out, st->first);
		fprintf(out, " .. ");
		put_time(out, st->last);
		int64_t d = st->last - st->first;
		fprintf(out, " (%" PRId64 ".%09" PRId64 " s)\n", d / 1000000000, d % 1000000000);
	}
	fprintf(out, "Events: %" PRIu64 "\nEvents discarded: %" PRIu64 "\n", st->total, discarded);
	if (overwritten)
		fprintf(out, "Events overwritten: %" PRIu64 "\n", overwritten);
	if (packets_lost)
		fprintf(out, "Packets lost: %" PRIu64 "\n", packets_lost);
	fprintf(out, "Read: %" PRIu64 " bytes in %.3f s (%.1f MB/s, %.2f M events/s)\n", bytes,
	        secs, secs > 0 ? bytes / secs / 1e6 : 0.0, secs > 0 ? st->total / secs / 1e6 : 0.0);

	struct row *rows = calloc(nc + ns + st->procs.cap + 1, sizeof(*rows));
	if (!rows)
		return;
	size_t n = 0;
	for (size_t c = 0; c < nc; c++)
		if (st->by_class[c])
			rows[n++] =
			    (struct row){spoor_event_class_name(spoor_reader_event_class(r, c)),
			                 (int64_t) c, st->by_class[c]};
	/* classes of the same name in several traces or stream classes add up */
	qsort(rows, n, sizeof(*rows), row_name_cmp);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && !strcmp(rows[m - 1].name, rows[i].name))
			rows[m - 1].count += rows[i].count;
		else
			rows[m++] = rows[i];
	}
	n = m;
	qsort(rows, n, sizeof(*rows), row_cmp);
	fprintf(out, "\nEvents by name:\n%12s  %s\n", "count", "name");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%12" PRIu64 "  %s\n", rows[i].count, rows[i].name);

	/* per CPU: streams of the same cpu id add up (several traces may share ids) */
	n = 0;
	for (size_t s = 0; s < ns; s++) {
		spoor_reader_stream_info(r, s, &si);
		size_t i;
		for (i = 0; i < n && rows[i].key != si.cpu; i++)
			;
		if (i == n)
			rows[n++] = (struct row){NULL, si.cpu, 0};
		rows[i].count += st->by_stream[s];
	}
	fprintf(out, "\nEvents by CPU:\n%12s  %s\n", "count", "cpu");
	for (size_t i = 0; i < n; i++) {
		if (rows[i].key < 0)
			fprintf(out, "%12" PRIu64 "  (unknown)\n", rows[i].count);
		else
			fprintf(out, "%12" PRIu64 "  %" PRId64 "\n", rows[i].count, rows[i].key);
	}
	fprintf(out, "\nEvents by stream:\n%12s  %10s  %8s  %s\n", "count", "discarded", "packets",
	        "stream");
	for (size_t s = 0; s < ns; s++) {
		spoor_reader_stream_info(r, s, &si);
		fprintf(out, "%12" PRIu64 "  %10" PRIu64 "  %8" PRIu64 "  %s%s", st->by_stream[s],
		        si.discarded - si.overwritten, si.packets, si.path,
		        si.damaged ? " (damaged)" : "");
		if (si.overwritten || si.packets_lost)
			fprintf(out, " (%" PRIu64 " events overwritten, %" PRIu64 " packets lost)",
			        si.overwritten, si.packets_lost);
		fputc('\n', out);
	}
	if (st->has_procs) {
		n = 0;
		for (size_t i = 0; i < st->procs.cap; i++)
			if (st->procs.slots[i].used)
				rows[n++] =
				    (struct row){st->procs.slots[i].name, st->procs.slots[i].pid,
				                 st->procs.slots[i].count};
		qsort(rows, n, sizeof(*rows), row_cmp);
		fprintf(out, "\nEvents by process:\n%12s  %8s  %s\n", "count", "pid", "name");
		for (size_t i = 0; i < n; i++)
			fprintf(out, "%12" PRIu64 "  %8" PRId64 "  %s\n", rows[i].count,
			        rows[i].key, rows[i].name[0] ? rows[i].name : "?");
	}
	free(rows);
}

static void print_json(struct spoor_reader *r, const struct stats *st, double secs, FILE *out)
{
	size_t nc = spoor_reader_event_class_count(r), ns = spoor_reader_stream_count(r);
	struct spoor_stream_info si;
	uint64_t bytes = 0, discarded = 0, overwritten = 0, packets_lost = 0;

	for (size_t s = 0; s < ns; s++) {
		spoor_reader_stream_info(r, s, &si);
		bytes += si.bytes;
		discarded += si.discarded - si.overwritten;
		overwritten += si.overwritten;
		packets_lost += si.packets_lost;
	}
	fprintf(out,
	        "{\"events\": %" PRIu64 ", \"discarded\": %" PRIu64 ", \"overwritten\": %" PRIu64
	        ", \"packets_lost\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"seconds\": %.6f",
	        st->total, discarded, overwritten, packets_lost, bytes, secs);
	if (st->any_ts)
		fprintf(out, ", \"first_ns\": %" PRId64 ", \"last_ns\": %" PRId64, st->first,
		        st->last);
	fprintf(out, ",\n \"by_name\": {");
	/* Classes of the same name in several traces or stream classes add up. */
	bool first = true;
	for (size_t c = 0; c < nc; c++) {
		const char *name = spoor_event_class_name(spoor_reader_event_class(r, c));
		bool dup = false;
		for (size_t k = 0; k < c && !dup; k++)
			dup = !strcmp(name, spoor_event_class_name(spoor_reader_event_class(r, k)));
		if (dup)
			continue;
		uint64_t sum = 0;
		for (size_t k = c; k < nc; k++)
			if (!strcmp(name, spoor_event_class_name(spoor_reader_event_class(r, k))))
				sum += st->by_class[k];
		if (!sum)
			continue;
		fprintf(out, "%s", first ? "" : ", ");
		json_string(out, name);
		fprintf(out, ": %" PRIu64, sum);
		first = false;
	}
	fprintf(out, "},\n \"streams\": [");
	for (size_t s = 0; s < ns; s++) {
		spoor_reader_stream_info(r, s, &si);
		fprintf(out, "%s{\"path\": ", s ? ", " : "");
		json_string(out, si.path);
		fprintf(out,
		        ", \"cpu\": %" PRId64 ", \"events\": %" PRIu64 ", \"discarded\": %" PRIu64
		        ", \"overwritten\": %" PRIu64 ", \"packets\": %" PRIu64
		        ", \"packets_lost\": %" PRIu64 ", \"damaged\": %s}",
		        si.cpu, st->by_stream[s], si.discarded - si.overwritten, si.overwritten,
		        si.packets, si.packets_lost, si.damaged ? "true" : "false");
	}
	fprintf(out, "],\n \"processes\": [");
	first = true;
	for (size_t i = 0; i < st->procs.cap; i++) {
		const struct proc *p = &st->procs.slots[i];
		if (!p->used)
			continue;
		fprintf(out, "%s{\"pid\": %" PRId64 ", \"name\": ", first ? "" : ", ", p->pid);
		json_string(out, p->name);
		fprintf(out, ", \"events\": %" PRIu64 "}", p->count);
		first = false;
	}
	fprintf(out, "]}\n");
}

static int run_stats(const struct command *cmd, int argc, char **argv)
{
	struct spoor_reader *r = NULL;
	struct stats st = {0};
	bool json = false;
	int64_t begin = INT64_MIN, end = INT64_MAX;
	const char *arg;
	int first, row, rc;

	optind = 0; /* glibc starts afresh: the order options_anywhere asks for */
	while ((row = cmd_getopt(cmd, argc, argv, &arg, &first)) != -1) {
		switch (row) {
		case OPT_BEGIN:
		case OPT_END:
			if (cmd_parse_time(arg, row == OPT_BEGIN ? &begin : &end))
				return cmd_usage_error(cmd, "invalid time '%s'", arg);
			break;
		case OPT_JSON: json = true; break;
		case OPT_HELP: cmd_help(cmd, stdout); return 0;
		default: return 2;
		}
	}
	if (first >= argc)
		return cmd_usage_error(cmd, "no trace given");
	if (end < begin) /* both given: INT64_MIN and INT64_MAX when not */
		return cmd_usage_error(cmd, "--end is before --begin");
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if ((rc = cmd_open_traces(cmd, argv + first, (size_t) (argc - first), begin, end, &r)))
		return rc;
	spoor_reader_set_ordered(r, false);
	st.by_class = calloc(spoor_reader_event_class_count(r) + 1, sizeof(uint64_t));
	st.by_stream = calloc(spoor_reader_stream_count(r) + 1, sizeof(uint64_t));
	st.fields = calloc(spoor_reader_event_class_count(r) + 1, sizeof(*st.fields));
	if (!st.by_class || !st.by_stream || !st.fields) {
		rc = cmd_error(cmd, "out of memory");
		goto out;
	}
	st.r = r;
	resolve_fields(r, &st);
	rc = read_all(r, &st);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double) (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (rc < 0) {
		rc = cmd_error(cmd, "%s", spoor_strerror(rc));
		goto out;
	}
	if (json)
		print_json(r, &st, secs, stdout);
	else
		print_text(r, &st, secs, stdout);
	fflush(stdout);
	cmd_note_range(cmd, argv + first, (size_t) (argc - first), begin, end);
	cmd_warn_losses(cmd, r, st.by_stream);
	rc = cmd_read_status(cmd, r, 0, "the counts cover the events before the damage");
out:
	free(st.by_class);
	free(st.by_stream);
	free(st.fields);
	free(st.procs.slots);
	spoor_reader_close(r);
	return rc;
}

const struct command cmd_stats = {
    .name = "stats",
    .summary = "count the events of one or more traces by name, CPU, stream and process",
    .description = "Counts a trace's events by name, CPU, stream and process, with the time "
                   "span, the bytes read and the read rate, and what the tracer lost: events "
                   "discarded, events a flight recorder overwrote and packets missing, in all "
                   "and per stream.",
    .usage = "[options] TRACE...",
    .options = stats_options,
    .run = run_stats,
    .options_anywhere = true,
};
