/* SPDX-License-Identifier: MIT */
/*
 * columns.c: t.columns(class, [names]): one pass over the trace, the events of the class
 * (every class of that name, in every trace) into one NumPy array per column, filled here in
 * C. Fields are found once per class (spoor_event_class_field_index) and read per event in
 * place (reader_field_int, reader_field_str); the other classes are passed over inside the
 * reader. `ts` and `cpu` are the event's time and CPU (-1: unknown).
 */
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <math.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <numpy/arrayobject.h>

#include "ctf/types.h"
#include "reader/reader.h"
#include "spoorpy.h"

enum col_kind { COL_TS, COL_CPU, COL_INT, COL_UINT, COL_FLOAT, COL_TEXT };

static const enum spoor_scope lookup_order[] = {SPOOR_SCOPE_PAYLOAD, SPOOR_SCOPE_EVENT_CONTEXT,
                                                SPOOR_SCOPE_STREAM_EVENT_CONTEXT,
                                                SPOOR_SCOPE_PACKET_CONTEXT};

/* Where a column's field is in one class; an integer of the payload read as a plain load
 * also has its place there (ctf_event_class_place: fixed payloads read with no check). */
struct place {
	int8_t scope;
	int idx;
	struct ctf_place at;
};

struct column {
	PyObject *name;
	const char *utf8;
	enum col_kind kind;
	bool typed; /* kind known (from the first class that has the field) */
	void *data; /* int64_t, uint64_t, double or PyObject * values */
	/* text: the last value, given again while the bytes are the same (task names repeat) */
	PyObject *last;
	char last_bytes[64];
	size_t last_len;
};

struct job {
	struct spoor_reader *r;
	struct spy_damage damage;
	struct column *cols;
	size_t ncols;
	size_t nclasses;
	int *slot;            /* per reader class: its row in places, -1: not read */
	struct place *places; /* [slot * ncols + column] */
	size_t nslots;
	size_t n, cap; /* rows */
};

static size_t elem_size(enum col_kind k)
{
	return k == COL_TEXT ? sizeof(PyObject *) : 8;
}

/* A field's column kind; false for compounds (not a column). */
static bool kind_of(const struct ctf_type *t, enum col_kind *k)
{
	if (t->kind == CTF_ENUM)
		t = t->e.container;
	switch (t->kind) {
	case CTF_INT: *k = !t->i.is_signed && t->i.size >= 64 ? COL_UINT : COL_INT; return true;
	case CTF_FLOAT: *k = COL_FLOAT; return true;
	case CTF_STRING: *k = COL_TEXT; return true;
	case CTF_ARRAY:
	case CTF_SEQUENCE: *k = COL_TEXT; return ctf_type_is_text_array(t);
	default: return false;
	}
}

static int fail(const char *fmt, const char *a, const char *b, const char *c)
{
	PyErr_Format(spy_error, fmt, a, b, c);
	return -1;
}

/* Column k in class ec (its slot s): where it is, and its kind checked against the others'. */
static int resolve(struct job *j, const struct spoor_event_class *ec, size_t s, size_t k)
{
	struct column *col = &j->cols[k];
	struct place *p = &j->places[s * j->ncols + k];
	const char *trace = spoor_reader_trace_path(j->r, ec->trace);

	p->idx = -1;
	if (col->kind == COL_TS || col->kind == COL_CPU)
		return 0;
	for (size_t o = 0; p->idx < 0 && o < sizeof(lookup_order) / sizeof(*lookup_order); o++) {
		const struct ctf_type *t = reader_class_scope_type(ec->sc, ec->ec, lookup_order[o]);
		int i = t && t->kind == CTF_STRUCT ? ctf_struct_find(t, col->utf8, t->s.n) : -1;
		if (i < 0)
			continue;
		enum col_kind kind;
		if (!kind_of(t->s.fields[i].type, &kind))
			return fail("%s: field %s of %s is not a number or text: not a column "
			            "(events() gives it)",
			            trace, col->utf8, spoor_event_class_name(ec));
		if (col->typed && (kind == COL_TEXT) != (col->kind == COL_TEXT))
			return fail("%s: field %s of %s is not of the type it has in another "
			            "class of that name",
			            trace, col->utf8, spoor_event_class_name(ec));
		/* numbers of several classes: float over signed over unsigned */
		if (!col->typed || kind == COL_FLOAT || (kind == COL_INT && col->kind == COL_UINT))
			col->kind = kind;
		col->typed = true;
		p->scope = (int8_t) lookup_order[o];
		p->idx = i;
		if (p->scope == SPOOR_SCOPE_PAYLOAD && kind != COL_TEXT && kind != COL_FLOAT)
			ctf_event_class_place(ec->ec, i, &p->at);
	}
	if (p->idx < 0)
		return fail("%s: event class %s has no field %s", trace, spoor_event_class_name(ec),
		            col->utf8);
	return 0;
}

/* The classes named cls, each a slot; the others passed over. */
static int choose(struct job *j, const char *cls)
{
	j->nclasses = spoor_reader_event_class_count(j->r);
	j->slot = PyMem_Malloc((j->nclasses + 1) * sizeof(*j->slot));
	bool *pass = PyMem_Calloc(j->nclasses + 1, sizeof(*pass));
	if (!j->slot || !pass) {
		PyMem_Free(pass);
		PyErr_NoMemory();
		return -1;
	}
	for (size_t c = 0; c < j->nclasses; c++) {
		const struct spoor_event_class *ec = spoor_reader_event_class(j->r, c);
		j->slot[c] = strcmp(spoor_event_class_name(ec), cls) ? -1 : (int) j->nslots++;
		pass[c] = j->slot[c] < 0;
	}
	int rc = 0;
	j->places = PyMem_Calloc(j->nslots * j->ncols + 1, sizeof(*j->places));
	if (!j->places) {
		PyErr_NoMemory();
		rc = -1;
	}
	for (size_t c = 0; !rc && c < j->nclasses; c++)
		for (size_t k = 0; j->slot[c] >= 0 && !rc && k < j->ncols; k++)
			rc = resolve(j, spoor_reader_event_class(j->r, c), (size_t) j->slot[c], k);
	if (!rc && !j->nslots)
		rc = fail("no event class named %s in the trace%s%s", cls, "", "");
	for (size_t k = 0; !rc && k < j->ncols; k++)
		if (!j->cols[k].typed && j->cols[k].kind != COL_TS && j->cols[k].kind != COL_CPU)
			j->cols[k].kind = COL_INT; /* never met: stays empty */
	if (!rc)
		reader_pass_over(j->r, pass, j->nclasses, INT64_MIN, INT64_MAX);
	PyMem_Free(pass);
	return rc;
}

/* Column buffers are mappings of their own: they grow by mremap (no copy), on huge pages
 * where the kernel gives them (a few faults for a big column, not one per 4 KiB), and the
 * array takes the mapping itself at the end. */
static void *map_resize(void *old, size_t old_bytes, size_t bytes)
{
	void *p =
	    old ? mremap(old, old_bytes, bytes, MREMAP_MAYMOVE)
	        : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, bytes, MADV_HUGEPAGE); /* a hint: fine if refused */
	return p;
}

static int grow(struct job *j)
{
	size_t cap = j->cap ? j->cap * 2 : 4096;
	for (size_t k = 0; k < j->ncols; k++) {
		struct column *col = &j->cols[k];
		void *bigger = map_resize(col->data, j->cap * elem_size(col->kind),
		                          cap * elem_size(col->kind));
		if (!bigger) {
			PyErr_NoMemory();
			return -1;
		}
		col->data = bigger;
	}
	j->cap = cap;
	return 0;
}

static PyObject *text_value(struct column *col, const char *s, size_t len)
{
	if (col->last && len == col->last_len && !memcmp(s, col->last_bytes, len)) {
		Py_INCREF(col->last);
		return col->last;
	}
	PyObject *v = spy_text(s, len);
	if (v && len <= sizeof(col->last_bytes)) {
		Py_XSETREF(col->last, v);
		Py_INCREF(v);
		memcpy(col->last_bytes, s, len);
		col->last_len = len;
	}
	return v;
}

/* One row: the event's values; one that cannot be read (damaged data) is 0, NaN or None. */
static int fill_row(struct job *j, const struct spoor_event *ev, const struct place *pl)
{
	size_t n = j->n;
	const uint8_t *whole = ctf_stream_payload_whole(ev->s); /* NULL: read with checks */
	for (size_t k = 0; k < j->ncols; k++) {
		struct column *col = &j->cols[k];
		int64_t v;
		switch (col->kind) {
		case COL_TS: ((int64_t *) col->data)[n] = reader_event_timestamp(ev); break;
		case COL_CPU: ((int64_t *) col->data)[n] = reader_event_cpu(ev); break;
		case COL_INT:
		case COL_UINT:
			if (whole && pl[k].at.fast != PLAN_FAST_NONE)
				v = ctf_load_int(whole + pl[k].at.off, pl[k].at.fast, pl[k].at.len);
			else if (!reader_field_int(ev, pl[k].scope, pl[k].idx, &v))
				v = 0;
			((int64_t *) col->data)[n] = v;
			break;
		case COL_FLOAT: {
			struct spoor_field f;
			double d = NAN;
			if (spoor_event_field_at(ev, pl[k].scope, pl[k].idx, &f))
				d = f.kind == SPOOR_FIELD_FLOAT      ? f.v.f
				    : f.kind == SPOOR_FIELD_SIGNED   ? (double) f.v.s
				    : f.kind == SPOOR_FIELD_UNSIGNED ? (double) f.v.u
				                                     : NAN;
			((double *) col->data)[n] = d;
			break;
		}
		case COL_TEXT: {
			const char *s;
			size_t len;
			PyObject *o;
			if (reader_field_str(ev, pl[k].scope, pl[k].idx, &s, &len))
				o = text_value(col, s, len);
			else
				o = (Py_INCREF(Py_None), Py_None);
			if (!o) {
				for (size_t i = 0; i < k; i++)
					if (j->cols[i].kind == COL_TEXT)
						Py_DECREF(((PyObject **) j->cols[i].data)[n]);
				return -1;
			}
			((PyObject **) col->data)[n] = o;
			break;
		}
		}
	}
	j->n++;
	return 0;
}

static int run(struct job *j)
{
	const struct spoor_event *ev;
	int rc;

	while ((rc = reader_next(j->r, &ev)) > 0) {
		size_t ci = reader_event_class_index(ev);
		int s = ci < j->nclasses ? j->slot[ci] : -1;
		if (s < 0)
			continue;
		if ((j->n == j->cap && grow(j)) ||
		    fill_row(j, ev, &j->places[(size_t) s * j->ncols]))
			return -1;
		if (j->damage.strict && (j->damage.messages || j->damage.failed))
			break;
	}
	if (spy_damage_flush(&j->damage))
		return -1;
	if (rc < 0) {
		PyErr_SetString(spy_error, spoor_strerror(rc));
		return -1;
	}
	return 0;
}

/* A mapping an array's data lives in, unmapped with the array (its capsule). */
struct mapping {
	void *data;
	size_t bytes;
};

static void unmap_data(PyObject *capsule)
{
	struct mapping *m = PyCapsule_GetPointer(capsule, NULL);
	munmap(m->data, m->bytes);
	PyMem_RawFree(m);
}

/* Column k's values as an array (the values taken from the job). */
static PyObject *array_of(struct job *j, size_t k)
{
	struct column *col = &j->cols[k];
	npy_intp n = (npy_intp) j->n;
	size_t cap_bytes = j->cap * elem_size(col->kind);

	if (col->kind == COL_TEXT) {
		PyObject *a = PyArray_SimpleNew(1, &n, NPY_OBJECT);
		if (!a)
			return NULL;
		PyObject **to = PyArray_DATA((PyArrayObject *) a), **from = col->data;
		for (npy_intp i = 0; i < n; i++) {
			PyObject *old = to[i];
			to[i] = from[i]; /* the reference moves into the array */
			Py_XDECREF(old);
		}
		if (col->data)
			munmap(col->data, cap_bytes);
		col->data = NULL;
		return a;
	}
	int type = col->kind == COL_FLOAT  ? NPY_FLOAT64
	           : col->kind == COL_UINT ? NPY_UINT64
	                                   : NPY_INT64;
	struct mapping *m = PyMem_RawMalloc(sizeof(*m));
	if (!m)
		return PyErr_NoMemory();
	*m = (struct mapping){col->data, cap_bytes};
	if (!m->data && !(m->data = map_resize(NULL, 0, m->bytes = 8))) {
		PyMem_RawFree(m);
		return PyErr_NoMemory();
	}
	col->data = NULL;
	PyObject *a = PyArray_SimpleNewFromData(1, &n, type, m->data);
	PyObject *owner = a ? PyCapsule_New(m, NULL, unmap_data) : NULL;
	if (!owner || PyArray_SetBaseObject((PyArrayObject *) a, owner)) {
		if (!owner) {
			munmap(m->data, m->bytes);
			PyMem_RawFree(m);
		}
		Py_XDECREF(a);
		return NULL;
	}
	return a;
}

static void job_free(struct job *j)
{
	for (size_t k = 0; k < j->ncols; k++) {
		struct column *col = &j->cols[k];
		if (col->kind == COL_TEXT && col->data)
			for (size_t i = 0; i < j->n; i++)
				Py_DECREF(((PyObject **) col->data)[i]);
		if (col->data)
			munmap(col->data, j->cap * elem_size(col->kind));
		Py_XDECREF(col->last);
		Py_XDECREF(col->name);
	}
	PyMem_Free(j->cols);
	PyMem_Free(j->slot);
	PyMem_Free(j->places);
	Py_XDECREF(j->damage.messages);
	spoor_reader_close(j->r);
}

static int take_columns(struct job *j, PyObject *names)
{
	PyObject *seq = PySequence_Fast(names, "columns must be a list of names");
	if (!seq)
		return -1;
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	j->cols = PyMem_Calloc((size_t) n + 1, sizeof(*j->cols));
	if (!j->cols) {
		Py_DECREF(seq);
		PyErr_NoMemory();
		return -1;
	}
	for (Py_ssize_t k = 0; k < n; k++) {
		struct column *col = &j->cols[k];
		col->name = PySequence_Fast_GET_ITEM(seq, k);
		Py_INCREF(col->name); /* a DamageWarning's handler may empty the list */
		j->ncols = (size_t) k + 1;
		if (!PyUnicode_Check(col->name) || !(col->utf8 = PyUnicode_AsUTF8(col->name))) {
			if (!PyErr_Occurred())
				PyErr_SetString(PyExc_TypeError, "a column's name must be a str");
			Py_DECREF(seq);
			return -1;
		}
		col->kind = !strcmp(col->utf8, "ts")    ? COL_TS
		            : !strcmp(col->utf8, "cpu") ? COL_CPU
		                                        : COL_INT;
		col->typed = col->kind != COL_INT;
	}
	Py_DECREF(seq);
	return 0;
}

PyObject *spy_columns(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = {"paths", "cls", "columns", "part", "begin", "end", "strict", NULL};
	PyObject *paths, *names, *part = Py_None, *begin = Py_None, *end = Py_None;
	const char *cls;
	int strict = 0;
	struct spy_source src;
	struct job j = {0};
	bool has_range;
	int64_t b, e;

	if (!PyArg_ParseTupleAndKeywords(args, kw, "OsO|OOOp", kwlist, &paths, &cls, &names, &part,
	                                 &begin, &end, &strict) ||
	    spy_range_get(begin, end, &has_range, &b, &e) || spy_source_get(&src, paths, part))
		return NULL;
	j.damage.strict = strict;
	int rc = spy_reader_open(&src, &j.damage, &j.r);
	spy_source_free(&src);
	PyObject *out = NULL;
	if (!rc && !take_columns(&j, names) && !choose(&j, cls)) {
		if (has_range)
			spoor_reader_set_range(j.r, b, e);
		if (!run(&j) && (out = PyDict_New()))
			for (size_t k = 0; out && k < j.ncols; k++) {
				PyObject *a = array_of(&j, k);
				if (!a || PyDict_SetItem(out, j.cols[k].name, a))
					Py_CLEAR(out);
				Py_XDECREF(a);
			}
	}
	job_free(&j);
	return out;
}

int spy_columns_init(void)
{
	import_array1(-1);
	return 0;
}
