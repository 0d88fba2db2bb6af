/* SPDX-License-Identifier: MIT */
/* api.c: spoor view's JSON API (see api.h): its state, the cache's builder, routes,
 * replies and parameters. */
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spoor/trace.h"
#include "timeline/cache.h"
#include "util/json.h"
#include "view/api-int.h"

enum {
	HEAVY_AT_ONCE = 2, /* requests that read the traces at once: a pass each */
	/* ids in a list parameter: the threads of a big selection; more would cost api/stats
	 * a pass of that many comparisons per event (the engine's thread filter is a list) */
	LIST_MAX = 4096,
};

static const char json_type[] = "application/json";
static const char oom_body[] = "{\"error\": \"out of memory\"}\n";

/* ---- replies ---- */

bool body_open(struct body *b)
{
	b->buf = NULL;
	b->len = 0;
	b->f = open_memstream(&b->buf, &b->len);
	return b->f != NULL;
}

void oom_reply(struct view_reply *r)
{
	r->status = 500;
	r->type = json_type;
	r->body = strdup(oom_body);
	r->len = r->body ? strlen(oom_body) : 0;
}

void body_reply(struct body *b, int status, struct view_reply *r)
{
	bool failed = ferror(b->f);
	if (fclose(b->f) || failed) {
		free(b->buf);
		oom_reply(r);
		return;
	}
	r->status = status;
	r->type = json_type;
	r->body = b->buf;
	r->len = b->len;
}

void body_drop(struct body *b)
{
	fclose(b->f);
	free(b->buf);
}

void error_reply(struct view_reply *r, int status, const char *fmt, ...)
{
	char text[600];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	struct body b;
	if (!body_open(&b)) {
		oom_reply(r);
		return;
	}
	fputs("{\"error\": ", b.f);
	json_string(b.f, text);
	fputs("}\n", b.f);
	body_reply(&b, status, r);
}

/* ---- parameters ---- */

/* A whole decimal integer (a fraction, which a page's arithmetic may leave, is dropped
 * towards minus infinity). */
static bool parse_int(const char *s, int64_t *v)
{
	char *end;
	if (!s || (*s != '-' && (*s < '0' || *s > '9')))
		return false;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (errno || end == s || (*s == '-' && end == s + 1))
		return false;
	if (*end == '.') {
		const char *d = end + 1;
		bool nonzero = false;
		if (*d < '0' || *d > '9')
			return false;
		for (; *d >= '0' && *d <= '9'; d++)
			nonzero |= *d != '0';
		if (nonzero && *s == '-') {
			if (x == INT64_MIN)
				return false;
			x--;
		}
		end = (char *) d;
	}
	if (*end)
		return false;
	*v = x;
	return true;
}

void int_param(struct params *p, const char *name, bool required, int64_t min, int64_t max,
               int64_t *v)
{
	const char *s = p->bad ? NULL : p->arg(p->ctx, name);
	if (p->bad || (!s && !required))
		return;
	if (!s) {
		error_reply(p->r, 400, "missing parameter %s", name);
		p->bad = true;
	} else if (!parse_int(s, v) || *v < min || *v > max) {
		error_reply(p->r, 400, "invalid %s '%.80s' (an integer from %lld to %lld)", name, s,
		            (long long) min, (long long) max);
		p->bad = true;
	}
}

static int by_value(const void *x, const void *y)
{
	int64_t a = *(const int64_t *) x, b = *(const int64_t *) y;
	return a < b ? -1 : a > b;
}

/* Whether an id comes twice (each would cost its row, class or thread's work again). */
static bool has_duplicate(const int64_t *v, size_t n, int64_t *dup)
{
	int64_t *sorted = malloc((n + 1) * sizeof(*sorted));
	bool found = false;
	if (!sorted)
		return false; /* only a cost: the answer is right either way */
	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), by_value);
	for (size_t i = 1; i < n && !found; i++)
		if (sorted[i] == sorted[i - 1]) {
			*dup = sorted[i];
			found = true;
		}
	free(sorted);
	return found;
}

static void list_drop(struct params *p, int64_t **v, size_t *n)
{
	p->bad = true;
	free(*v);
	*v = NULL;
	*n = 0;
}

void list_param(struct params *p, const char *name, int64_t max, int64_t **v, size_t *n)
{
	const char *s = p->bad ? NULL : p->arg(p->ctx, name);
	*v = NULL;
	*n = 0;
	if (!s || !*s)
		return;
	size_t cap = 1;
	for (const char *c = s; *c; c++)
		cap += *c == ',';
	if (cap > LIST_MAX) {
		error_reply(p->r, 400, "%s: more than %d ids", name, LIST_MAX);
		p->bad = true;
		return;
	}
	if (!(*v = malloc(cap * sizeof(**v)))) {
		oom_reply(p->r);
		p->bad = true;
		return;
	}
	for (const char *c = s;; c++) {
		char *end;
		errno = 0;
		long long x = strtoll(c, &end, 10);
		if (errno || end == c || *c < '0' || *c > '9' || (*end && *end != ',') || x > max) {
			error_reply(p->r, 400,
			            "invalid %s '%.80s' (ids from 0 to %lld, separated by "
			            "commas)",
			            name, s, (long long) max);
			list_drop(p, v, n);
			return;
		}
		(*v)[(*n)++] = x;
		if (!*end)
			break;
		c = end;
	}
	int64_t dup;
	if (has_duplicate(*v, *n, &dup)) {
		error_reply(p->r, 400, "%s: %lld comes twice", name, (long long) dup);
		list_drop(p, v, n);
	}
}

bool body_full(struct body *b, struct params *p)
{
	off_t len = ftello(b->f);
	if (len <= BODY_MAX)
		return false;
	body_drop(b);
	error_reply(p->r, 400, "the answer would be more than %d MiB: ask for less at once",
	            BODY_MAX >> 20);
	p->bad = true;
	return true;
}

bool cancelled(struct params *p)
{
	if (!p->gone || !p->gone(p->ctx))
		return false;
	error_reply(p->r, 503, "cancelled");
	p->bad = true;
	return true;
}

void range_params(struct params *p, bool strict, int64_t t[2])
{
	const int64_t lim = (int64_t) 1 << 62; /* the engine's times stay within 2^62 */
	int_param(p, "t0", true, -lim, lim, &t[0]);
	int_param(p, "t1", true, -lim, lim, &t[1]);
	if (!p->bad && (t[0] > t[1] || (strict && t[0] == t[1]))) {
		error_reply(p->r, 400, "t0 must come before t1");
		p->bad = true;
	}
}

void absolute(struct params *p, const struct view_api *a, const int64_t t[2], int64_t abs[2])
{
	int64_t origin = __atomic_load_n(&a->origin, __ATOMIC_ACQUIRE);
	for (int i = 0; i < 2 && !p->bad; i++)
		if (__builtin_add_overflow(origin, t[i], &abs[i])) {
			error_reply(p->r, 400, "t%d out of range", i);
			p->bad = true;
		}
}

/* ---- requests that read the traces ---- */

enum { SLICE_NS = 50 * 1000 * 1000 }; /* how often a long request asks whether to go on */

static int64_t monotonic_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t) t.tv_sec * 1000000000 + t.tv_nsec;
}

bool heavy_wait(struct view_api *a, struct params *p)
{
	for (;;) {
		struct timespec t;
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += SLICE_NS;
		if (t.tv_nsec >= 1000000000) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000;
		}
		if (!sem_timedwait(&a->heavy, &t))
			return true;
		if (errno != ETIMEDOUT && errno != EINTR)
			return false;
		if (p->gone && p->gone(p->ctx))
			return false;
	}
}

static int open_reader(const struct view_api *a, struct spoor_reader **r, char **errmsg)
{
	int rc = spoor_reader_open(a->cfg.paths, a->cfg.npaths, r, errmsg);
	if (!rc)
		spoor_reader_set_warn(*r, api_quiet, NULL);
	return rc;
}

int take_reader(struct view_api *a, struct spoor_reader **r, char **errmsg)
{
	pthread_mutex_lock(&a->lock);
	*r = a->spare;
	a->spare = NULL;
	pthread_mutex_unlock(&a->lock);
	return *r ? 0 : open_reader(a, r, errmsg);
}

void view_api_idle(struct view_api *a)
{
	pthread_mutex_lock(&a->lock);
	bool open = !a->spare && !a->opening;
	a->opening |= open;
	pthread_mutex_unlock(&a->lock);
	struct spoor_reader *r = NULL;
	if (!open || open_reader(a, &r, NULL))
		return;
	pthread_mutex_lock(&a->lock);
	a->opening = false;
	if (!a->spare) {
		a->spare = r;
		r = NULL;
	}
	pthread_mutex_unlock(&a->lock);
	spoor_reader_close(r);
}

void heavy_done(struct view_api *a)
{
	sem_post(&a->heavy);
	malloc_trim(0);
}

int view_run_engine(struct an_engine *e, view_gone_fn gone, void *ctx)
{
	int rc;
	while ((rc = an_engine_run_until(e, monotonic_ns() + SLICE_NS)) == 1)
		if (gone && gone(ctx))
			return -ECANCELED;
	return rc;
}

/* ---- the cache ---- */

const struct tl_cache *cache_or_reply(struct view_api *a, struct view_reply *r)
{
	const struct tl_cache *c = __atomic_load_n(&a->cache, __ATOMIC_ACQUIRE);
	if (c)
		return c;
	if (__atomic_load_n(&a->failed, __ATOMIC_ACQUIRE)) {
		error_reply(r, 500, "%s", a->cache_error ? a->cache_error : "no timeline cache");
		return NULL;
	}
	struct body b;
	if (!body_open(&b)) {
		oom_reply(r);
		return NULL;
	}
	fprintf(b.f, "{\"error\": \"building the timeline cache\", \"progress\": %.4f}\n",
	        __atomic_load_n(&a->progress, __ATOMIC_RELAXED) / 1e4);
	body_reply(&b, 503, r);
	return NULL;
}

static void progress(void *data, double fraction)
{
	struct view_api *a = data;
	uint32_t part = fraction > 0 ? fraction < 1 ? (uint32_t) (fraction * 1e4) : 10000 : 0;
	__atomic_store_n(&a->progress, part, __ATOMIC_RELAXED);
}

/* The cache found or built (rc 0), or why not. */
static void cache_ready(struct view_api *a, int rc, struct tl_cache *c, char *err)
{
	if (rc) {
		if (!err && asprintf(&err, "timeline cache: %s", spoor_strerror(rc)) < 0)
			err = NULL;
		a->cache_error = err;
		__atomic_store_n(&a->failed, true, __ATOMIC_RELEASE);
		return;
	}
	/* the spans' times are relative to the cache's origin: the requests' from now on */
	__atomic_store_n(&a->origin, tl_cache_origin(c), __ATOMIC_RELEASE);
	__atomic_store_n(&a->cache, c, __ATOMIC_RELEASE);
}

static void *build(void *data)
{
	struct view_api *a = data;
	struct tl_cache *c = NULL;
	char *err = NULL;
	int rc = tl_cache_finish(a->job, progress, a, &c, &err);
	cache_ready(a, rc, c, err);
	return NULL;
}

/* ---- the API ---- */

void api_quiet(void *data, const char *message)
{
}

int view_api_new(const struct view_api_config *cfg, struct view_api **out, char **errmsg)
{
	struct view_api *a = calloc(1, sizeof(*a));
	*out = NULL;
	if (!a)
		return -ENOMEM;
	a->cfg = *cfg;
	/* the traces, opened once here: a trace that cannot be read is said before serving */
	struct spoor_reader *r;
	int rc = spoor_reader_open(cfg->paths, cfg->npaths, &r, errmsg);
	if (rc) {
		free(a);
		return rc;
	}
	spoor_reader_set_warn(r, api_quiet, NULL);
	const struct spoor_event *ev;
	while ((rc = spoor_reader_next(r, &ev)) > 0)
		if (spoor_event_has_timestamp(ev)) {
			a->origin = spoor_event_timestamp(ev);
			break;
		}
	spoor_reader_close(r);
	if (rc < 0) {
		free(a);
		return rc;
	}
	sem_init(&a->heavy, 0, HEAVY_AT_ONCE);
	pthread_mutex_init(&a->lock, NULL);
	/* A request that reads the traces allocates their metadata (tens of MiB for a folder
	 * of traces) in its connection's thread; glibc would keep each thread's arena, freed
	 * or not, for the server's life: a few arenas, trimmed after each such request
	 * (heavy_done), keep the server as small as its idle self. */
	mallopt(M_ARENA_MAX, HEAVY_AT_ONCE + 1);
	/* the builder forked now, before any thread exists (a child of a threaded process
	 * could inherit a lock held by another thread); a thread of ours waits for it */
	struct tl_cache *c = NULL;
	char *err = NULL;
	rc = tl_cache_start(cfg->paths, cfg->npaths, &c, &a->job, &err);
	if (rc || c)
		cache_ready(a, rc, c, err);
	else if ((rc = pthread_create(&a->builder, NULL, build, a))) {
		tl_cache_job_free(a->job);
		pthread_mutex_destroy(&a->lock);
		sem_destroy(&a->heavy);
		free(a);
		return -rc;
	}
	*out = a;
	return 0;
}

void view_api_free(struct view_api *a)
{
	if (!a)
		return;
	if (a->job) { /* a build stopped early leaves no file behind */
		tl_cache_cancel(a->job);
		pthread_join(a->builder, NULL);
		tl_cache_job_free(a->job);
	}
	tl_cache_close(a->cache);
	spoor_reader_close(a->spare);
	pthread_mutex_destroy(&a->lock);
	free(a->cache_error);
	sem_destroy(&a->heavy);
	free(a);
}

void view_api_answer(struct view_api *a, const char *route, view_arg_fn arg, view_gone_fn gone,
                     void *ctx, struct view_reply *r)
{
	static const struct {
		const char *name;
		void (*fn)(struct view_api *a, struct params *p);
		bool cache; /* reads the cache's pages */
	} routes[] = {
	    {"meta", api_meta, true}, {"spans", api_spans, true},   {"marks", api_marks, true},
	    {"rate", api_rate, true}, {"events", api_events, true}, {"stats", api_stats, false},
	};
	struct params p = {.r = r, .arg = arg, .gone = gone, .ctx = ctx};
	*r = (struct view_reply){0};
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++)
		if (!strcmp(route, routes[i].name)) {
			routes[i].fn(a, &p);
			/* the pages it read go back (to the page cache): the server's memory stays
			 * that of the requests in progress */
			if (routes[i].cache)
				tl_cache_release(__atomic_load_n(&a->cache, __ATOMIC_ACQUIRE));
			return;
		}
	error_reply(r, 404, "no such API: api/%.80s", route);
}
