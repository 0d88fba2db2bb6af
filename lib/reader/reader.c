/* SPDX-License-Identifier: MIT */
/*
 * reader.c: the public trace reader: finds traces under the given paths, opens their
 * streams, and merges them into one event sequence in timestamp order.
 *
 * Merge order follows babeltrace2's muxer (common/muxing), so that multi-stream output
 * matches it line for line: by time, then, for equal times, by trace UUID, trace name,
 * stream class id and stream id. Those tie keys are per stream, so they are folded into one
 * precomputed rank and the heap compares (time, rank) only.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reader.h"
#include "util/dirnames.h"

struct hook {
	char *pattern;
	spoor_hook_fn fn;
	void *data;
};

/* The streams' keys live in the merge heap itself: comparisons touch no stream. A key is
 * one 128-bit number, (time with its sign bit flipped, rank, stream) from the top bits
 * down, so that (time, rank) order is one unsigned compare (ranks are unique). */
typedef unsigned __int128 heap_ent;
#define HEAP_NONE (~(heap_ent) 0)

struct spoor_reader {
	struct reader_run run; /* first: reader_next reads it in line (reader.h) */
	struct ctf_trace **traces;
	size_t ntraces;
	struct ctf_stream *streams;
	size_t nstreams;
	struct spoor_event_class *classes;
	size_t nclasses;
	heap_ent *heap;
	size_t nheap;
	heap_ent second; /* the smaller of heap[1] and heap[2] (all ones when absent); its time
	                  * is run.limit */
	uint32_t *rank;
	bool ordered, started, has_range;
	int64_t begin, end;
	size_t seq; /* unordered mode: the stream being read */
	spoor_warn_fn warn;
	void *warn_data;
	unsigned damaged;
	struct hook *hooks;
	size_t nhooks;
	/* live mode (spoor_reader_open_live): arrays at fixed capacities, so that streams and
	 * classes found later do not move the ones handed out */
	bool live;
	char *live_dir;
	int64_t until; /* events after this wait for the next refresh */
	int64_t last;  /* the latest timestamp delivered */
	uint64_t late; /* events delivered after a later one (committed after the watermark) */
	char **live_paths;
	size_t nlive_paths;
};

#define LIVE_MAX_STREAMS 4096
#define LIVE_MAX_CLASSES 65536

/* ---- finding traces ---- */

static int add_trace(struct spoor_reader *r, const char *dir, char **errmsg)
{
	char err[600] = "";
	struct ctf_trace *t;

	for (size_t i = 0; r->live && i < r->ntraces; i++)
		if (!strcmp(r->traces[i]->path, dir))
			return 0; /* known already */
	/* traces of one folder often have the same metadata: parsed once, shared */
	int rc = ctf_trace_open_among(dir, r->traces, r->ntraces, &t, err, sizeof(err));

	if (rc) {
		if (errmsg)
			*errmsg = strdup(err);
		return rc;
	}
	struct ctf_trace **bigger = realloc(r->traces, (r->ntraces + 1) * sizeof(*bigger));
	if (!bigger) {
		ctf_trace_free(t);
		return -ENOMEM;
	}
	r->traces = bigger;
	t->index = r->ntraces;
	r->traces[r->ntraces++] = t;
	return 0;
}

/* A directory with a `metadata` file is a trace; any other directory is searched. */
static int find_traces(struct spoor_reader *r, const char *path, int depth, char **errmsg)
{
	char meta[4096];
	struct stat st;

	if (stat(path, &st)) {
		int rc = -errno;
		if (errmsg && asprintf(errmsg, "%s: %s", path, strerror(errno)) < 0)
			*errmsg = NULL;
		return rc;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (errmsg && asprintf(errmsg, "%s: not a trace directory", path) < 0)
			*errmsg = NULL;
		return -SPOOR_ENOTTRACE;
	}
	snprintf(meta, sizeof(meta), "%s/metadata", path);
	if (!stat(meta, &st) && S_ISREG(st.st_mode))
		return add_trace(r, path, errmsg);
	if (depth > 16)
		return 0;
	char **names;
	size_t n;
	int rc = dirnames(path, &names, &n);
	if (rc) {
		if (errmsg && asprintf(errmsg, "%s: %s", path, strerror(-rc)) < 0)
			*errmsg = NULL;
		return rc;
	}
	for (size_t i = 0; !rc && i < n; i++) {
		char *sub;
		if (asprintf(&sub, "%s/%s", path, names[i]) < 0)
			continue;
		if (!stat(sub, &st) && S_ISDIR(st.st_mode))
			rc = find_traces(r, sub, depth + 1, errmsg);
		free(sub);
	}
	dirnames_free(names, n);
	return rc;
}

/* ---- opening ---- */

static void warn(struct spoor_reader *r, const char *msg)
{
	if (r->warn)
		r->warn(r->warn_data, msg);
	else
		fprintf(stderr, "spoor: warning: %s\n", msg);
}

static int rank_cmp_ctx(const struct spoor_reader *r, uint32_t a, uint32_t b)
{
	const struct ctf_stream *x = &r->streams[a], *y = &r->streams[b];
	const struct ctf_meta *mx = &x->trace->meta, *my = &y->trace->meta;

	if (mx->has_uuid != my->has_uuid)
		return mx->has_uuid ? -1 : 1;
	if (mx->has_uuid) {
		int c = memcmp(mx->uuid, my->uuid, 16);
		if (c)
			return c;
	}
	int c = strcmp(x->trace->path, y->trace->path);
	if (c)
		return c;
	if (x->stream_id != y->stream_id)
		return x->stream_id < y->stream_id ? -1 : 1;
	uint64_t ix = x->has_instance_id ? x->instance_id : x->index;
	uint64_t iy = y->has_instance_id ? y->instance_id : y->index;
	if (ix != iy)
		return ix < iy ? -1 : 1;
	return a < b ? -1 : a > b;
}

static const struct spoor_reader *sort_reader; /* qsort has no context argument */
static int rank_cmp(const void *a, const void *b)
{
	return rank_cmp_ctx(sort_reader, *(const uint32_t *) a, *(const uint32_t *) b);
}

/* A merge heap of n slots (at least 3, as update_second reads two children), all
 * HEAP_NONE: one slot more than its most keys, for sift_down's second child. */
static heap_ent *heap_alloc(size_t n)
{
	n = n < 3 ? 3 : n;
	heap_ent *h = malloc(n * sizeof(*h));
	for (size_t i = 0; h && i < n; i++)
		h[i] = HEAP_NONE;
	return h;
}

/* Chunks of one stream (a rotated session: the same trace UUID, stream class and instance
 * in several folders) carry running loss counts, as babeltrace2, which reads them as one
 * stream, wants. A stream continued from an earlier chunk counts its first packet's
 * losses from where that chunk's last packet left them, not from zero. */
static int chunk_cmp(const void *pa, const void *pb)
{
	const struct ctf_stream *x = &sort_reader->streams[*(const uint32_t *) pa];
	const struct ctf_stream *y = &sort_reader->streams[*(const uint32_t *) pb];
	int c = memcmp(x->trace->meta.uuid, y->trace->meta.uuid, 16);
	if (c)
		return c;
	if (x->stream_id != y->stream_id)
		return x->stream_id < y->stream_id ? -1 : 1;
	if (x->instance_id != y->instance_id)
		return x->instance_id < y->instance_id ? -1 : 1;
	if (x->first_begin != y->first_begin)
		return x->first_begin < y->first_begin ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static bool same_chunked_stream(const struct ctf_stream *x, const struct ctf_stream *y)
{
	return x->trace != y->trace && !memcmp(x->trace->meta.uuid, y->trace->meta.uuid, 16) &&
	       x->stream_id == y->stream_id && x->instance_id == y->instance_id;
}

/* s has read only its first packet (open_streams): its counters are that packet's, its
 * totals those counters counted from zero, and seq_next its packet number + 1 (0: none). */
static void continue_counts(struct ctf_stream *s, const struct ctf_stream *before)
{
	struct ctf_stream end;

	if (ctf_stream_open(&end, before->trace, before->path, before->index) == 0) {
		ctf_stream_scan_to_end(&end);
		if (end.discarded_counter <= s->discarded_counter)
			s->discarded -= end.discarded_counter;
		if (end.overwritten_counter <= s->overwritten_counter)
			s->overwritten -= end.overwritten_counter;
		if (s->seq_next && end.seq_next && s->seq_next - 1 > end.seq_next)
			s->packets_lost += s->seq_next - 1 - end.seq_next;
		if (!s->discarded && !s->packets_lost)
			s->lost_range = false;
		s->lost_any = s->discarded != 0;
	}
	ctf_stream_close(&end);
}

static int chain_chunks(struct spoor_reader *r)
{
	uint32_t *order = malloc((r->nstreams + 1) * sizeof(*order));
	size_t n = 0;

	if (!order)
		return -ENOMEM;
	for (uint32_t i = 0; i < r->nstreams; i++)
		if (r->streams[i].has_instance_id && r->streams[i].trace->meta.has_uuid &&
		    r->streams[i].packets && !r->streams[i].damaged)
			order[n++] = i;
	sort_reader = r;
	qsort(order, n, sizeof(*order), chunk_cmp);
	for (size_t k = 1; k < n; k++)
		if (same_chunked_stream(&r->streams[order[k]], &r->streams[order[k - 1]]))
			continue_counts(&r->streams[order[k]], &r->streams[order[k - 1]]);
	free(order);
	return 0;
}

/* A part to read alone (reader_open_part): one stream file, a byte range of it. */
struct part_range {
	const char *stream;
	uint64_t begin, end;
};

/* The streams of every trace, or only a part's (one stream file, a byte range of it). */
static int open_streams(struct spoor_reader *r, const struct part_range *part)
{
	size_t total = 0, k = 0;

	for (size_t t = 0; t < r->ntraces; t++)
		total += r->traces[t]->nstream_paths;
	r->streams = calloc(total + 1, sizeof(*r->streams));
	r->heap = heap_alloc(total + 1);
	r->rank = calloc(total + 1, sizeof(*r->rank));
	if (!r->streams || !r->heap || !r->rank)
		return -ENOMEM;
	for (size_t t = 0; t < r->ntraces; t++)
		for (size_t i = 0; i < r->traces[t]->nstream_paths; i++) {
			const char *path = r->traces[t]->stream_paths[i];
			if (!part)
				ctf_stream_open(&r->streams[k], r->traces[t], path, k);
			else if (!strcmp(path, part->stream))
				ctf_stream_open_at(&r->streams[k], r->traces[t], path, k,
				                   part->begin, part->end);
			else
				continue;
			k++;
		}
	total = k;
	r->nstreams = total;
	uint32_t *order = malloc((total + 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (uint32_t i = 0; i < total; i++)
		order[i] = i;
	sort_reader = r;
	qsort(order, total, sizeof(*order), rank_cmp);
	for (uint32_t i = 0; i < total; i++)
		r->rank[order[i]] = i;
	free(order);
	return chain_chunks(r);
}

/* Number the classes of the traces from `first` on (live mode: of the traces just found). */
static int index_classes(struct spoor_reader *r, size_t first)
{
	size_t n = 0;

	for (size_t t = 0; t < r->ntraces; t++)
		for (unsigned s = 0; s < r->traces[t]->meta.nstreams; s++)
			n += r->traces[t]->meta.streams[s]->nevents;
	if (r->live && n > LIVE_MAX_CLASSES)
		return -ENOSPC;
	if (!r->classes)
		r->classes = calloc((r->live ? LIVE_MAX_CLASSES : n) + 1, sizeof(*r->classes));
	if (!r->classes)
		return -ENOMEM;
	for (size_t t = first; t < r->ntraces; t++) {
		struct ctf_meta *m = &r->traces[t]->meta;
		for (unsigned s = 0; s < m->nstreams; s++)
			for (unsigned e = 0; e < m->streams[s]->nevents; e++) {
				struct spoor_event_class *c = &r->classes[r->nclasses];
				c->ec = m->streams[s]->events[e];
				c->sc = m->streams[s];
				c->trace = t;
				c->index = r->nclasses++;
				c->ec->global_index = c->index;
			}
	}
	return 0;
}

static int reader_open(const char *const *paths, size_t npaths, const struct part_range *part,
                       struct spoor_reader **out, char **errmsg)
{
	struct spoor_reader *r = calloc(1, sizeof(*r));
	int rc = 0;

	*out = NULL;
	if (errmsg)
		*errmsg = NULL;
	if (!r)
		return -ENOMEM;
	r->ordered = true;
	for (size_t i = 0; i < npaths && !rc; i++) {
		size_t before = r->ntraces;
		rc = find_traces(r, paths[i], 0, errmsg);
		if (!rc && r->ntraces == before) {
			rc = -SPOOR_ENOTTRACE;
			if (errmsg && asprintf(errmsg,
			                       "%s: no CTF trace here (no metadata file in it "
			                       "or below it)",
			                       paths[i]) < 0)
				*errmsg = NULL;
		}
	}
	if (!rc && !npaths)
		rc = -SPOOR_EUSAGE;
	if (!rc && part && r->ntraces != 1) {
		rc = -SPOOR_EUSAGE;
		if (errmsg &&
		    asprintf(errmsg, "%s: not one trace (a part is of one trace)", paths[0]) < 0)
			*errmsg = NULL;
	}
	if (!rc)
		rc = index_classes(r, 0);
	if (!rc)
		rc = open_streams(r, part);
	if (!rc && part && r->nstreams != 1) {
		rc = -ENOENT;
		if (errmsg && asprintf(errmsg, "%s: no stream file of the trace %s", part->stream,
		                       paths[0]) < 0)
			*errmsg = NULL;
	}
	if (rc) {
		spoor_reader_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

int spoor_reader_open(const char *const *paths, size_t npaths, struct spoor_reader **out,
                      char **errmsg)
{
	return reader_open(paths, npaths, NULL, out, errmsg);
}

int reader_open_part(const char *trace, const char *stream, uint64_t begin, uint64_t end,
                     struct spoor_reader **out, char **errmsg)
{
	struct part_range part = {stream, begin, end};
	return reader_open(&trace, 1, &part, out, errmsg);
}

int reader_stream_packets(const struct spoor_reader *r, size_t stream, reader_packet_fn fn,
                          void *data, char **errmsg)
{
	const struct ctf_stream *of = &r->streams[stream];
	struct ctf_stream s;
	int rc = ctf_stream_open(&s, of->trace, of->path, of->index);

	*errmsg = NULL;
	while (!rc && s.in_packet) {
		struct ctf_packet_span span;
		ctf_stream_packet_span(&s, &span);
		if ((rc = fn(data, &span)))
			break;
		rc = ctf_stream_next_packet(&s);
		rc = rc < 0 ? rc : 0;
	}
	if (rc < 0 && s.damaged)
		*errmsg = strdup(s.error);
	ctf_stream_close(&s);
	return rc;
}

void spoor_reader_close(struct spoor_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nstreams; i++)
		ctf_stream_close(&r->streams[i]);
	for (size_t t = 0; t < r->ntraces; t++)
		ctf_trace_free(r->traces[t]);
	for (size_t h = 0; h < r->nhooks; h++)
		free(r->hooks[h].pattern);
	free(r->hooks);
	free(r->traces);
	free(r->streams);
	free(r->heap);
	free(r->rank);
	free(r->classes);
	for (size_t i = 0; i < r->nlive_paths; i++)
		free(r->live_paths[i]);
	free(r->live_paths);
	free(r->live_dir);
	free(r);
}

void spoor_reader_set_warn(struct spoor_reader *r, spoor_warn_fn fn, void *data)
{
	r->warn = fn;
	r->warn_data = data;
}

unsigned spoor_reader_damaged(const struct spoor_reader *r)
{
	return r->damaged;
}

void spoor_reader_set_range(struct spoor_reader *r, int64_t begin_ns, int64_t end_ns)
{
	r->has_range = true;
	r->run.plain = false;
	r->begin = begin_ns;
	r->end = end_ns;
}

void spoor_reader_set_ordered(struct spoor_reader *r, bool ordered)
{
	r->ordered = ordered;
	r->run.plain = false;
}

bool reader_pass_over(struct spoor_reader *r, const bool *pass, size_t n, int64_t begin,
                      int64_t end)
{
	if (r->live || !r->ordered || r->started)
		return false;
	for (size_t c = 0; c < n && c < r->nclasses; c++) {
		struct spoor_event_class *k = &r->classes[c];
		k->ec->pass_over = pass[c];
		if (pass[c] && !k->sc->pass_skip && k->sc->by_id_len &&
		    !(k->sc->pass_skip = arena_alloc(&r->traces[k->trace]->meta.arena,
		                                     k->sc->by_id_len * sizeof(uint32_t))))
			return false;
	}
	for (size_t i = 0; i < r->nstreams; i++) {
		r->streams[i].span_begin = begin;
		r->streams[i].span_end = end;
	}
	return true;
}

bool reader_live(const struct spoor_reader *r)
{
	return r->live;
}

bool reader_passed_span(const struct spoor_reader *r, int64_t *first, int64_t *last)
{
	bool any = false;

	for (size_t i = 0; i < r->nstreams; i++) {
		const struct ctf_stream *s = &r->streams[i];
		if (!s->passed_any)
			continue;
		if (!any || s->passed_first < *first)
			*first = s->passed_first;
		if (!any || s->passed_last > *last)
			*last = s->passed_last;
		any = true;
	}
	return any;
}

void reader_stream_end(const struct spoor_reader *r, size_t stream, int64_t *cpu,
                       uint64_t *discarded, int64_t *last)
{
	const struct ctf_stream *s = &r->streams[stream];
	*cpu = s->cpu;
	*discarded = s->discarded;
	*last = s->sc && s->sc->clock ? s->ts_ns : 0;
}

/* ---- the merge ---- */

/* A key's top half: stream s's time, its sign bit flipped (unsigned order). */
static inline uint64_t heap_time(const struct spoor_reader *r, uint32_t s)
{
	return (uint64_t) r->streams[s].ts_ns ^ ((uint64_t) 1 << 63);
}

static inline heap_ent heap_key(const struct spoor_reader *r, uint32_t s)
{
	return (heap_ent) heap_time(r, s) << 64 | (heap_ent) ((uint64_t) r->rank[s] << 32 | s);
}

static inline uint32_t heap_stream(heap_ent e)
{
	return (uint32_t) e;
}

static void update_second(struct spoor_reader *r)
{
	heap_ent a = r->heap[1], b = r->heap[2]; /* HEAP_NONE when absent (heap_alloc) */
	r->second = a < b ? a : b;
	/* its time as a stream's, INT64_MAX when absent */
	r->run.limit = (int64_t) ((uint64_t) (r->second >> 64) ^ ((uint64_t) 1 << 63));
}

/* Any change to the heap but through heap_update_top must end with update_second. */
static void heap_push(struct spoor_reader *r, uint32_t s)
{
	heap_ent e = heap_key(r, s);
	size_t i = r->nheap++;

	/* the top's time may be behind its stream's (reader_next moves it on in place) */
	if (i)
		r->heap[0] = heap_key(r, heap_stream(r->heap[0]));

	while (i) {
		size_t parent = (i - 1) / 2;
		if (e >= r->heap[parent])
			break;
		r->heap[i] = r->heap[parent];
		i = parent;
	}
	r->heap[i] = e;
	update_second(r);
}

/* Put e at the top and let it sink. A node's second child needs no bound check: the slots
 * past the heap hold HEAP_NONE (heap_alloc, heap_pop_last), larger than any key. */
static void sift_down(struct spoor_reader *r, heap_ent e)
{
	heap_ent *h = r->heap;
	size_t i = 0, n = r->nheap;

	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		heap_ent a = h[c], b = h[c + 1];
		bool right = b < a;
		heap_ent m = right ? b : a;
		if (m >= e)
			break;
		h[i] = m;
		c += right;
	}
	h[i] = e;
}

/* The heap's last key, taken out (its slot back to HEAP_NONE). */
static heap_ent heap_pop_last(struct spoor_reader *r)
{
	heap_ent e = r->heap[--r->nheap];
	r->heap[r->nheap] = HEAP_NONE;
	return e;
}

/* The top stream moved on (one, 1) or ended (0). A stream's events often come in runs:
 * while it stays ahead of the runner-up, only its key changes. */
static __attribute__((noinline)) void heap_update_top_slow(struct spoor_reader *r, bool has_event,
                                                           heap_ent e)
{
	if (has_event)
		sift_down(r, e);
	else if (r->nheap > 1)
		sift_down(r, heap_pop_last(r));
	else
		heap_pop_last(r);
	update_second(r);
}

/* True when the top stream moved on and stays ahead of the runner-up: the heap's top is
 * the same stream. Its key in the heap keeps an older time while its stream's is below
 * the runner-up's (run.limit): only heap_push compares with it, and puts it right first. */
static inline bool heap_update_top(struct spoor_reader *r, bool has_event)
{
	heap_ent e = 0;
	if (has_event) {
		uint32_t top = heap_stream(r->heap[0]);
		if (r->streams[top].ts_ns < r->run.limit)
			return true;
		e = heap_key(r, top);
		if (e < r->second) {
			r->heap[0] = e;
			return true;
		}
	}
	heap_update_top_slow(r, has_event, e);
	return false;
}

static bool live_more_classes(struct spoor_reader *r, struct ctf_stream *s);

/* advance past an event-less ctf_stream_next: live growth, damage. */
static __attribute__((noinline)) int advance_end(struct spoor_reader *r, struct ctf_stream *s,
                                                 int rc)
{
	/* live: the end of the mapping may not be the end of the file any more, and an event
	 * the metadata did not declare may be one it declares now */
	if (!rc && r->live && ctf_stream_grow(s) > 0)
		rc = ctf_stream_next(s);
	if (rc == -SPOOR_ENOEVENT && r->live && live_more_classes(r, s))
		rc = ctf_stream_next(s);
	if (rc < 0) {
		r->damaged++;
		warn(r, s->error);
		return 0;
	}
	return rc;
}

/* Advance one stream; 1 if it has an event. Damage is reported and counted here. */
static inline int advance(struct spoor_reader *r, struct ctf_stream *s)
{
	int rc = ctf_stream_next(s);
	return rc > 0 ? rc : advance_end(r, s, rc);
}

static void start(struct spoor_reader *r)
{
	r->started = true;
	for (size_t i = 0; i < r->nstreams; i++) {
		struct ctf_stream *s = &r->streams[i];
		/* packets wholly before the range: their contexts only (a live trace's files
		 * are read as they grow: not there) */
		if (r->has_range && !r->live)
			ctf_stream_skip_before(s, r->begin);
		if (s->damaged) { /* failed when opened, or in a packet skipped */
			r->damaged++;
			warn(r, s->error);
			continue;
		}
		if (r->ordered && advance(r, s))
			heap_push(r, (uint32_t) i);
	}
}

/* Unordered reading: the streams one after the other. The stream in hand is run.cur, so
 * that without a time range reader_next's common case reads on in it (run.limit stays
 * INT64_MAX: no runner-up), and comes here only at its end (reader_next_moved). */
static int next_unordered(struct spoor_reader *r, const struct spoor_event **ev)
{
	while (r->seq < r->nstreams) {
		struct ctf_stream *s = &r->streams[r->seq];
		if (!s->damaged && advance(r, s)) {
			if (r->has_range && (s->ts_ns < r->begin || s->ts_ns > r->end))
				continue;
			r->run.ev.s = r->run.cur = s;
			*ev = &r->run.ev;
			return 1;
		}
		r->seq++;
	}
	r->run.cur = NULL;
	return 0;
}

/* reader_next_moved when unordered: the stream in hand gave rc. */
static int unordered_moved(struct spoor_reader *r, const struct spoor_event **ev, int rc)
{
	if (rc > 0 || (rc = advance_end(r, r->run.cur, rc)) > 0) {
		*ev = &r->run.ev; /* an event at INT64_MAX, not past run.limit */
		return 1;
	}
	r->seq++;
	return next_unordered(r, ev);
}

/* Kept apart from reader_next's common case, so that it saves and restores few registers. */
__attribute__((noinline)) int reader_next_general(struct spoor_reader *r,
                                                  const struct spoor_event **ev)
{
	r->run.ev.r = r;
	if (!r->started) {
		start(r);
		r->run.plain = !r->has_range && !r->live;
		if (!r->ordered)
			r->run.limit = INT64_MAX;
	}
	if (!r->ordered)
		return next_unordered(r, ev);
	/* The current event's stream is the heap's top until it moves on. */
	if (r->run.cur) {
		heap_update_top(r, advance(r, r->run.cur));
		r->run.cur = NULL;
	}
	while (r->nheap) {
		struct ctf_stream *s = &r->streams[heap_stream(r->heap[0])];
		if (r->has_range && s->ts_ns < r->begin) {
			heap_update_top(r, advance(r, s));
			continue;
		}
		if (r->has_range && s->ts_ns > r->end) {
			while (r->nheap)
				heap_pop_last(r);
			return 0;
		}
		if (r->live) {
			if (s->ts_ns > r->until)
				return 0; /* not yet: a stream not read so far may hold earlier
				             events */
			if (s->ts_ns < r->last)
				r->late++;
			else
				r->last = s->ts_ns;
		}
		r->run.cur = s;
		r->run.ev.s = s;
		*ev = &r->run.ev;
		return 1;
	}
	return 0;
}

int reader_next_moved(struct spoor_reader *r, const struct spoor_event **ev, int rc)
{
	if (!r->ordered)
		return unordered_moved(r, ev, rc);
	if (rc <= 0)
		rc = advance_end(r, r->run.cur, rc);
	if (heap_update_top(r, rc > 0)) {
		*ev = &r->run.ev; /* the same stream: run.ev and run.cur stand */
		return 1;
	}
	if (!r->nheap) {
		r->run.cur = NULL;
		return 0;
	}
	r->run.ev.s = r->run.cur = &r->streams[heap_stream(r->heap[0])];
	*ev = &r->run.ev;
	return 1;
}

int spoor_reader_next(struct spoor_reader *r, const struct spoor_event **ev)
{
	return reader_next(r, ev);
}

/* ---- hooks ---- */

int spoor_reader_add_hook(struct spoor_reader *r, const char *pattern, spoor_hook_fn fn, void *data)
{
	struct hook *bigger = realloc(r->hooks, (r->nhooks + 1) * sizeof(*bigger));

	if (!bigger)
		return -ENOMEM;
	r->hooks = bigger;
	r->hooks[r->nhooks].pattern = strdup(pattern);
	if (!r->hooks[r->nhooks].pattern)
		return -ENOMEM;
	r->hooks[r->nhooks].fn = fn;
	r->hooks[r->nhooks].data = data;
	r->nhooks++;
	return 0;
}

int spoor_reader_run(struct spoor_reader *r)
{
	/* Resolve patterns to classes once: per event, one array look-up. */
	size_t *first = malloc((r->nclasses + 1) * sizeof(*first));
	size_t *chain = malloc((r->nclasses * r->nhooks + 1) * sizeof(*chain));
	const struct spoor_event *ev;
	int rc = 0;

	if (!first || !chain) {
		free(first);
		free(chain);
		return -ENOMEM;
	}
	size_t nchain = 0;
	for (size_t c = 0; c < r->nclasses; c++) {
		first[c] = nchain;
		for (size_t h = 0; h < r->nhooks; h++)
			if (!fnmatch(r->hooks[h].pattern, r->classes[c].ec->name, 0))
				chain[nchain++] = h;
	}
	first[r->nclasses] = nchain;
	while (!rc && (rc = spoor_reader_next(r, &ev)) > 0) {
		size_t c = reader_event_class_index(ev);
		rc = 0;
		for (size_t k = first[c]; k < first[c + 1] && !rc; k++)
			rc = r->hooks[chain[k]].fn(ev, r->hooks[chain[k]].data);
	}
	free(first);
	free(chain);
	return rc;
}

/* ---- info ---- */

size_t spoor_reader_trace_count(const struct spoor_reader *r)
{
	return r->ntraces;
}

const char *spoor_reader_trace_path(const struct spoor_reader *r, size_t trace)
{
	return trace < r->ntraces ? r->traces[trace]->path : NULL;
}

const char *spoor_reader_trace_env(const struct spoor_reader *r, size_t trace, const char *key)
{
	return trace < r->ntraces ? ctf_meta_env(&r->traces[trace]->meta, key) : NULL;
}

size_t spoor_reader_stream_count(const struct spoor_reader *r)
{
	return r->nstreams;
}

void spoor_reader_stream_info(const struct spoor_reader *r, size_t i,
                              struct spoor_stream_info *info)
{
	const struct ctf_stream *s = &r->streams[i];

	info->path = s->path;
	info->trace = s->trace->index;
	info->cpu = s->cpu;
	info->stream_class_id = s->stream_id;
	info->packets = s->packets;
	info->bytes = s->bytes;
	info->skipped_packets = s->skipped_packets;
	info->skipped_bytes = s->skipped_bytes;
	info->discarded = s->discarded;
	info->damaged = s->damaged;
	/* a part of the discarded ones, whatever a damaged trace says */
	info->overwritten = s->overwritten < s->discarded ? s->overwritten : s->discarded;
	info->packets_lost = s->packets_lost;
	bool clocked = s->lost_range && s->sc && s->sc->clock;
	info->lost_begin_ns = clocked ? ctf_clock_ns(s->scp, s->lost_begin) : 0;
	info->lost_end_ns = clocked ? ctf_clock_ns(s->scp, s->lost_end) : 0;
	clocked = s->packets && s->sc && s->sc->clock;
	info->begin_ns = clocked ? ctf_clock_ns(s->scp, s->first_begin) : 0;
	info->end_ns = clocked ? ctf_clock_ns(s->scp, s->prev_end) : 0;
}

size_t spoor_reader_event_class_count(const struct spoor_reader *r)
{
	return r->nclasses;
}

const struct spoor_event_class *spoor_reader_event_class(const struct spoor_reader *r, size_t i)
{
	return i < r->nclasses ? &r->classes[i] : NULL;
}

const char *spoor_event_class_name(const struct spoor_event_class *ec)
{
	return ec->ec->name;
}

uint64_t spoor_event_class_id(const struct spoor_event_class *ec)
{
	return ec->ec->id;
}

size_t spoor_event_class_index(const struct spoor_event_class *ec)
{
	return ec->index;
}

/* A class's own scope, parsed on first need. NULL when absent, or when the class's metadata
 * is bad (its events report that). */
static const struct ctf_type *class_scope(struct ctf_event_class *ec, bool context)
{
	const struct ctf_deferred *d = context ? &ec->lazy_context : &ec->lazy_fields;

	if (!(context ? ec->context : ec->fields) && !d->line)
		return NULL; /* not declared: no need to parse the rest */
	if (ctf_event_class_ready(ec))
		return NULL;
	return context ? ec->context : ec->fields;
}

const struct ctf_type *reader_class_scope_type(const struct ctf_stream_class *sc,
                                               struct ctf_event_class *ec, enum spoor_scope scope)
{
	switch (scope) {
	case SPOOR_SCOPE_PACKET_CONTEXT: return sc->packet_context;
	case SPOOR_SCOPE_EVENT_HEADER: return sc->event_header;
	case SPOOR_SCOPE_STREAM_EVENT_CONTEXT: return sc->event_context;
	case SPOOR_SCOPE_EVENT_CONTEXT: return class_scope(ec, true);
	case SPOOR_SCOPE_PAYLOAD: return class_scope(ec, false);
	default: return NULL;
	}
}

int spoor_event_class_field_index(const struct spoor_event_class *ec, enum spoor_scope scope,
                                  const char *name)
{
	const struct ctf_type *t = reader_class_scope_type(ec->sc, ec->ec, scope);
	return t ? ctf_struct_find(t, name, t->s.n) : -1;
}

/* ---- the current event ---- */

const struct spoor_event_class *spoor_event_class(const struct spoor_event *ev)
{
	return &ev->r->classes[ev->s->ec->global_index];
}

const char *spoor_event_name(const struct spoor_event *ev)
{
	return ev->s->ec->name;
}

bool spoor_event_has_timestamp(const struct spoor_event *ev)
{
	return reader_event_has_timestamp(ev);
}

int64_t spoor_event_timestamp(const struct spoor_event *ev)
{
	return ev->s->ts_ns;
}

uint64_t spoor_event_cycles(const struct spoor_event *ev)
{
	return ev->s->ts_cycles;
}

const struct spoor_reader *spoor_event_reader(const struct spoor_event *ev)
{
	return ev->r;
}

int64_t spoor_event_clock_ns(const struct spoor_event *ev)
{
	return ev->s->sc->clock ? ev->s->ts_ns - ev->s->scp->clock_offset_ns : 0;
}

uint64_t spoor_event_discarded(const struct spoor_event *ev)
{
	return ev->s->discarded;
}

int64_t spoor_event_cpu(const struct spoor_event *ev)
{
	return ev->s->cpu;
}

size_t spoor_event_stream(const struct spoor_event *ev)
{
	return ev->s->index;
}

size_t spoor_event_trace(const struct spoor_event *ev)
{
	return ev->s->trace->index;
}

const struct ctf_type *reader_scope_type(const struct spoor_event *ev, enum spoor_scope scope)
{
	return reader_class_scope_type(ev->s->sc, ev->s->ec, scope);
}

const struct ctf_trace *reader_event_trace(const struct spoor_event *ev)
{
	return ev->s->trace;
}

int reader_scope_values(const struct spoor_event *ev, enum spoor_scope scope,
                        const struct val_table **table, uint32_t *root)
{
	struct ctf_stream *s = ev->s;

	if (scope == SPOOR_SCOPE_PACKET_CONTEXT) {
		*table = &s->pkt_table;
	} else {
		bool was_damaged = s->damaged;
		int rc = ctf_stream_decode(s, scope);
		if (rc < 0) {
			if (!was_damaged) {
				ev->r->damaged++;
				warn(ev->r, s->error);
			}
			return rc;
		}
		*table = &s->ev_table;
	}
	*root = s->dec.scope_root[scope];
	return 0;
}

/* v is the value of type t: from a value table, or read in place (ctf_stream_peek). */
static void fill_value(struct spoor_field *out, const char *name, const struct ctf_type *t,
                       const struct val *v)
{
	out->kind = SPOOR_FIELD_NONE;
	out->label = NULL;
	out->count = 0;
	out->base = 10;
	out->name = name;
	out->priv[0] = t;
	out->priv[1] = NULL; /* no children */
	out->priv[2] = NULL;
	const struct ctf_type *it = t->kind == CTF_ENUM ? t->e.container : t;
	switch (t->kind) {
	case CTF_INT:
	case CTF_ENUM:
		out->base = (uint8_t) it->i.base;
		out->kind = it->i.is_signed ? SPOOR_FIELD_SIGNED : SPOOR_FIELD_UNSIGNED;
		out->v.u = v->u;
		if (t->kind == CTF_ENUM) {
			unsigned at = 0;
			out->label = ctf_enum_next_label(t, v->u, &at);
		}
		break;
	case CTF_FLOAT:
		out->kind = SPOOR_FIELD_FLOAT;
		out->v.f = v->f;
		break;
	case CTF_STRING:
		out->kind = SPOOR_FIELD_STRING;
		out->v.str.ptr = v->str;
		out->v.str.len = v->len;
		break;
	case CTF_ARRAY:
	case CTF_SEQUENCE:
		if (ctf_type_is_text_array(t)) {
			out->kind = SPOOR_FIELD_STRING;
			out->v.str.ptr = v->str;
			out->v.str.len = v->len;
		} else {
			out->kind = SPOOR_FIELD_ARRAY;
			out->count = v->len;
		}
		break;
	case CTF_STRUCT:
		out->kind = SPOOR_FIELD_STRUCT;
		out->count = v->len;
		break;
	case CTF_VARIANT:
		out->kind = SPOOR_FIELD_VARIANT;
		out->count = 1;
		break;
	}
}

static void fill(struct spoor_field *out, const char *name, const struct ctf_type *t,
                 const struct val_table *table, uint32_t vi)
{
	fill_value(out, name, t, &table->v[vi]);
	out->priv[1] = table;
	out->priv[2] = (const void *) (uintptr_t) vi;
}

bool spoor_event_field_at(const struct spoor_event *ev, enum spoor_scope scope, int index,
                          struct spoor_field *out)
{
	const struct ctf_type *t = reader_scope_type(ev, scope);
	const struct val_table *table;
	uint32_t root;

	if (!t || index < 0 || (unsigned) index >= t->s.n)
		return false;
	/* One scalar of a scope not decoded yet: read in place, the scope stays undecoded. */
	struct val pv;
	if (ctf_stream_peek(ev->s, scope, index, &pv)) {
		fill_value(out, t->s.fields[index].shown, t->s.fields[index].type, &pv);
		return true;
	}
	if (reader_scope_values(ev, scope, &table, &root) || root == VAL_NONE)
		return false;
	uint32_t vi = table->kids[table->v[root].kids + (uint32_t) index];
	if (vi == VAL_NONE)
		return false;
	fill(out, t->s.fields[index].shown, t->s.fields[index].type, table, vi);
	return true;
}

/* reader_field_int past its inline fast path (reader.h). */
bool reader_field_int_slow(const struct spoor_event *ev, enum spoor_scope scope, int index,
                           int64_t *v)
{
	struct val pv;
	int code;

	if (ctf_stream_peek_op(ev->s, scope, index, &pv, &code)) {
		if (code != OP_INT)
			return false;
		*v = pv.s;
		return true;
	}
	struct spoor_field f;
	return spoor_event_field_at(ev, scope, index, &f) && spoor_field_int(&f, v);
}

/* reader_field_str past its inline fast path (reader.h). */
bool reader_field_str_slow(const struct spoor_event *ev, enum spoor_scope scope, int index,
                           const char **s, size_t *len)
{
	struct val pv;
	int code;

	if (ctf_stream_peek_op(ev->s, scope, index, &pv, &code)) {
		if (code != OP_STRING && code != OP_TEXT_ARRAY)
			return false;
		*s = pv.str;
		*len = pv.len;
		return true;
	}
	struct spoor_field f;
	if (!spoor_event_field_at(ev, scope, index, &f) || f.kind != SPOOR_FIELD_STRING)
		return false;
	*s = f.v.str.ptr;
	*len = f.v.str.len;
	return true;
}

bool spoor_event_field(const struct spoor_event *ev, enum spoor_scope scope, const char *name,
                       struct spoor_field *out)
{
	const struct ctf_type *t = reader_scope_type(ev, scope);
	return t && spoor_event_field_at(ev, scope, ctf_struct_find(t, name, t->s.n), out);
}

bool spoor_field_child(const struct spoor_field *f, uint32_t i, struct spoor_field *out)
{
	const struct ctf_type *t = f->priv[0];
	const struct val_table *table = f->priv[1];

	if (!table)
		return false;
	const struct val *v = &table->v[(uintptr_t) f->priv[2]];
	switch (f->kind) {
	case SPOOR_FIELD_STRUCT:
		if (i >= v->len)
			return false;
		fill(out, t->s.fields[i].shown, t->s.fields[i].type, table,
		     table->kids[v->kids + i]);
		return true;
	case SPOOR_FIELD_ARRAY:
		if (i >= v->len)
			return false;
		fill(out, NULL, t->a.elem, table, table->kids[v->kids + i]);
		return true;
	case SPOOR_FIELD_VARIANT:
		if (i != 0)
			return false;
		fill(out, t->s.fields[v->len].shown, t->s.fields[v->len].type, table,
		     table->kids[v->kids]);
		return true;
	default: return false;
	}
}

const char *spoor_field_label(const struct spoor_field *f, uint32_t i)
{
	const struct ctf_type *t = f->priv[0];
	unsigned at = 0;
	const char *label = NULL;

	if (!f->label || !t || t->kind != CTF_ENUM)
		return NULL;
	do
		label = ctf_enum_next_label(t, f->v.u, &at);
	while (label && i-- > 0);
	return label;
}

/* ---- live traces (spoor watch) ---- */

uint64_t spoor_reader_live_late(const struct spoor_reader *r)
{
	return r->late;
}

void spoor_reader_unread(struct spoor_reader *r)
{
	if (r->ordered)
		r->run.cur = NULL; /* its stream is still the heap's top, on this event */
}

int spoor_reader_open_live(const char *dir, struct spoor_reader **out, char **errmsg)
{
	struct spoor_reader *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (errmsg)
		*errmsg = NULL;
	if (!r)
		return -ENOMEM;
	r->ordered = r->started = r->live = true;
	r->until = INT64_MIN;
	r->live_dir = strdup(dir);
	r->streams = calloc(LIVE_MAX_STREAMS, sizeof(*r->streams));
	r->heap = heap_alloc(LIVE_MAX_STREAMS + 1);
	r->rank = calloc(LIVE_MAX_STREAMS, sizeof(*r->rank));
	if (!r->live_dir || !r->streams || !r->heap || !r->rank || index_classes(r, 0)) {
		spoor_reader_close(r);
		return -ENOMEM;
	}
	*out = r;
	return 0;
}

/* The stream's trace's metadata again, whole, its new event classes grafted on and
 * numbered; then the stream, stopped at the event it could not name, goes on. */
static bool live_more_classes(struct spoor_reader *r, struct ctf_stream *s)
{
	struct ctf_trace *t = s->trace, *newer;
	char err[600];
	if (ctf_trace_open(t->path, &newer, err, sizeof(err)))
		return false;
	size_t before = r->nclasses;
	if (!ctf_trace_graft(t, newer))
		return false;
	for (unsigned c = 0; c < t->meta.nstreams; c++) {
		struct ctf_stream_class *sc = t->meta.streams[c];
		for (unsigned e = 0; e < sc->nevents; e++) {
			struct ctf_event_class *ec = sc->events[e];
			bool known = false;
			for (size_t k = 0; k < before && !known; k++)
				known = r->classes[k].ec == ec;
			if (known)
				continue;
			if (r->nclasses == LIVE_MAX_CLASSES)
				return false;
			struct spoor_event_class *n = &r->classes[r->nclasses];
			*n = (struct spoor_event_class){ec, sc, t->index, r->nclasses};
			ec->global_index = r->nclasses++;
		}
	}
	ctf_stream_undamage(s); /* it is on the event again, which is now declared */
	return true;
}

static bool stream_known(const struct spoor_reader *r, const char *path)
{
	for (size_t i = 0; i < r->nstreams; i++)
		if (!strcmp(r->streams[i].path, path))
			return true;
	return false;
}

/* Open a stream file found since the last refresh, once it holds something. */
static int live_add_stream(struct spoor_reader *r, struct ctf_trace *t, const char *path)
{
	struct stat st;

	if (stream_known(r, path) || stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size == 0)
		return 0; /* known (no system call for those), or nothing in it yet */
	if (r->nstreams == LIVE_MAX_STREAMS)
		return -ENOSPC;
	char **bigger = realloc(r->live_paths, (r->nlive_paths + 1) * sizeof(*bigger));
	if (!bigger)
		return -ENOMEM;
	r->live_paths = bigger;
	if (!(r->live_paths[r->nlive_paths] = strdup(path)))
		return -ENOMEM;
	uint32_t i = (uint32_t) r->nstreams++;
	struct ctf_stream *s = &r->streams[i];
	ctf_stream_open(s, t, r->live_paths[r->nlive_paths++], i);
	r->rank[i] = i; /* equal times: in the order found */
	if (s->damaged) {
		r->damaged++;
		warn(r, s->error);
	} else if (advance(r, s)) {
		heap_push(r, i);
	}
	return 0;
}

static int live_scan_trace(struct spoor_reader *r, struct ctf_trace *t)
{
	DIR *d = opendir(t->path);
	struct dirent *de;
	int rc = 0;

	if (!d)
		return 0; /* removed meanwhile: nothing more from it */
	while (!rc && (de = readdir(d))) {
		char path[4096];
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "metadata"))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", t->path, de->d_name) < (int) sizeof(path))
			rc = live_add_stream(r, t, path);
	}
	closedir(d);
	return rc;
}

int spoor_reader_live_refresh(struct spoor_reader *r, int64_t until_ns)
{
	if (!r->live)
		return -EINVAL;
	/* the event handed out last is done with: its stream moves on first */
	if (r->run.cur) {
		heap_update_top(r, advance(r, r->run.cur));
		r->run.cur = NULL;
	}
	size_t first = r->ntraces;
	char *msg = NULL;
	int rc = find_traces(r, r->live_dir, 0, &msg);
	if (rc && msg) {
		warn(r, msg);
		rc = 0; /* a trace that cannot be read yet is tried again next time */
	}
	free(msg);
	if ((rc = index_classes(r, first)))
		return rc;
	/* streams that reached the end of their file and have more now */
	size_t known = r->nstreams;
	for (size_t i = 0; i < known; i++) {
		struct ctf_stream *s = &r->streams[i];
		if (s->done && !s->damaged && ctf_stream_grow(s) > 0 && advance(r, s))
			heap_push(r, (uint32_t) i);
	}
	for (size_t t = 0; !rc && t < r->ntraces; t++)
		rc = live_scan_trace(r, r->traces[t]);
	r->until = until_ns;
	return rc;
}
