/* SPDX-License-Identifier: MIT */
/*
 * api-int.h: what the API's files share: the API's state, replies, parameters. api.c
 * routes and parses; api-trace.c answers from the traces (events, stats), api-cache.c
 * from the timeline cache (meta, spans, marks, rate).
 */
#ifndef VIEW_API_INT_H
#define VIEW_API_INT_H

#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "view/api.h"

struct tl_cache;
struct tl_cache_job;
struct params;

struct view_api {
	struct view_api_config cfg;
	/* absolute ns of relative 0: the first event's time, then the cache's origin (the
	 * same, as the engine sees it) once the cache is open */
	int64_t origin;
	sem_t heavy; /* requests that read the traces, at once */
	/* the cache, built or found by a thread of its own; until then its routes answer 503
	 * (with the build's progress), and after a failure 500 with cache_error */
	pthread_t builder;
	struct tl_cache_job *job; /* the builder's (forked before any thread): NULL, no thread */
	struct tl_cache *cache; /* set once (atomic), then read only */
	uint32_t progress;      /* atomic: the build's, in 1/10000 */
	char *cache_error;      /* set once before `failed` */
	bool failed;            /* atomic */
	/* a reader opened ahead (view_api_idle), so that an event list does not wait for the
	 * traces' metadata (~0.1 s for a folder of 42 traces) */
	pthread_mutex_t lock;
	struct spoor_reader *spare;
	bool opening;
};

/* A reply's body, built with stdio (open_memstream). */
struct body {
	FILE *f;
	char *buf;
	size_t len;
};
bool body_open(struct body *b);
enum { BODY_MAX = 64 << 20 }; /* an answer's bytes at most: a request costs no more memory */
/* Close the body and make it the reply (500 when its writes failed). */
void body_reply(struct body *b, int status, struct view_reply *r);
/* Close and drop it. */
void body_drop(struct body *b);
/* Whether the body grew past BODY_MAX: then dropped, and the reply a 400. */
bool body_full(struct body *b, struct params *p);
void oom_reply(struct view_reply *r);
__attribute__((format(printf, 3, 4))) void error_reply(struct view_reply *r, int status,
                                                       const char *fmt, ...);

struct params {
	struct view_reply *r;
	view_arg_fn arg;
	view_gone_fn gone;
	void *ctx;
	bool bad; /* a reply (400, 500) is in r: the others do nothing more */
};
/* An integer parameter in [min, max]: *v unchanged when absent and not required. */
void int_param(struct params *p, const char *name, bool required, int64_t min, int64_t max,
               int64_t *v);
/* A list of ids "1,2,5", each in [0, max], at most 4096 and none twice: *v malloc'd (NULL
 * and 0 when absent). */
void list_param(struct params *p, const char *name, int64_t max, int64_t **v, size_t *n);
/* t0 and t1 (relative ns; t0 <= t1, or t0 < t1 when strict). */
void range_params(struct params *p, bool strict, int64_t t[2]);
/* A relative time as an absolute one (400 when it overflows). */
void absolute(struct params *p, const struct view_api *a, const int64_t t[2], int64_t abs[2]);

/* Whether the client left or the server stops: then the reply is made (503), and the
 * request ends. */
bool cancelled(struct params *p);

/* Take one of the `heavy` places (for a request that reads the traces): false when the
 * client left while it waited. */
bool heavy_wait(struct view_api *a, struct params *p);
/* Give the place back, and the request's memory to the system. */
void heavy_done(struct view_api *a);
/* A reader of the traces, fresh (no event read yet): the one opened ahead, else a new one. */
int take_reader(struct view_api *a, struct spoor_reader **r, char **errmsg);

/* The cache, or NULL with the reply made (503 while it is built, 500 when that failed). */
const struct tl_cache *cache_or_reply(struct view_api *a, struct view_reply *r);

void api_meta(struct view_api *a, struct params *p);
void api_spans(struct view_api *a, struct params *p);
void api_marks(struct view_api *a, struct params *p);
void api_rate(struct view_api *a, struct params *p);
void api_events(struct view_api *a, struct params *p);
void api_stats(struct view_api *a, struct params *p);

/* Ignore the reader's damage messages: the cache's banner says them, and a request must
 * not fill the terminal. */
void api_quiet(void *data, const char *message);

#endif
