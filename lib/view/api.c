/* SPDX-License-Identifier: MIT */
/* api.c: spoor view's JSON API (see api.h). */
#include <errno.h>
#include <semaphore.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "spoor/trace.h"
#include "util/json.h"
#include "view/api.h"

enum {
	HEAVY_AT_ONCE = 2,    /* requests that read the traces, at once: a pass each */
	EVENTS_DEFAULT = 500, /* api/events' limit */
	EVENTS_MAX = 10000,
	NAME_MAX_LEN = 256, /* api/events' name pattern */
	LIST_MAX = 4096,    /* ids in a list parameter */
};

struct view_api {
	struct view_api_config cfg;
	int64_t origin; /* absolute ns of relative 0: the first event's time */
	sem_t heavy;
};

static const char json_type[] = "application/json";
static const char oom_body[] = "{\"error\": \"out of memory\"}\n";

/* ---- replies ---- */

struct body {
	FILE *f;
	char *buf;
	size_t len;
};

static bool body_open(struct body *b)
{
	b->buf = NULL;
	b->len = 0;
	b->f = open_memstream(&b->buf, &b->len);
	return b->f != NULL;
}

static void oom(struct view_reply *r)
{
	r->status = 500;
	r->type = json_type;
	r->body = strdup(oom_body);
	r->len = r->body ? strlen(oom_body) : 0;
}

/* Close the body and make it the reply (500 when its writes failed). */
static void body_reply(struct body *b, int status, struct view_reply *r)
{
	bool failed = ferror(b->f);
	if (fclose(b->f) || failed) {
		free(b->buf);
		oom(r);
		return;
	}
	r->status = status;
	r->type = json_type;
	r->body = b->buf;
	r->len = b->len;
}

__attribute__((format(printf, 3, 4))) static void error_reply(struct view_reply *r, int status,
                                                              const char *fmt, ...)
{
	char text[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	struct body b;
	if (!body_open(&b)) {
		oom(r);
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
	if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9')))
		return false;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (errno || end == s || (end[0] == '-' && end == s + 1))
		return false;
	if (*end == '.') {
		const char *d = end + 1;
		bool nonzero = false;
		if (*d < '0' || *d > '9')
			return false;
		for (; *d >= '0' && *d <= '9'; d++)
			nonzero |= *d != '0';
		if (*d)
			return false;
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

struct params {
	struct view_reply *r;
	view_arg_fn arg;
	void *ctx;
	bool bad; /* a 400 is in r */
};

/* An integer parameter in [min, max]: *v unchanged when absent and not required. */
static void int_param(struct params *p, const char *name, bool required, int64_t min, int64_t max,
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

/* A list of ids "1,2,5" (each >= 0): *v malloc'd (NULL and 0 when absent). */
static void list_param(struct params *p, const char *name, int64_t **v, size_t *n)
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
		oom(p->r);
		p->bad = true;
		return;
	}
	for (const char *c = s;; c++) {
		char *end;
		errno = 0;
		long long x = strtoll(c, &end, 10);
		if (errno || end == c || *c < '0' || *c > '9' || (*end && *end != ',')) {
			error_reply(p->r, 400, "invalid %s '%.80s' (ids separated by commas)", name,
			            s);
			p->bad = true;
			free(*v);
			*v = NULL;
			*n = 0;
			return;
		}
		(*v)[(*n)++] = x;
		if (!*end)
			return;
		c = end;
	}
}

/* t0 and t1 (relative ns, t0 <= t1), and the absolute times they name. */
static void range_params(struct params *p, const struct view_api *a, int64_t abs[2])
{
	const int64_t lim = (int64_t) 1 << 62; /* the engine's times stay within 2^62 */
	int64_t t[2] = {0, 0};
	int_param(p, "t0", true, -lim, lim, &t[0]);
	int_param(p, "t1", true, -lim, lim, &t[1]);
	if (p->bad)
		return;
	if (t[0] > t[1]) {
		error_reply(p->r, 400, "t0 is after t1");
		p->bad = true;
		return;
	}
	for (int i = 0; i < 2; i++)
		if (__builtin_add_overflow(a->origin, t[i], &abs[i])) {
			error_reply(p->r, 400, "t%d out of range", i);
			p->bad = true;
			return;
		}
}

/* ---- reading the traces ---- */

static void quiet(void *data, const char *message)
{
	/* damage: the cache's banner tells it; a request must not fill the terminal */
}

static int open_reader(const struct view_api *a, struct spoor_reader **r, char **errmsg)
{
	int rc = spoor_reader_open(a->cfg.paths, a->cfg.npaths, r, errmsg);
	if (!rc)
		spoor_reader_set_warn(*r, quiet, NULL);
	return rc;
}

int view_api_new(const struct view_api_config *cfg, struct view_api **out, char **errmsg)
{
	struct view_api *a = calloc(1, sizeof(*a));
	*out = NULL;
	if (!a)
		return -ENOMEM;
	a->cfg = *cfg;
	struct spoor_reader *r;
	int rc = open_reader(a, &r, errmsg);
	if (rc) {
		free(a);
		return rc;
	}
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
	*out = a;
	return 0;
}

void view_api_free(struct view_api *a)
{
	if (!a)
		return;
	sem_destroy(&a->heavy);
	free(a);
}

/* ---- api/meta ---- */

static void meta(struct view_api *a, struct params *p)
{
	struct body b;
	if (!body_open(&b)) {
		oom(p->r);
		return;
	}
	fputs("{\"version\": 1, \"traces\": [", b.f);
	for (size_t i = 0; i < a->cfg.npaths; i++) {
		fputs(i ? ", " : "", b.f);
		json_string(b.f, a->cfg.paths[i]);
	}
	fprintf(b.f, "], \"origin\": \"%lld\"}\n", (long long) a->origin);
	body_reply(&b, 200, p->r);
}

/* ---- api/events ---- */

struct listed {
	int64_t t, cpu, tid;
	size_t class_index;
};

struct events {
	const struct an_engine *e;
	struct spoor_formatter *f;
	int64_t tid, pid; /* -1: any */
	size_t limit, n;
	struct listed *list;
	bool more;
	int rc;
};

static void on_event(void *data, const struct an_event *ae)
{
	struct events *x = data;
	if ((x->tid >= 0 && ae->tid != x->tid) ||
	    (x->pid >= 0 && (ae->tid < 0 || an_task_pid(x->e, ae->tid) != x->pid)))
		return;
	if (x->n == x->limit || x->rc) {
		x->more = x->n == x->limit;
		an_engine_stop((struct an_engine *) x->e);
		return;
	}
	x->list[x->n++] = (struct listed){ae->ts, ae->cpu, ae->tid, ae->class_index};
	int rc = spoor_formatter_event(x->f, ae->ev);
	if (rc < 0)
		x->rc = rc;
}

/* The listed events as JSON, their text the formatter's lines (text, len bytes). */
static void events_json(FILE *out, const struct view_api *a, const struct spoor_reader *r,
                        const struct events *x, const char *text, size_t len)
{
	fputs("{\"events\": [", out);
	const char *at = text, *end = text + len;
	for (size_t i = 0; i < x->n; i++) {
		const struct listed *l = &x->list[i];
		const char *nl = at < end ? memchr(at, '\n', (size_t) (end - at)) : NULL;
		const char *line_end = nl ? nl : end;
		fprintf(out,
		        "%s\n{\"t\": %lld, \"cpu\": %lld, \"tid\": %lld, \"name\": ", i ? "," : "",
		        (long long) (l->t - a->origin), (long long) l->cpu, (long long) l->tid);
		json_string(out,
		            spoor_event_class_name(spoor_reader_event_class(r, l->class_index)));
		fprintf(out, ", \"class\": %zu, \"text\": ", l->class_index);
		json_string_n(out, at, (size_t) (line_end - at));
		fputs("}", out);
		at = nl ? nl + 1 : end;
	}
	fprintf(out, "],\n\"more\": %s}\n", x->more ? "true" : "false");
}

/* The events of [b, e] as spoor dump prints them, through a memfd (the formatter writes
 * to a file descriptor). */
static int list_events(struct view_api *a, const int64_t abs[2], const char *name, struct events *x,
                       FILE *out, char **errmsg)
{
	struct spoor_reader *r = NULL;
	struct an_engine *e = NULL;
	struct an_filter none = {0};
	int fd = memfd_create("spoor-view-events", MFD_CLOEXEC), rc;
	if (fd < 0)
		return -errno;
	if ((rc = open_reader(a, &r, errmsg)))
		goto out;
	spoor_reader_set_range(r, abs[0], abs[1]);
	if ((rc = an_engine_new(r, &none, &e)) ||
	    (rc = spoor_formatter_new(SPOOR_FORMAT_TEXT, fd, &x->f)))
		goto out;
	x->e = e;
	an_engine_want_tasks(e); /* each event's thread, from its context where it has one */
	if (x->pid >= 0)
		an_engine_want_threads(e);
	if ((rc = an_engine_on_name(e, name ? name : "*", on_event, x)) ||
	    (rc = an_engine_run(e)) < 0 || (rc = x->rc) || (rc = spoor_formatter_flush(x->f)))
		goto out;
	off_t len = lseek(fd, 0, SEEK_END);
	void *text = len > 0 ? mmap(NULL, (size_t) len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	if (len < 0 || text == MAP_FAILED) {
		rc = -errno;
		goto out;
	}
	events_json(out, a, r, x, text ? text : "", (size_t) (len > 0 ? len : 0));
	if (text)
		munmap(text, (size_t) len);
	rc = 0;
out:
	spoor_formatter_free(x->f);
	x->f = NULL;
	an_engine_free(e);
	spoor_reader_close(r);
	close(fd);
	return rc;
}

static void events(struct view_api *a, struct params *p)
{
	int64_t abs[2], limit = EVENTS_DEFAULT, tid = -1, pid = -1;
	range_params(p, a, abs);
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
	struct events x = {.tid = tid, .pid = pid, .limit = (size_t) limit};
	struct body b;
	if (!(x.list = malloc((size_t) limit * sizeof(*x.list))) || !body_open(&b)) {
		free(x.list);
		oom(p->r);
		return;
	}
	char *err = NULL;
	sem_wait(&a->heavy);
	int rc = list_events(a, abs, name, &x, b.f, &err);
	sem_post(&a->heavy);
	free(x.list);
	if (!rc) {
		body_reply(&b, 200, p->r);
	} else {
		fclose(b.f);
		free(b.buf);
		error_reply(p->r, 500, "%s", err ? err : spoor_strerror(rc));
	}
	free(err);
}

/* ---- api/stats ---- */

static void stats(struct view_api *a, struct params *p)
{
	int64_t abs[2];
	struct an_filter f = {0};
	int64_t *tids;
	range_params(p, a, abs);
	list_param(p, "tids", &tids, &f.ntids);
	if (p->bad)
		return;
	f.has_begin = f.has_end = true;
	f.begin = abs[0];
	f.end = abs[1];
	f.tids = tids;
	struct body b;
	if (!body_open(&b)) {
		free(tids);
		oom(p->r);
		return;
	}
	int rc = 0;
	fputc('{', b.f);
	sem_wait(&a->heavy);
	for (size_t i = 0; i < a->cfg.nstats && !rc; i++) {
		struct body text;
		if (!body_open(&text)) {
			rc = -ENOMEM;
			break;
		}
		rc = a->cfg.stats(a->cfg.stats_data, i, &f, text.f);
		if (fclose(text.f))
			rc = rc ? rc : -ENOMEM;
		fprintf(b.f, "%s\n", i ? "," : "");
		json_string(b.f, a->cfg.stats_names[i]);
		fputs(": ", b.f);
		json_string_n(b.f, text.buf, text.len);
		free(text.buf);
	}
	sem_post(&a->heavy);
	fputs("}\n", b.f);
	free(tids);
	if (rc) {
		fclose(b.f);
		free(b.buf);
		error_reply(p->r, 500, "%s", spoor_strerror(rc));
		return;
	}
	body_reply(&b, 200, p->r);
}

void view_api_answer(struct view_api *a, const char *route, view_arg_fn arg, void *ctx,
                     struct view_reply *r)
{
	static const struct {
		const char *name;
		void (*fn)(struct view_api *a, struct params *p);
	} routes[] = {{"meta", meta}, {"events", events}, {"stats", stats}};
	struct params p = {.r = r, .arg = arg, .ctx = ctx};
	*r = (struct view_reply){0};
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++)
		if (!strcmp(route, routes[i].name)) {
			routes[i].fn(a, &p);
			return;
		}
	error_reply(r, 404, "no such API: api/%.80s", route);
}
