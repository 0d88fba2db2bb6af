/* SPDX-License-Identifier: MIT */
/*
 * api.h: spoor view's JSON API (docs/view.md; DESIGN: api/meta, spans, marks, rate,
 * events, stats), answered from the traces' timeline cache and, for the event list and
 * the range statistics, from the traces themselves. No HTTP here: server.c hands each
 * GET under /TOKEN/api/ to view_api_answer with a way to read its parameters.
 *
 * Thread safety: view_api_answer runs in several threads at once (a connection each).
 * Every request that reads the traces opens its own reader (the readers are not
 * thread-safe, and a request must not wait for another's pass); at most a few such
 * requests run at once, the others wait their turn.
 */
#ifndef VIEW_API_H
#define VIEW_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/engine.h"

struct view_api_config {
	const char *const *paths; /* the traces, as given */
	size_t npaths;
	/* api/stats: nstats texts, named stats_names[i], each what the command of that name
	 * prints for the filter (time range, threads); 0, -ECANCELED when gone(ctx) said
	 * the client left (asked every few milliseconds), or a negative error. */
	size_t nstats;
	const char *const *stats_names;
	int (*stats)(void *data, size_t which, const struct an_filter *f, bool (*gone)(void *ctx),
	             void *ctx, FILE *out);
	void *stats_data;
};

struct view_reply {
	int status;       /* HTTP status */
	const char *type; /* Content-Type */
	char *body;       /* malloc'd */
	size_t len;
};

/* A request parameter's value (decoded), or NULL when absent. */
typedef const char *(*view_arg_fn)(void *ctx, const char *name);
/* Whether the client has left (a page drops a request it no longer needs): a long answer
 * stops then, instead of holding up the requests after it. */
typedef bool (*view_gone_fn)(void *ctx);

struct view_api;

/* an_engine_run in slices of a few milliseconds, asking gone(ctx) between them (gone may be
 * NULL): -ECANCELED when it says the client left. */
int view_run_engine(struct an_engine *e, view_gone_fn gone, void *ctx);

/* Reads where the traces start (their first event). 0, or an error with *errmsg
 * (malloc'd, naming the file). */
int view_api_new(const struct view_api_config *cfg, struct view_api **out, char **errmsg);
void view_api_free(struct view_api *a);
/* A request is done (its answer sent): open a reader ahead for the next event list, when
 * none is. Called by the server in the request's thread. */
void view_api_idle(struct view_api *a);
/* Answer GET api/ROUTE: r->body is malloc'd (the caller frees it); never fails without a
 * reply (500 on out of memory, with a fixed body). */
void view_api_answer(struct view_api *a, const char *route, view_arg_fn arg, view_gone_fn gone,
                     void *ctx, struct view_reply *r);

#endif
