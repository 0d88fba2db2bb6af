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
#include "sql-interrupt.h"
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

static bool own_trace = true; /* a trace of our own: the queries find rows */

/* A query's rows are these. */
static void check_rows(struct sql_db *db, const char *query, const char *want)
{
	char *got = rows(db, query);
	if (got)
		CHECK_STR(got, want);
	free(got);
}

/* Both queries give the same rows (and at least one on our traces). */
static void same_rows(struct sql_db *db, const char *a, const char *b)
{
	char *ra = rows(db, a), *rb = rows(db, b);
	CHECK_CTX("%s = %s", a, b);
	if (ra && rb) {
		CHECK(*ra || !own_trace);
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

/* The payloads babeltrace2 prints for a class (the last "{ ... }" of its lines), one a
 * line, with enumerations as their integers. */
static char *bt_payloads(const char *path, const char *name)
{
	char cmd[1400], *out = NULL;
	size_t len = 0;
	snprintf(cmd, sizeof(cmd),
	         "babeltrace2 '%s' | grep -F ' %s: ' | sed -E 's/.*\\}, \\{ /{ /; "
	         "s/\\( [^()]* : container = (-?[0-9]+) \\)/\\1/g'",
	         path, name);
	FILE *p = popen(cmd, "r"), *f = open_memstream(&out, &len);
	int ch;
	while (p && (ch = fgetc(p)) != EOF)
		fputc(ch, f);
	fclose(f);
	CHECK_CTX("%s", cmd);
	CHECK(p && pclose(p) == 0);
	return out;
}

/* A string as babeltrace2 quotes it, in SQL. */
#define BT_STR(x)                                                                                  \
	"replace(replace(replace(replace(" x                                                       \
	",'\\','\\\\'),'\"','\\\"'),char(9),'\\t'),char(10),'\\n')"

/* The same lines, but for those of ours holding `stale`: babeltrace2 2.0.4 prints an
 * earlier string where an empty one was recorded (docs/PERFORMANCE.md). */
static bool same_lines(const char *mine, const char *bt, const char *stale)
{
	size_t lines = 0;
	while (*mine && *bt) {
		size_t a = strcspn(mine, "\n"), b = strcspn(bt, "\n");
		lines++;
		if ((a != b || memcmp(mine, bt, a)) &&
		    !(stale && memmem(mine, a, stale, strlen(stale)))) {
			printf("  line %zu: %.*s\n  babeltrace2: %.*s\n", lines, (int) a, mine,
			       (int) b, bt);
			return false;
		}
		mine += a + (mine[a] == '\n');
		bt += b + (bt[b] == '\n');
	}
	return !*mine && !*bt && lines;
}

/* A class table's columns, printed in babeltrace2's layout by SQL, equal babeltrace2's
 * payloads. */
static void class_matches_babeltrace(struct sql_db *db, const char *path, const char *name,
                                     const char *select, const char *stale)
{
	char *bt = bt_payloads(path, name), *got = rows(db, select);
	CHECK_CTX("%s: %s", path, select);
	if (bt && got)
		CHECK(same_lines(got, bt, stale));
	free(bt);
	free(got);
}

/* The user-space types of tests/data/traces/ust-types (LTTng-UST) in their class tables. */
static void class_types(const char *data)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/traces/ust-types", data);
	struct sql_db *db = open_db(path);
	if (!db)
		return;
	class_matches_babeltrace(
	    db, path, "spoor_fixture:integers",
	    "SELECT printf('{ s8 = %d, s16 = %d, s32 = %d, s64 = %d, u8 = %u, u16 = %u, u32 = %u, "
	    "u64 = %u }', s8, s16, s32, s64, u8, u16, u32, u64) FROM \"spoor_fixture:integers\"",
	    NULL);
	class_matches_babeltrace(
	    db, path, "spoor_fixture:strings",
	    "SELECT printf('{ varying = \"%s\", fixed = \"%s\", indexed = \"%s\", empty = \"%s\" "
	    "}', " BT_STR("varying") ", " BT_STR("fixed") ", " BT_STR("indexed") ", " BT_STR(
	        "empty") ") FROM \"spoor_fixture:strings\"",
	    "varying = \"\"");
	class_matches_babeltrace(db, path, "spoor_fixture:enums",
	                         "SELECT printf('{ enum_signed = %d, enum_unsigned = %d }', "
	                         "enum_signed, enum_unsigned) FROM \"spoor_fixture:enums\"",
	                         NULL);
	/* typed columns: the contexts first, compounds as JSON, char arrays as text */
	check_rows(db,
	           "SELECT group_concat(name || ' ' || type, ', ') FROM "
	           "pragma_table_info('spoor_fixture:arrays')",
	           "ts INTEGER, time TEXT, cpu INTEGER, tid INTEGER, pid INTEGER, comm TEXT, "
	           "stream INTEGER, trace TEXT, vpid INTEGER, vtid INTEGER, procname TEXT, "
	           "arr_s32 TEXT, arr_u8 TEXT, arr_hex_u8 TEXT, arr_net_u32 TEXT, arr_text TEXT\n");
	same_rows(db,
	          "SELECT arr_s32, arr_text, vtid, tid, vpid, pid, procname, comm FROM "
	          "\"spoor_fixture:arrays\"",
	          "SELECT json_extract(payload, '$.arr_s32'), json_extract(payload, '$.arr_text'), "
	          "json_extract(payload, '$.vtid'), tid, json_extract(payload, '$.vpid'), pid, "
	          "json_extract(payload, '$.procname'), comm FROM events WHERE name = "
	          "'spoor_fixture:arrays'");
	CHECK_EQ_S64(number(db, "SELECT count(*) FROM \"spoor_fixture:floats\" WHERE typeof(f32) = "
	                        "'real' AND typeof(f64) = 'real'"),
	             number(db, "SELECT count(*) FROM events WHERE name = 'spoor_fixture:floats'"));
	sql_db_close(db);
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
	if (!own_trace) {
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
	    /* a pass per name (another column read), names ascending and descending */
	    {"SELECT name, count(*), min(ts), sum(cpu) FROM events GROUP BY name",
	     "SELECT name, count(*), min(ts), sum(cpu) FROM events GROUP BY +name ORDER BY 1"},
	    {"SELECT name, max(ts) FROM events GROUP BY name ORDER BY name DESC",
	     "SELECT name, max(ts) FROM events GROUP BY +name ORDER BY +name DESC"},
	    {"SELECT name, count(*) FROM events WHERE name IN ('sched_switch', "
	     "'syscall_exit_read') "
	     "GROUP BY name",
	     "SELECT name, count(*) FROM events WHERE +name IN ('sched_switch', "
	     "'syscall_exit_read') "
	     "GROUP BY +name ORDER BY 1"},
	    /* the name alone: counted by name */
	    {"SELECT name, count(*) FROM events GROUP BY name ORDER BY name DESC",
	     "SELECT name, count(*) FROM events GROUP BY +name ORDER BY +name DESC"},
	    {"SELECT upper(name), count(*) FROM events GROUP BY name COLLATE NOCASE ORDER BY 1",
	     "SELECT upper(name), count(*) FROM events GROUP BY +name COLLATE NOCASE ORDER BY 1"},
	    {"SELECT name FROM events ORDER BY name", "SELECT name FROM events ORDER BY +name"},
	    /* IN and time order: all at once, or a value at a time (SQLite then sorts) */
	    {"SELECT ts, name FROM events WHERE name IN (SELECT 'sched_switch' UNION SELECT "
	     "'syscall_exit_read') ORDER BY ts",
	     "SELECT ts, name FROM events WHERE +name IN (SELECT 'sched_switch' UNION SELECT "
	     "'syscall_exit_read') ORDER BY +ts"},
	    {"SELECT ts, tid FROM events WHERE tid IN (101, 200) ORDER BY ts",
	     "SELECT ts, tid FROM events WHERE +tid IN (101, 200) ORDER BY +ts"},
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		same_rows(db, pairs[i][0], pairs[i][1]);
	/* a name of no class, NULL: no rows */
	CHECK_EQ_S64(number(db, "SELECT count(*) FROM events WHERE name = 'nothing'"), 0);
	CHECK_EQ_S64(number(db, "SELECT count(*) FROM events WHERE name = NULL"), 0);
	CHECK_EQ_S64(number(db, "SELECT count(*) FROM events WHERE tid = 'x'"), 0);
	sql_db_close(db);
}

/* The kernel trace's class tables: babeltrace2's values, push-down as in events. */
static void kernel_classes(const char *path, const char *style)
{
	struct sql_db *db = open_db(path);
	if (!db)
		return;
	const char *k = strcmp(style, "ftrace") ? "tid" : "pid";
	char q[800];
	snprintf(
	    q, sizeof(q),
	    "SELECT printf('{ prev_comm = \"%%s\", prev_%s = %%d, prev_prio = %%d, "
	    "prev_state = %%d, next_comm = \"%%s\", next_%s = %%d, next_prio = %%d }', prev_comm, "
	    "prev_%s, prev_prio, prev_state, next_comm, next_%s, next_prio) FROM sched_switch",
	    k, k, k, k);
	class_matches_babeltrace(db, path, "sched_switch", q, NULL);
	class_matches_babeltrace(db, path, "syscall_entry_read",
	                         "SELECT printf('{ fd = %d, count = %d }', fd, count) FROM "
	                         "syscall_entry_read",
	                         NULL);
	/* the common columns equal the events table's */
	same_rows(db, "SELECT ts, time, cpu, tid, pid, comm, stream, trace FROM syscall_exit_read",
	          "SELECT ts, time, cpu, tid, pid, comm, stream, trace FROM events WHERE name = "
	          "'syscall_exit_read'");
	int64_t n = number(db, "SELECT count(*) FROM syscall_exit_read");
	snprintf(q, sizeof(q), "SELECT ts FROM syscall_exit_read LIMIT 1 OFFSET %lld",
	         (long long) n / 2);
	int64_t a = number(db, q);
	char x[800], y[800];
	snprintf(x, sizeof(x),
	         "SELECT ts, tid, pid, comm, ret FROM syscall_exit_read WHERE ts BETWEEN %lld AND "
	         "%lld + 20000",
	         (long long) a, (long long) a);
	snprintf(y, sizeof(y),
	         "SELECT ts, tid, pid, comm, ret FROM syscall_exit_read WHERE +ts BETWEEN %lld AND "
	         "%lld + 20000",
	         (long long) a, (long long) a);
	same_rows(db, x, y);
	/* without the model's columns, whose pre-pass reads the packets before the range */
	snprintf(x, sizeof(x),
	         "SELECT ts, ret FROM syscall_exit_read WHERE ts BETWEEN %lld AND %lld",
	         (long long) a, (long long) a + 20000);
	CHECK(bytes_read(db, x) * 2 < bytes_read(db, y));
	same_rows(db, "SELECT ts, fd FROM syscall_entry_read WHERE tid = 200 AND cpu = 2",
	          "SELECT ts, fd FROM syscall_entry_read WHERE +tid = 200 AND +cpu = 2");
	sql_db_close(db);
}

/* Two traces whose class "probe" has different fields: one table, the union of the
 * columns; names that collide (a field named cpu or ts, classes that differ in case, a
 * class named events). argv: gen_kernel's folder, the output, which of the two. */
static const char union_py[] =
    "import sys; sys.path.insert(0, sys.argv[1]); import gen_kernel as k\n"
    "if sys.argv[3] == 'a':\n"
    "    e = [(10 + i, 0, 'probe', {'a': i, 'b': 10 * i, 'cpu': 7, 'ts': -i}) for i in range(3)]\n"
    "    e += [(20, 0, 'Probe', {'x': 1}), (21, 0, 'events', {'y': 2})]\n"
    "else:\n"
    "    e = [(15 + i, 1, 'probe', {'b': 'text %d' % i, 'c': i}) for i in range(2)]\n"
    "k.write(sys.argv[2], e)\n";

static void union_of_columns(const char *data)
{
	char a[700], b[700];
	if (!gen_trace(data, "union-a", union_py, "a", a, sizeof(a)) ||
	    !gen_trace(data, "union-b", union_py, "b", b, sizeof(b)))
		return;
	const char *const paths[] = {a, b};
	struct sql_db *db = NULL;
	char *err = NULL;
	CHECK_CTX("sql_db_open union-a union-b");
	if (!CHECK_EQ_S64(sql_db_open(paths, 2, &db, &err), 0)) {
		printf("  %s\n", err ? err : "");
		free(err);
		return;
	}
	check_rows(
	    db, "SELECT group_concat(name || ' ' || type, ', ') FROM pragma_table_info('probe#2')",
	    "ts INTEGER, time TEXT, cpu INTEGER, tid INTEGER, pid INTEGER, comm TEXT, "
	    "stream INTEGER, trace TEXT, a INTEGER, b INTEGER, payload.cpu INTEGER, "
	    "payload.ts INTEGER, c INTEGER\n");
	char want[4096];
	snprintf(want, sizeof(want),
	         "0|0|7|0|NULL|%s\n1|10|7|-1|NULL|%s\n2|20|7|-2|NULL|%s\n"
	         "NULL|text 0|NULL|NULL|0|%s\nNULL|text 1|NULL|NULL|1|%s\n",
	         a, a, a, b, b);
	check_rows(db, "SELECT a, b, \"payload.cpu\", \"payload.ts\", c, trace FROM \"probe#2\"",
	           want);
	check_rows(db, "SELECT x FROM Probe", "1\n");
	check_rows(db, "SELECT x FROM \"Probe\"", "1\n");
	check_rows(db, "SELECT y FROM \"events#2\"", "2\n");
	check_rows(db,
	           "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_temp_master "
	           "WHERE sql LIKE '%USING spoor_class%' ORDER BY name)",
	           "Probe,events#2,probe#2\n");
	sql_db_close(db);
}

/* A trace whose packets give no CPU: cpu is NULL, and no constraint on cpu holds (the
 * reader's -1 for "unknown" is never a value). tests/data/traces/ctx-ref with its cpu_id
 * renamed. */
static void no_cpu(const char *data)
{
	char path[700], cmd[1600];
	snprintf(path, sizeof(path), "%s/nocpu", dir);
	snprintf(cmd, sizeof(cmd),
	         "cp -r '%s/traces/ctx-ref' '%s' && sed -i 's/u32 cpu_id;/u32 cpu_idx;/' "
	         "'%s/metadata'",
	         data, path, path);
	CHECK_CTX("%s", cmd);
	if (!CHECK_EQ_S64(system(cmd), 0))
		return;
	struct sql_db *db = open_db(path);
	if (!db)
		return;
	CHECK(number(db, "SELECT count(*) FROM events WHERE cpu IS NULL") > 0);
	CHECK_EQ_S64(number(db, "SELECT count(*) FROM events WHERE cpu = -1"), 0);
	CHECK_EQ_S64(number(db, "SELECT count(*) FROM stream_sized WHERE cpu = -1"), 0);
	CHECK_EQ_S64(number(db, "SELECT count(*) FROM events WHERE cpu = 0"), 0);
	sql_db_close(db);
}

/* sql_db_interrupt stops a scan that gives SQLite no row (no event of tid -5: SQLite's own
 * check never runs); the next query runs. */
static void interrupted(const char *path)
{
	struct sql_db *db = open_db(path);
	if (!db)
		return;
	CHECK_CTX("interrupted %s", path);
	sqlite3 *h = sql_db_handle(db);
	add_interrupt_now(db);
	static const char *const queries[] = {
	    "SELECT count(*) FROM events WHERE tid = interrupt_now()",
	    "SELECT count(*) FROM syscall_entry_read WHERE tid = interrupt_now()",
	};
	for (size_t i = 0; i < sizeof(queries) / sizeof(*queries); i++) {
		sqlite3_stmt *st = NULL;
		CHECK_CTX("interrupted: %s", queries[i]);
		if (!CHECK_EQ_S64(sqlite3_prepare_v2(h, queries[i], -1, &st, NULL), SQLITE_OK))
			continue;
		int rc = sqlite3_step(st);
		CHECK_EQ_S64(rc, SQLITE_INTERRUPT);
		sqlite3_finalize(st);
	}
	check_rows(db, "SELECT count(*) > 1024 FROM events WHERE tid <> -5", "1\n");
	sql_db_close(db);
}

/* The module behind `events` is no table of its own (not eponymous); sql_db_io counts the
 * rows the tables gave. */
static void module_and_rows(const char *path)
{
	struct sql_db *db = open_db(path);
	if (!db)
		return;
	sqlite3_stmt *st = NULL;
	CHECK_CTX("module_and_rows %s", path);
	CHECK(sqlite3_prepare_v2(sql_db_handle(db), "SELECT count(*) FROM spoor_events", -1, &st,
	                         NULL) != SQLITE_OK);
	sqlite3_finalize(st);
	struct sql_io a, b;
	sql_db_io(db, &a);
	char *n = rows(db, "SELECT count(*) FROM events");
	sql_db_io(db, &b);
	if (n)
		CHECK_EQ_U64(b.events - a.events, strtoull(n, NULL, 10));
	free(n);
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
		kernel_classes(path, styles[i]);
		if (i == 0) {
			interrupted(path);
			module_and_rows(path);
		}
	}
	class_types(data);
	union_of_columns(data);
	no_cpu(data);
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
		own_trace = false;
		counts_match_babeltrace(path);
		range_pushed_down(path);
		filters_pushed_down(path);
	}
	check_context[0] = '\0';
	return check_done();
}
