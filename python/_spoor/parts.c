/* SPDX-License-Identifier: MIT */
/*
 * parts.c: the packets of every stream (t.parts() groups them into parts): where each lies
 * in its file and the times its context gives, read from the packets' headers and contexts
 * alone (reader_stream_packets), no event decoded.
 */
#include <stdlib.h>

#include "reader/reader.h"
#include "spoorpy.h"

static PyObject *time_or_none(bool has, int64_t ns)
{
	if (!has)
		Py_RETURN_NONE;
	return PyLong_FromLongLong(ns);
}

static int add_packet(void *data, const struct ctf_packet_span *p)
{
	PyObject *list = data;
	PyObject *b = time_or_none(p->has_times, p->begin_ns);
	PyObject *e = time_or_none(p->has_end, p->end_ns);
	PyObject *t = b && e ? Py_BuildValue("(KKOO)", (unsigned long long) p->offset,
	                                     (unsigned long long) p->bytes, b, e)
	                     : NULL;
	int rc = t ? PyList_Append(list, t) : -1;
	Py_XDECREF(b);
	Py_XDECREF(e);
	Py_XDECREF(t);
	return rc ? 1 : 0;
}

/* A path as Python's os functions give it (os.fsdecode). */
static PyObject *path_text(void *path)
{
	return PyUnicode_DecodeFSDefault(path);
}

/* One stream's (trace, stream file, [(offset, bytes, begin_ns, end_ns), ...]). */
static PyObject *stream_packets(struct spoor_reader *r, size_t i, struct spy_damage *d)
{
	struct spoor_stream_info si;
	char *why = NULL;

	spoor_reader_stream_info(r, i, &si);
	PyObject *list = PyList_New(0);
	if (!list)
		return NULL;
	int rc = reader_stream_packets(r, i, add_packet, list, &why);
	if (why) {
		spy_damage_note(d, why);
		free(why);
	}
	if (rc > 0) {
		Py_DECREF(list);
		return NULL;
	}
	const char *trace = spoor_reader_trace_path(r, si.trace);
	PyObject *out = Py_BuildValue("(O&O&O)", path_text, trace, path_text, si.path, list);
	Py_DECREF(list);
	return out;
}

PyObject *spy_packets(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"paths", "strict", NULL};
	PyObject *paths;
	int strict = 0;
	struct spy_source src;
	struct spy_damage d = {0};
	struct spoor_reader *r;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|p", kwlist, &paths, &strict) ||
	    spy_source_get(&src, paths, NULL))
		return NULL;
	d.strict = strict;
	int rc = spy_reader_open(&src, &d, &r);
	spy_source_free(&src);
	if (rc)
		return NULL;
	PyObject *out = PyList_New(0);
	for (size_t i = 0, n = spoor_reader_stream_count(r); out && i < n; i++) {
		PyObject *s = stream_packets(r, i, &d);
		if (!s || PyList_Append(out, s))
			Py_CLEAR(out);
		Py_XDECREF(s);
	}
	spoor_reader_close(r);
	if (out && spy_damage_flush(&d))
		Py_CLEAR(out);
	Py_XDECREF(d.messages);
	return out;
}
