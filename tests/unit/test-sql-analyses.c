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

#include "analysis/syscalls.h"
#include "check.h"
#include "sql/sql.h"

static const char *const tables[] = {"syscalls"};
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

static struct spoor_reader *open_trace(const char *path)
{
	struct spoor_reader *r = NULL;
	const char *paths[] = {path};
	CHECK_CTX("%s", path);
	return CHECK_EQ_S64(spoor_reader_open(paths, 1, &r, NULL), 0) ? r : NULL;
}

/* ---- each table against its analysis ---- */

static void check_syscalls(sqlite3 *h, const char *path)
{
	struct spoor_reader *r = open_trace(path);
	struct an_engine *e = NULL;
	struct sc_analysis *a = NULL;
	if (!r || !CHECK_EQ_S64(an_engine_new(r, NULL, &e), 0) ||
	    !CHECK((a = sc_analysis_new(e, NULL)) != NULL) || !CHECK_EQ_S64(an_engine_run(e), 0) ||
	    !CHECK_EQ_S64(sc_analysis_finish(a), 0))
		goto out;
	const struct sc_call *calls;
	size_t n = sc_analysis_calls(a, &calls);
	CHECK_EQ_S64(int_of(h, "SELECT count(*) FROM syscalls"), sc_analysis_totals(a)->calls);
	size_t completed = 0; /* calls of which some completed */
	for (size_t i = 0; i < n; i++) {
		const struct exactstat *s = &calls[i].all.dur;
		if (!s->n)
			continue;
		completed++;
		char q[300], want[200], *got;
		snprintf(
		    q, sizeof(q),
		    "SELECT count(*), sum(dur), min(dur), max(dur), sum(ret < 0 AND ret > -4096)"
		    " FROM syscalls WHERE name = '%s'",
		    calls[i].name);
		snprintf(want, sizeof(want), "%llu|%llu|%llu|%llu|%llu\n",
		         (unsigned long long) s->n, (unsigned long long) s->sum,
		         (unsigned long long) s->min, (unsigned long long) s->max,
		         (unsigned long long) calls[i].all.errors);
		if ((got = rows_of(h, q)))
			CHECK_STR(got, want);
		free(got);
	}
	CHECK_EQ_S64(int_of(h, "SELECT count(DISTINCT name) FROM syscalls"), completed);
	/* per process: the groups' pids (the trace's state dump comes first here) */
	const struct sc_group *g;
	size_t ng = sc_analysis_groups(a, &g);
	for (size_t i = 0; i < ng; i++) {
		char q[200];
		snprintf(q, sizeof(q), "SELECT count(*) FROM syscalls WHERE pid = %lld",
		         (long long) g[i].pid);
		CHECK_EQ_S64(int_of(h, q), g[i].total.dur.n);
	}
out:
	sc_analysis_free(a);
	an_engine_free(e);
	spoor_reader_close(r);
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
	bool has_cpu = false;
	for (int i = 0, n = sqlite3_column_count(st); i < n; i++) {
		snprintf(order + strlen(order), sizeof(order) - strlen(order), "%s%d", i ? "," : "",
		         i + 1);
		has_cpu |= !strcmp(sqlite3_column_name(st, i), "cpu");
	}
	sqlite3_finalize(st);
	snprintf(q, sizeof(q), "SELECT min(ts), max(ts) FROM \"%s\"", t);
	int64_t lo = int_of(h, q);
	snprintf(q, sizeof(q), "SELECT max(ts) FROM \"%s\"", t);
	int64_t hi = int_of(h, q), a = lo + (hi - lo) / 3, b = lo + 2 * (hi - lo) / 3;
	snprintf(q, sizeof(q), "SELECT tid FROM \"%s\" GROUP BY tid ORDER BY count(*) DESC LIMIT 1",
	         t);
	int64_t tid = int_of(h, q);
	/* +col is an expression: nothing to push down */
	static const char *const where[][2] = {
	    {"ts BETWEEN %lld AND %lld", "+ts BETWEEN %lld AND %lld"},
	    {"ts >= %lld AND ts < %lld", "+ts >= %lld AND +ts < %lld"},
	    {"ts > %lld AND ts <= %lld + 0.5", "+ts > %lld AND +ts <= %lld + 0.5"},
	    {"tid = %lld", "+tid = %lld"},
	    {"cpu = 1", "+cpu = 1"},
	};
	for (size_t w = 0; w < sizeof(where) / sizeof(where[0]); w++) {
		char cond[120], plain[130], *pushed, *unpushed;
		if (w == 4 && !has_cpu)
			continue;
		long long x = w == 3 ? tid : a;
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

static void test_trace(const char *path)
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
	for (size_t i = 0; i < NTABLES; i++)
		check_pushdown(h, tables[i]);
	sql_db_close(db);
	check_context[0] = '\0';
}

/* With arguments: the checks on those traces only. */
int main(int argc, char **argv)
{
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			test_trace(argv[i]);
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
			test_trace(path);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	snprintf(path, sizeof(path), "%s/lttng/many-threads", shared ? shared : "");
	if (shared && !access(path, R_OK))
		test_trace(path);
	else
		printf("note: no LTTng trace at '%s' (SHARED_TRACES): the traces of our own only\n",
		       path);
	check_context[0] = '\0';
	return check_done();
}
