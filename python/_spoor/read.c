/* SPDX-License-Identifier: MIT */
/* read.c: a reader for one call (the traces' paths, or a part), its damage noted, then
 * warned or raised once the interpreter is in a state to do so. */
#include <stdlib.h>

#include "reader/reader.h"
#include "spoorpy.h"

static const char *utf8_of(PyObject *o, const char *what)
{
	if (!PyUnicode_Check(o)) {
		PyErr_Format(PyExc_TypeError, "%s must be a str, not %.80s", what,
		             Py_TYPE(o)->tp_name);
		return NULL;
	}
	return PyUnicode_AsUTF8(o);
}

static int u64_of(PyObject *o, uint64_t *v)
{
	unsigned long long x = PyLong_AsUnsignedLongLong(o);
	if (x == (unsigned long long) -1 && PyErr_Occurred())
		return -1;
	*v = x;
	return 0;
}

int spy_source_get(struct spy_source *src, PyObject *paths, PyObject *part)
{
	*src = (struct spy_source){0};
	if (part && part != Py_None) {
		if (!PyTuple_Check(part) || PyTuple_GET_SIZE(part) != 4) {
			PyErr_SetString(
			    PyExc_TypeError,
			    "part must be (trace, stream, begin, end): one of t.parts()");
			return -1;
		}
		if (!(src->part.trace = utf8_of(PyTuple_GET_ITEM(part, 0), "a part's trace")) ||
		    !(src->part.stream = utf8_of(PyTuple_GET_ITEM(part, 1), "a part's stream")) ||
		    u64_of(PyTuple_GET_ITEM(part, 2), &src->part.begin) ||
		    u64_of(PyTuple_GET_ITEM(part, 3), &src->part.end))
			return -1;
		Py_INCREF(part);
		src->keep = part;
		return 0;
	}
	PyObject *list = PyUnicode_Check(paths) ? PyTuple_Pack(1, paths) : PySequence_Tuple(paths);
	if (!list)
		return -1;
	Py_ssize_t n = PyTuple_GET_SIZE(list);
	if (n == 0) {
		Py_DECREF(list);
		PyErr_SetString(PyExc_ValueError, "no trace given");
		return -1;
	}
	src->keep = list;
	src->paths = PyMem_Calloc((size_t) n, sizeof(*src->paths));
	if (!src->paths) {
		spy_source_free(src);
		PyErr_NoMemory();
		return -1;
	}
	for (Py_ssize_t i = 0; i < n; i++)
		if (!(src->paths[i] = utf8_of(PyTuple_GET_ITEM(list, i), "a trace's path"))) {
			spy_source_free(src);
			return -1;
		}
	src->npaths = (size_t) n;
	return 0;
}

void spy_source_free(struct spy_source *src)
{
	PyMem_Free(src->paths);
	Py_CLEAR(src->keep);
	src->paths = NULL;
}

void spy_damage_note(void *data, const char *message)
{
	struct spy_damage *d = data;
	PyObject *m = spy_text(message, strlen(message));

	if (!d->messages)
		d->messages = PyList_New(0);
	if (!m || !d->messages || PyList_Append(d->messages, m))
		d->failed = true;
	Py_XDECREF(m);
	PyErr_Clear(); /* the reader's callback cannot fail: the flush reports it */
}

int spy_damage_flush(struct spy_damage *d)
{
	if (d->failed) {
		d->failed = false;
		PyErr_NoMemory();
		return -1;
	}
	if (!d->messages || !PyList_GET_SIZE(d->messages))
		return 0;
	PyObject *list = d->messages;
	d->messages = NULL;
	int rc = 0;
	for (Py_ssize_t i = 0; !rc && i < PyList_GET_SIZE(list); i++) {
		PyObject *m = PyList_GET_ITEM(list, i);
		if (d->strict) {
			PyErr_SetObject(spy_error, m);
			rc = -1;
		} else {
			rc = PyErr_WarnFormat(spy_damage_warning, 1, "%U", m);
		}
	}
	Py_DECREF(list);
	return rc;
}

int spy_reader_open(const struct spy_source *src, struct spy_damage *d, struct spoor_reader **out)
{
	char *why = NULL;
	int rc = src->part.stream ? reader_open_part(src->part.trace, src->part.stream,
	                                             src->part.begin, src->part.end, out, &why)
	                          : spoor_reader_open(src->paths, src->npaths, out, &why);
	if (rc) {
		PyErr_SetString(spy_error, why ? why : spoor_strerror(rc));
		free(why);
		return -1;
	}
	spoor_reader_set_warn(*out, spy_damage_note, d);
	return 0;
}

static int ns_of(PyObject *o, int64_t *v)
{
	long long x = PyLong_AsLongLong(o);
	if (x == -1 && PyErr_Occurred())
		return -1;
	*v = x;
	return 0;
}

int spy_range_get(PyObject *begin, PyObject *end, bool *has, int64_t *b, int64_t *e)
{
	bool hb = begin && begin != Py_None, he = end && end != Py_None;
	*has = hb || he;
	*b = INT64_MIN;
	*e = INT64_MAX;
	return (hb && ns_of(begin, b)) || (he && ns_of(end, e)) ? -1 : 0;
}
