/* SPDX-License-Identifier: MIT */
/*
 * test-sql-analyses.c: the models' and analyses' tables of lib/sql (vt-analyses.c) through
 * sql_db_open and the sqlite3 API:
 * - each table's rows add up, per group (count, sum(dur), min, max), to what its analysis
 *   counts with no range and no filter (the figures `spoor syscalls/irq/sched/disk --json`
 *   print, read here through the analyses' own API);
 * - a pushed constraint never changes a row: `WHERE ts BETWEEN a AND b` (and tid =, cpu =)
 *   gives the rows of the same query with `+ts` (no push-down);
 * on the project's own kernel traces (gen_kernel.py --analyses and --busy), and on the
 * shared LTTng kernel trace many-threads when it is there.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/disk.h"
#include "analysis/irq.h"
#include "analysis/sched.h"
#include "analysis/syscalls.h"
#include "check.h"
#include "sql/sql.h"

static const char *const tables[] = {"syscalls",     "irqs",          "disk_requests",
                                     "sched_slices", "thread_states", "threads"};
#define NTABLES (sizeof(tables) / sizeof(tables[0]))

/* Every row of a query as text, "a|b|c\n" each (malloc'd); NULL and a failed check on
 * error. */
static char *rows_of(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	CHECK_CTX("%s", sql);
	if (!CHECK_EQ_S64(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK)) {
		printf("  %s\n", sqlite3_errmsg(h));
		return NULL;
	}
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		for (int i = 0, n = sqlite3_column_count(st); i < n; i++) {
			const unsigned char *v = sqlite3_column_text(st, i);
			fprintf(f, "%s%c", v ? (const char *) v : "NULL", i + 1 < n ? '|' : '\n');
		}
	fclose(f);
	if (!CHECK_EQ_S64(rc, SQLITE_DONE))
		printf("  %s\n", sqlite3_errmsg(h));
	sqlite3_finalize(st);
	return out;
}

/* The one integer a query gives (NULL: -1). */
static int64_t int_of(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;
	CHECK_CTX("%s", sql);
	if (!CHECK_EQ_S64(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK)) {
		printf("  %s\n", sqlite3_errmsg(h));
		return -1;
	}
	if (CHECK_EQ_S64(sqlite3_step(st), SQLITE_ROW) && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* ---- each table against its analysis ---- */

/* The rows of a grouped query (its first column the group's key), looked up by key: one
 * query per table, whatever the number of groups (each query runs the whole pass). */
struct groups {
	char *text;
	char **line; /* "key|rest", sorted */
	size_t n;
};

static int line_cmp(const void *x, const void *y)
{
	const char *a = *(char *const *) x, *b = *(char *const *) y;
	size_t la = strcspn(a, "|"), lb = strcspn(b, "|");
	int c = strncmp(a, b, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

static bool groups_of(sqlite3 *h, const char *sql, struct groups *g)
{
	memset(g, 0, sizeof(*g));
	if (!(g->text = rows_of(h, sql)))
		return false;
	for (char *p = g->text; *p; p++)
		g->n += *p == '\n';
	g->line = calloc(g->n + 1, sizeof(*g->line));
	size_t i = 0;
	for (char *p = g->text; *p && i < g->n; i++) {
		g->line[i] = p;
		p = strchr(p, '\n');
		*p++ = '\0';
	}
	qsort(g->line, g->n, sizeof(*g->line), line_cmp);
	return true;
}

/* Group key's figures ("NULL" fields for a group without rows) against want. */
static void group_check(const struct groups *g, const char *key, const char *want)
{
	const char *k = key, *const *found = bsearch(&k, g->line, g->n, sizeof(*g->line), line_cmp);
	CHECK_CTX("group %s", key);
	if (found)
		CHECK_STR(*found + strlen(key) + 1, want);
	else /* no row: only for a group whose count is 0 */
		CHECK(!strncmp(want, "0|", 2) || !strcmp(want, "0"));
}

static void groups_free(struct groups *g)
{
	free(g->text);
	free(g->line);
}

/* "count|sum|min|max" of welford figures, as rows_of gives them. */
static void welford_text(const struct welford *w, char *buf, size_t size)
{
	if (!w->n)
		snprintf(buf, size, "0|NULL|NULL|NULL");
	else
		snprintf(buf, size, "%llu|%.0f|%.0f|%.0f", (unsigned long long) w->n, w->sum,
		         w->min, w->max);
}

/* An engine on the trace with an analysis from make; run. */
struct pass {
	struct spoor_reader *r;
	struct an_engine *e;
};

static bool pass_open(struct pass *p, const char *path)
{
	const char *paths[] = {path};
	memset(p, 0, sizeof(*p));
	CHECK_CTX("%s", path);
	return CHECK_EQ_S64(spoor_reader_open(paths, 1, &p->r, NULL), 0) &&
	       CHECK_EQ_S64(an_engine_new(p->r, NULL, &p->e), 0);
}

static void pass_close(struct pass *p)
{
	an_engine_free(p->e);
	spoor_reader_close(p->r);
}

static void check_syscalls(sqlite3 *h, const char *path)
{
	struct pass p;
	struct sc_analysis *a = NULL;
	struct groups g;
	char key[100], want[200];
	if (!pass_open(&p, path) || !CHECK((a = sc_analysis_new(p.e, NULL)) != NULL) ||
	    !CHECK_EQ_S64(an_engine_run(p.e), 0) || !CHECK_EQ_S64(sc_analysis_finish(a), 0))
		goto out;
	const struct sc_call *calls;
	size_t n = sc_analysis_calls(a, &calls);
	CHECK_EQ_S64(int_of(h, "SELECT count(*) FROM syscalls"), sc_analysis_totals(a)->calls);
	if (groups_of(h,
	              "SELECT name, count(*), sum(dur), min(dur), max(dur),"
	              " sum(ret < 0 AND ret > -4096) FROM syscalls GROUP BY name",
	              &g)) {
		size_t completed = 0; /* calls of which some completed */
		for (size_t i = 0; i < n; i++) {
			const struct exactstat *s = &calls[i].all.dur;
			if (!s->n)
				continue;
			completed++;
			snprintf(want, sizeof(want), "%llu|%llu|%llu|%llu|%llu",
			         (unsigned long long) s->n, (unsigned long long) s->sum,
			         (unsigned long long) s->min, (unsigned long long) s->max,
			         (unsigned long long) calls[i].all.errors);
			group_check(&g, calls[i].name, want);
		}
		CHECK_EQ_S64(g.n, completed);
		groups_free(&g);
	}
	/* per process: the groups' pids (LTTng's state dump is read first) */
	const struct sc_group *gr;
	size_t ng = sc_analysis_groups(a, &gr);
	if (groups_of(h, "SELECT pid, count(*), sum(dur) FROM syscalls GROUP BY pid", &g)) {
		for (size_t i = 0; i < ng; i++) {
			snprintf(key, sizeof(key), "%lld", (long long) gr[i].pid);
			snprintf(want, sizeof(want), "%llu|%llu",
			         (unsigned long long) gr[i].total.dur.n,
			         (unsigned long long) gr[i].total.dur.sum);
			group_check(&g, key, want);
		}
		groups_free(&g);
	}
out:
	sc_analysis_free(a);
	pass_close(&p);
}

static void check_irqs(sqlite3 *h, const char *path)
{
	struct pass p;
	struct irq_analysis *a = NULL;
	struct groups g;
	if (!pass_open(&p, path) || !CHECK((a = irq_analysis_new(p.e)) != NULL) ||
	    !CHECK_EQ_S64(an_engine_run(p.e), 0) ||
	    !groups_of(h,
	               "SELECT soft || '/' || cpu || '/' || irq, count(*), sum(dur), min(dur),"
	               " max(dur), min(name), max(name) FROM irqs GROUP BY soft, cpu, irq",
	               &g))
		goto out;
	const struct irq_line *l;
	size_t n = irq_analysis_lines(a, &l), lines = 0;
	for (size_t i = 0; i < n; i++) {
		char key[100], want[200];
		snprintf(key, sizeof(key), "%d/%lld/%lld", l[i].soft, (long long) l[i].cpu,
		         (long long) l[i].irq);
		welford_text(&l[i].duration, want, sizeof(want));
		if (l[i].duration.n) /* its runs' name */
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "|%s|%s",
			         l[i].name[0] ? l[i].name : "NULL",
			         l[i].name[0] ? l[i].name : "NULL");
		group_check(&g, key, want);
		lines += l[i].duration.n > 0;
	}
	CHECK_EQ_S64(g.n, lines);
	groups_free(&g);
out:
	irq_analysis_free(a);
	pass_close(&p);
}

static void check_disk(sqlite3 *h, const char *path)
{
	struct pass p;
	struct disk_analysis *a = NULL;
	struct groups g, ops;
	if (!pass_open(&p, path) || !CHECK((a = disk_analysis_new(p.e)) != NULL) ||
	    !CHECK_EQ_S64(an_engine_run(p.e), 0) ||
	    !groups_of(h,
	               "SELECT dev, count(*), sum(dur), min(dur), max(dur) FROM disk_requests"
	               " GROUP BY dev",
	               &g))
		goto out;
	if (!groups_of(h,
	               "SELECT dev || '/' || op, count(*), sum(bytes) FROM disk_requests"
	               " GROUP BY dev, op",
	               &ops)) {
		groups_free(&g);
		goto out;
	}
	const struct disk_dev *d;
	size_t n = disk_analysis_devices(a, &d);
	for (size_t i = 0; i < n; i++) {
		char key[100], want[200], q[400];
		snprintf(key, sizeof(key), "%u", d[i].dev);
		welford_text(&d[i].lat, want, sizeof(want));
		group_check(&g, key, want);
		/* p90, nearest rank as disk.c takes it */
		snprintf(q, sizeof(q),
		         "SELECT dur FROM disk_requests WHERE dev = %u ORDER BY dur LIMIT 1"
		         " OFFSET (SELECT (count(*) * 90 + 99) / 100 - 1 FROM disk_requests"
		         " WHERE dev = %u)",
		         d[i].dev, d[i].dev);
		if (d[i].lat.n)
			CHECK_EQ_S64(int_of(h, q), (int64_t) d[i].p90);
		if (d[i].unmatched) /* completions without their issue: counted, no row */
			continue;
		static const char *const names[] = {"read", "write", "other"};
		for (int op = 0; op < DISK_OPS; op++) {
			snprintf(key, sizeof(key), "%u/%s", d[i].dev, names[op]);
			snprintf(want, sizeof(want), "%llu|%llu",
			         (unsigned long long) d[i].count[op],
			         (unsigned long long) d[i].bytes[op]);
			group_check(&ops, key, want);
		}
	}
	groups_free(&g);
	groups_free(&ops);
out:
	disk_analysis_free(a);
	pass_close(&p);
}

/* sched_slices against sched, and thread_states' time on and waiting for a CPU too (the
 * timeline's states add up to sched's times: test-timeline-states.c); threads' pid and
 * comm are sched's. */
static void check_sched(sqlite3 *h, const char *path)
{
	struct pass p;
	struct sched_analysis *a = NULL;
	struct groups slices, states, threads, cpus;
	if (!pass_open(&p, path) || !CHECK((a = sched_analysis_new(p.e, 0)) != NULL) ||
	    !CHECK_EQ_S64(an_engine_run(p.e), 0))
		goto out;
	bool ok = groups_of(h,
	                    "SELECT tid, sum(dur), count(wakeup_ts), sum(ts - wakeup_ts),"
	                    " min(ts - wakeup_ts), max(ts - wakeup_ts) FROM sched_slices"
	                    " GROUP BY tid",
	                    &slices);
	ok &= groups_of(h,
	                "SELECT tid, coalesce(sum(dur) FILTER (WHERE state IN ('user', 'syscall',"
	                " 'irq', 'softirq', 'running')), 0), coalesce(sum(dur) FILTER"
	                " (WHERE state = 'wait_cpu'), 0) FROM thread_states GROUP BY tid",
	                &states);
	ok &= groups_of(h, "SELECT tid, pid, comm FROM threads", &threads);
	ok &= groups_of(h,
	                "SELECT cpu, coalesce(sum(dur) FILTER (WHERE tid = 0), 0),"
	                " coalesce(sum(dur) FILTER (WHERE tid > 0), 0) FROM sched_slices"
	                " GROUP BY cpu",
	                &cpus);
	if (!ok)
		goto free;
	const struct sched_thread *t;
	size_t n = sched_analysis_threads(a, &t);
	/* a slice a loss cut has no row, but its wake-up latency counts */
	bool lossy = an_events_lost(p.e) > 0;
	for (size_t i = 0; i < n; i++) {
		char key[40], want[200], lat[100];
		snprintf(key, sizeof(key), "%lld", (long long) t[i].tid);
		welford_text(&t[i].latency, lat, sizeof(lat));
		if (t[i].cpu_ns || t[i].latency.n) {
			snprintf(want, sizeof(want), "%lld|%s", (long long) t[i].cpu_ns, lat);
			if (lossy) /* the CPU time only */
				*strchr(want, '|') = '\0';
			const char *k = key, *const *f = bsearch(&k, slices.line, slices.n,
			                                         sizeof(char *), line_cmp);
			CHECK_CTX("%s: thread %s", path, key);
			if (CHECK(f != NULL))
				CHECK_STRN(*f + strlen(key) + 1, strlen(want), want);
		}
		if (!lossy && (t[i].cpu_ns || t[i].wait_ns)) {
			snprintf(want, sizeof(want), "%lld|%lld", (long long) t[i].cpu_ns,
			         (long long) t[i].wait_ns);
			group_check(&states, key, want);
		}
		const char *comm = an_task_comm(p.e, t[i].tid);
		snprintf(want, sizeof(want), "%lld|%s", (long long) an_task_pid(p.e, t[i].tid),
		         comm ? comm : "NULL");
		group_check(&threads, key, want);
	}
	const struct sched_cpu *c;
	n = sched_analysis_cpus(a, &c);
	for (size_t i = 0; i < n; i++) {
		char key[40], want[100];
		snprintf(key, sizeof(key), "%lld", (long long) c[i].cpu);
		snprintf(want, sizeof(want), "%lld|%lld", (long long) c[i].idle_ns,
		         (long long) c[i].busy_ns);
		if (c[i].idle_ns || c[i].busy_ns)
			group_check(&cpus, key, want);
	}
free:
	groups_free(&slices);
	groups_free(&states);
	groups_free(&threads);
	groups_free(&cpus);
out:
	sched_analysis_free(a);
	pass_close(&p);
}

/* Each thread's calls lie between its first and last sightings. */
static void check_threads(sqlite3 *h)
{
	CHECK_CTX("threads");
	/* each table read once (a join's inner loop would run its pass once per outer row) */
	CHECK_EQ_S64(int_of(h, "WITH s AS MATERIALIZED (SELECT tid, min(ts) m, max(ts + dur) x"
	                       " FROM syscalls GROUP BY tid), t AS MATERIALIZED (SELECT * FROM"
	                       " threads) SELECT count(*) FROM s LEFT JOIN t USING (tid)"
	                       " WHERE t.tid IS NULL OR t.first_ts > s.m OR t.last_ts < s.x"),
	             0);
	CHECK_EQ_S64(int_of(h, "SELECT count(*) - count(DISTINCT tid) FROM threads"), 0);
	CHECK_EQ_S64(int_of(h, "SELECT count(*) FROM threads WHERE first_ts > last_ts"), 0);
}

/* ---- push-down ---- */

/* The rows of table t in a third of its time, its columns in order, with the constraint
 * pushed down and with +ts (none pushed): the same. Likewise a tid and a cpu. */
static void check_pushdown(sqlite3 *h, const char *t)
{
	char q[400], order[100] = "";
	snprintf(q, sizeof(q), "SELECT * FROM \"%s\" LIMIT 0", t);
	sqlite3_stmt *st;
	if (!CHECK_EQ_S64(sqlite3_prepare_v2(h, q, -1, &st, NULL), SQLITE_OK))
		return;
	bool has_cpu = false, has_ts = false;
	for (int i = 0, n = sqlite3_column_count(st); i < n; i++) {
		snprintf(order + strlen(order), sizeof(order) - strlen(order), "%s%d", i ? "," : "",
		         i + 1);
		has_cpu |= !strcmp(sqlite3_column_name(st, i), "cpu");
		has_ts |= !strcmp(sqlite3_column_name(st, i), "ts");
	}
	sqlite3_finalize(st);
	snprintf(q, sizeof(q), "SELECT count(*) FROM \"%s\"", t);
	if (!int_of(h, q)) /* nothing to compare (no disk requests in the trace, say) */
		return;
	/* the bounds are times of rows: the ends of the range must be exact */
	int64_t a = 0, b = 0;
	if (has_ts) {
		snprintf(q, sizeof(q),
		         "SELECT ts FROM \"%s\" ORDER BY ts LIMIT 1 OFFSET (SELECT count(*) / 3"
		         " FROM \"%s\")",
		         t, t);
		a = int_of(h, q);
		snprintf(q, sizeof(q),
		         "SELECT ts FROM \"%s\" ORDER BY ts LIMIT 1 OFFSET (SELECT 2 * count(*) / 3"
		         " FROM \"%s\")",
		         t, t);
		b = int_of(h, q);
	}
	snprintf(q, sizeof(q), "SELECT tid FROM \"%s\" GROUP BY tid ORDER BY count(*) DESC LIMIT 1",
	         t);
	int64_t tid = int_of(h, q), cpu = -1;
	if (has_cpu) {
		snprintf(q, sizeof(q),
		         "SELECT cpu FROM \"%s\" GROUP BY cpu ORDER BY count(*) LIMIT 1", t);
		cpu = int_of(h, q);
	}
	/* +col is an expression: nothing to push down */
	static const char *const where[][2] = {
	    {"ts BETWEEN %lld AND %lld", "+ts BETWEEN %lld AND %lld"},
	    {"ts >= %lld AND ts < %lld", "+ts >= %lld AND +ts < %lld"},
	    {"ts > %lld AND ts <= %lld + 0.5", "+ts > %lld AND +ts <= %lld + 0.5"},
	    {"tid = %lld", "+tid = %lld"},
	    {"cpu = %lld", "+cpu = %lld"},
	};
	for (size_t w = 0; w < sizeof(where) / sizeof(where[0]); w++) {
		char cond[120], plain[130], *pushed, *unpushed;
		if ((w == 4 && !has_cpu) || (w < 3 && !has_ts))
			continue;
		long long x = w == 3 ? tid : w == 4 ? cpu : a;
		snprintf(cond, sizeof(cond), where[w][0], x, (long long) b);
		snprintf(plain, sizeof(plain), where[w][1], x, (long long) b);
		snprintf(q, sizeof(q), "SELECT * FROM \"%s\" WHERE %s ORDER BY %s", t, cond, order);
		pushed = rows_of(h, q);
		snprintf(q, sizeof(q), "SELECT * FROM \"%s\" WHERE %s ORDER BY %s", t, plain,
		         order);
		unpushed = rows_of(h, q);
		CHECK_CTX("%s: %s", t, cond);
		if (CHECK(pushed && unpushed)) {
			CHECK(strchr(pushed, '\n') != NULL); /* not empty: some row to compare */
			CHECK_STR(pushed, unpushed);
		}
		free(pushed);
		free(unpushed);
	}
}

/* The bytes of packets a query reads (sql_db_io). */
static uint64_t bytes_read(struct sql_db *db, const char *q)
{
	struct sql_io before, after;
	sql_db_io(db, &before);
	free(rows_of(sql_db_handle(db), q));
	sql_db_io(db, &after);
	return after.bytes - before.bytes;
}

/* A range's end early in the trace ends the pass once no row in it can still come: fewer
 * packets read than the whole trace (on traces of several packets per stream). */
static void check_early_end(struct sql_db *db, const char *t)
{
	char q[300];
	snprintf(q, sizeof(q),
	         "SELECT ts FROM \"%s\" ORDER BY ts LIMIT 1 OFFSET (SELECT count(*) / 10 FROM"
	         " \"%s\")",
	         t, t);
	int64_t early = int_of(sql_db_handle(db), q);
	snprintf(q, sizeof(q), "SELECT count(*) FROM \"%s\"", t);
	uint64_t all = bytes_read(db, q);
	snprintf(q, sizeof(q), "SELECT count(*) FROM \"%s\" WHERE ts <= %lld", t,
	         (long long) early);
	uint64_t part = bytes_read(db, q);
	CHECK_CTX("%s: ts <= %lld", t, (long long) early);
	CHECK(part > 0);
	CHECK(part < all);
}

static void test_trace(const char *path, bool early_end)
{
	struct sql_db *db = NULL;
	char *why = NULL;
	const char *paths[] = {path};
	CHECK_CTX("%s", path);
	if (!CHECK_EQ_S64(sql_db_open(paths, 1, &db, &why), 0)) {
		printf("  %s\n", why ? why : "");
		free(why);
		return;
	}
	sqlite3 *h = sql_db_handle(db);
	check_syscalls(h, path);
	check_irqs(h, path);
	check_disk(h, path);
	check_sched(h, path);
	check_threads(h);
	for (size_t i = 0; i < NTABLES; i++)
		check_pushdown(h, tables[i]);
	if (early_end) /* those whose items are short, on a trace of several packets */
		for (size_t i = 1; i < 4; i++)
			check_early_end(db, tables[i]);
	sql_db_close(db);
	check_context[0] = '\0';
}

/* With arguments: the checks on those traces only. */
int main(int argc, char **argv)
{
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			test_trace(argv[i], false);
		return check_done();
	}
	const char *data = getenv("SPOOR_TEST_DATA"), *tmp = getenv("TMPDIR");
	const char *shared = getenv("SHARED_TRACES");
	char dir[512], path[700], cmd[1600];
	snprintf(dir, sizeof(dir), "%s/spoor-sql-analyses-XXXXXX", tmp ? tmp : "/tmp");
	if (!data || !mkdtemp(dir)) {
		printf("SPOOR_TEST_DATA not set or no temporary directory\n");
		return 1;
	}
	static const char *const gens[] = {"analyses", "busy"};
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, gens[i]);
		snprintf(cmd, sizeof(cmd), "python3 '%s/gen_kernel.py' --%s '%s' >/dev/null", data,
		         gens[i], path);
		CHECK_CTX("gen_kernel.py --%s", gens[i]);
		if (CHECK_EQ_S64(system(cmd), 0))
			test_trace(path, i == 0);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	snprintf(path, sizeof(path), "%s/lttng/many-threads", shared ? shared : "");
	if (shared && !access(path, R_OK))
		test_trace(path, false);
	else
		printf("note: no LTTng trace at '%s' (SHARED_TRACES): the traces of our own only\n",
		       path);
	check_context[0] = '\0';
	return check_done();
}
