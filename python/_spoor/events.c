/* SPDX-License-Identifier: MIT */
/*
 * events.c: t.events(): an iterator over events in time order, through the reader's inline
 * reader_next. Classes not asked for (names=) and not read by the task model are passed
 * over inside the reader; a time range steps over the packets before it.
 */
#include <stdlib.h>

#include "model/tasks.h"
#include "reader/reader.h"
#include "spoorpy.h"

static void events_close(struct spy_events *it)
{
	tasks_free(it->tasks);
	it->tasks = NULL;
	spoor_reader_close(it->r);
	it->r = NULL;
	it->ev = NULL;
	it->done = true;
}

static void events_dealloc(struct spy_events *it)
{
	events_close(it);
	for (size_t c = 0; c < it->nclasses; c++) {
		Py_XDECREF(it->names ? it->names[c] : NULL);
		Py_XDECREF(it->fields ? it->fields[c] : NULL);
	}
	PyMem_Free(it->names);
	PyMem_Free(it->fields);
	PyMem_Free(it->deliver);
	Py_XDECREF(it->damage.messages);
	Py_TYPE(it)->tp_free((PyObject *) it);
}

/* names: None, a str, or an iterable of str: which classes are delivered. */
static int choose_classes(struct spy_events *it, PyObject *names)
{
	if (!names || names == Py_None)
		return 0;
	PyObject *set = PyUnicode_Check(names) ? PySet_New(NULL) : PySet_New(names);
	if (!set || (PyUnicode_Check(names) && PySet_Add(set, names))) {
		Py_XDECREF(set);
		return -1;
	}
	it->deliver = PyMem_Calloc(it->nclasses + 1, sizeof(*it->deliver));
	int rc = it->deliver ? 0 : -1;
	if (!it->deliver)
		PyErr_NoMemory();
	for (size_t c = 0; !rc && c < it->nclasses; c++) {
		const char *name = spoor_event_class_name(spoor_reader_event_class(it->r, c));
		PyObject *s = spy_text(name, strlen(name));
		int in = s ? PySet_Contains(set, s) : -1;
		Py_XDECREF(s);
		if (in < 0)
			rc = -1;
		it->deliver[c] = in > 0;
	}
	Py_DECREF(set);
	return rc;
}

/* The classes nobody reads, stepped over inside the reader. */
static int pass_over(struct spy_events *it, bool has_range, int64_t begin, int64_t end)
{
	bool *pass = PyMem_Calloc(it->nclasses + 1, sizeof(*pass));
	if (!pass) {
		PyErr_NoMemory();
		return -1;
	}
	for (size_t c = 0; c < it->nclasses; c++)
		pass[c] = !it->deliver[c] && !tasks_reads(it->tasks, c);
	reader_pass_over(it->r, pass, it->nclasses, has_range ? begin : INT64_MIN,
	                 has_range ? end : INT64_MAX);
	PyMem_Free(pass);
	return 0;
}

/* Ctrl-C during the pre-pass, which may read most of the trace: KeyboardInterrupt. */
static bool signalled(void *unused)
{
	(void) unused;
	return PyErr_CheckSignals() < 0;
}

/* The task model learns the events before begin first, with a reader of its own that passes
 * over every class the model does not read: tid, pid and comm then equal a whole read's
 * (model/tasks.h). Damage there is the main read's business. */
static int prepass(struct spy_events *it, const struct spy_source *src, int64_t begin)
{
	struct spy_damage quiet = {0};
	struct spoor_reader *r;
	if (spy_reader_open(src, &quiet, &r))
		return -1;
	int rc = tasks_prepass(it->tasks, r, begin, signalled, NULL);
	spoor_reader_close(r);
	Py_XDECREF(quiet.messages);
	if (rc < 0 && !PyErr_Occurred())
		PyErr_SetString(spy_error, spoor_strerror(rc));
	return rc < 0 ? -1 : 0;
}

PyObject *spy_events(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"paths", "names", "begin", "end", "part", "strict", NULL};
	PyObject *paths, *names = Py_None, *begin = Py_None, *end = Py_None, *part = Py_None;
	int strict = 0;
	struct spy_source src;
	bool has_range;
	int64_t b, e;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOOOp", kwlist, &paths, &names, &begin, &end,
	                                 &part, &strict) ||
	    spy_range_get(begin, end, &has_range, &b, &e) || spy_source_get(&src, paths, part))
		return NULL;
	struct spy_events *it = PyObject_New(struct spy_events, &spy_events_type);
	if (!it) {
		spy_source_free(&src);
		return NULL;
	}
	memset((char *) it + sizeof(PyObject), 0, sizeof(*it) - sizeof(PyObject));
	it->damage.strict = strict;
	int rc = spy_reader_open(&src, &it->damage, &it->r);
	if (!rc) {
		it->nclasses = spoor_reader_event_class_count(it->r);
		it->names = PyMem_Calloc(it->nclasses + 1, sizeof(*it->names));
		it->fields = PyMem_Calloc(it->nclasses + 1, sizeof(*it->fields));
		it->tasks = tasks_new(it->r, true);
		if (!it->names || !it->fields || !it->tasks)
			rc = (PyErr_NoMemory(), -1);
		else if (!src.part.stream) { /* (a part: what the part says alone) */
			tasks_read_dump_ahead(it->tasks);
			if (has_range && b > INT64_MIN)
				rc = prepass(it, &src, b);
		}
	}
	spy_source_free(&src);
	if (rc) {
		Py_DECREF(it);
		return NULL;
	}
	if (choose_classes(it, names) || (it->deliver && pass_over(it, has_range, b, e))) {
		Py_DECREF(it);
		return NULL;
	}
	if (has_range)
		spoor_reader_set_range(it->r, b, e);
	return (PyObject *) it;
}

/* The class's name as a str, made at its first event: events name their class even
 * after the iteration ends and its reader is gone. */
static int class_name(struct spy_events *it, size_t ci)
{
	if (it->names[ci])
		return 0;
	const char *name = spoor_event_class_name(spoor_reader_event_class(it->r, ci));
	return (it->names[ci] = spy_text(name, strlen(name))) ? 0 : -1;
}

static PyObject *new_event(struct spy_events *it, const struct spoor_event *ev, size_t ci,
                           int64_t tid)
{
	if (class_name(it, ci))
		return NULL;
	struct spy_event *o = PyObject_New(struct spy_event, &spy_event_type);
	if (!o)
		return NULL;
	Py_INCREF(it);
	o->it = it;
	o->gen = it->gen;
	o->class_index = ci;
	o->stream = reader_event_stream(ev);
	o->ts = reader_event_timestamp(ev);
	o->cpu = reader_event_cpu(ev);
	o->tid = tid;
	return (PyObject *) o;
}

static PyObject *next_event(struct spy_events *it)
{
	const struct spoor_event *ev;

	it->ev = NULL;
	it->gen++;
	while (!it->done) {
		int rc = reader_next(it->r, &ev);
		if (it->damage.messages || it->damage.failed) {
			if (spy_damage_flush(&it->damage)) {
				if (it->damage.strict)
					events_close(it);
				return NULL;
			}
		}
		if (rc <= 0) {
			events_close(it);
			if (rc < 0)
				PyErr_SetString(spy_error, spoor_strerror(rc));
			return NULL; /* StopIteration, or the error */
		}
		size_t ci = reader_event_class_index(ev);
		int64_t tid;
		tasks_update(it->tasks, ev);
		if (ci >= it->nclasses || (it->deliver && !it->deliver[ci]))
			continue; /* (a reader opened whole never has more classes) */
		it->ev = ev;
		return new_event(it, ev, ci, tasks_tid(it->tasks, ev, &tid) ? tid : -1);
	}
	return NULL;
}

/* A DamageWarning's handler is Python code run in the middle of a step: advancing the same
 * iteration there would close the reader under the step (as a running generator, it
 * raises). */
static PyObject *events_next(struct spy_events *it)
{
	if (it->busy) {
		PyErr_SetString(PyExc_RuntimeError, "this iteration is already running");
		return NULL;
	}
	it->busy = true;
	PyObject *out = next_event(it);
	it->busy = false;
	return out;
}

PyTypeObject spy_events_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "spoor._spoor.Events",
    .tp_basicsize = sizeof(struct spy_events),
    .tp_dealloc = (destructor) events_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An iteration over a trace's events in time order (Trace.events()).",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc) events_next,
};
