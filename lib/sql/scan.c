/* SPDX-License-Identifier: MIT */
/* scan.c: the cursor of the tables that read events (see scan.h): xFilter's push-down,
 * the rows, the common columns. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/reader.h"
#include "scan-plan.h"
#include "scan.h"
#include "util/outbuf.h"

static int fail(char **errmsg, const char *what, int rc)
{
	*errmsg = sqlite3_mprintf("%s: %s", what, spoor_strerror(rc));
	return SQLITE_ERROR;
}

/* Events stepped over between looks at sql_db_interrupt: a query whose filters pass few
 * events gives SQLite no row, so SQLite's own check never runs. */
#define INTERRUPT_EVERY 1024

static int interrupted(char **errmsg)
{
	*errmsg = sqlite3_mprintf("interrupted");
	return SQLITE_INTERRUPT;
}

const char *sql_scan_class_name(const struct sql_scan *s, size_t c)
{
	return spoor_event_class_name(spoor_reader_event_class(s->db->schema, c));
}

/* The names of the wanted classes, each once, in the order of the table's names. */
static int list_passes(struct sql_scan *s, bool desc)
{
	const struct sql_scan_table *t = s->table;
	s->pass_names = calloc(t->nnames + 1, sizeof(*s->pass_names));
	if (!s->pass_names)
		return -ENOMEM;
	for (size_t i = 0; i < t->nnames; i++) {
		const char *n = t->names[desc ? t->nnames - 1 - i : i];
		for (size_t c = 0; c < s->nclasses; c++)
			if ((!s->want || s->want[c]) && !strcmp(sql_scan_class_name(s, c), n)) {
				s->pass_names[s->npasses++] = n;
				break;
			}
	}
	return 0;
}

static bool order_by_name(const struct sql_scan *s)
{
	int order = s->plan & PLAN_ORDER;
	return order == PLAN_ORDER_NAME || order == PLAN_ORDER_NAME_DESC;
}

/* Whether the tid column (or a tid filter) needs the model: a class without a tid. */
static bool tids_need_model(struct sql_scan *s)
{
	if (!(s->plan & PLAN_TID) && !s->ntids)
		return false;
	for (size_t c = 0; c < s->nclasses; c++)
		if ((!s->want || s->want[c]) && !tasks_class_has_tid(s->tasks, c))
			return true;
	return false;
}

static bool stopped(void *db)
{
	return sql_db_interrupted(db);
}

/* The task model learns the events before the range with a reader of its own. */
static int prepass(struct sql_scan *s)
{
	struct spoor_reader *r;
	int rc = sql_reader_open(s->db, &r);
	if (!rc)
		rc = tasks_prepass(s->tasks, r, s->begin, stopped, s->db);
	sql_reader_close(s->db, r);
	return rc;
}

/* Open the reader of pass s->pass: its range, its classes, the model before the range. */
static int start_pass(struct sql_scan *s)
{
	int rc;
	sql_reader_close(s->db, s->r);
	s->r = NULL;
	tasks_free(s->tasks);
	s->tasks = NULL;
	s->pass_done = false;
	if ((rc = sql_reader_open(s->db, &s->r)))
		return rc;
	struct spoor_reader *r = s->r;
	bool ordered = (s->plan & PLAN_ORDER) != PLAN_ORDER_NONE;
	if (s->has_range)
		spoor_reader_set_range(r, s->begin, s->end);
	if (!ordered)
		spoor_reader_set_ordered(r, false);
	if (s->plan & (PLAN_TID | PLAN_PID | PLAN_COMM) || s->ntids) {
		if (!(s->tasks = tasks_new(r, false)))
			return -ENOMEM;
		if ((s->plan & (PLAN_PID | PLAN_COMM)) || tids_need_model(s)) {
			tasks_free(s->tasks);
			if (!(s->tasks = tasks_new(r, true)))
				return -ENOMEM;
			tasks_seed_dump(s->tasks, sql_db_dump(s->db));
			if (s->has_range && (rc = prepass(s)))
				return rc;
		}
	}
	if (order_by_name(s) || s->want) {
		const char *n = order_by_name(s) ? s->pass_names[s->pass] : NULL;
		for (size_t c = 0; c < s->nclasses; c++)
			s->in_pass[c] = (!s->want || s->want[c]) &&
			                (!n || !strcmp(sql_scan_class_name(s, c), n));
	}
	bool passed = false;
	if (ordered && (order_by_name(s) || s->want)) {
		bool *pass = malloc((s->nclasses + 1) * sizeof(*pass));
		if (!pass)
			return -ENOMEM;
		for (size_t c = 0; c < s->nclasses; c++)
			pass[c] = !s->in_pass[c] && !(s->tasks && tasks_reads(s->tasks, c));
		passed = reader_pass_over(r, pass, s->nclasses, s->has_range ? s->begin : INT64_MIN,
		                          s->has_range ? s->end : INT64_MAX);
		free(pass);
	}
	s->check_class = (order_by_name(s) || s->want) && (!passed || s->tasks);
	s->check = s->check_class || s->tasks || s->has_cpu || s->ntids ||
	           (s->has_range && !s->table->clocked);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* PLAN_CENSUS: count the events of each wanted class in one unordered pass; the names with
 * events are the passes, each to give as many rows. */
static int take_census(struct sql_scan *s, bool desc)
{
	const struct sql_scan_table *t = s->table;
	uint64_t *per_class = calloc(s->nclasses + 1, sizeof(*per_class));
	uint64_t *per_name = calloc(t->nnames + 1, sizeof(*per_name));
	int rc = -ENOMEM;
	if (!per_class || !per_name || !(s->census = calloc(t->nnames + 1, sizeof(*s->census))) ||
	    !(s->pass_names = calloc(t->nnames + 1, sizeof(*s->pass_names))) ||
	    (rc = sql_reader_open(s->db, &s->r)))
		goto out;
	const struct spoor_event *ev;
	spoor_reader_set_ordered(s->r, false);
	for (unsigned n = 0; (rc = reader_next(s->r, &ev)) > 0;) {
		per_class[reader_event_class_index(ev)]++;
		if (__builtin_expect(++n % INTERRUPT_EVERY == 0, 0) && sql_db_interrupted(s->db)) {
			rc = -EINTR;
			break;
		}
	}
	sql_reader_close(s->db, s->r);
	s->r = NULL;
	if (rc < 0)
		goto out;
	for (size_t c = 0; c < s->nclasses; c++) {
		if (!per_class[c] || (s->want && !s->want[c]))
			continue;
		const char *name = sql_scan_class_name(s, c);
		const char **at = bsearch(&name, t->names, t->nnames, sizeof(*t->names), by_name);
		if (at)
			per_name[at - t->names] += per_class[c];
	}
	for (size_t i = 0; i < t->nnames; i++) {
		size_t k = desc ? t->nnames - 1 - i : i;
		if (per_name[k]) {
			s->census[s->npasses] = per_name[k];
			s->pass_names[s->npasses++] = t->names[k];
		}
	}
out:
	free(per_class);
	free(per_name);
	return rc;
}

/* PLAN_CENSUS: the next row, of the current pass's name. */
static int census_next(struct sql_scan *s)
{
	while (!s->left) {
		if (++s->pass >= s->npasses) {
			s->eof = true;
			return SQLITE_OK;
		}
		s->left = s->first_only ? 1 : s->census[s->pass];
		s->pass_len = strlen(s->pass_names[s->pass]);
	}
	s->left--;
	s->rowid++;
	return SQLITE_OK;
}

void sql_scan_close(struct sql_scan *s)
{
	if (s->db) {
		sql_reader_close(s->db, s->r);
		s->db->io.events += (uint64_t) s->rowid; /* the rows this scan gave SQLite */
	}
	tasks_free(s->tasks);
	free(s->want);
	free(s->in_pass);
	free(s->tids);
	free(s->pass_names);
	free(s->census);
	*s = (struct sql_scan){0};
}

int sql_scan_filter(struct sql_scan *s, struct sql_db *db, const struct sql_scan_table *t, int plan,
                    const char *roles, int argc, sqlite3_value **argv, char **errmsg)
{
	bool *named = NULL;
	int rc;

	sql_scan_close(s);
	s->db = db;
	s->table = t;
	s->plan = plan;
	s->begin = INT64_MIN;
	s->end = INT64_MAX;
	s->nclasses = spoor_reader_event_class_count(db->schema);
	if ((rc = sql_scan_take_args(s, roles, argc, argv, &named))) {
		free(named);
		return fail(errmsg, "cannot read the traces", rc);
	}
	s->empty |= s->begin > s->end;
	/* the classes asked for: the table's, and of those the ones named */
	if (t->classes || named) {
		if (!(s->want = calloc(s->nclasses + 1, sizeof(*s->want)))) {
			free(named);
			return fail(errmsg, "cannot read the traces", -ENOMEM);
		}
		for (size_t c = 0; c < s->nclasses; c++)
			s->want[c] = !t->classes && (!named || named[c]);
		for (size_t i = 0; t->classes && i < t->nclasses; i++)
			if (t->classes[i] < s->nclasses)
				s->want[t->classes[i]] = !named || named[t->classes[i]];
	}
	free(named);
	bool desc = (plan & PLAN_ORDER) == PLAN_ORDER_NAME_DESC;
	s->first_only = plan & PLAN_DISTINCT;
	if (plan & PLAN_CENSUS) {
		if (!s->empty && (rc = take_census(s, desc)))
			return rc == -EINTR ? interrupted(errmsg)
			                    : fail(errmsg, "cannot read the traces", rc);
		s->pass = SIZE_MAX; /* census_next starts the first */
		s->eof = s->empty;
		return s->empty ? SQLITE_OK : census_next(s);
	}
	if (order_by_name(s) && (rc = list_passes(s, desc)))
		return fail(errmsg, "cannot read the traces", rc);
	if (!order_by_name(s))
		s->npasses = 1;
	if (!s->npasses)
		s->empty = true;
	if (s->empty) {
		s->eof = true;
		return SQLITE_OK;
	}
	if ((s->want || order_by_name(s)) &&
	    !(s->in_pass = calloc(s->nclasses + 1, sizeof(*s->in_pass))))
		return fail(errmsg, "cannot read the traces", -ENOMEM);
	if ((rc = start_pass(s)))
		return rc == -EINTR ? interrupted(errmsg)
		                    : fail(errmsg, "cannot read the traces", rc);
	return sql_scan_next(s, errmsg);
}

static bool row_tid(struct sql_scan *s)
{
	if (!s->tid_done) {
		s->tid_done = true;
		s->tid_known = s->tasks && tasks_tid(s->tasks, s->ev, &s->tid);
	}
	return s->tid_known;
}

/* Whether the event makes a row: its class, CPU and task (the model learns from it first). */
static bool passes(struct sql_scan *s, const struct spoor_event *ev)
{
	if (s->tasks)
		tasks_update(s->tasks, ev);
	if (s->check_class && !s->in_pass[reader_event_class_index(ev)])
		return false;
	if (s->has_range && !spoor_event_has_timestamp(ev))
		return false;
	if (s->has_cpu && reader_event_cpu(ev) != s->cpu)
		return false;
	if (s->ntids) {
		if (!row_tid(s))
			return false;
		return bsearch(&s->tid, s->tids, s->ntids, sizeof(*s->tids), sql_scan_by_value);
	}
	return true;
}

int sql_scan_next(struct sql_scan *s, char **errmsg)
{
	const struct spoor_event *ev;
	if (s->census)
		return census_next(s);
	for (unsigned skipped = 0;;) {
		s->tid_done = false;
		int rc = s->pass_done ? 0 : reader_next(s->r, &ev);
		if (__builtin_expect(rc > 0, 1)) {
			s->ev = ev;
			if (s->check && !passes(s, ev)) {
				if (__builtin_expect(++skipped % INTERRUPT_EVERY == 0, 0) &&
				    sql_db_interrupted(s->db))
					return interrupted(errmsg);
				continue;
			}
			s->rowid++;
			s->pass_done = s->first_only;
			return SQLITE_OK;
		}
		if (rc < 0)
			return fail(errmsg, "cannot read the traces", rc);
		if (++s->pass >= s->npasses) {
			s->eof = true;
			return SQLITE_OK;
		}
		if ((rc = start_pass(s)))
			return rc == -EINTR ? interrupted(errmsg)
			                    : fail(errmsg, "cannot read the traces", rc);
	}
}

void sql_scan_column(struct sql_scan *s, sqlite3_context *ctx, enum sql_col col)
{
	const struct spoor_event *ev = s->ev;
	if (s->census) { /* no event: the name alone is read */
		if (col == SQL_COL_NAME)
			sqlite3_result_text(ctx, s->pass_names[s->pass], (int) s->pass_len,
			                    SQLITE_STATIC);
		return;
	}
	switch (col) {
	case SQL_COL_TS:
		if (spoor_event_has_timestamp(ev))
			sqlite3_result_int64(ctx, reader_event_timestamp(ev));
		break;
	case SQL_COL_TIME:
		if (spoor_event_has_timestamp(ev)) {
			char text[OUTBUF_TIME_MAX];
			unsigned n = outbuf_fmt_time(text, reader_event_timestamp(ev));
			sqlite3_result_text(ctx, text, (int) n, SQLITE_TRANSIENT);
		}
		break;
	case SQL_COL_NAME: { /* the schema reader's: it outlives every row */
		const struct spoor_event_class *ec =
		    spoor_reader_event_class(s->db->schema, reader_event_class_index(ev));
		sqlite3_result_text(ctx, ec->ec->name, (int) ec->ec->name_len, SQLITE_STATIC);
		break;
	}
	case SQL_COL_CPU:
		if (reader_event_cpu(ev) >= 0)
			sqlite3_result_int64(ctx, reader_event_cpu(ev));
		break;
	case SQL_COL_TID:
		if (row_tid(s))
			sqlite3_result_int64(ctx, s->tid);
		break;
	case SQL_COL_PID: {
		int64_t pid = row_tid(s) ? tasks_pid(s->tasks, ev, s->tid) : -1;
		if (pid >= 0)
			sqlite3_result_int64(ctx, pid);
		break;
	}
	case SQL_COL_COMM: {
		size_t len;
		const char *comm = row_tid(s) ? tasks_comm(s->tasks, ev, s->tid, &len) : NULL;
		if (comm)
			sqlite3_result_text(ctx, comm, (int) len, SQLITE_TRANSIENT);
		break;
	}
	case SQL_COL_STREAM:
		sqlite3_result_int64(ctx, (sqlite3_int64) reader_event_stream(ev));
		break;
	case SQL_COL_TRACE:
		sqlite3_result_text(ctx,
		                    spoor_reader_trace_path(s->db->schema, spoor_event_trace(ev)),
		                    -1, SQLITE_STATIC);
		break;
	default: break;
	}
}

int sql_scan_table_init(struct sql_scan_table *t, struct spoor_reader *schema,
                        const size_t *classes, size_t nclasses)
{
	size_t n = classes ? nclasses : spoor_reader_event_class_count(schema), k = 0;
	const char **names = calloc(n + 1, sizeof(*names));
	if (!names)
		return -ENOMEM;
	t->classes = classes;
	t->nclasses = nclasses;
	t->clocked = true;
	for (size_t i = 0; i < n; i++) {
		const struct spoor_event_class *ec =
		    spoor_reader_event_class(schema, classes ? classes[i] : i);
		names[k++] = spoor_event_class_name(ec);
		t->clocked &= ec->sc->clock != NULL;
	}
	qsort(names, k, sizeof(*names), by_name);
	t->nnames = 0;
	for (size_t i = 0; i < k; i++)
		if (!t->nnames || strcmp(names[t->nnames - 1], names[i]))
			names[t->nnames++] = names[i];
	t->names = names;
	return 0;
}

void sql_scan_table_fini(struct sql_scan_table *t)
{
	free((void *) t->names);
	t->names = NULL;
}
