/* SPDX-License-Identifier: MIT */
/*
 * test-sql-tables.c: lib/sql's events table and class tables, through sql_db_open and the
 * sqlite3 API (docs/sql.md "events", "A table per event class", "Push-down"), on traces of
 * our own (tests/data/gen_kernel.py, gen-ctf.py) and the shared LTTng traces when present:
 *   - counts per event name equal babeltrace2's (its text lines, counted by name);
 *   - a time range read by push-down reads fewer bytes than a full scan and gives the rows
 *     of the same query with +ts (no push-down); pid and comm too (the model's pre-pass);
 *   - names, tids and CPUs pushed down give the rows SQLite's own filtering gives.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sql/sql.h"

static char dir[512];

/* Every row of a query as text: columns joined by '|', rows by '\n' (NULL as "NULL").
 * NULL when the query fails (checked). */
static char *rows(struct sql_db *db, const char *query)
{
	sqlite3 *h = sql_db_handle(db);
	sqlite3_stmt *st;
	CHECK_CTX("%s", query);
	if (!CHECK(sqlite3_prepare_v2(h, query, -1, &st, NULL) == SQLITE_OK)) {
		printf("  %s\n", sqlite3_errmsg(h));
		return NULL;
	}
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < sqlite3_column_count(st); i++) {
			const unsigned char *t = sqlite3_column_text(st, i);
			fprintf(f, "%s%s", i ? "|" : "", t ? (const char *) t : "NULL");
		}
		fputc('\n', f);
	}
	fclose(f);
	if (!CHECK(rc == SQLITE_DONE)) {
		printf("  %s\n", sqlite3_errmsg(h));
		free(out);
		out = NULL;
	}
	sqlite3_finalize(st);
	return out;
}

/* The one integer a query answers (-1 when it fails). */
static int64_t number(struct sql_db *db, const char *query)
{
	char *r = rows(db, query);
	int64_t v = r && *r ? strtoll(r, NULL, 10) : -1;
	free(r);
	return v;
}

static bool ours = true; /* a trace of our own: the queries find rows */

/* Both queries give the same rows (and at least one on our traces). */
static void same_rows(struct sql_db *db, const char *a, const char *b)
{
	char *ra = rows(db, a), *rb = rows(db, b);
	CHECK_CTX("%s = %s", a, b);
	if (ra && rb) {
		CHECK(*ra || !ours);
		CHECK_STR(ra, rb);
	}
	free(ra);
	free(rb);
}

static struct sql_db *open_db(const char *path)
{
	struct sql_db *db = NULL;
	char *err = NULL;
	CHECK_CTX("sql_db_open %s", path);
	if (!CHECK_EQ_S64(sql_db_open(&path, 1, &db, &err), 0))
		printf("  %s\n", err ? err : "");
	free(err);
	return db;
}

/* Bytes a query reads (sql_db_io). */
static uint64_t bytes_read(struct sql_db *db, const char *query)
{
	struct sql_io a, b;
	sql_db_io(db, &a);
	free(rows(db, query));
	sql_db_io(db, &b);
	return (b.bytes - b.skipped_bytes) - (a.bytes - a.skipped_bytes);
}

/* babeltrace2's events per name ("NAME COUNT" lines, sorted by name) against the events
 * table's. */
static void counts_match_babeltrace(const char *path)
{
	char cmd[1200], *bt = NULL;
	size_t len = 0;
	snprintf(
	    cmd, sizeof(cmd),
	    "babeltrace2 '%s' | sed -E 's/^\\[[^]]*\\] \\([^)]*\\) //; s/: .*//; s/:$//; s/.* //'"
	    " | LC_ALL=C sort | uniq -c | awk '{print $2 \"|\" $1}'",
	    path);
	FILE *p = popen(cmd, "r");
	FILE *f = open_memstream(&bt, &len);
	int ch;
	while (p && (ch = fgetc(p)) != EOF)
		fputc(ch, f);
	fclose(f);
	CHECK_CTX("babeltrace2 %s", path);
	CHECK(p && pclose(p) == 0);
	struct sql_db *db = open_db(path);
	if (db) {
		char *got = rows(db, "SELECT name, count(*) FROM events GROUP BY name "
		                     "ORDER BY name COLLATE BINARY");
		CHECK_CTX("counts per name, %s", path);
		if (got && CHECK(*bt))
			CHECK_STR(got, bt);
		free(got);
		/* the other plans give the same counts: SQLite's sorter, a filter by name */
		char *sorted =
		    rows(db, "SELECT name, count(*) FROM events GROUP BY +name ORDER BY 1");
		CHECK_CTX("counts per name through SQLite's sorter, %s", path);
		if (sorted)
			CHECK_STR(sorted, bt);
		free(sorted);
		CHECK_EQ_S64(number(db, "SELECT count(*) FROM events"),
		             number(db, "SELECT count(*) FROM events WHERE ts IS NOT NULL OR 1"));
		sql_db_close(db);
	}
	free(bt);
}

/* A kernel trace of 4 CPUs in many small packets (a new one every 25 events of a CPU): a
 * state dump, then tasks taking turns on each CPU (sched_switch), a fork and a rename on
 * the way, system calls all along. argv: gen_kernel's folder, the output, the style. */
static const char kernel_py[] =
    "import sys; sys.path.insert(0, sys.argv[1]); import gen_kernel as k\n"
    "style = sys.argv[3]\n"
    "comm = {0: 'swapper', 100: 'alpha', 101: 'alpha', 200: 'beta', 201: 'beta', 300: 'gamma'}\n"
    "dump = 'statedump_process' if style == 'ftrace' else 'lttng_statedump_process_state'\n"
    "e = []\n"
    "def add(ts_, cpu_, event_, task_, **f):\n"
    "    if style != 'lttng':\n"
    "        f['common_pid'] = task_\n"
    "    e.append((ts_, cpu_, event_, f))\n"
    "for i, t in enumerate([100, 101, 200, 201]):\n"
    "    add(1 + i, 0, dump, 0, tid=t, pid=t - t % 100, ppid=1, name=comm[t])\n"
    "cur = {c: 0 for c in range(4)}\n"
    "tasks = [100, 101, 200, 201]\n"
    "for r in range(300):\n"
    "    for c in range(4):\n"
    "        t = 1000 + r * 1000 + c * 7\n"
    "        if r % 10 == 0:\n"
    "            nxt = tasks[(c + r // 10) % len(tasks)]\n"
    "            sw = k.switch(t, c, cur[c], nxt, comm, style='ftrace' if style == 'ftrace' else "
    "'lttng')\n"
    "            add(sw[0], c, 'sched_switch', cur[c], **sw[3])\n"
    "            cur[c] = nxt\n"
    "        add(t + 100, c, 'syscall_entry_read', cur[c], fd=3 + c, count=r)\n"
    "        add(t + 200, c, 'syscall_exit_read', cur[c], ret=r % 7)\n"
    "        if (r, c) == (60, 1):\n"
    "            add(t + 300, c, 'sched_process_fork', cur[c], parent_comm=comm[cur[c]],\n"
    "                parent_tid=cur[c], parent_pid=cur[c], child_comm=comm[cur[c]], "
    "child_tid=300,\n"
    "                child_pid=300)\n"
    "            tasks.append(300)\n"
    "        if (r, c) == (150, 2):\n"
    "            add(t + 300, c, 'task_rename', cur[c], tid=101, oldcomm='alpha', "
    "newcomm='alpha-2')\n"
    "losses = {c: [(i, 0) for i in range(25, 2000, 25)] for c in range(4)}\n"
    "k.write(sys.argv[2], e, style=style, losses=losses)\n";

/* A trace written by a gen_kernel script (python3 reads it on its stdin) at dir/name. */
static bool gen_trace(const char *data, const char *name, const char *py, const char *args,
                      char *path, size_t size)
{
	char cmd[2400];
	snprintf(path, size, "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "python3 - '%s' '%s' %s", data, path, args);
	FILE *p = popen(cmd, "w");
	CHECK_CTX("%s", cmd);
	if (!CHECK(p != NULL))
		return false;
	fputs(py, p);
	return CHECK_EQ_S64(pclose(p), 0);
}

/* A time range reads only its packets and gives the rows SQLite's own filtering gives. */
static void range_pushed_down(const char *path)
{
	struct sql_db *db = open_db(path);
	if (!db)
		return;
	/* from the middle event on, a tenth of them */
	char q[3][600], p[3][600];
	int64_t n = number(db, "SELECT count(*) FROM events");
	snprintf(q[0], sizeof(q[0]), "SELECT ts FROM events LIMIT 1 OFFSET %lld",
	         (long long) n / 2);
	int64_t a = number(db, q[0]);
	snprintf(q[0], sizeof(q[0]), "SELECT ts FROM events LIMIT 1 OFFSET %lld",
	         (long long) (n / 2 + n / 10));
	int64_t b = number(db, q[0]);
	static const char *const cols[] = {
	    "ts, time, name, cpu, stream", "ts, name, cpu, tid, pid, comm, payload",
	    "name, count(*), min(ts), max(ts), count(DISTINCT tid), group_concat(DISTINCT comm)"};
	for (int i = 0; i < 3; i++) {
		snprintf(q[i], sizeof(q[i]),
		         "SELECT %s FROM events WHERE ts BETWEEN %lld AND %lld%s", cols[i],
		         (long long) a, (long long) b, i == 2 ? " GROUP BY name" : "");
		snprintf(p[i], sizeof(p[i]),
		         "SELECT %s FROM events WHERE +ts BETWEEN %lld AND %lld%s", cols[i],
		         (long long) a, (long long) b, i == 2 ? " GROUP BY name" : "");
		same_rows(db, q[i], p[i]);
	}
	uint64_t full = bytes_read(db, p[0]), part = bytes_read(db, q[0]);
	CHECK_CTX("bytes read, %s: range %llu, full scan %llu", path, (unsigned long long) part,
	          (unsigned long long) full);
	CHECK(part > 0);
	CHECK(part < full);
	if (!ours) {
		sql_db_close(db);
		return;
	}
	CHECK(part * 4 < full); /* many small packets */
	/* the same with the model's columns: its pre-pass reads the classes it needs */
	part = bytes_read(db, q[1]);
	CHECK(part < full);
	/* the range's rows have their tasks named (the dump and the switches before it) */
	char nulls[700];
	snprintf(nulls, sizeof(nulls),
	         "SELECT count(*) FROM events WHERE ts BETWEEN %lld AND %lld AND (tid IS NULL OR "
	         "pid IS NULL OR comm IS NULL)",
	         (long long) a, (long long) b);
	CHECK_EQ_S64(number(db, nulls), 0);
	/* one end, each end, an empty range, reals, other comparisons */
	static const char *const ranges[] = {"ts >= %lld",  "ts > %lld",
	                                     "ts < %lld",   "ts <= %lld",
	                                     "ts = %lld",   "ts BETWEEN %lld AND %lld - 1",
	                                     "ts > %lld.5", "ts < %lld.5 AND ts > 0"};
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		char w[200], x[800], y[800];
		snprintf(w, sizeof(w), ranges[i], (long long) a, (long long) a);
		snprintf(
		    x, sizeof(x),
		    "SELECT count(*), sum(ts %% 1000003), group_concat(tid) FROM events WHERE %s",
		    w);
		char *plus = strstr(w, "ts");
		memmove(plus + 1, plus, strlen(plus) + 1);
		*plus = '+';
		snprintf(
		    y, sizeof(y),
		    "SELECT count(*), sum(ts %% 1000003), group_concat(tid) FROM events WHERE %s",
		    w);
		same_rows(db, x, y);
	}
	sql_db_close(db);
}

/* Names, tids and CPUs pushed down give SQLite's own answers. */
static void filters_pushed_down(const char *path)
{
	struct sql_db *db = open_db(path);
	if (!db)
		return;
	static const char *const pairs[][2] = {
	    {"SELECT ts, name, tid, comm FROM events WHERE name = 'syscall_exit_read'",
	     "SELECT ts, name, tid, comm FROM events WHERE +name = 'syscall_exit_read'"},
	    {"SELECT ts, name, tid FROM events WHERE name IN ('sched_switch', 'task_rename')",
	     "SELECT ts, name, tid FROM events WHERE +name IN ('sched_switch', 'task_rename')"},
	    {"SELECT ts, name, pid FROM events WHERE tid = 101",
	     "SELECT ts, name, pid FROM events WHERE +tid = 101"},
	    {"SELECT ts, name, comm FROM events WHERE tid IN (200, 300) AND cpu = 1",
	     "SELECT ts, name, comm FROM events WHERE +tid IN (200, 300) AND +cpu = 1"},
	    {"SELECT count(*) FROM events WHERE cpu = 2",
	     "SELECT count(*) FROM events WHERE +cpu = 2"},
	    {"SELECT name, count(*) FROM events WHERE name > 's' GROUP BY name",
	     "SELECT name, count(*) FROM events WHERE name > 's' GROUP BY +name ORDER BY 1"},
	    {"SELECT DISTINCT name FROM events ORDER BY name",
	     "SELECT DISTINCT +name FROM events ORDER BY 1"},
	    {"SELECT name FROM events GROUP BY name ORDER BY name DESC",
	     "SELECT name FROM events GROUP BY +name ORDER BY +name DESC"},
	    {"SELECT ts FROM events ORDER BY ts LIMIT 50",
	     "SELECT ts FROM events ORDER BY +ts LIMIT 50"},
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		same_rows(db, pairs[i][0], pairs[i][1]);
	/* a name of no class, NULL: no rows */
	CHECK_EQ_S64(number(db, "SELECT count(*) FROM events WHERE name = 'nothing'"), 0);
	CHECK_EQ_S64(number(db, "SELECT count(*) FROM events WHERE name = NULL"), 0);
	CHECK_EQ_S64(number(db, "SELECT count(*) FROM events WHERE tid = 'x'"), 0);
	sql_db_close(db);
}

int main(void)
{
	const char *data = getenv("SPOOR_TEST_DATA"), *tmp = getenv("TMPDIR");
	const char *shared = getenv("SHARED_TRACES");
	char path[700], cmd[1400];

	snprintf(dir, sizeof(dir), "%s/spoor-sql-tables-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!data || !mkdtemp(dir)) {
		printf("SPOOR_TEST_DATA not set or no temporary directory\n");
		return 1;
	}
	static const char *const styles[] = {"lttng", "ftrace", "lttng_tid"};
	for (int i = 0; i < 3; i++) {
		char name[64];
		snprintf(name, sizeof(name), "kernel-%s", styles[i]);
		if (!gen_trace(data, name, kernel_py, styles[i], path, sizeof(path)))
			continue;
		counts_match_babeltrace(path);
		range_pushed_down(path);
		filters_pushed_down(path);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	static const char *const lttng[] = {"many-threads", "cyg-profile", "ros2"};
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/lttng/%s", shared ? shared : "", lttng[i]);
		if (!shared || access(path, R_OK)) {
			printf("note: no LTTng trace at '%s' (SHARED_TRACES)\n", path);
			continue;
		}
		ours = false;
		counts_match_babeltrace(path);
		range_pushed_down(path);
		filters_pushed_down(path);
	}
	check_context[0] = '\0';
	return check_done();
}
