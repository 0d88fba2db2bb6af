/* SPDX-License-Identifier: MIT */
/*
 * event.c: one event of t.events(). Its name, time, CPU, stream and tid are copied when it
 * comes; its fields, pid and comm are read from the trace, so only while it is the
 * current event (until the iteration moves on): ev.fields() copies them all.
 */
#include "ctf/types.h"
#include "model/tasks.h"
#include "reader/reader.h"
#include "spoorpy.h"

/* The scopes a field is looked for in, in order (ev["name"]); fields() gives the first
 * three. */
static const enum spoor_scope lookup_order[] = {SPOOR_SCOPE_PAYLOAD, SPOOR_SCOPE_EVENT_CONTEXT,
                                                SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
                                                SPOOR_SCOPE_PACKET_CONTEXT};
#define FIELDS_SCOPES 3

const struct spoor_event *spy_event_current(const struct spy_event *ev)
{
	if (ev->gen == ev->it->gen && ev->it->ev)
		return ev->it->ev;
	PyErr_SetString(spy_error, "this event is no longer the current one: its fields are read "
	                           "from the trace while it is (keep ev.fields() to keep them)");
	return NULL;
}

static void event_dealloc(struct spy_event *ev)
{
	Py_DECREF(ev->it);
	PyObject_Free(ev);
}

static PyObject *int_or_none(int64_t v)
{
	if (v < 0)
		Py_RETURN_NONE;
	return PyLong_FromLongLong(v);
}

static PyObject *get_name(struct spy_event *ev, void *closure)
{
	PyObject *name = ev->it->names[ev->class_index]; /* made before the event (events.c) */
	Py_INCREF(name);
	return name;
}

static PyObject *get_ts(struct spy_event *ev, void *closure)
{
	return PyLong_FromLongLong(ev->ts);
}

static PyObject *get_cpu(struct spy_event *ev, void *closure)
{
	return int_or_none(ev->cpu);
}

static PyObject *get_tid(struct spy_event *ev, void *closure)
{
	return int_or_none(ev->tid);
}

static PyObject *get_stream(struct spy_event *ev, void *closure)
{
	return PyLong_FromSize_t(ev->stream);
}

static PyObject *get_pid(struct spy_event *ev, void *closure)
{
	const struct spoor_event *e = spy_event_current(ev);
	if (!e)
		return NULL;
	return int_or_none(tasks_pid(ev->it->tasks, e, ev->tid));
}

static PyObject *get_comm(struct spy_event *ev, void *closure)
{
	const struct spoor_event *e = spy_event_current(ev);
	size_t len;
	if (!e)
		return NULL;
	const char *comm = tasks_comm(ev->it->tasks, e, ev->tid, &len);
	if (!comm)
		Py_RETURN_NONE;
	return spy_text(comm, len);
}

/* The class's {name: scope << 16 | index}: the first scope of lookup_order that has it. */
static PyObject *field_map(struct spy_events *it, size_t ci)
{
	if (it->fields[ci])
		return it->fields[ci];
	const struct spoor_event_class *ec = spoor_reader_event_class(it->r, ci);
	PyObject *map = PyDict_New();
	for (size_t s = 0; map && s < sizeof(lookup_order) / sizeof(*lookup_order); s++) {
		const struct ctf_type *t = reader_class_scope_type(ec->sc, ec->ec, lookup_order[s]);
		for (unsigned i = 0; map && t && t->kind == CTF_STRUCT && i < t->s.n; i++) {
			PyObject *where = PyLong_FromLong((long) lookup_order[s] << 16 | (long) i);
			PyObject *k = spy_text(t->s.fields[i].shown, t->s.fields[i].shown_len);
			if (!where || !k || !PyDict_SetDefault(map, k, where))
				Py_CLEAR(map);
			Py_XDECREF(where);
			Py_XDECREF(k);
		}
	}
	it->fields[ci] = map;
	return map;
}

/* ev["name"] */
static PyObject *event_getitem(struct spy_event *ev, PyObject *key)
{
	const struct spoor_event *e = spy_event_current(ev);
	if (!e)
		return NULL;
	PyObject *map = field_map(ev->it, ev->class_index);
	if (!map)
		return NULL;
	PyObject *where = PyDict_GetItemWithError(map, key);
	if (!where) {
		if (!PyErr_Occurred())
			PyErr_SetObject(PyExc_KeyError, key);
		return NULL;
	}
	long w = PyLong_AsLong(where);
	struct spoor_field f;
	if (!spoor_event_field_at(e, (enum spoor_scope)(w >> 16), (int) (w & 0xffff), &f))
		Py_RETURN_NONE; /* damaged data: the iteration warns */
	return spy_field_value(&f);
}

/* ev.fields(): the payload's fields, then the contexts' (a name already there is kept). */
static PyObject *event_fields(struct spy_event *ev, PyObject *unused)
{
	const struct spoor_event *e = spy_event_current(ev);
	if (!e)
		return NULL;
	const struct spoor_event_class *ec = spoor_event_class(e);
	PyObject *out = PyDict_New();
	for (size_t s = 0; out && s < FIELDS_SCOPES; s++) {
		const struct ctf_type *t = reader_class_scope_type(ec->sc, ec->ec, lookup_order[s]);
		struct spoor_field f;
		for (unsigned i = 0; out && t && t->kind == CTF_STRUCT && i < t->s.n; i++) {
			if (!spoor_event_field_at(e, lookup_order[s], (int) i, &f))
				continue;
			PyObject *v = spy_field_value(&f);
			PyObject *k = spy_text(t->s.fields[i].shown, t->s.fields[i].shown_len);
			if (!v || !k || !PyDict_SetDefault(out, k, v))
				Py_CLEAR(out);
			Py_XDECREF(v);
			Py_XDECREF(k);
		}
	}
	return out;
}

static PyObject *event_repr(struct spy_event *ev)
{
	PyObject *name = get_name(ev, NULL);
	if (!name)
		return NULL;
	PyObject *r = PyUnicode_FromFormat("<spoor event %U ts=%lld cpu=%lld>", name,
	                                   (long long) ev->ts, (long long) ev->cpu);
	Py_DECREF(name);
	return r;
}

static PyGetSetDef event_getset[] = {
    {"name", (getter) get_name, NULL, "the event's class name", NULL},
    {"ts", (getter) get_ts, NULL, "ns from the clock origin (what --begin takes)", NULL},
    {"cpu", (getter) get_cpu, NULL, "its CPU, or None", NULL},
    {"tid", (getter) get_tid, NULL, "its task (a tid context, else the CPU's task), or None", NULL},
    {"pid", (getter) get_pid, NULL, "its task's process id as the trace tells it, or None", NULL},
    {"comm", (getter) get_comm, NULL, "its task's name as the trace tells it, or None", NULL},
    {"stream", (getter) get_stream, NULL, "the index of its stream in the reader", NULL},
    {NULL}};

static PyMethodDef event_methods[] = {
    {"fields", (PyCFunction) event_fields, METH_NOARGS,
     "fields() -> dict: the payload's fields, then the contexts' (payload first)"},
    {NULL}};

static PyMappingMethods event_mapping = {.mp_subscript = (binaryfunc) event_getitem};

PyTypeObject spy_event_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "spoor._spoor.Event",
    .tp_basicsize = sizeof(struct spy_event),
    .tp_dealloc = (destructor) event_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One event of Trace.events(): name, ts, cpu, tid, pid, comm, ev['field'].",
    .tp_repr = (reprfunc) event_repr,
    .tp_as_mapping = &event_mapping,
    .tp_getset = event_getset,
    .tp_methods = event_methods,
};
