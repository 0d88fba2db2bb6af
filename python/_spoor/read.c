/* SPDX-License-Identifier: MIT */
/* read.c: a reader for one call (the traces' paths, or a part), its damage noted, then
 * warned or raised once the interpreter is in a state to do so. */
#include <stdlib.h>

#include "reader/reader.h"
#include "spoorpy.h"

/* A path as the file system takes it (str encoded as os.fsencode does, or bytes), kept
 * alive in keep. */
static const char *path_of(PyObject *o, PyObject *keep, const char *what)
{
	PyObject *b;
	if (PyUnicode_Check(o)) {
		b = PyUnicode_EncodeFSDefault(o);
	} else if (PyBytes_Check(o)) {
		Py_INCREF(o);
		b = o;
	} else {
		PyErr_Format(PyExc_TypeError, "%s must be a str, not %.80s", what,
		             Py_TYPE(o)->tp_name);
		return NULL;
	}
	if (!b || PyList_Append(keep, b)) {
		Py_XDECREF(b);
		return NULL;
	}
	Py_DECREF(b); /* the list holds it */
	return PyBytes_AS_STRING(b);
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
	if (!(src->keep = PyList_New(0)))
		return -1;
	if (part && part != Py_None) {
		if (!PyTuple_Check(part) || PyTuple_GET_SIZE(part) != 4) {
			PyErr_SetString(
			    PyExc_TypeError,
			    "part must be (trace, stream, begin, end): one of t.parts()");
			spy_source_free(src);
			return -1;
		}
		if (!(src->part.trace =
		          path_of(PyTuple_GET_ITEM(part, 0), src->keep, "a part's trace")) ||
		    !(src->part.stream =
		          path_of(PyTuple_GET_ITEM(part, 1), src->keep, "a part's stream")) ||
		    u64_of(PyTuple_GET_ITEM(part, 2), &src->part.begin) ||
		    u64_of(PyTuple_GET_ITEM(part, 3), &src->part.end)) {
			spy_source_free(src);
			return -1;
		}
		return 0;
	}
	PyObject *list = PyUnicode_Check(paths) || PyBytes_Check(paths) ? PyTuple_Pack(1, paths)
	                                                                : PySequence_Tuple(paths);
	if (!list) {
		spy_source_free(src);
		return -1;
	}
	Py_ssize_t n = PyTuple_GET_SIZE(list);
	src->paths = n ? PyMem_Calloc((size_t) n, sizeof(*src->paths)) : NULL;
	int rc = 0;
	if (!n)
		PyErr_SetString(PyExc_ValueError, "no trace given");
	else if (!src->paths)
		PyErr_NoMemory();
	for (Py_ssize_t i = 0; src->paths && i < n && !rc; i++)
		if (!(src->paths[i] =
		          path_of(PyTuple_GET_ITEM(list, i), src->keep, "a trace's path")))
			rc = -1;
	Py_DECREF(list);
	if (!n || !src->paths || rc) {
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

void spy_raise(const char *message)
{
	PyObject *m = spy_text(message, strlen(message));
	if (m) {
		PyErr_SetObject(spy_error, m);
		Py_DECREF(m);
	}
}

int spy_reader_open(const struct spy_source *src, struct spy_damage *d, struct spoor_reader **out)
{
	char *why = NULL;
	int rc = src->part.stream ? reader_open_part(src->part.trace, src->part.stream,
	                                             src->part.begin, src->part.end, out, &why)
	                          : spoor_reader_open(src->paths, src->npaths, out, &why);
	if (rc) {
		spy_raise(why ? why : spoor_strerror(rc));
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
