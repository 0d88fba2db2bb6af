/* SPDX-License-Identifier: MIT */
/*
 * test-engine.c: the analysis engine's pass, paused and resumed (an_engine_run_until), on
 * a busy kernel trace of our own (tests/data/gen_kernel.py --busy) and on the LTTng kernel
 * trace many-threads when ../shared/traces has it. A hook added
 * to a class while the pass is paused sees every later event of that class, even when the
 * class already took the engine's shortest path. A hook that pauses the pass
 * (an_engine_pause, SQL's cursors) makes an_engine_run return 1 after that event, and the
 * next call goes on with the next one: every event seen once, in order; an an_engine_stop
 * then ends it. Expected counts come from a plain reader pass over the same trace, not from
 * the engine.
 */
#include <stdlib.h>
#include <unistd.h>

#include "analysis/engine.h"
#include "check.h"
#include "spoor/trace.h"

#define MAX_CLASSES 65536

struct counts {
	size_t n[MAX_CLASSES];
	size_t last_class; /* of the last event seen */
};

static void count(void *data, const struct an_event *a)
{
	struct counts *c = data;
	if (a->class_index < MAX_CLASSES)
		c->n[a->class_index]++;
	c->last_class = a->class_index;
}

static struct spoor_reader *open_trace(const char *path)
{
	const char *paths[] = {path};
	struct spoor_reader *r = NULL;
	char *msg = NULL;
	int rc = spoor_reader_open(paths, 1, &r, &msg);
	CHECK_CTX("open %s", path);
	if (!CHECK_EQ_S64(rc, 0))
		printf("  %s\n", msg ? msg : "(no message)");
	free(msg);
	return rc ? NULL : r;
}

/* Events of class c in the whole trace, by the reader alone. */
static size_t class_total(const char *path, size_t c)
{
	struct spoor_reader *r = open_trace(path);
	const struct spoor_event *ev;
	size_t n = 0;
	while (r && spoor_reader_next(r, &ev) > 0)
		n += spoor_event_class_index(spoor_event_class(ev)) == c;
	spoor_reader_close(r);
	return n;
}

static void test_hook_added_while_paused(const char *path)
{
	static struct counts before, added;
	struct spoor_reader *r = open_trace(path);
	struct an_engine *e = NULL;
	if (!r || !CHECK_EQ_S64(an_engine_new(r, NULL, &e), 0)) {
		spoor_reader_close(r);
		return;
	}
	CHECK_CTX("pause after the first 1024 events, hook a class met, resume");
	CHECK_EQ_S64(an_engine_on(e, KEV_SYSCALL_ENTRY, count, &before), 0);
	/* a deadline already past: the pass stops at its first look, after 1024 events */
	CHECK_EQ_S64(an_engine_run_until(e, 0), 1);
	size_t c = before.last_class, seen = before.n[c];
	CHECK(seen > 1); /* met more than once: its class took the shortest path since */
	CHECK_EQ_S64(an_engine_on_class(e, c, count, &added), 0);
	CHECK_EQ_S64(an_engine_run(e), 0);
	size_t total = class_total(path, c);
	CHECK_CTX("class %zu: %zu events in the trace, %zu before the pause", c, total, seen);
	CHECK(total > seen);
	CHECK_EQ_U64(before.n[c], total);       /* the first hook saw them all */
	CHECK_EQ_U64(added.n[c], total - seen); /* the new one every one after the pause */
	an_engine_free(e);
	spoor_reader_close(r);
}

struct pauser {
	struct an_engine *e;
	size_t seen, every;
	int64_t last_ts;
	bool in_order;
};

/* Every event; pauses the pass at every `every`-th. */
static void pause_some(void *data, const struct an_event *a)
{
	struct pauser *p = data;
	p->in_order &= a->ts >= p->last_ts;
	p->last_ts = a->ts;
	if (++p->seen % p->every == 0)
		an_engine_pause(p->e);
}

static void test_pause(const char *path)
{
	struct spoor_reader *r = open_trace(path);
	struct pauser p = {.every = 7, .last_ts = INT64_MIN, .in_order = true};
	if (!r || !CHECK_EQ_S64(an_engine_new(r, NULL, &p.e), 0)) {
		spoor_reader_close(r);
		return;
	}
	CHECK_CTX("%s: a pause at every 7th event", path);
	CHECK_EQ_S64(an_engine_on_name(p.e, "*", pause_some, &p), 0);
	size_t pauses = 0;
	int rc;
	while ((rc = an_engine_run(p.e)) == 1) {
		pauses++;
		if (!CHECK_EQ_U64(p.seen, pauses * p.every)) /* paused right after that event */
			break;
	}
	CHECK_EQ_S64(rc, 0);
	/* every event once, as a reader alone sees them */
	struct spoor_reader *all = open_trace(path);
	const struct spoor_event *ev;
	size_t n = 0;
	while (all && spoor_reader_next(all, &ev) > 0)
		n++;
	spoor_reader_close(all);
	CHECK_EQ_U64(p.seen, n);
	CHECK_EQ_U64(pauses, n / p.every);
	CHECK(p.in_order);
	an_engine_free(p.e);
	spoor_reader_close(r);

	/* a stop after a pause ends the pass: no event after it */
	r = open_trace(path);
	struct pauser q = {.every = 5, .last_ts = INT64_MIN, .in_order = true};
	if (!r || !CHECK_EQ_S64(an_engine_new(r, NULL, &q.e), 0)) {
		spoor_reader_close(r);
		return;
	}
	CHECK_CTX("%s: a stop after a pause", path);
	CHECK_EQ_S64(an_engine_on_name(q.e, "*", pause_some, &q), 0);
	CHECK_EQ_S64(an_engine_run(q.e), 1);
	an_engine_stop(q.e);
	an_engine_pause(q.e); /* an end stays an end */
	rc = an_engine_run(q.e);
	CHECK(rc == 0 || rc == 1);
	CHECK_EQ_S64(an_engine_run(q.e), 0);
	CHECK_EQ_U64(q.seen, 5);
	an_engine_free(q.e);
	spoor_reader_close(r);
}

int main(void)
{
	const char *data = getenv("SPOOR_TEST_DATA"), *tmp = getenv("TMPDIR");
	const char *shared = getenv("SHARED_TRACES");
	char dir[512], path[700], cmd[1400];

	snprintf(dir, sizeof(dir), "%s/spoor-engine-XXXXXX", tmp ? tmp : "/tmp");
	if (!data || !mkdtemp(dir)) {
		printf("SPOOR_TEST_DATA not set or no temporary directory\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/busy", dir);
	snprintf(cmd, sizeof(cmd), "python3 '%s/gen_kernel.py' --busy '%s' >/dev/null", data, path);
	CHECK_CTX("gen_kernel.py --busy");
	if (CHECK_EQ_S64(system(cmd), 0)) {
		test_hook_added_while_paused(path);
		test_pause(path);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	snprintf(path, sizeof(path), "%s/lttng/many-threads", shared ? shared : "");
	if (shared && !access(path, R_OK)) {
		test_hook_added_while_paused(path);
		test_pause(path);
	} else
		printf("note: no LTTng trace at '%s' (SHARED_TRACES): the trace of our own only\n",
		       path);
	check_context[0] = '\0';
	return check_done();
}
