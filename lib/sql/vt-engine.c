/* SPDX-License-Identifier: MIT */
/* vt-engine.c: the engine-driven cursor of the analyses' tables (see vt-engine.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/grow.h"
#include "vt-engine.h"

/* The longest a pass runs before it looks whether the query was interrupted. */
#define VT_SLICE_NS (20 * 1000 * 1000)

struct vt_aux { /* the module's */
	struct sql_db *db;
	const struct vt_table *t;
};

struct vt_tab {
	sqlite3_vtab base;
	struct sql_db *db;
	const struct vt_table *t;
};

struct vt_cursor {
	sqlite3_vtab_cursor base;
	struct vt_tab *tab;
	struct spoor_reader *r;
	struct an_engine *e;
	void *src;
	struct vt_row *q; /* the rows pushed and not yet handed out: [head, n) */
	size_t head, n, cap;
	bool done, oom;
	bool ended;    /* the pass was ended early: nothing after it passes */
	unsigned late; /* rows past the ts range so far */
	sqlite3_int64 rowid;
	/* the pushed constraints: ts in [lo, hi], tid, cpu */
	int64_t lo, hi, tid, cpu;
	bool has_tid, has_cpu;
	struct vt_row scratch; /* the row built when the queue cannot grow */
};

/* ---- rows ---- */

struct an_engine *vt_engine(struct vt_cursor *c)
{
	return c->e;
}

struct vt_row *vt_row_new(struct vt_cursor *c)
{
	if (!c->oom && grow_one(&c->q, c->n, &c->cap, sizeof(*c->q), 16))
		c->oom = true; /* the row is built aside and never kept */
	struct vt_row *r = c->oom ? &c->scratch : &c->q[c->n];
	r->nulls = UINT32_MAX;
	r->used = 0;
	return r;
}

void vt_row_int(struct vt_row *r, int col, int64_t v)
{
	r->v[col] = v;
	r->nulls &= ~(1u << col);
}

void vt_row_text(struct vt_row *r, int col, const char *s)
{
	if (!s || r->used >= VT_TEXT_MAX) /* no room left, not even for '\0': NULL */
		return;
	size_t room = VT_TEXT_MAX - r->used - 1, len = strnlen(s, room);
	memcpy(r->text + r->used, s, len);
	r->text[r->used + len] = '\0';
	r->off[col] = r->used;
	r->used = (uint16_t) (r->used + len + 1);
	r->nulls &= ~(1u << col);
}

void vt_row_task(struct vt_cursor *c, struct vt_row *r, int tid_col, int pid_col, int comm_col,
                 int64_t tid)
{
	if (tid < 0)
		return;
	vt_row_int(r, tid_col, tid);
	vt_row_int(r, pid_col, an_task_pid(c->e, tid));
	vt_row_text(r, comm_col, an_task_comm(c->e, tid));
}

/* Whether column col of r may pass "col = v" (NULL never does). */
static bool col_is(const struct vt_row *r, int col, int64_t v)
{
	return col < 0 || (!(r->nulls & (1u << col)) && r->v[col] == v);
}

/* A row began after the range: the pass is past it. Once every item still open began past
 * it too, no row that passes can come (at most one look at them per 256 such rows). */
static void past_range(struct vt_cursor *c)
{
	const struct vt_table *t = c->tab->t;
	if (t->open_since && c->late++ % 256 == 0 && t->open_since(c->src) > c->hi) {
		c->ended = true;
		an_engine_stop(c->e);
	}
}

void vt_row_push(struct vt_cursor *c)
{
	const struct vt_table *t = c->tab->t;
	const struct vt_row *r = &c->q[c->n];
	if (c->oom)
		return;
	if (t->ts_col >= 0 && (c->lo != INT64_MIN || c->hi != INT64_MAX)) {
		if (r->nulls & (1u << t->ts_col) || r->v[t->ts_col] < c->lo)
			return;
		if (r->v[t->ts_col] > c->hi) {
			past_range(c);
			return;
		}
	}
	if ((c->has_tid && !col_is(r, t->tid_col, c->tid)) ||
	    (c->has_cpu && !col_is(r, t->cpu_col, c->cpu)))
		return;
	c->n++;
	an_engine_pause(c->e);
}

/* ---- the table ---- */

static int vt_connect(sqlite3 *h, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                      char **err)
{
	const struct vt_aux *a = aux;
	const struct vt_table *t = a->t;
	(void) argc;
	(void) argv;
	sqlite3_str *s = sqlite3_str_new(h);
	sqlite3_str_appendall(s, "CREATE TABLE x(");
	for (int i = 0; i < t->ncols; i++)
		sqlite3_str_appendf(s, "%s\"%w\" %s", i ? ", " : "", t->cols[i].name,
		                    t->cols[i].type == VT_INT ? "INTEGER" : "TEXT");
	sqlite3_str_appendall(s, ")");
	char *ddl = sqlite3_str_finish(s);
	int rc = ddl ? sqlite3_declare_vtab(h, ddl) : SQLITE_NOMEM;
	sqlite3_free(ddl);
	if (rc != SQLITE_OK) {
		*err = sqlite3_mprintf("%s: %s", t->name, sqlite3_errstr(rc));
		return rc;
	}
	struct vt_tab *v = sqlite3_malloc(sizeof(*v));
	if (!v)
		return SQLITE_NOMEM;
	memset(v, 0, sizeof(*v));
	v->t = t;
	v->db = a->db;
	*out = &v->base;
	return SQLITE_OK;
}

/* CREATE VIRTUAL TABLE: not the same function as xConnect, so that the module is not also
 * an eponymous table of its own name. */
static int vt_create(sqlite3 *h, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                     char **err)
{
	return vt_connect(h, aux, argc, argv, out, err);
}

static int vt_disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

/* Constraint codes in idxStr, two characters per argument: the column ('t' ts, 'i' tid,
 * 'c' cpu) and the operator ('=', '<', 'l' <=, '>', 'g' >=). */
static char op_code(unsigned char op)
{
	switch (op) {
	case SQLITE_INDEX_CONSTRAINT_EQ: return '=';
	case SQLITE_INDEX_CONSTRAINT_LT: return '<';
	case SQLITE_INDEX_CONSTRAINT_LE: return 'l';
	case SQLITE_INDEX_CONSTRAINT_GT: return '>';
	case SQLITE_INDEX_CONSTRAINT_GE: return 'g';
	}
	return 0;
}

static int vt_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	const struct vt_table *t = ((struct vt_tab *) vt)->t;
	char codes[64];
	int n = 0;
	for (int i = 0; i < info->nConstraint && n < 30; i++) {
		const struct sqlite3_index_constraint *k = &info->aConstraint[i];
		char op = op_code(k->op), col = 0;
		if (!k->usable || !op)
			continue;
		if (k->iColumn == t->ts_col && t->ts_col >= 0)
			col = 't';
		else if (k->iColumn == t->tid_col && t->tid_col >= 0 && op == '=')
			col = 'i';
		else if (k->iColumn == t->cpu_col && t->cpu_col >= 0 && op == '=')
			col = 'c';
		/* an IN would run the whole pass once per value: SQLite checks it instead */
		if (!col || (op == '=' && sqlite3_vtab_in(info, i, -1)))
			continue;
		codes[2 * n] = col;
		codes[2 * n + 1] = op;
		info->aConstraintUsage[i].argvIndex = ++n;
		info->aConstraintUsage[i].omit = 0; /* SQLite checks again: never a changed row */
	}
	codes[2 * n] = '\0';
	info->idxStr = sqlite3_mprintf("%s", codes);
	info->needToFreeIdxStr = 1;
	/* each scan reads the whole trace: far dearer than anything else, so that a join puts
	 * this table in its outer loop (read once), and a little cheaper with constraints */
	info->estimatedCost = 1e12 - n;
	info->estimatedRows = n ? 10000 : 1000000;
	return info->idxStr ? SQLITE_OK : SQLITE_NOMEM;
}

static int vt_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct vt_cursor *c = calloc(1, sizeof(*c));
	if (!c)
		return SQLITE_NOMEM;
	c->tab = (struct vt_tab *) vt;
	sql_db_interrupt_clear(c->tab->db); /* what interrupted an earlier statement is done */
	*out = &c->base;
	return SQLITE_OK;
}

/* The pass and its rows let go of (its reader's I/O counted in the db's). */
static void reset(struct vt_cursor *c)
{
	if (c->src && c->tab->t->free)
		c->tab->t->free(c->src);
	c->src = NULL;
	an_engine_free(c->e);
	c->e = NULL;
	sql_reader_close(c->tab->db, c->r);
	c->r = NULL;
	c->head = c->n = 0;
	c->done = c->oom = c->ended = false;
	c->late = 0;
}

static int vt_close(sqlite3_vtab_cursor *cur)
{
	struct vt_cursor *c = (struct vt_cursor *) cur;
	reset(c);
	free(c->q);
	free(c);
	return SQLITE_OK;
}

static int fail(struct vt_cursor *c, int rc)
{
	sqlite3_vtab *vt = &c->tab->base;
	sqlite3_free(vt->zErrMsg);
	vt->zErrMsg = sqlite3_mprintf("%s: %s", c->tab->t->name,
	                              rc == -ENOMEM ? "out of memory" : spoor_strerror(rc));
	return rc == -ENOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
}

static int64_t monotonic_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t) t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Run the pass until some row is queued or the trace ends, in slices of at most
 * VT_SLICE_NS between looks at sql_db_interrupt (a pass may give no row for long). */
static int fetch(struct vt_cursor *c)
{
	while (c->head == c->n && !c->done) {
		c->head = c->n = 0;
		if (sql_db_interrupted(c->tab->db))
			return SQLITE_INTERRUPT;
		int rc = an_engine_run_until(c->e, monotonic_ns() + VT_SLICE_NS);
		if (rc < 0)
			return fail(c, rc);
		if (rc == 0) {
			c->done = true;
			if (c->tab->t->finish && !c->ended)
				c->tab->t->finish(c, c->src);
		}
	}
	return c->oom ? fail(c, -ENOMEM) : SQLITE_OK;
}

/* The bounds an integer column's "col OP v" keeps, narrowed in [*lo, *hi]; false when v
 * is no number (the constraint is left to SQLite). */
static bool narrow(sqlite3_value *v, char op, int64_t *lo, int64_t *hi)
{
	int64_t below, above; /* the integers at or below and at or above v */
	if (sqlite3_value_numeric_type(v) == SQLITE_INTEGER)
		below = above = sqlite3_value_int64(v);
	else if (sqlite3_value_numeric_type(v) == SQLITE_FLOAT) {
		double d = sqlite3_value_double(v);
		if (!(fabs(d) < 9e18))
			return false;
		below = (int64_t) floor(d);
		above = (int64_t) ceil(d);
	} else
		return false;
	bool exact = below == above;
	switch (op) {
	case '=':
		if (!exact) { /* no integer equals it */
			*lo = INT64_MAX;
			*hi = INT64_MIN;
			return true;
		}
		*lo = below > *lo ? below : *lo;
		*hi = below < *hi ? below : *hi;
		return true;
	case '<': /* col < v: col <= above - 1 */
		if (above == INT64_MIN)
			*hi = INT64_MIN, *lo = INT64_MAX;
		else if (above - 1 < *hi)
			*hi = above - 1;
		return true;
	case 'l': *hi = below < *hi ? below : *hi; return true;
	case '>': /* col > v: col >= below + 1 */
		if (below == INT64_MAX)
			*hi = INT64_MIN, *lo = INT64_MAX;
		else if (below + 1 > *lo)
			*lo = below + 1;
		return true;
	case 'g': *lo = above > *lo ? above : *lo; return true;
	}
	return false;
}

static int vt_filter(sqlite3_vtab_cursor *cur, int idx, const char *codes, int argc,
                     sqlite3_value **argv)
{
	struct vt_cursor *c = (struct vt_cursor *) cur;
	(void) idx;
	reset(c);
	c->lo = INT64_MIN;
	c->hi = INT64_MAX;
	c->has_tid = c->has_cpu = false;
	c->rowid = 0;
	for (int i = 0; codes && i < argc && codes[2 * i]; i++) {
		int64_t lo = INT64_MIN, hi = INT64_MAX;
		if (!narrow(argv[i], codes[2 * i + 1], &lo, &hi))
			continue;
		if (codes[2 * i] == 't') {
			c->lo = lo > c->lo ? lo : c->lo;
			c->hi = hi < c->hi ? hi : c->hi;
		} else if (lo > hi) /* tid or cpu = a number no integer equals */
			c->lo = INT64_MAX, c->hi = INT64_MIN;
		else if (codes[2 * i] == 'i')
			c->has_tid = true, c->tid = lo;
		else
			c->has_cpu = true, c->cpu = lo;
	}
	if (c->lo > c->hi) { /* no row can pass: nothing to read */
		c->done = true;
		return SQLITE_OK;
	}
	int rc = sql_reader_open(c->tab->db, &c->r);
	if (!rc)
		rc = an_engine_new(c->r, NULL, &c->e);
	if (!rc) {
		an_engine_want_threads(c->e);    /* pid, comm */
		an_engine_read_dump_first(c->e); /* from each thread's first event on */
		rc = c->tab->t->start(c, &c->src);
	}
	return rc ? fail(c, rc) : fetch(c);
}

static int vt_next(sqlite3_vtab_cursor *cur)
{
	struct vt_cursor *c = (struct vt_cursor *) cur;
	c->head++;
	c->rowid++;
	return fetch(c);
}

static int vt_eof(sqlite3_vtab_cursor *cur)
{
	struct vt_cursor *c = (struct vt_cursor *) cur;
	return c->head == c->n;
}

static int vt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct vt_cursor *c = (struct vt_cursor *) cur;
	const struct vt_row *r = &c->q[c->head];
	if (r->nulls & (1u << col))
		sqlite3_result_null(ctx);
	else if (c->tab->t->cols[col].type == VT_INT)
		sqlite3_result_int64(ctx, r->v[col]);
	else
		sqlite3_result_text(ctx, r->text + r->off[col], -1, SQLITE_TRANSIENT);
	return SQLITE_OK;
}

static int vt_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct vt_cursor *) cur)->rowid;
	return SQLITE_OK;
}

static const sqlite3_module vt_module = {
    .iVersion = 0,
    .xCreate = vt_create,
    .xConnect = vt_connect,
    .xBestIndex = vt_best_index,
    .xDisconnect = vt_disconnect,
    .xDestroy = vt_disconnect,
    .xOpen = vt_open,
    .xClose = vt_close,
    .xFilter = vt_filter,
    .xNext = vt_next,
    .xEof = vt_eof,
    .xColumn = vt_column,
    .xRowid = vt_rowid,
};

int vt_engine_register(struct sql_db *db, const struct vt_table *t, char **errmsg)
{
	char module[64], *sql;
	struct vt_aux *aux = sqlite3_malloc(sizeof(*aux));
	if (!aux)
		return -ENOMEM;
	aux->db = db;
	aux->t = t;
	snprintf(module, sizeof(module), "spoor_%s", t->name);
	/* sqlite3_free(aux) when the module goes, even if this fails */
	int rc = sqlite3_create_module_v2(db->h, module, &vt_module, aux, sqlite3_free);
	if (rc == SQLITE_OK) {
		sql = sqlite3_mprintf("CREATE VIRTUAL TABLE temp.\"%w\" USING \"%w\"", t->name,
		                      module);
		rc = sql ? sqlite3_exec(db->h, sql, NULL, NULL, NULL) : SQLITE_NOMEM;
		sqlite3_free(sql);
	}
	if (rc != SQLITE_OK) {
		if (asprintf(errmsg, "table %s: %s", t->name, sqlite3_errmsg(db->h)) < 0)
			*errmsg = NULL;
		return -ENOMEM;
	}
	return 0;
}
