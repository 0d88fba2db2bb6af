/* SPDX-License-Identifier: MIT */
/*
 * api-trace.c: the answers read from the traces themselves, a reader per request:
 * api/events (the range's events as spoor dump prints them) and api/stats (the analysis
 * commands' text for a range and threads).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "analysis/calls.h"
#include "analysis/loadmap.h"
#include "spoor/trace.h"
#include "timeline/cache.h"
#include "timeline/query.h"
#include "util/json.h"
#include "view/api-int.h"

enum {
	EVENTS_DEFAULT = 500, /* api/events' limit */
	EVENTS_MAX = 10000,
	NAME_MAX_LEN = 256, /* api/events' name pattern */
	CPUS_MAX = 4096,
};

/* ---- api/events ---- */

struct listed {
	int64_t t, cpu, tid;
	size_t class_index;
	const char *function; /* a function's entry or exit: its name (the cache's), or NULL */
};

struct events {
	const struct an_engine *e;
	struct spoor_formatter *f;
	int64_t origin;
	int64_t tid, pid; /* -1: any */
	size_t limit, n;
	struct listed *list;
	bool more;
	int rc;
	int fd; /* the formatter's */
	/* where the engine does not know the task yet (a trace whose events name none, before
	 * their CPU's first switch in the range): the cache's CPU rows know it */
	const struct tl_cache *cache;
	size_t *cpu_row; /* by CPU: its row + 1, 0 when none */
	size_t ncpus;
	/* a trace with calls: which events give a function's address, and their process */
	struct calls *calls;
	struct loadmap *lm;
};

/* The task the cache's row of cpu shows running at relative time t; -1: unknown, or an
 * IRQ or softirq there (the row does not say which task they interrupted). */
static int64_t cache_task(const struct events *x, int64_t cpu, int64_t t)
{
	struct tl_rect r[4];
	if (!x->cache || cpu < 0 || (size_t) cpu >= x->ncpus || !x->cpu_row[cpu] ||
	    !tl_query_spans(x->cache, x->cpu_row[cpu] - 1, t, t + 1, 1, r, 4) || r[0].begin > t)
		return -1;
	switch (r[0].state) {
	case TS_USER:
	case TS_SYSCALL:
	case TS_RUNNING: return r[0].value;
	case TS_IDLE: return 0;
	default: return -1;
	}
}

static void on_event(void *data, const struct an_event *ae)
{
	struct events *x = data;
	int64_t tid = ae->tid;
	if (tid < 0) /* a switch is its previous task's: the state just before it */
		tid = cache_task(x, ae->cpu, ae->ts - x->origin - (ae->kind == KEV_SCHED_SWITCH));
	if ((x->tid >= 0 && tid != x->tid) ||
	    (x->pid >= 0 && (tid < 0 || an_task_pid(x->e, tid) != x->pid)))
		return;
	if (x->n == x->limit || x->rc) {
		x->more = x->n == x->limit;
		an_engine_stop((struct an_engine *) x->e);
		return;
	}
	uint64_t addr;
	const char *fn = x->calls && calls_event_addr(x->calls, ae->ev, &addr)
	                     ? tl_cache_address_name(x->cache, loadmap_process(x->lm, ae->ev), addr,
	                                             ae->ts - x->origin)
	                     : NULL;
	x->list[x->n++] = (struct listed){ae->ts, ae->cpu, tid, ae->class_index, fn};
	int rc = spoor_formatter_event(x->f, ae->ev);
	if (rc < 0)
		x->rc = rc;
	/* the text so far, now and then: events of big fields must not fill the memory */
	else if (!(x->n % 64) && !(rc = spoor_formatter_flush(x->f)) &&
	         lseek(x->fd, 0, SEEK_END) > BODY_MAX)
		x->rc = -EFBIG;
	else if (rc < 0)
		x->rc = rc;
}

/* The listed events as JSON, their text the formatter's lines (text, len bytes): 0, or
 * -EFBIG past BODY_MAX. */
static int events_json(FILE *out, const struct spoor_reader *r, const struct events *x,
                       const char *text, size_t len)
{
	fputs("{\"events\": [", out);
	const char *at = text, *end = text + len;
	for (size_t i = 0; i < x->n; i++) {
		const struct listed *l = &x->list[i];
		const char *nl = at < end ? memchr(at, '\n', (size_t) (end - at)) : NULL;
		const char *line_end = nl ? nl : end;
		fprintf(out,
		        "%s\n{\"t\": %lld, \"cpu\": %lld, \"tid\": %lld, \"name\": ", i ? "," : "",
		        (long long) (l->t - x->origin), (long long) l->cpu, (long long) l->tid);
		json_string(out,
		            spoor_event_class_name(spoor_reader_event_class(r, l->class_index)));
		fprintf(out, ", \"class\": %zu, \"text\": ", l->class_index);
		json_string_n(out, at, (size_t) (line_end - at));
		if (l->function) {
			fputs(", \"function\": ", out);
			json_string(out, l->function);
		}
		fputs("}", out);
		at = nl ? nl + 1 : end;
		if (ftello(out) > BODY_MAX)
			return -EFBIG;
	}
	fprintf(out, "],\n\"more\": %s}\n", x->more ? "true" : "false");
	return 0;
}

/* The CPU rows of the cache, by CPU. */
static int cpu_rows(struct events *x)
{
	if (!x->cache)
		return 0;
	size_t rows = tl_cache_rows(x->cache);
	for (size_t i = 0; i < rows; i++) {
		const struct tl_cache_row *row = tl_cache_row(x->cache, i);
		if (row->kind == TL_ROW_CPU && row->id >= 0 && row->id < CPUS_MAX &&
		    (size_t) row->id >= x->ncpus)
			x->ncpus = (size_t) row->id + 1;
	}
	if (x->ncpus && !(x->cpu_row = calloc(x->ncpus, sizeof(*x->cpu_row))))
		return -ENOMEM;
	for (size_t i = 0; i < rows; i++) {
		const struct tl_cache_row *row = tl_cache_row(x->cache, i);
		if (row->kind == TL_ROW_CPU && row->id >= 0 && (size_t) row->id < x->ncpus)
			x->cpu_row[row->id] = i + 1;
	}
	return 0;
}

/* The events of [b, e] as spoor dump prints them, through a memfd (the formatter writes
 * to a file descriptor). */
static int list_events(struct view_api *a, struct params *p, const int64_t abs[2], const char *name,
                       struct events *x, FILE *out, char **errmsg)
{
	struct spoor_reader *r = NULL;
	struct an_engine *e = NULL;
	struct an_filter none = {0};
	int fd = memfd_create("spoor-view-events", MFD_CLOEXEC), rc;
	if (fd < 0)
		return -errno;
	if ((rc = cpu_rows(x)) || (rc = take_reader(a, &r, errmsg)))
		goto out;
	/* the names of the calls' addresses: the cache's, as its flame rows have them */
	if (x->cache && tl_cache_functions(x->cache) &&
	    (!(x->calls = calls_new(r, NULL, NULL)) || !(x->lm = loadmap_new(r, NULL)))) {
		rc = -ENOMEM;
		goto out;
	}
	spoor_reader_set_range(r, abs[0], abs[1]);
	if ((rc = an_engine_new(r, &none, &e)) ||
	    (rc = spoor_formatter_new(SPOOR_FORMAT_TEXT, fd, &x->f)))
		goto out;
	x->e = e;
	x->fd = fd;
	an_engine_want_tasks(e); /* each event's thread, from its context where it has one */
	if (x->pid >= 0)
		an_engine_want_threads(e);
	if ((rc = an_engine_on_name(e, name ? name : "*", on_event, x)) ||
	    (rc = view_run_engine(e, p->gone, p->ctx)) < 0 || (rc = x->rc) ||
	    (rc = spoor_formatter_flush(x->f)))
		goto out;
	off_t len = lseek(fd, 0, SEEK_END);
	void *text = len > 0 ? mmap(NULL, (size_t) len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	if (len < 0 || text == MAP_FAILED) {
		rc = -errno;
		goto out;
	}
	rc = events_json(out, r, x, text ? text : "", (size_t) (len > 0 ? len : 0));
	if (text)
		munmap(text, (size_t) len);
out:
	spoor_formatter_free(x->f);
	x->f = NULL;
	an_engine_free(e);
	calls_free(x->calls);
	loadmap_free(x->lm);
	spoor_reader_close(r);
	free(x->cpu_row);
	close(fd);
	return rc;
}

void api_events(struct view_api *a, struct params *p)
{
	int64_t t[2], abs[2], limit = EVENTS_DEFAULT, tid = -1, pid = -1;
	range_params(p, false, t);
	absolute(p, a, t, abs);
	int_param(p, "limit", false, 1, EVENTS_MAX, &limit);
	int_param(p, "tid", false, 0, INT64_MAX, &tid);
	int_param(p, "pid", false, 0, INT64_MAX, &pid);
	const char *name = p->bad ? NULL : p->arg(p->ctx, "name");
	if (!p->bad && name && (!*name || strlen(name) > NAME_MAX_LEN)) {
		error_reply(p->r, 400, "invalid name (a pattern of 1 to %d bytes)", NAME_MAX_LEN);
		p->bad = true;
	}
	if (p->bad)
		return;
	struct events x = {
	    .origin = abs[0] - t[0],
	    .tid = tid,
	    .pid = pid,
	    .limit = (size_t) limit,
	    .cache = __atomic_load_n(&a->cache, __ATOMIC_ACQUIRE),
	};
	struct body b;
	if (!(x.list = malloc((size_t) limit * sizeof(*x.list))) || !body_open(&b)) {
		free(x.list);
		oom_reply(p->r);
		return;
	}
	char *err = NULL;
	int rc = -ECANCELED;
	if (heavy_wait(a, p)) {
		rc = list_events(a, p, abs, name, &x, b.f, &err);
		heavy_done(a);
	}
	free(x.list);
	if (!rc) {
		body_reply(&b, 200, p->r);
	} else {
		body_drop(&b);
		if (rc == -EFBIG)
			error_reply(p->r, 400,
			            "the answer would be more than %d MiB: ask for fewer "
			            "events",
			            BODY_MAX >> 20);
		else
			error_reply(p->r, 500, "%s", err ? err : spoor_strerror(rc));
	}
	free(err);
}

/* ---- api/stats ---- */

void api_stats(struct view_api *a, struct params *p)
{
	int64_t t[2], abs[2];
	struct an_filter f = {0};
	int64_t *tids;
	range_params(p, false, t);
	absolute(p, a, t, abs);
	list_param(p, "tids", INT64_MAX, &tids, &f.ntids);
	if (p->bad)
		return;
	f.has_begin = f.has_end = true;
	f.begin = abs[0];
	f.end = abs[1];
	f.tids = tids;
	struct body b;
	if (!body_open(&b)) {
		free(tids);
		oom_reply(p->r);
		return;
	}
	int rc = heavy_wait(a, p) ? 0 : -ECANCELED;
	bool held = !rc;
	fputc('{', b.f);
	for (size_t i = 0; i < a->cfg.nstats && !rc; i++) {
		struct body text;
		if (!body_open(&text)) {
			rc = -ENOMEM;
			break;
		}
		rc = a->cfg.stats(a->cfg.stats_data, i, &f, p->gone, p->ctx, text.f);
		if (fclose(text.f))
			rc = rc ? rc : -ENOMEM;
		fprintf(b.f, "%s\n", i ? "," : "");
		json_string(b.f, a->cfg.stats_names[i]);
		fputs(": ", b.f);
		json_string_n(b.f, text.buf, text.len);
		free(text.buf);
	}
	if (held)
		heavy_done(a);
	fputs("}\n", b.f);
	free(tids);
	if (rc) {
		body_drop(&b);
		error_reply(p->r, 500, "%s", spoor_strerror(rc));
		return;
	}
	body_reply(&b, 200, p->r);
}
