/* SPDX-License-Identifier: MIT */
/*
 * test-sql-db.c: lib/sql's database across queries (docs/sql.md), on tests/data/traces/ctx-ref:
 *   - a trace whose metadata gains a class while the db is open: the next query fails with
 *     "the trace changed since it was opened" (no crash, no wrong class);
 *   - a damaged stream is warned of and counted once, however many queries read it;
 *   - sql_db_interrupt stops an analysis table's pass that gives SQLite no row, and the next
 *     statement runs;
 *   - an analysis row's texts, however long, stay inside the row.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "sql-interrupt.h"
#include "sql/sql.h"
#include "sql/vt-engine.h"

/* Run a query to its end: SQLITE_ROW with the first row's first column as text in msg,
 * SQLITE_DONE (no row), or the error code with its message in msg. */
static int step(struct sql_db *db, const char *query, char *msg, size_t size)
{
	sqlite3 *h = sql_db_handle(db);
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h, query, -1, &st, NULL), first = SQLITE_DONE;
	snprintf(msg, size, "%s", "");
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 0);
		if (first == SQLITE_DONE)
			snprintf(msg, size, "%s", t ? (const char *) t : "NULL");
		first = SQLITE_ROW;
		rc = SQLITE_OK; /* on to the next row */
	}
	if (rc != SQLITE_DONE) {
		snprintf(msg, size, "%s", sqlite3_errmsg(h));
		first = rc;
	}
	sqlite3_finalize(st);
	return first;
}

static unsigned warnings;
static char last_warning[512];

static void count_warning(void *data, const char *message)
{
	(void) data;
	warnings++;
	snprintf(last_warning, sizeof(last_warning), "%s", message);
}

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	bool ok = f && fputs(text, f) >= 0;
	return (f && !fclose(f)) && ok;
}

/* ctx-ref's metadata without its class both_sized (its events are then unknown: damage),
 * then with it: a class added while the db is open, as LTTng adds them to a live trace. */
static void metadata_grows(const char *data, const char *dir)
{
	char path[700], meta[800], cmd[1600], msg[512], *full = NULL;
	size_t len = 0;
	snprintf(path, sizeof(path), "%s/grow", dir);
	snprintf(meta, sizeof(meta), "%s/metadata", path);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/traces/ctx-ref' '%s'", data, path);
	FILE *f = NULL;
	if (!CHECK(system(cmd) == 0) || !CHECK((f = fopen(meta, "r")) != NULL))
		return;
	full = malloc(1 << 16);
	len = fread(full, 1, (1 << 16) - 1, f);
	fclose(f);
	full[len] = '\0';
	/* both_sized's declaration is the last two lines */
	char *decl = strstr(full, "event { name = \"both_sized\"");
	if (!CHECK(decl != NULL)) {
		free(full);
		return;
	}
	char *small = strndup(full, (size_t) (decl - full));
	CHECK(write_file(meta, small));

	struct sql_db *db = NULL;
	char *err = NULL;
	const char *p = path;
	CHECK_CTX("ctx-ref without both_sized");
	if (!CHECK_EQ_S64(sql_db_open(&p, 1, &db, &err), 0)) {
		printf("  %s\n", err ? err : "");
		free(err);
		free(small);
		free(full);
		return;
	}
	sql_db_set_warn(db, count_warning, NULL);
	/* damage: one stream, one warning and one damaged stream however many queries */
	CHECK_EQ_S64(step(db, "SELECT count(*) FROM events", msg, sizeof(msg)), SQLITE_ROW);
	CHECK_EQ_S64(
	    step(db, "SELECT count(*) FROM events WHERE name = 'stream_sized'", msg, sizeof(msg)),
	    SQLITE_ROW);
	CHECK_EQ_S64(step(db, "SELECT count(*) FROM syscalls", msg, sizeof(msg)), SQLITE_ROW);
	CHECK_EQ_U64(warnings, 1);
	CHECK(strstr(last_warning, "stream_0") != NULL);
	CHECK_EQ_U64(sql_db_damaged(db), 1);

	/* the class appears: every table refuses to read with a mismatched reader */
	CHECK(write_file(meta, full));
	static const char *const queries[] = {
	    "SELECT count(*) FROM events",
	    "SELECT name, count(*) FROM events GROUP BY name",
	    "SELECT count(*) FROM events WHERE ts > 0",
	    "SELECT count(*) FROM stream_sized",
	    "SELECT count(*) FROM syscalls",
	    "SELECT name FROM events", /* each row's name from the schema's class: crashed */
	};
	for (size_t i = 0; i < sizeof(queries) / sizeof(*queries); i++) {
		CHECK_CTX("metadata grown: %s", queries[i]);
		CHECK_EQ_S64(step(db, queries[i], msg, sizeof(msg)), SQLITE_ERROR);
		if (!CHECK(strstr(msg, "the trace changed since it was opened: open it again")))
			printf("  got: %s\n", msg);
	}
	sql_db_close(db);
	/* opened again, it reads the grown trace */
	CHECK_CTX("ctx-ref grown, opened again");
	if (CHECK_EQ_S64(sql_db_open(&p, 1, &db, &err), 0)) {
		CHECK_EQ_S64(step(db, "SELECT count(*) FROM events WHERE name = 'both_sized'", msg,
		                  sizeof(msg)),
		             SQLITE_ROW);
		CHECK(atoi(msg) > 0);
		sql_db_close(db);
	}
	free(err);
	free(small);
	free(full);
}

static void interrupt(const char *data)
{
	char path[700], msg[512];
	struct sql_db *db = NULL;
	char *err = NULL;
	const char *p = path;
	snprintf(path, sizeof(path), "%s/traces/ctx-ref", data);
	CHECK_CTX("interrupt");
	if (!CHECK_EQ_S64(sql_db_open(&p, 1, &db, &err), 0)) {
		printf("  %s\n", err ? err : "");
		free(err);
		return;
	}
	sql_db_set_warn(db, count_warning, NULL);
	add_interrupt_now(db);
	/* no row reaches SQLite (no tid -5): only the pass itself can see the interrupt */
	CHECK_EQ_S64(
	    step(db, "SELECT count(*) FROM syscalls WHERE tid = interrupt_now()", msg, sizeof(msg)),
	    SQLITE_INTERRUPT);
	/* the next statement runs */
	CHECK_EQ_S64(step(db, "SELECT count(*) FROM syscalls WHERE tid = -5", msg, sizeof(msg)),
	             SQLITE_ROW);
	CHECK_STR(msg, "0");
	sql_db_close(db);
}

/* Texts fill a row's text in turn: one too long is cut, the ones after it are NULL. */
static void long_texts(void)
{
	struct {
		struct vt_row r;
		char after[2 * VT_TEXT_MAX];
	} g;
	char name[301];
	memset(&g, 0, sizeof(g));
	memset(g.after, 'x', sizeof(g.after));
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	g.r.nulls = UINT32_MAX;
	CHECK_CTX("long texts");
	vt_row_text(&g.r, 0, name);
	vt_row_text(&g.r, 1, name);
	vt_row_text(&g.r, 2, "b");
	CHECK_EQ_U64(strlen(g.r.text + g.r.off[0]), VT_TEXT_MAX - 1);
	CHECK(!(g.r.nulls & 1));
	CHECK(g.r.nulls & 2);
	CHECK(g.r.nulls & 4);
	size_t x = 0;
	while (x < sizeof(g.after) && g.after[x] == 'x')
		x++;
	CHECK_EQ_U64(x, sizeof(g.after));
}

int main(void)
{
	const char *data = getenv("SPOOR_TEST_DATA"), *tmp = getenv("TMPDIR");
	char dir[512], cmd[600];
	snprintf(dir, sizeof(dir), "%s/spoor-sql-db-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!data || !mkdtemp(dir)) {
		printf("SPOOR_TEST_DATA not set or no temporary directory\n");
		return 1;
	}
	long_texts();
	metadata_grows(data, dir);
	interrupt(data);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("could not remove %s\n", dir);
	check_context[0] = '\0';
	return check_done();
}
