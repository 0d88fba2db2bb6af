/* SPDX-License-Identifier: MIT */
/*
 * cache-build.c: one pass of the analysis engine with the timeline's state machine
 * (states.h) feeding the cache writer (cache-write.h): spans, marks and every event's
 * class for the rates, and the function calls by depth (flame.h) when the trace has them;
 * then the tables (classes, system calls, functions and the calls' addresses, damage, row
 * names and depths).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "reader/reader.h"
#include "spoor/spoor.h"
#include "timeline/cache-build.h"
#include "timeline/cache-write.h"
#include "timeline/flame.h"
#include "timeline/procnames.h"

#define PROGRESS_EVERY_NS 100000000 /* a pause of the pass to tell the progress */

struct build {
	struct tl_cache_writer *w;
	struct an_engine *e;
	int64_t last; /* the last event's relative time: where damage is met */
	struct tl_states *st;
	struct tl_flame *fl;     /* NULL: the trace has no calls */
	struct tl_procnames *pn; /* NULL: no procname contexts */
	char **damage;
	int64_t *damage_at;
	size_t ndamage;
};

static void on_span(void *data, enum tl_row_kind kind, int64_t id, const struct tl_span *s)
{
	struct build *b = data;
	tl_cache_writer_span(b->w, kind, id, s); /* an error stays in the writer */
}

static void on_mark(void *data, int64_t tid, int64_t t, size_t class_index)
{
	struct build *b = data;
	tl_cache_writer_mark(b->w, tid, t, class_index);
}

static void on_call(void *data, const struct tl_call *c)
{
	struct build *b = data;
	struct tl_span s = {c->begin, c->end, c->flags, c->function};
	tl_cache_writer_call(b->w, c->row, c->tid, &s);
}

static void on_event(void *data, int64_t t, size_t class_index)
{
	struct build *b = data;
	b->last = t;
	tl_cache_writer_event(b->w, t, class_index);
}

/* The reader's damage messages, kept with the time of the last event before them. */
static void on_warn(void *data, const char *message)
{
	struct build *b = data;
	char **more = realloc(b->damage, (b->ndamage + 1) * sizeof(*more));
	if (more)
		b->damage = more;
	int64_t *at = realloc(b->damage_at, (b->ndamage + 1) * sizeof(*at));
	if (at)
		b->damage_at = at;
	if (!more || !at || !(b->damage[b->ndamage] = strdup(message)))
		return;
	b->damage_at[b->ndamage++] = b->last;
}

static void row_info(void *data, enum tl_row_kind kind, int64_t id, int64_t *pid, const char **name)
{
	struct build *b = data;
	if (kind == TL_ROW_CPU) {
		*pid = -1;
		*name = NULL;
		return;
	}
	/* the thread model's, else the thread's own contexts (LTTng-UST's per-UID traces) */
	int64_t ctx_pid;
	const char *ctx_name = tl_procnames_name(b->pn, id, &ctx_pid);
	*pid = an_task_pid_said(b->e, id);
	if (*pid < 0)
		*pid = ctx_pid >= 0 ? ctx_pid : id;
	*name = an_task_comm(b->e, id);
	if (!*name)
		*name = ctx_name;
}

/* The share of the traces' stream bytes read so far. */
static double fraction(const struct spoor_reader *r)
{
	uint64_t done = 0, all = 0;
	for (size_t i = 0; i < spoor_reader_stream_count(r); i++) {
		struct spoor_stream_info info;
		struct stat st;
		spoor_reader_stream_info(r, i, &info);
		done += info.bytes;
		if (!stat(info.path, &st))
			all += (uint64_t) st.st_size;
	}
	return all && done < all ? (double) done / (double) all : all ? 1 : 0;
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t) ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int run(struct build *b, struct spoor_reader *r,
               void (*progress)(void *data, double fraction), void *data)
{
	int rc;
	if (!progress)
		return an_engine_run(b->e);
	progress(data, 0);
	while ((rc = an_engine_run_until(b->e, now_ns() + PROGRESS_EVERY_NS)) == 1)
		progress(data, fraction(r));
	return rc;
}

/* The tables: every class (named, user space or not), system calls, damage. */
static int tables(struct build *b, struct spoor_reader *r)
{
	for (size_t i = 0; i < spoor_reader_event_class_count(r); i++) {
		const struct spoor_event_class *ec = spoor_reader_event_class(r, i);
		const char *domain = spoor_reader_trace_env(r, ec->trace, "domain");
		tl_cache_writer_class(b->w, i, spoor_event_class_name(ec),
		                      domain && !strcmp(domain, "ust"));
	}
	for (size_t i = 0; i < tl_states_syscall_count(b->st); i++)
		tl_cache_writer_syscall(b->w, tl_states_syscall_name(b->st, (uint32_t) i));
	for (size_t i = 0; i < b->ndamage; i++)
		tl_cache_writer_damage(b->w, b->damage_at[i], b->damage[i]);
	for (size_t i = 0; b->fl && i < tl_flame_functions(b->fl); i++)
		tl_cache_writer_function(b->w, tl_flame_function_name(b->fl, (uint32_t) i));
	for (size_t i = 0; b->fl && i < tl_flame_addresses(b->fl); i++) {
		const struct tl_address *a = tl_flame_address(b->fl, i);
		tl_cache_writer_address(b->w, a->proc, a->addr, a->from, a->function);
	}
	for (uint32_t i = 0; b->fl && i < tl_flame_rows(b->fl); i++) {
		int64_t tid;
		uint32_t depth;
		tl_flame_row(b->fl, i, &tid, &depth);
		tl_cache_writer_call_depth(b->w, i, depth);
	}
	return 0;
}

static int fail(char **errmsg, int rc, const char *what)
{
	if (errmsg && !*errmsg && asprintf(errmsg, "%s: %s", what, spoor_strerror(rc)) < 0)
		*errmsg = NULL;
	return rc;
}

int tl_cache_build(const char *const *paths, size_t npaths, int fd, const char *tmpdir, uint64_t fp,
                   void (*progress)(void *data, double fraction), void *data, char **errmsg,
                   bool *writing)
{
	struct build b = {0};
	struct spoor_reader *r = NULL;
	*errmsg = NULL;
	*writing = false;
	int rc = spoor_reader_open(paths, npaths, &r, errmsg);
	if (rc)
		return fail(errmsg, rc, "opening the trace");
	spoor_reader_set_warn(r, on_warn, &b);
	struct tl_callbacks cb = {.data = &b, .span = on_span, .mark = on_mark, .event = on_event};
	struct tl_flame_callbacks fcb = {.data = &b, .call = on_call};
	if ((rc = an_engine_new(r, NULL, &b.e)) ||
	    (*writing = (rc = tl_cache_writer_new(fd, tmpdir, &b.w)) != 0) ||
	    (rc = tl_states_new(b.e, &cb, &b.st)) || (rc = tl_flame_new(b.e, &fcb, &b.fl)) ||
	    (rc = tl_procnames_new(b.e, &b.pn))) {
		fail(errmsg, rc, "building the timeline");
		goto out;
	}
	an_engine_want_threads(b.e);
	if ((rc = run(&b, r, progress, data)) < 0) {
		fail(errmsg, rc, "reading the trace");
		goto out;
	}
	tl_states_finish(b.st);
	if (b.fl && (rc = tl_flame_finish(b.fl))) {
		fail(errmsg, rc, "rebuilding the function calls");
		goto out;
	}
	if ((rc = tl_procnames_status(b.pn))) {
		fail(errmsg, rc, "naming the threads");
		goto out;
	}
	int64_t begin, end, origin = tl_states_origin(b.st);
	an_span(b.e, &begin, &end);
	tables(&b, r);
	struct tl_cache_meta m = {.fingerprint = fp,
	                          .origin = origin,
	                          .duration = end > origin ? end - origin : 0,
	                          .lost = an_events_lost(b.e),
	                          .row_info = row_info,
	                          .data = &b};
	rc = tl_cache_writer_finish(b.w, &m);
	*writing = rc != 0;
	if (rc) {
		if (asprintf(errmsg, "writing the timeline cache: %s", strerror(-rc)) < 0)
			*errmsg = NULL;
	} else if (progress) {
		progress(data, 1);
	}
out:
	tl_states_free(b.st);
	tl_flame_free(b.fl);
	tl_procnames_free(b.pn);
	tl_cache_writer_free(b.w);
	an_engine_free(b.e);
	spoor_reader_close(r);
	for (size_t i = 0; i < b.ndamage; i++)
		free(b.damage[i]);
	free(b.damage);
	free(b.damage_at);
	return rc;
}
