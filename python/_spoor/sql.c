/* SPDX-License-Identifier: MIT */
/*
 * sql.c: t.sql(): the traces' SQL database (lib/sql, docs/sql.md), opened at the first
 * query and kept by the trace; a query's rows as tuples of int, float, str, bytes or None.
 */
#include <stdlib.h>
#include <string.h>

#include "spoorpy.h"
#include "sql/sql.h"

struct spy_db {
	PyObject_HEAD struct sql_db *db;
	struct spy_damage damage;
	bool busy; /* in a query: Python code it calls (warnings) must not re-enter */
};

/* VM steps between two looks at Python's signals: Ctrl-C stops a runaway query. */
enum { SIGNAL_STEPS = 10000 };

/* SQLite's progress handler: a signal whose handler raised (KeyboardInterrupt) interrupts
 * the statement (sql_db_interrupt: an analysis table's pass too); the exception is the
 * query's. */
static int check_signals(void *data)
{
	struct spy_db *d = data;
	if (PyErr_CheckSignals() == 0)
		return 0;
	sql_db_interrupt(d->db);
	return 1;
}

static void db_dealloc(struct spy_db *d)
{
	sql_db_close(d->db);
	Py_XDECREF(d->damage.messages);
	Py_TYPE(d)->tp_free((PyObject *) d);
}

static int db_init(struct spy_db *d, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"paths", NULL};
	PyObject *paths;
	struct spy_source src;
	char *why = NULL;

	if (d->db) {
		PyErr_SetString(PyExc_RuntimeError, "the database is open already");
		return -1;
	}
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O", kwlist, &paths) ||
	    spy_source_get(&src, paths, NULL))
		return -1;
	int rc = sql_db_open(src.paths, src.npaths, &d->db, &why);
	spy_source_free(&src);
	if (rc) {
		spy_raise(why ? why : spoor_strerror(rc));
		free(why);
		return -1;
	}
	sql_db_set_warn(d->db, spy_damage_note, &d->damage);
	sqlite3_progress_handler(sql_db_handle(d->db), SIGNAL_STEPS, check_signals, d);
	return 0;
}

static PyObject *value_of(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER: return PyLong_FromLongLong(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT: return PyFloat_FromDouble(sqlite3_column_double(st, i));
	case SQLITE_TEXT:
		return spy_text((const char *) sqlite3_column_text(st, i),
		                (size_t) sqlite3_column_bytes(st, i));
	case SQLITE_BLOB:
		return PyBytes_FromStringAndSize(sqlite3_column_blob(st, i),
		                                 sqlite3_column_bytes(st, i));
	default: Py_RETURN_NONE;
	}
}

static int bind(sqlite3 *h, sqlite3_stmt *st, PyObject *params)
{
	int n = sqlite3_bind_parameter_count(st);
	if (!n)
		return 0;
	if (params &&
	    (PyUnicode_Check(params) || PyBytes_Check(params) || PyByteArray_Check(params))) {
		PyErr_SetString(PyExc_TypeError, "params: a sequence of values, not a string");
		return -1;
	}
	if (!params || params == Py_None || !PySequence_Check(params) ||
	    PySequence_Size(params) != n) {
		PyErr_Format(spy_error, "the query takes %d parameters: give them as a sequence",
		             n);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		PyObject *v = PySequence_GetItem(params, i);
		int rc = SQLITE_OK;
		if (!v)
			return -1;
		if (v == Py_None) {
			rc = sqlite3_bind_null(st, i + 1);
		} else if (PyLong_Check(v)) {
			long long x = PyLong_AsLongLong(v);
			rc = x == -1 && PyErr_Occurred() ? SQLITE_RANGE
			                                 : sqlite3_bind_int64(st, i + 1, x);
		} else if (PyFloat_Check(v)) {
			rc = sqlite3_bind_double(st, i + 1, PyFloat_AS_DOUBLE(v));
		} else if (PyUnicode_Check(v)) {
			Py_ssize_t len;
			const char *s = PyUnicode_AsUTF8AndSize(v, &len);
			rc = s ? sqlite3_bind_text(st, i + 1, s, (int) len, SQLITE_TRANSIENT)
			       : SQLITE_RANGE;
		} else {
			PyErr_Format(PyExc_TypeError, "parameter %d: an int, float, str or None",
			             i + 1);
			rc = SQLITE_RANGE;
		}
		Py_DECREF(v);
		if (rc != SQLITE_OK) {
			if (!PyErr_Occurred())
				spy_raise(sqlite3_errmsg(h));
			return -1;
		}
	}
	return 0;
}

/* One statement's column names and rows (rows stays NULL for a statement without columns). */
static int run_statement(struct spy_db *d, sqlite3_stmt *st, PyObject **names, PyObject **rows)
{
	sqlite3 *h = sql_db_handle(d->db);
	int ncols = sqlite3_column_count(st), rc;

	if (ncols) {
		*names = PyTuple_New(ncols);
		*rows = PyList_New(0);
		for (int i = 0; *names && i < ncols; i++) {
			const char *name = sqlite3_column_name(st, i);
			PyObject *s = name ? spy_text(name, strlen(name)) : NULL;
			if (!s)
				Py_CLEAR(*names); /* no memory, or (NULL name) */
			else
				PyTuple_SET_ITEM(*names, i, s);
		}
		if (!*names || !*rows) {
			if (!PyErr_Occurred())
				PyErr_NoMemory();
			return -1;
		}
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		PyObject *row = PyTuple_New(ncols);
		for (int i = 0; row && i < ncols; i++) {
			PyObject *v = value_of(st, i);
			if (!v)
				Py_CLEAR(row);
			else
				PyTuple_SET_ITEM(row, i, v);
		}
		if (!row || PyList_Append(*rows, row)) {
			Py_XDECREF(row);
			return -1;
		}
		Py_DECREF(row);
		if (d->damage.strict && d->damage.messages)
			break;
	}
	if (PyErr_Occurred())
		return -1; /* a signal's exception (the progress handler stopped the step) */
	if (spy_damage_flush(&d->damage))
		return -1;
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		spy_raise(sqlite3_errmsg(h));
		return -1;
	}
	return 0;
}

/* query(sql, params=None, strict=False) -> (names, rows) of the last statement with columns */
static PyObject *db_query(struct spy_db *d, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"sql", "params", "strict", NULL};
	const char *sql;
	PyObject *params = Py_None, *names = NULL, *rows = NULL;
	int strict = 0;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "s|Op", kwlist, &sql, &params, &strict))
		return NULL;
	if (!d->db) {
		PyErr_SetString(spy_error, "the database is closed");
		return NULL;
	}
	if (d->busy) {
		PyErr_SetString(PyExc_RuntimeError, "a query of this database is already running");
		return NULL;
	}
	d->damage.strict = strict;
	d->busy = true;
	sqlite3 *h = sql_db_handle(d->db);
	const char *tail = sql;
	int failed = 0;
	while (!failed && *tail) {
		sqlite3_stmt *st = NULL;
		if (sqlite3_prepare_v2(h, tail, -1, &st, &tail) != SQLITE_OK) {
			spy_raise(sqlite3_errmsg(h));
			failed = 1;
			break;
		}
		if (!st)
			continue; /* a comment or white space */
		PyObject *n = NULL, *r = NULL;
		failed = bind(h, st, params) || run_statement(d, st, &n, &r);
		sqlite3_finalize(st);
		if (!failed && n) {
			Py_XSETREF(names, n);
			Py_XSETREF(rows, r);
		} else {
			Py_XDECREF(n);
			Py_XDECREF(r);
		}
	}
	d->busy = false;
	if (failed) {
		Py_XDECREF(names);
		Py_XDECREF(rows);
		return NULL;
	}
	if (!names) {
		names = PyTuple_New(0);
		rows = PyList_New(0);
	}
	PyObject *out = names && rows ? PyTuple_Pack(2, names, rows) : NULL;
	Py_XDECREF(names);
	Py_XDECREF(rows);
	return out;
}

/* io() -> dict: what the queries so far read (push-down's proof). */
static PyObject *db_io(struct spy_db *d, PyObject *unused)
{
	struct sql_io io = {0};
	if (d->db)
		sql_db_io(d->db, &io);
	return Py_BuildValue("{sKsKsKsKsK}", "bytes", (unsigned long long) io.bytes,
	                     "skipped_bytes", (unsigned long long) io.skipped_bytes, "packets",
	                     (unsigned long long) io.packets, "skipped_packets",
	                     (unsigned long long) io.skipped_packets, "events",
	                     (unsigned long long) io.events);
}

static PyObject *db_close(struct spy_db *d, PyObject *unused)
{
	if (d->busy) {
		PyErr_SetString(PyExc_RuntimeError, "a query of this database is already running");
		return NULL;
	}
	sql_db_close(d->db);
	d->db = NULL;
	Py_RETURN_NONE;
}

static PyMethodDef db_methods[] = {
    {"query", (PyCFunction) (void (*)(void)) db_query, METH_VARARGS | METH_KEYWORDS,
     "query(sql, params=None, strict=False) -> (column names, list of row tuples)"},
    {"io", (PyCFunction) db_io, METH_NOARGS, "io() -> what the queries so far read"},
    {"close", (PyCFunction) db_close, METH_NOARGS, "close the database"},
    {NULL}};

PyTypeObject spy_db_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "spoor._spoor.Database",
    .tp_basicsize = sizeof(struct spy_db),
    .tp_dealloc = (destructor) db_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Database(paths): the traces' SQL tables (docs/sql.md).",
    .tp_methods = db_methods,
    .tp_init = (initproc) db_init,
    .tp_new = PyType_GenericNew,
};
